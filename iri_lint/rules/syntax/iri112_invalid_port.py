"""IRI112 invalid-port: Port is not all digits."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ...core.reference import Span
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import Subject, report

RULE = Rule(
    code="IRI112",
    name="invalid-port",
    family=Family.SYNTAX,
    summary="Port is not all digits",
    section="RFC 3986 sec. 3.2.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("The port, after the `:` that ends the host (a registered name's first `:`, the one after an IP "
          "literal's `]`), holds something other than ASCII digits (`:84a3`, "
          "non-ASCII digits; full-width ones `:８４４３` are IRI503's where it runs, whose fix writes them as ASCII). "
          "An empty port is IRI309's, a comma-separated host list IRI114's; a scheme's "
          "documented special authority (`sqlite://:memory:`, an in-memory database) has no port, and a port "
          "that is `*` alone is a pattern's wildcard (`http://localhost:*` in an origin list, a CSP "
          "host-source), no port. A password holding `/`, `?` or `#` ends the authority there, and the rest of "
          "the user's `:` reads as a port (`mysql://app:pa?ss@db/app`): reported at that `/`, `?` or `#`, to "
          "percent-encode (a cut password whose first part is digits or empty, `app:2024/spring@db`, makes a "
          "valid port and is not reported)."),
    why="The port after the host is `*DIGIT`; anything else means a misplaced `:` or a typo.",
    where=("the port's first character that is no ASCII digit (the `a` of `:84a3`); of a cut password, the `/`, "
           "`?` or `#` that cut it"),
    fix_text=("Write the port as digits, or percent-encode a ':' that belongs to the host, or a '/', '?' or '#' "
              "that belongs to a password."),
    valid=(Example("https://example.com:8443/"),),
    invalid=(Example("https://example.com:84a3/"), Example("mysql://app:pa?ss@db/app")),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return f"{err.label} is not allowed in a port, which is digits only (RFC 3986 sec. 3.2.3)"


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of characters other than digits in the port; one finding for the port of an IPv6 literal whose
    brackets were percent-encoded (its colons split it: the cause is the '%5B')."""
    ref = facts.ref
    port, text = ref.port, ref.text
    if port is not None and text[port.start : port.end] == "*":
        return iter(())  # (a wildcard: an origin pattern, CSP's ``http://localhost:*``, not a mistyped port)
    span = ref.host
    host = "" if span is None else text[span.start : span.end]
    if port is not None and span is not None and host[:3].upper() == "%5B" and \
            not text[port.start : port.end].isdigit():
        return iter((Raw(port.start, port.end, f"the IP literal's '[' is percent-encoded ({host[:3]}): the host is "
                         f"{facts.shown[span.start : span.end]!r} and what follows its first ':' a port "
                         "that is not digits; write '[' and ']' as they are (RFC 3986 sec. 3.2.2, 3.2.3)"),))
    # (an empty port is a valid one, RFC 3986 sec. 3.2.3: no password was cut there, 'http://:/@a')
    cut = _password_cut(text, port) if port is not None and port.end > port.start and \
        not text[port.start : port.end].isdigit() else None
    if cut is not None:  # (spanning what the cut misplaces, up to the next '/': a '[' there is no fault of its own)
        nxt = text.find("/", cut + 1)
        end = len(text) if nxt < 0 else nxt
        return iter((Raw(cut, end, f"the authority ends at this {text[cut]!r}, but an '@' follows: a password "
                         f"holding {text[cut]!r} cut it, and what stands after the user's ':' reads as a port; "
                         f"percent-encode it as %{ord(text[cut]):02X} (RFC 3986 sec. 3.2.1, 3.2.3)"),))
    return report(facts, Kind.PORT, message)


def _password_cut(text: str, port: Span) -> int | None:
    """Where a '/', '?' or '#' a password holds ended the authority (``mysql://app:pa?ss@db/app``): right after
    the port, with an '@' in what follows up to the next '/'."""
    cut = port.end
    if text[cut : cut + 1] not in ("/", "?", "#"):
        return None
    nxt = text.find("/", cut + 1)
    rest = text[cut + 1 : len(text) if nxt < 0 else nxt]
    before, at, host = rest.rpartition("@")
    # (not a query's value that holds an '@', "?x=@y": no '=', '&' or '?' around it, a host after it)
    return cut if at and host and not any(c in before or c in host for c in "=&?") else None
