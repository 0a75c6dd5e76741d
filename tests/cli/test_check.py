"""End-to-end behaviour of ``iri-lint check``: output format, exit codes, configuration, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RunFlake8

from .conftest import CLI, EXAMPLES, ROOT, Result, RunMain

LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>IRI\d{3}) (?P<msg>.+)$")


def test_examples_report_several_families(cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("check", "--exit-zero", str(EXAMPLES))
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines and all(LINE.match(line) for line in lines), r.out
    families = {LINE.match(line)["code"][3] for line in lines}  # type: ignore[index]
    assert {"1", "2", "3", "4", "5", "6"} <= families
    # per-file-ignores from examples/pyproject.toml: IRI1xx is silenced in shop/tests
    assert not any("/tests/" in line and " IRI1" in line for line in lines)
    assert any("/tests/" in line for line in lines)


def test_exit_codes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    clean = tmp_path / "clean.py"
    clean.write_text('URL = "https://example.com/"\n')
    bad = tmp_path / "bad.py"
    bad.write_text('URL = "https://example.com/a b"\n')
    assert cli("check", str(clean)).code == 0
    r = cli("check", str(bad))
    assert r.code == 1 and r.out == f"{bad}:1:29: IRI101 " + r.out.split(" IRI101 ", 1)[1]
    assert cli("check", "--exit-zero", str(bad)).code == 0
    missing = cli("check", str(tmp_path / "missing.py"), str(bad))  # as ruff: E902, exit 1, the rest checked
    assert missing.code == 1 and f"{tmp_path / 'missing.py'}:1:1: E902 No such file or directory" in missing.err
    assert "IRI101" in missing.out
    assert cli("check", "--select", "XYZ9", str(clean)).code == 2
    assert cli("explain", "IRI999").code == 2
    with pytest.raises(SystemExit) as exc:
        cli("check", "--format", "xml", str(clean))
    assert exc.value.code == 2


def test_select_ignore_extend_select(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('import requests\nrequests.get("https://example.com:443/")\nURL = "https://example.com/a b"\n')
    def codes(r: Result) -> list[str]:
        return sorted(m["code"] for m in map(LINE.match, r.out.splitlines()) if m)
    assert codes(cli("check", "--isolated", str(f))) == ["IRI101"]
    assert codes(cli("check", "--isolated", "--extend-select", "IRI308", str(f))) == ["IRI101", "IRI308"]
    assert codes(cli("check", "--isolated", "--select", "IRI3", str(f))) == ["IRI308"]
    assert codes(cli("check", "--isolated", "--ignore", "IRI1", str(f))) == []
    # given twice, a flag adds up as ruff's does (outside6's note: only the last one counted)
    assert codes(cli("check", "--isolated", "--select", "IRI101", "--select", "IRI308", str(f))) == ["IRI101", "IRI308"]
    assert codes(cli("check", "--isolated", "--ignore", "IRI308", "--ignore", "IRI101", "--extend-select", "IRI308",
                     str(f))) == []
    # (outside39's note: 'IRI' alone is the default set, so asking for it adds nothing: said, not silent)
    r = cli("check", "--isolated", "--extend-select", "IRI", str(f))
    assert codes(r) == ["IRI101"] and "--extend-select IRI adds no rule" in r.err
    assert "adds no rule" not in cli("check", "--isolated", "--extend-select", "IRI3", str(f)).err


def test_pyproject_config_and_unknown_key(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "pyproject.toml").write_text('[tool.iri-lint]\nignore = ["IRI101"]\n')
    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n')
    assert cli("check", str(f)).code == 0
    assert cli("check", "--ignore", "IRI5", str(f)).code == 0  # the command line's ignores extend the file's
    assert cli("check", "--extend-ignore", "IRI5", str(f)).code == 0
    assert cli("check", "--select", "IRI1", str(f)).code == 1  # a new selection starts afresh, as in ruff
    assert cli("check", "--select", "IRI1", "--ignore", "IRI101", str(f)).code == 0
    (tmp_path / "pyproject.toml").write_text('[tool.iri-lint]\nignores = ["IRI101"]\n')
    r = cli("check", str(f))
    assert r.code == 2 and "'ignores'" in r.err


def test_test_files_security_only_from_pyproject(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "pyproject.toml").write_text("[tool.iri-lint]\ntest-files-security-only = true\n")
    (tmp_path / "tests").mkdir()
    body = 'A = "http://[::1"\nB = "http://example.com/a\\u202eb"\n'
    for name in ("tests/test_m.py", "m.py"):
        (tmp_path / name).write_text(body)
    r = cli("check", "--format", "json", str(tmp_path))
    got = sorted((Path(f["path"]).name, f["code"]) for f in json.loads(r.out)["findings"])
    assert got == [("m.py", "IRI113"), ("m.py", "IRI201"), ("test_m.py", "IRI201")]


def test_noqa_is_honoured(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('A_URL = "https://example.com/a b"  # noqa: IRI101\nB_URL = "https://example.com/a b"  # noqa\n'
                 'C_URL = "https://example.com/a b"  # noqa: IRI5\n')
    r = cli("check", str(f))
    assert [LINE.match(x)["line"] for x in r.out.splitlines()] == ["3"]  # type: ignore[index]


def test_stdin(run_main: RunMain, tmp_path: Path) -> None:
    p = run_main("check", "-", "--stdin-filename", "pkg/mod.py", stdin=b'URL = "https://example.com/a b"\n')
    assert p.returncode == 1
    assert p.stdout.decode().startswith("pkg/mod.py:1:29: IRI101 ")
    p = run_main("check", "--fix", "--unsafe-fixes", "-", stdin=b'URL = "https://example.com/a b"\n')
    assert p.stdout == b'URL = "https://example.com/a%20b"\n'


def test_default_excludes_and_configured_excludes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = 'URL = "https://example.com/a b"\n'
    for folder in (".git", ".venv", "build", "node_modules", "pkg.egg-info", "__pycache__"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text(bad)
    env = tmp_path / "myenv"
    env.mkdir()
    (env / "pyvenv.cfg").write_text("home = /usr\n")
    (env / "m.py").write_text(bad)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text(bad)
    (tmp_path / "src" / "gen.py").write_text(bad)
    (tmp_path / "notes.txt").write_text(bad)
    r = cli("check", "--isolated", str(tmp_path))
    assert sorted(x.split(":")[0] for x in r.out.splitlines()) == [str(tmp_path / "src" / "gen.py"),
                                                                    str(tmp_path / "src" / "m.py")]
    r = cli("check", "--isolated", "--extend-exclude", "gen.py", str(tmp_path))
    assert [x.split(":")[0] for x in r.out.splitlines()] == [str(tmp_path / "src" / "m.py")]


@pytest.mark.parametrize(("content", "message"), [
    (b"URL = 'https://example.com/'\ndef f(:\n    pass\n", "syntax error"),
    (b"# -*- coding: utf-8 -*-\nU = '\xff\xfe'\n", "cannot decode"),
    (b"\x00\x01\x02binary\x00", "binary file"),
    (b"# coding: klingon\nU = 1\n", "cannot decode"),
    # PEP 263: an encoding that does not read the cookie's line as ASCII cannot be a source encoding
    (b"# coding: utf-16\nURL = 'https://example.com/a b'\n", "cannot decode file: the encoding 'utf-16'"),
    (b"#!/usr/bin/env python\n# coding=utf_32\nx = 1\n", "cannot decode file: the encoding 'utf_32'"),
])
def test_bad_input_is_one_line_on_stderr(run_main: RunMain, tmp_path: Path, content: bytes, message: str) -> None:
    f = tmp_path / "m.py"
    f.write_bytes(content)
    ok = tmp_path / "ok.py"
    ok.write_text('URL = "https://example.com/a b"\n')
    p = run_main("check", "--isolated", str(f), str(ok))
    err = p.stderr.decode()
    assert p.returncode == 1
    assert "Traceback" not in err
    lines = [x for x in err.splitlines() if not x.startswith("iri-lint:")]
    assert len(lines) == 1 and re.match(rf"^{re.escape(str(f))}:\d+:\d+: error: ", lines[0]), err
    assert message in lines[0]
    assert "IRI101" in p.stdout.decode()  # the other file is still checked


def test_a_file_with_nothing_iri_like_is_not_parsed(run_main: RunMain, tmp_path: Path) -> None:
    """Most files hold no IRI: iri-lint skips parsing them (a syntax error there is Python's business)."""
    f = tmp_path / "m.py"
    f.write_text("def f(:\n    pass\n")
    p = run_main("check", "--isolated", str(f))
    assert p.returncode == 0 and p.stderr.decode().strip() == "" and p.stdout.decode() == ""


def test_huge_file_is_skipped_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli) -> None:  # type: ignore[no-untyped-def]
    from iri_lint.cli import run

    monkeypatch.setattr(run, "MAX_BYTES", 100)
    f = tmp_path / "big.py"
    f.write_text("x = 1\n" * 100)
    r = cli("check", str(f))
    assert r.code == 1 and "file too large" in r.err


def test_many_files_in_parallel_match_serial(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for i in range(30):
        (tmp_path / f"m{i:02}.py").write_text(f'URL = "https://example.com/{i} b"\nV = "http://x.org/\\u202e"\n')
    parallel = cli("check", "--isolated", "--jobs", "2", str(tmp_path))
    serial = cli("check", "--isolated", "--jobs", "1", str(tmp_path))
    assert parallel.out == serial.out and parallel.out.count("\n") == 60


def test_agrees_with_flake8_line_for_line(run_main: RunMain, run_flake8: RunFlake8) -> None:
    """The same findings as the flake8 plugin, to the column, on the example project."""
    ours = run_main("check", "--exit-zero", "examples", "--extend-select", "IRI308", cwd=ROOT).stdout.decode()
    theirs = run_flake8("--isolated", "--extend-select", "IRI308", "--per-file-ignores", "examples/shop/tests/*:IRI1",
                        "examples", cwd=ROOT).stdout
    theirs_iri = [x for x in theirs.splitlines() if re.match(r"^[^:]+:\d+:\d+: IRI", x)]
    assert sorted(ours.splitlines()) == sorted(theirs_iri)
    assert len(ours.splitlines()) >= 10


def test_github_annotations(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n')
    r = cli("check", "--isolated", "--format", "github", str(f))
    assert re.fullmatch(r"::error file=[^,]+,line=1,col=29,endLine=1,endColumn=30,title=IRI101 space-in-iri::"
                        r"IRI101 .+\n", r.out)


def test_statistics(cli) -> None:  # type: ignore[no-untyped-def]
    r = cli("check", "--exit-zero", "--statistics", str(EXAMPLES))
    stats = [x for x in r.out.splitlines() if not LINE.match(x)]
    assert stats and all(re.match(r"^\s+\d+  IRI\d{3}  (\[\*\]|   ) [a-z0-9-]+$", x) for x in stats), stats


def test_show_source_excerpt_and_caret(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('URL = "https://例え.jp/a b"\n')
    r = cli("check", "--isolated", "--show-source", str(f))
    lines = r.out.splitlines()
    assert lines[1] == '    URL = "https://例え.jp/a b"'
    # 例え are two cells wide each: the caret sits under the space
    assert lines[2] == "    " + " " * (len('URL = "https://') + 4 + len(".jp/a")) + "^"


def test_fix_subcommand_is_check_fix(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n')
    assert cli("fix", "--isolated", "--unsafe-fixes", str(f)).code == 0
    assert f.read_text() == 'URL = "https://example.com/a%20b"\n'


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    from iri_lint.cli.run import Progress

    bar = Progress(3)
    for _ in range(3):
        bar.step()
    bar.close()
    cap = capsys.readouterr()
    assert cap.out == "" and "3/3 files" in cap.err


def test_an_internal_error_in_one_literal_reports_it_and_exits_2(
        cli: CLI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from iri_lint.rules import engine
    from iri_lint.rules.facts import Facts
    from iri_lint.rules.model import Raw
    from iri_lint.rules.registry import full_rule

    def explode(facts: Facts) -> list[Raw]:
        if "boom" in facts.ref.text:
            raise KeyError("injected")
        return []

    extra = dataclasses.replace(full_rule("IRI101"), check=explode)
    real = engine.checks_for
    monkeypatch.setattr(engine, "checks_for", lambda enabled, present=-1: (*real(enabled, present), extra))
    f = tmp_path / "m.py"
    f.write_text('a = "http://boom.example/"\nb = "http://example.com/%zz"\n')
    r = cli("check", str(f))
    assert r.code == 2
    assert ":1:6: IRI100" in r.out and "KeyError" in r.out
    assert ":2:25: IRI110" in r.out


def test_stdin_fix_keeps_the_report_out_of_the_fixed_source(run_main: RunMain) -> None:
    src = b'import requests\nrequests.get("https://example.com/a b")\nX_URL = "http://example.com/%zz"\n'
    p = run_main("check", "--isolated", "--fix", "--unsafe-fixes", "--format", "json", "-", stdin=src)
    assert p.stdout.startswith(b"import requests\n") and b'"findings"' not in p.stdout
    compile(p.stdout, "<fixed>", "exec")  # stdout is exactly the fixed module
    assert b'"findings"' in p.stderr


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_stdin_fix_prints_the_source_even_when_nothing_was_fixed(run_main: RunMain, fmt: str) -> None:
    src = b'import requests\nrequests.get("https://example.com/a b")\n'  # only an unsafe fix: none applied
    p = run_main("check", "--isolated", "--fix", "--format", fmt, "-", stdin=src)
    assert p.stdout == src and b"IRI101" in p.stderr and p.returncode == 1


@pytest.mark.parametrize("src", [
    b'import requests\nrequests.get("http://x.example/a b"\nx = (\n',  # a buffer half typed: no parse
    b'X_URL = "\xff\xfe http://x.example/a b"\n',  # no encoding decodes it
    b'\xef\xbb\xbf# -*- coding: latin-1 -*-\nX_URL = "http://x.example/a b"\n',  # a BOM and a latin-1 cookie
])
def test_stdin_fix_prints_a_source_it_cannot_read_back_unchanged(run_main: RunMain, src: bytes) -> None:
    """fixtures157 repro 01: a fix-on-save through standard input (``--fix - < f > tmp && mv``) must never get
    an empty document: what cannot be parsed or decoded goes back out as it came, the error on stderr."""
    p = run_main("check", "--isolated", "--fix", "--unsafe-fixes", "--stdin-filename", "m.py", "-", stdin=src)
    assert p.stdout == src and b"error" in p.stderr and p.returncode != 0
    nb = b'{"cells": [{"cell_type": "code", "source": "X_URL = \\"http://x/a b\\"\\nx = ("'  # (JSON cut short)
    p = run_main("check", "--isolated", "--fix", "--stdin-filename", "m.ipynb", "-", stdin=nb)
    assert p.stdout == nb and b"not a notebook" in p.stderr


def test_a_baseline_in_a_missing_folder_is_a_one_line_error(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('X_URL = "http://example.com/%zz"\n')
    r = cli("check", "--baseline", str(tmp_path / "no" / "b.json"), "--update-baseline", str(f))
    assert r.code == 2 and r.err.startswith("iri-lint: cannot write baseline") and len(r.err.splitlines()) == 1


def test_unknown_codes_in_per_file_ignores_are_errors(run_main: RunMain, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.iri-lint]\nper-file-ignores = {"tests/*" = ["IRI99"]}\n')
    (tmp_path / "m.py").write_text('X_URL = "http://example.com/%zz"\n')
    p = run_main("check", "m.py", cwd=tmp_path)
    assert p.returncode == 2 and b"'IRI99' matches no rule" in p.stderr


@pytest.mark.parametrize(("args", "env", "colored"), [
    ((), {}, False), (("--color", "always"), {}, True), ((), {"FORCE_COLOR": "1"}, True),
    (("--color", "never"), {"FORCE_COLOR": "1"}, False),
])
def test_color_follows_the_flag_and_force_color(run_main: RunMain, tmp_path: Path, args: tuple[str, ...],
                                                env: dict[str, str], colored: bool) -> None:
    (tmp_path / "m.py").write_text('X_URL = "http://example.com/%zz"\n')
    p = run_main("check", "--isolated", *args, "m.py", cwd=tmp_path, env=env)
    assert (b"\x1b[" in p.stdout) is colored


def _tree(tmp_path: Path) -> Path:
    """Two packages with their own settings, one pyproject without [tool.iri-lint], one file outside."""
    (tmp_path / "pyproject.toml").write_text('[tool.iri-lint]\nextend-select = ["IRI303"]\n')
    for name, pyproject in (("a", '[tool.iri-lint]\nignore = ["IRI101"]\n'), ("b", '[project]\nname = "b"\n')):
        (tmp_path / name).mkdir()
        (tmp_path / name / "pyproject.toml").write_text(pyproject)
        (tmp_path / name / "m.py").write_text('A_URL = "https://example.com/a b"\nB_URL = "HTTP://example.com/"\n')
    return tmp_path


def test_each_file_gets_its_nearest_configuration(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 19.4: a batch spanning packages (pre-commit) gets each package's settings."""
    root = _tree(tmp_path)
    monkeypatch.chdir(root / "a")  # the first path's settings must not leak into the others
    r = cli("check", "m.py", "../b/m.py")
    found = sorted((Path(m["path"]).parent.name, m["code"]) for m in map(LINE.match, r.out.splitlines()) if m)
    # a: its own table (IRI101 ignored, no IRI303); b: its pyproject has no table, so the root's applies
    # (the nearest table is the whole configuration: a's does not inherit the root's IRI303, as in ruff)
    assert found == [("b", "IRI101"), ("b", "IRI303")]
    forced = cli("check", "--config", str(root / "a" / "pyproject.toml"), "m.py", "../b/m.py")
    assert all(LINE.match(x)["code"] != "IRI101" for x in forced.out.splitlines())  # type: ignore[index]


def test_show_settings_names_the_file_and_the_effective_settings(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _tree(tmp_path)
    r = cli("check", "--show-settings", "--ignore", "IRI5", str(root / "b" / "m.py"))
    assert r.code == 0
    assert f"configuration file: {root / 'pyproject.toml'}" in r.out
    assert "extend-select = ['IRI303']" in r.out and "ignore = ['IRI5']" in r.out
    enabled = next(line for line in r.out.splitlines() if "enabled rules" in line)
    assert "IRI303" in enabled and "IRI501" not in enabled
    isolated = cli("check", "--show-settings", "--isolated", str(root / "a" / "m.py"))
    assert "none (--isolated)" in isolated.out and "ignore = []" in isolated.out


@pytest.mark.parametrize(("body", "line", "key"), [
    ('[project]\nname = "x"\n\n[tool.iri-lint]\nprofile = "iri"\nselectt = ["IRI1"]\n', 6, "'selectt'"),
    ('[tool.iri-lint]\ntext-mode = "yes"\n', 2, "text-mode"),
    ('[tool.iri-lint]\nprofile = "iri"\n[tool.iri-lint.per-file-ignores]\n"tests/*" = ["IRI99"]\n', 0, "'IRI99'"),
])
def test_pyproject_errors_name_the_file_the_line_and_the_key(cli, tmp_path: Path, body: str, line: int,  # type: ignore[no-untyped-def]
                                                             key: str) -> None:
    (tmp_path / "pyproject.toml").write_text(body)
    (tmp_path / "m.py").write_text("x = 1\n")
    r = cli("check", str(tmp_path / "m.py"))
    assert r.code == 2 and key in r.err
    assert f"{tmp_path / 'pyproject.toml'}{f':{line}' if line else ''}:" in r.err


def test_excerpts_and_diffs_split_lines_where_python_does(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A form feed (or U+2028 in a comment) ends no line for Python; str.splitlines would shift both."""
    f = tmp_path / "m.py"
    f.write_text('a = 1\x0c\n# \u2028 note\nX_URL = "http://example.com/%7e"\n', encoding="utf-8")
    r = cli("check", "--isolated", "--show-source", "--extend-select", "IRI306", str(f))
    assert ":3:29: IRI306" in r.out and '\n    X_URL = "http://example.com/%7e"\n' in r.out
    d = cli("check", "--isolated", "--extend-select", "IRI306", "--diff", "--unsafe-fixes", str(f))
    assert "@@ -1,3 +1,3 @@" in d.out and '-X_URL = "http://example.com/%7e"' in d.out


def test_explain_says_what_the_rule_checks_before_why(cli) -> None:  # type: ignore[no-untyped-def]
    from iri_lint.rules.registry import full_rule

    r = cli("explain", "IRI103")
    assert r.code == 0 and f"What it does\n  {full_rule('IRI103').what}\n\nWhy\n" in r.out


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "link to /dev/zero"])
def test_only_regular_files_are_checked(run_main: RunMain, tmp_path: Path, kind: str) -> None:
    """A FIFO named on the command line blocked forever; /dev/zero was read until memory ran out."""
    import os

    path = tmp_path / "special.py"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "/dev/zero":
        path = Path("/dev/zero")
    else:
        path.symlink_to("/dev/zero")
    ok = tmp_path / "ok.py"
    ok.write_text('URL = "https://example.com/a b"\n')
    p = run_main("check", "--isolated", str(path), str(ok))
    what = "a FIFO" if kind == "fifo" else "a character device"
    assert p.returncode == 1 and "IRI101" in p.stdout.decode()
    assert p.stderr.decode().splitlines() == [
        f"{path}:1:1: error: not a regular file ({what}): only regular files are checked"]


def test_a_deeply_nested_pyproject_is_a_configuration_error(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A 5,000-deep array was "internal error: RecursionError"."""
    depth = 5000
    (tmp_path / "pyproject.toml").write_text(
        "[tool.iri-lint]\nselect = ['IRI1']\n\n[tool.other]\nx = " + "[" * depth + "]" * depth + "\n")
    (tmp_path / "m.py").write_text("x = 1\n")
    r = cli("check", str(tmp_path / "m.py"))
    assert r.code == 2 and "internal error" not in r.err and "Traceback" not in r.err
    assert r.err.splitlines() == [f"iri-lint: {tmp_path / 'pyproject.toml'}:5: nesting too deep to read"]


BAD_URL = 'URL = "https://example.com/a b"\n'


def test_check_respects_gitignore_and_the_pyproject_switch(cli: CLI, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Which files iri_lint.files.discover walks, as the command line and pyproject.toml ask."""
    monkeypatch.setenv("HOME", str(tmp_path))  # no user git configuration (its global excludes)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for rel, text in {"src/m.py": BAD_URL, "venv2/m.py": BAD_URL, ".gitignore": "venv2/\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)

    def paths(r: Result) -> list[str]:
        return sorted({x.split(":")[0] for x in r.out.splitlines()})
    assert paths(cli("check", "--isolated", str(tmp_path))) == [str(tmp_path / "src" / "m.py")]
    assert len(paths(cli("check", "--isolated", "--no-respect-gitignore", str(tmp_path)))) == 2
    (tmp_path / "pyproject.toml").write_text("[tool.iri-lint]\nrespect-gitignore = false\n")
    assert len(paths(cli("check", str(tmp_path)))) == 2
    assert len(paths(cli("check", "--respect-gitignore", str(tmp_path)))) == 1
    (tmp_path / "pyproject.toml").write_text('[tool.iri-lint]\nrespect-gitignore = "no"\n')
    r = cli("check", str(tmp_path))
    assert r.code == 2 and "respect-gitignore: expected true or false" in r.err


def test_per_file_ignores_match_a_file_named_through_a_symlinked_folder(cli: CLI, tmp_path: Path) -> None:
    """The pyproject.toml is found from the folder's real path; the path per-file-ignores match is taken
    from there too (iri_lint.files.pyproject.lint_path), not left as named."""
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.iri-lint]\nper-file-ignores = { "tests/*" = ["IRI1"] }\n',
                                            encoding="utf-8")
    (project / "tests" / "t.py").write_text(BAD_URL, encoding="utf-8")
    (tmp_path / "alias").symlink_to(project, target_is_directory=True)
    assert cli("check", str(project / "tests" / "t.py")).code == 0
    r = cli("check", str(tmp_path / "alias" / "tests" / "t.py"))
    assert (r.code, r.out) == (0, "")


def test_python_m_iri_lint_cli_exits_with_mains_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m iri_lint.cli`` (here through runpy; tests/cli/test_end_to_end.py starts it for real)."""
    import runpy

    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n')
    monkeypatch.setattr(sys, "argv", ["iri-lint", "check", "--isolated", str(f)])
    with pytest.raises(SystemExit) as exc:
        runpy.run_module("iri_lint.cli", run_name="__main__", alter_sys=True)
    assert exc.value.code == 1 and f"{f}:1:29: IRI101 " in capsys.readouterr().out
