"""#31 item 5: ruff's --output-format and the formats CI systems read, each checked against its shape."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from .conftest import CLI, EXAMPLES

DATA = Path(__file__).parent / "data"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dest = tmp_path / "examples"
    shutil.copytree(EXAMPLES, dest)
    monkeypatch.chdir(dest)
    return dest


def _findings(cli: CLI) -> list[dict[str, Any]]:
    return json.loads(cli("check", "--format", "json", ".").out)["findings"]  # type: ignore[no-any-return]


def test_output_format_is_format(cli: CLI, project: Path) -> None:
    """ruff's flag name; --format stays as its alias."""
    a = cli("check", "--output-format", "json", ".")
    assert a.code == 1 and json.loads(a.out) == json.loads(cli("check", "--format", "json", ".").out)


def test_json_lines_is_one_finding_per_line(cli: CLI, project: Path) -> None:
    out = cli("check", "--output-format", "json-lines", ".").out
    assert [json.loads(line) for line in out.splitlines()] == _findings(cli)


def test_pylint_format(cli: CLI, project: Path) -> None:
    out = cli("check", "--output-format", "pylint", ".").out.splitlines()
    findings = _findings(cli)
    assert out == [f"{f['path']}:{f['start']['line']}: [{f['code']}] {f['message']}" for f in findings]


def test_concise_never_shows_source_and_full_always_does(cli: CLI, project: Path) -> None:
    findings = _findings(cli)
    concise = cli("check", "--output-format", "concise", "--show-source", ".").out.splitlines()
    assert len(concise) == len(findings) and all(re.match(r"\S+:\d+:\d+: IRI\d{3} ", line) for line in concise)
    full = cli("check", "--output-format", "full", ".").out.splitlines()
    carets = [line for line in full if line.strip() and set(line.strip()) == {"^"}]
    assert len(carets) == len(findings)
    # and the fix of each finding that has one, unsafe ones too (fixtures57, repro 03)
    notes = [line.strip() for line in full if line.strip().startswith(("fix (", "unsafe fix ("))]
    assert len(notes) == sum(1 for f in findings if f["fix"]) and any(n.startswith("unsafe") for n in notes)


def _junit_structure(root: ET.Element) -> None:
    """What JUnit readers (Jenkins' junit-10.xsd, GitLab, Azure) require, checked by hand."""
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    cases = [c for s in suites for c in s.findall("testcase")]
    for s in suites:
        assert s.get("name") and int(s.get("tests", "-1")) == len(s.findall("testcase"))
        assert int(s.get("failures", "-1")) == len(s.findall("testcase/failure"))
        assert int(s.get("errors", "-1")) == len(s.findall("testcase/error"))
        assert set(child.tag for child in s) <= {"testcase", "properties", "system-out", "system-err"}
    for c in cases:
        assert c.get("name") and c.get("classname")
        assert set(child.tag for child in c) <= {"failure", "error", "skipped", "system-out", "system-err"}
        for child in c:
            assert child.tag not in ("failure", "error") or child.get("message")
    assert int(root.get("tests", "-1")) == len(cases)
    assert int(root.get("failures", "-1")) == sum(len(c.findall("failure")) for c in cases)
    assert int(root.get("errors", "-1")) == sum(len(c.findall("error")) for c in cases)


def test_junit(cli: CLI, project: Path) -> None:
    r = cli("check", "--output-format", "junit", ".")
    assert r.code == 1
    root = ET.fromstring(r.out.encode("utf-8"))
    _junit_structure(root)
    findings = _findings(cli)
    cases = [(c.get("file"), c.get("name"), int(c.get("line", "0"))) for c in root.iter("testcase")]
    assert cases == [(f["path"], f"iri-lint.{f['code']}", f["start"]["line"]) for f in findings]
    assert [f.get("message") for f in root.iter("failure")] == [f["message"] for f in findings]


def test_junit_with_nothing_to_report_and_with_a_broken_file(cli: CLI, tmp_path: Path) -> None:
    clean = tmp_path / "clean.py"
    clean.write_text('URL = "https://example.com/"\n', encoding="utf-8")
    ok = ET.fromstring(cli("check", "--isolated", "--format", "junit", str(clean)).out.encode("utf-8"))
    _junit_structure(ok)
    assert [c.get("name") for c in ok.iter("testcase")] == ["No errors found"]
    broken = tmp_path / "broken.py"
    broken.write_text('URL = "https://example.com/a b"\ndef f(:\n', encoding="utf-8")
    r = cli("check", "--isolated", "--format", "junit", str(broken), str(tmp_path / "missing.py"))
    root = ET.fromstring(r.out.encode("utf-8"))
    _junit_structure(root)
    assert root.get("errors") == "2" and {e.get("message") for e in root.iter("error")} >= {"No such file or directory"}


def test_gitlab_code_quality_validates_against_its_schema(cli: CLI, project: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "gitlab-code-quality.schema.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("CI_PROJECT_DIR", str(project.parent))  # GitLab's checkout: paths relative to it
    doc = json.loads(cli("check", "--output-format", "gitlab", ".").out)
    jsonschema.validate(doc, schema)
    findings = _findings(cli)
    assert [(i["check_name"], i["location"]["path"], i["location"]["positions"]["begin"]["line"]) for i in doc] == \
        [(f["code"], f"examples/{f['path']}", f["start"]["line"]) for f in findings]
    assert len({i["fingerprint"] for i in doc}) == len(doc)  # GitLab shows one issue per fingerprint
    broken = json.loads(json.dumps(doc))
    broken[0]["severity"] = "error"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)  # the schema constrains what we emit


def test_an_unknown_format_is_a_usage_error(cli: CLI, project: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        cli("check", "--output-format", "xml", ".")
    assert exc.value.code == 2
