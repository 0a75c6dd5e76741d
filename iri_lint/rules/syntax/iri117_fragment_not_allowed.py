"""IRI117 fragment-not-allowed: An absolute-IRI cannot have a fragment."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import Subject, report

RULE = Rule(
    code="IRI117",
    name="fragment-not-allowed",
    family=Family.SYNTAX,
    summary="An absolute-IRI cannot have a fragment",
    section="RFC 3987 sec. 2.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A string checked through the Python API as the kind `absolute-IRI` (the form of a base IRI) that "
          "has a `#fragment`."),
    why="`absolute-IRI` (used e.g. for base IRIs) excludes the fragment.",
    fix_text="Remove the fragment.",
    valid=(Example("https://example.com/a", kind="absolute-IRI"),),
    invalid=(Example("https://example.com/a#f", kind="absolute-IRI"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return "an absolute-IRI has no fragment (RFC 3987 sec. 2.2); remove it from '#' on"


def check(facts: Facts) -> Iterator[Raw]:
    """A fragment in an absolute-IRI."""
    return report(facts, Kind.FRAGMENT_NOT_ALLOWED, message)
