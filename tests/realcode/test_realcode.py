"""Lint a pinned real package end to end (lint_text and real flake8): no crash, and no more noise than recorded.

The package is the test extra's pinned ``rdflib`` (IRI-heavy: namespaces, vocabularies), linted from
site-packages. ``budget.json`` holds per-rule maximums for the default rule set and for every rule;
a code not listed may not occur at all. After a deliberate change, re-record with
``python tests/realcode/test_realcode.py --update`` and say why in the commit.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import re
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from iri_lint.config import Config
from iri_lint.lint import decode_source, lint_text, scan_options

BUDGET_FILE = Path(__file__).with_name("budget.json")
BUDGET = json.loads(BUDGET_FILE.read_text(encoding="utf-8"))
CONFIGS = {"default": Config(), "all": Config(select=("ALL",))}
FLAKE8_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]+\d+) ")

pytestmark = pytest.mark.slow


def package_files() -> list[Path]:
    """The pinned package's installed .py files (skipped locally, an error in CI, when missing)."""
    name, version = BUDGET["package"], BUDGET["version"]
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        missing = f"{name}=={version} is not installed: pip install -e '.[test]'"
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    assert dist.version == version, f"{name} {dist.version} installed, the budget is for {version}"
    return sorted(Path(str(dist.locate_file(f))) for f in dist.files or () if str(f).endswith(".py"))


@cache
def lint_counts(which: str) -> tuple[Counter[str], int]:
    """Findings per rule over the package with one configuration, and the number of files."""
    files = package_files()
    counts: Counter[str] = Counter()
    for path in files:
        text = decode_source(path.read_bytes())
        counts.update(f.code for f in lint_text(text, CONFIGS[which], path=str(path)))
    return counts, len(files)


def over_budget(counts: Counter[str], limits: dict[str, int]) -> dict[str, tuple[int, int]]:
    return {code: (n, limits.get(code, 0)) for code, n in counts.items() if n > limits.get(code, 0)}


@pytest.mark.parametrize("which", list(CONFIGS))
def test_lint_text_stays_within_budget(which: str) -> None:
    counts, n_files = lint_counts(which)
    assert n_files >= BUDGET["min_files"], f"only {n_files} files: is the package installed fully?"
    over = over_budget(counts, BUDGET[which])
    assert not over, (f"{which} rules got noisier on {BUDGET['package']} (code: (found, budget)): {over}; "
                      "a finding real code would silence in bulk is a defect (DESIGN.md)")


def test_the_check_is_not_vacuous() -> None:
    """Enough literals reach the rules that a noisy change would show."""
    from iri_lint.source.literals import find_literals

    opts = scan_options(Config())
    n = 0
    for path in package_files():
        text = decode_source(path.read_bytes())
        n += sum(1 for _ in find_literals(ast.parse(text), text.splitlines(keepends=True), options=opts))
    assert n >= BUDGET["min_literals"], f"only {n} IRI literals analysed in {BUDGET['package']}"


def test_flake8_end_to_end() -> None:
    """Real flake8 in a subprocess over the installed package: no traceback, same findings as lint_text."""
    files = package_files()
    root = os.path.commonpath([str(p) for p in files])
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "IRI", "--jobs", "2", root],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, proc.stderr[-3000:]
    counts: Counter[str] = Counter()
    for line in proc.stdout.splitlines():
        m = FLAKE8_LINE.match(line)
        assert m, f"unexpected flake8 output: {line!r}"
        counts[m["code"]] += 1
    default, _ = lint_counts("default")
    assert dict(counts) == dict(default), "flake8 --select IRI must report what iri-lint check does"


def update() -> None:
    """Re-record the budget from the current counts."""
    for which in CONFIGS:
        BUDGET[which] = dict(sorted(lint_counts(which)[0].items()))
    BUDGET_FILE.write_text(json.dumps(BUDGET, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(BUDGET, indent=2))


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit("usage: python tests/realcode/test_realcode.py --update")
