"""Scan a string as an IRI reference (RFC 3987 sec. 2.2): its components and every error, never raising.

A valid reference is recognised by one full match of the grammar's regex. Anything else is split
into components as RFC 3986 appendix B does, and each component is scanned for what it does not
allow; a run of one kind of error is one record. Every step is linear in the length of the text.
Bidi formatting characters are ``ucschar`` and pass the ABNF; sec. 4.1 forbids them, and the bidi
rules (not the scanner) report them.
"""

from __future__ import annotations

import functools
import re
from operator import attrgetter

from .chars import is_digits
from .errors import Detail, IRISyntaxError, Kind, char_problem, group_kind
from .grammar import (
    KINDS,
    NO_PCT,
    PREPROCESSED,
    Profile,
    all_ucschar,
    clean_regex,
    error_regex,
    ip_literal_error_chars,
    ipv4_regex,
    ipvfuture_regex,
    is_ip_literal,
    is_ipv6,
    split_regex,
    valid_reference_regex,
)
from .lazy import lazy_regex
from .preprocess import preprocess
from .reference import ErrorRecord, HostKind, IRIReference, Span

__all__ = ["is_valid", "parse", "scan", "validate"]

_START = attrgetter("start")
_segment_end = lazy_regex("[/?#]")


def scan(text: str, kind: str | None = None, profile: str | Profile | None = None) -> IRIReference:
    """Scan ``text`` as ``kind`` (RFC 3987 sec. 2.2; None: "IRI-reference") under ``profile``
    (None: ``Profile.IRI``); collect every error, never raise for the text."""
    kind = "IRI-reference" if kind is None else kind
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    profile = Profile.IRI if profile is None else Profile(profile)
    if profile in PREPROCESSED:
        return _scan_preprocessed(text, kind, profile)
    return _valid_reference(text, kind, profile) or _scan_errors(text, kind, profile)


def parse(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> IRIReference:
    """Parse ``text`` as an IRI of ``kind`` (RFC 3987 sec. 2.2); raise IRISyntaxError for its first problem."""
    ref = scan(text, kind, profile)
    if ref.error_records:
        raise ref.error(0)
    return ref


def validate(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> list[IRISyntaxError]:
    """Every syntax problem of ``text`` (RFC 3987 sec. 2.2), in order of position (empty when valid)."""
    return list(scan(text, kind, profile).errors)


def is_valid(text: str, kind: str = "IRI-reference", profile: str | Profile = Profile.IRI) -> bool:
    """Whether ``text`` is a valid ``kind`` under ``profile`` (RFC 3987 sec. 2.2)."""
    return scan(text, kind, profile).is_valid


# ---------------------------------------------------------------- valid references


def _valid_reference(text: str, kind: str, profile: Profile) -> IRIReference | None:
    """The reference when ``text`` is a valid ``kind`` (one regex match), else None."""
    m = valid_reference_regex(profile).fullmatch(text)
    if m is None or (not text.isascii() and not all_ucschar(text)):
        return None
    has_scheme = m.start("scheme") >= 0
    if (kind in ("IRI", "absolute-IRI") and not has_scheme) or (kind == "irelative-ref" and has_scheme) \
            or (kind == "absolute-IRI" and m.start("fragment") >= 0):
        return None
    scheme, authority, userinfo, host, port, path, rest, query, fragment = _spans(m, _VALID_GROUPS)
    if host is not None and text.startswith("[", host.start) and not is_ip_literal(text[host.start + 1 : host.end - 1]):
        return None
    return IRIReference(text, kind, profile, scheme, authority, userinfo, host,
                        None if host is None else _host_kind(text, host), port, path or rest or Span(0, 0),
                        query, fragment)


_VALID_GROUPS = ("scheme", "authority", "userinfo", "host", "port", "path", "rest", "query", "fragment")
_SPLIT_GROUPS = ("scheme", "authority", "userinfo", "ip", "host", "port", "path", "query", "fragment")


def _spans(m: re.Match[str], names: tuple[str, ...]) -> list[Span | None]:
    """The span of each named group of ``m``, None for one that took no part."""
    regs, index = m.regs, m.re.groupindex
    return [None if regs[index[name]][0] < 0 else Span(*regs[index[name]]) for name in names]


def _host_kind(text: str, host: Span) -> HostKind:
    """RFC 3986 sec. 3.2.2: which form the host takes."""
    if text.startswith("[", host.start):
        return HostKind.IPVFUTURE if text[host.start + 1 : host.start + 2] in ("v", "V") else HostKind.IPV6
    return HostKind.IPV4 if ipv4_regex().fullmatch(text, host.start, host.end) else HostKind.REG_NAME


# ---------------------------------------------------------------- references with errors


def _scan_errors(text: str, kind: str, profile: Profile) -> IRIReference:
    """Split ``text`` (RFC 3986 appendix B) and collect every error of each component, in order."""
    m = split_regex(kind == "irelative-ref").match(text)
    assert m is not None  # the split matches any string
    errs = _kind_errors(text, kind)
    scheme, authority, userinfo, ip, host, port, path, query, fragment = _spans(m, _SPLIT_GROUPS)
    assert path is not None  # the path is always there, perhaps empty
    if scheme is not None:
        _scheme_errors(text, scheme.end, profile, errs)
    if userinfo is not None:
        _component_errors(text, userinfo, "userinfo", profile, errs)
    host_kind = None
    if ip is not None and "," in text[ip.start : ip.end] and (
            listed := _listed_hosts(text, scheme, ip, ip.end, profile, errs)):  # ("[fd00::10]:27017,[fd00::11]")
        close = text.find("]", ip.start, ip.end)
        host, host_kind = Span(ip.start, close + 1), listed
        port = Span(close + 2, ip.end) if text.startswith(":", close + 1) else None
    elif ip is not None:
        host, port, host_kind = _ip_literal_host(text, ip, profile, errs)
    elif host is not None and port is not None and len(port) and not is_digits(text[port.start : port.end]) \
            and (listed := _host_list_kind(text, scheme, host, port, profile, errs)):  # where the port is wrong anyway
        host_kind = listed
    else:
        if host is not None:
            _component_errors(text, host, "host", profile, errs)
            host_kind = _host_kind(text, host)
        if port is not None:
            _component_errors(text, port, "port", profile, errs)
    _component_errors(text, path, "path", profile, errs)
    if query is not None:
        _component_errors(text, query, "query", profile, errs)
    if fragment is not None:
        _component_errors(text, fragment, "fragment", profile, errs)
    errs.sort(key=_START)
    return IRIReference(text, kind, profile, scheme, authority, userinfo, host, host_kind, port,
                        path, query, fragment, tuple(errs))


def _kind_errors(text: str, kind: str) -> list[ErrorRecord]:
    """What ``kind`` adds to the IRI-reference grammar (RFC 3987 sec. 2.2, RFC 3986 sec. 4.2)."""
    errs: list[ErrorRecord] = []
    if kind == "IRI-reference":
        return errs
    m = split_regex(False).match(text)
    assert m is not None
    colon = m.end("scheme")  # where a scheme would end (RFC 3986 appendix B)
    if kind == "irelative-ref":
        if colon >= 0:
            # ipath-noscheme: no ':' anywhere in the first segment (RFC 3986 sec. 4.2)
            first_end = _segment_end().search(text, colon)
            seg_end = len(text) if first_end is None else first_end.start()
            i = colon
            while 0 <= i < seg_end:
                errs.append(ErrorRecord(i, i + 1, Kind.COMPONENT_CHAR, "path", Detail.FIRST_SEGMENT_COLON))
                i = text.find(":", i + 1, seg_end)
    elif colon < 0:
        errs.append(ErrorRecord(0, min(1, len(text)), Kind.MISSING_SCHEME, "scheme", Detail.NEEDS_SCHEME))
    if kind == "absolute-IRI":
        hash_at = text.find("#")  # the first '#' starts the fragment
        if hash_at >= 0:
            errs.append(ErrorRecord(hash_at, len(text), Kind.FRAGMENT_NOT_ALLOWED, "fragment", Detail.HAS_FRAGMENT))
    return errs


def _scheme_errors(text: str, colon: int, profile: Profile, out: list[ErrorRecord]) -> None:
    """RFC 3986 sec. 3.1 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )."""
    if colon == 0:
        out.append(ErrorRecord(0, 1, Kind.SCHEME, "scheme", Detail.EMPTY_SCHEME))
        return
    if not ("A" <= text[0] <= "Z" or "a" <= text[0] <= "z"):
        out.append(ErrorRecord(0, 1, _code(text[0], "scheme", profile), "scheme", None, True))
    _component_errors(text, Span(1, colon), "scheme", profile, out)


def _component_errors(text: str, span: Span, component: str, profile: Profile, out: list[ErrorRecord]) -> None:
    """Every malformed '%' and disallowed character of one component (RFC 3987 sec. 2.2), runs as one."""
    if clean_regex(profile, component).fullmatch(text, *span) is not None and (
            text.isascii() or component in NO_PCT or all_ucschar(text[span.start : span.end])):
        return  # the usual case: nothing wrong in it
    rx = error_regex(profile, component)
    first = rx.match(text, *span)
    if first is None or first.lastindex is None:
        return  # the usual case: nothing wrong in it
    codes = _codes(profile, component)
    # the named tuple's generated __new__ is a Python call: hostile text makes a record per character
    new = tuple.__new__
    for m in rx.finditer(text, *span):
        a, b = m.span(1)
        if a >= 0:  # a malformed '%' or a run of one 3987bis sec. 6.3 group
            code = codes.get(text[a]) or _code(text[a], component, profile)
            out.append(new(ErrorRecord, (a, b, code, component, None, True)))
            continue
        a, end = m.span(2)  # other characters: an error for each run of one repeated character
        while a < end:
            c = text[a]
            b = a + 1
            while b < end and text[b] == c:
                b += 1
            code = codes.get(c) or _code(c, component, profile)
            out.append(new(ErrorRecord, (a, b, code, component, None, True)))
            a = b


@functools.cache
def _codes(profile: Profile, component: str) -> dict[str, Kind]:
    """The error kinds of the characters met so far in ``component``, filled by ``_code``."""
    return {} if component in NO_PCT else {"%": Kind.PERCENT}  # elsewhere '%' is a malformed pct-encoded


def _code(c: str, component: str, profile: Profile) -> Kind:
    """The error kind of character ``c`` in ``component`` (RFC 3987 sec. 2.2, 3987bis sec. 6.3)."""
    codes = _codes(profile, component)
    code = codes.get(c)
    if code is None:
        code = codes[c] = char_problem(c, 0, component, profile)[0]
    return code


# ---------------------------------------------------------------- IP literals (RFC 3986 sec. 3.2.2)

# a comma-separated list of host[:port], each host a reg-name/IPv4 or a bracketed IPv6 address
# (what a bracket holds is checked as an IP literal, what a port holds as a port: a list with a typo in one port,
# "h1:5432,h2:54e2", is still the list, its typo the finding)
_HOST_ITEM = r"(?:\[[^\[\]]*+\]|[^,:\[\]]++)(?::[^,:\[\]]*+)?+"
_host_list = lazy_regex(f"{_HOST_ITEM}(?:,{_HOST_ITEM})++")
_host_item = lazy_regex(r"(?:(\[[^\[\]]*+\])|([^,:\[\]]++))(?::([^,:\[\]]*+))?+")

# Schemes whose own connection-string grammar gives the authority as a list of hosts, each with
# its port: a list there is one authority of that scheme, not a broken port.
HOST_LIST_SCHEMES = frozenset({
    "postgres", "postgresql",  # libpq connection URIs (PostgreSQL docs 34.1.1.2, multiple hosts)
    "mongodb",  # MongoDB connection string spec: host1[:port1][,...hostN[:portN]]
    # django-environ's cache URLs (its documented memcached and redis server lists)
    "memcache", "pymemcache", "pylibmc", "rediscache",
    # django-cache-url's ("separate the HOST:PORT pair by commas", its README; outside10 repro 02)
    "memcached", "pymemcached", "djangopylibmc",
    # Redis Sentinel URLs list the sentinels (Redis-Sentinel-Url, redisvl: "redis+sentinel://h1:26379,h2:26379/
    # service/db"; fixtures206 repro 03); plain redis:// names one server
    "redis+sentinel", "rediss+sentinel",
})
# Authorities that a scheme's own documentation gives a meaning other than host[:port]
SPECIAL_AUTHORITIES = {
    "sqlite": ":memory:",  # an in-memory database (dj-database-url, django-environ)
}


def _host_list_kind(text: str, scheme: Span | None, host: Span, port: Span, profile: Profile,
                    out: list[ErrorRecord]) -> HostKind | None:
    """One error for an authority that is not host[:port] but a known other thing: an IPv6 address
    without its brackets, or a comma-separated list of hosts (libpq, MongoDB multi-host strings).
    Each colon would otherwise be a bad port character: one root cause, one finding. Under a scheme
    whose grammar has host lists, each host of the list is checked as a host instead, and a scheme's
    documented special authority is no error."""
    whole = text[host.start : port.end]
    name = text[scheme.start : scheme.end].lower() if scheme is not None else ""
    if SPECIAL_AUTHORITIES.get(name) == whole:
        return HostKind.REG_NAME
    if is_ipv6(whole):
        out.append(ErrorRecord(host.start, port.end, Kind.IP_LITERAL, "host", Detail.UNBRACKETED_IPV6))
        return HostKind.IPV6
    close = whole.find("]")  # (its '[' lost: "::1]/", "fe80::1]:8080": the same address, one error; outside48)
    if close > 0 and is_ipv6(whole[:close]) and (close + 1 == len(whole) or (  # (a port may be empty: *DIGIT)
            whole[close + 1] == ":" and (close + 2 == len(whole) or is_digits(whole[close + 2 :])))):
        out.append(ErrorRecord(host.start, host.start + close, Kind.IP_LITERAL, "host", Detail.UNBRACKETED_IPV6))
        return HostKind.IPV6
    return _listed_hosts(text, scheme, host, port.end, profile, out)


def _listed_hosts(text: str, scheme: Span | None, host: Span, end: int, profile: Profile,
                  out: list[ErrorRecord]) -> HostKind | None:
    """A comma-separated list of host[:port] from ``host`` to ``end``, a bracketed IPv6 address first or not:
    under a scheme whose grammar lists hosts, each host checked as one; elsewhere one error for the list."""
    if not _host_list().fullmatch(text, host.start, end):
        return None
    items = list(_host_item().finditer(text, host.start, end))
    if not any(m.start(3) >= 0 and is_digits(m.group(3)) for m in items) and not text.startswith("[", host.start):
        return None  # (no port is one: "h,a:\ue000" is a host and its wrong port, not a list; "h1:5432,h2:54e2" is)
    if (text[scheme.start : scheme.end].lower() if scheme is not None else "") not in HOST_LIST_SCHEMES:
        out.append(ErrorRecord(host.start, end, Kind.COMPONENT_CHAR, "host", Detail.HOST_LIST))
        return HostKind.REG_NAME
    for item in items:
        if item.start(1) >= 0:
            _check_ip_literal(text, item.start(1), item.end(1), True, profile, out)
        else:
            _component_errors(text, Span(*item.span(2)), "host", profile, out)
        if item.start(3) >= 0:
            _component_errors(text, Span(*item.span(3)), "port", profile, out)
    return HostKind.IPV6 if text.startswith("[", host.start) else HostKind.REG_NAME


def _ip_literal_host(text: str, authority_rest: Span, profile: Profile,
                     out: list[ErrorRecord]) -> tuple[Span, Span | None, HostKind]:
    """Host and port of an authority whose host starts with '['; their errors go to ``out``."""
    start, end = authority_rest
    close = text.find("]", start, end)
    if close < 0:
        return Span(start, end), None, _check_ip_literal(text, start, end, False, profile, out)
    host_kind = _check_ip_literal(text, start, close + 1, True, profile, out)
    port = None
    if close + 1 < end:
        colon = text.find(":", close + 1, end)
        junk_end = end if colon < 0 else colon
        if colon >= 0:
            port = Span(colon + 1, end)
            _component_errors(text, port, "port", profile, out)
        if junk_end > close + 1:
            _after_ip_literal(text, close + 1, junk_end, profile, out)
    return Span(start, close + 1), port, host_kind


def _check_ip_literal(text: str, start: int, end: int, closed: bool, profile: Profile,
                      out: list[ErrorRecord]) -> HostKind:
    """IP-literal = "[" ( IPv6address / IPvFuture ) "]" (RFC 3986 sec. 3.2.2; no zone identifier, RFC 9844).

    Characters of a 3987bis sec. 6.3 group inside get their own code; the literal as a whole
    (without them) gets IRI113 when it is still not one of those forms.
    """
    inner = _group_errors(text, start + 1, end - 1 if closed else end, profile, out)
    if not closed:
        out.append(ErrorRecord(start, end, Kind.IP_LITERAL, "host", Detail.UNCLOSED_IP_LITERAL))
        return HostKind.IPV6
    if inner[:1] in ("v", "V"):
        if not ipvfuture_regex().fullmatch(inner):
            out.append(ErrorRecord(start, end, Kind.IP_LITERAL, "host", Detail.BAD_IPVFUTURE))
        return HostKind.IPVFUTURE
    address, pct, _ = inner.partition("%")
    if pct and is_ipv6(address):
        at = text.index("%", start, end)
        out.append(ErrorRecord(at, end - 1, Kind.ZONE_ID, "host", None))
    elif not is_ipv6(inner):
        out.append(ErrorRecord(start, end, Kind.IP_LITERAL, "host", Detail.BAD_IPV6))
    return HostKind.IPV6


def _group_errors(text: str, start: int, end: int, profile: Profile, out: list[ErrorRecord]) -> str:
    """Report each character of [start, end) that is an error even in an IP literal; return the rest."""
    rx = ip_literal_error_chars(profile)
    if rx.search(text, start, end) is None:
        return text[start:end]
    for m in rx.finditer(text, start, end):
        pos = m.start()
        out.append(ErrorRecord(pos, pos + 1, _code(text[pos], "host", profile), "host", None))
    return rx.sub("", text[start:end])


def _after_ip_literal(text: str, start: int, end: int, profile: Profile, out: list[ErrorRecord]) -> None:
    """Anything between ']' and ':' port: one error, plus one per group character (RFC 3986 sec. 3.2)."""
    first = group_kind(text[start], profile)
    if first is not None:
        out.append(ErrorRecord(start, start + 1, first, "host", None))
    else:
        out.append(ErrorRecord(start, end, Kind.COMPONENT_CHAR, "host", Detail.AFTER_IP_LITERAL))
    _group_errors(text, start + 1, end, profile, out)


# ---------------------------------------------------------------- 3987bis sec. 6 preprocessing


def _scan_preprocessed(text: str, kind: str, profile: Profile) -> IRIReference:
    """A LEIRI or Web Address: preprocess it into an IRI (3987bis sec. 6.1, 6.2), then scan that."""
    processed, notes, origin = preprocess(text, profile)
    ref = _valid_reference(processed, kind, Profile.IRI_BIS) or _scan_errors(processed, kind, Profile.IRI_BIS)
    return ref._replace(profile=profile, original=text, preprocessing=tuple(notes), origin=tuple(origin))
