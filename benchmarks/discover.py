"""File discovery against its floor: ``discover()`` (excludes, .gitignore, symlink facts) versus a bare
``os.walk`` that prunes the default excludes by name and lists the same suffixes, on the standard
library (no git) and on this repository (git).

Rounds interleave the contenders; each row is the median of the per-round ratios to the floor.

    python benchmarks/discover.py [--rounds N] [FOLDER ...]
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import os
import statistics
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

from iri_lint.files.discover import DEFAULT_EXCLUDE, SOURCE_SUFFIXES, discover

ROOT = Path(__file__).resolve().parents[1]


def floor(root: str) -> list[str]:
    """Source files under ``root``, default-excluded folder names pruned: no ignore files, nothing resolved."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not any(fnmatch.fnmatchcase(d, p) for p in DEFAULT_EXCLUDE))
        out.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(SOURCE_SUFFIXES))
    return out


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("folders", nargs="*", default=[sysconfig.get_paths()["stdlib"], str(ROOT)])
    args = parser.parse_args(argv)
    print(f"{'folder':<48} {'files':>6} {'floor ms':>9} {'discover':>9} {'no gitignore':>13}")
    for folder in args.folders:
        contenders: dict[str, Callable[[], object]] = {
            "floor": functools.partial(floor, folder),
            "discover": functools.partial(discover, [folder]),
            "plain": functools.partial(discover, [folder], respect_gitignore=False),
        }
        ratios: dict[str, list[float]] = {"discover": [], "plain": []}
        floors = []
        for _ in range(args.rounds):
            t = {name: timed(fn) for name, fn in contenders.items()}
            floors.append(t["floor"])
            for name in ratios:
                ratios[name].append(t[name] / t["floor"])
        n = len(discover([folder]).targets)
        print(f"{folder[-48:]:<48} {n:>6} {statistics.median(floors) * 1000:>9.1f} "
              f"{statistics.median(ratios['discover']):>8.2f}x {statistics.median(ratios['plain']):>12.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
