"""What the flake8 plugin costs a run, measured inside one flake8 process (``--jobs=1``).

    python benchmarks/flake8_cost.py FILE...             # CPU: flake8 with each set of our entry points, paired
    python benchmarks/flake8_cost.py --list L            # the files, one a line, from a list file
    python benchmarks/flake8_cost.py --memory FILE...    # the peak (tracemalloc) and who holds it, with vs without
    python benchmarks/flake8_cost.py --jobs 2 FILE...    # the plugin's CPU in a forked run: parent, workers, gc

Timing runs flake8's ``Application`` in this process over the same files with three plugin sets, in
turn, round by round (the first round a warm-up, so the engine's import is out): ``plain`` (neither of
iri-lint's entry points), ``iri0`` (only ``report_deferred``, flake8's logical-line check: what
flake8's calling it on every logical line costs) and ``iri`` (both). It prints the median of the
per-round ratios to ``plain``. Start-up (the engine's import, at a worker's first file with a
candidate) is ``run.py``'s start-up pairs' to measure, not this.

``--jobs N`` runs flake8 ``--jobs=N`` (N > 1: in workers forked from its process) in a fresh process per
round and prints the plugin's CPU there: the parent's ``parse_options`` (where a forked run imports the
engine, once), each worker's ``Plugin.run`` summed (the checks), and the workers' full collections (the
project's before each freeze and flake8's own, by ``gc.callbacks``). Run it with another install's
interpreter to compare two trees.

``--memory`` runs flake8 once per plugin set in a fresh process under ``tracemalloc``, finds the file
at which the run's traced memory peaks, snapshots it after flake8's tree checks on that file (where
flake8 holds the tree, and its tokens when a tree check reported), and prints the difference by
where it was allocated: the innermost frame of iri-lint's (a cache of the engine, an import) or else
the allocating line.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterator
from typing import Any

from flake8 import checker
from flake8.main import application
from flake8.plugins import finder

VARIANTS = ("plain", "iri0", "iri")
_find_importlib_plugins = finder._find_importlib_plugins
_variant = ["iri"]


def _plugins() -> Iterator[Any]:
    """flake8's installed plugins, less the entry points of iri-lint that the variant leaves out."""
    for plugin in _find_importlib_plugins():
        if plugin.package == "iri-lint" and (_variant[0] == "plain" or
                                             (_variant[0] == "iri0" and plugin.entry_point.name != "IRI0")):
            continue
        yield plugin


finder._find_importlib_plugins = _plugins  # flake8 reads its plugins through this at each run


def run_flake8(files: list[str], variant: str) -> float:
    """CPU seconds of one flake8 run over ``files`` with the variant's plugins."""
    _variant[0] = variant
    try:  # a fresh project per run, as a process has (its modules are read again)
        from iri_lint import values_check
        values_check._PROJECT.clear()
    except ImportError:
        pass
    gc.collect()
    t = time.process_time()
    application.Application().run(["--jobs=1", "--exit-zero", "--output-file=/dev/null", *files])
    return time.process_time() - t


def timing(files: list[str], rounds: int) -> None:
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for r in range(rounds + 1):
        for v in VARIANTS if r % 2 else VARIANTS[::-1]:
            t = run_flake8(files, v)
            if r:
                times[v].append(t)
    for v in VARIANTS:
        ratios = [a / b for a, b in zip(times[v], times["plain"], strict=True)]
        print(f"{v:6} {statistics.median(times[v]):7.3f} s  / plain {statistics.median(ratios):.4f}x "
              f"({min(ratios):.3f}-{max(ratios):.3f})")


def forked_child(files: list[str], jobs: int) -> dict[str, float]:
    """One flake8 ``--jobs`` run in this process: the plugin's CPU in the parent and summed over the workers."""
    import os
    import tempfile

    from iri_lint.flake8_plugin import Plugin

    spent = {"parse_options": 0.0, "run": 0.0, "full_gc": 0.0}
    started = [0.0, 0]  # (the start of a full collection, the process counted in)
    real_options, real_run = Plugin.parse_options.__func__, Plugin.run  # type: ignore[attr-defined]

    def parse_options(cls: type[Plugin], options: Any) -> None:
        t = time.process_time()
        real_options(cls, options)
        spent["parse_options"] += time.process_time() - t

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if info["generation"] == 2:
            if phase == "start":
                started[0] = time.process_time()
            else:
                spent["full_gc"] += time.process_time() - started[0]

    with tempfile.TemporaryDirectory() as out:
        def run(self: Plugin) -> Any:  # (in a worker: its totals so far, rewritten at each file)
            if started[1] != os.getpid():  # a worker's first file: what it inherited is the parent's
                started[1] = os.getpid()
                spent["run"] = spent["full_gc"] = 0.0
            t = time.process_time()
            found = real_run(self)
            spent["run"] += time.process_time() - t
            with open(os.path.join(out, str(os.getpid())), "w", encoding="utf-8") as f:
                json.dump(spent, f)
            return found

        Plugin.parse_options = classmethod(parse_options)  # type: ignore[method-assign, assignment]
        Plugin.run = run  # type: ignore[method-assign]
        parent = os.getpid()
        gc.callbacks.append(on_gc)
        application.Application().run([f"--jobs={jobs}", "--exit-zero", "--output-file=/dev/null", *files])
        workers = [json.loads(open(os.path.join(out, n), encoding="utf-8").read()) for n in os.listdir(out)
                   if n != str(parent)]
    return {"parent": spent["parse_options"], "workers": sum(w["run"] for w in workers),
            "workers_full_gc": sum(w["full_gc"] for w in workers), "processes": len(workers)}


def forked(files: list[str], jobs: int, rounds: int) -> None:
    runs = [_child("--child-jobs", str(jobs), *files) for _ in range(rounds)]
    for key in ("parent", "workers", "workers_full_gc"):
        print(f"{key:16} {statistics.median(r[key] for r in runs):.4f} s (median of {rounds}; "
              f"{min(r[key] for r in runs):.4f}-{max(r[key] for r in runs):.4f})")
    print(f"parent + workers {statistics.median(r['parent'] + r['workers'] for r in runs):.4f} s, "
          f"{statistics.median(r['processes'] for r in runs):.0f} workers")


def _owner(frames: tracemalloc.Traceback) -> str:
    inner = f"{frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}"
    for frame in reversed(frames):
        if "/iri_lint/" in frame.filename:
            return f"{frame.filename.split('/iri_lint/')[-1]}:{frame.lineno} <- {inner}"
    return inner


def peak_file(files: list[str], variant: str) -> tuple[str, int]:
    """The file at which a run's traced memory peaks, and the peak."""
    _variant[0] = variant
    peaks: dict[str, int] = {}
    run_checks = checker.FileChecker.run_checks

    def checks(self: checker.FileChecker) -> Any:
        tracemalloc.reset_peak()
        out = run_checks(self)
        peaks[self.filename] = tracemalloc.get_traced_memory()[1]
        return out

    checker.FileChecker.run_checks = checks  # type: ignore[method-assign]
    tracemalloc.start(1)
    application.Application().run(["--jobs=1", "--exit-zero", "--output-file=/dev/null", *files])
    at = max(peaks, key=peaks.__getitem__)
    return at, peaks[at]


def snapshot_at(files: list[str], variant: str, at: str) -> dict[str, int]:
    """What is allocated where, after flake8's tree checks on file ``at``."""
    _variant[0] = variant
    snap: list[tracemalloc.Snapshot] = []
    run_ast_checks = checker.FileChecker.run_ast_checks

    def ast_checks(self: checker.FileChecker) -> None:
        run_ast_checks(self)
        if self.filename == at:
            snap.append(tracemalloc.take_snapshot())

    checker.FileChecker.run_ast_checks = ast_checks  # type: ignore[method-assign]
    tracemalloc.start(16)
    application.Application().run(["--jobs=1", "--exit-zero", "--output-file=/dev/null", *files])
    stats = snap[0].filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)]).statistics("traceback")
    where: Counter[str] = Counter()
    for s in stats:
        where[_owner(s.traceback)] += s.size
    return dict(where)


def _child(*args: str) -> Any:
    out = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def memory(files: list[str], top: int) -> None:
    where = {}
    for v in ("plain", "iri"):
        at, peak = _child("--child", v, *files)
        print(f"{v:6} peak {peak / 2**20:.1f} MiB traced, at {at}")
        where[v] = _child("--child", v, "--at", at, *files)
    delta = Counter(where["iri"])
    delta.subtract(where["plain"])
    print(f"after the tree checks of each one's peak file, with the plugin - without: "
          f"{sum(delta.values()) / 2**20:+.2f} MiB")
    for k, v in delta.most_common(top):
        print(f"  {v / 2**20:+7.2f} MiB {k}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--list", help="a file naming the files to check, one a line")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--memory", action="store_true")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--jobs", type=int, help="the plugin's CPU in flake8 --jobs=N runs (a process a round)")
    ap.add_argument("--child-jobs", type=int, help=argparse.SUPPRESS)  # (the processes of --jobs)
    ap.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)  # (the processes of --memory)
    ap.add_argument("--at", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    files = list(args.files)
    if args.list:
        with open(args.list, encoding="utf-8") as f:
            files += f.read().split()
    if args.child_jobs:
        print(json.dumps(forked_child(files, args.child_jobs)))
    elif args.jobs:
        forked(files, args.jobs, args.rounds)
    elif args.child:
        print(json.dumps(snapshot_at(files, args.child, args.at) if args.at else peak_file(files, args.child)))
    elif args.memory:
        memory(files, args.top)
    else:
        timing(files, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
