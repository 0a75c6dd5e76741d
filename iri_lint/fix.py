"""Apply fixes to a file: re-verified, repeated until stable, written atomically.

Everything here works on the file's decoded text; :class:`SourceFile` remembers how to turn it back
into the same bytes (encoding from the BOM or PEP 263 cookie, the BOM itself; newlines are never
translated, so CRLF files stay CRLF).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .fileio import replace_file
from .lint import SourceError, SourceFinding, source_encoding
from .rules.model import FixSafety
from .source.cst import CstUnavailable, cst_strings, verdict
from .source.edits import LiteralEdit, Refusal, Shift, SourceEdit, apply_edits, edit_literal, verify_edits

MAX_PASSES = 10


class SourceFile(NamedTuple):
    """A Python file's text and what it takes to write it back byte for byte."""

    text: str
    encoding: str  # codec name as tokenize reports it ("utf-8", "iso-8859-1", "utf-8-sig", ...)

    @classmethod
    def from_bytes(cls, data: bytes) -> SourceFile:
        """Decode per PEP 263 / BOM; raises SourceError when the bytes cannot be decoded."""
        encoding = source_encoding(data)
        try:
            text = data.decode(encoding)  # "utf-8-sig" drops the BOM and encode() puts it back
        except (LookupError, UnicodeDecodeError) as exc:
            raise SourceError(f"cannot decode file: {exc}") from None
        return cls(text, encoding)

    def encode(self, text: str) -> bytes:
        """``text`` in this file's encoding (and BOM); UnicodeEncodeError if it cannot hold it."""
        return text.encode(self.encoding)

    def can_hold(self, text: str) -> bool:
        try:
            text.encode(self.encoding)
        except UnicodeEncodeError:
            return False
        return True


class Applied(NamedTuple):
    """A fix that was applied, where its finding was when it was applied."""

    finding: SourceFinding
    description: str


@dataclass(slots=True)
class FixRun:
    """The outcome of :func:`fix_text`."""

    text: str
    applied: list[Applied] = field(default_factory=list)
    remaining: list[SourceFinding] = field(default_factory=list)
    # why the fix of a remaining finding was not applied, by index in ``remaining``
    not_applied: dict[int, str] = field(default_factory=dict)
    error: SourceError | None = None
    # why the passes did not reach a fixed point (fixes undoing each other); ``text`` is then the input
    unsettled: str = ""

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def source_edits(text: str, sf: SourceFinding, can_hold: Callable[[str], bool] | None = None
                 ) -> list[SourceEdit] | str:
    """The source edits for ``sf``'s fix, verified by re-parsing; or why they cannot be made."""
    got = _plan(sf, can_hold)
    if isinstance(got, str):
        return got
    verdicts = verify_edits(text, apply_edits(text, got.edits), [got])
    if not (verdicts and verdicts[0]):
        return REPARSE_REFUSAL
    return list(got.edits)


REPARSE_REFUSAL = "re-parsing the edited file did not give the intended value"
CST_REFUSAL = "libcst re-parsing the edited file disagrees with the intended value"


def _plan(sf: SourceFinding, can_hold: Callable[[str], bool] | None) -> LiteralEdit | str:
    """The source edits for ``sf``'s fix, not yet verified; or why they cannot be made."""
    fix = sf.finding.fix
    if fix is None or not fix.edits:
        return "no fix"
    edits: list[SourceEdit] = []
    for e in fix.edits:
        got = edit_literal(sf.literal, e.start, e.end, e.replacement)
        if isinstance(got, Refusal):
            return got.reason
        edits.extend(got)
    edits.sort(key=lambda e: (e.start, e.end))
    if any(a.end > b.start for a, b in itertools.pairwise(edits)):
        return "the fix's edits overlap"
    if can_hold is not None and not all(can_hold(e.new) for e in edits):
        return "the file's encoding cannot hold the new characters"
    return LiteralEdit(sf.literal, edits, fix.value)


class _Claimed:
    """The source spans the fixes of a pass have claimed, sorted; a new span is tested against its
    neighbours only. A zero-width edit claims its point: two edits may not start at one offset."""

    __slots__ = ("_ends", "_starts")

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []

    def free(self, edits: Sequence[SourceEdit]) -> bool:
        for e in edits:
            i = bisect.bisect_left(self._starts, e.start)
            if i < len(self._starts) and (self._starts[i] == e.start or self._starts[i] < e.end):
                return False
            if i > 0 and self._ends[i - 1] > e.start:
                return False
        return True

    def claim(self, edits: Sequence[SourceEdit]) -> None:
        for e in edits:
            i = bisect.bisect_left(self._starts, e.start)
            self._starts.insert(i, e.start)
            self._ends.insert(i, e.end)


class _Planned(NamedTuple):
    at: int  # index of the finding in the pass's findings
    finding: SourceFinding
    edit: LiteralEdit


def _prove(text: str, plans: list[_Planned], reasons: dict[int, str]) -> tuple[list[_Planned], str]:
    """The plans whose edits, applied together, re-parse (``ast``, then libcst) to their intended values,
    and the text they give. One re-parse by each parser when all agree, as they nearly always do;
    a text that does not parse at all is bisected to find the edits at fault. Why a plan was refused
    goes to ``reasons``, by the index of its finding."""

    def refuse(p: _Planned, why: str) -> None:
        reasons[p.at] = f"refused: {why}"

    while plans:
        new = apply_edits(text, [e for p in plans for e in p.edit.edits])
        verdicts = verify_edits(text, new, [p.edit for p in plans])
        if verdicts is None:  # no verdict per literal: find the edits at fault by halves
            if len(plans) == 1:
                refuse(plans[0], REPARSE_REFUSAL)
                return [], text
            half = len(plans) // 2
            first, _ = _prove(text, plans[:half], reasons)
            second, _ = _prove(text, plans[half:], reasons)
            if len(first) + len(second) == len(plans):  # each half alone parses, not both: keep one
                for p in second:
                    refuse(p, REPARSE_REFUSAL)
                second = []
            plans = first + second
            continue
        if not all(verdicts):
            for p, ok in zip(plans, verdicts, strict=True):
                if not ok:
                    refuse(p, REPARSE_REFUSAL)
            plans = [p for p, ok in zip(plans, verdicts, strict=True) if ok]
            continue
        objections = _cst_objections(new, plans)
        if not objections:
            return plans, new
        for k in objections:
            refuse(plans[k], CST_REFUSAL)
        plans = [p for k, p in enumerate(plans) if k not in objections]
    return [], text


# --- libcst cross-check (begin)
def _cst_objections(new: str, plans: Sequence[_Planned]) -> set[int]:
    """Indexes of plans whose literal libcst finds, in ``new``, with another value than intended.

    ``ast`` already accepted each plan (:func:`verify_edits`); libcst (imported by ``cst_strings``, so
    only when a file is being changed) parses ``new`` once and may object. It cannot tell for some
    literals (``{x=}`` fields) or files (too deep to parse): that is no objection.
    """
    try:
        strings = cst_strings(new)
    except CstUnavailable:
        return set()
    shift = Shift([e for p in plans for e in p.edit.edits])
    rejected: set[int] = set()
    for k, p in enumerate(plans):
        loc = p.edit.literal.locator
        sm = loc.source_map() if loc is not None else None
        if loc is None or sm is None:  # _plan refuses these; be safe anyway
            rejected.add(k)
            continue
        ok = verdict(strings, shift(sm.start), shift(sm.end), p.edit.expected,
                     percent_template=loc.percent_template, format_template=loc.format_template)
        if ok is False:
            rejected.add(k)
    return rejected
# --- libcst cross-check (end)


def fix_text(text: str, lint: Callable[[str], list[SourceFinding]], *, unsafe: bool = False,
             can_hold: Callable[[str], bool] | None = None, max_passes: int = MAX_PASSES) -> FixRun:
    """Apply fixes (safe ones; all with ``unsafe``) pass after pass until nothing changes.

    Each pass re-lints the current text, takes at most one fix per literal (a fix's value assumes the
    literal as it was linted), and applies them all at once, verified by one re-parse with ``ast`` and
    one with libcst of the edited file (every literal's value as intended, every byte outside the
    edited literals unchanged): the cost of a pass is linear in the file, whatever its number of fixes.
    The returned ``remaining`` findings are those of the final text, so their positions are exact.
    """
    run = FixRun(text)
    seen = {text}
    for _ in range(max_passes + 1):
        try:
            findings = lint(run.text)
        except SourceError as exc:  # only possible on the first pass: edits are verified to parse
            run.error = exc
            return run
        plans: list[_Planned] = []
        claimed = _Claimed()
        done: set[int] = set()
        reasons: dict[int, str] = {}
        for i, sf in enumerate(findings):
            fix = sf.finding.fix
            if fix is None:
                continue
            if fix.safety is FixSafety.UNSAFE and not unsafe:
                reasons[i] = "unsafe fix (use --unsafe-fixes)"
                continue
            if id(sf.literal) in done:
                reasons[i] = "another fix changed this literal first; run again"
                continue
            got = _plan(sf, can_hold)
            if isinstance(got, str):
                reasons[i] = f"refused: {got}"
                continue
            if not claimed.free(got.edits):
                reasons[i] = "overlaps another fix; run again"
                continue
            claimed.claim(got.edits)
            plans.append(_Planned(i, sf, got))
            done.add(id(sf.literal))
        kept, new = _prove(run.text, plans, reasons)
        picked = [p.finding for p in kept]
        if kept and (new in seen or len(seen) > max_passes):
            return _unsettled(text, lint, picked, max_passes, cycle=new in seen)
        if not kept:
            run.remaining, run.not_applied = findings, reasons
            return run
        seen.add(new)
        run.applied.extend(Applied(sf, sf.finding.fix.description if sf.finding.fix else "") for sf in picked)
        run.text = new
    return run  # pragma: no cover  (the loop always returns)


def _unsettled(text: str, lint: Callable[[str], list[SourceFinding]], picked: list[SourceFinding],
               max_passes: int, *, cycle: bool) -> FixRun:
    """Fixes that never settle change nothing: the input, its findings, and why (ruff warns the same)."""
    codes = ", ".join(sorted({sf.finding.code for sf in picked}))
    why = (f"fixes undo each other ({codes} bring back an earlier text)" if cycle
           else f"fixes still change the file after {max_passes} passes ({codes})")
    findings = lint(text)
    return FixRun(text, remaining=findings, not_applied={i: f"not applied: {why}" for i, sf in enumerate(findings)
                                                         if sf.finding.fix is not None}, unsettled=why)


# ------------------------------------------------------------------ atomic writing


def write_atomic(path: Path, data: bytes, expected: bytes | None = None) -> None:
    """Replace ``path``'s contents with ``data``, whole or not at all (``expected``: only if the file
    still holds those bytes); see :func:`iri_lint.fileio.replace_file`, the one writer."""
    replace_file(str(path), data, expected=expected)


def fix_file(path: Path, lint: Callable[[str], list[SourceFinding]], *, unsafe: bool = False,
             write: bool = True) -> tuple[SourceFile, FixRun]:
    """Fix one file on disk (``write=False``: compute only). Bytes outside the edits never change."""
    data = path.read_bytes()
    source = SourceFile.from_bytes(data)
    run = fix_text(source.text, lint, unsafe=unsafe, can_hold=source.can_hold)
    if write and run.changed:
        write_atomic(path, source.encode(run.text), expected=data)
    return source, run
