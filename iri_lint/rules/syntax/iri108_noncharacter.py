"""IRI108 noncharacter: Unicode non-character in an IRI."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import Subject, SyntaxFix, report

RULE = Rule(
    code="IRI108",
    name="noncharacter",
    family=Family.SYNTAX,
    summary="Unicode non-character in an IRI",
    section="RFC 3987 sec. 2.2; 3987bis sec. 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A Unicode non-character (U+FDD0-FDEF, or U+xFFFE and U+xFFFF, the last two code points of every "
          "plane) anywhere in the IRI; the fix removes it."),
    why=("Non-characters (U+FDD0-FDEF, U+xFFFE, U+xFFFF) are reserved for internal use and are not prepared "
         "for interchange (3987bis sec. 6.3)."),
    fix_text="Remove the non-character.",
    valid=(Example("https://example.com/﷏"),),
    invalid=(Example("https://example.com/a\ufdd0", "https://example.com/a"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return (f"{err.label} in {err.component}: "
            "non-characters are not allowed in IRIs (3987bis sec. 6.3)")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of non-characters, removed by the fix."""
    return report(facts, Kind.NONCHARACTER, message, SyntaxFix.REMOVE)
