"""The worker processes of ``iri-lint check`` end when the main process is killed (issue 30, item 15)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROC = Path("/proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process from /proc, None when it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # (the command name may hold spaces and parentheses)
    return fields[0], int(fields[1])


def _children(pid: int) -> list[int]:
    out = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None and st[1] == pid:
                out.append(int(entry.name))
    return out


def _running(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")  # a zombie has exited (no one may reap it here)


def _tree(root: Path, files: int = 300, literals: int = 400) -> None:
    body = "import requests\n" + "".join(f'requests.get("https://example.com/a b/{i}")\n' for i in range(literals))
    for k in range(files):
        (root / f"m{k}.py").write_text(body, encoding="utf-8")


@pytest.mark.slow
@pytest.mark.skipif(not (PROC / "self" / "stat").exists(), reason="reads the process table from /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_exit_when_the_main_process_is_killed(tmp_path: Path, sig: signal.Signals) -> None:
    _tree(tmp_path)
    main = subprocess.Popen([sys.executable, "-m", "iri_lint.cli", "check", "--no-cache", "-j", "3", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and main.poll() is None:
            time.sleep(0.05)
            workers = [w for w in _children(main.pid) if _running(w)]
        assert len(workers) == 2, "the check did not start two workers (-j 3: the main process is the third)"
        time.sleep(0.5)  # the workers are at work
        assert main.poll() is None, "the check ended before it could be killed: make the tree larger"
        os.kill(main.pid, sig)
        main.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(map(_running, workers)):
            time.sleep(0.05)
        assert not [w for w in workers if _running(w)], "workers still running 5 s after their parent died"
    finally:
        for w in workers:
            if _running(w):
                os.kill(w, signal.SIGKILL)
        if main.poll() is None:
            main.kill()
            main.wait()
