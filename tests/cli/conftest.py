"""Helpers for the command-line tests: run iri-lint in this process (``cli``, ``run_main``) or, for
the few end-to-end tests that need a real process (pipes, signals, the installed script), as a
subprocess (``run_cli``)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from iri_lint.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own result cache: a result cached by one test never stands in for another's check
    (some make the linter fail on purpose)."""
    monkeypatch.setenv("IRI_LINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


CLI = Callable[..., Result]  # the type of the ``cli`` fixture


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CLI:
    """Run ``iri-lint ARGS`` in this process."""

    def run(*args: str) -> Result:
        code = main(list(args))
        cap = capsys.readouterr()
        return Result(code, cap.out, cap.err)

    return run


Completed = subprocess.CompletedProcess[bytes]
RunMain = Callable[..., Completed]  # the type of the ``run_main`` fixture: ``run_cli``'s, in this process


@pytest.fixture
def run_main(monkeypatch: pytest.MonkeyPatch) -> RunMain:
    """Run ``iri-lint ARGS`` in this process as ``run_cli`` runs it in a child: in ``cwd`` (default: the
    checkout), with ``env`` added and IRI_LINT_DEBUG removed, ``stdin`` as its standard input, and
    stdout and stderr caught as bytes from text streams like a child's pipes (not terminals, strict
    UTF-8 until ``main`` reconfigures them). Everything is put back after each call."""

    def run(*args: str, cwd: Path | None = None, stdin: bytes | None = None,
            env: dict[str, str] | None = None) -> Completed:
        out, err = io.BytesIO(), io.BytesIO()
        with monkeypatch.context() as m:
            m.chdir(cwd or ROOT)
            m.delenv("IRI_LINT_DEBUG", raising=False)
            for key, value in (env or {}).items():
                m.setenv(key, value)
            m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8"))
            m.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
            m.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="utf-8"))
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse: usage errors, --help, --version
                code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
            sys.stdout.flush()
            sys.stderr.flush()
            return subprocess.CompletedProcess(["iri-lint", *args], code, out.getvalue(), err.getvalue())

    return run


def run_cli(*args: str, cwd: Path | None = None, stdin: bytes | None = None,
            env: dict[str, str] | None = None) -> Completed:
    """Run the ``iri-lint`` command as a subprocess (end-to-end tests only: mark them ``slow``)."""
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("IRI_LINT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "iri_lint.cli", *args], cwd=cwd or ROOT, input=stdin,
                          capture_output=True, env=full_env, timeout=120)
