"""IRI113 invalid-ip-literal: Malformed IPv6 or IPvFuture literal in `[...]`."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Detail, Kind
from ...core.grammar import ip_literal_error_chars, is_ipv6
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import Subject, report

RULE = Rule(
    code="IRI113",
    name="invalid-ip-literal",
    family=Family.SYNTAX,
    summary="Malformed IPv6 or IPvFuture literal in `[...]`",
    section="RFC 3986 sec. 3.2.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A host in `[...]` that is neither a valid IPv6 address nor an IPvFuture `v<hex>.<chars>`, or an IPv6 "
          "address written without the brackets (`http://fd00:ec2::254/`), or without its `[` (`http://::1]/`: "
          "not a missing host, one error over the address). A zone identifier after a valid "
          "address is IRI118's."),
    why=("An IP literal must be a valid IPv6 address or `v<hex>.<chars>`; anything else cannot be "
         "connected to, and URL parsers disagree on what it means."),
    fix_text="Correct the address.",
    valid=(Example("http://[2001:db8::7]/"), Example("http://[v7.fe80::a+en1]/")),
    invalid=(Example("http://[2001:db8:::7]/"), Example("http://[::1/")),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    inner = ip_literal_error_chars(err.profile).sub("", err.text[err.rec.start + 1 : err.rec.end - 1])
    return {
        Detail.UNBRACKETED_IPV6: f"the IPv6 address {err.chars} must be written in brackets, "
                                 f"{_bracketed(err.chars)} (RFC 3986 sec. 3.2.2)",
        Detail.UNCLOSED_IP_LITERAL: "'[' opens an IP literal that is never closed with ']' (RFC 3986 sec. 3.2.2)",
        Detail.BAD_IPVFUTURE: f'[{inner}] is not a valid IPvFuture literal: "v" 1*HEXDIG "." 1*( unreserved / '
                              'sub-delims / ":" ) (RFC 3986 sec. 3.2.2)',
        Detail.BAD_IPV6: f"[{inner}] is not a valid IPv6 address (RFC 3986 sec. 3.2.2)",
    }[err.rec.detail]  # type: ignore[index]  # every IP_LITERAL error has a detail


def check(facts: Facts) -> Iterator[Raw]:
    """Each malformed IP literal, and an IPv6 address without its brackets."""
    return report(facts, Kind.IP_LITERAL, message)


def _bracketed(address: str) -> str:
    """The address in brackets; both readings when its last group may be a port the join put after it
    (``2001:db8::10:5432``: the address itself, or ``2001:db8::10`` and port 5432)."""
    head, _, last = address.rpartition(":")
    if last.isdigit() and is_ipv6(head) and not head.endswith(":"):
        return f"[{address}], or [{head}]:{last} if {last} is its port"
    return f"[{address}]"
