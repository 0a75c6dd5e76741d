"""Machine outputs (json, sarif), baselines, --add-noqa, explain, rules, inspect, --version."""

from __future__ import annotations

import json
import os
import shutil
import unicodedata
from pathlib import Path

import idna
import pytest

from iri_lint.rules.model import rule_url
from iri_lint.rules.registry import RULES

from .conftest import EXAMPLES, RunMain

DATA = Path(__file__).parent / "data"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    dest = tmp_path / "examples"
    shutil.copytree(EXAMPLES, dest)
    return dest


def test_json_fields(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(cli("check", "--exit-zero", "--format", "json", str(project)).out)
    assert doc["errors"] == [] and doc["fixed"] == []
    item = doc["findings"][0]
    assert set(item) == {"path", "code", "name", "message", "severity", "start", "end", "value", "url", "fix", "cell",
                         "spelled_in"}
    assert item["cell"] is None  # notebooks only
    # (placed at a name bringing another module's piece: the examples' shop/ reads its settings)
    assert all((x["spelled_in"] is None) == (" (spelled in " not in x["message"]) for x in doc["findings"])
    assert item["start"]["line"] >= 1 and item["start"]["column"] >= 1
    assert item["url"] == rule_url(item["code"])
    fixes = [x["fix"] for x in doc["findings"] if x["fix"]]
    assert fixes and all({"edits", "safety", "status", "level", "value", "description"} <= set(f) for f in fixes)


# ``requests.get("https://h.example" + RLO_SEG)``: the override is spelled in conf/paths.py, after an emoji (one
# code point, two UTF-16 code units), at the escape's backslash; the other line is a literal's own finding
SPELLING = 'X = 1\nE = "\U0001f600"; RLO_SEG = "/a\\u202eb"\n'
USE = ('import requests\nfrom conf.paths import RLO_SEG\nrequests.get("https://h.example" + RLO_SEG)\n'
       'requests.get("https://h.example/a b")\n')
SPELLED_COL = SPELLING.splitlines()[1].index("\\")  # 0-based code points: 22


def two_modules(root: Path) -> Path:
    """A repository whose app/use.py reads a piece of conf/paths.py (``test_values_check``'s project)."""
    (root / ".git").mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    for package in ("conf", "app"):
        (root / package).mkdir()
        (root / package / "__init__.py").write_text("", encoding="utf-8")
    (root / "conf" / "paths.py").write_text(SPELLING, encoding="utf-8")
    (root / "app" / "use.py").write_text(USE, encoding="utf-8")
    return root


def test_json_says_where_another_module_spells_a_finding_placed_at_a_name(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The message's ``(spelled in conf/paths.py:2:23)`` as data: the path named as the finding's is (from the
    current folder, or absolute), 1-based line and code point column; null for a literal's own finding."""
    monkeypatch.chdir(two_modules(tmp_path))
    where = os.path.join("conf", "paths.py")
    for arg, path in (("app", where), (str(tmp_path / "app"), str(tmp_path / where))):
        doc = json.loads(cli("check", "--isolated", "--exit-zero", "--format", "json", arg).out)
        at_name, own = doc["findings"]
        assert (at_name["code"], at_name["start"]["line"], own["code"]) == ("IRI201", 3, "IRI101")
        assert at_name["message"].endswith(f" (spelled in {where}:2:{SPELLED_COL + 1})")
        assert at_name["spelled_in"] == {"path": path, "line": 2, "column": SPELLED_COL + 1}
        assert own["spelled_in"] is None


def test_sarif_relates_a_finding_placed_at_a_name_to_where_its_piece_is_spelled(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SARIF sec. 3.27.22: a related location at the character, its column in UTF-16 code units as the run's
    ``columnKind`` says (the emoji before it takes two), which the message links to (sec. 3.11.6)."""
    monkeypatch.chdir(two_modules(tmp_path) / "app")
    doc = json.loads(cli("check", "--isolated", "--exit-zero", "--format", "sarif", ".").out)
    at_name, own = doc["runs"][0]["results"]
    assert (at_name["ruleId"], own["ruleId"]) == ("IRI201", "IRI101")
    assert at_name["relatedLocations"] == [{
        "id": 0,
        "physicalLocation": {"artifactLocation": {"uri": "conf/paths.py", "uriBaseId": "%SRCROOT%"},
                             "region": {"startLine": 2, "startColumn": SPELLED_COL + 2}},
        "message": {"text": "piece spelled here"}}]
    where = os.path.join("conf", "paths.py")
    assert at_name["message"]["text"].endswith(f" (spelled in [{where}:2:{SPELLED_COL + 1}](0))")
    assert "relatedLocations" not in own and own["message"]["text"] == own["message"]["text"].replace("](", "")
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(doc)


def _sarif(cli, project: Path, monkeypatch: pytest.MonkeyPatch) -> dict:  # type: ignore[no-untyped-def, type-arg]
    monkeypatch.chdir(project)
    return json.loads(cli("check", "--exit-zero", "--format", "sarif", ".").out)  # type: ignore[no-any-return]


def test_sarif_structure(cli, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    doc = _sarif(cli, project, monkeypatch)
    run = doc["runs"][0]
    assert doc["version"] == "2.1.0" and run["columnKind"] == "utf16CodeUnits"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [r.code for r in RULES]
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in run["results"]}
    assert "shop/client.py" in uris and not any(u.startswith(("/", "file:")) for u in uris)
    for res in run["results"]:
        assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert len(res["partialFingerprints"]["iriLint/v1"]) == 32
        assert res["partialFingerprints"]["primaryLocationLineHash"]  # the key GitHub reads


def test_sarif_validates_against_the_schema(cli, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    jsonschema = pytest.importorskip("jsonschema")
    schema_file = DATA / "sarif-schema-2.1.0.json"
    if not schema_file.exists():
        pytest.skip("SARIF schema not shipped")
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    doc = _sarif(cli, project, monkeypatch)
    cls = jsonschema.validators.validator_for(schema)
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(doc)
    broken = json.loads(json.dumps(doc))
    broken["runs"][0]["columnKind"] = "bytes"
    with pytest.raises(jsonschema.ValidationError):
        cls(schema).validate(broken)  # the schema really constrains what we emit
    # and the same after fixing: applied fixes are no results (GitHub would show them as alerts)
    fixed = json.loads(cli("check", "--exit-zero", "--fix", "--format", "sarif", ".").out)
    assert not any(r.get("kind") == "pass" for r in fixed["runs"][0]["results"])
    assert fixed["runs"][0]["properties"]["fixed"]
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(fixed)


def test_sarif_reads_right_in_github_code_scanning(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """GitHub's own expectations: security tags and severities, UTF-16 columns, URIs from the
    repository's top level whatever the current folder."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pkg").mkdir()
    (repo / "pkg" / "m.py").write_text('E = "😀"; BIDI_URL = "http://example.com/a\u202eb"\n', encoding="utf-8")
    monkeypatch.chdir(repo / "pkg")
    doc = json.loads(cli("check", "--isolated", "--exit-zero", "--format", "sarif", "m.py").out)
    run = doc["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert "security" in rules["IRI201"]["properties"]["tags"]
    assert float(rules["IRI201"]["properties"]["security-severity"]) >= 7.0
    assert float(rules["IRI502"]["properties"]["security-severity"]) >= 7.0
    assert "security" not in rules["IRI101"]["properties"]["tags"]
    (res,) = run["results"]
    location = res["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "pkg/m.py"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.as_uri() + "/"
    line = (repo / "pkg" / "m.py").read_text(encoding="utf-8").splitlines()[0]
    units = line.encode("utf-16-le")
    start = location["region"]["startColumn"] - 1  # the emoji before it takes two UTF-16 units
    assert units[start * 2 : start * 2 + 2].decode("utf-16-le") == "\u202e"


def test_baseline_reports_only_new_findings(cli, project: Path) -> None:  # type: ignore[no-untyped-def]
    base = project / "iri-baseline.json"
    r = cli("check", "--baseline", str(base), str(project))  # a mistyped path must not pass silently
    assert r.code == 2 and not base.exists() and "--update-baseline" in r.err
    r = cli("check", "--baseline", str(base), "--update-baseline", str(project))
    assert r.code == 0 and base.exists() and "wrote" in r.err
    assert cli("check", "--baseline", str(base), str(project)).code == 0
    # moving code down keeps fingerprints; a new bad literal is reported
    client = project / "shop" / "client.py"
    client.write_text('"""Moved."""\n\n\n' + client.read_text() + 'EXTRA_URL = "https://example.com/x y"\n')
    r = cli("check", "--baseline", str(base), str(project))
    assert r.code == 1 and r.out.count("\n") == 1 and "IRI101" in r.out
    # a copy of an existing bad literal is new too (occurrence index)
    client.write_text(client.read_text() + 'CLONE = "htps://example.com/status"\n')
    assert cli("check", "--baseline", str(base), str(project)).out.count("\n") == 2
    assert cli("check", "--baseline", str(base), "--update-baseline", str(project)).code == 0
    assert cli("check", "--baseline", str(base), str(project)).code == 0


def test_baseline_fingerprints_ignore_line_numbers() -> None:
    from iri_lint.cli.baseline import fingerprints
    from iri_lint.cli.results import Record

    def rec(line: int, value: str = "http://x y") -> Record:
        return Record("a.py", line, 0, line, 1, "IRI101", "space-in-iri", "m", "error", value, "")

    base = Path.cwd()
    assert fingerprints([rec(1)], base) == fingerprints([rec(90)], base)
    a, b = fingerprints([rec(1), rec(2)], base)
    assert a != b
    assert fingerprints([rec(1, "http://x z")], base) != fingerprints([rec(1)], base)


def test_a_baselined_url_value_stays_so_when_another_modules_constant_changes(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path) -> None:
    """``requests.get(CDN + "/team photo.jpg")``: its fingerprint hashes the use as written, not the assembled
    value, which a change of ``CDN`` in config.py changes (fixtures39, repro 02); a baseline written when the
    value was hashed still holds."""
    import json

    from iri_lint.cli.baseline import fingerprints, new_only
    from iri_lint.cli.results import Record

    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    config = tmp_path / "config.py"
    config.write_text('CDN = "https://cdn.example.net"\n', encoding="utf-8")
    (tmp_path / "app.py").write_text('import requests\nfrom config import CDN\nrequests.get(CDN + "/team photo.jpg")\n',
                                     encoding="utf-8")
    base = tmp_path / "baseline.json"
    assert cli("check", "--isolated", "--baseline", str(base), "--update-baseline", str(tmp_path)).code == 0
    (entry,) = json.loads(base.read_text(encoding="utf-8"))["fingerprints"].values()
    assert entry["code"] == "IRI101"
    config.write_text('CDN = "https://cdn2.example.net"\n', encoding="utf-8")
    assert cli("check", "--isolated", "--baseline", str(base), str(tmp_path)).code == 0
    r = Record("app.py", 3, 24, 3, 25, "IRI101", "n", "m", "error", "https://h/a b", "", anchor='H + "/a b"')
    legacy = set(fingerprints([r], tmp_path, by_value=True))
    assert new_only([r], legacy, tmp_path / "b.json") == [] and new_only([r], set(), tmp_path / "b.json") == [r]


def test_a_baselined_url_value_stays_so_when_a_formatter_respaces_its_use(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path) -> None:
    """``CDN+"/team photo.jpg"`` made ``CDN + '/team photo.jpg'`` over three lines is the same use (fixtures57,
    repro 04); another piece is not; a baseline written with the anchor's raw text still holds."""
    from iri_lint.cli.baseline import fingerprints, new_only
    from iri_lint.cli.results import Record

    app = tmp_path / "app.py"
    app.write_text('import requests\nCDN = "https://cdn.example.net"\nrequests.get(CDN+"/team photo.jpg")\n',
                   encoding="utf-8")
    base = tmp_path / "baseline.json"
    assert cli("check", "--isolated", "--baseline", str(base), "--update-baseline", str(app)).code == 0
    app.write_text("import requests\nCDN = 'https://cdn.example.net'\nrequests.get(\n    CDN\n"
                   "    + '/team photo.jpg'\n)\n", encoding="utf-8")
    assert cli("check", "--isolated", "--baseline", str(base), str(app)).code == 0
    app.write_text('import requests\nCDN = "https://cdn.example.net"\nrequests.get(CDN + "/team  photo.jpg")\n',
                   encoding="utf-8")
    assert cli("check", "--isolated", "--baseline", str(base), str(app)).code == 1
    r = Record("app.py", 3, 24, 3, 25, "IRI101", "n", "m", "error", "https://h/a b", "", anchor='H+"/a b"')
    legacy = set(fingerprints([r], tmp_path, raw=True))
    assert new_only([r], legacy, tmp_path / "b.json") == []


def test_add_noqa(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    before = (
        'A_URL = "https://example.com/a b"\n'
        'B_URL = ("https://example.com/|"\n'
        '         "x")\n'
        "D_URL = \"\"\"https://example.com/\n"
        "e f\"\"\"\n"
        'C_URL = "https://example.com/c d"  # noqa: E501\n'
    )
    after = (
        'A_URL = "https://example.com/a b"  # noqa: IRI101\n'
        'B_URL = ("https://example.com/|"  # noqa: IRI103\n'  # flake8 reads each bracketed line alone
        '         "x")\n'
        "D_URL = \"\"\"https://example.com/\n"
        "e f\"\"\"  # noqa: IRI104, IRI101\n"  # a multi-line string shares one comment
        'C_URL = "https://example.com/c d"  # noqa: E501, IRI101\n'
    )
    f.write_text(before)
    r = cli("check", "--isolated", "--add-noqa", str(f))
    assert r.code == 0, r.out
    assert f.read_text() == after
    assert cli("check", "--isolated", str(f)).code == 0
    assert cli("check", "--isolated", "--add-noqa", str(f)).code == 0
    assert f.read_text() == after


def test_explain_by_code_and_name(cli) -> None:  # type: ignore[no-untyped-def]
    by_code = cli("explain", "IRI201")
    by_name = cli("explain", "bidi-formatting-character")
    assert by_code.code == 0 and by_code.out == by_name.out
    for part in ("IRI201 bidi-formatting-character", "RFC 3987 sec. 4.1", "Why", "How to fix", "Fix safety"):
        assert part in by_code.out
    assert "\\u202e" in by_code.out.lower() or "\\u200f" in by_code.out.lower()  # invisible chars shown


def test_rules_table(cli) -> None:  # type: ignore[no-untyped-def]
    out = cli("rules").out.splitlines()
    assert out[0].split() == ["code", "name", "family", "default", "fix"]
    assert len(out) == len(RULES) + 1
    assert any(line.startswith("IRI201") and "bidi" in line for line in out)


def test_inspect(cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("inspect", "HTTPS://例え.jp:443/a%7e")
    assert r.code == 0
    for part in ("Components", "host", "IRI303", "to_uri", "xn--r8jz45g.jp", "%E4%BE%8B", "syntax",
                 "https://例え.jp/a~"):
        assert part in r.out
    data = json.loads(cli("inspect", "--json", "http://example.org/ابت/123/").out)
    assert data["bidi"]["displayed"] != data["bidi"]["logical"]
    assert data["to_uri"]["value"] == "http://example.org/%D8%A7%D8%A8%D8%AA/123/"


def test_version_prints_data_versions(cli) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        cli("--version")
    assert exc.value.code == 0


def test_version_text() -> None:
    from iri_lint.cli.version import version_line as _version

    text = _version()
    assert f"Unicode {unicodedata.unidata_version}" in text and f"idna {idna.__version__}" in text


SURROGATE_SOURCE = 'URL = "http://example.com/\\ud800x"\n'  # the value holds a lone surrogate


@pytest.mark.parametrize("fmt", ["json", "sarif", "github", "text", "html"])
def test_every_format_carries_a_lone_surrogate_whole(run_main: RunMain, tmp_path: Path, fmt: str) -> None:
    src = tmp_path / "m.py"
    src.write_text(SURROGATE_SOURCE, encoding="utf-8")
    out = tmp_path / f"report.{fmt}"
    p = run_main("check", "--isolated", "--format", fmt, "-o", str(out), str(src))
    assert p.returncode == 1, p.stderr
    data = out.read_bytes().decode("utf-8")  # whole, and UTF-8
    if fmt == "json":
        (finding,) = json.loads(data)["findings"]
        assert finding["value"] == "http://example.com/\ud800x"
    elif fmt == "sarif":
        assert json.loads(data)["runs"][0]["results"]
    assert "IRI109" in data
    piped = run_main("check", "--isolated", "--format", fmt, str(src))  # and on stdout
    assert piped.returncode == 1 and b"IRI109" in piped.stdout, piped.stderr


def test_a_baseline_holds_a_lone_surrogate(run_main: RunMain, tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(SURROGATE_SOURCE, encoding="utf-8")
    base = tmp_path / "baseline.json"
    assert run_main("check", "--isolated", "--baseline", str(base), "--update-baseline", str(src)).returncode == 0
    (entry,) = json.loads(base.read_text(encoding="utf-8"))["fingerprints"].values()
    assert entry["value"] == "http://example.com/\ud800x"
    assert run_main("check", "--isolated", "--baseline", str(base), str(src)).returncode == 0


def test_an_unwritable_report_is_one_line_and_leaves_nothing(run_main: RunMain, tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(SURROGATE_SOURCE, encoding="utf-8")
    p = run_main("check", "--isolated", "--format", "json", "-o", str(tmp_path / "no" / "r.json"), str(src))
    assert p.returncode == 2
    assert p.stderr.decode().count("\n") == 1 and "cannot write" in p.stderr.decode()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["m.py"]


def test_json_fix_edits_carry_their_place_in_the_file(run_main: RunMain, tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text('import requests\nrequests.get("https://example.com/\\u00e9 b")\n', encoding="utf-8")
    p = run_main("check", "--isolated", "--format", "json", str(src))
    (finding,) = [f for f in json.loads(p.stdout)["findings"] if f["code"] == "IRI101"]
    (edit,) = finding["fix"]["edits"]
    where = edit["file"]
    line = src.read_text(encoding="utf-8").splitlines()[where["start"]["line"] - 1]
    assert line[where["start"]["column"] - 1 : where["end"]["column"] - 1] == " "  # after the \u00e9 escape
    assert finding["value"][edit["start"] : edit["end"]] == " "
