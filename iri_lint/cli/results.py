"""What checking a file produces, and what a check is asked to do: picklable, they cross the process
boundary (iri_lint.cli.run), go into the result cache (iri_lint.cli.cache) and into every report."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..config import Config
from ..fix_status import FixStatus
from ..lint import SourceFinding, lint_text
from ..source.locate import split_lines, written_holes
from ..source.model import Literal, SourcePos, Spelled
from .escape import quote_path


class FixInfo(NamedTuple):
    """A finding's fix and what became of it."""

    description: str
    safety: str  # "safe" | "unsafe"
    level: str  # ladder level proving it (rules.model.FixLevel)
    value: str  # the literal's whole value after the fix
    edits: tuple[tuple[int, int, str], ...]  # value offsets [start, end) -> replacement
    status: str  # a FixStatus's value (plain strings: they go into the result cache as they are)
    reason: str = ""  # why it was not applied
    # each edit's place in the file: (line, col, end line, end col), 1-based lines, 0-based code
    # point columns; None when a value offset has no single source position (an escape's middle)
    places: tuple[tuple[int, int, int, int] | None, ...] = ()


class Record(NamedTuple):
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
    # the value's holes, ``(start, end, the source it stands for)``: reports show the value as written
    # (``{user}``, ``%s``), the baseline and ``value`` keep the checked one (``written`` below)
    holes: tuple[tuple[int, int, str], ...] = ()
    # a URL value's use as its source writes it (``CDN + "/a b"``), which its baseline fingerprint hashes
    # instead of the assembled value: another module's constant may change (empty: a literal's own finding)
    anchor: str = ""
    # a finding placed at the name that brings in a piece another module spells: where it spells the character
    spelled: Spelled | None = None


class Problem(NamedTuple):
    """A file that could not be checked: where and why."""

    path: str
    line: int
    col: int
    message: str
    internal: bool = False  # an iri-lint bug, not the file's fault: exit code 2
    code: str = ""  # a code of its own, where ruff and flake8 have one (E902: a path that does not exist)


class FileResult:
    """What checking (and fixing) one file produced; filled in as the check goes (a plain class: a
    dataclass costs 0.3 ms to define, on every run of the script)."""

    __slots__ = ("applied", "depends_on", "diff", "more_problems", "new_bytes", "noqa_added", "path", "problem",
                 "records")

    def __init__(self, path: str, records: list[Record] | None = None, applied: list[Record] | None = None,
                 problem: Problem | None = None, diff: str = "", new_bytes: bytes | None = None, noqa_added: int = 0,
                 depends_on: tuple[tuple[str, str | None], ...] = ()) -> None:
        self.path = path
        self.records = [] if records is None else records
        self.applied = [] if applied is None else applied  # fixes applied (positions before the fix)
        self.problem = problem
        self.more_problems: list[Problem] = []  # after ``problem``: a notebook's further cells that do not parse
        self.diff = diff
        self.new_bytes = new_bytes  # stdin with --fix: the fixed text to print
        self.noqa_added = noqa_added
        # the project's other files its URL values were read from, each with the sha256 of the bytes read
        # (None: unreadable): a cached result stands only while they are unchanged
        self.depends_on = depends_on

    @property
    def problems(self) -> list[Problem]:
        """Every problem of the file, ``problem`` first."""
        return [] if self.problem is None else [self.problem, *self.more_problems]


class Job(NamedTuple):
    path: str  # as shown in output
    config: Config
    fix: bool = False
    unsafe: bool = False
    write: bool = True  # False with --diff
    diff: bool = False
    add_noqa: bool = False
    data: bytes | None = None  # stdin contents
    lint_path: str | None = None  # path matched by per-file-ignores (relative to the pyproject)

    def lint(self, text: str, depends_on: set[str] | None = None) -> list[SourceFinding]:
        """The findings in ``text``, the Python text of this job's file, under its settings; ``depends_on``
        receives the project's files its URL values were read from."""
        return lint_text(text, self.config, path=self.lint_path or self.path, depends_on=depends_on,
                         file=self.path if self.data is None else None)


def record_of(path: str, sf: SourceFinding, lines: Sequence[str], status: FixStatus = FixStatus.AVAILABLE,
              reason: str = "") -> Record:
    """``sf`` as a record (``lines``: the text's, for the excerpt); ``status`` of its fix, and why it was
    not applied (an available fix that is unsafe is ``FixStatus.UNSAFE``)."""
    f = sf.finding
    fix = None
    if f.fix is not None:
        st = status
        if st is FixStatus.AVAILABLE and f.fix.safety == "unsafe":
            st = FixStatus.UNSAFE
        lit, target = sf.fix_target  # (a value's fix is made in a literal of its own: its edits, in order)
        placed = (target or f.fix).edits
        fix = FixInfo(f.fix.description, str(f.fix.safety), str(f.fix.level), f.fix.value,
                      tuple((e.start, e.end, e.replacement) for e in f.fix.edits), str(st), reason,
                      tuple(_place(lit, e.start, e.end) for e in placed))
    text = lines[sf.line - 1].rstrip("\r\n") if 0 < sf.line <= len(lines) else ""
    holes = written_holes(sf.literal) if sf.literal.holes else ()
    lit = sf.literal
    anchor = _source_between(lines, lit.start, lit.end) if lit.locator is None else ""  # (a value: no literal)
    return Record(path, sf.line, sf.col, sf.end.line, sf.end.col, f.code, f.name, f.message,
                  str(f.severity), lit.value, text, fix, holes=holes, anchor=anchor, spelled=sf.spelled)


def _source_between(lines: Sequence[str], start: SourcePos, end: SourcePos) -> str:
    """The source text from ``start`` to ``end`` (1-based lines, code point columns)."""
    if not 0 < start.line <= end.line <= len(lines):
        return ""
    if start.line == end.line:
        return lines[start.line - 1][start.col : end.col]
    middle = "".join(lines[start.line : end.line - 1])
    return lines[start.line - 1][start.col :] + middle + lines[end.line - 1][: end.col]


Edits = tuple[tuple[int, int, str], ...]


def written(r: Record) -> tuple[str, Edits, str]:
    """The record's value as its source writes it, its fix's edits at their offsets there, and the fixed
    value as written: each hole spelled as in the source (``https://h/{user}/a b``) instead of the
    character it was checked with. Without holes, the record's own."""
    fix_edits: Edits = r.fix.edits if r.fix is not None else ()
    fixed = r.fix.value if r.fix is not None else ""
    if not r.holes:
        return r.value, fix_edits, fixed
    value, shift = _spelled(r.value, r.holes)
    edits = tuple((shift(a), shift(b), t) for a, b, t in fix_edits)
    if r.fix is not None:  # the holes' places once the edits are made (a fix never edits a hole)
        moved = tuple((a + _growth(fix_edits, a), b + _growth(fix_edits, a), t) for a, b, t in r.holes)
        fixed = _spelled(fixed, moved)[0]
    return value, edits, fixed


def _spelled(value: str, holes: Edits) -> tuple[str, Callable[[int], int]]:
    """``value`` with each hole replaced by its text, and the map of its offsets into the result."""
    parts: list[str] = []
    pos, starts, growth = 0, [], [0]
    for a, b, t in sorted(holes):
        parts += [value[pos:a], t]
        pos = b
        starts.append(b)
        growth.append(growth[-1] + len(t) - (b - a))
    parts.append(value[pos:])
    return "".join(parts), lambda i: i + growth[bisect_right(starts, i)]


def _growth(edits: Edits, before: int) -> int:
    """How much the edits ending at or before value offset ``before`` lengthen the value."""
    return sum(len(t) - (b - a) for a, b, t in edits if b <= before)


def _place(lit: Literal, start: int, end: int) -> tuple[int, int, int, int] | None:
    """Where value offsets [start, end) of a literal stand in the file."""
    position_of = lit.position_of
    if position_of is None:
        return None
    try:
        a = position_of(start)
        b = position_of(end) if end > start else a
    except (ValueError, IndexError, LookupError):
        return None
    return (a.line, a.col, b.line, b.col)


def unified_diff(path: str, old: str, new: str) -> str:
    """A ``git diff``-style patch of one file (keeps CRLF line ends as they are)."""
    import difflib

    lines = difflib.unified_diff(split_lines(old), split_lines(new),  # names quoted as git quotes them
                                 fromfile=quote_path(f"a/{path}"), tofile=quote_path(f"b/{path}"))
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
