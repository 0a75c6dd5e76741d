"""IRI115 non-ascii-in-uri: Non-ASCII character where a URI is required."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity, UseContext
from .shared import Subject, SyntaxFix, report

RULE = Rule(
    code="IRI115",
    name="non-ascii-in-uri",
    family=Family.SYNTAX,
    summary="Non-ASCII character where a URI is required",
    section="RFC 3986 sec. 2",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.URI,
    what=("Under the `uri` profile (the `profile` option), any non-ASCII character anywhere in the string, "
          "since a URI is ASCII only; the fix percent-encodes it as UTF-8."),
    why="Under the `uri` profile the string must be a URI, which is ASCII only.",
    fix_text="Percent-encode the character as UTF-8 (RFC 3987 sec. 3.1).",
    valid=(Example("https://example.com/caf%C3%A9", profile="uri"),),
    invalid=(
        Example("https://example.com/café",
                "https://example.com/caf%C3%A9", context=UseContext.DEREFERENCED, profile="uri"),
    ),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return (f"{err.label} in {err.component}: "
            "URIs are ASCII only (RFC 3986 sec. 2); percent-encode it as UTF-8")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of non-ASCII characters under the `uri` profile, percent-encoded by the fix."""
    return report(facts, Kind.NON_ASCII_IN_URI, message, SyntaxFix.ENCODE)
