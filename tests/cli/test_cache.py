"""The result cache of ``iri-lint check`` (iri_lint.cli.cache): hits, misses on every change that matters,
corrupt and hostile tables, folders that cannot be written, concurrent runs, and output identical to a
run without it. No timings here: whether a file was checked is seen by spying on the check itself."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import iri_lint
from iri_lint.cli import cache as cachemod
from iri_lint.cli import run as runmod
from iri_lint.cli.results import FileResult, Job
from iri_lint.config import Config

from .conftest import EXAMPLES, ROOT, RunMain, run_cli
from .test_notebooks import make_notebook
from .test_outputs import SPELLED_COL, two_modules

FIXTURES = ROOT / "tests" / "flake8" / "fixtures"
FINDING = 'URL = "https://example.com/a b"\n'
CLEAN = "import os\nX = 1\n"


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the linter is run on (a cache hit does not run it)."""
    calls: list[str] = []
    original = runmod._check_file

    def spy(job: Job, data: bytes) -> FileResult:
        calls.append(Path(job.path).name)
        return original(job, data)

    monkeypatch.setattr(runmod, "_check_file", spy)
    return calls


def _broken_linter(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(job: Job, data: bytes) -> FileResult:
        raise AssertionError(f"{job.path} checked again")

    monkeypatch.setattr(runmod, "_check_file", fail)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.iri-lint]\nextend-select = ['IRI308']\n", encoding="utf-8")
    (root / "pkg" / "a.py").write_text(FINDING, encoding="utf-8")
    (root / "pkg" / "b.py").write_text(CLEAN, encoding="utf-8")
    (root / "pkg" / "broken.py").write_text('URL = "https://example.com/\n', encoding="utf-8")  # a problem
    (root / "pkg" / "nb.ipynb").write_text(make_notebook(), encoding="utf-8")
    return root


def _tables(base: Path) -> list[Path]:
    """The tables of this version of iri-lint in the cache folder ``base``."""
    return sorted((base / iri_lint.__version__).glob("*.json"))


def test_a_second_run_checks_nothing_and_reports_the_same(cli, project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    first = cli("check", "--cache-dir", str(cache), str(project))
    assert first.code == 1 and "IRI101" in first.out and "cell 2" in first.out and "broken.py" in first.err
    _broken_linter(monkeypatch)
    second = cli("check", "--cache-dir", str(cache), str(project))
    assert (second.code, second.out, second.err) == (first.code, first.out, first.err)


def test_the_stat_shortcut_still_sees_a_change_of_the_same_size_and_time(  # type: ignore[no-untyped-def]
        cli, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str]) -> None:
    monkeypatch.setattr(cachemod, "TRUST_AFTER", 0)  # every file old enough for its stat to be trusted
    cache = tmp_path / "cache"
    cli("check", "--cache-dir", str(cache), str(project))
    (table,) = _tables(cache)
    assert all(e[2] is not None for e in json.loads(table.read_text())["files"].values())
    checked.clear()
    assert cli("check", "--cache-dir", str(cache), str(project)).code == 1
    assert checked == []  # a hit on the stat alone
    a = project / "pkg" / "a.py"
    st = a.stat()
    a.write_text(FINDING.replace("a b", "a_b"), encoding="utf-8")  # same size
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns))  # same modification time: only ctime tells
    out = cli("check", "--cache-dir", str(cache), str(project)).out
    assert checked == ["a.py"] and "a.py" not in out


def test_only_the_changed_file_is_checked_again(cli, project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                checked: list[str]) -> None:
    cache = tmp_path / "cache"
    cli("check", "--cache-dir", str(cache), str(project))
    assert sorted(checked) == ["a.py", "b.py", "broken.py", "nb.ipynb"]
    checked.clear()
    (project / "pkg" / "b.py").write_text(CLEAN + FINDING, encoding="utf-8")
    r = cli("check", "--cache-dir", str(cache), str(project))
    assert checked == ["b.py"]
    assert "b.py:3:29: IRI101" in r.out and "a.py:1:29: IRI101" in r.out


@pytest.mark.parametrize("change", ["--select", "--ignore", "pyproject", "version"])
def test_a_new_configuration_or_version_checks_everything_again(  # type: ignore[no-untyped-def]
        cli, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: list[str],
        change: str) -> None:
    cache = tmp_path / "cache"
    base = cli("check", "--cache-dir", str(cache), str(project))
    checked.clear()
    extra: list[str] = []
    if change == "--select":
        extra = ["--select", "IRI2"]
    elif change == "--ignore":
        extra = ["--ignore", "IRI101"]
    elif change == "pyproject":
        (project / "pyproject.toml").write_text("[tool.iri-lint]\nignore = ['IRI101']\n", encoding="utf-8")
    else:
        monkeypatch.setattr(iri_lint, "__version__", iri_lint.__version__ + ".post1")
    r = cli("check", "--cache-dir", str(cache), *extra, str(project))
    assert sorted(checked) == ["a.py", "b.py", "broken.py", "nb.ipynb"]
    if change == "version":
        assert r.out == base.out
    else:
        assert "a.py:1:29: IRI101" in base.out and "a.py:1:29: IRI101" not in r.out


def test_every_setting_is_in_the_key(tmp_path: Path) -> None:
    cache = cachemod.ResultCache(tmp_path / "c", tmp_path)
    names = {cache._table(Config()).path.name}
    for f in dataclasses.fields(Config):
        value = getattr(Config(), f.name)
        other: Any = (not value if isinstance(value, bool) else "uri" if f.name == "profile"
                 else (("x/*", ("IRI1",)),) if f.name == "per_file_ignores" else ("IRI9",))
        names.add(cache._table(dataclasses.replace(Config(), **{f.name: other})).path.name)
    assert len(names) == len(dataclasses.fields(Config)) + 1


def test_the_path_matched_by_per_file_ignores_is_in_the_key(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(FINDING, encoding="utf-8")
    cache = cachemod.ResultCache(tmp_path / "c", tmp_path)
    job = Job(str(path), Config(), lint_path="t.py")
    result, key = cachemod.check_keyed(job)
    assert key is not None and result.records
    cache.store(job, key, result)
    assert set(cache.lookup([job])) == {0}
    assert cache.lookup([job._replace(lint_path="tests/t.py")]) == {}


def test_a_result_whose_values_were_not_read_to_the_end_is_not_kept(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A RecursionError past the evaluator's own limits keeps the literals' findings, but what the values
    read is then not all known: the result is not stored, or a change of a module they read would not be seen."""
    import iri_lint.lint as lintmod

    def deep(*args: object, **kwargs: object) -> list[object]:
        raise RecursionError

    path = tmp_path / "t.py"
    path.write_text("import requests\nfrom conf import HOST\nrequests.get(HOST + 'docs')\n" + FINDING, encoding="utf-8")
    job = Job(str(path), Config(), lint_path="t.py")
    result, key = cachemod.check_keyed(job)
    assert key is not None and [r.line for r in result.records] == [4]
    monkeypatch.setattr(lintmod, "value_findings", deep)
    result, key = cachemod.check_keyed(job)
    assert key is None and [r.line for r in result.records] == [4]


CORRUPTIONS: dict[str, Callable[[bytes], bytes]] = {
    "garbage": lambda b: b"\x00\xff not json",
    "truncated": lambda b: b[: len(b) // 2],
    "empty": lambda b: b"",
    "deep nesting": lambda b: b"[" * 100_000 + b"]" * 100_000,
    "not an object": lambda b: b"[1, 2, 3]",
    "wrong format": lambda b: b.replace(b'"format":%d' % cachemod.FORMAT, b'"format":99'),
    "line is a string": lambda b: _first_record(b, 0, "1"),
    "a bool for an int": lambda b: _first_record(b, 1, True),
    "a list for a string": lambda b: _first_record(b, 6, ["message"]),
    "a huge record": lambda b: _first_record(b, 9, "x" * 1_000_000),
    "records not a list": lambda b: _entry(b, "a.py", 4, {"x": 1}),
    "short record": lambda b: _entry(b, "a.py", 4, [[1, 2]]),
    "bad fix": lambda b: _entry(b, "a.py", 4, [[1, 26, 1, 28, "IRI101", "n", "m", "error", "v", "s",
                                                ["d", "safe", "l", "v", [["0", 1, "x"]], "available", "", []],
                                                None, None]]),
    "bad problem": lambda b: _entry(b, "broken.py", 5, [1, 0]),
    "bad stat": lambda b: _entry(b, "a.py", 2, ["x"] * 5),
    "stat of another file": lambda b: _entry(b, "a.py", 1, "0" * 64),
    "bad dependencies": lambda b: _entry(b, "a.py", 6, [["settings.py"]]),
    "a missing dependency": lambda b: _entry(b, "a.py", 6, [["/nonexistent/settings.py", "0" * 64]]),
}


def _first_record(data: bytes, index: int, value: object) -> bytes:
    doc = json.loads(data)
    for path, entry in doc["files"].items():
        if path.endswith("a.py"):
            entry[4][0][index] = value
    return json.dumps(doc).encode()


def _entry(data: bytes, name: str, index: int, value: object) -> bytes:
    doc = json.loads(data)
    for path, entry in doc["files"].items():
        if path.endswith(name):
            entry[index] = value
    return json.dumps(doc).encode()


@pytest.mark.parametrize("corrupt", list(CORRUPTIONS))
def test_a_corrupt_table_is_ignored_and_rebuilt(cli, project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                monkeypatch: pytest.MonkeyPatch, corrupt: str) -> None:
    cache = tmp_path / "cache"
    truth = cli("check", "--no-cache", str(project))
    cli("check", "--cache-dir", str(cache), str(project))
    (table,) = _tables(cache)
    before = table.read_bytes()
    table.write_bytes(CORRUPTIONS[corrupt](before))
    assert table.read_bytes() != before
    again = cli("check", "--cache-dir", str(cache), str(project))
    assert (again.code, again.out, again.err) == (truth.code, truth.out, truth.err)
    files = json.loads(table.read_text())["files"]  # rewritten whole, every entry sound
    assert len(files) == 4 and all(cachemod.decode("p", e[4], e[5]) is not None for e in files.values())
    _broken_linter(monkeypatch)
    third = cli("check", "--cache-dir", str(cache), str(project))
    assert (third.code, third.out, third.err) == (truth.code, truth.out, truth.err)


def test_a_folder_that_cannot_be_written_only_warns(cli, project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    truth = cli("check", "--no-cache", str(project))
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    r = cli("check", "--cache-dir", str(blocker / "cache"), str(project))
    assert (r.code, r.out) == (truth.code, truth.out)
    warnings = [line for line in r.err.splitlines() if "not cached" in line]
    assert len(warnings) == 1 and r.err.replace(warnings[0] + "\n", "") == truth.err


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_cache_is_read_and_left_alone(cli, project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    truth = cli("check", "--cache-dir", str(cache), str(project))
    ours = cache / iri_lint.__version__
    ours.chmod(0o555)
    try:
        (project / "pkg" / "b.py").write_text(CLEAN + "\n", encoding="utf-8")  # one miss: a write is tried
        r = cli("check", "--cache-dir", str(cache), str(project))
        assert (r.code, r.out) == (truth.code, truth.out) and "not cached" in r.err
    finally:
        ours.chmod(0o755)


def test_no_cache_neither_reads_nor_writes(cli, project: Path, tmp_path: Path, checked: list[str]) -> None:  # type: ignore[no-untyped-def]
    cache = tmp_path / "cache"
    cli("check", "--no-cache", "--cache-dir", str(cache), str(project))
    assert not cache.exists()
    cli("check", "--cache-dir", str(cache), str(project))
    checked.clear()
    cli("check", "--no-cache", "--cache-dir", str(cache), str(project))
    assert len(checked) == 4


@pytest.mark.parametrize(("value", "used"), [("1", False), ("true", False), ("0", True), ("", True)])
def test_the_environment_can_turn_the_cache_off(cli, project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                monkeypatch: pytest.MonkeyPatch, value: str, used: bool) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("IRI_LINT_NO_CACHE", value)
    cli("check", "--cache-dir", str(cache), str(project))
    assert cache.exists() == used


def test_fixing_and_stdin_do_not_use_the_cache(run_main: RunMain, cli, project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                               checked: list[str]) -> None:
    cache = tmp_path / "cache"
    cli("check", "--cache-dir", str(cache), str(project))
    table = _tables(cache)[0].read_bytes()
    for flags in (["--diff"], ["--fix"], ["--add-noqa"]):
        checked.clear()
        cli("check", "--cache-dir", str(cache), *flags, str(project / "pkg" / "b.py"))
        assert checked == ["b.py"], flags
    assert _tables(cache)[0].read_bytes() == table
    other = tmp_path / "other"
    p = run_main("check", "--cache-dir", str(other), "--stdin-filename", "x.py", "-", stdin=FINDING.encode())
    assert p.returncode == 1 and b"IRI101" in p.stdout and not other.exists()


def test_the_default_folder_is_beside_the_pyproject_and_ignored_by_git(  # type: ignore[no-untyped-def]
        cli, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IRI_LINT_CACHE_DIR")
    monkeypatch.chdir(project / "pkg")
    cli("check", ".")
    folder = project / cachemod.CACHE_DIR_NAME / iri_lint.__version__
    assert folder.is_dir() and (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_bytes().startswith(b"Signature: 8a477f597d28d172789f06886806bc55")
    elsewhere = project.parent / "env-cache"
    monkeypatch.setenv("IRI_LINT_CACHE_DIR", str(elsewhere))
    (project / "pkg" / "b.py").write_text(CLEAN + "\n", encoding="utf-8")
    cli("check", ".")
    assert _tables(elsewhere)


@pytest.mark.slow  # four processes at once: the cache is shared between processes
def test_concurrent_runs_leave_a_valid_cache_and_correct_output(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for i in range(30):  # more than PARALLEL_THRESHOLD: workers check, the main process stores
        (src / f"m{i}.py").write_text(FINDING * (i % 3) + CLEAN * (i % 2), encoding="utf-8")
    cache = tmp_path / "cache"
    truth = run_cli("check", "--isolated", "--no-cache", str(src))
    args = [sys.executable, "-m", "iri_lint.cli", "check", "--isolated", "--cache-dir", str(cache), "-j", "2"]
    env = {k: v for k, v in os.environ.items() if k != "IRI_LINT_DEBUG"}
    # two runs of the whole tree and two of halves at once, all writing the same table
    files = [str(p) for p in sorted(src.iterdir())]
    runs = [[*args, str(src)], [*args, str(src)], args + files[:15], args + files[15:]]
    procs = [subprocess.Popen(a, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for a in runs]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [1, 1, 1, 1]
    assert outs[0][0] == outs[1][0] == truth.stdout
    assert sorted((outs[2][0] + outs[3][0]).splitlines()) == sorted(truth.stdout.splitlines())
    assert all(b"not cached" not in err and b"Traceback" not in err for _, err in outs), [e for _, e in outs]
    (table,) = _tables(cache)
    doc = json.loads(table.read_text())
    assert 15 <= len(doc["files"]) and set(doc["files"]) <= {str(p) for p in src.iterdir()}
    assert not [p for p in (cache / iri_lint.__version__).iterdir() if p.name.endswith(".iri-lint-tmp")]
    after = run_cli("check", "--isolated", "--cache-dir", str(cache), str(src))
    assert after.stdout == truth.stdout


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "html"])
def test_cached_results_are_the_same_in_every_format(cli, tmp_path: Path, fmt: str,  # type: ignore[no-untyped-def]
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(EXAMPLES, tree / "examples")
    shutil.copytree(FIXTURES, tree / "fixtures")
    (tree / "fixtures" / "nb.ipynb").write_text(make_notebook(), encoding="utf-8")
    monkeypatch.chdir(tree)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the audit page's date: the same in every run
    cache = tmp_path / "cache"
    flags = ["--format", fmt, "--show-source", "--statistics", "--unsafe-fixes"]
    plain = cli("check", "--no-cache", *flags, "examples", "fixtures")
    cold = cli("check", "--cache-dir", str(cache), *flags, "examples", "fixtures")
    _broken_linter(monkeypatch)
    warm = cli("check", "--cache-dir", str(cache), *flags, "examples", "fixtures")
    assert plain.code == cold.code == warm.code == 1
    assert plain.out == cold.out == warm.out and plain.err == cold.err == warm.err
    assert "IRI" in plain.out


def test_a_cached_result_keeps_where_another_module_spells_a_finding(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finding placed at the name bringing another module's piece carries where that module spells it
    (JSON's ``spelled_in``, SARIF's related location): a warm run reads it from the cache, as the cold one made it."""
    monkeypatch.chdir(two_modules(tmp_path / "repo"))
    cache = tmp_path / "cache"
    for fmt in ("json", "sarif"):
        flags = ["--format", fmt, "--isolated", "--exit-zero", "app"]
        plain = cli("check", "--no-cache", *flags)
        cold = cli("check", "--cache-dir", str(cache / fmt), *flags)
        with monkeypatch.context() as m:
            _broken_linter(m)
            warm = cli("check", "--cache-dir", str(cache / fmt), *flags)
        assert plain.out == cold.out == warm.out and plain.err == cold.err == warm.err
    first = json.loads(warm.out)["runs"][0]["results"][0]
    assert first["relatedLocations"][0]["physicalLocation"]["region"]["startColumn"] == SPELLED_COL + 2
    doc = json.loads(cli("check", "--cache-dir", str(cache / "json"), "--format", "json", "--isolated", "app").out)
    assert [f["spelled_in"] for f in doc["findings"]] == [
        {"path": os.path.join("conf", "paths.py"), "line": 2, "column": SPELLED_COL + 1}, None]


# ---------------------------------------------------------------------- the cache touches nothing it did not write
OLD = 40 * 24 * 3600  # seconds: older than anything the cache keeps


def _aged(path: Path, seconds: float = OLD) -> Path:
    t = path.stat().st_mtime - seconds
    os.utime(path, (t, t), follow_symlinks=False)
    return path


def _listing(folder: Path) -> dict[str, bytes | str]:
    """Every entry below ``folder`` (symlinks not followed): its bytes, or what it is."""
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        out[rel] = (f"-> {os.readlink(p)}" if p.is_symlink() else "folder" if p.is_dir() else p.read_bytes())
    return out


def _user_files(folder: Path) -> None:
    """What a user keeps in a folder: JSON, a .tmp, a .gitignore of their own, all of them old."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("package.json", '{"name": "x"}\n'), ("0123456789abcdef01234567.json", "{}\n"),
                       ("notes.tmp", "draft\n"), (".gitignore", "node_modules/\n")):
        (folder / name).write_text(text, encoding="utf-8")
        _aged(folder / name)


@pytest.mark.parametrize("how", ["--cache-dir .", "IRI_LINT_CACHE_DIR"])
def test_a_cache_folder_given_by_the_user_keeps_every_file_in_it(  # type: ignore[no-untyped-def]
        cli, project: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """The issue's: ``--cache-dir .`` deleted a tracked package.json (a *.json older than 30 days)."""
    _user_files(project)
    before = _listing(project)
    monkeypatch.chdir(project)
    args = ["--cache-dir", "."] if how.startswith("--") else []
    if not args:
        monkeypatch.setenv("IRI_LINT_CACHE_DIR", str(project))
    for _ in range(2):  # the second run saves nothing new; a third after a change prunes
        cli("check", *args, "pkg")
    (project / "pkg" / "b.py").write_text(CLEAN + "\n", encoding="utf-8")
    assert cli("check", *args, "pkg").code == 1
    after = _listing(project)
    before["pkg/b.py"] = after["pkg/b.py"]
    ours = {k for k in after if k not in before}
    assert {k: after[k] for k in before} == before  # nothing of the user's changed or went away
    version = iri_lint.__version__
    assert ours and all(k == version or k.startswith(f"{version}/") for k in ours)  # one folder of its own
    assert after[f"{version}/CACHEDIR.TAG"] == cachemod.CACHEDIR_TAG


def test_a_symlinked_default_cache_folder_is_not_followed(cli, project: Path,  # type: ignore[no-untyped-def]
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A repository committing ``.iri_lint_cache -> ../elsewhere`` made a plain check delete files there."""
    monkeypatch.delenv("IRI_LINT_CACHE_DIR")
    elsewhere = project.parent / "elsewhere"
    _user_files(elsewhere)
    (elsewhere / iri_lint.__version__).mkdir()
    (elsewhere / iri_lint.__version__ / "CACHEDIR.TAG").write_bytes(cachemod.CACHEDIR_TAG)
    _aged(elsewhere / iri_lint.__version__ / "CACHEDIR.TAG")
    before = _listing(elsewhere)
    (project / cachemod.CACHE_DIR_NAME).symlink_to(Path("..") / "elsewhere")
    monkeypatch.chdir(project)
    cli("check", "pkg")
    (project / "pkg" / "b.py").write_text(CLEAN + "\n", encoding="utf-8")
    r = cli("check", "pkg")
    assert r.code == 1 and "Traceback" not in r.err
    assert _listing(elsewhere) == before
    assert "not cached" in r.err and "symlink" in r.err


def test_the_cache_prunes_only_its_own_stale_tables(cli, project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache = tmp_path / "cache"
    cli("check", "--cache-dir", str(cache), str(project))
    ours = cache / iri_lint.__version__
    (table,) = _tables(cache)
    stale = ours / ("f" * 24 + ".json")  # a table of another configuration, unused for 40 days
    stale.write_bytes(table.read_bytes())
    _aged(stale)
    foreign = {ours / "notes.json": b"{}", ours / "x.tmp": b"draft", cache / ("e" * 24 + ".json"): b"{}"}
    for path, data in foreign.items():
        path.write_bytes(data)
        _aged(path)
    older, unmarked = cache / "0.0.1", cache / "0.0.2"  # an older version's folder, and one not iri-lint's
    for folder in (older, unmarked):
        folder.mkdir()
        for name, data in (("a" * 24 + ".json", b"{}"), (".gitignore", cachemod.GITIGNORE)):
            (folder / name).write_bytes(data)
            _aged(folder / name)
    (older / "CACHEDIR.TAG").write_bytes(cachemod.CACHEDIR_TAG)
    before = _listing(unmarked)
    (project / "pkg" / "b.py").write_text(CLEAN + "\n", encoding="utf-8")  # something to save
    cli("check", "--cache-dir", str(cache), str(project))
    assert not stale.exists() and table.exists()
    assert all(p.read_bytes() == data for p, data in foreign.items())
    assert not older.exists() and _listing(unmarked) == before


def test_editing_a_module_whose_constants_a_file_reads_checks_that_file_again(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path, checked: list[str]) -> None:
    """Issue #27: a file's URL values may come from another module of the project (``from pkg.settings
    import HOST``); its cached result stands only while that module is unchanged."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.iri-lint]\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    settings = root / "pkg" / "settings.py"
    settings.write_text('HOST = "https://cdn.example.net"\n', encoding="utf-8")
    (root / "pkg" / "app.py").write_text(
        'import requests\nfrom pkg.settings import HOST\nrequests.get(HOST + "img/a.png")\n', encoding="utf-8")
    cache = tmp_path / "cache"
    first = cli("check", "--cache-dir", str(cache), str(root))
    assert "app.py:3:22: IRI801" in first.out
    (table,) = _tables(cache)
    deps = {Path(k).name: e[6] for k, e in json.loads(table.read_text())["files"].items()}
    assert [Path(p).name for p, _ in deps["app.py"]] == ["settings.py"] and deps["settings.py"] == []
    checked.clear()
    assert cli("check", "--cache-dir", str(cache), str(root)).out == first.out
    assert checked == []
    settings.write_text('HOST = "https://cdn.example.net/"\n', encoding="utf-8")
    again = cli("check", "--cache-dir", str(cache), str(root))
    assert sorted(checked) == ["app.py", "settings.py"] and "IRI801" not in again.out


def test_a_module_created_where_an_import_looked_for_it_checks_the_importer_again(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path, checked: list[str]) -> None:
    """``from pkg.settings import HOST`` with no such module: HOST is unknown. The files the import was looked
    for in are dependencies too: once one is created, the importer's cached result no longer stands
    (fixtures39, repro 03)."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.iri-lint]\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "app.py").write_text(
        'import requests\nfrom pkg.settings import HOST\nrequests.get(HOST + "img/a.png")\n', encoding="utf-8")
    cache = tmp_path / "cache"
    assert "IRI801" not in cli("check", "--cache-dir", str(cache), str(root)).out
    (root / "pkg" / "settings.py").write_text('HOST = "https://cdn.example.net"\n', encoding="utf-8")
    checked.clear()
    again = cli("check", "--cache-dir", str(cache), str(root))
    assert "app.py:3:22: IRI801" in again.out and "app.py" in checked
