"""IRI116 missing-scheme: An absolute IRI is required but there is no scheme."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import Subject, report

RULE = Rule(
    code="IRI116",
    name="missing-scheme",
    family=Family.SYNTAX,
    summary="An absolute IRI is required but there is no scheme",
    section="RFC 3987 sec. 2.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A string checked through the Python API as the kind `IRI` or `absolute-IRI` (`check(text, "
          'kind="IRI")`) that has no scheme, i.e. a relative reference such as `//example.com/`.'),
    why="Where the grammar asks for `IRI` or `absolute-IRI` a relative reference is an error.",
    fix_text="Add the scheme, e.g. `https:`.",
    valid=(Example("https://example.com/", kind="IRI"),),
    invalid=(Example("//example.com/", kind="IRI"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return f"an {err.ref.kind} needs a scheme such as 'https:' (RFC 3987 sec. 2.2); this is a relative reference"


def check(facts: Facts) -> Iterator[Raw]:
    """A relative reference where the kind asked for needs a scheme."""
    return report(facts, Kind.MISSING_SCHEME, message)
