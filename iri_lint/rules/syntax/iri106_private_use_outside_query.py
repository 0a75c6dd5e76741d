"""IRI106 private-use-outside-query: Private-use character outside the query."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity, UseContext
from .shared import Subject, SyntaxFix, report

RULE = Rule(
    code="IRI106",
    name="private-use-outside-query",
    family=Family.SYNTAX,
    summary="Private-use character outside the query",
    section="RFC 3987 sec. 2.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.URI,
    what=("A private-use code point (U+E000-F8FF, U+F0000-FFFFD, U+100000-10FFFD) in the scheme, authority, "
          "path or fragment: only the query may hold one. Under the `uri` profile IRI115 reports it instead."),
    why=("RFC 3987 allows private-use code points (`iprivate`) only in the query; their meaning is undefined "
         "without a private agreement and they are not interoperable (3987bis sec. 6.3)."),
    fix_text=("Percent-encode it as UTF-8, which is exactly how the IRI maps to a URI (sec. 3.1), or move it "
              "to the query."),
    valid=(Example("https://example.com/?q=\ue000"),),
    invalid=(Example("https://example.com/\ue000", "https://example.com/%EE%80%80", context=UseContext.DEREFERENCED),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    remedy = err.remedy("percent-encode it")
    return (f"{err.label} in {err.component}: private-use characters are allowed only in the query (RFC 3987 "
            f"sec. 2.2); {remedy}")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of private-use characters outside the query, percent-encoded by the fix."""
    return report(facts, Kind.PRIVATE_USE, message, SyntaxFix.ENCODE)
