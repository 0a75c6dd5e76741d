"""Syntax error kinds (what is wrong, RFC 3987 sec. 2.2 and 3987bis sec. 6.3) and the exception
that carries one, with a short message built from the kind as a library's exception would.

The kinds are facts about the text; the linter's rules (``iri_lint.rules``) decide which rule
reports each kind and write their own messages.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from .chars import SCHEME_CHARS, Group, char_label, group
from .grammar import Profile

if TYPE_CHECKING:
    from .reference import ErrorRecord


class Kind(enum.StrEnum):
    """What a syntax error is: one per group of 3987bis sec. 6.3, then the grammar errors of RFC
    3987 sec. 2.2."""

    SPACE = "space"
    DELIMITER = "delimiter"
    UNWISE = "unwise"
    CONTROL = "control"
    SPECIAL = "special"
    PRIVATE_USE = "private-use"
    TAG = "tag"
    NONCHARACTER = "noncharacter"
    SURROGATE = "surrogate"
    PERCENT = "percent"
    SCHEME = "scheme"
    PORT = "port"
    IP_LITERAL = "ip-literal"
    COMPONENT_CHAR = "component-char"
    NON_ASCII_IN_URI = "non-ascii-in-uri"
    MISSING_SCHEME = "missing-scheme"
    FRAGMENT_NOT_ALLOWED = "fragment-not-allowed"
    ZONE_ID = "zone-id"  # an IPv6 zone identifier, in no URI or IRI syntax since RFC 9844

    # hashed as the string it equals, at C speed (Enum's own hash is a Python call): hostile text
    # makes tens of thousands of errors, and the rules group them by kind
    __hash__ = str.__hash__


class Detail(enum.StrEnum):
    """Which structural error a record is, where its kind and character do not say it."""

    EMPTY_SCHEME = "empty-scheme"  # ':' first (RFC 3986 sec. 3.1)
    FIRST_SEGMENT_COLON = "first-segment-colon"  # ':' in a relative reference's first segment (sec. 4.2)
    NEEDS_SCHEME = "needs-scheme"  # an IRI or absolute-IRI without a scheme (RFC 3987 sec. 2.2)
    HAS_FRAGMENT = "has-fragment"  # an absolute-IRI with a fragment (RFC 3987 sec. 2.2)
    UNBRACKETED_IPV6 = "unbracketed-ipv6"  # an IPv6 address as host without '[...]' (RFC 3986 3.2.2)
    HOST_LIST = "host-list"  # 'h1:5432,h2:5432': a multi-host connection string
    UNCLOSED_IP_LITERAL = "unclosed-ip-literal"  # '[' never closed
    BAD_IPVFUTURE = "bad-ipvfuture"  # '[v...]' that is not an IPvFuture
    BAD_IPV6 = "bad-ipv6"  # '[...]' that is not an IPv6 address
    AFTER_IP_LITERAL = "after-ip-literal"  # something but ':port' after ']' (RFC 3986 sec. 3.2)


# the kinds by their old names: the scanner and its tests write E.SPACE
SPACE = Kind.SPACE
DELIMITER = Kind.DELIMITER
UNWISE = Kind.UNWISE
CONTROL = Kind.CONTROL
SPECIAL = Kind.SPECIAL
PRIVATE_USE = Kind.PRIVATE_USE
TAG = Kind.TAG
NONCHARACTER = Kind.NONCHARACTER
SURROGATE = Kind.SURROGATE
PERCENT = Kind.PERCENT
SCHEME = Kind.SCHEME
PORT = Kind.PORT
IP_LITERAL = Kind.IP_LITERAL
COMPONENT_CHAR = Kind.COMPONENT_CHAR
NON_ASCII_IN_URI = Kind.NON_ASCII_IN_URI
MISSING_SCHEME = Kind.MISSING_SCHEME
FRAGMENT_NOT_ALLOWED = Kind.FRAGMENT_NOT_ALLOWED
ZONE_ID = Kind.ZONE_ID


class IRISyntaxError(ValueError):
    """A string is not an IRI of the requested kind: the error's ``kind``, ``position`` (code
    points), ``end``, ``component`` and a short message. ``code`` is ``kind`` by its older name."""

    def __init__(self, kind: Kind, position: int, message: str, *, end: int | None = None,
                 component: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.position = position
        self.end = position + 1 if end is None else end
        self.message = message
        self.component = component

    @property
    def code(self) -> Kind:
        return self.kind

    def __reduce__(self) -> tuple[type[IRISyntaxError], tuple[Kind, int, str], dict[str, object]]:
        """Pickle as a plain IRISyntaxError (the default would call ``__init__`` with the message alone)."""
        return IRISyntaxError, (self.kind, self.position, self.message), {"end": self.end, "component": self.component}

    def __repr__(self) -> str:
        return f"IRISyntaxError({str(self.kind)!r}, {self.position}, {self.message!r})"

    def __str__(self) -> str:
        return f"{self.kind} at {self.position}: {self.message}"


KINDS = tuple(Kind)

# ---------------------------------------------------------------- kinds of characters

_GROUP_KINDS: dict[Group, Kind] = {
    Group.SPACE: Kind.SPACE, Group.DELIM: Kind.DELIMITER, Group.UNWISE: Kind.UNWISE,
    Group.CONTROL: Kind.CONTROL, Group.SPECIAL: Kind.SPECIAL, Group.NONCHAR: Kind.NONCHARACTER,
    Group.SURROGATE: Kind.SURROGATE,
}


def group_kind(c: str, profile: Profile) -> Kind | None:
    """The kind of a character of a 3987bis sec. 6.3 group (or non-ASCII in a URI), else None."""
    g = group(c)
    kind = _GROUP_KINDS.get(g)
    if kind is not None or c < "\x80":
        return kind
    if profile is Profile.URI:
        return Kind.NON_ASCII_IN_URI
    if g is Group.TAG:
        return Kind.TAG
    if g is Group.IPRIVATE:
        return Kind.PRIVATE_USE
    return None


def char_kind(c: str, component: str, profile: Profile) -> Kind:
    """The kind of error of a character ``component`` does not allow (RFC 3987 sec. 2.2, 3987bis 6.3)."""
    kind = group_kind(c, profile)
    if kind is not None:
        return kind
    # an otherwise legal character in the wrong component: '[' in a path, '@' in a host, 'é' in a port
    return {"scheme": Kind.SCHEME, "port": Kind.PORT}.get(component, Kind.COMPONENT_CHAR)


# ---------------------------------------------------------------- the library's messages

_WHY: dict[Kind, str] = {
    Kind.SPACE: "not allowed in an IRI (3987bis sec. 6.3)",
    Kind.DELIMITER: "a delimiter of IRIs in text, not allowed in an IRI (3987bis sec. 6.3)",
    Kind.UNWISE: "not allowed in an IRI (3987bis sec. 6.3)",
    Kind.CONTROL: "a control character, not allowed in an IRI (3987bis sec. 6.3)",
    Kind.SPECIAL: "a special, not allowed in an IRI (3987bis sec. 6.3)",
    Kind.NONCHARACTER: "a non-character, not allowed in an IRI (3987bis sec. 6.3)",
    Kind.SURROGATE: "a lone surrogate, not a character (3987bis sec. 6.3)",
    Kind.NON_ASCII_IN_URI: "a URI is ASCII only (RFC 3986 sec. 2)",
    Kind.PRIVATE_USE: "private use is allowed only in the query (RFC 3987 sec. 2.2)",
    Kind.SCHEME: 'a scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986 sec. 3.1)',
    Kind.PORT: "a port is digits only (RFC 3986 sec. 3.2.3)",
    Kind.COMPONENT_CHAR: "not allowed in this component (RFC 3987 sec. 2.2)",
}

ZONE_ID_MESSAGE = (
    "the IPv6 zone identifier {zone!r} is not part of URI or IRI syntax: RFC 3987 sec. 2.2 never allowed one, "
    "and RFC 9844 removed RFC 6874's '%25zone' (no browser accepted it); a zone is local to one host, so pass it "
    "out of band (the socket address's scope id) and write [{address}]")

_DETAILS: dict[Detail, str] = {
    Detail.EMPTY_SCHEME: "empty scheme before ':' (RFC 3986 sec. 3.1)",
    Detail.FIRST_SEGMENT_COLON: "':' in the first segment of a relative reference (RFC 3986 sec. 4.2)",
    Detail.NEEDS_SCHEME: "no scheme where one is required (RFC 3987 sec. 2.2)",
    Detail.HAS_FRAGMENT: "an absolute-IRI has no fragment (RFC 3987 sec. 2.2)",
    Detail.UNBRACKETED_IPV6: "the IPv6 address {chars} as host must be in brackets, [{chars}] (RFC 3986 sec. 3.2.2)",
    Detail.HOST_LIST: "{chars!r} is a comma-separated list of hosts, not one host and port (RFC 3986 sec. 3.2)",
    Detail.UNCLOSED_IP_LITERAL: "an IP literal never closed with ']' (RFC 3986 sec. 3.2.2)",
    Detail.BAD_IPVFUTURE: "{chars} is not a valid IPvFuture literal (RFC 3986 sec. 3.2.2)",
    Detail.BAD_IPV6: "{chars} is not a valid IPv6 address (RFC 3986 sec. 3.2.2)",
    Detail.AFTER_IP_LITERAL: "only ':' and a port may follow an IP literal (RFC 3986 sec. 3.2)",
}

PERCENT_MESSAGE = "'%' not followed by two hex digits (RFC 3986 sec. 2.1)"


def char_problem(text: str, i: int, component: str, profile: Profile) -> tuple[Kind, str]:
    """Kind and message for character ``text[i]``, which ``component`` does not allow."""
    c = text[i]
    kind = char_kind(c, component, profile)
    label = char_label(c)
    if kind is Kind.TAG:
        where = "outside the query (3987bis sec. 2.2)" if profile is Profile.IRI_BIS else "(RFC 3987 sec. 2.2)"
        return kind, f"{label} in {component}: tag characters are not allowed {where}"
    if kind is Kind.SCHEME and i == 0 and c in SCHEME_CHARS:
        return kind, f"{label} in scheme: a scheme must start with a letter (RFC 3986 sec. 3.1)"
    return kind, f"{label} in {component}: {_WHY[kind]}"


def error_message(text: str, profile: Profile, rec: ErrorRecord) -> str:
    """The library's message for one record: it names the character and, for a run, how many."""
    if rec.detail is not None:
        return _DETAILS[rec.detail].format(chars=text[rec.start : rec.end])
    if rec.kind == Kind.ZONE_ID:
        address = text[text.rfind("[", 0, rec.start) + 1 : rec.start]
        return ZONE_ID_MESSAGE.format(zone=text[rec.start : rec.end], address=address)
    message = PERCENT_MESSAGE if rec.kind == Kind.PERCENT else char_problem(
        text, rec.start, rec.component or "", profile)[1]
    n = rec.end - rec.start
    if rec.run and n > 1:
        message += f"; {n} in a row"
    return message
