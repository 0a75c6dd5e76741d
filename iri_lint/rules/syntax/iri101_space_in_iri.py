"""IRI101 space-in-iri: Space character in an IRI."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import OBJECT_KEY, Subject, SyntaxFix, report

RULE = Rule(
    code="IRI101",
    name="space-in-iri",
    family=Family.SYNTAX,
    summary="Space character in an IRI",
    section="RFC 3987 sec. 2.2; 3987bis sec. 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A space (U+0020) in any component of the IRI, from scheme to fragment; a run of spaces is one "
          "finding, fixed as `%20` each. Spaces before or after the whole IRI are one finding whose fix "
          "removes them, where the literal is one URL whatever it holds (a URL API's argument); elsewhere (a "
          "URL-named name, keyword or key) whitespace at an end of an absolute IRI separates it from the text "
          "around it (3987bis sec. 6.3) and is no finding, one literal's or a value's built in code "
          "(`A_URL = BASE + \"/0 \"`), until a join puts it inside a URL or a URL API takes the value. "
          + OBJECT_KEY),
    why=("RFC 3987 sec. 2.2 leaves this character out of the IRI grammar and 3987bis sec. 6.3 explains why: "
         "spaces delimit IRIs in lists and are added or lost when long IRIs are wrapped, so one IRI can be "
         "read as two. Software that receives such a string may cut it, reject it, or map it differently."),
    fix_text="Percent-encode the space as `%20` (or `+` in a form-encoded query).",
    valid=(Example("https://example.com/a%20b"),),
    invalid=(Example("https://example.com/a b", "https://example.com/a%20b"),
             Example("s3://bucket/reports/Q3 summary.csv")),  # an object store's key: no fix
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return (f"{err.label} in {err.component}: "
            f"spaces are not allowed in IRIs (3987bis sec. 6.3); {err.remedy('percent-encode it as %20')}")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of spaces, percent-encoded by the fix; spaces around the IRI, removed."""
    return report(facts, Kind.SPACE, message, SyntaxFix.ENCODE)
