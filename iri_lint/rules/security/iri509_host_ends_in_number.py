"""IRI509 host-ends-in-number: A host name that ends in a number, read as an IPv4 address by some."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.mapping import is_dns_scheme, pct_decode_utf8
from ...core.reference import HostKind
from ..facts import Facts
from ..model import Example, Family, Raw, Rule, Severity

RULE = Rule(
    code="IRI509",
    name="host-ends-in-number",
    family=Family.SECURITY,
    summary="Host that ends in a number but is no dotted-decimal IPv4 address",
    section="RFC 3986 sec. 7.4, 3.2.2; RFC 3987 sec. 8",
    severity=Severity.WARNING,
    default=False,
    fix_level=None,
    what=("The host of a DNS scheme (http, https, ftp, ws and the others iri-lint knows) whose last label is a "
          "number but which is not the dotted-decimal `IPv4address` of RFC 3986 sec. 3.2.2: fewer than four "
          "parts (`127.1`, `2130706433`), a part with a leading zero (`010.0.0.1`) or in hexadecimal "
          "(`0x7f.0.0.1`), a part above 255 (`192.168.1.300`), more than four parts, or a name whose top "
          "label is all digits (`example.123`). Opt-in: measured on 47 projects, it found only tests, half of "
          "them deliberate bad input and half placeholder hosts in test data (`https://123`)."),
    why=("The URI grammar reads such a host as a registered name, which DNS never resolves (RFC 1123 "
         "sec. 2.1: a top-level label is never all digits); `inet_aton()` and the WHATWG URL parser of "
         "browsers and many libraries read it as an IPv4 address, with a leading 0 meaning octal: "
         "`192.168.010.010` is 192.168.8.8. RFC 3986 sec. 7.4 (whose considerations RFC 3987 sec. 8 "
         "keeps) warns that these forms differ between implementations, so a filter that reads the host "
         "one way is passed by a request that reads it the other (a classic SSRF bypass), and what "
         "the author meant is unclear. A number above 255 makes it no address at all: browsers reject it."),
    fix_text=("Write the address in dotted decimal, four parts without leading zeros (`127.0.0.1`); the "
              "message says what inet_aton reads, which may not be what was meant (`010` is 8). No "
              "automatic fix: only the author knows which reading was intended."),
    valid=(Example("http://127.0.0.1/"), Example("http://192.168.10.10:8080/"), Example("https://example.com/"),
           Example("http://10.0.0.1.nip.io/"), Example("urn:example:127.1")),
    invalid=(Example("http://127.1/"), Example("http://192.168.010.010/"), Example("http://0x7f.0.0.1/"),
             Example("http://2130706433/"), Example("http://192.168.1.300/"), Example("http://example.123/")),
)

_MAX_PARTS = 4  # a.b.c.d, the most an IPv4 address is written in


def check(facts: Facts) -> Iterator[Raw]:
    """RFC 3986 sec. 7.4: a host ending in a number is an IPv4 address to inet_aton and browsers, a
    registered name that DNS never resolves to the URI grammar (sec. 3.2.2)."""
    ref = facts.ref
    if ref.host is None or ref.host_kind is not HostKind.REG_NAME:
        return
    if any(r.component in ("host", "port") for r in ref.error_records):
        return  # a broken authority (``http://0:0:0:1]/``): its syntax error is the cause, reported once
    host = ref.get("host") or ""
    if "%" in host:  # browsers read the host percent-decoded; octets that are no UTF-8: IRI401's
        host = pct_decode_utf8(host) or ""
    labels = host.split(".")
    if len(labels) > 1 and not labels[-1]:
        labels.pop()  # the root's empty label of a name written with its final dot
    last = labels[-1]
    if not (last.isdigit() or _number(last) is not None) or not host.isascii() or not is_dns_scheme(ref.get("scheme")):
        return
    yield Raw(ref.host.start, ref.host.end, _message(ref.get("host") or "", labels))


def _number(part: str) -> int | None:
    """A part of a host as the WHATWG URL Standard's IPv4 number parser and inet_aton read it: ``0x``
    hexadecimal, a leading ``0`` octal, else decimal; None when it is no number."""
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if not digits:
        return 0 if base == 16 else None
    try:
        return int(digits, base) if digits.isascii() and digits.isalnum() else None
    except ValueError:
        return None


def _message(host: str, labels: list[str]) -> str:
    """What each reading makes of ``host``, whose last label is a number."""
    numbers = [_number(label) for label in labels]
    if len(labels) > _MAX_PARTS or any(n is None for n in numbers):
        return (f"host {host!r} ends in a number: no DNS name has an all-digit top-level label (RFC 1123 "
                "sec. 2.1), and browsers' URL parser rejects it (RFC 3986 sec. 7.4)")
    *head, last = [n for n in numbers if n is not None]
    if any(n > 255 for n in head) or last >= 256 ** (_MAX_PARTS + 1 - len(labels)):
        return (f"host {host!r} is no IPv4 address (a part is too large) and no DNS name (its top-level label "
                "is all digits): nothing can connect to it (RFC 3986 sec. 3.2.2, 7.4)")
    value = last
    for i, n in enumerate(head):
        value += n << (8 * (_MAX_PARTS - 1 - i))
    address = ".".join(str(value >> shift & 255) for shift in (24, 16, 8, 0))
    return (f"host {host!r} is no dotted-decimal IPv4 address (RFC 3986 sec. 3.2.2) but inet_aton and browsers "
            f"read it as {address}{_why(host, labels)}; write the address meant in four decimal parts "
            "(RFC 3986 sec. 7.4)")


def _why(host: str, labels: list[str]) -> str:
    """Why the reading differs from what the host shows."""
    if host.endswith("."):
        return " (the final dot makes it a name)"
    if "%" in host:
        return " (once percent-decoded)"
    if any(label[:2] in ("0x", "0X") for label in labels):
        return " (0x is hexadecimal)"
    if any(len(label) > 1 and label[0] == "0" for label in labels):
        return " (a leading 0 is octal)"
    return f" ({len(labels)} part{'s' if len(labels) > 1 else ''}: the last fills the rest)"
