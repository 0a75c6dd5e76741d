"""IRI110 malformed-percent: `%` not followed by two hex digits."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import OBJECT_KEY, Subject, SyntaxFix, report

RULE = Rule(
    code="IRI110",
    name="malformed-percent",
    family=Family.SYNTAX,
    summary="`%` not followed by two hex digits",
    section="RFC 3986 sec. 2.1",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A `%` that is not followed by two hexadecimal digits (`%`, `%2`, `%zz`), in any component; the fix "
          "writes the `%` itself as `%25`. A `%` that begins one of the usual printf conversions (`%s`, `%d`, `%i`, "
          "`%r`, `%f`, with flags, a width or a precision: `%-10s`, `%.2f`) is a template's placeholder wherever "
          "the literal stands, filled here or elsewhere, and no finding: `50%-rabatt` reads `%-r` so, `50%off` "
          "does not (docs/design.md, templates). " + OBJECT_KEY),
    why=("In an IRI `%` only starts a percent-encoding `%HH`; a bare `%` makes the IRI invalid and different "
         "libraries repair it differently."),
    fix_text="Write a literal `%` as `%25`.",
    valid=(Example("https://example.com/100%25"),),
    invalid=(Example("https://example.com/100%", "https://example.com/100%25"),
             Example("gs://bucket/exports/100%.csv")),  # an object store's key: no fix
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    remedy = err.remedy("write a literal '%' as %25")
    return f"'%' must be followed by two hex digits (pct-encoded, RFC 3986 sec. 2.1); {remedy}"


def check(facts: Facts) -> Iterator[Raw]:
    """Each malformed `%`, written `%25` by the fix."""
    return report(facts, Kind.PERCENT, message, SyntaxFix.ESCAPE_PERCENT)
