"""IRI105 special-character: Special U+FFF0-FFFD (e.g. U+FFFD replacement character)."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import Subject, SyntaxFix, report

RULE = Rule(
    code="IRI105",
    name="special-character",
    family=Family.SYNTAX,
    summary="Special U+FFF0-FFFD (e.g. U+FFFD replacement character)",
    section="RFC 3987 sec. 2.2; 3987bis sec. 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A code point of U+FFF0-FFFD (the Specials block: U+FFFD REPLACEMENT CHARACTER, U+FFFC OBJECT "
          "REPLACEMENT CHARACTER, the interlinear annotation characters) anywhere in the IRI; the fix removes "
          "it."),
    why=("RFC 3987 sec. 2.2 leaves this character out of the IRI grammar and 3987bis sec. 6.3 explains why: "
         "specials serve byte-order and replacement purposes; U+FFFD usually means the text was decoded with "
         "the wrong encoding. Software that receives such a string may cut it, reject it, or map it "
         "differently."),
    fix_text="Find the character that was lost and write it instead; the fix removes it.",
    valid=(Example("https://example.com/caf%C3%A9"),),
    invalid=(Example("https://example.com/caf�", "https://example.com/caf"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return (f"{err.label} in {err.component}: "
            "specials U+FFF0-FFFD are not allowed in IRIs (3987bis sec. 6.3)")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of specials, removed by the fix."""
    return report(facts, Kind.SPECIAL, message, SyntaxFix.REMOVE)
