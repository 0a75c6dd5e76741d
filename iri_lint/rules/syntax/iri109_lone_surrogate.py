"""IRI109 lone-surrogate: Lone surrogate code unit in a string."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import Subject, SyntaxFix, report

RULE = Rule(
    code="IRI109",
    name="lone-surrogate",
    family=Family.SYNTAX,
    summary="Lone surrogate code unit in a string",
    section="3987bis sec. 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A surrogate code point U+D800-DFFF standing alone in the Python string (left by a decoding error or "
          "a split UTF-16 pair), anywhere in the IRI; the fix removes it."),
    why=("Surrogate code units U+D800-DFFF do not represent characters; a Python `str` can hold them only "
         "after a decoding error or careless slicing, and they cannot be encoded as UTF-8."),
    fix_text="Remove the surrogate and write the intended character.",
    valid=(Example("https://example.com/😀"),),
    invalid=(Example("https://example.com/a\ud800", "https://example.com/a"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return (f"{err.label} in {err.component}: "
            "a lone surrogate is not a character (3987bis sec. 6.3)")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of lone surrogates, removed by the fix."""
    return report(facts, Kind.SURROGATE, message, SyntaxFix.REMOVE)
