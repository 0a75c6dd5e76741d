"""#31 items 6-8: ruff's flags and exit codes, and messages that say what they mean."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .conftest import CLI

BAD = 'import requests\nrequests.get("https://example.com:443/a")\nURL = "https://example.com/a b"\n'
UNSAFE_ONLY = 'URL = "https://example.com/a b"\n'
PORT = ("--extend-select", "IRI308")  # default-port: opt-in, with a safe fix where the IRI is fetched
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]


@pytest.fixture(autouse=True)
def _isolated_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def _file(tmp_path: Path, text: str, name: str = "m.py") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ item 6

def test_quiet_prints_the_findings_and_nothing_else(cli: CLI, tmp_path: Path) -> None:
    f = _file(tmp_path, BAD)
    loud = cli("check", "--isolated", *PORT, "--fix", str(f))
    assert "iri-lint: Fixed 1 finding in 1 file" in loud.err
    _file(tmp_path, BAD)
    quiet = cli("check", "--isolated", *PORT, "--fix", "-q", str(f))
    assert quiet.err == "" and "IRI101" in quiet.out and quiet.code == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli("check", "--isolated", "--quiet", str(empty)).err == ""


def test_exit_non_zero_on_fix(cli: CLI, tmp_path: Path) -> None:
    fixable = 'import requests\nrequests.get("https://example.com:443/a")\n'
    f = _file(tmp_path, fixable)
    assert cli("check", "--isolated", *PORT, "--fix", str(f)).code == 0  # fixed, nothing remains
    _file(tmp_path, fixable)
    r = cli("check", "--isolated", *PORT, "--fix", "--exit-non-zero-on-fix", str(f))
    assert r.code == 1 and "requests.get(\"https://example.com/a\")" in f.read_text(encoding="utf-8")
    assert cli("check", "--isolated", *PORT, "--fix", "--exit-non-zero-on-fix", str(f)).code == 0  # nothing to fix


def test_show_files_lists_what_would_be_checked_and_why_not(cli: CLI, tmp_path: Path) -> None:
    for rel in ("src/a.py", "src/b.pyi", "build/gen.py", "skip/x.py", "env1/lib.py", "notes.txt", "ign.py"):
        _file(tmp_path, BAD, rel)
    (tmp_path / "env1" / "pyvenv.cfg").write_text("", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("ign.py\n", encoding="utf-8")
    (tmp_path / "src" / "alias.py").symlink_to("a.py")  # checked once, as src/a.py
    (tmp_path / "linked").symlink_to("src", target_is_directory=True)
    subprocess.run([*GIT, "init", "-q"], cwd=tmp_path, check=True)
    r = cli("check", "--isolated", "--extend-exclude", "skip", "--show-files", str(tmp_path), str(tmp_path / "nope"))
    assert r.code == 0 and "IRI101" not in r.out
    lines = r.out.splitlines()
    assert [line for line in lines if not line.startswith("skipped ")] == [str(tmp_path / p) for p in
                                                                            ("src/a.py", "src/b.pyi")]
    skipped = dict(line[len("skipped "):].split(": ", 1) for line in lines if line.startswith("skipped "))
    assert skipped == {f"{tmp_path / 'nope'}": "no such file or folder", f"{tmp_path}/.git/": "version control",
                       f"{tmp_path}/build/": "build output git does not track", f"{tmp_path}/skip/": "excluded",
                       f"{tmp_path}/env1/": "a virtualenv (pyvenv.cfg)", f"{tmp_path}/ign.py": "ignored by git",
                       f"{tmp_path}/linked/": "a symlink to a folder: not followed",
                       f"{tmp_path}/src/alias.py": "a symlink to a file checked under its own name"}


# ------------------------------------------------------------------ item 7

def test_diff_with_nothing_to_change_exits_0(cli: CLI, tmp_path: Path) -> None:
    f = _file(tmp_path, UNSAFE_ONLY)  # a finding whose fix is unsafe: --diff has nothing to show
    r = cli("check", "--isolated", "--diff", str(f))
    assert r.code == 0 and r.out == ""
    changed = cli("check", "--isolated", "--diff", "--unsafe-fixes", str(f))
    assert changed.code == 1 and changed.out.startswith("---")


def test_a_missing_path_is_e902_in_every_format(cli: CLI, tmp_path: Path) -> None:
    f = _file(tmp_path, UNSAFE_ONLY)
    missing = str(tmp_path / "gone.py")
    doc = json.loads(cli("check", "--isolated", "--format", "json", missing, str(f)).out)
    assert doc["errors"] == [{"path": missing, "line": 1, "column": 1, "message": "No such file or directory",
                              "code": "E902"}]
    assert [x["code"] for x in doc["findings"]] == ["IRI101"]
    assert cli("check", "--isolated", missing).code == 1


def test_no_python_files_is_a_warning(cli: CLI, tmp_path: Path) -> None:
    _file(tmp_path, "hello\n", "README.md")
    r = cli("check", "--isolated", str(tmp_path))
    assert r.code == 0 and r.err == "iri-lint: warning: no Python files found under the given path(s)\n"


def test_force_exclude_skips_a_named_file_git_ignores(cli: CLI, tmp_path: Path) -> None:
    for rel in ("gen.py", "out/x.py", "kept.py"):
        _file(tmp_path, UNSAFE_ONLY, rel)
    (tmp_path / ".gitignore").write_text("gen.py\nout/\n", encoding="utf-8")
    subprocess.run([*GIT, "init", "-q"], cwd=tmp_path, check=True)
    named = [str(tmp_path / p) for p in ("gen.py", "out/x.py", "kept.py")]
    assert {line.split(":")[0] for line in cli("check", "--isolated", *named).out.splitlines()} == set(named)
    r = cli("check", "--isolated", "--force-exclude", *named)
    assert {line.split(":")[0] for line in r.out.splitlines()} == {named[2]}
    everything = cli("check", "--isolated", "--force-exclude", "--no-respect-gitignore", *named)
    assert len(everything.out.splitlines()) == 3


# ------------------------------------------------------------------ item 8

def test_the_summary_counts_fixes_not_findings(cli: CLI, tmp_path: Path) -> None:
    f = _file(tmp_path, UNSAFE_ONLY)
    r = cli("check", "--isolated", "--fix", str(f))
    assert r.err == "iri-lint: 1 finding; 1 more fix available with --unsafe-fixes.\n"
    g = _file(tmp_path, BAD + 'OTHER = "https://example.com/c d"\n', "g.py")
    r = cli("check", "--isolated", *PORT, "--diff", str(g))
    assert r.err == ("iri-lint: Would fix 1 finding in 1 file; 2 findings remain; "
                     "2 more fixes available with --unsafe-fixes.\n")


def test_baseline_help_says_what_it_does(cli: CLI, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli("check", "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "report only the findings not recorded in FILE (a FILE that does not exist is an error, exit 2)" in text
    assert "writes FILE when it does not exist" not in text


def test_show_fixes_prints_what_each_fix_writes(cli: CLI, tmp_path: Path) -> None:
    f = _file(tmp_path, BAD)
    out = cli("check", "--isolated", *PORT, "--show-fixes", str(f)).out
    assert "    unsafe fix (apply with --fix --unsafe-fixes): ' ' -> '%20'\n" in out
    assert "    fix (safe): ':443' -> ''\n" in out
    fixed = cli("check", "--isolated", *PORT, "--fix", str(f)).out
    assert f"{f}:2:34: IRI308 fixed (safe): ':443' -> ''\n" in fixed


def test_a_fix_that_writes_a_look_alike_is_shown_by_code_points(cli: CLI, tmp_path: Path) -> None:
    """fixtures244: IRI301's NFC fix showed as 'é' -> 'é', which reads as no change."""
    f = _file(tmp_path, 'U = "https://example.com/cafe\\u0301"\n')
    out = cli("check", "--isolated", "--extend-select", "IRI301", "--show-fixes", str(f)).out
    assert "U+0065 U+0301 -> U+00E9" in out
