"""The grammar of RFC 3987 sec. 2.2 as data, and the possessive regexes built from it.

Which characters each component allows (with RFC 3986 for the URI profile and the 3987bis-06
additions for its own), the 3987bis sec. 6.3 groups that are never allowed, and the host forms of
RFC 3986 sec. 3.2.2 (without zone identifiers: RFC 3987 sec. 2.2 never had them, and RFC 9844
removed RFC 6874's). Every repetition in every regex here is
possessive or atomic: none backtracks, so matching is linear in the length of the text.
"""

from __future__ import annotations

import enum
import functools
import re

from .chars import (
    DELIMS,
    DIGIT,
    IPRIVATE_RANGES,
    SCHEME_CHARS,
    SUB_DELIMS,
    TAG_RANGE,
    UCSCHAR_RANGES,
    UNRESERVED,
    UNWISE,
    Group,
    regex_class,
)

KINDS = ("IRI-reference", "IRI", "absolute-IRI", "irelative-ref")
COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


class Profile(enum.StrEnum):
    """Which grammar to apply (RFC 3986, RFC 3987, 3987bis, or a 3987bis sec. 6 preprocessing)."""

    URI = "uri"
    IRI = "iri"
    IRI_BIS = "iri-3987bis"
    LEIRI = "leiri"
    WEB_ADDRESS = "web-address"

    __hash__ = str.__hash__  # equal to its value's hash, so a plain string finds its entry


PREPROCESSED = frozenset({Profile.LEIRI, Profile.WEB_ADDRESS})  # 3987bis sec. 6.1, 6.2

# ---------------------------------------------------------------- characters of each component

# RFC 3987 sec. 2.2: the ASCII characters each component allows besides pct-encoded
#   iuserinfo = *( iunreserved / pct-encoded / sub-delims / ":" )
#   ireg-name = *( iunreserved / pct-encoded / sub-delims )
#   ipchar    = iunreserved / pct-encoded / sub-delims / ":" / "@"   (and "/" between segments)
#   iquery    = *( ipchar / iprivate / "/" / "?" ),  ifragment = *( ipchar / "/" / "?" )
#   scheme    = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ),  port = *DIGIT
ALLOWED_ASCII: dict[str, frozenset[str]] = {
    "scheme": SCHEME_CHARS,
    "userinfo": UNRESERVED | SUB_DELIMS | {":"},
    "host": UNRESERVED | SUB_DELIMS,
    "port": DIGIT,
    "path": UNRESERVED | SUB_DELIMS | {":", "@", "/"},
    "query": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
    "fragment": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
}
NO_PCT = frozenset({"scheme", "port"})  # no pct-encoded there: '%' is one more bad character

# 3987bis sec. 6.3: groups of characters never allowed; a run of one group is one error
GROUP_RANGES: dict[Group, tuple[tuple[int, int], ...]] = {
    Group.SPACE: ((0x20, 0x20),),
    Group.DELIM: tuple((ord(c), ord(c)) for c in sorted(DELIMS)),
    Group.UNWISE: tuple((ord(c), ord(c)) for c in sorted(UNWISE)),
    Group.CONTROL: ((0x00, 0x1F), (0x7F, 0x9F)),
    Group.SPECIAL: ((0xFFF0, 0xFFFD),),
    Group.NONCHAR: ((0xFDD0, 0xFDEF), *(((p << 16) | 0xFFFE, (p << 16) | 0xFFFF) for p in range(17))),
    Group.SURROGATE: ((0xD800, 0xDFFF),),
}
_GROUPED = sorted(r for ranges in GROUP_RANGES.values() for r in ranges)


def allowed_ranges(profile: Profile, component: str) -> list[tuple[int, int]]:
    """What ``component`` allows under ``profile`` besides pct-encoded (RFC 3987 sec. 2.2)."""
    allowed = [(ord(c), ord(c)) for c in ALLOWED_ASCII[component]]
    if profile is not Profile.URI and component not in NO_PCT:
        allowed += UCSCHAR_RANGES  # iunreserved
        if component == "query":
            allowed += IPRIVATE_RANGES  # iquery's iprivate; 3987bis adds the tag characters
            if profile is Profile.IRI_BIS:
                allowed.append(TAG_RANGE)
    return allowed


def gaps(allowed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code point ranges ``allowed`` does not cover (its complement over U+0000-10FFFF)."""
    out, nxt = [], 0
    for lo, hi in sorted(allowed):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = max(nxt, hi + 1)
    if nxt <= 0x10FFFF:
        out.append((nxt, 0x10FFFF))
    return out


def _bmp_size(ranges: list[tuple[int, int]]) -> int:
    return sum(min(hi, 0xFFFF) - lo + 1 for lo, hi in ranges if lo <= 0xFFFF)


def char_class(ranges: list[tuple[int, int]]) -> str:
    """A regex character class for code point ``ranges``: as they are, or as the negation of their
    complement when that names fewer BMP code points. ``re`` compiles a class one step per BMP code
    point its ranges cover: ucschar alone covers 57,000 (milliseconds per class), its complement 8,600."""
    inverse = gaps(ranges)
    if _bmp_size(inverse) < _bmp_size(ranges):
        return f"[^{regex_class(inverse)}]"
    return f"[{regex_class(sorted(ranges))}]"


# ---------------------------------------------------------------- host forms (RFC 3986 sec. 3.2.2)

_HEX = "[0-9A-Fa-f]"
_SUB = re.escape("".join(sorted(SUB_DELIMS)))
# dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
# IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
IPV4ADDRESS = rf"{DEC_OCTET}(?:\.{DEC_OCTET}){{3}}"
# h16 = 1*4HEXDIG (possessive: an h16 is followed by ':' or the end, never by a hex digit)
_H16 = f"{_HEX}{{1,4}}+"
# ls32 = ( h16 ":" h16 ) / IPv4address
_LS32 = rf"(?:{_H16}:{_H16}|{IPV4ADDRESS})"
# [ *n( h16 ":" ) h16 ], written h16 *n( ":" h16 ) so that '::' only ever follows its last h16
_UP_TO = {n: f"(?:{_H16}(?::{_H16}){{0,{n}}}+)?+" for n in range(1, 7)} | {0: f"(?:{_H16})?+"}
# IPv6address, its nine forms in the order of the ABNF; each is at most 39 characters long
IPV6ADDRESS = "|".join((
    rf"(?:{_H16}:){{6}}{_LS32}",                   #                            6( h16 ":" ) ls32
    rf"::(?:{_H16}:){{5}}{_LS32}",                 #                       "::" 5( h16 ":" ) ls32
    rf"{_UP_TO[0]}::(?:{_H16}:){{4}}{_LS32}",      # [               h16 ] "::" 4( h16 ":" ) ls32
    rf"{_UP_TO[1]}::(?:{_H16}:){{3}}{_LS32}",      # [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
    rf"{_UP_TO[2]}::(?:{_H16}:){{2}}{_LS32}",      # [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
    rf"{_UP_TO[3]}::{_H16}:{_LS32}",               # [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
    rf"{_UP_TO[4]}::{_LS32}",                      # [ *4( h16 ":" ) h16 ] "::"              ls32
    rf"{_UP_TO[5]}::{_H16}",                       # [ *5( h16 ":" ) h16 ] "::"              h16
    rf"{_UP_TO[6]}::",                             # [ *6( h16 ":" ) h16 ] "::"
))
# IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
IPVFUTURE = rf"[vV]{_HEX}++\.[A-Za-z0-9\-._~:{_SUB}]++"
# IP-literal = "[" ( IPv6address / IPvFuture ) "]" (RFC 3986 sec. 3.2.2; RFC 3987 sec. 2.2: "This syntax
# does not support IPv6 scoped addressing zone identifiers"; RFC 9844 removed RFC 6874's IPv6addrz,
# which no browser ever accepted): ']' closes it, and no other form of
# host holds '[' or ']'. The reference regex takes "[" *( not "]" ) "]" and ``is_ip_literal`` checks
# what is inside (the nine forms of IPv6address cost more to compile than the rest of the grammar).
IP_LITERAL = r"\[[^\]]*+\]"

@functools.cache
def ipv4_regex() -> re.Pattern[str]:
    return re.compile(IPV4ADDRESS)


@functools.cache
def ipvfuture_regex() -> re.Pattern[str]:
    return re.compile(IPVFUTURE)


@functools.cache
def _ipv6_regex() -> re.Pattern[str]:
    return re.compile(f"(?:{IPV6ADDRESS})")


def is_ipv6(text: str) -> bool:
    """RFC 3986 sec. 3.2.2 IPv6address."""
    # 2 to 8 colons (7 with an IPv4 part) and one '::' at most: most wrong addresses end here
    colons = text.count(":")
    if not 2 <= colons <= 8 or text.count("::") > 1 or (colons > 7 and "." in text):
        return False
    return _ipv6_regex().fullmatch(text) is not None


def is_ip_literal(inner: str) -> bool:
    """What an IP-literal holds between "[" and "]": IPv6address / IPvFuture (RFC 3986 sec. 3.2.2)."""
    if inner[:1] in ("v", "V"):
        return ipvfuture_regex().fullmatch(inner) is not None
    return is_ipv6(inner)


# letters, digits and hyphen: the characters of a DNS host name's labels (RFC 1123 sec. 2.1)
LDH = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def is_ldh_label(label: str) -> bool:
    """A host name's label (RFC 1123 sec. 2.1; RFC 5890 sec. 2.3.1's LDH label): letters, digits and
    hyphens, with no hyphen at either end."""
    return bool(label) and label[0] != "-" and label[-1] != "-" and all(c in LDH for c in label)


# ---------------------------------------------------------------- regexes of whole references


def _run(body: str) -> str:
    """``*( [body] / pct-encoded )`` unrolled as ``[body]*+ (%XX [body]*+)*+``: no backtracking."""
    return rf"[{body}]*+(?:%{_HEX}{{2}}[{body}]*+)*+"


def _ascii_class(profile: Profile, allowed: frozenset[str]) -> str:
    """The ``allowed`` ASCII characters, plus any non-ASCII for the IRI profiles (which the caller
    then checks against ``NOT_UCSCHAR``): a small class, one bitmap lookup per character."""
    if profile is Profile.URI:
        return re.escape("".join(sorted(allowed)))
    return "^" + re.escape("".join(chr(c) for c in range(128) if chr(c) not in allowed))


@functools.cache
def valid_reference_regex(profile: Profile) -> re.Pattern[str]:
    """RFC 3987 sec. 2.2 IRI-reference: a full match is a valid reference (for non-ASCII text, once
    ``NOT_UCSCHAR`` finds nothing, and for a host in brackets, once ``is_ip_literal`` accepts what is
    inside). The path has two groups: ``path`` after an authority, ``rest`` for the other forms
    (``re`` allows a group name only once)."""
    def run(component: str) -> str:
        return _run(_ascii_class(profile, ALLOWED_ASCII[component]))

    path = run("path")
    # isegment-nz-nc: the first segment of a path without a scheme has no ':' (RFC 3986 sec. 4.2)
    first_segment = _run(_ascii_class(profile, UNRESERVED | SUB_DELIMS | {"@"}))
    return re.compile(
        rf"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*+):)?+"
        rf"(?://(?P<authority>(?:(?=[^@/?#]*+@)(?P<userinfo>{run('userinfo')})@)?+"
        rf"(?P<host>{IP_LITERAL}|{run('host')})"
        rf"(?::(?P<port>[0-9]*+))?+)"
        rf"(?P<path>(?:/{path})?+)"
        rf"|(?!//)(?P<rest>(?(scheme){path}|{first_segment}(?:/{path})?+)))"
        rf"(?:\?(?P<query>{run('query')}))?+"
        rf"(?:\#(?P<fragment>{run('fragment')}))?+"
    )


@functools.cache
def not_ucschar_regexes() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Any non-ASCII code point that is not ucschar (sec. 2.2), and the same in the BMP only (a class
    with no astral ranges is one bitmap lookup per character). Private use may still be fine in a
    query, which the component scan decides."""
    not_ucschar = gaps([(0, 0x7F), *UCSCHAR_RANGES])
    bmp = [(lo, min(hi, 0xFFFF)) for lo, hi in not_ucschar if lo <= 0xFFFF]
    return re.compile(f"[{regex_class(not_ucschar)}]"), re.compile(f"[{regex_class(bmp)}]")


def all_ucschar(text: str) -> bool:
    """Whether every non-ASCII character of ``text`` is ``ucschar`` (RFC 3987 sec. 2.2)."""
    not_ucschar, not_ucschar_bmp = not_ucschar_regexes()
    if not_ucschar_bmp.search(text) is not None:
        return False
    return max(text, default="") <= "\uffff" or not_ucschar.search(text) is None

# the userinfo runs up to the authority's last '@'; the lookahead for a later '@' stops at the
# next one, so each character is read at most twice
_USERINFO = r"(?:[^@/?#]*+@(?=[^@/?#]*+@))*+[^@/?#]*+"


@functools.cache
def split_regex(relative: bool) -> re.Pattern[str]:
    """Split any string into components as RFC 3986 appendix B does, with the userinfo up to the
    authority's last '@' and the host up to its first ':' (``ip``: a host that starts with '[',
    with the rest of the authority). ``relative`` (irelative-ref): nothing is a scheme."""
    scheme = r"(?:(?!)(?P<scheme>))?+" if relative else r"(?:(?P<scheme>[^:/?#]*+):)?+"
    return re.compile(
        scheme + rf"(?://(?P<authority>(?:(?P<userinfo>{_USERINFO})@)?+"
        r"(?:(?P<ip>\[[^/?#]*+)|(?P<host>[^:/?#]*+)(?::(?P<port>[^/?#]*+))?+)))?+"
        r"(?P<path>[^?#]*+)(?:\?(?P<query>[^#]*+))?+(?:\#(?P<fragment>.*+))?+", re.S)


# a '%' not followed by two hex digits, with its one hex digit or the bare '%'s after it
_BAD_PERCENT = rf"%(?:{_HEX}(?!{_HEX})|(?!{_HEX})(?:%(?!{_HEX}{{2}}))*+)"


@functools.cache
def clean_regex(profile: Profile, component: str) -> re.Pattern[str]:
    """A full match: ``component`` holds only what it allows, but for non-ASCII characters, which
    the caller checks are ucschar (RFC 3987 sec. 2.2). Small ASCII classes, quick to compile: most
    components of an IRI with an error have none, and need no ``error_regex``."""
    allowed = ALLOWED_ASCII[component]
    if component in NO_PCT:
        return re.compile(f"[{re.escape(''.join(sorted(allowed)))}]*+")
    return re.compile(_run(_ascii_class(profile, allowed)))


@functools.cache
def error_regex(profile: Profile, component: str) -> re.Pattern[str]:
    """Skip what ``component`` allows (RFC 3987 sec. 2.2), then capture its next error, or reach
    the end: in group 1 a malformed '%' or a run of one 3987bis sec. 6.3 group; in group 2 a
    stretch of other characters the component does not allow (the caller splits it per character)."""
    allowed = allowed_ranges(profile, component)
    # the class once: compiling it is most of the regex's cost ('%' is never in it)
    skip = f"{char_class(allowed)}*+" if component in NO_PCT else f"(?:{char_class(allowed)}++|%{_HEX}{{2}})*+"
    groups = f"(?={char_class(_GROUPED)})(?:" + "|".join(
        f"{char_class(list(r))}++" for r in GROUP_RANGES.values()) + ")"
    # "other": neither allowed, nor of a group, nor (where pct-encoded is allowed) a '%'
    percent = [] if component in NO_PCT else [(ord("%"), ord("%"))]
    other = f"({char_class(gaps(allowed + _GROUPED + percent))}++)"
    error = f"((?:{groups}))" if component in NO_PCT else f"({_BAD_PERCENT}|(?:{groups}))"
    return re.compile(rf"{skip}(?:{error}|{other}|\Z)", re.S)


@functools.cache
def ip_literal_error_chars(profile: Profile) -> re.Pattern[str]:
    """Characters that get an error of their own even inside an IP literal: the 3987bis sec. 6.3
    groups, non-ASCII in a URI, and private use or tags (allowed only in a query)."""
    extra = [(0x80, 0x10FFFF)] if profile is Profile.URI else [TAG_RANGE, *IPRIVATE_RANGES]
    return re.compile(char_class(_GROUPED + extra))
