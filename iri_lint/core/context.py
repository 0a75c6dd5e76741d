"""How a program uses an IRI (RFC 3987 sec. 5.1): the context that decides which comparison is safe."""

from __future__ import annotations

import enum
from typing import NamedTuple


class UseContext(enum.StrEnum):
    """How the program uses the literal (RFC 3987 sec. 5.1): decides fix safety.

    ``dereferenced``: fetched or linked to, so equivalent forms name the same resource;
    ``identifier``: compared as a string (namespaces, ``==``), so any change is a different IRI.
    """

    DEREFERENCED = "dereferenced"
    IDENTIFIER = "identifier"
    UNKNOWN = "unknown"


class UriOnly(enum.IntEnum):
    """What of an IRI an API that sends only ASCII writes in its request line (RFC 3987 sec. 3.1, IRI404);
    ``True`` reads as ``WHOLE``."""

    NO = 0
    WHOLE = 1  # http.client: the request-target as given, an absolute URL's host and a fragment too
    BEFORE_FRAGMENT = 2  # urllib.request: Request.full_url cuts the fragment off first; the host is its Host header
    AFTER_HOST = 3  # xmlrpc.client: the host goes to the connection (IDNA), the rest to the request line as given


class Assembly(NamedTuple):
    """How a URL value was put together from pieces (issue #27): what only a join can get wrong.

    Offsets are into the text the rules check (holes and template placeholders spelled as one
    character each)."""

    joins: tuple[int, ...] = ()  # where a piece from elsewhere (another literal, a hole, a separator) begins
    # (offset, the query delimiters among "&=#+" its text may hold) of each unknown part of the value: none
    # when ``quote()`` percent-encoded it (but those it kept safe) or it is a number (``%d``, ``int(n)``)
    holes: tuple[tuple[int, str], ...] = ()
    templates: tuple[tuple[int, str], ...] = ()  # (offset, the placeholder as written) still in the value
    at_api: bool = False  # the value reaches a URL API (not only a URL-named target)
    # urljoin(base, ref) dropping base path: (offset of ref, "relative" or "absolute" path ref, what is dropped);
    # the kind prefixed "base_url " where a client resolved the request against its base URL (aiohttp), "join "
    # where a URL object's join() did (yarl's, httpx's)
    urljoin: tuple[int, str, str] | None = None
    # (start, end, which literal) of the text each literal spells: a format template's or an f-string's text
    # around its holes is one literal's, however many pieces it makes; each string of an implicit concatenation
    # is one of its own (``("https://h.example" "docs")``: Python's grammar joins them, as ``+`` would)
    spelled: tuple[tuple[int, int, tuple[int, int]], ...] = ()
    # the value is an httpx client's base_url: each request is appended to its raw path, its query too
    appends: bool = False
    # the value is an aiohttp client's base_url, whose path must end with '/' (the session refuses it otherwise)
    slash_base: bool = False

    @property
    def unknown(self) -> set[int]:
        """The offsets of what the text does not know: holes and placeholders (one character each)."""
        return {h for h, _ in self.holes} | {t for t, _ in self.templates}

    def implicitly_joined(self, j: int) -> bool:
        """Whether the characters before and at offset ``j`` are spelled by two strings of one implicit
        concatenation (``["https://a.example" "https://b.example"]``)."""
        before = {k for s, e, k in self.spelled if s <= j - 1 < e}
        literals = {literal for literal, _ in before}
        return any(s <= j < e and k not in before and k[0] in literals for s, e, k in self.spelled)

    def same_literal(self, a: int, b: int) -> bool:
        """Whether one literal spells the characters at offsets ``a`` and ``b``."""
        which = {k for s, e, k in self.spelled if s <= a < e}
        return any(s <= b < e and k in which for s, e, k in self.spelled)
