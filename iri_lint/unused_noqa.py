"""Rule IRI901: the ``# noqa`` codes that silence no finding, found after the file's findings.

It reads the comments (``noqa.noqa_comments``) and where the findings of the enabled rules are,
before noqa is applied; ``lint.lint_text`` and the flake8 engine call it with what they found.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .noqa import NoqaComment, noqa_comments, without_codes
from .rules.model import Edit, Finding, Fix, FixLevel, FixSafety
from .rules.noqa.iri901_unused_noqa import RULE
from .rules.registry import RULES
from .source.model import Literal, Reason, SourcePos, UseContext

UNUSED_NOQA = RULE.code


class Placed(NamedTuple):
    """An IRI901 finding on its comment, placed as ``lint.SourceFinding`` places a finding."""

    finding: Finding
    literal: Literal
    start: SourcePos
    end: SourcePos


def unused_noqa(text: str, found: Iterable[tuple[int, str]], enabled: frozenset[str]) -> list[Placed]:
    """An IRI901 finding per noqa comment naming IRI codes that silence none of the ``found``
    findings (line, code) of the ``enabled`` rules (noqa not yet applied), or no rule at all."""
    if UNUSED_NOQA not in enabled:
        return []
    found = list(found)
    out: list[Placed] = []
    for comment in noqa_comments(text):
        codes = [code for line, code in found if comment.first <= line <= comment.last]
        stale = [(code, why) for code, why in _judged(comment, codes, enabled) if why]
        if stale:
            out.append(_finding(comment, stale))
    return out


def _judged(comment: NoqaComment, codes: list[str], enabled: frozenset[str]) -> list[tuple[str, str]]:
    """Each IRI code of the comment, with why it is stale ("" when it is used or cannot be judged)."""
    out = []
    for code, _, _ in comment.codes:
        named = code.upper()
        if not named.startswith("IRI") or RULE.code.startswith(named):
            continue  # another tool's code, or one that silences this very rule
        rules = [r.code for r in RULES if r.code.startswith(named)]
        if not rules:
            out.append((code, "no iri-lint rule"))
        elif any(r in enabled for r in rules):
            out.append((code, "" if any(c.startswith(named) for c in codes) else "nothing to silence"))
    return out


def _finding(comment: NoqaComment, stale: list[tuple[str, str]]) -> Placed:
    value = comment.before + comment.comment
    spans = {code: (a, b) for code, a, b in comment.codes}
    start = len(comment.before) + spans[stale[0][0]][0]
    end = len(comment.before) + spans[stale[-1][0]][1]
    said = "; ".join(f"{code} ({why})" for code, why in stale)
    message = f"unused noqa: {said}; a suppression that silences nothing hides the next finding on this line"
    new = without_codes(comment, [code for code, _ in stale])
    fix = Fix((Edit(0, len(value), new),), new, FixLevel.SOURCE, FixSafety.SAFE, RULE.fix_text)
    line, col = comment.line, comment.col - len(comment.before)
    literal = Literal(value, Reason.NOQA_COMMENT, UseContext.UNKNOWN, "comment", SourcePos(line, col),
                      SourcePos(line, col + len(value)), position_of=lambda i: SourcePos(line, col + i))
    finding = Finding(RULE.code, RULE.name, message, start, end, RULE.severity, fix)
    return Placed(finding, literal, SourcePos(line, col + start), SourcePos(line, col + end))
