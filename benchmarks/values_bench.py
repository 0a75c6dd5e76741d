"""The value model (issue #27): ``url_values`` over real code, as a ratio to ``ast.parse`` of the same files.

    python benchmarks/values_bench.py            # the real-code corpus ($IRI_LINT_CORPUS or corpus/) + the
                                                 # stdlib's URL packages, 5 rounds
    python benchmarks/values_bench.py --quick    # the stdlib slice + two corpus projects, 3 rounds
    python benchmarks/values_bench.py --full     # the whole stdlib + the corpus
    python benchmarks/values_bench.py --profile  # where url_values spends its time (cProfile)

Each round parses every file (the baseline, timed) and then runs ``url_values`` on its tree with one
``Project`` for the round (timed: reading and parsing the sibling modules it needs is part of it), every
value taken to its flat text and the position of its first character. The figure is the median of the
per-round ratios. Also printed: how many values were found, how many are fully known, how many files
the projects read and how many twice (the goal is 0), the slowest file, and hostile inputs at growing
sizes (each should take about 10x the time of the one 10x smaller).
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import gc
import pstats
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from run import build_corpus  # noqa: E402  (benchmarks/run.py: the same files as the main suite)

from iri_lint.source.locate import split_lines  # noqa: E402
from iri_lint.source.marks import ScanOptions  # noqa: E402
from iri_lint.source.project import Project  # noqa: E402
from iri_lint.source.urlvalues import url_values  # noqa: E402


def one_round(files: list[Path], texts: list[str]) -> tuple[float, float, dict[str, float], tuple[float, str]]:
    """(parse seconds, url_values seconds, counts, (slowest file's seconds, its path))."""
    project = Project()
    parse_s = eval_s = 0.0
    counts = {"values": 0, "known": 0, "api": 0}
    slowest = (0.0, "")
    for path, text in zip(files, texts, strict=True):
        t0 = time.process_time()
        tree = ast.parse(text, str(path))
        t1 = time.process_time()
        lines = split_lines(text)
        for uv in url_values(tree, lines, path=str(path), project=project):
            counts["values"] += 1
            counts["known"] += uv.value.known
            counts["api"] += uv.api is not None
            uv.value.flat()
            uv.value.position(0)
        t2 = time.process_time()
        parse_s += t1 - t0
        eval_s += t2 - t1
        if t2 - t1 > slowest[0]:
            slowest = (t2 - t1, str(path))
    counts["files_read"] = project.files_read
    counts["read_twice"] = project.read_twice
    return parse_s, eval_s, counts, slowest


def _chain(n: int) -> ast.Module:
    """``x = "a" + "a" + ... (n terms)`` and ``requests.get(x)``, built without the parser's recursion."""
    where = {"lineno": 2, "col_offset": 0, "end_lineno": 2, "end_col_offset": 0}
    expr: ast.expr = ast.Constant("a", **where)
    for _ in range(n - 1):
        expr = ast.BinOp(expr, ast.Add(), ast.Constant("a", **where), **where)
    tree = ast.parse("import requests\nx = 1\nrequests.get(x)\n")
    tree.body[1].value = expr  # type: ignore[attr-defined]
    return tree


def _aug(n: int) -> ast.Module:
    """``url = "https://h"``, ``url += "/a"`` n times, then ``requests.get(url)``."""
    src = 'import requests\nurl = "https://h"\n' + 'url += "/a"\n' * n + "requests.get(url)\n"
    return ast.parse(src)


def _doubling(n: int) -> ast.Module:
    """``A0 = "x"``, ``A1 = A0 + A0``, ... ``A<n>``: a value of 2**n characters, stopped by the size limit."""
    src = 'import requests\nA0 = "x"\n' + "".join(f"A{k + 1} = A{k} + A{k}\n" for k in range(n))
    return ast.parse(src + f"requests.get(A{n})\n")


def _doubled_uses(n: int) -> ast.Module:
    """A value of 2**15 pieces (past the budget), then n uses of it joined to text: each use may cost its
    allowance, not the value's size (a use cut short keeps its own text only when that is cheap to find)."""
    src = 'import requests\nA0 = "x"\n' + "".join(f"A{k + 1} = A{k} + A{k}\n" for k in range(15))
    return ast.parse(src + "".join(f'requests.get(A15 + "/{k}")\n' for k in range(n)))


def hostile() -> None:
    print("hostile inputs (seconds; each size 10x the previous: ~10x the time is linear; * = degraded to a hole)")
    for label, make, sizes in (("'+' terms", _chain, (1_000, 10_000, 100_000)),
                               ("'+=' statements", _aug, (1_000, 10_000, 100_000)),
                               ("doublings", _doubling, (10, 100, 1_000)),
                               ("uses of a doubling", _doubled_uses, (100, 1_000, 10_000))):
        cells = []
        for n in sizes:
            tree = make(n)
            lines = ["\n"] * (max(getattr(tree.body[-1], "lineno", 1), 1) + 1)
            gc.collect()
            t0 = time.process_time()
            found = list(url_values(tree, lines, options=ScanOptions(prefilter=False)))  # (no text to mark)
            cells.append(f"{n:>7,}: {time.process_time() - t0:7.3f}{' ' if found else '*'}")
        print(f"  {label:18} " + "  ".join(cells))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--rounds", type=int)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    corpus = build_corpus(args.quick, real=True, fetch=False, full=args.full)
    print(f"{len(corpus.files):,} files, {corpus.lines:,} lines: " +
          ", ".join(f"{k} {v}" for k, v in corpus.sources.items()))
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(one_round, corpus.files, corpus.texts)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return 0
    rounds = args.rounds or (3 if args.quick else 5)
    ratios = []
    counts: dict[str, float] = {}
    slowest = (0.0, "")
    for r in range(rounds):
        gc.collect()
        parse_s, eval_s, counts, slow = one_round(corpus.files, corpus.texts)
        ratios.append(eval_s / parse_s)
        slowest = max(slowest, slow)
        print(f"  round {r + 1}: ast.parse {parse_s:.2f} s, url_values {eval_s:.2f} s: {eval_s / parse_s:.3f}x")
    print(f"url_values / ast.parse: median {statistics.median(ratios):.3f}x over {rounds} rounds")
    print(f"values found {counts['values']:,.0f} ({counts['known']:,.0f} fully known, {counts['api']:,.0f} at a URL"
          f" API); project files read {counts['files_read']:,.0f}, read twice {counts['read_twice']:,.0f}")
    print(f"slowest file: {slowest[0] * 1000:.1f} ms")
    hostile()
    return 0


if __name__ == "__main__":
    sys.exit(main())
