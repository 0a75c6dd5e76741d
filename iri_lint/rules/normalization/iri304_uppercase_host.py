"""IRI304 uppercase-host: ASCII host not in lowercase."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import whole_component

RULE = Rule(
    code="IRI304",
    name="uppercase-host",
    family=Family.NORMALIZATION,
    summary="ASCII host not in lowercase",
    section="RFC 3987 sec. 5.3.2.1",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SYNTAX,
    what=("An uppercase ASCII letter in a US-ASCII only label of the host, or in an IP literal "
          "(`[2001:DB8::1]`, RFC 3986 sec. 3.2.2), outside `%HH` escapes, of an IRI with "
          "a scheme and no syntax errors; the fix lowercases those labels. A non-ASCII label's case "
          "(`BÜCHER`) is its IDNA mapping's, IRI312's (sec. 5.3.3). One finding per host, at its first "
          "uppercase letter."),
    why="Registered names are case-insensitive and normalize to lowercase.",
    fix_text="Lowercase the host.",
    valid=(Example("https://example.com/"),),
    invalid=(Example("https://Example.COM/", "https://example.com/", context=UseContext.DEREFERENCED),),
)

MESSAGE = "host {old!r} is not lowercase; the normal form is {new!r} (RFC 3987 sec. 5.3.2.1)"


def check(facts: Facts) -> Iterator[Raw]:
    """One finding for the host's uppercase letters, quoting the host."""
    return whole_component(facts, "case-host", "host", MESSAGE)
