"""Benchmark of the RFC 3987 sec. 2.2 scanner: throughput on stdlib URL literals, and hostile inputs.

Run: ``python benchmarks/validator.py``. Compares ``iri_lint.core.scan`` with
``rfc3987.match(s, 'IRI_reference')`` and ``rfc3986`` when they are installed (benchmark only:
``rfc3987`` is GPL-3 and never imported by the package).
"""

from __future__ import annotations

import ast
import gc
import re
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import itertools

from iri_lint.core import scan

URL_LIKE = re.compile(r"[a-zA-Z][a-zA-Z0-9+.\-]*+://\S++")


def stdlib_literals() -> list[str]:
    """URL-like str constants (``scheme://...``, no whitespace) from the stdlib's sources."""
    found: list[str] = []
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        try:
            tree = ast.parse(path.read_bytes(), str(path))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and URL_LIKE.fullmatch(node.value):
                found.append(node.value)
    return found


def _with_spans(s: str) -> object:
    """Scan, then read a span: every component's span is split on that first access."""
    ref = scan(s)
    return ref.path, ref.error_records


def contenders() -> dict[str, Callable[[str], object]]:
    """The validators to time, ours first; the others only when installed."""
    # records: every error's code and exact span (what the linter reads); messages: every error
    # object and its text as well (what ``validate()`` users may read)
    out: dict[str, Callable[[str], object]] = {
        "iri_lint.scan": lambda s: scan(s).error_records,
        # spans are split on first access: what reading them costs on top
        "  + spans": _with_spans,
        "  + messages": lambda s: [e.message for e in scan(s).errors],
    }
    try:
        import rfc3987
    except ImportError:
        print("rfc3987 not installed: skipping that comparison (pip install rfc3987)")
    else:
        out["rfc3987.match"] = lambda s: rfc3987.match(s, "IRI_reference")
    try:
        import rfc3986
    except ImportError:
        print("rfc3986 not installed: skipping that comparison")
    else:
        validator = rfc3986.validators.Validator()

        def rfc3986_check(s: str) -> object:
            ref = rfc3986.uri_reference(s)
            try:
                validator.validate(ref)
            except rfc3986.exceptions.ValidationError:
                return None
            return ref.is_valid()

        out["rfc3986"] = rfc3986_check
    return out


def throughput(literals: list[str], rounds: int = 15) -> dict[str, float]:
    """Best-of-``rounds`` µs per literal for each contender, interleaved round by round.

    As ``timeit`` does, the cyclic garbage collector is off while a loop is timed: otherwise a
    collection, set off by whatever the contender before allocated, lands on whoever runs next.
    """
    funcs = contenders()
    best = dict.fromkeys(funcs, float("inf"))
    for _ in range(rounds):
        for name, fn in funcs.items():
            gc.collect()
            gc.disable()
            try:
                t0 = time.perf_counter()
                for s in literals:
                    fn(s)
                elapsed = time.perf_counter() - t0
            finally:
                gc.enable()
            best[name] = min(best[name], elapsed)
    return {name: t / len(literals) * 1e6 for name, t in best.items()}


HOSTILE = {
    "%41 run": ("a:", "%41"), "%41 run, failing": ("a:", "%4"), "':' run": ("", ":"),
    "'@' run": ("//", "@"), "'[' run": ("", "["), "'[' + 1 MB": ("//[", "1"),
    "'.' run": ("//", "."), "'/' run": ("", "/"), "'%' run": ("a:", "%"),
    "long host": ("http://", "a"), "long IPv6 try": ("//[", "1:"),
}


def hostile(sizes: tuple[int, ...] = (10_000, 100_000, 1_000_000)) -> None:
    """Time each hostile input at N, 10N, 100N (up to 1 MB) and print the growth ratios."""
    print(f"\n{'hostile input':22}" + "".join(f"{n:>12,}" for n in sizes) + "   growth per 10x")
    for label, (prefix, piece) in HOSTILE.items():
        scan(prefix + piece * 100)  # compile the regexes this input needs: not part of the growth
        times = []
        for n in sizes:
            text = prefix + piece * (n // len(piece))
            t0 = time.perf_counter()
            scan(text)
            times.append(time.perf_counter() - t0)
        growth = " ".join(f"{b / a:5.1f}x" for a, b in itertools.pairwise(times))
        print(f"{label:22}" + "".join(f"{t * 1e3:10.2f}ms" for t in times) + f"   {growth}")


def main() -> None:
    """Print µs per literal, the ratio to rfc3987, and hostile-input growth."""
    literals = stdlib_literals()
    valid = [s for s in literals if scan(s).is_valid]
    invalid = [s for s in literals if not scan(s).is_valid]
    print(f"{len(literals)} URL-like literals from {sysconfig.get_paths()['stdlib']} "
          f"({len(valid)} valid IRI references)")
    for label, subset in (("all", literals), ("valid", valid), ("invalid", invalid)):
        results = throughput(subset)
        print(f"\n{label} ({len(subset)}):")
        for name, us in results.items():
            print(f"  {name:15} {us:7.3f} µs/literal")
        if "rfc3987.match" in results:
            base = results["rfc3987.match"]
            print(f"  ratio to rfc3987.match: {base / results['iri_lint.scan']:.2f}x with positions and codes, "
                  f"{base / results['  + spans']:.2f}x with component spans read too, "
                  f"{base / results['  + messages']:.2f}x with messages (goal >= 2x)")
    hostile()


if __name__ == "__main__":
    main()
