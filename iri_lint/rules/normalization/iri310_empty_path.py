"""IRI310 empty-path: Empty path after an authority (http-like schemes)."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI310",
    name="empty-path",
    family=Family.NORMALIZATION,
    summary="Empty path after an authority (http-like schemes)",
    section="RFC 3987 sec. 5.3.3",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SCHEME,
    what=("An authority followed by an empty path (`https://example.com`, `https://example.com?q=1`) where the "
          "scheme makes an empty path mean `/`: http, https, ws, wss and the coap family; the fix adds `/`."),
    why="For http and https an empty path is equivalent to `/`; the normal form has the `/`.",
    fix_text="Add `/`.",
    valid=(Example("https://example.com/"),),
    invalid=(Example("https://example.com", "https://example.com/", context=UseContext.DEREFERENCED),),
)

MESSAGE = "empty path after the host; the normal form has '/' (RFC 3987 sec. 5.3.3)"


def check(facts: Facts) -> Iterator[Raw]:
    """An empty path where the scheme makes it '/'."""
    return step_changes(facts, "empty-path", MESSAGE)
