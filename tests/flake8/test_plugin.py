"""Real flake8 over annotated fixtures (bugbear style): in this process, the plugin found through its entry
point; a few end to end in a subprocess (``slow``: the parallel run, standard input)."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import RunFlake8

from iri_lint.rules.registry import DEFAULT_CODES

FIXTURES = Path(__file__).parent / "fixtures"
EXPECT = re.compile(r"expect: ((?:IRI\d{3}:\d+[ ,]*)+)")


def expected(path: Path) -> set[tuple[int, int, str]]:
    out = set()
    data = path.read_bytes().decode("latin-1" if "latin" in path.name else "utf-8-sig")
    for lineno, line in enumerate(data.splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            for item in re.findall(r"IRI\d{3}:\d+", m.group(1)):
                code, col = item.split(":")
                out.add((lineno, int(col), code))
    return out


def flake8(*args: str, stdin: str | None = None, cwd: Path = FIXTURES) -> subprocess.CompletedProcess[str]:
    """flake8 in a subprocess, with its default selection (opt-in IRI rules stay quiet, as for users)."""
    return subprocess.run([sys.executable, "-m", "flake8", "--isolated", *args], cwd=cwd,
                          capture_output=True, text=True, input=stdin, timeout=120)


def reported(output: str) -> dict[str, set[tuple[int, int, str]]]:
    out: dict[str, set[tuple[int, int, str]]] = {}
    for line in output.splitlines():
        m = re.match(r"(.*?):(\d+):(\d+): (IRI\d{3}) ", line)
        if m is None:
            assert re.match(r".*?:\d+:\d+: [A-Z]+\d+ ", line), f"unexpected output line: {line}"
            continue  # pycodestyle / pyflakes findings on the fixtures
        out.setdefault(Path(m.group(1)).name, set()).add((int(m.group(2)), int(m.group(3)), m.group(4)))
    return out


@pytest.mark.parametrize("name", ["basic.py", "latin1.py", "bom_crlf.py"])
def test_annotated_fixture(run_flake8: RunFlake8, name: str) -> None:
    res = run_flake8("--isolated", name, cwd=FIXTURES)
    assert reported(res.stdout).get(name, set()) == expected(FIXTURES / name), res.stdout


@pytest.mark.slow
def test_jobs_two_matches_serial() -> None:
    files = ["basic.py", "latin1.py", "bom_crlf.py"]
    serial = flake8("--jobs=1", *files)
    parallel = flake8("--jobs=2", *files)
    assert "Traceback" not in parallel.stderr, parallel.stderr
    assert reported(parallel.stdout) == reported(serial.stdout)
    assert reported(parallel.stdout)["basic.py"] == expected(FIXTURES / "basic.py")


# Whether the engine, and a rule's module, were loaded in a process when flake8 gave it its first file, and
# whether the gc had objects frozen there
FORK_PROBE = """
import gc, os, sys
from flake8.main.application import Application
from iri_lint.flake8_plugin import Plugin
real, seen, parent = Plugin.run, set(), os.getpid()
def run(self):
    if os.getpid() not in seen:
        seen.add(os.getpid())
        loaded = [m in sys.modules for m in ("iri_lint.flake8_engine", "iri_lint.rules.syntax.iri101_space_in_iri")]
        loaded.append(gc.get_freeze_count() > 0)
        with open("probe.txt", "a") as f:
            f.write(f"{os.getpid() == parent} {loaded}\\n")
    return real(self)
Plugin.run = run
Application().run(["--isolated", "--output-file", "out.txt", *ARGS])
"""


@pytest.mark.slow
@pytest.mark.parametrize(("args", "forked"), [(["--jobs=2", "a.py", "b.py", "c.py"], True),
                                              (["--jobs=2", "."], True),
                                              (["--jobs=2", "a.py"], False),  # one file: checked in this process
                                              (["--jobs=1", "a.py", "b.py"], False)])
def test_workers_are_forked_with_the_engine(tmp_path: Path, args: list[str], forked: bool) -> None:
    """When flake8 forks workers, they start with the engine and the rules' modules the first literals load
    (imported once, in the process they are forked from), and with what that process held frozen (their
    full collections walk only what they make); a run in one process imports them at its first file with a
    candidate, as before: a run on a file without an IRI never imports them."""
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text('import requests\n\nrequests.get("https://example.com/a b")\n', encoding="utf-8")
    probe = FORK_PROBE.replace("ARGS", repr(args))
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    firsts = (tmp_path / "probe.txt").read_text(encoding="utf-8").splitlines()
    assert firsts, "flake8 gave no file to the plugin"
    assert all(first == (f"False {[True, True, True]}" if forked else f"True {[False, False, False]}")
               for first in firsts), firsts
    assert [line.split(": ", 1)[1][:6] for line in (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()
            if ": IRI" in line] == ["IRI101"] * (1 if args[1:] == ["a.py"] else 2 if args[0] == "--jobs=1" else 3)


@pytest.mark.slow  # flake8 keeps what it read from stdin for the life of the process
def test_stdin() -> None:
    src = (FIXTURES / "basic.py").read_text(encoding="utf-8")
    res = flake8("--stdin-display-name", "basic.py", "-", stdin=src)
    assert reported(res.stdout)["basic.py"] == expected(FIXTURES / "basic.py")


def test_syntax_error_file_is_reported_by_flake8_not_crashed(run_flake8: RunFlake8) -> None:
    res = run_flake8("broken.py", cwd=FIXTURES)  # a crash of the plugin would raise here
    assert "E999" in res.stdout


@pytest.mark.parametrize(("data", "refused"), [
    (b'import requests\nrequests.get("https://h.example/\xff a")\n', True),  # no cookie: UTF-8, which this is not
    (b'# -*- coding: latin-1 -*-\nimport requests\nrequests.get("https://h.example/\xff a")\n', False),
    ('import requests\nrequests.get("https://h.example/\u00ff a")\n'.encode(), False),
])
def test_bytes_python_refuses_are_refused_as_the_cli_refuses_them(run_flake8: RunFlake8, tmp_path: Path,
                                                                  data: bytes, refused: bool) -> None:
    """flake8 reads bytes its encoding cannot decode as latin-1; Python, and ``iri-lint check``, refuse them
    (PEP 3120): one answer in both front ends, not findings in a text Python never reads (fixtures51, 04)."""
    (tmp_path / "m.py").write_bytes(data)
    lines = run_flake8("--isolated", "--select", "IRI", "m.py", cwd=tmp_path).stdout.splitlines()
    if refused:
        assert len(lines) == 1 and lines[0].startswith("m.py:1:1: IRI100 ") and "cannot decode file" in lines[0]
    else:
        assert [line.split()[1] for line in lines] == ["IRI101"]


def test_opt_in_rules_are_quiet_until_selected(run_flake8: RunFlake8) -> None:
    assert "IRI303" not in run_flake8("basic.py", cwd=FIXTURES).stdout
    res = run_flake8("--extend-select", "IRI303", "basic.py", cwd=FIXTURES)
    assert re.search(r"basic.py:\d+:\d+: IRI303 ", res.stdout), res.stdout


def test_noqa_regex_is_flake8s() -> None:
    from flake8.defaults import NOQA_INLINE_REGEXP

    from iri_lint.noqa import noqa_inline

    assert noqa_inline().pattern == NOQA_INLINE_REGEXP.pattern
    assert noqa_inline().flags == NOQA_INLINE_REGEXP.flags


# the character each annotated code must point at: keeps the fixtures' columns honest
MARKS = {"IRI110": "%", "IRI103": "|", "IRI101": " ", "IRI404": "例", "IRI201": "\\", "IRI603": "h",
         "IRI601": "h", "IRI205": "1", "IRI116": "."}


@pytest.mark.parametrize("name", ["basic.py", "latin1.py", "bom_crlf.py"])
def test_annotations_point_at_the_character(name: str) -> None:
    data = (FIXTURES / name).read_bytes().decode("latin-1" if "latin" in name else "utf-8-sig")
    lines = data.splitlines()
    for lineno, col, code in expected(FIXTURES / name):
        assert lines[lineno - 1][col - 1] == MARKS[code], (name, lineno, col, code)


def _codes(output: str) -> set[tuple[str, str]]:
    return {(m["pos"], m["code"]) for m in re.finditer(r":(?P<pos>\d+:\d+): (?P<code>IRI\d+)", output)}


@pytest.mark.parametrize("config", ["", "[flake8]\nignore = E203,W503\n", "[flake8]\nextend-ignore = E501\n"])
def test_opt_in_rules_stay_off_whatever_the_flake8_config_ignores(run_flake8: RunFlake8, tmp_path: Path,
                                                                  config: str) -> None:
    """flake8's default-ignore list is no opt-in switch: any `ignore =` replaces it (issue: 1,631
    findings instead of 253). Opt-in rules run only when select/extend-select names them."""
    from iri_lint.cli import main

    (tmp_path / "m.py").write_text((FIXTURES / "basic.py").read_text(encoding="utf-8"), encoding="utf-8")
    if config:
        (tmp_path / "setup.cfg").write_text(config, encoding="utf-8")
    cli_out = io.StringIO()
    with contextlib.redirect_stdout(cli_out):
        main(["check", "--isolated", "--exit-zero", str(tmp_path / "m.py")])
    expected = _codes(cli_out.getvalue())  # the CLI's columns are 1-based like flake8's output
    assert expected and all(code in DEFAULT_CODES for _, code in expected)

    def flake8_codes(*args: str) -> set[tuple[str, str]]:
        return _codes(run_flake8(*args, cwd=tmp_path).stdout)

    for args in (["m.py"], ["--select", "IRI", "m.py"], ["--select", "E,W,F,IRI", "m.py"]):
        got = flake8_codes(*(["--isolated", *args] if not config else args))
        assert got == expected, (args, got ^ expected)
    with_opt_in = flake8_codes("--extend-select", "IRI303", "m.py")
    assert {c for _, c in with_opt_in} - {c for _, c in expected} == {"IRI303"}
    assert {c for _, c in flake8_codes("--extend-select", "IRI3", "m.py")} >= {"IRI303"}


def test_findings_wait_until_flake8_has_dropped_the_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """flake8 tokenizes the whole file (for noqa) at a check's first report and keeps the tokens;
    reported while the tree checks run, ours would hold tree and tokens in memory together."""
    import inspect

    from flake8.main.application import Application
    from flake8.processor import FileProcessor

    tokenized_during: list[str] = []
    real = FileProcessor.file_tokens.func

    def spy(self: FileProcessor) -> list[Any]:
        tokenized_during.extend(f.function for f in inspect.stack() if f.function == "run_ast_checks")
        return real(self)  # type: ignore[no-any-return]

    prop = functools.cached_property(spy)
    prop.__set_name__(FileProcessor, "file_tokens")
    monkeypatch.setattr(FileProcessor, "file_tokens", prop)
    monkeypatch.chdir(FIXTURES)
    app = Application()
    app.run(["--isolated", "--jobs=1", "--select=IRI", "--output-file", str(tmp_path / "out.txt"), "basic.py"])
    found = reported((tmp_path / "out.txt").read_text(encoding="utf-8"))
    assert found["basic.py"] == expected(FIXTURES / "basic.py")
    assert tokenized_during == []


@pytest.mark.slow
def test_flake8_reads_the_project_without_loading_hashlib(tmp_path: Path) -> None:
    """flake8 keeps no result cache, so its process hashes no module it reads: hashlib's import loads
    OpenSSL (3.6 MiB of the plugin's memory)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text('CDN = "https://cdn.example"\n', encoding="utf-8")
    (tmp_path / "app.py").write_text('import requests\nfrom settings import CDN\n\nrequests.get(CDN + "/a b")\n',
                                     encoding="utf-8")
    code = ("import sys\nfrom flake8.main.cli import main\n"
            "try:\n    main(['--isolated', '--jobs=1', '--select=IRI', 'app.py'])\n"
            "finally:\n    print('hashlib' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    *found, imported = proc.stdout.splitlines()
    assert [line.split(" ", 2)[:2] for line in found] == [["app.py:4:23:", "IRI101"]], proc.stdout + proc.stderr
    assert imported == "False"


def test_flake8_holds_the_modules_of_one_project_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module is read for the files of its own project only: when flake8 moves on to another project's
    files, the plugin lets the modules it read go (and reads one again if that project's files come back)."""
    from flake8.main.application import Application

    from iri_lint.flake8_plugin import Plugin

    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "pyproject.toml").write_text("", encoding="utf-8")
        (tmp_path / name / "settings.py").write_text('CDN = "https://cdn.example"\n', encoding="utf-8")
        for use in ("one", "two"):
            (tmp_path / name / f"{use}.py").write_text(
                'import requests\nfrom settings import CDN\n\nrequests.get(CDN + "/a b")\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    order = ["a/one.py", "b/one.py", "b/two.py", "a/two.py"]  # (flake8 checks them in this order with --jobs=1)
    Application().run(["--isolated", "--jobs=1", "--select=IRI", "--output-file", "out.txt", *order])
    found = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()
    assert sorted(line.split(" ", 2)[:2] for line in found) == sorted([f"{f}:4:23:", "IRI101"] for f in order)
    assert Plugin.settings is not None
    reads = {os.path.relpath(p, tmp_path): n for p, n in Plugin.settings.project.reads.items()}
    assert reads == {"a/settings.py": 2, "b/settings.py": 1}


def test_test_files_security_only_from_the_flake8_config(run_flake8: RunFlake8, tmp_path: Path) -> None:
    (tmp_path / "test_m.py").write_text('A = "http://[::1"\nB = "http://example.com/a\\u202eb"\n', encoding="utf-8")
    assert {c for _, c in _codes(run_flake8("--isolated", "test_m.py", cwd=tmp_path).stdout)} == {"IRI113", "IRI201"}
    (tmp_path / "setup.cfg").write_text("[flake8]\niri-test-files-security-only = true\n", encoding="utf-8")
    assert {c for _, c in _codes(run_flake8("test_m.py", cwd=tmp_path).stdout)} == {"IRI201"}


@pytest.mark.parametrize("fault", [None, RecursionError, ValueError])
def test_a_files_check_pauses_the_collector_and_gives_it_back(monkeypatch: pytest.MonkeyPatch,
                                                              fault: type[Exception] | None) -> None:
    """flake8's collector is off while the plugin checks a file and on again after, when the check fails
    too (reported as IRI100, never raised into flake8)."""
    import ast
    import gc

    from iri_lint import flake8_engine
    from iri_lint.source.marks import ScanOptions

    states: list[bool] = []

    def lint_tree(*args: Any, **kwargs: Any) -> list[Any]:
        states.append(gc.isenabled())
        if fault is not None:
            raise fault("boom")
        return []

    monkeypatch.setattr(flake8_engine, "lint_tree", lint_tree)
    text = 'import requests\nrequests.get("https://example.com/a b")\n'
    lines = text.splitlines(keepends=True)
    run = flake8_engine.settings(None, ScanOptions())
    assert gc.isenabled()
    found = list(flake8_engine.findings(ast.parse(text), lines, "x.py", run, [2]))
    assert states == [False] and gc.isenabled()
    why = "nesting too deep" if fault is RecursionError else "ValueError: boom"
    expected = [] if fault is None else [f"IRI100 iri-lint could not analyse this file: {why}"]
    assert [message for _, _, message in found] == expected
