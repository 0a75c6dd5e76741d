"""Checking (and fixing) files: one picklable job in, one picklable result out, in parallel for many files."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..config import Config
from ..lint import SourceError, SourceFinding, decode_source, lint_text
from ..source.locate import split_lines

MAX_BYTES = 8 * 1024 * 1024  # larger "Python files" are generated data; say so instead of hanging
NOTEBOOK_MAX_BYTES = 64 * 1024 * 1024  # a notebook's outputs (images) make most of its size
PARALLEL_THRESHOLD = 20  # below this, starting worker processes costs more than it saves
T = TypeVar("T")

if TYPE_CHECKING:
    from .cache import ResultCache


@dataclass(frozen=True, slots=True)
class FixInfo:
    """A finding's fix and what became of it."""

    description: str
    safety: str  # "safe" | "unsafe"
    level: str  # ladder level proving it (rules.model.FixLevel)
    value: str  # the literal's whole value after the fix
    edits: tuple[tuple[int, int, str], ...]  # value offsets [start, end) -> replacement
    status: str  # "applied" | "available" | "unsafe" | "refused"
    reason: str = ""  # why it was not applied
    # each edit's place in the file: (line, col, end line, end col), 1-based lines, 0-based code
    # point columns; None when a value offset has no single source position (an escape's middle)
    places: tuple[tuple[int, int, int, int] | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Record:
    """One finding, flattened for reporting (and for crossing a process boundary)."""

    path: str
    line: int  # 1-based
    col: int  # 0-based code points (flake8's plugin convention; reporters add 1)
    end_line: int
    end_col: int
    code: str
    name: str
    message: str
    severity: str
    value: str  # the literal's checked value: part of the baseline fingerprint
    source_line: str  # the line's text, for excerpts
    fix: FixInfo | None = None
    # notebooks: the cell (1-based; line and col are then within it), and where the finding is in the
    # .ipynb file's own text (start line, start col, end line, end col; 1-based lines, 0-based columns)
    cell: int | None = None
    file_region: tuple[int, int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """A file that could not be checked: where and why."""

    path: str
    line: int
    col: int
    message: str
    internal: bool = False  # an iri-lint bug, not the file's fault: exit code 2


@dataclass(slots=True)
class FileResult:
    path: str
    records: list[Record] = field(default_factory=list)
    applied: list[Record] = field(default_factory=list)  # fixes applied (positions before the fix)
    problem: Problem | None = None
    diff: str = ""
    new_bytes: bytes | None = None  # stdin with --fix: the fixed text to print
    noqa_added: int = 0


@dataclass(frozen=True, slots=True)
class Job:
    path: str  # as shown in output
    config: Config
    fix: bool = False
    unsafe: bool = False
    write: bool = True  # False with --diff
    diff: bool = False
    add_noqa: bool = False
    data: bytes | None = None  # stdin contents
    lint_path: str | None = None  # path matched by per-file-ignores (relative to the pyproject)


def _record(path: str, sf: SourceFinding, lines: Sequence[str], status: str = "available",
            reason: str = "") -> Record:
    f = sf.finding
    fix = None
    if f.fix is not None:
        st = status
        if st == "available" and f.fix.safety == "unsafe":
            st = "unsafe"
        fix = FixInfo(f.fix.description, str(f.fix.safety), str(f.fix.level), f.fix.value,
                      tuple((e.start, e.end, e.replacement) for e in f.fix.edits), st, reason,
                      tuple(_place(sf, e.start, e.end) for e in f.fix.edits))
    text = lines[sf.line - 1].rstrip("\r\n") if 0 < sf.line <= len(lines) else ""
    return Record(path, sf.line, sf.col, sf.end.line, sf.end.col, f.code, f.name, f.message,
                  str(f.severity), sf.literal.value, text, fix)


def _place(sf: SourceFinding, start: int, end: int) -> tuple[int, int, int, int] | None:
    """Where value offsets [start, end) of a finding's literal stand in the file."""
    position_of = sf.literal.position_of
    if position_of is None:
        return None
    try:
        a = position_of(start)
        b = position_of(end) if end > start else a
    except (ValueError, IndexError, LookupError):
        return None
    return (a.line, a.col, b.line, b.col)


def _problem(path: str, exc: SourceError) -> Problem:
    return Problem(path, exc.line, exc.col, str(exc))


def _read(job: Job) -> bytes | Problem:
    if job.data is not None:
        data = job.data
    else:
        try:
            size = os.stat(job.path).st_size
            limit = NOTEBOOK_MAX_BYTES if job.path.lower().endswith(".ipynb") else MAX_BYTES
            if size > limit:
                return Problem(job.path, 1, 0, f"file too large to check ({size} bytes > {limit})")
            with open(job.path, "rb") as fh:
                data = fh.read()
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
        data = _read(job)
        if isinstance(data, Problem):
            return FileResult(job.path, problem=data), None
        return _check_file(job, data), data
    except RecursionError:
        return FileResult(job.path, problem=Problem(job.path, 1, 0, "nesting too deep to analyse")), None
    except Exception as exc:  # an engine bug must not hide the other files' results
        return FileResult(job.path, problem=Problem(
            job.path, 1, 0, f"internal error: {type(exc).__name__}: {exc} (please report it)", internal=True)), None


def _check_file(job: Job, data: bytes) -> FileResult:
    result = FileResult(job.path)
    if job.path.lower().endswith(".ipynb"):
        from .notebook_job import check_notebook

        return check_notebook(job, data)
    cfg = job.config

    def lint(text: str) -> list[SourceFinding]:
        return lint_text(text, cfg, path=job.lint_path or job.path)

    try:
        if not (job.fix or job.add_noqa):  # the common case: no need for the fixing machinery
            text = decode_source(data)
            found = lint(text)
            lines = split_lines(text) if found else []
            result.records = [_record(job.path, sf, lines) for sf in found]
            return result
        from ..fix import SourceFile

        source = SourceFile.from_bytes(data)
    except SourceError as exc:
        result.problem = _problem(job.path, exc)
        return result
    return _fix_file(job, source, lint, result)


def _fix_file(job: Job, source: object, lint: Callable[[str], list[SourceFinding]],
              result: FileResult) -> FileResult:
    from ..fix import SourceFile, fix_text, write_atomic

    assert isinstance(source, SourceFile)
    text = source.text
    if job.fix:
        run = fix_text(text, lint, unsafe=job.unsafe, can_hold=source.can_hold)
        if run.error is not None:
            result.problem = _problem(job.path, run.error)
            return result
        old_lines = split_lines(text)
        result.applied = [_record(job.path, a.finding, old_lines, "applied") for a in run.applied]
        new_text = run.text
        lines = split_lines(new_text)
        records = []
        for i, sf in enumerate(run.remaining):
            reason = run.not_applied.get(i, "")
            status = "unsafe" if reason.startswith("unsafe") else "refused" if reason else "available"
            records.append(_record(job.path, sf, lines, status, reason))
        result.records = records
        if run.unsettled:  # nothing was changed: say so, as an iri-lint bug (exit 2)
            result.problem = Problem(job.path, 1, 0, f"not fixed: {run.unsettled}; please report it",
                                     internal=True)
    else:
        new_text = text
        try:
            result.records = [_record(job.path, sf, split_lines(new_text))
                              for sf in lint(new_text)]
        except SourceError as exc:
            result.problem = _problem(job.path, exc)
            return result
    if job.add_noqa and result.records:
        from ..noqa import add_noqa

        new_text, result.noqa_added = add_noqa(new_text, [(r.line, r.col, r.code) for r in result.records])
        if result.noqa_added:
            lines = split_lines(new_text)
            result.records = [_record(job.path, sf, lines) for sf in lint(new_text)]
    if new_text == text:
        if job.data is not None and job.fix and not job.diff:
            result.new_bytes = job.data  # stdin with --fix: the source goes back out, changed or not
        return result
    new_bytes = source.encode(new_text)
    if job.diff:
        result.diff = unified_diff(job.path, text, new_text)
    if job.data is not None:
        result.new_bytes = new_bytes
    elif job.write:
        try:
            write_atomic(Path(job.path), new_bytes)
        except OSError as exc:  # e.g. a read-only file system: the file is as it was
            return _unwritten(job, text, lint, result, exc)
    return result


def _unwritten(job: Job, text: str, lint: Callable[[str], list[SourceFinding]], result: FileResult,
               exc: OSError) -> FileResult:
    """The file could not be written (it is unchanged): its findings as they are, and why."""
    lines = split_lines(text)
    why = f"not fixed: cannot write the file: {exc.strerror or exc}"
    result.applied, result.diff, result.noqa_added = [], "", 0
    result.records = [_record(job.path, sf, lines, "refused" if sf.finding.fix else "available", why)
                      for sf in lint(text)]
    result.problem = Problem(job.path, 1, 0, why)
    return result


def unified_diff(path: str, old: str, new: str) -> str:
    """A ``git diff``-style patch of one file (keeps CRLF line ends as they are)."""
    import difflib

    lines = difflib.unified_diff(split_lines(old), split_lines(new),
                                 fromfile=f"a/{path}", tofile=f"b/{path}")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def run_jobs(jobs: Sequence[Job], *, progress: bool = False, workers: int | None = None,
             cache: ResultCache | None = None) -> Iterator[FileResult]:
    """Results of all jobs, in input order; processes when there are many files to check. With a cache,
    the files it holds a result for are not checked again, and the new results are stored in it."""
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
        yield from _map(check_file, jobs, workers)
        return
    from .cache import check_keyed  # here, not at the top: cache.py imports this module

    for job, (result, key) in zip(jobs, _map(check_keyed, jobs, workers), strict=True):
        if key is not None:
            cache.store(job, key, result)
        yield result


def _map(fn: Callable[[Job], T], jobs: list[Job], workers: int | None) -> Iterator[T]:
    workers = workers if workers is not None else min(os.cpu_count() or 1, 8)
    if len(jobs) <= PARALLEL_THRESHOLD or workers < 2:
        yield from map(fn, jobs)
        return
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, min(64, len(jobs) // (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(fn, jobs, chunksize=chunk)


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
