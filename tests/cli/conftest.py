"""Helpers for the command-line tests: run iri-lint in-process or as a subprocess."""

from __future__ import annotations

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


def run_cli(*args: str, cwd: Path | None = None, stdin: bytes | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the ``iri-lint`` command as a subprocess."""
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("IRI_LINT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "iri_lint.cli", *args], cwd=cwd or ROOT, input=stdin,
                          capture_output=True, env=full_env, timeout=120)
