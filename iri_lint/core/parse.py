"""Linear-time scanner for RFC 3987 sec. 2.2 IRI references, with exact spans and every error.

Valid input takes a fast path: one split and one possessive regex per component (no backtracking
on input). Only a component that fails its regex is scanned character by character to name each
problem. Bidi formatting characters are ``ucschar`` and so pass the ABNF; sec. 4.1 forbids them,
and the bidi rules (not the parser) report them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import errors as E
from .chars import (
    ALPHA,
    DIGIT,
    HEXDIG,
    IPRIVATE_RANGES,
    SCHEME_CHARS,
    SUB_DELIMS,
    TAG_RANGE,
    UCSCHAR_RANGES,
    UNRESERVED,
    Group,
    char_label,
    group,
    is_pct_triplet,
)
from .errors import IRISyntaxError

KINDS = ("IRI-reference", "IRI", "absolute-IRI", "irelative-ref")


class Profile(enum.StrEnum):
    """Which grammar to apply (RFC 3986, RFC 3987, 3987bis, or a 3987bis sec. 6 preprocessing)."""

    URI = "uri"
    IRI = "iri"
    IRI_BIS = "iri-3987bis"
    LEIRI = "leiri"
    WEB_ADDRESS = "web-address"


class HostKind(enum.StrEnum):
    """RFC 3986 sec. 3.2.2 host forms."""

    REG_NAME = "reg-name"
    IPV4 = "ipv4"
    IPV6 = "ipv6"
    IPVFUTURE = "ipvfuture"


@dataclass(frozen=True, slots=True)
class Span:
    """Half-open code point range [start, end) in the IRI text."""

    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start

    def __bool__(self) -> bool:
        return True  # an empty component is present: test ``is not None``, never truthiness


@dataclass(frozen=True, slots=True)
class Preprocessing:
    """One change a 3987bis sec. 6 preprocessing made: at ``position`` of the original text."""

    position: int
    char: str
    action: str  # "percent-encode" | "strip" | "convert"
    replacement: str


_SPAN_NAMES = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
_MATCH_GROUPS = (("scheme", "s"), ("authority", "a"), ("userinfo", "u"), ("host", "h"), ("port", "o"),
                 ("query", "q"), ("fragment", "f"))


class IRIReference:
    """A scanned IRI reference (RFC 3987 sec. 2.2): components as spans over ``text``, and errors.

    For the ``leiri`` and ``web-address`` profiles ``text`` is the preprocessed string,
    ``original`` the input, and errors point into ``original``. Treat instances as immutable;
    spans of a valid input are computed on first access.
    """

    COMPONENTS = _SPAN_NAMES
    # class-level defaults keep the fast path's construction to four attribute stores
    errors: tuple[IRISyntaxError, ...] = ()
    original: str | None = None
    preprocessing: tuple[Preprocessing, ...] = ()
    _m: re.Match[str] | None = None
    _raw: tuple[tuple[int, int] | None, ...] | None = None
    _spans: dict[str, Span | None] | None = None
    _host_kind: HostKind | None = None
    _segments: tuple[Span, ...] | None = None

    def __init__(self, text: str, kind: str = "IRI-reference", profile: Profile = Profile.IRI,
                 scheme: Span | None = None, authority: Span | None = None,
                 userinfo: Span | None = None, host: Span | None = None,
                 host_kind: HostKind | None = None, port: Span | None = None,
                 path: Span = Span(0, 0), query: Span | None = None,
                 fragment: Span | None = None, errors: tuple[IRISyntaxError, ...] = (),
                 original: str | None = None,
                 preprocessing: tuple[Preprocessing, ...] = ()) -> None:
        self.text = text
        self.kind = kind
        self.profile = profile
        self.errors = errors
        self.original = original
        self.preprocessing = preprocessing
        self._spans = {
            "scheme": scheme, "authority": authority, "userinfo": userinfo, "host": host,
            "port": port, "path": path, "query": query, "fragment": fragment}
        self._host_kind = host_kind

    def _all_spans(self) -> dict[str, Span | None]:
        spans = self._spans
        if spans is None and self._raw is not None:
            spans = self._spans = {name: None if r is None else Span(r[0], r[1])
                                   for name, r in zip(_SPAN_NAMES, self._raw, strict=True)}
        if spans is None:
            m = self._m
            assert m is not None
            spans = {}
            for name, g in _MATCH_GROUPS:
                s, e = m.span(g)
                spans[name] = None if s < 0 else Span(s, e)
            s, e = m.span("pa")
            if s < 0:
                s, e = m.span("pb")
            spans["path"] = Span(s, e)
            self._spans = spans
        return spans

    @property
    def scheme(self) -> Span | None:
        return self._all_spans()["scheme"]

    @property
    def authority(self) -> Span | None:
        return self._all_spans()["authority"]

    @property
    def userinfo(self) -> Span | None:
        return self._all_spans()["userinfo"]

    @property
    def host(self) -> Span | None:
        return self._all_spans()["host"]

    @property
    def port(self) -> Span | None:
        return self._all_spans()["port"]

    @property
    def path(self) -> Span:
        path = self._all_spans()["path"]
        assert path is not None
        return path

    @property
    def query(self) -> Span | None:
        return self._all_spans()["query"]

    @property
    def fragment(self) -> Span | None:
        return self._all_spans()["fragment"]

    @property
    def host_kind(self) -> HostKind | None:
        """RFC 3986 sec. 3.2.2 form of the host: reg-name, IPv4, IPv6 or IPvFuture."""
        if self._host_kind is None and self._m is not None:
            host = self.host
            if host is not None:
                ipv4 = _IPV4.fullmatch(self.text, host.start, host.end)
                self._host_kind = HostKind.IPV4 if ipv4 else HostKind.REG_NAME
        return self._host_kind

    @property
    def is_valid(self) -> bool:
        return not self.errors

    @property
    def is_absolute(self) -> bool:
        return self.scheme is not None

    def get(self, name: str) -> str | None:
        """The text of component ``name`` (see COMPONENTS), or None when absent."""
        span = self._all_spans()[name]
        return None if span is None else self.text[span.start : span.end]

    @property
    def segments(self) -> tuple[Span, ...]:
        """Path segments (RFC 3986 sec. 3.3), without the "/" separators."""
        if self._segments is None:
            self._segments = _segments(self.text, self.path)
        return self._segments

    def components(self) -> dict[str, str | None]:
        """Every component's text, by name."""
        return {name: self.get(name) for name in self.COMPONENTS}

    def __repr__(self) -> str:
        return (f"IRIReference({self.text!r}, kind={self.kind!r}, profile={self.profile.value!r}, "
                f"errors={len(self.errors)})")


class _MatchedReference(IRIReference):
    """Fast path: a valid reference whose spans are read from the fast regex on first access."""

    def __init__(self, text: str, kind: str, profile: Profile, m: re.Match[str]) -> None:
        self.text = text
        self.kind = kind
        self.profile = profile
        self._m = m


class _RawReference(IRIReference):
    """Slow path: spans kept as (start, end) pairs until first access."""

    def __init__(self, text: str, kind: str, profile: Profile,
                 raw: tuple[tuple[int, int] | None, ...], host_kind: HostKind | None,
                 errors: tuple[IRISyntaxError, ...]) -> None:
        self.text = text
        self.kind = kind
        self.profile = profile
        self._raw = raw
        self._host_kind = host_kind
        self.errors = errors


def _segments(text: str, path: Span) -> tuple[Span, ...]:
    """RFC 3986 sec. 3.3 segments of ``path``: "/"-separated, the leading "/" dropped."""
    out = []
    start, end = path.start, path.end
    if start < end and text[start] == "/":
        start += 1
    elif start == end:
        return ()
    while True:
        slash = text.find("/", start, end)
        if slash < 0:
            out.append(Span(start, end))
            return tuple(out)
        out.append(Span(start, slash))
        start = slash + 1


# ---------------------------------------------------------------- regexes (all possessive)

_SUB = re.escape("".join(sorted(SUB_DELIMS)))
_SCHEME_PREFIX = re.compile(r"[^:/?#]*+:")
_TAIL = re.compile(
    r"(?://(?P<a>[^/?#]*+))?+(?P<p>[^?#]*+)(?:\?(?P<q>[^#]*+))?+(?:#(?P<f>.*+))?+", re.S
)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+")
_PORT = re.compile(r"[0-9]*+")
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
_IPV4 = re.compile(rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}")
_H16 = re.compile(r"[0-9A-Fa-f]{1,4}")
_IPVFUTURE = re.compile(rf"[vV][0-9A-Fa-f]++\.[A-Za-z0-9\-._~:{_SUB}]++")


def _cls(profile: Profile, extra: str = "", *, private: bool = False) -> str:
    """A regex class body: iunreserved / sub-delims / ``extra`` (+ iprivate), RFC 3987 sec. 2.2.

    Written as the complement of the allowed ranges: a negated class of the few excluded ranges
    compiles about three times faster than the ucschar ranges themselves (start-up time).
    """
    allowed = sorted({ord(c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"}
                     | {ord(c) for c in SUB_DELIMS} | {ord(c) for c in extra})
    ranges = [(c, c) for c in allowed]
    if profile is not Profile.URI:
        ranges += list(UCSCHAR_RANGES)
        if private:
            ranges += list(IPRIVATE_RANGES) + ([TAG_RANGE] if profile is Profile.IRI_BIS else [])
    ranges.sort()
    gaps, nxt = [], 0
    for lo, hi in ranges:
        if lo > nxt:
            gaps.append((nxt, lo - 1))
        nxt = max(nxt, hi + 1)
    if nxt <= 0x10FFFF:
        gaps.append((nxt, 0x10FFFF))
    return "^" + "".join(f"\\U{lo:08X}" if lo == hi else f"\\U{lo:08X}-\\U{hi:08X}" for lo, hi in gaps)


def _run(body: str) -> str:
    """``*( [body] / pct-encoded )`` unrolled as ``[body]*+ (%XX [body]*+)*+``: no backtracking."""
    return rf"[{body}]*+(?:%[0-9A-Fa-f]{{2}}[{body}]*+)*+"


def _component_regexes(profile: Profile) -> dict[str, re.Pattern[str]]:
    return {
        "userinfo": re.compile(_run(_cls(profile, ":"))),
        "host": re.compile(_run(_cls(profile))),
        "path": re.compile(_run(_cls(profile, ":@/"))),
        "query": re.compile(_run(_cls(profile, ":@/?", private=True))),
        "fragment": re.compile(_run(_cls(profile, ":@/?"))),
    }


def _fast_regex(profile: Profile) -> re.Pattern[str]:
    """One deterministic regex for a whole IRI-reference without IP literal (RFC 3987 sec. 2.2).

    Every repetition and option is possessive, so it never backtracks beyond a fixed number of
    alternatives; a match is a valid reference, a non-match goes to the slow scanner.
    """
    path = _run(_ascii_cls(profile, ":@/"))
    return re.compile(
        rf"(?:(?P<s>[A-Za-z][A-Za-z0-9+.\-]*+):)?+"
        rf"(?://(?P<a>(?:(?P<u>{_run(_ascii_cls(profile, ':'))})@)?+(?P<h>{_run(_ascii_cls(profile))})"
        rf"(?::(?P<o>[0-9]*+))?+)"
        rf"(?P<pa>(?:/{path})?+)"
        rf"|(?!//)(?P<pb>(?(s){path}|{_run(_ascii_cls(profile, '@'))}(?:/{path})?+)))"
        rf"(?:\?(?P<q>{_run(_ascii_cls(profile, ':@/?'))}))?+"
        rf"(?:\#(?P<f>{_run(_ascii_cls(profile, ':@/?'))}))?+"
    )


def _ascii_cls(profile: Profile, extra: str = "") -> str:
    """The fast path's class: the component's ASCII characters, plus any non-ASCII for IRI profiles.

    Non-ASCII text is then checked once against ``_NOT_UCSCHAR`` (see ``scan``). A tiny class keeps
    compiling cheap and matching one bitmap lookup per character.
    """
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~") | SUB_DELIMS | set(extra)
    if profile is Profile.URI:
        return re.escape("".join(sorted(allowed)))
    return "^" + re.escape("".join(chr(c) for c in range(128) if chr(c) not in allowed))


# any non-ASCII code point that is not ucschar: such text leaves the fast path (private use may
# still be fine in a query; the exact scanner decides)
_NOT_UCSCHAR = re.compile("[" + "".join(
    f"\\U{lo:08X}-\\U{hi:08X}" for lo, hi in (
        (0x80, 0x9F), (0xD800, 0xF8FF), (0xFDD0, 0xFDEF), (0xFFF0, 0xFFFF),
        *(((p << 16) | 0xFFFE, (p << 16) | 0xFFFF) for p in range(1, 14)), (0xE0000, 0xE0FFF),
        (0xEFFFE, 0x10FFFF),
    )
) + "]")
# the BMP part alone: a bitmap with no range tail, one lookup per character
_NOT_UCSCHAR_BMP = re.compile("[\\x80-\\x9f\\ud800-\\uf8ff\\ufdd0-\\ufdef\\ufff0-\\uffff]")


def _all_ucschar(text: str) -> bool:
    """Whether every non-ASCII character of ``text`` is ucschar (RFC 3987 sec. 2.2)."""
    if _NOT_UCSCHAR_BMP.search(text) is not None:
        return False
    return max(text) <= "\uffff" or _NOT_UCSCHAR.search(text) is None


_BASE_PROFILES = {p.value: p for p in (Profile.URI, Profile.IRI, Profile.IRI_BIS)}
_FastEntry = tuple[Callable[[str], "re.Match[str] | None"], Profile]
# compiled on first use: the Unicode classes cost ~30 ms per profile, too much for start-up
_REGEXES: dict[Profile, dict[str, re.Pattern[str]]] = {}
_FAST: dict[str, _FastEntry] = {}


def _fast_entry(profile: str | Profile) -> _FastEntry | None:
    """The whole-reference regex of a base profile (None for LEIRI / Web Address)."""
    base = _BASE_PROFILES.get(profile)
    if base is None:
        return None
    entry = _FAST[base.value] = (_fast_regex(base).fullmatch, base)
    return entry


def _component_rx(profile: Profile) -> dict[str, re.Pattern[str]]:
    rx = _REGEXES.get(profile)
    if rx is None:
        rx = _REGEXES[profile] = _component_regexes(profile)
    return rx

_IP_SAFE = UNRESERVED | SUB_DELIMS | {":"}  # never a 3987bis sec. 6.3 group

# ASCII characters each component allows besides pct-encoded (RFC 3987 sec. 2.2)
_ALLOWED_ASCII = {
    "userinfo": UNRESERVED | SUB_DELIMS | {":"},
    "host": UNRESERVED | SUB_DELIMS,
    "path": UNRESERVED | SUB_DELIMS | {":", "@", "/"},
    "query": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
    "fragment": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
}

_GROUP_ERRORS: dict[Group, tuple[str, str]] = {
    Group.SPACE: (E.SPACE, "spaces are not allowed in IRIs (3987bis sec. 6.3); percent-encode it as %20"),
    Group.DELIM: (E.DELIMITER, "this delimiter is not allowed in IRIs (3987bis sec. 6.3); percent-encode it"),
    Group.UNWISE: (E.UNWISE, "this character is not allowed in IRIs (3987bis sec. 6.3); percent-encode it"),
    Group.CONTROL: (E.CONTROL, "control characters are not allowed in IRIs (3987bis sec. 6.3); remove it"),
    Group.SPECIAL: (E.SPECIAL, "specials U+FFF0-FFFD are not allowed in IRIs (3987bis sec. 6.3)"),
    Group.NONCHAR: (E.NONCHARACTER, "non-characters are not allowed in IRIs (3987bis sec. 6.3)"),
    Group.SURROGATE: (E.SURROGATE, "a lone surrogate is not a character (3987bis sec. 6.3)"),
}


def _error(code: str, pos: int, message: str, component: str | None, end: int | None = None) -> IRISyntaxError:
    return IRISyntaxError(code, pos, message, end=end, component=component)


def _group_error(text: str, i: int, component: str, profile: Profile) -> IRISyntaxError | None:
    """The error for a character of a 3987bis sec. 6.3 group (or non-ASCII in a URI), else None."""
    c = text[i]
    g = group(c)
    if g in _GROUP_ERRORS:
        code, why = _GROUP_ERRORS[g]
        return _error(code, i, f"{char_label(c)} in {component}: {why}", component)
    if c < "\x80":
        return None
    label = char_label(c)
    if profile is Profile.URI:
        return _error(E.NON_ASCII_IN_URI, i, f"{label} in {component}: URIs are ASCII only "
                      "(RFC 3986 sec. 2); percent-encode it as UTF-8", component)
    if g is Group.TAG:
        where = "outside the query (3987bis sec. 2.2)" if profile is Profile.IRI_BIS else "(RFC 3987 sec. 2.2)"
        return _error(E.TAG, i, f"{label} in {component}: tag characters are not allowed {where}", component)
    if g is Group.IPRIVATE:
        return _error(E.PRIVATE_USE, i, f"{label} in {component}: private-use characters are allowed "
                      "only in the query (RFC 3987 sec. 2.2); percent-encode it", component)
    return None


def _char_error(text: str, i: int, component: str, profile: Profile) -> IRISyntaxError:
    """Classify one character that ``component`` does not allow (RFC 3987 sec. 2.2, 3987bis 6.3)."""
    err = _group_error(text, i, component, profile)
    if err is not None:
        return err
    label = char_label(text[i])
    # an otherwise legal character in the wrong component: '[' in a path, '@' in a host, 'é' in a port
    if component == "scheme":
        if i == 0 and text[i] in SCHEME_CHARS:
            return _error(E.SCHEME, i, f"a scheme must start with a letter, not {label} "
                          "(RFC 3986 sec. 3.1)", component)
        return _error(E.SCHEME, i, f"{label} is not allowed in a scheme: ALPHA *( ALPHA / DIGIT / "
                      '"+" / "-" / "." ) (RFC 3986 sec. 3.1)', component)
    if component == "port":
        return _error(E.PORT, i, f"{label} is not allowed in a port, which is digits only "
                      "(RFC 3986 sec. 3.2.3)", component)
    return _error(E.COMPONENT_CHAR, i, f"{label} is not allowed in the {component} "
                  "(RFC 3987 sec. 2.2); percent-encode it", component)


def _scan_component(text: str, start: int, end: int, component: str, profile: Profile,
                    out: list[IRISyntaxError]) -> None:
    """Slow path: name every bad character and malformed '%' of one component (RFC 3987 sec. 2.2)."""
    allowed = _ALLOWED_ASCII[component]
    priv_ok = component == "query" and profile is not Profile.URI
    i = start
    while i < end:
        c = text[i]
        if c == "%":
            if i + 2 < end and text[i + 1] in HEXDIG and text[i + 2] in HEXDIG:
                i += 3
                continue
            bad_end = i + 1
            while bad_end < min(end, i + 3) and text[bad_end] in HEXDIG:
                bad_end += 1
            if bad_end == i + 1:  # "%%%": one error for the run of bare '%'
                while bad_end < end and text[bad_end] == "%" and not is_pct_triplet(text, bad_end, end):
                    bad_end += 1
            out.append(_run_error(_error(E.PERCENT, i, "'%' must be followed by two hex digits (pct-encoded, "
                                         "RFC 3986 sec. 2.1); write a literal '%' as %25", component, bad_end),
                                  text))
            i = bad_end if text[i:bad_end] == "%" * (bad_end - i) else i + 1
            continue
        if c in allowed:
            i += 1
            continue
        if c >= "\x80":
            g = group(c)
            if g is Group.UCSCHAR and profile is not Profile.URI:
                i += 1
                continue
            if priv_ok and (g is Group.IPRIVATE or (g is Group.TAG and profile is Profile.IRI_BIS)):
                i += 1
                continue
        j = _run_end(text, i, end, allowed, priv_ok)
        out.append(_run_error(_char_error(text, i, component, profile), text, j))
        i = j


# groups whose every member gets the group's code wherever it stands (3987bis sec. 6.3)
_GROUP_CODED = frozenset({Group.SPACE, Group.DELIM, Group.UNWISE, Group.CONTROL, Group.SPECIAL,
                          Group.NONCHAR, Group.SURROGATE})


def _run_end(text: str, i: int, end: int, allowed: frozenset[str], priv_ok: bool) -> int:
    """End of the run of bad characters at ``i`` that share one error: same character, or same group."""
    c = text[i]
    g = group(c)
    j = i + 1
    if g in _GROUP_CODED:
        while j < end and text[j] not in allowed and text[j] != "%" and group(text[j]) is g:
            j += 1
    else:
        while j < end and text[j] == c and not (priv_ok and g is Group.IPRIVATE):
            j += 1
    return j


def _run_error(err: IRISyntaxError, text: str, end: int | None = None) -> IRISyntaxError:
    """One error for a run of the same bad character: its span covers the run (linear, and readable)."""
    if end is not None:
        err.end = end
    n = err.end - err.position
    if n > 1:
        same = text[err.position : err.end] == text[err.position] * n
        err.message += f"; {n} in a row" if same else f"; {n} such characters in a row"
    return err


def _scan_chars(text: str, start: int, end: int, allowed: frozenset[str], component: str,
                profile: Profile, out: list[IRISyntaxError]) -> None:
    """Report every character of [start, end) outside ``allowed`` (scheme, port); runs as one error."""
    i = start
    while i < end:
        c = text[i]
        if c in allowed:
            i += 1
            continue
        j = i + 1
        while j < end and text[j] == c:
            j += 1
        out.append(_run_error(_char_error(text, i, component, profile), text, j))
        i = j


def _is_ipv6(s: str) -> bool:
    """RFC 3986 sec. 3.2.2 IPv6address, checked by counting groups (linear)."""
    if ":::" in s or s.count("::") > 1:
        return False
    if "::" in s:
        head, tail = s.split("::", 1)
        groups = (head.split(":") if head else []) + (tail.split(":") if tail else [])
        compressed = True
        if not tail and head and "." in head:
            return False  # an IPv4 part must come last
    else:
        groups = s.split(":")
        compressed = False
    count = len(groups)
    if groups and "." in groups[-1]:
        if not _IPV4.fullmatch(groups[-1]):
            return False
        groups = groups[:-1]
        count += 1
    if not all(_H16.fullmatch(g) for g in groups):
        return False
    return count <= 7 if compressed else count == 8


def _check_ip_literal(text: str, start: int, end: int, closed: bool, profile: Profile,
                      out: list[IRISyntaxError]) -> HostKind:
    """RFC 3986 sec. 3.2.2 IP-literal = "[" ( IPv6address / IPvFuture ) "]".

    Characters of a 3987bis sec. 6.3 group inside get their own code; the literal as a whole
    (without them) gets IRI113 when it is still not an IPv6address or IPvFuture.
    """
    inner_end = end - 1 if closed else end
    kept = []
    for i in range(start + 1, inner_end):
        if text[i] in _IP_SAFE:
            kept.append(text[i])
            continue
        err = _group_error(text, i, "host", profile)
        if err is None:
            kept.append(text[i])
        else:
            out.append(err)
    inner = "".join(kept)
    if not closed:
        out.append(_error(E.IP_LITERAL, start, "'[' opens an IP literal that is never closed "
                          "with ']' (RFC 3986 sec. 3.2.2)", "host", end))
        return HostKind.IPV6
    if inner[:1] in ("v", "V"):
        if not _IPVFUTURE.fullmatch(inner):
            out.append(_error(E.IP_LITERAL, start, f"[{inner}] is not a valid IPvFuture literal: "
                              '"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) (RFC 3986 sec. 3.2.2)',
                              "host", end))
        return HostKind.IPVFUTURE
    if "%" in inner and _is_ipv6(inner[: inner.index("%")]):
        pct = text.index("%", start, end)
        out.append(_error(E.IP_LITERAL, pct, "IPv6 zone identifiers (RFC 6874) are not part of "
                          "RFC 3987 sec. 2.2; remove the zone", "host", end - 1))
    elif not _is_ipv6(inner):
        out.append(_error(E.IP_LITERAL, start, f"[{inner}] is not a valid IPv6 address "
                          "(RFC 3986 sec. 3.2.2)", "host", end))
    return HostKind.IPV6


def scan(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> IRIReference:
    """Scan ``text`` as ``kind`` (RFC 3987 sec. 2.2) under ``profile``; collect all errors, never raise."""
    entry = _FAST.get(profile) or _fast_entry(profile)
    if entry is not None:
        m = entry[0](text)
        if m is not None and not text.isascii() and not _all_ucschar(text):
            m = None  # only ucschar may stand outside ASCII on the fast path
        # kind checks need only the scheme and fragment of a match
        if m is not None and (kind == "IRI-reference" or (
            kind in KINDS and (m.start("s") >= 0) is (kind != "irelative-ref")
            and (kind != "absolute-IRI" or m.start("f") < 0)
        )):
            return _MatchedReference(text, kind, entry[1], m)
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    profile = Profile(profile) if entry is None else entry[1]
    if profile in (Profile.LEIRI, Profile.WEB_ADDRESS):
        from .preprocess import preprocess

        processed, notes, origin = preprocess(text, profile)
        ref = _scan(processed, kind, Profile.IRI_BIS)
        errs = tuple(
            IRISyntaxError(e.code, origin[e.position], e.message, end=origin[max(e.end - 1, e.position)] + 1,
                           component=e.component)
            for e in ref.errors
        )
        return IRIReference(processed, kind, profile, ref.scheme, ref.authority, ref.userinfo,
                            ref.host, ref.host_kind, ref.port, ref.path, ref.query, ref.fragment,
                            errs, text, tuple(notes))
    return _scan(text, kind, profile)


def _scan(text: str, kind: str, profile: Profile) -> IRIReference:
    """The slow scanner: components by RFC 3986 appendix B splitting, then every error named."""
    rx = _component_rx(profile)
    errs: list[IRISyntaxError] = []
    scheme: tuple[int, int] | None = None
    pos = 0

    m = _SCHEME_PREFIX.match(text)
    if m is not None:
        colon = m.end() - 1
        if kind == "irelative-ref":
            # ipath-noscheme: no ':' anywhere in the first segment (RFC 3986 sec. 4.2)
            first_end = colon
            while first_end < len(text) and text[first_end] not in "/?#":
                first_end += 1
            for i in range(colon, first_end):
                if text[i] == ":":
                    errs.append(_error(E.COMPONENT_CHAR, i, "':' is not allowed in the first segment "
                                       "of a relative reference, which would read as a scheme "
                                       "(RFC 3986 sec. 4.2); write './' before it", "path"))
        else:
            scheme = (0, colon)
            pos = m.end()
            if colon == 0:
                errs.append(_error(E.SCHEME, 0, "empty scheme before ':' (RFC 3986 sec. 3.1)", "scheme"))
            elif not _SCHEME.fullmatch(text, 0, colon):
                if text[0] not in ALPHA:
                    errs.append(_char_error(text, 0, "scheme", profile))
                _scan_chars(text, 1, colon, SCHEME_CHARS, "scheme", profile, errs)
    if scheme is None and kind in ("IRI", "absolute-IRI"):
        errs.append(_error(E.MISSING_SCHEME, 0, f"an {kind} needs a scheme such as 'https:' "
                           "(RFC 3987 sec. 2.2); this is a relative reference", "scheme"))

    t = _TAIL.match(text, pos)
    assert t is not None  # the tail pattern matches any string
    authority: tuple[int, int] | None = None
    userinfo = host = port = authority
    host_kind = None
    if t.start("a") >= 0:
        authority = (t.start("a"), t.end("a"))
        a_start, a_end = authority
        at = text.rfind("@", a_start, a_end)
        h_start = a_start
        if at >= 0:
            userinfo = (a_start, at)
            h_start = at + 1
            if not rx["userinfo"].fullmatch(text, a_start, at):
                _scan_component(text, a_start, at, "userinfo", profile, errs)
        if text.startswith("[", h_start, a_end):
            close = text.find("]", h_start, a_end)
            if close < 0:
                host = (h_start, a_end)
                host_kind = _check_ip_literal(text, h_start, a_end, False, profile, errs)
            else:
                host = (h_start, close + 1)
                host_kind = _check_ip_literal(text, h_start, close + 1, True, profile, errs)
                if close + 1 < a_end:
                    colon = text.find(":", close + 1, a_end)
                    junk_end = a_end if colon < 0 else colon
                    if colon >= 0:
                        port = (colon + 1, a_end)
                    if junk_end > close + 1:
                        # anything between ']' and ':' port: one error, plus group characters
                        first = _group_error(text, close + 1, "host", profile)
                        errs.append(first or _error(
                            E.COMPONENT_CHAR, close + 1, f"{char_label(text[close + 1])} after an IP "
                            "literal: only ':' and a port may follow (RFC 3986 sec. 3.2)", "host",
                            junk_end))
                        for i in range(close + 2, junk_end):
                            err = _group_error(text, i, "host", profile)
                            if err is not None:
                                errs.append(err)
        else:
            colon = text.find(":", h_start, a_end)
            h_end = a_end if colon < 0 else colon
            host = (h_start, h_end)
            if colon >= 0:
                port = (colon + 1, a_end)
            if _IPV4.fullmatch(text, h_start, h_end):
                host_kind = HostKind.IPV4
            else:
                host_kind = HostKind.REG_NAME
                if not rx["host"].fullmatch(text, h_start, h_end):
                    _scan_component(text, h_start, h_end, "host", profile, errs)
        if port is not None and not _PORT.fullmatch(text, port[0], port[1]):
            _scan_chars(text, port[0], port[1], DIGIT, "port", profile, errs)

    path = (t.start("p"), t.end("p"))
    if not rx["path"].fullmatch(text, path[0], path[1]):
        _scan_component(text, path[0], path[1], "path", profile, errs)
    query: tuple[int, int] | None = None
    fragment = query
    if t.start("q") >= 0:
        query = (t.start("q"), t.end("q"))
        if not rx["query"].fullmatch(text, query[0], query[1]):
            _scan_component(text, query[0], query[1], "query", profile, errs)
    if t.start("f") >= 0:
        fragment = (t.start("f"), t.end("f"))
        if kind == "absolute-IRI":
            errs.append(_error(E.FRAGMENT_NOT_ALLOWED, fragment[0] - 1, "an absolute-IRI has no "
                               "fragment (RFC 3987 sec. 2.2); remove '#...'", "fragment", fragment[1]))
        if not rx["fragment"].fullmatch(text, fragment[0], fragment[1]):
            _scan_component(text, fragment[0], fragment[1], "fragment", profile, errs)

    if len(errs) > 1:
        errs.sort(key=lambda e: e.position)
    return _RawReference(text, kind, profile, (scheme, authority, userinfo, host, port, path, query,
                                               fragment), host_kind, tuple(errs))


def parse(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> IRIReference:
    """Parse ``text`` as an IRI of ``kind`` (RFC 3987 sec. 2.2); raise IRISyntaxError for its first problem."""
    ref = scan(text, kind, profile)
    if ref.errors:
        raise ref.errors[0]
    return ref


def validate(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> list[IRISyntaxError]:
    """Every syntax problem of ``text`` (RFC 3987 sec. 2.2), in order of position (empty when valid)."""
    return list(scan(text, kind, profile).errors)


def is_valid(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> bool:
    """Whether ``text`` matches the RFC 3987 sec. 2.2 grammar of ``kind`` under ``profile``."""
    return not scan(text, kind, profile).errors
