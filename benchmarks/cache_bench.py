"""The result cache of ``iri-lint check``: an unchanged re-run against the floor (reading and ``ast.parse``
of the same files), the goal being <= 0.15x.

    python benchmarks/cache_bench.py               # corpus/ (scripts/fetch_corpus.py) if fetched, else the stdlib
    python benchmarks/cache_bench.py PATH ...      # other folders or files
    python benchmarks/cache_bench.py --floor --list FILE  # only the floor, in one process (for an outside
                                                          # timer), over the files listed in FILE

The cache is filled once in a temporary folder (``--cache-dir``), and its output is checked against a run
without the cache; then each round times the floor in this process and the cached re-run as a subprocess
(start-up included), in turn. A round whose re-run missed (it rewrote the cache: iri-lint's own files
changed meanwhile, which changes the cache's key) is not counted. The figure is the median of the
per-round ratios of CPU seconds, as in ``benchmarks/run.py``, so a busy machine slows both sides alike.
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.15


def default_paths() -> list[str]:
    corpus = Path(os.environ.get("IRI_LINT_CORPUS") or ROOT / "corpus")
    if corpus.is_dir() and any(corpus.iterdir()):
        return [str(corpus)]
    return [sysconfig.get_paths()["stdlib"]]


def files_of(paths: Sequence[str]) -> list[str]:
    """The files ``iri-lint check PATHS`` checks (its own discovery, default excludes)."""
    sys.path.insert(0, str(ROOT))
    from iri_lint.files.discover import discover

    return [t.path for t in discover(list(paths)).targets]


def floor(files: Sequence[str]) -> float:
    """CPU seconds to read and parse every file (those that do not parse cost their attempt)."""
    from iri_lint.lint import SourceError, decode_source

    c0 = time.process_time()
    for path in files:
        try:
            with open(path, "rb") as fh:
                data = fh.read()
            ast.parse(decode_source(data), path)
        except (SourceError, SyntaxError, ValueError, RecursionError, OSError):
            pass
    return time.process_time() - c0


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _check(args: Sequence[str]) -> tuple[float, bytes]:
    """CPU seconds (the process and its workers) and the output of ``iri-lint check ARGS``."""
    c0 = _children_cpu()
    proc = subprocess.run([sys.executable, "-m", "iri_lint.cli", "check", "--exit-zero", "--no-progress", *args],
                          capture_output=True, cwd=ROOT)
    cpu = _children_cpu() - c0
    if proc.returncode != 0 or b"Traceback" in proc.stderr:
        raise RuntimeError(f"iri-lint check exited {proc.returncode}: {proc.stderr[-2000:]!r}")
    return cpu, proc.stdout


def _written(folder: Path) -> list[tuple[str, int]]:
    return sorted((p.name, p.stat().st_mtime_ns) for p in folder.glob("*.json"))


def bench_cache(paths: Sequence[str] | None = None, rounds: int = 5, verbose: bool = True) -> float:
    """Median per-round ratio: an unchanged re-run of ``iri-lint check`` with a warm cache / the floor."""
    paths = list(paths or default_paths())
    files = files_of(paths)
    with tempfile.TemporaryDirectory() as tmp:
        cached = ["--cache-dir", str(Path(tmp) / "cache"), *paths]
        cold_cpu, cold = _check(cached)
        _, plain = _check(["--no-cache", *paths])
        warm_cpu, warm = _check(cached)
        if not (cold == plain == warm):
            raise RuntimeError("the cached run's output differs from the uncached one")
        ratios = []
        for r in range(rounds):  # in turn, and each first every other round
            before = _written(Path(tmp) / "cache")
            if r % 2:
                base, ours = floor(files), _check(cached)[0]
            else:
                ours, base = _check(cached)[0], floor(files)
            missed = _written(Path(tmp) / "cache") != before  # an all-hit run writes nothing
            if not missed:
                ratios.append(ours / base)
            if verbose:
                print(f"  round {r + 1}/{rounds}: floor {base:.3f}s cpu, cached re-run {ours:.3f}s cpu "
                      + ("(not counted: the cache missed, were iri-lint's files edited?)" if missed
                         else f"= {ratios[-1]:.3f}x"), flush=True)
        if not ratios:
            raise RuntimeError("the cache missed in every round (iri-lint's own files keep changing?)")
    ratio = statistics.median(ratios)
    if verbose:
        print(f"{len(files)} files; first run (fills the cache) {cold_cpu:.2f}s cpu, second {warm_cpu:.2f}s cpu")
        print(f"cached re-run / floor (cpu): {ratio:.3f}x (goal <= {GOAL}x)")
    return ratio


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("paths", nargs="*", help="folders or files (default: corpus/, else the stdlib)")
    ap.add_argument("--floor", action="store_true", help="only read and parse the files, then exit")
    ap.add_argument("--list", metavar="FILE", help="with --floor: the files, one a line (no discovery)")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    if args.floor:
        if args.list:
            sys.path.insert(0, str(ROOT))
            files = Path(args.list).read_text(encoding="utf-8").splitlines()
        else:
            files = files_of(args.paths or default_paths())
        floor(files)
        return 0
    return 0 if bench_cache(args.paths, args.rounds) <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
