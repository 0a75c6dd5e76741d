"""Apply fixes to a Python text: each verified by re-parsing, pass after pass until nothing changes.

Everything here works on decoded text and writes nothing: turning a file into that text and back
(a ``.py`` file's encoding, a notebook's cells) and writing it is the fix flow's
(``iri_lint.cli.fix_flow``), by the write policy of ``iri_lint.files.fileio``.
"""

from __future__ import annotations

import ast
import bisect
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from .fix_status import FixStatus
from .lint import SourceError, SourceFinding
from .rules.model import Edit, FixLevel, FixSafety, with_edits
from .source.cst import CstUnavailable, cst_strings, verdict
from .source.edits import LiteralEdit, Refusal, Shift, SourceEdit, apply_edits, edit_literal, verify_edits
from .source.locate import SourceMap, split_lines
from .source.model import Reason, SourcePos

# A literal takes one rule's fixes per pass, and a rule's fix can bring out another's (IRI312 maps a
# label that IRI115 then encodes): chains of eight rules are found in fuzzing. Past this many passes a
# fix that never settles is an iri-lint bug.
MAX_PASSES = 30


class Applied(NamedTuple):
    """A fix that was applied, where its finding was when it was applied."""

    finding: SourceFinding
    description: str


class NotApplied(NamedTuple):
    """Why a finding's fix was not applied: not asked for (``FixStatus.UNSAFE``, without ``--unsafe-fixes``)
    or not possible (``FixStatus.REFUSED``), and the reason in words."""

    status: FixStatus
    reason: str


UNSAFE_NOT_ASKED = NotApplied(FixStatus.UNSAFE, "unsafe fix (use --unsafe-fixes)")


def refused(reason: str) -> NotApplied:
    """A fix that could not be made, and why."""
    return NotApplied(FixStatus.REFUSED, reason)


@dataclass(slots=True)
class FixRun:
    """The outcome of :func:`fix_text`."""

    text: str
    applied: list[Applied] = field(default_factory=list)
    remaining: list[SourceFinding] = field(default_factory=list)
    # why the fix of a remaining finding was not applied, by index in ``remaining``
    not_applied: dict[int, NotApplied] = field(default_factory=dict)
    error: SourceError | None = None
    # why the passes did not reach a fixed point (an iri-lint bug); ``text`` is then the input
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
    lit, fix = sf.fix_target
    if fix is None or not fix.edits:
        return "no fix"
    edits: list[SourceEdit] = []
    for e in fix.edits:
        got = edit_literal(lit, e.start, e.end, e.replacement, can_hold)
        if isinstance(got, Refusal):
            return got.reason
        edits.extend(got)
    edits.sort(key=lambda e: (e.start, e.end))
    if any(a.end > b.start for a, b in itertools.pairwise(edits)):
        return "the fix's edits overlap"
    if can_hold is not None and not all(can_hold(e.new) for e in edits):
        return "the file's encoding cannot hold the new characters"
    if with_edits(lit.value, fix.edits) != fix.value:
        return "the fix's edits do not give its value"
    return LiteralEdit(lit, edits, fix.value)


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
    """One literal's fixes in a pass: the findings they fix, their source edits and the value they give."""

    ats: list[int]  # indexes of the findings in the pass's findings
    findings: list[SourceFinding]
    edit: LiteralEdit
    key: int  # where the literal starts in the text
    before: str  # its source text, before and after the edits
    after: str
    back_to: int | None = None  # set when the plan takes the literal back to this state of its history


def _prove(text: str, plans: list[_Planned], reasons: dict[int, NotApplied]) -> tuple[list[_Planned], str]:
    """The plans whose edits, applied together, re-parse (``ast``, then libcst) to their intended values,
    and the text they give. One re-parse by each parser when all agree, as they nearly always do;
    a text that does not parse at all is bisected to find the edits at fault. Why a plan was refused
    goes to ``reasons``, by the index of its finding."""

    def refuse(p: _Planned, why: str) -> None:
        for at in p.ats:
            reasons[at] = refused(f"refused: {why}")

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


# When two fixes undo each other on one literal, the fix of the higher rank wins and the other's
# finding stays reported (docs/design.md, "Fixes that undo each other"). The ladder's steps (syntax
# 5.3.2, scheme 5.3.3) only choose one of the spellings the ladder proves equal: a preference. The
# other fixes make the IRI meet a rule: the value unchanged (source), the sec. 3.1 mapping that sec.
# 2.2, 4.1-4.2 and a URI's ASCII-only grammar ask for (uri), a change the rule asks for that no rung
# proves (none). So a ladder step never undoes them; of two steps the higher rung wins, its normal
# form including the lower's. Between equal ranks the lower code wins: families are numbered from the
# grammar (1xx) outward.
FIX_PRECEDENCE: Mapping[FixLevel, int] = MappingProxyType({
    FixLevel.SOURCE: 3, FixLevel.URI: 2, FixLevel.NONE: 2, FixLevel.SCHEME: 1, FixLevel.SYNTAX: 0})


def _rank(code: str, level: FixLevel) -> tuple[int, int]:
    return FIX_PRECEDENCE[level], -int(code[3:])


@dataclass(slots=True)
class _Track:
    """One literal over the passes: its states (source text, checked value), the fixes applied from
    each to the next, and the codes whose fixes lost a conflict there (each with its winner)."""

    states: list[tuple[str, str]]
    steps: list[list[Applied]] = field(default_factory=list)
    banned: dict[str, str] = field(default_factory=dict)
    in_conflicts: set[str] = field(default_factory=set)  # every code whose fix took part in one

    def conflict(self, plan: _Planned) -> int | None:
        """If ``plan`` brings back an earlier state, the index of that state: the literal goes back to
        it exactly, and the fixes since are undone. The lowest-ranked code of those fixes
        (:data:`FIX_PRECEDENCE`) is banned, unless one of them is banned already: going back undoes
        what it did before it lost, and that ends this cycle. So the passes end.

        A state comes back with its source text, or with its value (the same value spelled otherwise:
        an implicit concatenation's pieces split anew); a value left as it is (a fix of the source
        only) is no cycle.
        """
        last = len(self.states) - 1
        j = next((k for k, (source, value) in enumerate(self.states)
                  if source == plan.after or (value == plan.edit.expected and k < last)), None)
        if j is None:
            return None
        fixes = [a.finding.finding for step in self.steps[j:] for a in step] + [sf.finding for sf in plan.findings]
        self.in_conflicts.update(f.code for f in fixes)
        if not any(f.code in self.banned for f in fixes):
            ranked = sorted(((f.code, f.fix.level) for f in fixes if f.fix is not None), key=lambda c: _rank(*c))
            self.banned[ranked[0][0]] = ranked[-1][0]
        return j

    def applied(self, plan: _Planned, step: list[Applied]) -> list[Applied]:
        """Record a plan applied; the fixes it undid (when it went back to an earlier state) come back.

        A fix of a rule outside the literal's conflicts lifts their bans: they were seen on a text that
        is gone, and the winner's fix may no longer apply (``'\\u05d0%2E'``: IRI205 encodes the
        right-to-left label that ends with an escape, IRI306 then decodes the escape, and IRI405 may
        show the label as text again). A conflict that comes back is found again, and the passes stay
        bounded by ``max_passes``."""
        if plan.back_to is None:
            self.states.append((plan.after, plan.edit.expected))
            self.steps.append(step)
            if self.banned and not {a.finding.code for a in step} & self.in_conflicts:
                self.banned.clear()  # another rule changed the text the conflicts were seen on
            return []
        undone = [a for s in self.steps[plan.back_to :] for a in s] + step
        del self.states[plan.back_to + 1 :], self.steps[plan.back_to :]
        return undone


def fix_text(text: str, lint: Callable[[str], list[SourceFinding]], *, unsafe: bool = False,
             can_hold: Callable[[str], bool] | None = None, max_passes: int = MAX_PASSES) -> FixRun:
    """Apply fixes (safe ones; all with ``unsafe``) pass after pass until nothing changes.

    Each pass re-lints the current text, takes the fixes of one rule per literal (a fix's value assumes
    the literal as it was linted; one rule's fixes come from one analysis of it), and applies them all
    at once, verified by one re-parse with ``ast`` and one with libcst of the edited file (every
    literal's value as intended, every byte outside the edited literals unchanged): a pass costs time
    linear in the file, whatever its number of fixes. Fixes that bring a literal back to an earlier
    text undo each other: the literal goes back to that text, the fix of lowest :data:`FIX_PRECEDENCE`
    among them is not applied there again, and the fixes undone are not reported as applied. So the
    passes reach a fixed point.
    The returned ``remaining`` findings are those of the final text, so their positions are exact.
    """
    run = FixRun(text)
    tracks: dict[int, _Track] = {}  # by where the literal starts in run.text
    undone: set[int] = set()  # ids of the Applied records of fixes undone since
    for passes in range(max_passes + 1):
        try:
            findings = lint(run.text)
        except SourceError as exc:  # only possible on the first pass: edits are verified to parse
            run.error = exc
            return run
        plans, reasons = _plans(run.text, findings, tracks, unsafe=unsafe, can_hold=can_hold)
        kept, new = _prove(run.text, plans, reasons)
        if not kept:
            if _drop_unused_noqa(run, findings):
                continue  # (the next pass re-lints the file and ends here)
            run.applied = [a for a in run.applied if id(a) not in undone]
            run.remaining, run.not_applied = findings, reasons
            return run
        if passes == max_passes:
            return _unsettled(text, lint, [sf for p in kept for sf in p.findings], max_passes)
        for p in kept:
            step = [Applied(sf, sf.finding.fix.description if sf.finding.fix else "") for sf in p.findings]
            run.applied.extend(step)
            track = tracks.setdefault(p.key, _Track([(p.before, p.edit.literal.value)]))
            undone.update(map(id, track.applied(p, step)))
        shift = Shift([e for p in kept for e in p.edit.edits])
        tracks = {shift(k): t for k, t in tracks.items()}
        run.text = new
    return run  # pragma: no cover  (the loop always returns)


def _plans(text: str, findings: list[SourceFinding], tracks: dict[int, _Track], *, unsafe: bool,
           can_hold: Callable[[str], bool] | None) -> tuple[list[_Planned], dict[int, NotApplied]]:
    """The fixes of one pass, one plan per literal, and why the others are not applied."""
    reasons: dict[int, NotApplied] = {}
    # by where the literal is: a value's fix edits a literal that findings of its own may edit too
    by_literal: dict[tuple[SourcePos, SourcePos], list[tuple[int, SourceFinding, LiteralEdit]]] = {}
    for i, sf in enumerate(findings):
        fix = sf.finding.fix
        if fix is None or sf.literal.reason is Reason.NOQA_COMMENT:  # (comments: once the literals settle)
            continue
        if fix.safety is FixSafety.UNSAFE and not unsafe:
            reasons[i] = UNSAFE_NOT_ASKED
            continue
        got = _plan(sf, can_hold)
        if isinstance(got, str):
            reasons[i] = refused(f"refused: {got}")
            continue
        by_literal.setdefault((got.literal.start, got.literal.end), []).append((i, sf, got))
    claimed = _Claimed()
    plans: list[_Planned] = []
    for fixes in by_literal.values():
        loc = fixes[0][2].literal.locator
        sm = loc.source_map() if loc is not None else None
        if sm is None:  # (_plan refused those)
            continue
        track = tracks.get(sm.start)
        plan = _literal_plan(text, sm, fixes, track, claimed, reasons)
        if plan is None:
            continue
        back_to = track.conflict(plan) if track is not None else None
        if track is not None and back_to is not None:  # back to that state, exactly
            source, value = track.states[back_to]
            back = LiteralEdit(plan.edit.literal, [SourceEdit(sm.start, sm.end, source)], value)
            if not claimed.free(back.edits):  # (a literal nested in it changes in this pass)
                for i in plan.ats:
                    reasons[i] = refused("overlaps another fix; run again")
                continue
            plan = plan._replace(edit=back, after=source, back_to=back_to)
        claimed.claim(plan.edit.edits)
        plans.append(plan)
    return plans, reasons


def _literal_plan(text: str, sm: SourceMap, fixes: list[tuple[int, SourceFinding, LiteralEdit]],
                  track: _Track | None, claimed: _Claimed, reasons: dict[int, NotApplied]) -> _Planned | None:
    """One rule's fixes of one literal, as one plan: those that overlap no other fix, where that rule
    lost no conflict. The fixes of one rule come from one analysis of the literal, so they hold
    together (as in ``apply_fixes``); another rule's fix assumes the literal as it was linted, so it
    waits for the next pass, unless it makes only edits already made."""
    ats: list[int] = []
    found: list[SourceFinding] = []
    edits: list[SourceEdit] = []
    made: set[SourceEdit] = set()
    value_edits: list[Edit] = []
    own = _Claimed()
    code = None
    for i, sf, got in fixes:
        reasons.pop(i, None)  # (the literal may be planned again, once its rule lost a conflict)
        winner = track.banned.get(sf.code) if track is not None else None
        if winner is not None:
            reasons[i] = refused(f"{winner}'s fix undoes this one and takes precedence" if winner != sf.code
                                 else "it brings back an earlier text of the literal")
            continue
        if not made.issuperset(got.edits):  # else: the same edits as a fix already taken, applied with it
            if code is not None and sf.code != code:
                reasons[i] = refused("another fix changed this literal first; run again")
                continue
            if not (claimed.free(got.edits) and own.free(got.edits)):
                reasons[i] = refused("overlaps another fix; run again")
                continue
            code = sf.code
            own.claim(got.edits)
            edits.extend(got.edits)
            made.update(got.edits)
            target = sf.fix_target[1]
            value_edits.extend(target.edits if target is not None else ())
        ats.append(i)
        found.append(sf)
    if not found:
        return None
    lit = fixes[0][2].literal
    edits.sort(key=lambda e: (e.start, e.end))
    before = text[sm.start : sm.end]
    after = apply_edits(before, [SourceEdit(e.start - sm.start, e.end - sm.start, e.new) for e in edits])
    value = with_edits(lit.value, value_edits)
    return _Planned(ats, found, LiteralEdit(lit, edits, value), sm.start, before, after)


def _drop_unused_noqa(run: FixRun, findings: list[SourceFinding]) -> bool:
    """Rule IRI901's fixes, once the literals are settled (a literal's fix can leave its noqa code
    unused): each unused code out of its comment. Only comments change, which ``ast`` confirms."""
    stale = [sf for sf in findings if sf.literal.reason is Reason.NOQA_COMMENT and sf.finding.fix is not None]
    if not stale:
        return False
    starts = list(itertools.accumulate((len(line) for line in split_lines(run.text)), initial=0))
    edits = [SourceEdit(starts[sf.literal.start.line - 1] + sf.literal.start.col,
                        starts[sf.literal.end.line - 1] + sf.literal.end.col, sf.finding.fix.value)
             for sf in stale if sf.finding.fix is not None]
    new = apply_edits(run.text, edits)
    try:
        same = ast.dump(ast.parse(new)) == ast.dump(ast.parse(run.text))
    except (SyntaxError, ValueError):  # pragma: no cover  (a comment edit cannot break the syntax)
        same = False
    if not same:  # pragma: no cover
        return False
    run.applied.extend(Applied(sf, sf.finding.fix.description if sf.finding.fix else "") for sf in stale)
    run.text = new
    return True


def _unsettled(text: str, lint: Callable[[str], list[SourceFinding]], picked: list[SourceFinding],
               max_passes: int) -> FixRun:
    """Fixes that never settle change nothing: the input, its findings, and why (an iri-lint bug)."""
    codes = ", ".join(sorted({sf.finding.code for sf in picked}))
    why = f"fixes still change the file after {max_passes} passes ({codes})"
    findings = lint(text)
    return FixRun(text, remaining=findings, unsettled=why,
                  not_applied={i: refused(f"not applied: {why}") for i, sf in enumerate(findings)
                               if sf.finding.fix is not None})
