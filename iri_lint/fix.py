"""Apply fixes to a file: re-verified, repeated until stable, written atomically.

Everything here works on the file's decoded text; :class:`SourceFile` remembers how to turn it back
into the same bytes (encoding from the BOM or PEP 263 cookie, the BOM itself; newlines are never
translated, so CRLF files stay CRLF).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .fileio import replace_file
from .lint import SourceError, SourceFinding, source_encoding
from .rules.model import FixSafety
from .source.cst import CstUnavailable, cst_strings, verdict
from .source.edits import Refusal, SourceEdit, apply_edits, edit_literal, verify_edit

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
    if not verify_edit(text, apply_edits(text, edits), sf.literal, fix.value):
        return "re-parsing the edited file did not give the intended value"
    return edits


def _overlaps(edits: Sequence[SourceEdit], chosen: Sequence[SourceEdit]) -> bool:
    return any((a.start < b.end and b.start < a.end) or a.start == b.start for a in edits for b in chosen)


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# --- libcst cross-check (begin)
def _cst_objections(new: str, chosen: Sequence[SourceEdit],
                    by_fix: Sequence[tuple[int, SourceFinding, list[SourceEdit]]]) -> set[int]:
    """Indexes of fixes whose literal libcst finds, in ``new``, with another value than intended.

    ``ast`` already accepted each fix (:func:`source_edits`); libcst (imported by ``cst_strings``, so
    only when a file is being changed) parses ``new`` once and may object. It cannot tell for some
    literals (``{x=}`` fields) or files (too deep to parse): that is no objection.
    """
    try:
        strings = cst_strings(new)
    except CstUnavailable:
        return set()
    rejected: set[int] = set()
    for i, sf, edits in by_fix:
        loc, fix = sf.literal.locator, sf.finding.fix
        sm = loc.source_map() if loc is not None else None
        if loc is None or sm is None or fix is None:  # source_edits refuses these; be safe anyway
            rejected.add(i)
            continue
        shift = sum(len(e.new) - (e.end - e.start) for e in chosen if e.end <= sm.start)
        own = sum(len(e.new) - (e.end - e.start) for e in edits)
        ok = verdict(strings, sm.start + shift, sm.end + shift + own, fix.value,
                     percent_template=loc.percent_template, format_template=loc.format_template)
        if ok is False:
            rejected.add(i)
    return rejected
# --- libcst cross-check (end)


def fix_text(text: str, lint: Callable[[str], list[SourceFinding]], *, unsafe: bool = False,
             can_hold: Callable[[str], bool] | None = None, max_passes: int = MAX_PASSES) -> FixRun:
    """Apply fixes (safe ones; all with ``unsafe``) pass after pass until nothing changes.

    Each pass re-lints the current text, takes at most one fix per literal (a fix's value assumes the
    literal as it was linted), verifies each by re-parsing, and checks the whole file still parses.
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
        chosen: list[SourceEdit] = []
        picked: list[SourceFinding] = []
        by_fix: list[tuple[int, SourceFinding, list[SourceEdit]]] = []  # for the libcst cross-check
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
            got = source_edits(run.text, sf, can_hold)
            if isinstance(got, str):
                reasons[i] = f"refused: {got}"
                continue
            if _overlaps(got, chosen):
                reasons[i] = "overlaps another fix; run again"
                continue
            chosen.extend(got)
            picked.append(sf)
            by_fix.append((i, sf, got))
            done.add(id(sf.literal))
        new = apply_edits(run.text, chosen) if chosen else run.text
        if chosen and not _parses(new):  # each edit parsed alone; together they must too
            chosen, picked, new = [], [], run.text
        # --- libcst cross-check (begin): a second, independent parser must not disagree
        if chosen:
            rejected = _cst_objections(new, chosen, by_fix)
            if rejected:
                for i in rejected:
                    reasons[i] = "refused: libcst re-parsing the edited file disagrees with the intended value"
                kept = [(sf, got) for i, sf, got in by_fix if i not in rejected]
                picked = [sf for sf, _ in kept]
                chosen = [e for _, got in kept for e in got]
                new = apply_edits(run.text, chosen) if chosen else run.text
        # --- libcst cross-check (end)
        if chosen and (new in seen or len(seen) > max_passes):
            return _unsettled(text, lint, picked, max_passes, cycle=new in seen)
        if not chosen:
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
