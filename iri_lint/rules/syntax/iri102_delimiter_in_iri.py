"""IRI102 delimiter-in-iri: Delimiter character `<`, `>` or `"` in an IRI."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import OBJECT_KEY, Subject, SyntaxFix, report

RULE = Rule(
    code="IRI102",
    name="delimiter-in-iri",
    family=Family.SYNTAX,
    summary='Delimiter character `<`, `>` or `"` in an IRI',
    section="RFC 3987 sec. 2.2; 3987bis sec. 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=('A literal `<`, `>` or `"` in any component of the IRI; a run of them is one finding, and the fix '
          "percent-encodes each one. " + OBJECT_KEY),
    why=("RFC 3987 sec. 2.2 leaves this character out of the IRI grammar and 3987bis sec. 6.3 explains why: "
         '`<`, `>` and `"` are the conventional delimiters around IRIs in plain text (RFC 3986 appendix C), so '
         "an IRI containing them is cut off. Software that receives such a string may cut it, reject it, or "
         "map it differently."),
    fix_text="Percent-encode the character (`%3C`, `%3E`, `%22`).",
    valid=(Example("https://example.com/?q=%3Cb%3E"),),
    invalid=(Example('https://example.com/say"hi"', "https://example.com/say%22hi%22"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return (f"{err.label} in {err.component}: "
            f"this delimiter is not allowed in IRIs (3987bis sec. 6.3); {err.remedy('percent-encode it')}")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of `<`, `>` and `"`, percent-encoded by the fix."""
    return report(facts, Kind.DELIMITER, message, SyntaxFix.ENCODE)
