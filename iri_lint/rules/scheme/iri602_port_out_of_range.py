"""IRI602 port-out-of-range: Port above 65535."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.chars import is_digits
from ..facts import Facts
from ..model import Example, Family, Raw, Rule, Severity

RULE = Rule(
    code="IRI602",
    name="port-out-of-range",
    family=Family.SCHEME,
    summary="Port above 65535",
    section="RFC 793; RFC 3986 sec. 3.2.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what="A port whose digits make a number above 65535 (`:65536`), in any scheme.",
    why="TCP and UDP ports are 16-bit numbers; a larger port cannot be connected to.",
    fix_text="Correct the port.",
    valid=(Example("https://example.com:65535/"),),
    invalid=(Example("https://example.com:65536/"),),
)


def check(facts: Facts) -> Iterator[Raw]:
    """A port above 65535 in an IRI with a scheme."""
    ref = facts.ref
    port = ref.port
    if ref.scheme is None or port is None or not len(port) or not is_digits(ref.text[port.start : port.end]):
        return
    number = int(ref.text[port.start : port.end])
    if number > 65535:
        yield Raw(port.start, port.end, f"port {number} is above 65535 and cannot be connected to")
