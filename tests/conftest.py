"""Session set-up shared by all tests: the hypothesis profiles, the long fuzz profile (`pytest -m
fuzz`), a result cache of ``iri-lint check`` outside the repository, and flake8 run in this process."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# No deadline: on a loaded machine (CI, two cores shared) hypothesis' 200 ms per example flakes, and
# speed is measured in benchmarks/, never asserted by a test. CI (CI=true, as .ci/run has it) replays
# the same examples every run, so that a red run can be replayed with HYPOTHESIS_PROFILE=ci.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


def pytest_configure(config: pytest.Config) -> None:
    if (config.getoption("markexpr", "") or "").strip() == "fuzz":
        os.environ["IRI_LINT_FUZZ"] = "1"  # read by tests/properties/strategies.py at import


@pytest.fixture(autouse=True, scope="session")
def _iri_lint_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``iri-lint check`` run by any test (in this process or a child) caches in a temporary folder, never in
    the checkout (tests/cli gives each test its own)."""
    before = os.environ.get("IRI_LINT_CACHE_DIR")
    os.environ["IRI_LINT_CACHE_DIR"] = str(tmp_path_factory.mktemp("iri-lint-cache"))
    yield
    if before is None:
        os.environ.pop("IRI_LINT_CACHE_DIR", None)
    else:
        os.environ["IRI_LINT_CACHE_DIR"] = before


RunFlake8 = Callable[..., subprocess.CompletedProcess[str]]  # the type of the ``run_flake8`` fixture


@pytest.fixture
def run_flake8(monkeypatch: pytest.MonkeyPatch) -> RunFlake8:
    """``flake8 ARGS`` in ``cwd``, in this process (with ``--jobs=1``: no worker processes), its report
    caught from stdout as a child's would be. The plugin is found through its entry point as in a real
    run; a crash is an exception here rather than a traceback on stderr."""
    from flake8.main.application import Application

    def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        out = io.BytesIO()
        with monkeypatch.context() as m:
            m.chdir(cwd)
            m.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
            app = Application()
            app.run([*args, "--jobs=1"])
            sys.stdout.flush()
            return subprocess.CompletedProcess(["flake8", *args], app.exit_code(), out.getvalue().decode(), "")

    return run
