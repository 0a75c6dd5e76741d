"""IRI107 tag-character: Tag character U+E0000-E0FFF outside what the profile allows."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ...core.grammar import Profile
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import Subject, SyntaxFix, report

RULE = Rule(
    code="IRI107",
    name="tag-character",
    family=Family.SYNTAX,
    summary="Tag character U+E0000-E0FFF outside what the profile allows",
    section="RFC 3987 sec. 2.2; 3987bis sec. 2.2, 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A tag character (U+E0000-E0FFF) anywhere in the IRI under the default `iri` profile (RFC 3987), or "
          "outside the query under `iri-3987bis`; the fix removes it."),
    why=("Tag characters carry invisible language tags; language information in identifiers cannot be input, "
         "transmitted or recognized reliably (3987bis sec. 6.3). RFC 3987 excludes them; 3987bis allows them "
         "only in the query."),
    fix_text="Remove the tag characters.",
    valid=(Example("https://example.com/?q=\U000e0041", profile="iri-3987bis"),),
    invalid=(Example("https://example.com/a\U000e0041", "https://example.com/a"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    # 3987bis allows them in the query
    where = "outside the query (3987bis sec. 2.2)" if err.profile is Profile.IRI_BIS else "(RFC 3987 sec. 2.2)"
    return f"{err.label} in {err.component}: tag characters are not allowed {where}"


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of tag characters the profile does not allow, removed by the fix."""
    return report(facts, Kind.TAG, message, SyntaxFix.REMOVE)
