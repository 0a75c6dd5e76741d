"""``--fix`` against the number of fixable literals in one file: time per doubling (issue 30, item 14).

    python benchmarks/fix_scaling.py                 # 500 ... 4,000 literals, 3 rounds each
    python benchmarks/fix_scaling.py 1000 2000 4000 8000 --rounds 1

Each module holds N calls ``urllib.request.urlopen("https://example.com/café/<i>")`` (each a safe
IRI404 fix) between lines of ordinary code, and is fixed in one process by ``fix_text``, as
``iri-lint check --fix`` does. A linear fixer takes about 2x per doubling; verifying every fix by
its own re-parse of the whole file took 4x (500 literals 3.6 s, 4,000 216 s before the fix).
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from iri_lint.config import Config  # noqa: E402
from iri_lint.fix import fix_text  # noqa: E402
from iri_lint.lint import lint_text  # noqa: E402

SIZES = (500, 1_000, 2_000, 4_000)
GOAL = 2.6  # growth per doubling, worst step: 2x is linear, 4x quadratic


def module(n: int) -> str:
    """A module with ``n`` literals, each with one safe fix."""
    lines = ["import urllib.request", ""]
    for i in range(n):
        lines.append(f'urllib.request.urlopen("https://example.com/caf\u00e9/{i}")')
        lines.append(f"total_{i} = {i} * 2  # ordinary code between the literals")
    return "\n".join(lines) + "\n"


def time_fix(n: int, rounds: int) -> float:
    """Median seconds of ``fix_text`` on ``module(n)``; checks that every literal was fixed."""
    text, config = module(n), Config()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        run = fix_text(text, lambda t: lint_text(t, config))
        times.append(time.perf_counter() - t0)
        if len(run.applied) != n or run.remaining:
            raise SystemExit(f"{n} literals: {len(run.applied)} fixed, {len(run.remaining)} remaining")
    return statistics.median(times)


def fix_growth(sizes: tuple[int, ...] = SIZES, rounds: int = 3) -> list[tuple[int, float]]:
    """(literals, median seconds) for each size."""
    return [(n, time_fix(n, rounds)) for n in sizes]


def worst_growth(rows: list[tuple[int, float]]) -> float:
    """The largest time ratio between consecutive sizes, per doubling of the literals."""
    return max((b / a) ** (1 / math.log2(m / n)) for (n, a), (m, b) in itertools.pairwise(rows))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=int, help="numbers of fixable literals, growing")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    rows = fix_growth(tuple(args.sizes) or SIZES, args.rounds)
    prev = None
    for n, t in rows:
        print(f"{n:>7,} literals  {t:8.2f} s" + (f"  x{t / prev:.2f}" if prev else ""))
        prev = t
    growth = worst_growth(rows)
    print(f"worst growth per doubling: {growth:.2f}x (goal <= {GOAL}x; linear 2x, quadratic 4x)")
    return 0 if growth <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
