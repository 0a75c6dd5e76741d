"""Syntax error codes (IRI1xx) the parser can raise, and the exception that carries them."""

from __future__ import annotations

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

SYNTAX_CODES = (
    SPACE, DELIMITER, UNWISE, CONTROL, SPECIAL, PRIVATE_USE, TAG, NONCHARACTER, SURROGATE,
    PERCENT, SCHEME, PORT, IP_LITERAL, COMPONENT_CHAR, NON_ASCII_IN_URI, MISSING_SCHEME,
    FRAGMENT_NOT_ALLOWED,
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
