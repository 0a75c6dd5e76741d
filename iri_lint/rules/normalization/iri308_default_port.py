"""IRI308 default-port: Explicit default port for the scheme."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI308",
    name="default-port",
    family=Family.NORMALIZATION,
    summary="Explicit default port for the scheme",
    section="RFC 3987 sec. 5.3.3",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SCHEME,
    what=("A port equal to the scheme's default: 80 for http and ws, 443 for https and wss, 21 for ftp, and "
          "the defaults of the other schemes iri-lint knows (ssh, ldap, imap, coap, ...); the fix removes it."),
    why="A port equal to the scheme's default (`:443` for https) is removed by scheme-based normalization.",
    fix_text="Remove the port.",
    valid=(Example("https://example.com:8443/"),),
    invalid=(Example("https://example.com:443/", "https://example.com/", context=UseContext.DEREFERENCED),),
)

MESSAGE = "{old!r} is the scheme's default port; remove it (RFC 3987 sec. 5.3.3)"


def check(facts: Facts) -> Iterator[Raw]:
    """The scheme's default port."""
    return step_changes(facts, "default-port", MESSAGE)
