"""The one fix flow of ``iri-lint check --fix``, ``--add-noqa`` and ``--diff``, for every kind of file:
fix -> noqa -> re-lint -> diff -> write.

A file is seen through a :class:`FixableFile`: the Python text it holds, where a place in that text is
in the file, and the bytes a new text makes of it. A ``.py`` file (:class:`PythonFile`) is its
decoded text; a notebook (``iri_lint.cli.notebook_job``) is its code cells joined into one text. The
flow is the same for both: fix the text (``iri_lint.fix``), add the ``# noqa`` comments, lint the new
text again, then show the difference or write the new bytes whole (``iri_lint.files.fileio``), never
over an edit made meanwhile. What became of each fix is a :class:`iri_lint.fix_status.FixStatus`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

from ..files.fileio import Unwritable, replace_file
from ..fix import NotApplied, fix_text
from ..fix_status import FixStatus
from ..lint import SourceError, SourceFinding, source_encoding
from ..noqa import add_noqa
from ..source.locate import split_lines
from .results import FileResult, Job, Problem, Record, record_of, unified_diff

Lint = Callable[[str], list[SourceFinding]]


class FixableFile(Protocol):
    """A file as the fix flow sees it."""

    @property
    def text(self) -> str:
        """The Python text that is linted and fixed."""
        ...

    @property
    def shown(self) -> str:
        """The file's own text, as a diff shows it."""
        ...

    def can_hold(self, text: str) -> bool:
        """Whether the file can hold ``text`` (a ``.py`` file's encoding may not)."""
        ...

    def place(self, record: Record) -> Record:
        """``record`` (placed in :attr:`text`) placed in the file."""
        ...

    def problem(self, path: str, line: int, col: int, message: str) -> Problem:
        """A problem at ``line``/``col`` of :attr:`text`, placed in the file."""
        ...

    def written(self, text: str) -> tuple[bytes, FixableFile] | str:
        """The file's bytes holding ``text`` instead of :attr:`text`, and the document they are; or why
        the file cannot hold it."""
        ...


class PythonFile(NamedTuple):
    """A Python file's text and what it takes to write it back byte for byte: the encoding from the BOM
    or the PEP 263 cookie, the BOM itself; newlines are never translated, so CRLF files stay CRLF."""

    text: str
    encoding: str  # codec name as tokenize reports it ("utf-8", "iso-8859-1", "utf-8-sig", ...)

    @classmethod
    def from_bytes(cls, data: bytes) -> PythonFile:
        """Decode per PEP 263 / BOM; raises SourceError when the bytes cannot be decoded."""
        encoding = source_encoding(data)
        try:
            text = data.decode(encoding)  # "utf-8-sig" drops the BOM and encode() puts it back
        except (LookupError, UnicodeDecodeError) as exc:
            raise SourceError(f"cannot decode file: {exc}") from None
        return cls(text, encoding)

    @property
    def shown(self) -> str:
        return self.text

    def encode(self, text: str) -> bytes:
        """``text`` in this file's encoding (and BOM); UnicodeEncodeError if it cannot hold it."""
        return text.encode(self.encoding)

    def can_hold(self, text: str) -> bool:
        try:
            text.encode(self.encoding)
        except UnicodeEncodeError:
            return False
        return True

    def place(self, record: Record) -> Record:
        return record

    def problem(self, path: str, line: int, col: int, message: str) -> Problem:
        return Problem(path, line, col, message)

    def written(self, text: str) -> tuple[bytes, FixableFile]:
        return self.encode(text), PythonFile(text, self.encoding)


def fix_python(job: Job, data: bytes) -> FileResult:
    """:func:`fix_file` for the bytes of a Python file."""
    try:
        file = PythonFile.from_bytes(data)
    except SourceError as exc:  # (standard input goes back out as it came: a fix-on-save keeps the buffer)
        return FileResult(job.path, problem=Problem(job.path, exc.line, exc.col, str(exc)), new_bytes=echo(job))
    return fix_file(job, file, data, job.lint, FileResult(job.path))


def fix_file(job: Job, file: FixableFile, data: bytes, lint: Lint, result: FileResult) -> FileResult:
    """Fix ``file`` (the file ``job.path``, read as ``data``) as ``job`` asks: its fixes (``job.fix``), then
    a ``# noqa`` comment for each finding left (``job.add_noqa``), then the diff (``job.diff``), the new
    bytes (standard input) or the file written (``job.write``). ``result`` gets the fixes applied and the
    findings of the new text, each fix with its status."""
    text = new_text = file.text
    held: dict[int, NotApplied] = {}  # why a remaining finding's fix was not applied
    if job.fix:
        run = fix_text(text, lint, unsafe=job.unsafe, can_hold=file.can_hold)
        if run.error is not None:  # (a source that does not parse: standard input goes back out unchanged)
            result.problem = file.problem(job.path, run.error.line, run.error.col, str(run.error))
            result.new_bytes = echo(job)
            return result
        lines = split_lines(text)
        result.applied = [file.place(record_of(job.path, a.finding, lines, FixStatus.APPLIED)) for a in run.applied]
        new_text, remaining, held = run.text, run.remaining, run.not_applied
        if run.unsettled:  # nothing was changed: say so, as an iri-lint bug (exit 2)
            result.problem = Problem(job.path, 1, 0, f"not fixed: {run.unsettled}; please report it", internal=True)
    else:
        try:
            remaining = lint(text)
        except SourceError as exc:
            result.problem = file.problem(job.path, exc.line, exc.col, str(exc))
            result.new_bytes = echo(job)
            return result
    if job.add_noqa and remaining:
        new_text, result.noqa_added = add_noqa(new_text, [(sf.line, sf.col, sf.code) for sf in remaining])
        if result.noqa_added:
            remaining, held = lint(new_text), {}
    if new_text == text:
        result.records = records(job.path, file, remaining, held)
        result.new_bytes = echo(job)
        return result
    got = file.written(new_text)
    if isinstance(got, str):  # the file cannot hold the new text: nothing changes, say why
        return _unwritten(job, file, lint, result, got)
    out, new_file = got
    result.records = records(job.path, new_file, remaining, held)
    if job.diff:
        result.diff = unified_diff(job.path, file.shown, new_file.shown)
    if job.data is not None:
        result.new_bytes = out
    elif job.write:
        try:
            replace_file(job.path, out, expected=data)  # not over an edit made meanwhile
        except OSError as exc:  # e.g. a read-only file system: the file is as it was
            why = exc.why if isinstance(exc, Unwritable) else f"cannot write the file: {exc.strerror or exc}"
            return _unwritten(job, file, lint, result, why)
    return result


def records(path: str, file: FixableFile, found: Sequence[SourceFinding],
            held: dict[int, NotApplied] | None = None) -> list[Record]:
    """The records of ``found`` (findings in ``file``'s text), placed in the file; ``held``: why a fix was not
    applied, by index in ``found`` (the others are available, or unsafe)."""
    lines = split_lines(file.text)
    out = []
    for i, sf in enumerate(found):
        why = held.get(i) if held else None
        status, reason = (why.status, why.reason) if why is not None else (FixStatus.AVAILABLE, "")
        out.append(file.place(record_of(path, sf, lines, status, reason)))
    return out


def echo(job: Job) -> bytes | None:
    """Standard input with ``--fix``: the source goes back out, changed or not."""
    return job.data if job.data is not None and job.fix and not job.diff else None


def _unwritten(job: Job, file: FixableFile, lint: Lint, result: FileResult, why: str) -> FileResult:
    """The file stays as it was: its findings as they are, and why it was not fixed."""
    why = f"not fixed: {why}"
    result.applied, result.diff, result.noqa_added, result.new_bytes = [], "", 0, echo(job)
    refused = NotApplied(FixStatus.REFUSED, why)
    found = lint(file.text)
    result.records = records(job.path, file, found, {i: refused for i, sf in enumerate(found)
                                                      if sf.finding.fix is not None})
    result.problem = Problem(job.path, 1, 0, why)
    return result
