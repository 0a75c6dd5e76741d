"""Checking (and fixing) one Jupyter notebook: its code cells linted as one Python text
(iri_lint.source.notebook), each finding placed in its cell and in the ``.ipynb`` file's own text.

Fixing is the one fix flow of every file (``iri_lint.cli.fix_flow``), through :class:`NotebookFile`:
the notebook's Python text, its findings placed in their cells, and the new text written back into
the changed cell sources only."""

from __future__ import annotations

import ast
from typing import NamedTuple

from ..lint import SourceError, SourceFinding
from ..source.notebook import Notebook, NotebookError, read_notebook
from .fix_flow import FixableFile, Lint, echo, fix_file, records
from .results import FileResult, Job, Problem, Record
from .run import hashed


class NotebookFile(NamedTuple):
    """A notebook as the fix flow sees it (:class:`iri_lint.cli.fix_flow.FixableFile`)."""

    nb: Notebook
    data: bytes  # the file's bytes

    @property
    def text(self) -> str:
        return self.nb.text

    @property
    def shown(self) -> str:
        return self.data.decode("utf-8")

    def can_hold(self, text: str) -> bool:
        return True  # (what JSON cannot hold, ``written`` says)

    def place(self, record: Record) -> Record:
        return place(self.nb, record)

    def problem(self, path: str, line: int, col: int, message: str) -> Problem:
        return _problem(path, self.nb, line, col, message)

    def written(self, text: str) -> tuple[bytes, FixableFile] | str:
        out = self.nb.write(text)
        if isinstance(out, str):  # cannot be written back
            return out
        try:
            return out, NotebookFile(read_notebook(out), out)
        except NotebookError:  # pragma: no cover  (write() checked that it loads back)
            return out, NotebookFile(self.nb, out)


def check_notebook(job: Job, data: bytes) -> FileResult:
    """Check one notebook; with ``job.fix`` fix it too, writing back only the changed cell sources."""
    result = FileResult(job.path)
    try:
        nb = read_notebook(data)
    except NotebookError as exc:
        result.problem = Problem(job.path, 1, 0, str(exc))
        result.new_bytes = echo(job)  # (standard input goes back out as it came)
        return result
    deps: set[str] = set()  # the project's files its cells' URL values read (the result cache's key, as a .py's)
    nb, found, problems = _usable(job.path, nb, lambda text: job.lint(text, deps))
    if problems:
        result.problem, result.more_problems = problems[0], problems[1:]
    file = NotebookFile(nb, data)
    if not (job.fix or job.add_noqa) or found is None:
        result.records = records(job.path, file, found or [])
        result.depends_on = hashed(deps)
        result.new_bytes = echo(job)
        return result
    return fix_file(job, file, data, job.lint, result)


def _usable(path: str, nb: Notebook, lint: Lint) -> tuple[Notebook, list[SourceFinding] | None, list[Problem]]:
    """The notebook as it can be linted, its findings, and what is wrong with it: each cell that does not
    parse is left out and named (docs/notebooks.md: "named once"), the others are still checked."""
    try:
        return nb, lint(nb.text), []
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
            return nb, None, [_problem(path, nb, exc.line, exc.col, str(exc))]
    first_lines = {c.index: c.first_line for c in nb.cells}
    problems = [_problem(path, nb, first_lines[index] + (err.lineno or 1) - 1, max((err.offset or 1) - 1, 0),
                         f"syntax error: {err.msg}; the cell is not checked") for index, err in broken]
    nb = nb.masking({i for i, _ in broken})
    try:
        return nb, lint(nb.text), problems
    except SourceError:
        return nb, None, problems


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
