"""Checking (and fixing) files: one picklable job in, one picklable result out, in parallel for many files."""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from ..files.fileio import Unreadable, read_regular
from ..lint import SourceError, decode_source, warm_up
from ..source.locate import split_lines
from ..values_check import default_project
from .parent_watch import watch_parent
from .results import FileResult, Job, Problem, record_of

MAX_BYTES = 8 * 1024 * 1024  # larger "Python files" are generated data; say so instead of hanging
NOTEBOOK_MAX_BYTES = 64 * 1024 * 1024  # a notebook's outputs (images) make most of its size
PARALLEL_THRESHOLD = 20  # below this, starting worker processes costs more than it saves
T = TypeVar("T")

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from .cache import ResultCache


def read_job(job: Job) -> bytes | Problem:
    """A job's bytes (its stdin data, or the file, read by the read policy up to its size limit), or the
    problem that kept them from being read."""
    if job.data is not None:
        data = job.data
    else:
        limit = NOTEBOOK_MAX_BYTES if job.path.lower().endswith(".ipynb") else MAX_BYTES
        try:
            data = read_regular(job.path, limit)
        except Unreadable as exc:
            return Problem(job.path, 1, 0, exc.why)
        except OSError as exc:
            return Problem(job.path, 1, 0, f"cannot read file: {exc.strerror or exc}")
    if b"\0" in data[:8192]:
        return Problem(job.path, 1, 0, "binary file (NUL byte), not Python source")
    return data


def check_file(job: Job) -> FileResult:
    """Check one file; with ``job.fix`` fix it too. Never raises for a bad file."""
    return check_read(job)[0]


def check_read(job: Job) -> tuple[FileResult, bytes | None]:
    """:func:`check_file`, and the bytes checked when the check ran to its end (None when the file could
    not be read or the check broke off: such a result is not for the cache)."""
    try:
        data = read_job(job)
        if isinstance(data, Problem):
            return FileResult(job.path, problem=data), None
        return _check_file(job, data), data
    except RecursionError:
        return FileResult(job.path, problem=Problem(job.path, 1, 0, "nesting too deep to analyse")), None
    except Exception as exc:  # an engine bug must not hide the other files' results
        return FileResult(job.path, problem=Problem(
            job.path, 1, 0, f"internal error: {type(exc).__name__}: {exc} (please report it)", internal=True)), None


def _check_file(job: Job, data: bytes) -> FileResult:
    if job.path.lower().endswith(".ipynb"):
        from .notebook_job import check_notebook  # lazy boundary (b): notebooks

        return check_notebook(job, data)
    if job.fix or job.add_noqa:
        from .fix_flow import fix_python  # lazy boundary (b): the fixing machinery, for --fix and --add-noqa

        return fix_python(job, data)
    result = FileResult(job.path)  # the common case: a check, without the fixing machinery
    deps: set[str] = set()  # the project's files its URL values read (the result cache's key)
    try:
        text = decode_source(data)
        found = job.lint(text, deps)
    except SourceError as exc:
        result.problem = Problem(job.path, exc.line, exc.col, str(exc))
        return result
    lines = split_lines(text) if found else []
    result.records = [record_of(job.path, sf, lines) for sf in found]
    result.depends_on = hashed(deps)
    return result


def hashed(deps: set[str]) -> tuple[tuple[str, str | None], ...]:
    """The files a result depends on, each with the sha256 of the bytes its values were read from
    (``FileResult.depends_on``)."""
    digests = default_project().digests
    return tuple((p, digests.get(p)) for p in sorted(deps))


def run_jobs(jobs: Sequence[Job], *, progress: bool = False, workers: int | None = None,
             cache: ResultCache | None = None) -> Iterator[FileResult]:
    """Results of all jobs, in input order; processes when there are many files to check. With a cache,
    the files it holds a result for are not checked again, and the new results are stored in it."""
    default_project().forget_missing()  # (a module not found by an earlier run in this process may exist now)
    n = len(jobs)
    bar = Progress(n) if progress and n > PARALLEL_THRESHOLD else None
    hits = cache.lookup(jobs) if cache is not None else {}
    checked = _checked([job for i, job in enumerate(jobs) if i not in hits], workers, cache)
    for i in range(n):
        yield hits[i] if i in hits else next(checked)
        if bar:
            bar.step()
    if bar:
        bar.close()
    if cache is not None:
        cache.save()


def _checked(jobs: list[Job], workers: int | None, cache: ResultCache | None) -> Iterator[FileResult]:
    if cache is None:
        yield from map_jobs(check_file, jobs, workers)
        return
    for job, (result, key) in zip(jobs, map_jobs(cache.check_keyed, jobs, workers), strict=True):
        if key is not None:
            cache.store(job, key, result)
        yield result


def map_jobs(fn: Callable[[Job], T], jobs: list[Job], workers: int | None) -> Iterator[T]:
    """``fn`` of every job, in order: in this process for a few jobs or one worker, else in this process and
    a pool of ``workers - 1`` more (this one would only wait: a process more costs its start-up and its own
    cold caches, the project's modules read and parsed again among them)."""
    workers = workers if workers is not None else min(os.cpu_count() or 1, 8)
    if len(jobs) <= PARALLEL_THRESHOLD or workers < 2:
        yield from map(fn, jobs)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # small chunks: a chunk the pool has is one this process cannot take at the end (1,360 files on two
    # cores: 21 a chunk)
    size = max(1, min(64, len(jobs) // (workers * 32)))
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    context = multiprocessing.get_context()
    if context.get_start_method() == "fork":  # the workers start with the rules and regexes loaded here
        warm_up(jobs[0].config)
    # the workers end when this process dies, however it dies (parent_watch)
    with ProcessPoolExecutor(max_workers=workers - 1, mp_context=context, initializer=watch_parent,
                             initargs=(os.getpid(), context.get_start_method())) as pool:
        yield from shared_map(fn, chunks, pool, ahead=2 * (workers - 1))


def shared_map(fn: Callable[[Job], T], chunks: list[list[Job]], pool: Executor, ahead: int) -> Iterator[T]:
    """``fn`` of every job of ``chunks``, in order: the pool takes the chunks from the front (``ahead`` of them
    given at a time), this process from the back while the next result it owes is not ready."""
    front: deque[Future[list[T]]] = deque()
    given, end = 0, len(chunks)  # chunks[:given] went to the pool, chunks[end:] were done here
    done_here: list[list[T]] = []  # the results of chunks[end:], the last chunk's first
    while given < end and len(front) < ahead:
        front.append(pool.submit(each_of, fn, chunks[given]))
        given += 1
    while front:
        while given < end and not front[0].done():
            end -= 1
            done_here.append(each_of(fn, chunks[end]))
        yield from front.popleft().result()
        if given < end:
            front.append(pool.submit(each_of, fn, chunks[given]))
            given += 1
    for results in reversed(done_here):
        yield from results


def each_of(fn: Callable[[Job], T], jobs: list[Job]) -> list[T]:
    """``fn`` of each job (a chunk's work, in whichever process takes it)."""
    return [fn(job) for job in jobs]


class Progress:
    """A plain progress bar on stderr (only used when stderr is a terminal)."""

    WIDTH = 30

    def __init__(self, total: int) -> None:
        self.total, self.done, self.last = total, 0, -1

    def step(self) -> None:
        self.done += 1
        filled = self.WIDTH * self.done // self.total
        if filled != self.last or self.done == self.total:
            self.last = filled
            sys.stderr.write(f"\r[{'#' * filled}{' ' * (self.WIDTH - filled)}] {self.done}/{self.total} files")
            sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\r" + " " * (self.WIDTH + 30) + "\r")
        sys.stderr.flush()
