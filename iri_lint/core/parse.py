"""Linear-time scanner for RFC 3987 sec. 2.2 IRI references, with exact spans and every error.

One possessive regex match tells a valid reference from one with errors and, for the latter, where
each component's first error stands (``_trouble_regex``); Python runs only for the errors. Spans
are split on first access. Bidi formatting characters are ``ucschar`` and so pass the ABNF; sec.
4.1 forbids them, and the bidi rules (not the parser) report them.
"""

from __future__ import annotations

import enum
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, cast

from . import errors as E
from .chars import (
    ALPHA,
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
    char_label,
    group,
    regex_class,
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

    __hash__ = str.__hash__  # equal to its value's hash, computed in C (Enum's is Python-level)


# members as plain globals for the hot paths: ``Profile.IRI`` is a slow class attribute lookup
_IRI, _URI = Profile.IRI, Profile.URI
_PREPROCESSED = (Profile.LEIRI, Profile.WEB_ADDRESS)


class HostKind(enum.StrEnum):
    """RFC 3986 sec. 3.2.2 host forms."""

    REG_NAME = "reg-name"
    IPV4 = "ipv4"
    IPV6 = "ipv6"
    IPVFUTURE = "ipvfuture"


class Span(NamedTuple):
    """Half-open code point range [start, end) in the IRI text (immutable; ``len`` is its length)."""

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


# An error as the scanner records it: (position, end, code, component, message or None to name
# the character at position, and whether the message says how many characters the span covers)
ErrorRecord = tuple[int, int, str, str | None, str | None, bool]

_POSITION = operator.itemgetter(0)  # sort key of ErrorRecord
_SPAN_NAMES = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


_EMPTY = Span(0, 0)


class IRIReference:
    """A scanned IRI reference (RFC 3987 sec. 2.2): components as spans over ``text``, and errors.

    For the ``leiri`` and ``web-address`` profiles ``text`` is the preprocessed string,
    ``original`` the input, and errors point into ``original``. Treat instances as immutable;
    spans are computed on first access.

    ``error_records`` holds every error as a cheap tuple ``(position, end, code, component, ...)``,
    in order of position, with no message built; ``error(i)`` and ``errors`` give IRISyntaxError
    objects with their messages.
    """

    COMPONENTS = _SPAN_NAMES
    # class-level defaults keep the fast path's construction to a few attribute stores
    # every error as a cheap tuple ``(position, end, code, component, ...)``, in order of position;
    # see ``error()`` for the IRISyntaxError with its message (a plain attribute: the linter's hot read)
    error_records: tuple[ErrorRecord, ...] = ()
    _errors: tuple[IRISyntaxError, ...] | None = ()
    original: str | None = None
    preprocessing: tuple[Preprocessing, ...] = ()
    # preprocessed only: origin[i] is the index in ``original`` that text[i] came from, with one
    # more entry for the end
    origin: tuple[int, ...] | None = None
    _m: re.Match[str] | None = None
    _spans: dict[str, Span | None] | None = None
    _host_kind: HostKind | None = None
    _segments: tuple[Span, ...] | None = None

    def __init__(self, text: str, kind: str = "IRI-reference", profile: Profile = Profile.IRI,
                 scheme: Span | None = None, authority: Span | None = None,
                 userinfo: Span | None = None, host: Span | None = None,
                 host_kind: HostKind | None = None, port: Span | None = None,
                 path: Span = _EMPTY, query: Span | None = None,
                 fragment: Span | None = None, errors: tuple[IRISyntaxError, ...] = (),
                 original: str | None = None,
                 preprocessing: tuple[Preprocessing, ...] = ()) -> None:
        self.text = text
        self.kind = kind
        self.profile = profile
        self._errors = errors
        self.error_records = tuple((e.position, e.end, e.code, e.component, e.message, False) for e in errors)
        self.original = original
        self.preprocessing = preprocessing
        self._spans = {
            "scheme": scheme, "authority": authority, "userinfo": userinfo, "host": host,
            "port": port, "path": path, "query": query, "fragment": fragment}
        self._host_kind = host_kind

    def _all_spans(self) -> dict[str, Span | None]:
        spans = self._spans
        if spans is None:
            m = self._m
            assert m is not None
            # the fast regex's groups in order: s a u h o pa pb q f (checked where it is compiled)
            s, a, u, h, o, pa, pb, q, f = m.regs[1:]
            spans = self._spans = _spans_dict((s, a, u, h, o, pa if pa[0] >= 0 else pb, q, f))
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
        host = self.host  # first: splitting may find an IP literal
        if self._host_kind is None and host is not None:
            text = self.text
            if text.startswith("[", host.start):
                self._host_kind = HostKind.IPVFUTURE if text[host.start + 1] in "vV" else HostKind.IPV6
            else:
                ipv4 = _IPV4.fullmatch(text, host.start, host.end)
                self._host_kind = HostKind.IPV4 if ipv4 else HostKind.REG_NAME
        return self._host_kind

    @property
    def errors(self) -> tuple[IRISyntaxError, ...]:
        """Every syntax problem, in order of position (messages are built on first access)."""
        errs = self._errors
        if errs is None:
            errs = self._errors = tuple(self.error(i) for i in range(len(self.error_records)))
        return errs

    def error(self, index: int) -> IRISyntaxError:
        """The ``index``-th error of ``error_records`` as an IRISyntaxError with its message."""
        if self._errors is not None:
            return self._errors[index]
        return _ScannedError(self.text, self.profile, self.error_records[index])

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the caller's text that ``text[start:end]`` came from (3987bis sec. 6)."""
        origin = self.origin
        if origin is None:
            return start, end
        o_start = origin[start]
        return o_start, (origin[end - 1] + 1 if end > start else o_start)

    @property
    def is_valid(self) -> bool:
        return not self.error_records

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

    def __reduce__(self) -> tuple[Callable[[str, str, Profile], IRIReference], tuple[str, str, Profile]]:
        """Pickle and copy as the call that made it: the match it may hold does not pickle."""
        return scan, (self.text, self.kind, self.profile)


class _MatchedDefault(_MatchedReference):
    """The fast path of the default call (an IRI-reference under RFC 3987): two attribute stores."""

    kind = "IRI-reference"
    profile = Profile.IRI

    def __init__(self, text: str, m: re.Match[str]) -> None:
        self.text = text
        self._m = m


class _ValidDefault(_MatchedDefault):
    """A valid IRI-reference under RFC 3987 found by the trouble regex: spans from the fast
    regex on first access (it matches exactly the valid references). ``scan`` builds it with
    ``object.__new__`` and sets its two slots: a constructor call costs more than the match, and
    slots need no dict (reading a class attribute through an instance is not specialized in 3.11).
    """

    __slots__ = ("error_records", "text")

    def _all_spans(self) -> dict[str, Span | None]:
        if self._m is None:
            self._m = _fast_iri(self.text)
            assert self._m is not None, self.text
        return IRIReference._all_spans(self)


class _RawReference(IRIReference):
    """Slow path: the errors found by scanning; spans split on first access. Built by
    ``_scan_errors``, which sets ``text``, ``kind``, ``profile`` and, with errors,
    ``error_records`` and ``_errors = None`` (messages on first use).
    """

    def __init__(self) -> None:  # pragma: no cover - built by _scan_errors
        raise TypeError("_RawReference is built by _scan_errors")

    def _all_spans(self) -> dict[str, Span | None]:
        spans = self._spans
        if spans is None:
            text = self.text
            s, a, u, ip, h, o, p, q, f = _split(text, self.kind == "irelative-ref").regs[1:]
            if ip[0] >= 0:  # the IP literal's own end, and a port after it (its errors are known)
                h, o, self._host_kind = _ip_literal_host(text, ip[0], ip[1], self.profile, [])
            spans = self._spans = _spans_dict((s, a, u, h, o, p, q, f))
        return spans


class _RawDefault(_RawReference):
    """The slow path of the default call: ``scan`` sets the two slots (cheaper stores than a dict's)."""

    __slots__ = ("error_records", "text")
    kind = "IRI-reference"
    profile = Profile.IRI
    _errors = None


_new_tuple = tuple.__new__


def _spans_dict(regs: tuple[tuple[int, int], ...]) -> dict[str, Span | None]:
    """Spans by component name from (start, end) pairs in ``_SPAN_NAMES`` order, (-1, -1) when absent."""
    s, a, u, h, o, p, q, f = regs  # written out: a comprehension over zip costs twice as much
    return {"scheme": None if s[0] < 0 else _new_tuple(Span, s),
            "authority": None if a[0] < 0 else _new_tuple(Span, a),
            "userinfo": None if u[0] < 0 else _new_tuple(Span, u),
            "host": None if h[0] < 0 else _new_tuple(Span, h),
            "port": None if o[0] < 0 else _new_tuple(Span, o),
            "path": _new_tuple(Span, p),
            "query": None if q[0] < 0 else _new_tuple(Span, q),
            "fragment": None if f[0] < 0 else _new_tuple(Span, f)}


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
# RFC 3986 appendix B: split into components (any string matches; the parts are checked after)
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
_IPV4 = re.compile(rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}")
_IPVFUTURE_PATTERN = rf"[vV][0-9A-Fa-f]++\.[A-Za-z0-9\-._~:{_SUB}]++"
_IPVFUTURE = re.compile(_IPVFUTURE_PATTERN)


def _ipv6_pattern() -> str:
    """RFC 3986 sec. 3.2.2 IPv6address, its nine forms in order. Each form is bounded (at most
    39 characters), so trying them costs a bounded amount at one position.
    """
    # possessive: an h16 is always followed by ':' or the end, never by a hex digit
    h16, ipv4 = "[0-9A-Fa-f]{1,4}+", rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}"
    ls32 = rf"(?:{h16}:{h16}|{ipv4})"

    def before(n: int) -> str:  # [ *n( h16 ":" ) h16 ], as h16 *n( ":" h16 ): '::' only ever follows its last h16
        return f"(?:{h16}(?::{h16}){{0,{n}}}+)?+" if n else f"(?:{h16})?+"

    return "|".join((
        rf"(?:{h16}:){{6}}{ls32}",
        rf"::(?:{h16}:){{5}}{ls32}",
        rf"{before(0)}::(?:{h16}:){{4}}{ls32}",
        rf"{before(1)}::(?:{h16}:){{3}}{ls32}",
        rf"{before(2)}::(?:{h16}:){{2}}{ls32}",
        rf"{before(3)}::{h16}:{ls32}",
        rf"{before(4)}::{ls32}",
        rf"{before(5)}::{h16}",
        rf"{before(6)}::",
    ))


# RFC 3986 sec. 3.2.2 IP-literal, atomic: ']' closes it inside, so no form is retried after it
_IP_LITERAL = rf"(?>\[(?:{_ipv6_pattern()}|{_IPVFUTURE_PATTERN})\])"
_IPV6: list[re.Pattern[str]] = []  # compiled on first use


def _is_ipv6(text: str) -> bool:
    """RFC 3986 sec. 3.2.2 IPv6address."""
    # 2 to 8 colons (7 with an IPv4 part) and one '::' at most: most wrong addresses end here,
    # before the nine forms are tried
    colons = text.count(":")
    if not 2 <= colons <= 8 or text.count("::") > 1 or (colons > 7 and "." in text):
        return False
    if not _IPV6:
        _IPV6.append(re.compile(_ipv6_pattern()))
    return _IPV6[0].fullmatch(text) is not None


def _gaps(allowed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code point ranges not covered by ``allowed`` (the complement over U+0000-10FFFF)."""
    gaps, nxt = [], 0
    for lo, hi in sorted(allowed):
        if lo > nxt:
            gaps.append((nxt, lo - 1))
        nxt = max(nxt, hi + 1)
    if nxt <= 0x10FFFF:
        gaps.append((nxt, 0x10FFFF))
    return gaps


def _run(body: str) -> str:
    """``*( [body] / pct-encoded )`` unrolled as ``[body]*+ (%XX [body]*+)*+``: no backtracking."""
    return rf"[{body}]*+(?:%[0-9A-Fa-f]{{2}}[{body}]*+)*+"


def _fast_regex(profile: Profile) -> re.Pattern[str]:
    """One deterministic regex for a whole IRI-reference (RFC 3987 sec. 2.2).

    Every repetition and option is possessive, so it never backtracks beyond a fixed number of
    alternatives; a match is a valid reference, a non-match goes to the slow scanner.
    """
    path = _run(_ascii_cls(profile, ":@/"))
    return re.compile(
        rf"(?:(?P<s>[A-Za-z][A-Za-z0-9+.\-]*+):)?+"
        rf"(?://(?P<a>(?:(?=[^@/?#]*+@)(?P<u>{_run(_ascii_cls(profile, ':'))})@)?+"
        rf"(?P<h>(?=\[){_IP_LITERAL}|{_run(_ascii_cls(profile))})"
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
_NOT_UCSCHAR = re.compile(f"[{regex_class(_gaps([(0, 0x7F), *UCSCHAR_RANGES]))}]")
# the BMP part alone: a bitmap with no range tail, one lookup per character
_NOT_UCSCHAR_BMP = re.compile("[\\x80-\\x9f\\ud800-\\uf8ff\\ufdd0-\\ufdef\\ufff0-\\uffff]")


def _all_ucschar(text: str) -> bool:
    """Whether every non-ASCII character of ``text`` is ucschar (RFC 3987 sec. 2.2)."""
    if _NOT_UCSCHAR_BMP.search(text) is not None:
        return False
    return max(text) <= "\uffff" or _NOT_UCSCHAR.search(text) is None


_BASE_PROFILES = {p.value: p for p in (Profile.URI, Profile.IRI, Profile.IRI_BIS)}
_FastEntry = tuple[Callable[[str], "re.Match[str] | None"], Profile]
# compiled on first use (start-up time); the default profile's entry is kept apart for speed
_FAST: dict[str, _FastEntry] = {}
_SEGMENT_END = re.compile("[/?#]")


def _fast_entry(profile: str | Profile) -> _FastEntry | None:
    """The whole-reference regex of a base profile (None for LEIRI / Web Address)."""
    global _fast_iri
    base = _BASE_PROFILES.get(profile)
    if base is None:
        return None
    pattern = _fast_regex(base)
    assert tuple(pattern.groupindex) == ("s", "a", "u", "h", "o", "pa", "pb", "q", "f")  # _all_spans reads them so
    entry = _FAST[base.value] = (pattern.fullmatch, base)
    if base is Profile.IRI:
        _fast_iri = entry[0]
    return entry


def _compile_trouble_iri(text: str) -> re.Match[str] | None:
    """The default profile's trouble match of ASCII text on its first call: compile, then match."""
    global _trouble_iri
    _trouble_iri = _trouble(Profile.IRI, False, True)
    return _trouble_iri(text)


# the default profile's trouble match for ASCII text, a plain global for the hot path
# (None for most non-ASCII text, see ``scan``)
_trouble_iri: Callable[[str], re.Match[str] | None] = _compile_trouble_iri
_new = object.__new__


def _compile_fast_iri(text: str) -> re.Match[str] | None:
    """The default profile's fast match on its first call: compile the regex (not at start-up), then match."""
    entry = _fast_entry(Profile.IRI)
    assert entry is not None
    return entry[0](text)


# the default profile's fast match, a plain global for the hot path (replaced on first use)
_fast_iri: Callable[[str], re.Match[str] | None] = _compile_fast_iri


# RFC 3987 sec. 2.2: the ASCII characters each component allows besides pct-encoded
_ALLOWED_ASCII = {
    "userinfo": UNRESERVED | SUB_DELIMS | {":"},
    "host": UNRESERVED | SUB_DELIMS,
    "path": UNRESERVED | SUB_DELIMS | {":", "@", "/"},
    "query": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
    "fragment": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
    "scheme": SCHEME_CHARS,
    "port": DIGIT,
}

# 3987bis sec. 6.3 groups: never allowed anywhere, and a run of one group is one error
_GROUP_RANGES: dict[Group, tuple[tuple[int, int], ...]] = {
    Group.SPACE: ((0x20, 0x20),),
    Group.DELIM: tuple((ord(c), ord(c)) for c in sorted(DELIMS)),
    Group.UNWISE: tuple((ord(c), ord(c)) for c in sorted(UNWISE)),
    Group.CONTROL: ((0x00, 0x1F), (0x7F, 0x9F)),
    Group.SPECIAL: ((0xFFF0, 0xFFFD),),
    Group.NONCHAR: ((0xFDD0, 0xFDEF), *(((p << 16) | 0xFFFE, (p << 16) | 0xFFFF) for p in range(17))),
    Group.SURROGATE: ((0xD800, 0xDFFF),),
}
_GROUPED = [r for ranges in _GROUP_RANGES.values() for r in ranges]
_HEX = "[0-9A-Fa-f]"
# a '%' not followed by two hex digits, with its one hex digit or the bare '%'s after it
_BAD_PERCENT = rf"%(?:{_HEX}(?!{_HEX})|(?!{_HEX})(?:%(?!{_HEX}{{2}}))*+)"


def _allowed_ranges(profile: Profile, component: str) -> list[tuple[int, int]]:
    """What ``component`` allows under ``profile`` besides pct-encoded (RFC 3987 sec. 2.2)."""
    allowed = [(ord(c), ord(c)) for c in _ALLOWED_ASCII[component]]
    if profile is not Profile.URI and component not in ("scheme", "port"):
        allowed += UCSCHAR_RANGES
        if component == "query":
            allowed += IPRIVATE_RANGES + ((TAG_RANGE,) if profile is Profile.IRI_BIS else ())
    return allowed


_ALL = 0x10FFFF


def _clip(ranges: list[tuple[int, int]], top: int) -> list[tuple[int, int]]:
    """``ranges`` cut at code point ``top``: the classes of a regex only ever shown text up to it."""
    return [(lo, min(hi, top)) for lo, hi in ranges if lo <= top]


def _skip(profile: Profile, component: str, top: int = _ALL) -> str:
    """A possessive pattern for the longest run of what ``component`` allows (RFC 3987 sec. 2.2)."""
    # one class (a bitmap for ASCII, one for the BMP), unrolled around pct-encoded: no group is
    # entered until a run stops
    run = f"[{regex_class(_clip(_allowed_ranges(profile, component), top))}]*+"
    if component in _NO_PCT:
        return run
    return f"{run}(?:%{_HEX}{{2}}{run})*+"


def _error(profile: Profile, component: str, group: int, ends: str = "", top: int = _ALL) -> str:
    """One error of ``component`` as capture group ``group`` (its same-character run uses
    ``group + 1``): a malformed '%', a run of one 3987bis sec. 6.3 group, or a run of one other
    character the component does not allow, other than the delimiters in ``ends`` that end it.
    Only characters up to ``top`` are told apart.
    """
    allowed = _allowed_ranges(profile, component) + [(ord(c), ord(c)) for c in ends]
    # one class for every group first: other characters fail it at once, not each group's class
    runs = [_clip(list(r), top) for r in _GROUP_RANGES.values()]
    groups = f"(?=[{regex_class(_clip(sorted(_GROUPED), top))}])(?:" + "|".join(
        f"[{regex_class(r)}]++" for r in runs if r) + ")"
    if component in _NO_PCT:  # no pct-encoded here: '%' is one more bad character
        other = regex_class(_clip(_gaps(allowed + _GROUPED), top))
        return rf"((?:{groups})|([{other}])\{group + 1}*+)"
    other = regex_class(_clip(_gaps(allowed + _GROUPED + [(0x25, 0x25)]), top))
    return rf"({_BAD_PERCENT}|(?:{groups})|([{other}])\{group + 1}*+)"


def _bad_regex(profile: Profile, component: str) -> re.Pattern[str]:
    """Skip what ``component`` allows and capture its next error (group 1), or reach the end.

    Linear and fast: the skip is one possessive class loop in C; there is no backtracking.
    """
    # every match ends at an error or at the end, so finditer never retries a failed skip
    return re.compile(rf"{_skip(profile, component)}(?:{_error(profile, component, 1)}|\Z)")


def _first_errors_regex(profile: Profile, component: str) -> re.Pattern[str]:
    """The first three errors of a component in one match (groups 1, 3, 5), and group 7 (empty)
    where a fourth one starts; ``lastindex`` is the last of them that took part.
    """
    skip = _skip(profile, component)
    return re.compile(
        rf"{skip}(?:{_error(profile, component, 1)}{skip}(?:{_error(profile, component, 3)}{skip}"
        rf"(?:{_error(profile, component, 5)}{skip}(?:()(?=.))?+)?+)?+)?+", re.S)


# the authority's userinfo: up to its last '@'; the lookahead for a later '@' stops at the next
# one, so each character is read at most twice
_USERINFO_TAIL = r"(?:[^@/?#]*+@(?=[^@/?#]*+@))*+[^@/?#]*+"
# an '@' that is the authority's last
_LAST_AT = r"@[^@/?#]*+(?:[/?#]|\Z)"


def _spans_regex(relative: bool) -> re.Pattern[str]:
    """Split any string into components: RFC 3986 appendix B, userinfo up to the authority's last
    '@', host up to its first ':' (``ip``: a host that starts with '[', with the rest of the
    authority). With ``relative`` (irelative-ref) nothing is a scheme. Possessive throughout.
    """
    scheme = r"(?:(?!)(?P<s>))?+" if relative else r"(?:(?P<s>[^:/?#]*+):)?+"
    return re.compile(
        scheme + rf"(?://(?P<a>(?:(?P<u>{_USERINFO_TAIL})@)?+"
        r"(?:(?P<ip>\[[^/?#]*+)|(?P<h>[^:/?#]*+)(?::(?P<o>[^/?#]*+))?+)))?+"
        r"(?P<p>[^?#]*+)(?:\?(?P<q>[^#]*+))?+(?:\#(?P<f>.*+))?+", re.S)


def _trouble_regex(profile: Profile, relative: bool, top: int = _ALL) -> re.Pattern[str]:
    """Find each component's first error (RFC 3987 sec. 2.2), in one match of any string.

    Each component is read as the run of what it allows, then, only where a rest follows, a
    group for that rest up to the component's end. For host, port, path, query and fragment the
    rest's group holds the groups of its first two errors and, when more follows, an empty group
    where the next error starts.
    A clean reference matches with no group (``lastindex`` None); a well-formed IP literal with
    a well-formed port takes no group either; ``ip`` takes any other host that starts with '['
    (those IP-literal checks are Python's). The split is ``_spans_regex``'s; the
    group numbers are ``_LAYOUT``'s. With ``top`` 0x7F its classes are small, and the hot cases
    (templates in ASCII literals) stay in the CPU's caches; it then matches all ASCII text and fails
    where a non-ASCII character is not inside a group (``scan`` relies on both).
    """
    scheme = (r"(?:(?!)(?P<sb>))?+" if relative else
              # a well-formed scheme takes no group; ``sb`` takes any other text before the ':'
              r"(?:(?:[A-Za-z][A-Za-z0-9+.\-]*+(?=:)|(?P<sb>[^:/?#]*+)):)?+")
    parts = {}
    for rest, (name, firsts, _) in _LAYOUT.items():
        skip, ends = _skip(profile, name, top), _ENDS[name]
        char = f"[^{re.escape(ends)}]" if ends else "."
        # (?=char) fails at once where the component ends, before the error's alternatives
        tail = f"(?:(){char}++)?+"  # the group ``more``: where a further error starts
        for slot in reversed(firsts[1:]):
            tail = f"(?:(?={char}){_error(profile, name, slot, ends, top)}{skip}{tail})?+"
        parts[name] = f"{skip}(?:(?={char})({_error(profile, name, firsts[0], ends, top)}{skip}{tail}))?+"
        assert rest == firsts[0] - 1
    return re.compile(
        scheme
        # (?=…@): the userinfo is tried only where the authority has an '@'
        + rf"(?://(?:(?=[^@/?#]*+@){_skip(profile, 'userinfo', top)}(?:(?!{_LAST_AT})(?P<ub>{_USERINFO_TAIL}))?+@)?+"
        # a well-formed IP literal and port take no group; any other host starting with '[' is
        # ``ip``'s. The nine IPv6 forms are tried only on what could be one (no zone, <= 45 long)
        rf"(?:(?=\[(?:[0-9A-Fa-f:.]{{2,45}}+\]|[vV])){_IP_LITERAL}(?::[0-9]*+)?+(?=[/?#]|\Z)|(?P<ip>\[[^/?#]*+)|{parts['host']}(?::{parts['port']})?+))?+"
        rf"{parts['path']}(?:\?{parts['query']})?+(?:\#{parts['fragment']})?+"
        # every class of the full build, and every ASCII character in the ASCII build, is read, so
        # the match reaches the end; the ASCII build fails where a non-ASCII character stops it
        r"\Z",
        re.S)


# characters that get a 3987bis sec. 6.3 (or URI / tag / private-use) error even in an IP literal
def _group_error_regex(profile: Profile, ascii_only: bool) -> re.Pattern[str]:
    # the ASCII build is one small bitmap: the full class tests each astral range per character
    extra = [(0x80, 0x10FFFF)] if profile is Profile.URI else [TAG_RANGE, *IPRIVATE_RANGES]
    ranges = sorted(_GROUPED + extra)
    rx = _GROUP_ERR[profile, ascii_only] = re.compile(f"[{regex_class(_clip(ranges, 0x7F) if ascii_only else ranges)}]")
    return rx


_GROUP_ERR: dict[tuple[Profile, bool], re.Pattern[str]] = {}
# the trouble regex's match method, compiled on first use: by profile for an IRI-reference of
# ASCII text (the hot case), else by (profile, irelative-ref?, ASCII?)
_TROUBLE: dict[Profile | tuple[Profile, bool, bool], Callable[[str], re.Match[str]]] = {}
# its rest groups, by number: the component each belongs to
# rest group -> (component, the groups of its first two errors, the group where a further one
# starts); each error group is followed by the group of its same-character run. Two errors cover
# most templates with no second scan: '%s' in a port, '[' and ']' in a reg-name, '/%d.%d/' in a path
_LAYOUT = {4: ("host", (5, 7), 9), 10: ("port", (11, 13), 15), 16: ("path", (17, 19), 21),
           22: ("query", (23, 25), 27), 28: ("fragment", (29, 31), 33)}
# the same flat, for ``_layout_errors``: (rest, component, first error, second error, more)
_LAYOUT_ROWS = tuple((rest, component, *firsts, more) for rest, (component, firsts, more) in _LAYOUT.items())
_ENDS = {"host": ":/?#", "port": "/?#", "path": "?#", "query": "#", "fragment": ""}  # what ends each
_SPANS: dict[bool, Callable[[str], re.Match[str]]] = {}
# per profile, per component (compiled on first use): the next-error regex, a cache char -> code,
# and the first-errors regex
_MatchAny = Callable[[str, int, int], "re.Match[str]"]  # a match method of a pattern that matches any text
_Table = tuple[re.Pattern[str], dict[str, str], _MatchAny]
_TABLES: dict[Profile, dict[str, _Table]] = {}


def _table(profile: Profile, component: str) -> _Table:
    tables = _TABLES.get(profile)
    if tables is None:
        tables = _TABLES[profile] = {}
    table = tables.get(component)
    if table is None:
        codes = (_CODES.get(profile) or _codes(profile))[component]
        first = cast(_MatchAny, _first_errors_regex(profile, component).match)  # it matches any text
        table = tables[component] = (_bad_regex(profile, component), codes, first)
    return table


# per profile, per component: a cache character -> error code
_CODES: dict[Profile, dict[str, dict[str, str]]] = {}


def _codes(profile: Profile) -> dict[str, dict[str, str]]:
    # a '%' the regex reports is a malformed pct-encoded, except where there is none
    codes = _CODES[profile] = {c: {} if c in _NO_PCT else {"%": E.PERCENT} for c in _ALLOWED_ASCII}
    return codes


_FEW = 4  # errors found by single matches before a finditer pays off (creating one costs ~3 matches)
_NO_PCT = frozenset(("scheme", "port"))  # no pct-encoded there: '%' is one more bad character
_CODES_IRI = _codes(Profile.IRI)  # the default profile's, for the hot path


def _code(codes: dict[str, str], c: str, component: str, profile: Profile) -> str:
    code = codes.get(c)
    if code is None:
        code = codes[c] = _char_problem(c, 0, component, profile)[0]
    return code


_GROUP_ERRORS: dict[Group, tuple[str, str]] = {
    Group.SPACE: (E.SPACE, "spaces are not allowed in IRIs (3987bis sec. 6.3); percent-encode it as %20"),
    Group.DELIM: (E.DELIMITER, "this delimiter is not allowed in IRIs (3987bis sec. 6.3); percent-encode it"),
    Group.UNWISE: (E.UNWISE, "this character is not allowed in IRIs (3987bis sec. 6.3); percent-encode it"),
    Group.CONTROL: (E.CONTROL, "control characters are not allowed in IRIs (3987bis sec. 6.3); remove it"),
    Group.SPECIAL: (E.SPECIAL, "specials U+FFF0-FFFD are not allowed in IRIs (3987bis sec. 6.3)"),
    Group.NONCHAR: (E.NONCHARACTER, "non-characters are not allowed in IRIs (3987bis sec. 6.3)"),
    Group.SURROGATE: (E.SURROGATE, "a lone surrogate is not a character (3987bis sec. 6.3)"),
}

_PERCENT_MESSAGE = ("'%' must be followed by two hex digits (pct-encoded, RFC 3986 sec. 2.1); "
                    "write a literal '%' as %25")


def _group_problem(c: str, component: str, profile: Profile) -> tuple[str, str] | None:
    """Code and message for a character of a 3987bis sec. 6.3 group (or non-ASCII in a URI), else None."""
    g = group(c)
    if g in _GROUP_ERRORS:
        code, why = _GROUP_ERRORS[g]
        return code, f"{char_label(c)} in {component}: {why}"
    if c < "\x80":
        return None
    label = char_label(c)
    if profile is _URI:
        return E.NON_ASCII_IN_URI, (f"{label} in {component}: URIs are ASCII only (RFC 3986 sec. 2); "
                                    "percent-encode it as UTF-8")
    if g is Group.TAG:
        where = "outside the query (3987bis sec. 2.2)" if profile is Profile.IRI_BIS else "(RFC 3987 sec. 2.2)"
        return E.TAG, f"{label} in {component}: tag characters are not allowed {where}"
    if g is Group.IPRIVATE:
        return E.PRIVATE_USE, (f"{label} in {component}: private-use characters are allowed only in "
                               "the query (RFC 3987 sec. 2.2); percent-encode it")
    return None


def _char_problem(text: str, i: int, component: str, profile: Profile) -> tuple[str, str]:
    """Code and message for one character ``component`` does not allow (RFC 3987 sec. 2.2, 3987bis 6.3)."""
    problem = _group_problem(text[i], component, profile)
    if problem is not None:
        return problem
    label = char_label(text[i])
    # an otherwise legal character in the wrong component: '[' in a path, '@' in a host, 'é' in a port
    if component == "scheme":
        if i == 0 and text[i] in SCHEME_CHARS:
            return E.SCHEME, f"a scheme must start with a letter, not {label} (RFC 3986 sec. 3.1)"
        return E.SCHEME, (f"{label} is not allowed in a scheme: ALPHA *( ALPHA / DIGIT / "
                          '"+" / "-" / "." ) (RFC 3986 sec. 3.1)')
    if component == "port":
        return E.PORT, f"{label} is not allowed in a port, which is digits only (RFC 3986 sec. 3.2.3)"
    return E.COMPONENT_CHAR, f"{label} is not allowed in the {component} (RFC 3987 sec. 2.2); percent-encode it"


def _message(text: str, profile: Profile, rec: ErrorRecord) -> str:
    """The message of one record: it names the character and, for a run, how many there are."""
    pos, end, code, component, message, run = rec
    if message is None:
        message = _PERCENT_MESSAGE if code == E.PERCENT else _char_problem(text, pos, component or "", profile)[1]
    n = end - pos
    if run and n > 1:
        message += f"; {n} in a row" if text[pos:end] == text[pos] * n else f"; {n} such characters in a row"
    return message


class _ScannedError(IRISyntaxError):
    """An IRISyntaxError from the scanner: its message is written on first use, not for every error."""

    def __init__(self, text: str, profile: Profile, rec: ErrorRecord) -> None:
        self.position, self.end, self.code, self.component = rec[0], rec[1], rec[2], rec[3]
        self._source: tuple[str, Profile, ErrorRecord] | None = (text, profile, rec)
        self._message = ""

    @property
    def message(self) -> str:
        if self._source is not None:
            self._message = _message(*self._source)
            self._source = None
        return self._message

    @message.setter
    def message(self, value: str) -> None:
        self._message, self._source = value, None

    @property
    def args(self) -> tuple[str]:  # type: ignore[override]
        return (self.message,)

    def __reduce__(self) -> tuple[type[IRISyntaxError], tuple[str, int, str], dict[str, object]]:
        return IRISyntaxError, (self.code, self.position, self.message), {"end": self.end, "component": self.component}


def _scan_component(text: str, start: int, end: int, component: str, profile: Profile,
                    out: list[ErrorRecord]) -> None:
    """Every malformed '%' and disallowed character of one component (RFC 3987 sec. 2.2), runs as one."""
    rx, codes, _ = _table(profile, component)
    m = rx.match(text, start, end)
    if m is not None and m.lastindex:
        _errors_from(m, text, end, component, rx, codes, profile, out)


def _errors_from(m: re.Match[str], text: str, end: int, component: str, rx: re.Pattern[str],
                 codes: dict[str, str], profile: Profile, out: list[ErrorRecord]) -> None:
    """Record the error ``m`` found in ``component`` (group 1), then every later one before ``end``.

    Each match of the component's regex skips what the component allows and ends at an error
    (``lastindex`` set) or at the end of the component.
    """
    match = rx.match
    for _ in range(_FEW):
        pos, after = m.span(1)
        c = text[pos]
        out.append((pos, after, codes.get(c) or _code(codes, c, component, profile), component, None, True))
        m = match(text, after, end)  # type: ignore[assignment]  # the pattern matches at any end
        if not m.lastindex:
            return
    # many errors (hostile input): one scanner for the rest, and no Python statement per error
    spans = [m.span(1) for m in rx.finditer(text, after, end)]
    while spans and spans[-1][0] < 0:
        spans.pop()  # the end-of-text matches
    get = codes.get
    out += [(a, b, get(text[a]) or _code(codes, text[a], component, profile), component, None, True)
            for a, b in spans]


def _group_errors(text: str, start: int, end: int, profile: Profile, out: list[ErrorRecord]) -> str:
    """Report each 3987bis sec. 6.3 group character of a host's [start, end); return the rest."""
    inner = text[start:end]
    ascii_only = inner.isascii()
    rx = _GROUP_ERR.get((profile, ascii_only)) or _group_error_regex(profile, ascii_only)
    if rx.search(inner) is None:
        return inner
    codes = (_CODES.get(profile) or _codes(profile))["host"]
    for m in rx.finditer(text, start, end):
        pos = m.start()
        out.append((pos, pos + 1, _code(codes, text[pos], "host", profile), "host", None, False))
    return rx.sub("", text[start:end])


def _check_ip_literal(text: str, start: int, end: int, closed: bool, profile: Profile,
                      out: list[ErrorRecord]) -> HostKind:
    """RFC 3986 sec. 3.2.2 IP-literal = "[" ( IPv6address / IPvFuture ) "]".

    Characters of a 3987bis sec. 6.3 group inside get their own code; the literal as a whole
    (without them) gets IRI113 when it is still not an IPv6address or IPvFuture.
    """
    inner = _group_errors(text, start + 1, end - 1 if closed else end, profile, out)
    if not closed:
        out.append((start, end, E.IP_LITERAL, "host", "'[' opens an IP literal that is never closed "
                    "with ']' (RFC 3986 sec. 3.2.2)", False))
        return HostKind.IPV6
    if inner[:1] in ("v", "V"):
        if not _IPVFUTURE.fullmatch(inner):
            out.append((start, end, E.IP_LITERAL, "host", f"[{inner}] is not a valid IPvFuture literal: "
                        '"v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) (RFC 3986 sec. 3.2.2)', False))
        return HostKind.IPVFUTURE
    if "%" in inner and _is_ipv6(inner[: inner.index("%")]):
        pct = text.index("%", start, end)
        out.append((pct, end - 1, E.IP_LITERAL, "host", "IPv6 zone identifiers (RFC 6874) are not part "
                    "of RFC 3987 sec. 2.2; remove the zone", False))
    elif not _is_ipv6(inner):
        out.append((start, end, E.IP_LITERAL, "host", f"[{inner}] is not a valid IPv6 address "
                    "(RFC 3986 sec. 3.2.2)", False))
    return HostKind.IPV6


def _after_ip_literal(text: str, start: int, end: int, profile: Profile, out: list[ErrorRecord]) -> None:
    """Anything between ']' and ':' port: one error, plus one per group character (RFC 3986 sec. 3.2)."""
    first = _group_problem(text[start], "host", profile)
    if first is not None:
        out.append((start, start + 1, first[0], "host", None, False))
    else:
        out.append((start, end, E.COMPONENT_CHAR, "host", f"{char_label(text[start])} after an IP literal: "
                    "only ':' and a port may follow (RFC 3986 sec. 3.2)", False))
    _group_errors(text, start + 1, end, profile, out)


def scan(text: str, kind: str | None = None, profile: str | Profile | None = None) -> IRIReference:
    """Scan ``text`` as ``kind`` (RFC 3987 sec. 2.2; None: "IRI-reference") under ``profile``
    (None: ``Profile.IRI``); collect all errors, never raise.
    """
    # the default call, and the linter's (None defaults: two tests cheaper than a string compare)
    if (kind is None or kind == "IRI-reference") and (profile is None or profile == "iri"):
        kind = "IRI-reference"
        # one match finds every component's first error, or none. The ASCII build fails on most
        # non-ASCII text; where it matches, a non-ASCII character stands in a group that Python
        # reads with the full classes (``lastindex`` None means all of it was ASCII)
        trouble = _trouble_iri(text)
        if trouble is not None:
            last = trouble.lastindex
            if last is not None:
                groups = trouble.groups()
                if groups[:3] != (None, None, None):
                    return _scan_errors(text, kind, _IRI, trouble, [], groups)
                # the usual case: errors in host, port, path, query or fragment only (a template's
                # '%s' or '{}'); components come in order, each with its errors in order
                errs: list[ErrorRecord] = []
                _layout_errors(trouble, groups, last, text, _IRI, _CODES_IRI, errs)
                return _raw_reference(text, kind, _IRI, errs)
            r = _new(_ValidDefault)
            r.text, r.error_records = text, ()
            return r
        m = _fast_iri(text)
        # only ucschar may stand outside ASCII on the fast path
        if m is not None and _all_ucschar(text):
            return _MatchedDefault(text, m)
        return _scan(text, kind, _IRI)
    return _scan_profile(text, "IRI-reference" if kind is None else kind, _IRI if profile is None else profile)


def _scan_profile(text: str, kind: str, profile: str | Profile) -> IRIReference:
    """``scan`` for any kind and profile: the fast path of a base profile, or the preprocessing ones."""
    entry = _FAST.get(profile)
    if entry is None:
        entry = _fast_entry(profile)
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
    if profile in _PREPROCESSED:
        from .preprocess import preprocess

        processed, notes, origin = preprocess(text, profile)
        ref = _scan(processed, kind, Profile.IRI_BIS)
        out = IRIReference(processed, kind, profile, ref.scheme, ref.authority, ref.userinfo,
                           ref.host, ref.host_kind, ref.port, ref.path, ref.query, ref.fragment,
                           (), text, tuple(notes))
        out.origin = tuple(origin)
        out.error_records = ref.error_records  # over ``processed``, as every other span
        out._errors = tuple(_original_error(out, rec) for rec in ref.error_records)
        return out
    return _scan(text, kind, profile)


def _original_error(ref: IRIReference, rec: ErrorRecord) -> IRISyntaxError:
    """An error of a preprocessed text, placed in and naming the characters of the caller's text."""
    start, end = ref.original_span(rec[0], rec[1])
    assert ref.original is not None and ref.origin is not None
    orig = ref.original
    if rec[4] is None and rec[2] != E.PERCENT and start < len(orig) and orig[start] != ref.text[rec[0]]:
        # preprocessing wrote this character differently (a space as %20): name the caller's one
        rec = (start, end, rec[2], rec[3], None, rec[5])
        message = _message(orig, Profile.IRI_BIS, rec)
    else:
        message = _message(ref.text, Profile.IRI_BIS, rec)
    return IRISyntaxError(rec[2], start, message, end=end, component=rec[3])


def _scheme_errors(text: str, colon: int, profile: Profile, out: list[ErrorRecord]) -> None:
    """RFC 3986 sec. 3.1 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )."""
    if colon == 0:
        out.append((0, 1, E.SCHEME, "scheme", "empty scheme before ':' (RFC 3986 sec. 3.1)", False))
        return
    if text[0] not in ALPHA:
        out.append((0, 1, _code(_table(profile, "scheme")[1], text[0], "scheme", profile), "scheme", None, True))
    _scan_component(text, 1, colon, "scheme", profile, out)


def _trouble(profile: Profile, relative: bool, ascii_only: bool) -> Callable[[str], re.Match[str]]:
    """The trouble regex's match method for an IRI-reference or irelative-ref, of any or ASCII text."""
    if not relative and ascii_only:
        match = _TROUBLE.get(profile)
        key: Profile | tuple[Profile, bool, bool] = profile
    else:
        key = (profile, relative, ascii_only)
        match = _TROUBLE.get(key)
    if match is None:
        pattern = _trouble_regex(profile, relative, 0x7F if ascii_only else _ALL)
        assert pattern.groups == max(v[2] for v in _LAYOUT.values()) and tuple(pattern.groupindex) == ("sb", "ub", "ip")
        match = _TROUBLE[key] = cast(Callable[[str], re.Match[str]], pattern.match)  # any text it is built for
    return match


def _split(text: str, relative: bool) -> re.Match[str]:
    """The ``_spans_regex`` match of ``text`` (it matches any string)."""
    match = _SPANS.get(relative)
    if match is None:
        match = _SPANS[relative] = _spans_regex(relative).match  # type: ignore[assignment]
    return match(text)  # type: ignore[misc]


def _component_errors(text: str, start: int, end: int, component: str, profile: Profile,
                      out: list[ErrorRecord]) -> None:
    """Every error of ``component`` in [start, end): up to three found by one match, the rest
    by ``_errors_from``.
    """
    tables = _TABLES.get(profile)
    rx, codes, first = (tables.get(component) if tables is not None else None) or _table(profile, component)
    m = first(text, start, end)
    last = m.lastindex
    if last is None:
        return
    for slot in (1, 3, 5):
        pos, after = m.span(slot)
        c = text[pos]
        out.append((pos, after, codes.get(c) or _code(codes, c, component, profile), component, None, True))
        if slot == last:
            return
    more = rx.match(text, m.start(7), end)
    assert more is not None and more.lastindex  # a fourth error starts there
    _errors_from(more, text, end, component, rx, codes, profile, out)


def _scan(text: str, kind: str, profile: Profile) -> IRIReference:
    """The slow scanner: one match finds where each component's first error stands (RFC 3986
    appendix B, RFC 3987 sec. 2.2); only a component with an error is scanned on, to name every
    error in it. Spans are split on first access.
    """
    if kind == "IRI-reference":
        errs: list[ErrorRecord] = []
        m = _trouble(profile, False, text.isascii())(text)
    else:
        errs = _kind_errors(text, kind)
        m = _trouble(profile, kind == "irelative-ref", text.isascii())(text)
    return _scan_errors(text, kind, profile, m, errs)


def _scan_errors(text: str, kind: str, profile: Profile, m: re.Match[str], errs: list[ErrorRecord],
                 groups: tuple[str | None, ...] | None = None) -> IRIReference:
    """The reference with every error: ``errs`` (the kind's), then those of each component that
    the trouble match ``m`` (whose ``groups()`` the caller may have read) found one in.
    """
    last = m.lastindex  # the rest group of the last component with an error
    if last is not None:
        if groups is None:
            groups = m.groups()
        if groups[0] is not None:
            _scheme_errors(text, m.end(1), profile, errs)
        if groups[1] is not None:
            _component_errors(text, m.start(2), m.end(2), "userinfo", profile, errs)
        if groups[2] is not None:
            _ip_literal_host(text, m.start(3), m.end(3), profile, errs)
        if last > 3:
            _layout_errors(m, groups, last, text, profile, _CODES.get(profile) or _codes(profile), errs)
        # components come in order and each lists its errors in order; an IP literal does not
        if groups[2] is not None and len(errs) > 1:
            errs.sort(key=_POSITION)
    if kind != "IRI-reference" and len(errs) > 1:
        errs.sort(key=_POSITION)
    return _raw_reference(text, kind, profile, errs)


def _raw_reference(text: str, kind: str, profile: Profile, errs: list[ErrorRecord]) -> IRIReference:
    """The scanned reference with its errors (in order of position); spans on first access."""
    if profile is _IRI and kind == "IRI-reference":
        raw = _new(_RawDefault)
        raw.text, raw.error_records = text, tuple(errs)
        return raw
    ref = _new(_RawReference)
    ref.text, ref.kind, ref.profile = text, kind, profile
    if errs:
        ref.error_records, ref._errors = tuple(errs), None
    return ref


def _kind_errors(text: str, kind: str) -> list[ErrorRecord]:
    """What ``kind`` adds to the IRI-reference grammar (RFC 3987 sec. 2.2, RFC 3986 sec. 4.2)."""
    errs: list[ErrorRecord] = []
    colon = _split(text, False).end("s")  # where a scheme would end (RFC 3986 appendix B)
    if kind == "irelative-ref":
        if colon >= 0:
            # ipath-noscheme: no ':' anywhere in the first segment (RFC 3986 sec. 4.2)
            first_end = _SEGMENT_END.search(text, colon)
            seg_end = len(text) if first_end is None else first_end.start()
            i = colon
            while 0 <= i < seg_end:
                errs.append((i, i + 1, E.COMPONENT_CHAR, "path", "':' is not allowed in the first segment "
                             "of a relative reference, which would read as a scheme (RFC 3986 sec. 4.2); "
                             "write './' before it", False))
                i = text.find(":", i + 1, seg_end)
    elif colon < 0:
        errs.append((0, min(1, len(text)), E.MISSING_SCHEME, "scheme", f"an {kind} needs a scheme such as 'https:' "
                     "(RFC 3987 sec. 2.2); this is a relative reference", False))
    if kind == "absolute-IRI":
        hash_at = text.find("#")  # the first '#' starts the fragment
        if hash_at >= 0:
            errs.append((hash_at, len(text), E.FRAGMENT_NOT_ALLOWED, "fragment", "an absolute-IRI "
                         "has no fragment (RFC 3987 sec. 2.2); remove '#...'", False))
    return errs


def _layout_errors(m: re.Match[str], groups: tuple[str | None, ...], last: int, text: str, profile: Profile,
                   all_codes: dict[str, dict[str, str]], out: list[ErrorRecord]) -> None:
    """The errors of host, port, path, query and fragment that the trouble match ``m`` found,
    up to its rest group ``last``: the first two of each from their groups, others by scanning on.
    """
    for rest, component, first, second, more in _LAYOUT_ROWS:
        if groups[rest - 1] is not None:  # its first error is there
            codes = all_codes[component]
            pos, after = m.span(first)
            c = text[pos]
            out.append((pos, after, codes.get(c) or _code(codes, c, component, profile), component, None, True))
            if groups[second - 1] is not None:
                pos, after = m.span(second)
                c = text[pos]
                out.append((pos, after, codes.get(c) or _code(codes, c, component, profile), component, None, True))
                if groups[more - 1] is not None:
                    _component_errors(text, m.start(more), m.end(rest), component, profile, out)
            if rest == last:
                return


def _ip_literal_host(text: str, start: int, end: int, profile: Profile, out: list[ErrorRecord],
                     ) -> tuple[tuple[int, int], tuple[int, int], HostKind]:
    """Host and port spans of an authority whose host starts with '[' at ``start``, up to ``end``;
    its errors (RFC 3986 sec. 3.2.2, 3.2.3) go to ``out``.
    """
    port = (-1, -1)
    close = text.find("]", start, end)
    if close < 0:
        return (start, end), port, _check_ip_literal(text, start, end, False, profile, out)
    host_kind = _check_ip_literal(text, start, close + 1, True, profile, out)
    if close + 1 < end:
        colon = text.find(":", close + 1, end)
        junk_end = end if colon < 0 else colon
        if colon >= 0:
            port = (colon + 1, end)
            _scan_component(text, colon + 1, end, "port", profile, out)
        if junk_end > close + 1:
            _after_ip_literal(text, close + 1, junk_end, profile, out)
    return (start, close + 1), port, host_kind


def parse(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> IRIReference:
    """Parse ``text`` as an IRI of ``kind`` (RFC 3987 sec. 2.2); raise IRISyntaxError for its first problem."""
    ref = scan(text, kind, profile)
    if ref.error_records:
        first = ref.error(0)
        raise IRISyntaxError(first.code, first.position, first.message, end=first.end, component=first.component)
    return ref


def validate(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> list[IRISyntaxError]:
    """Every syntax problem of ``text`` (RFC 3987 sec. 2.2), in order of position (empty when valid)."""
    return list(scan(text, kind, profile).errors)


def is_valid(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> bool:
    """Whether ``text`` matches the RFC 3987 sec. 2.2 grammar of ``kind`` under ``profile``."""
    return not scan(text, kind, profile).error_records
