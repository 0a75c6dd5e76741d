"""The ``iri-lint`` command as a real process: what the in-process tests of ``main()`` cannot see (the
installed script, real pipes on stdin and stdout, their encodings, a reader that goes away)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import run_cli

pytestmark = pytest.mark.slow

BAD = 'URL = "https://example.com/a b"\n'


@pytest.mark.parametrize("command", [["iri-lint"], ["-m", "iri_lint.cli"]])
def test_the_script_and_the_module_run_the_command(tmp_path: Path, command: list[str]) -> None:
    exe = Path(sys.executable).parent / "iri-lint"
    if command == ["iri-lint"] and not exe.exists():
        pytest.skip("the iri-lint script is not installed beside this Python")
    argv = [str(exe)] if command == ["iri-lint"] else [sys.executable, *command]
    (tmp_path / "clean.py").write_text('URL = "https://example.com/"\n', encoding="utf-8")
    (tmp_path / "bad.py").write_text(BAD, encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*argv, *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)

    assert run("check", "--isolated", "clean.py").returncode == 0
    bad = run("check", "--isolated", "bad.py")
    assert bad.returncode == 1 and bad.stdout.startswith("bad.py:1:29: IRI101 ") and bad.stderr == ""
    usage = run("check", "--format", "xml", "bad.py")
    assert usage.returncode == 2 and "invalid choice" in usage.stderr and "Traceback" not in usage.stderr


def test_stdin_and_stdout_are_bytes_through_real_pipes() -> None:
    """A Latin-1 module on stdin comes back fixed on stdout byte for byte in its own encoding, the
    report on stderr."""
    src = '# -*- coding: latin-1 -*-\nimport urllib.request\nurllib.request.urlopen("http://example.com/caf\u00e9")\n'
    p = run_cli("check", "--isolated", "--fix", "--stdin-filename", "m.py", "-", stdin=src.encode("latin-1"))
    assert p.stdout == src.replace("caf\u00e9", "caf%C3%A9").encode("latin-1")
    assert p.returncode == 0 and b"m.py:3:" in p.stderr and b"Traceback" not in p.stderr
    report = run_cli("check", "--isolated", "--stdin-filename", "pkg/m.py", "-", stdin=BAD.encode())
    assert report.returncode == 1 and report.stdout.startswith(b"pkg/m.py:1:29: IRI101 ")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_lone_surrogate_reaches_a_real_pipe_escaped(tmp_path: Path, fmt: str) -> None:
    """On the process's own stdout (strict UTF-8 on a pipe), a lone surrogate in a value is written
    escaped, never a UnicodeEncodeError."""
    src = tmp_path / "m.py"
    src.write_text('URL = "http://example.com/\\ud800x"\n', encoding="utf-8")
    p = run_cli("check", "--isolated", "--format", fmt, str(src), env={"PYTHONIOENCODING": "utf-8"})
    assert p.returncode == 1 and b"IRI109" in p.stdout and b"Traceback" not in p.stderr, p.stderr
    text = p.stdout.decode("utf-8")  # whole, and UTF-8
    if fmt == "json":
        assert json.loads(text)["findings"][0]["value"] == "http://example.com/\ud800x"


def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path: Path) -> None:
    """``iri-lint check | head -1``: the closed pipe is no error of ours (exit 0, nothing on stderr)."""
    big = tmp_path / "big.py"
    big.write_text("".join(f'U{i} = "https://example.com/a b"\n' for i in range(4000)), encoding="utf-8")  # > a pipe
    p = subprocess.Popen([sys.executable, "-m", "iri_lint.cli", "check", "--isolated", "--no-cache", str(big)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    assert p.stdout.readline().startswith(f"{big}:1:".encode())
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 0 and err == b""
