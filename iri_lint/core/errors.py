"""Syntax error codes (IRI1xx), the messages that explain them, and the exception that carries them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .chars import SCHEME_CHARS, Group, char_label, group
from .grammar import Profile

if TYPE_CHECKING:
    from .reference import ErrorRecord

# One code per group of 3987bis sec. 6.3, then the grammar errors of RFC 3987 sec. 2.2.
SPACE = "IRI101"
DELIMITER = "IRI102"
UNWISE = "IRI103"
CONTROL = "IRI104"
SPECIAL = "IRI105"
PRIVATE_USE = "IRI106"
TAG = "IRI107"
NONCHARACTER = "IRI108"
SURROGATE = "IRI109"
PERCENT = "IRI110"
SCHEME = "IRI111"
PORT = "IRI112"
IP_LITERAL = "IRI113"
COMPONENT_CHAR = "IRI114"
NON_ASCII_IN_URI = "IRI115"
MISSING_SCHEME = "IRI116"
FRAGMENT_NOT_ALLOWED = "IRI117"
ZONE_ID = "IRI118"

SYNTAX_CODES = (
    SPACE, DELIMITER, UNWISE, CONTROL, SPECIAL, PRIVATE_USE, TAG, NONCHARACTER, SURROGATE,
    PERCENT, SCHEME, PORT, IP_LITERAL, COMPONENT_CHAR, NON_ASCII_IN_URI, MISSING_SCHEME,
    FRAGMENT_NOT_ALLOWED, ZONE_ID,
)


class IRISyntaxError(ValueError):
    """A string is not an IRI of the requested kind: ``code``, ``position`` (code points), message."""

    def __init__(self, code: str, position: int, message: str, *, end: int | None = None,
                 component: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.position = position
        self.end = position + 1 if end is None else end
        self.message = message
        self.component = component

    def __reduce__(self) -> tuple[type[IRISyntaxError], tuple[str, int, str], dict[str, object]]:
        """Pickle as a plain IRISyntaxError (the default would call ``__init__`` with the message alone)."""
        return IRISyntaxError, (self.code, self.position, self.message), {"end": self.end, "component": self.component}

    def __repr__(self) -> str:
        return f"IRISyntaxError({self.code!r}, {self.position}, {self.message!r})"

    def __str__(self) -> str:
        return f"{self.code} at {self.position}: {self.message}"


# ---------------------------------------------------------------- messages

_GROUP_ERRORS: dict[Group, tuple[str, str]] = {
    Group.SPACE: (SPACE, "spaces are not allowed in IRIs (3987bis sec. 6.3); percent-encode it as %20"),
    Group.DELIM: (DELIMITER, "this delimiter is not allowed in IRIs (3987bis sec. 6.3); percent-encode it"),
    Group.UNWISE: (UNWISE, "this character is not allowed in IRIs (3987bis sec. 6.3); percent-encode it"),
    Group.CONTROL: (CONTROL, "control characters are not allowed in IRIs (3987bis sec. 6.3); remove it"),
    Group.SPECIAL: (SPECIAL, "specials U+FFF0-FFFD are not allowed in IRIs (3987bis sec. 6.3)"),
    Group.NONCHAR: (NONCHARACTER, "non-characters are not allowed in IRIs (3987bis sec. 6.3)"),
    Group.SURROGATE: (SURROGATE, "a lone surrogate is not a character (3987bis sec. 6.3)"),
}

PERCENT_MESSAGE = ("'%' must be followed by two hex digits (pct-encoded, RFC 3986 sec. 2.1); "
                   "write a literal '%' as %25")


def group_problem(c: str, component: str, profile: Profile) -> tuple[str, str] | None:
    """Code and message for a character of a 3987bis sec. 6.3 group (or non-ASCII in a URI), else None."""
    g = group(c)
    if g in _GROUP_ERRORS:
        code, why = _GROUP_ERRORS[g]
        return code, f"{char_label(c)} in {component}: {why}"
    if c < "\x80":
        return None
    label = char_label(c)
    if profile is Profile.URI:
        return NON_ASCII_IN_URI, (f"{label} in {component}: URIs are ASCII only (RFC 3986 sec. 2); "
                                  "percent-encode it as UTF-8")
    if g is Group.TAG:
        where = "outside the query (3987bis sec. 2.2)" if profile is Profile.IRI_BIS else "(RFC 3987 sec. 2.2)"
        return TAG, f"{label} in {component}: tag characters are not allowed {where}"
    if g is Group.IPRIVATE:
        return PRIVATE_USE, (f"{label} in {component}: private-use characters are allowed only in "
                             "the query (RFC 3987 sec. 2.2); percent-encode it")
    return None


def char_problem(text: str, i: int, component: str, profile: Profile) -> tuple[str, str]:
    """Code and message for one character ``component`` does not allow (RFC 3987 sec. 2.2, 3987bis 6.3)."""
    problem = group_problem(text[i], component, profile)
    if problem is not None:
        return problem
    label = char_label(text[i])
    # an otherwise legal character in the wrong component: '[' in a path, '@' in a host, 'é' in a port
    if component == "scheme":
        if i == 0 and text[i] in SCHEME_CHARS:
            return SCHEME, f"a scheme must start with a letter, not {label} (RFC 3986 sec. 3.1)"
        return SCHEME, (f"{label} is not allowed in a scheme: ALPHA *( ALPHA / DIGIT / "
                        '"+" / "-" / "." ) (RFC 3986 sec. 3.1)')
    if component == "port":
        return PORT, f"{label} is not allowed in a port, which is digits only (RFC 3986 sec. 3.2.3)"
    return COMPONENT_CHAR, f"{label} is not allowed in the {component} (RFC 3987 sec. 2.2); percent-encode it"


def error_message(text: str, profile: Profile, rec: ErrorRecord) -> str:
    """The message of one record: it names the character and, for a run, how many there are."""
    message = rec.message
    if message is None:
        message = PERCENT_MESSAGE if rec.code == PERCENT else char_problem(text, rec.start, rec.component or "",
                                                                          profile)[1]
    n = rec.end - rec.start
    if rec.run and n > 1:
        same = text[rec.start : rec.end] == text[rec.start] * n
        message += f"; {n} in a row" if same else f"; {n} such characters in a row"
    return message
