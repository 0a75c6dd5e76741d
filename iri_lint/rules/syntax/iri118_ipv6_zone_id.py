"""IRI118 ipv6-zone-id: IPv6 zone identifier in an IP literal."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import Subject, report

RULE = Rule(
    code="IRI118",
    name="ipv6-zone-id",
    family=Family.SYNTAX,
    summary="IPv6 zone identifier in an IP literal (`[fe80::1%25eth0]`)",
    section="RFC 9844; RFC 3987 sec. 2.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("An IPv6 address in `[...]` followed by a zone identifier, however it is written: `%25eth0` (RFC "
          "6874's form) or a raw `%eth0`, in every profile. One finding spans the zone."),
    why=("A zone identifier names a network interface of one host and means nothing to any other. RFC 3987 "
         "sec. 2.2 never allowed one (\"This syntax does not support IPv6 scoped addressing zone "
         "identifiers\"); RFC 6874 added `%25zone` to URIs, and RFC 9844 (2025) removed it again, since no "
         "browser ever accepted it and URL parsers read it differently."),
    fix_text=("Pass the zone out of band (the scope id of the socket address, or the interface the program "
              "is configured with) and write the address alone, `[fe80::1]`."),
    valid=(Example("http://[fe80::1]/"),),
    invalid=(Example("http://[fe80::1%25eth0]/"), Example("http://[fe80::1%eth0]:8080/")),
    needs=Needs.ERRORS,
)


def message(err: Subject, shown: str) -> str:
    """The finding's message: why a zone is not part of the IRI, and what to do instead (``shown``: the text
    with a hole as '…')."""
    address = err.text[err.text.rfind("[", 0, err.rec.start) + 1 : err.rec.start]
    zone = shown[err.rec.start : err.rec.end]
    return (f"the IPv6 zone identifier {zone!r} is not part of URI or IRI syntax: RFC 3987 sec. 2.2 never "
            "allowed one, and RFC 9844 removed RFC 6874's '%25zone' (no browser accepted it); a zone is local "
            f"to one host, so pass it out of band (the socket address's scope id) and write [{address}]")


def check(facts: Facts) -> Iterator[Raw]:
    """A zone identifier after an IPv6 address in an IP literal."""
    return report(facts, Kind.ZONE_ID, lambda err: message(err, facts.shown))
