"""IRI309 empty-port: Empty port after `:`."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI309",
    name="empty-port",
    family=Family.NORMALIZATION,
    summary="Empty port after `:`",
    section="RFC 3987 sec. 5.3.3",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SCHEME,
    what=("A `:` after the host with no port digits (`https://example.com:/`), in an IRI without syntax "
          "errors; the fix removes the `:`."),
    why="An empty port is allowed by the grammar but means the default; normalization removes the `:`.",
    fix_text="Remove the `:`.",
    valid=(Example("https://example.com/"),),
    invalid=(Example("https://example.com:/", "https://example.com/", context=UseContext.DEREFERENCED),),
)

MESSAGE = "empty port {old!r}; remove the ':' (RFC 3987 sec. 5.3.3)"


def check(facts: Facts) -> Iterator[Raw]:
    """An empty port after ':'."""
    return step_changes(facts, "empty-port", MESSAGE)
