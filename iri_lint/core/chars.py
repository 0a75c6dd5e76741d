"""Character classes of RFC 3987 sec. 2.2 and the groups of 3987bis sec. 6.3, with O(1) lookups.

Ranges are taken from the ABNF of RFC 3987 sec. 2.2 (``ucschar``, ``iprivate``) and the lists of
3987bis-06 sec. 6.3. They are grammar, not Unicode data, so they live here as ranges.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable

import unicodedataplus  # one Unicode version for names, as for the bidi and script data

from .lazy import lazy_regex

# RFC 3987 sec. 2.2 ucschar
UCSCHAR_RANGES: tuple[tuple[int, int], ...] = (
    (0xA0, 0xD7FF),
    (0xF900, 0xFDCF),
    (0xFDF0, 0xFFEF),
    *((p << 16, (p << 16) | 0xFFFD) for p in range(1, 14)),  # U+10000-1FFFD ... U+D0000-DFFFD
    (0xE1000, 0xEFFFD),
)
# RFC 3987 sec. 2.2 iprivate
IPRIVATE_RANGES: tuple[tuple[int, int], ...] = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
# 3987bis sec. 2.2 adds the tag characters to iprivate (query only)
TAG_RANGE: tuple[int, int] = (0xE0000, 0xE0FFF)

ALPHA = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
DIGIT = frozenset("0123456789")
HEXDIG = frozenset("0123456789ABCDEFabcdef")
UNRESERVED = ALPHA | DIGIT | frozenset("-._~")
GEN_DELIMS = frozenset(":/?#[]@")
SUB_DELIMS = frozenset("!$&'()*+,;=")
SCHEME_CHARS = ALPHA | DIGIT | frozenset("+-.")

# 3987bis sec. 6.3 groups of ASCII not allowed in IRIs
DELIMS = frozenset('<>"')
UNWISE = frozenset("\\^`{|}")
NOT_ALLOWED_ASCII = frozenset(" ") | DELIMS | UNWISE

# RFC 3987 sec. 4.1: bidi formatting characters (LRM, RLM, LRE, RLE, PDF, LRO, RLO)
BIDI_FORMATTING = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e")
# Same attack, added to Unicode after RFC 3987: isolates LRI, RLI, FSI, PDI and ALM
BIDI_ISOLATES = frozenset("\u2066\u2067\u2068\u2069\u061c")
BIDI_CONTROLS = BIDI_FORMATTING | BIDI_ISOLATES


class Group(enum.Enum):
    """The group a code point belongs to, for IRI syntax purposes."""

    UNRESERVED = "unreserved"  # ASCII unreserved
    GEN_DELIM = "gen-delim"
    SUB_DELIM = "sub-delim"
    PERCENT = "percent"
    UCSCHAR = "ucschar"
    IPRIVATE = "iprivate"
    SPACE = "space"  # 3987bis 6.3
    DELIM = "delimiter"  # < > "
    UNWISE = "unwise"  # \ ^ ` { | }
    CONTROL = "control"  # C0, DEL, C1
    SPECIAL = "special"  # U+FFF0-FFFD
    TAG = "tag"  # U+E0000-E0FFF
    NONCHAR = "noncharacter"
    SURROGATE = "surrogate"

    __hash__ = object.__hash__  # members compare by identity; skip Enum's Python-level hash


def _in_ranges(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_noncharacter(cp: int) -> bool:
    """Unicode non-characters: U+FDD0-FDEF and the last two code points of every plane."""
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


_ASCII_GROUP: dict[str, Group] = {}
for _c in map(chr, range(128)):
    if _c in UNRESERVED:
        _ASCII_GROUP[_c] = Group.UNRESERVED
    elif _c in GEN_DELIMS:
        _ASCII_GROUP[_c] = Group.GEN_DELIM
    elif _c in SUB_DELIMS:
        _ASCII_GROUP[_c] = Group.SUB_DELIM
    elif _c == "%":
        _ASCII_GROUP[_c] = Group.PERCENT
    elif _c == " ":
        _ASCII_GROUP[_c] = Group.SPACE
    elif _c in DELIMS:
        _ASCII_GROUP[_c] = Group.DELIM
    elif _c in UNWISE:
        _ASCII_GROUP[_c] = Group.UNWISE
    else:
        _ASCII_GROUP[_c] = Group.CONTROL


def group(c: str) -> Group:
    """The 3987bis sec. 6.3 group (or grammar class) of one code point."""
    g = _ASCII_GROUP.get(c)
    if g is not None:
        return g
    cp = ord(c)
    if cp <= 0x9F:
        return Group.CONTROL
    if 0xD800 <= cp <= 0xDFFF:
        return Group.SURROGATE
    if is_noncharacter(cp):
        return Group.NONCHAR
    if 0xFFF0 <= cp <= 0xFFFD:
        return Group.SPECIAL
    if TAG_RANGE[0] <= cp <= TAG_RANGE[1]:
        return Group.TAG
    if _in_ranges(cp, IPRIVATE_RANGES):
        return Group.IPRIVATE
    return Group.UCSCHAR


def is_digits(s: str) -> bool:
    """Whether ``s`` is one or more ASCII ``DIGIT`` (RFC 5234 B.1), never other Unicode digits."""
    return s.isascii() and s.isdigit()


def pct_encode(s: str, *, errors: str = "strict") -> str:
    """Each character as its UTF-8 octets, ``%HH`` with uppercase hex (RFC 3987 sec. 3.1 step 2)."""
    octets = s.encode("utf-8", errors)
    return "%" + octets.hex("%").upper() if octets else ""


def is_pct_triplet(text: str, i: int, end: int) -> bool:
    """Whether ``text[i:i+3]`` is a pct-encoded triplet within ``end`` (RFC 3986 sec. 2.1)."""
    return i + 2 < end and text[i] == "%" and text[i + 1] in HEXDIG and text[i + 2] in HEXDIG


def regex_class(ranges: Iterable[tuple[int, int]]) -> str:
    """A regex character-class body (without brackets) for code point ranges."""
    return "".join(f"\\U{lo:08X}" if lo == hi else f"\\U{lo:08X}-\\U{hi:08X}" for lo, hi in ranges)


@functools.lru_cache(maxsize=4096)
def char_label(c: str) -> str:
    """'U+0041 LATIN CAPITAL LETTER A'; unnamed code points get Unicode's code point label."""
    cp = ord(c)
    name = unicodedataplus.name(c, "")
    if not name:
        g = group(c)
        kind = {
            Group.CONTROL: "control",
            Group.SURROGATE: "surrogate",
            Group.NONCHAR: "noncharacter",
            Group.IPRIVATE: "private-use",
        }.get(g, "reserved")
        if kind == "reserved" and unicodedataplus.category(c) == "Co":
            kind = "private-use"
        name = f"<{kind}-{cp:04X}>"
    return f"U+{cp:04X} {name}"


# a line break, then a header field with its value (RFC 9110 sec. 5.1-5.5): what a header injection writes
_header_line = lazy_regex(r"(?:\r\n?|\n)[!#$%&'*+.^_`|~0-9A-Za-z\-]++:[ \t]*+[^\s]")


def starts_header_line(text: str, at: int) -> bool:
    """Whether the CR or LF at ``at`` starts a header line (``\r\nSet-Cookie: x``): header injection."""
    return _header_line().match(text, at) is not None
