"""Linear-time scanner for RFC 3987 sec. 2.2 IRI references, with exact spans and every error.

Valid input takes a fast path: one split and one possessive regex per component (no backtracking
on input). Only a component that fails its regex is scanned character by character to name each
problem. Bidi formatting characters are ``ucschar`` and so pass the ABNF; sec. 4.1 forbids them,
and the bidi rules (not the parser) report them.
"""

from __future__ import annotations

import enum
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

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


# An error as the scanner records it: (position, end, code, component, message or None to name
# the character at position, and whether the message says how many characters the span covers)
ErrorRecord = tuple[int, int, str, str | None, str | None, bool]

_POSITION = operator.itemgetter(0)  # sort key of ErrorRecord
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
    # class-level defaults keep the fast path's construction to a few attribute stores
    _records: tuple[ErrorRecord, ...] = ()
    _errors: tuple[IRISyntaxError, ...] | None = ()
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
        self._errors = errors
        self._records = tuple((e.position, e.end, e.code, e.component, e.message, False) for e in errors)
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
    def errors(self) -> tuple[IRISyntaxError, ...]:
        """Every syntax problem, in order of position (messages are built on first access)."""
        errs = self._errors
        if errs is None:
            errs = self._errors = tuple(self.error(i) for i in range(len(self._records)))
        return errs

    @property
    def error_records(self) -> tuple[ErrorRecord, ...]:
        """The errors as cheap tuples ``(position, end, code, component, ...)``; see ``error()``."""
        return self._records

    def error(self, index: int) -> IRISyntaxError:
        """The ``index``-th error of ``error_records`` as an IRISyntaxError with its message."""
        if self._errors is not None:
            return self._errors[index]
        return _ScannedError(self.text, self.profile, self._records[index])

    @property
    def is_valid(self) -> bool:
        return not self._records

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
                 records: tuple[ErrorRecord, ...]) -> None:
        self.text = text
        self.kind = kind
        self.profile = profile
        self._raw = raw
        self._host_kind = host_kind
        self._records = records
        if records:
            self._errors = None


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
_TAIL_PATTERN = r"(?://(?P<a>[^/?#]*+))?+(?P<p>[^?#]*+)(?:\?(?P<q>[^#]*+))?+(?:#(?P<f>.*+))?+"
_SPLIT = re.compile(r"(?:(?P<s>[^:/?#]*+):)?+" + _TAIL_PATTERN, re.S)
_TAIL = re.compile(_TAIL_PATTERN, re.S)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+")
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])"
_IPV4 = re.compile(rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}")
_H16 = re.compile(r"[0-9A-Fa-f]{1,4}")
_IPVFUTURE = re.compile(rf"[vV][0-9A-Fa-f]++\.[A-Za-z0-9\-._~:{_SUB}]++")


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
_FAST_IRI: _FastEntry | None = None
_SEGMENT_END = re.compile("[/?#]")


def _fast_entry(profile: str | Profile) -> _FastEntry | None:
    """The whole-reference regex of a base profile (None for LEIRI / Web Address)."""
    global _FAST_IRI
    base = _BASE_PROFILES.get(profile)
    if base is None:
        return None
    entry = _FAST[base.value] = (_fast_regex(base).fullmatch, base)
    if base is Profile.IRI:
        _FAST_IRI = entry
    return entry


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


def _bad_regex(profile: Profile, component: str) -> re.Pattern[str]:
    """Skip what ``component`` allows and capture its next error (group 1): a malformed '%', a run
    of one 3987bis sec. 6.3 group, or a run of one other disallowed character; or reach the end.

    Linear and fast: the skip is one possessive class loop in C; there is no backtracking.
    """
    allowed = _allowed_ranges(profile, component)
    groups = "|".join(f"[{regex_class(r)}]++" for r in _GROUP_RANGES.values())
    # ASCII first: a small class is a bitmap test per character; the ranges only for the rest
    ascii_ok = f"[{regex_class([r for r in allowed if r[1] < 0x80])}]++"
    non_ascii = [r for r in allowed if r[0] >= 0x80]
    skip = ascii_ok + (f"|[{regex_class(non_ascii)}]++" if non_ascii else "")
    # every match ends at an error or at the end, so finditer never retries a failed skip
    if component in ("scheme", "port"):  # no pct-encoded here: '%' is one more bad character
        other = regex_class(_gaps(allowed + _GROUPED))
        return re.compile(rf"(?:{skip})*+(?:((?:{groups})|([{other}])\2*+)|\Z)")
    skip = rf"(?:{skip}|%{_HEX}{{2}})*+"
    other = regex_class(_gaps(allowed + _GROUPED + [(0x25, 0x25)]))
    return re.compile(rf"{skip}(?:({_BAD_PERCENT}|(?:{groups})|([{other}])\2*+)|\Z)")


# characters that get a 3987bis sec. 6.3 (or URI / tag / private-use) error even in an IP literal
def _group_error_regex(profile: Profile) -> re.Pattern[str]:
    extra = [(0x80, 0x10FFFF)] if profile is Profile.URI else [TAG_RANGE, *IPRIVATE_RANGES]
    return re.compile(f"[{regex_class(sorted(_GROUPED + extra))}]")


_GROUP_ERR: dict[Profile, re.Pattern[str]] = {}
# per profile, per component: the error regex (compiled on first use) and a cache char -> code
_TABLES: dict[Profile, dict[str, tuple[re.Pattern[str], dict[str, str]]]] = {}


def _table(profile: Profile, component: str) -> tuple[re.Pattern[str], dict[str, str]]:
    tables = _TABLES.get(profile)
    if tables is None:
        tables = _TABLES[profile] = {}
    table = tables.get(component)
    if table is None:
        # a '%' the regex reports is a malformed pct-encoded, except where there is none
        codes = {} if component in _NO_PCT else {"%": E.PERCENT}
        table = tables[component] = (_bad_regex(profile, component), codes)
    return table


_FEW = 4  # errors found by single matches before a finditer pays off (creating one costs ~3 matches)
_NO_PCT = frozenset(("scheme", "port"))  # no pct-encoded there: '%' is one more bad character


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
    """Every malformed '%' and disallowed character of one component (RFC 3987 sec. 2.2), runs as one.

    Each match of the component's regex ends at an error or at the end of the component.
    """
    if start == end:
        return
    tables = _TABLES.get(profile)
    rx, codes = (tables.get(component) if tables is not None else None) or _table(profile, component)
    match = rx.match
    pos = start
    for _ in range(_FEW):
        m = match(text, pos, end)
        if m is None:
            return  # not reached: the pattern matches at the end of the text
        pos, after = m.span(1)
        if pos < 0:
            return
        c = text[pos]
        out.append((pos, after, codes.get(c) or _code(codes, c, component, profile), component, None, True))
        pos = after
    # many errors (hostile input): one scanner for the rest, and no Python statement per error
    spans = [m.span(1) for m in rx.finditer(text, pos, end)]
    while spans and spans[-1][0] < 0:
        spans.pop()  # the end-of-text matches
    get = codes.get
    out += [(a, b, get(text[a]) or _code(codes, text[a], component, profile), component, None, True)
            for a, b in spans]


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


def _group_errors(text: str, start: int, end: int, profile: Profile, out: list[ErrorRecord]) -> str:
    """Report each 3987bis sec. 6.3 group character of a host's [start, end); return the rest."""
    rx = _GROUP_ERR.get(profile)
    if rx is None:
        rx = _GROUP_ERR[profile] = _group_error_regex(profile)
    codes = _table(profile, "host")[1]
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


def scan(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> IRIReference:
    """Scan ``text`` as ``kind`` (RFC 3987 sec. 2.2) under ``profile``; collect all errors, never raise."""
    entry = _FAST_IRI if profile is _IRI else _FAST.get(profile)
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
        errs = tuple(
            IRISyntaxError(e.code, origin[e.position], e.message, end=origin[max(e.end - 1, e.position)] + 1,
                           component=e.component)
            for e in ref.errors
        )
        return IRIReference(processed, kind, profile, ref.scheme, ref.authority, ref.userinfo,
                            ref.host, ref.host_kind, ref.port, ref.path, ref.query, ref.fragment,
                            errs, text, tuple(notes))
    return _scan(text, kind, profile)


def _scheme_errors(text: str, colon: int, profile: Profile, out: list[ErrorRecord]) -> None:
    """RFC 3986 sec. 3.1 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )."""
    if colon == 0:
        out.append((0, 1, E.SCHEME, "scheme", "empty scheme before ':' (RFC 3986 sec. 3.1)", False))
        return
    if text[0] not in ALPHA:
        out.append((0, 1, _code(_table(profile, "scheme")[1], text[0], "scheme", profile), "scheme", None, True))
    _scan_component(text, 1, colon, "scheme", profile, out)


def _scan(text: str, kind: str, profile: Profile) -> IRIReference:
    """The slow scanner: components by RFC 3986 appendix B splitting, then every error named."""
    errs: list[ErrorRecord] = []
    scheme: tuple[int, int] | None = None

    t = _SPLIT.match(text)
    assert t is not None  # the appendix B pattern matches any string
    colon = t.end("s")
    if colon >= 0:
        if kind == "irelative-ref":
            # ipath-noscheme: no ':' anywhere in the first segment (RFC 3986 sec. 4.2)
            first_end = _SEGMENT_END.search(text, colon)
            seg_end = len(text) if first_end is None else first_end.start()
            i = colon
            while 0 <= i < seg_end:
                errs.append((i, i + 1, E.COMPONENT_CHAR, "path", "':' is not allowed in the first segment "
                             "of a relative reference, which would read as a scheme (RFC 3986 sec. 4.2); "
                             "write './' before it", False))
                i = text.find(":", i + 1, seg_end)
            t = _TAIL.match(text)
            assert t is not None
        else:
            scheme = (0, colon)
            if colon == 0 or not _SCHEME.fullmatch(text, 0, colon):
                _scheme_errors(text, colon, profile, errs)
    if scheme is None and kind in ("IRI", "absolute-IRI"):
        errs.append((0, 1, E.MISSING_SCHEME, "scheme", f"an {kind} needs a scheme such as 'https:' "
                     "(RFC 3987 sec. 2.2); this is a relative reference", False))

    authority: tuple[int, int] | None = None
    userinfo = host = port = authority
    host_kind = None
    a_start, a_end = t.span("a")
    if a_start >= 0:
        authority = (a_start, a_end)
        at = text.rfind("@", a_start, a_end)
        h_start = a_start
        if at >= 0:
            userinfo = (a_start, at)
            h_start = at + 1
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
                        _after_ip_literal(text, close + 1, junk_end, profile, errs)
        else:
            colon = text.find(":", h_start, a_end)
            h_end = a_end if colon < 0 else colon
            host = (h_start, h_end)
            if colon >= 0:
                port = (colon + 1, a_end)
            if h_start < h_end and text[h_start] in DIGIT and _IPV4.fullmatch(text, h_start, h_end):
                host_kind = HostKind.IPV4
            else:
                host_kind = HostKind.REG_NAME
                _scan_component(text, h_start, h_end, "host", profile, errs)
        if port is not None:
            _scan_component(text, port[0], port[1], "port", profile, errs)

    path = t.span("p")
    _scan_component(text, path[0], path[1], "path", profile, errs)
    query: tuple[int, int] | None = None
    fragment = query
    q_start, q_end = t.span("q")
    if q_start >= 0:
        query = (q_start, q_end)
        _scan_component(text, query[0], query[1], "query", profile, errs)
    f_start, f_end = t.span("f")
    if f_start >= 0:
        fragment = (f_start, f_end)
        if kind == "absolute-IRI":
            errs.append((fragment[0] - 1, fragment[1], E.FRAGMENT_NOT_ALLOWED, "fragment", "an absolute-IRI "
                         "has no fragment (RFC 3987 sec. 2.2); remove '#...'", False))
        _scan_component(text, fragment[0], fragment[1], "fragment", profile, errs)

    if len(errs) > 1:
        errs.sort(key=_POSITION)
    return _RawReference(text, kind, profile, (scheme, authority, userinfo, host, port, path, query,
                                               fragment), host_kind, tuple(errs))


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
