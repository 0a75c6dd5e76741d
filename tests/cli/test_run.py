"""Checking many files: the main process checks chunks too, and the results come in the jobs' order."""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.cli import run
from iri_lint.cli.results import Job
from iri_lint.cli.run import check_file, map_jobs, shared_map
from iri_lint.config import Config


def _chunks(sizes: list[int]) -> list[list[Any]]:
    out, n = [], 0
    for size in sizes:
        out.append(list(range(n, n + size)))
        n += size
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5), max_size=30), st.integers(1, 4))
def test_every_job_once_in_order(sizes: list[int], ahead: int) -> None:
    chunks = _chunks(sizes)
    with ThreadPoolExecutor(max_workers=1) as pool:
        out = list(shared_map(lambda j: j * 10, chunks, pool, ahead))
    assert out == [j * 10 for chunk in chunks for j in chunk]


def test_this_process_checks_the_last_chunks_while_the_pool_is_busy() -> None:
    main = threading.get_ident()
    here_done = threading.Event()
    who: dict[int, bool] = {}

    def fn(job: int) -> int:
        here = threading.get_ident() == main
        who[job] = here
        if here:
            here_done.set()
        else:  # the pool waits until this thread has done a chunk: it must not only wait for the pool
            assert here_done.wait(10), "the main thread took no chunk while the pool was busy"
        return job

    chunks = _chunks([3] * 8)
    with ThreadPoolExecutor(max_workers=1) as pool:
        out = list(shared_map(fn, chunks, pool, ahead=2))  # type: ignore[arg-type]
    assert out == list(range(24))
    here = sorted(j for j, h in who.items() if h)
    assert here and here == list(range(here[0], 24)), "this thread takes chunks from the back"
    assert not who[0]


def test_map_jobs_in_processes_matches_one_process(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(run, "PARALLEL_THRESHOLD", 2)
    for i in range(12):
        (tmp_path / f"m{i}.py").write_text(f'import requests\nrequests.get("https://h/a b/{i}")\n' * (i % 3 + 1))
    jobs = [Job(str(tmp_path / f"m{i}.py"), Config()) for i in range(12)]
    alone = [r.records for r in map_jobs(check_file, jobs, 1)]
    shared = [r.records for r in map_jobs(check_file, jobs, 2)]
    assert shared == alone
    assert [len(r) for r in alone] == [i % 3 + 1 for i in range(12)]


_WORKER_CHECK = """
import os, sys
from iri_lint.cli.results import Job
from iri_lint.cli.run import map_jobs
from iri_lint.config import Config

def loaded(job):  # in a worker: the rules' modules it started with (this process lints nothing first)
    return os.getpid(), "iri_lint.rules.syntax.iri101_space_in_iri" in sys.modules

jobs = [Job(f"f{i}.py", Config()) for i in range(64)]
out = list(map_jobs(loaded, jobs, 2))
print(sum(pid != os.getpid() for pid, _ in out), all(ok for _, ok in out))
"""


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="workers inherit memory when forked")
def test_the_workers_start_with_the_rules_loaded() -> None:
    """The pool's processes are forked with the rules' modules and regexes loaded (``lint.warm_up``), so
    that none pays its own cold start, and before this process checks any file (it would keep the other
    core idle meanwhile)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _WORKER_CHECK], capture_output=True, text=True, check=True)
    in_workers, all_loaded = done.stdout.split()
    assert int(in_workers) > 0 and all_loaded == "True"
