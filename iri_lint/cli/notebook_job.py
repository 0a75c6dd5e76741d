"""Checking (and fixing) one Jupyter notebook: its code cells linted as one Python text
(iri_lint.source.notebook), each finding placed in its cell and in the ``.ipynb`` file's own text."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from ..fileio import Unwritable, replace_file
from ..fix import fix_text
from ..lint import SourceError, SourceFinding, lint_text
from ..noqa import add_noqa
from ..source.locate import split_lines
from ..source.notebook import Notebook, NotebookError, read_notebook
from .results import FileResult, Job, Problem, Record, _record, unified_diff

Lint = Callable[[str], list[SourceFinding]]


def check_notebook(job: Job, data: bytes) -> FileResult:
    """Check one notebook; with ``job.fix`` fix it too, writing back only the changed cell sources."""
    result = FileResult(job.path)
    try:
        nb = read_notebook(data)
    except NotebookError as exc:
        result.problem = Problem(job.path, 1, 0, str(exc))
        return result
    cfg = job.config

    def lint(text: str) -> list[SourceFinding]:
        return lint_text(text, cfg, path=job.lint_path or job.path)

    nb, found, result.problem = _usable(job.path, nb, lint)
    if not (job.fix or job.add_noqa) or found is None:
        result.records = _records(job.path, nb, found or [])
        return result
    return _fix_notebook(job, nb, lint, result, data)


def _usable(path: str, nb: Notebook, lint: Lint) -> tuple[Notebook, list[SourceFinding] | None, Problem | None]:
    """The notebook as it can be linted, its findings, and what is wrong with it: a cell that does not
    parse is left out (and named), the others are still checked."""
    try:
        return nb, lint(nb.text), None
    except SourceError as exc:
        broken: list[tuple[int, SyntaxError]] = []
        for cell, text in nb.cell_texts():
            try:
                ast.parse(text)
            except SyntaxError as err:
                broken.append((cell.index, err))
            except (ValueError, RecursionError, MemoryError):
                broken.append((cell.index, SyntaxError("cannot parse the cell")))
        if not broken:  # e.g. a string that opens in one cell and closes in another
            return nb, None, _problem(path, nb, exc.line, exc.col, str(exc))
    index, first = broken[0]
    cell = next(c for c in nb.cells if c.index == index)
    line, col = first.lineno or 1, max((first.offset or 1) - 1, 0)
    more = f" ({len(broken) - 1} more cell(s) do not parse)" if len(broken) > 1 else ""
    problem = _problem(path, nb, cell.first_line + line - 1, col,
                       f"syntax error: {first.msg}; the cell is not checked{more}")
    nb = nb.masking({i for i, _ in broken})
    try:
        return nb, lint(nb.text), problem
    except SourceError:
        return nb, None, problem


def _problem(path: str, nb: Notebook, line: int, col: int, message: str) -> Problem:
    """A problem at ``line``/``col`` of the Python text: placed in the raw file, its cell named."""
    if not nb.cells:
        return Problem(path, 1, 0, message)
    cell, in_cell = nb.cell_at(line)
    row, raw_col = nb.file_position(cell, in_cell, col)
    return Problem(path, row, raw_col, f"cell {cell.index}, line {in_cell}, column {col + 1}: {message}")


def place(nb: Notebook, r: Record) -> Record:
    """``r`` (positions in the Python text) with its cell, its position in the cell and in the raw file."""
    cell, line = nb.cell_at(r.line)
    end_cell, end_line = nb.cell_at(r.end_line)
    end_col = r.end_col
    if end_cell is not cell:  # never across cells: stop at the end of the start's cell
        end_line, end_col = len(cell.lines), len(cell.lines[-1].rstrip("\r\n"))
    start = nb.file_position(cell, line, r.col)
    end = nb.file_position(cell, end_line, end_col, end=True)
    return r._replace(line=line, end_line=end_line, end_col=end_col, cell=cell.index, file_region=(*start, *end))


def _records(path: str, nb: Notebook, found: Sequence[SourceFinding], status: str = "available",
             reason: str = "") -> list[Record]:
    lines = split_lines(nb.text)
    return [place(nb, _record(path, sf, lines, status if sf.finding.fix else "available", reason))
            for sf in found]


def _fix_notebook(job: Job, nb: Notebook, lint: Lint, result: FileResult, data: bytes) -> FileResult:
    text = nb.text
    new_text = text
    lines = split_lines(text)
    remaining: list[SourceFinding] = []
    not_applied: dict[int, str] = {}
    if job.fix:
        run = fix_text(text, lint, unsafe=job.unsafe)
        if run.error is not None:  # only when linting the text failed, which _usable ruled out
            result.problem = _problem(job.path, nb, run.error.line, run.error.col, str(run.error))
            return result
        result.applied = [place(nb, _record(job.path, a.finding, lines, "applied")) for a in run.applied]
        new_text, remaining, not_applied = run.text, run.remaining, run.not_applied
        if run.unsettled:
            result.problem = Problem(job.path, 1, 0, f"not fixed: {run.unsettled}; please report it", internal=True)
    else:
        remaining = lint(text)
    if job.add_noqa and remaining:
        new_text, result.noqa_added = add_noqa(new_text, [(sf.line, sf.col, sf.code) for sf in remaining])
        if result.noqa_added:
            remaining, not_applied = lint(new_text), {}
    if new_text == text:
        result.records = _remaining(job.path, nb, remaining, not_applied)
        return result
    out = nb.write(new_text)
    if isinstance(out, str):  # cannot be written back: nothing changes, say why
        return _unwritten(job, nb, lint, result, out)
    new_nb = nb
    try:
        new_nb = read_notebook(out)
    except NotebookError:  # pragma: no cover  (write() checked that it loads back)
        pass
    result.records = _remaining(job.path, new_nb, remaining, not_applied)
    if job.diff:
        result.diff = unified_diff(job.path, data.decode("utf-8"), out.decode("utf-8"))
    if job.data is not None:
        result.new_bytes = out
    elif job.write:
        try:
            replace_file(job.path, out, expected=data)  # not over an edit made meanwhile
        except OSError as exc:
            why = exc.why if isinstance(exc, Unwritable) else f"cannot write the file: {exc.strerror or exc}"
            return _unwritten(job, nb, lint, result, why)
    return result


def _remaining(path: str, nb: Notebook, found: Sequence[SourceFinding], not_applied: dict[int, str]) -> list[Record]:
    lines = split_lines(nb.text)
    out = []
    for i, sf in enumerate(found):
        reason = not_applied.get(i, "")
        status = "unsafe" if reason.startswith("unsafe") else "refused" if reason else "available"
        out.append(place(nb, _record(path, sf, lines, status, reason)))
    return out


def _unwritten(job: Job, nb: Notebook, lint: Lint, result: FileResult, why: str) -> FileResult:
    """The notebook stays as it was: its findings as they are, and why it was not fixed."""
    result.applied, result.diff, result.noqa_added, result.new_bytes = [], "", 0, None
    result.records = _records(job.path, nb, lint(nb.text), "refused", f"not fixed: {why}")
    result.problem = Problem(job.path, 1, 0, f"not fixed: {why}")
    return result
