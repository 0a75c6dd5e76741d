"""Start-up stays cheap: pre-commit runs iri-lint on a handful of files at a time."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import pytest

from .conftest import EXAMPLES, ROOT

HEAVY = ("libcst", "flake8", "pygls", "lsprotocol", "jsonschema", "hypothesis", "concurrent.futures.process",
         "iri_lint.fix", "iri_lint.lsp", "difflib")
PROBE = """
import sys
from iri_lint.cli import main
code = main(["check", "--isolated", "--exit-zero", {path!r}])
print("HEAVY:" + ",".join(m for m in {heavy!r} if m in sys.modules))
"""


def test_check_on_one_file_imports_nothing_heavy() -> None:
    p = subprocess.run([sys.executable, "-c", PROBE.format(path=str(EXAMPLES / "shop" / "client.py"), heavy=HEAVY)],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "HEAVY:"


def _median(args: list[str], n: int = 7) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run(args, capture_output=True, cwd=ROOT, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _ratio() -> float:
    bare = _median([sys.executable, "-c", "pass"])
    ours = _median([sys.executable, "-m", "iri_lint.cli", "check", "--isolated", "--exit-zero",
                    str(EXAMPLES / "shop" / "client.py")])
    return ours / bare


@pytest.mark.slow
def test_startup_guard() -> None:
    """A regression guard well above today's cost."""
    assert _ratio() < 12  # importing libcst alone would cost ~16x


@pytest.mark.slow
@pytest.mark.xfail(strict=False, reason="iri_lint.core.parse compiles its profile regexes at import (~80 ms)")
def test_startup_at_most_5x_bare_python() -> None:
    assert _ratio() <= 5
