"""The scanner against the ABNF of RFC 3987 sec. 2.2 (and 3987bis-06 sec. 2.2, 6), production by production."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from iri_lint.core import (
    HostKind,
    IRIReference,
    IRISyntaxError,
    Profile,
    Span,
    grammar,
    is_valid,
    parse,
    scan,
    scanner,
    validate,
)
from iri_lint.core import errors as E
from iri_lint.core import errors as core_errors
from iri_lint.core.reference import ErrorRecord
from iri_lint.core.scanner import _scan_errors as _scan

KINDS = ("IRI-reference", "IRI", "absolute-IRI", "irelative-ref")
PROFILES = ("uri", "iri", "iri-3987bis", "leiri", "web-address")


def codes(text: str, kind: str = "IRI-reference", profile: str = "iri") -> list[tuple[str, int]]:
    """(code, position) of every error, in order."""
    return [(e.code, e.position) for e in scan(text, kind, profile).errors]


def comps(text: str, kind: str = "IRI-reference", profile: str = "iri") -> dict[str, str | None]:
    ref = scan(text, kind, profile)
    assert ref.errors == (), ref.errors
    return ref.components()


def check_spans(ref: IRIReference) -> None:
    """Every span's text is its component; fast and slow scanners agree."""
    for name in grammar.COMPONENTS:
        span = getattr(ref, name)
        if span is not None:
            assert isinstance(span, Span)
            assert 0 <= span.start <= span.end <= len(ref.text)
            assert ref.text[span.start : span.end] == ref.get(name)


# ---------------------------------------------------------------- scheme (RFC 3986 sec. 3.1)

@pytest.mark.parametrize("text", ["a:", "a:b", "A:b", "z0+-.:x", "http:", "HTTP://x", "a1:b",
                                  "x-y.z+w:q", "urn:isbn:0451450523", "mailto:a@b.c"])
def test_valid_schemes(text: str) -> None:
    ref = parse(text, "IRI")
    assert ref.get("scheme") == text.split(":")[0]


@pytest.mark.parametrize(("text", "expected"), [
    ("1a:b", [(E.SCHEME, 0)]),
    ("+a:b", [(E.SCHEME, 0)]),
    ("-a:b", [(E.SCHEME, 0)]),
    (".a:b", [(E.SCHEME, 0)]),
    (":b", [(E.SCHEME, 0)]),
    ("a_b:c", [(E.SCHEME, 1)]),
    ("a~b:c", [(E.SCHEME, 1)]),
    ("a%41:c", [(E.SCHEME, 1)]),
    ("a!b:c", [(E.SCHEME, 1)]),
    ("a@b:c", [(E.SCHEME, 1)]),
    ("a[b]:c", [(E.SCHEME, 1), (E.SCHEME, 3)]),
    ("1_:x", [(E.SCHEME, 0), (E.SCHEME, 1)]),
    ("ht tp://x", [(E.SPACE, 2)]),
    (" http://x", [(E.SPACE, 0)]),
    ("<http://x", [(E.DELIMITER, 0)]),
    ("\\a:b", [(E.UNWISE, 0)]),
    ("\x00a:b", [(E.CONTROL, 0)]),
    ("h\ttp:x", [(E.CONTROL, 1)]),
    ("é:x", [(E.SCHEME, 0)]),
    ("hé:x", [(E.SCHEME, 1)]),
    ("h\ue000:x", [(E.PRIVATE_USE, 1)]),
    ("h\U000e0041:x", [(E.TAG, 1)]),
    ("h\ud800:x", [(E.SURROGATE, 1)]),
    ("h\ufffe:x", [(E.NONCHARACTER, 1)]),
    ("h\ufff9:x", [(E.SPECIAL, 1)]),
])
def test_bad_schemes(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text) == expected
    assert codes(text, "IRI") == expected


def test_non_ascii_scheme_in_uri_profile() -> None:
    assert codes("hé:x", profile="uri") == [(E.NON_ASCII_IN_URI, 1)]


def test_scheme_must_start_with_letter_message() -> None:
    err = validate("1a:b")[0]
    assert "start with a letter" in err.message
    assert err.component == "scheme"


# ---------------------------------------------------------------- kinds

@pytest.mark.parametrize(("text", "kind", "ok"), [
    ("http://a/b?c#d", "IRI-reference", True),
    ("http://a/b?c#d", "IRI", True),
    ("http://a/b?c#d", "absolute-IRI", False),
    ("http://a/b?c#d", "irelative-ref", False),
    ("http://a/b?c", "absolute-IRI", True),
    ("http://a/b#", "absolute-IRI", False),
    ("http://a/b#", "IRI", True),
    ("//a/b?c#d", "irelative-ref", True),
    ("//a/b?c#d", "IRI-reference", True),
    ("//a/b?c#d", "IRI", False),
    ("//a/b?c#d", "absolute-IRI", False),
    ("", "IRI-reference", True),
    ("", "irelative-ref", True),
    ("", "IRI", False),
    ("", "absolute-IRI", False),
    ("#f", "irelative-ref", True),
    ("?q", "irelative-ref", True),
    ("a:b", "irelative-ref", False),
    ("./a:b", "irelative-ref", True),
    ("a/b:c", "irelative-ref", True),
    ("a:b", "IRI", True),
    ("a:b", "absolute-IRI", True),
])
def test_kinds(text: str, kind: str, ok: bool) -> None:
    for profile in ("uri", "iri", "iri-3987bis"):
        assert is_valid(text, kind, profile) is ok, (text, kind, profile)


def test_missing_scheme_code() -> None:
    assert codes("//a/b", "IRI") == [(E.MISSING_SCHEME, 0)]
    assert codes("a/b", "absolute-IRI") == [(E.MISSING_SCHEME, 0)]
    assert codes("", "IRI") == [(E.MISSING_SCHEME, 0)]


def test_fragment_not_allowed_in_absolute_iri() -> None:
    errs = validate("http://a/b#frag", "absolute-IRI")
    assert [(e.code, e.position, e.end) for e in errs] == [(E.FRAGMENT_NOT_ALLOWED, 10, 15)]
    assert codes("a:#", "absolute-IRI") == [(E.FRAGMENT_NOT_ALLOWED, 2)]
    # both problems of the fragment are reported
    assert codes("a:#x y", "absolute-IRI") == [(E.FRAGMENT_NOT_ALLOWED, 2), (E.SPACE, 4)]


def test_relative_ref_colon_in_first_segment() -> None:
    assert codes("a:b", "irelative-ref") == [(E.COMPONENT_CHAR, 1)]
    # every colon of the first segment, none after it
    assert codes("a:b:c/d:e", "irelative-ref") == [(E.COMPONENT_CHAR, 1), (E.COMPONENT_CHAR, 3)]
    assert codes(":", "irelative-ref") == [(E.COMPONENT_CHAR, 0)]
    assert codes("http://x", "irelative-ref") == [(E.COMPONENT_CHAR, 4)]
    assert codes("a?b:c", "irelative-ref") == []
    assert codes("a#b:c", "irelative-ref") == []
    assert codes("/a:b", "irelative-ref") == []
    assert codes("@a:b", "irelative-ref") == [(E.COMPONENT_CHAR, 2)]


def test_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        scan("a:b", "URI")
    with pytest.raises(ValueError, match="unknown kind"):
        scan("http://[::1]/", "iri")


def test_unknown_profile() -> None:
    with pytest.raises(ValueError):
        scan("a:b", profile="nope")


# ---------------------------------------------------------------- authority (RFC 3986 sec. 3.2)

@pytest.mark.parametrize(("text", "userinfo", "host", "port"), [
    ("http://", None, "", None),
    ("http://a", None, "a", None),
    ("http://a:", None, "a", ""),
    ("http://a:0", None, "a", "0"),
    ("http://a:65536", None, "a", "65536"),
    ("http://a:0000080", None, "a", "0000080"),
    ("http://@a", "", "a", None),
    ("http://@", "", "", None),
    ("http://:", None, "", ""),
    ("http://u@", "u", "", None),
    ("http://u:p@h:1", "u:p", "h", "1"),
    ("http://u:p:q@h", "u:p:q", "h", None),
    ("http://::@h", "::", "h", None),
    ("http://%41%42@h", "%41%42", "h", None),
    ("http://!$&'()*+,;=@!$&'()*+,;=", "!$&'()*+,;=", "!$&'()*+,;=", None),
    ("http://-._~@-._~", "-._~", "-._~", None),
    ("http://ü@ü:1", "ü", "ü", "1"),
    ("http://%C3%BC.example", None, "%C3%BC.example", None),
    ("http://[::1]", None, "[::1]", None),
    ("http://[::1]:", None, "[::1]", ""),
    ("http://[::1]:8080", None, "[::1]", "8080"),
    ("http://u@[::1]:8080", "u", "[::1]", "8080"),
    ("//h", None, "h", None),
    ("//", None, "", None),
    ("///", None, "", None),
    ("file:///x", None, "", None),
])
def test_authority_parts(text: str, userinfo: str | None, host: str, port: str | None) -> None:
    ref = parse(text)
    assert ref.get("userinfo") == userinfo
    assert ref.get("host") == host
    assert ref.get("port") == port
    check_spans(ref)
    assert ref.authority is not None
    assert text[ref.authority.start - 2 : ref.authority.start] == "//"


@pytest.mark.parametrize(("text", "kind"), [
    ("http://1.2.3.4/", HostKind.IPV4),
    ("http://0.0.0.0", HostKind.IPV4),
    ("http://255.255.255.255", HostKind.IPV4),
    ("http://249.250.199.100", HostKind.IPV4),
    ("http://256.1.1.1/", HostKind.REG_NAME),
    ("http://1.2.3.256/", HostKind.REG_NAME),
    ("http://01.2.3.4/", HostKind.REG_NAME),
    ("http://1.2.3/", HostKind.REG_NAME),
    ("http://1.2.3.4.5/", HostKind.REG_NAME),
    ("http://1.2.3.4./", HostKind.REG_NAME),
    ("http://1..3.4/", HostKind.REG_NAME),
    ("http://example.com", HostKind.REG_NAME),
    ("http://", HostKind.REG_NAME),
    ("http://%31.2.3.4", HostKind.REG_NAME),
    ("http://[::1]", HostKind.IPV6),
    ("http://[v1.x]", HostKind.IPVFUTURE),
    ("http://[V1.x]", HostKind.IPVFUTURE),
])
def test_host_kinds(text: str, kind: HostKind) -> None:
    ref = parse(text)
    assert ref.host_kind is kind
    assert _scan(text, "IRI-reference", Profile.IRI).host_kind is kind


def test_no_authority_no_host_kind() -> None:
    ref = parse("a:b")
    assert ref.host is None and ref.host_kind is None and ref.authority is None


@pytest.mark.parametrize(("text", "expected"), [
    ("http://a:b", [(E.PORT, 9)]),
    ("http://a:1b2", [(E.PORT, 10)]),
    ("http://a:80:80", [(E.PORT, 11)]),
    ("http://a:-1", [(E.PORT, 9)]),
    ("http://a:+1", [(E.PORT, 9)]),
    ("http://a:%31", [(E.PORT, 9)]),
    ("http://a:8 0", [(E.SPACE, 10)]),
    ("http://a:٣", [(E.PORT, 9)]),
    ("http://[::1]:x", [(E.PORT, 13)]),
    ("http://a:1\ue000", [(E.PRIVATE_USE, 10)]),
])
def test_bad_ports(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text) == expected


def test_non_ascii_port_in_uri_profile() -> None:
    assert codes("http://a:٣", profile="uri") == [(E.NON_ASCII_IN_URI, 9)]


@pytest.mark.parametrize(("text", "expected"), [
    ("http://a b", [(E.SPACE, 8)]),
    ("http://a_b", []),
    ("http://a@b@c", [(E.COMPONENT_CHAR, 8)]),
    ("http://a[b", [(E.COMPONENT_CHAR, 8)]),
    ("http://a]b", [(E.COMPONENT_CHAR, 8)]),
    ("http://a[b]", [(E.COMPONENT_CHAR, 8), (E.COMPONENT_CHAR, 10)]),
    ("http://u[@h", [(E.COMPONENT_CHAR, 8)]),
    ("http://u p@h p", [(E.SPACE, 8), (E.SPACE, 12)]),
    ("http://a<b>", [(E.DELIMITER, 8), (E.DELIMITER, 10)]),
    ('http://a"', [(E.DELIMITER, 8)]),
    ("http://a{|}\\^`", [(E.UNWISE, 8)]),  # one error for the run of the group (it spans 8-14)
    ("http://\x7f", [(E.CONTROL, 7)]),
    ("http://a\ue000", [(E.PRIVATE_USE, 8)]),
    ("http://\ue000@a", [(E.PRIVATE_USE, 7)]),
    ("http://a%", [(E.PERCENT, 8)]),
    ("http://a%2", [(E.PERCENT, 8)]),
    ("http://a%zz", [(E.PERCENT, 8)]),
    ("http://u%@a", [(E.PERCENT, 8)]),
])
def test_bad_hosts_and_userinfo(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text) == expected


def test_userinfo_and_host_components_named() -> None:
    errs = validate("http://u p@h p")
    assert [e.component for e in errs] == ["userinfo", "host"]


# ---------------------------------------------------------------- IP-literal (RFC 3986 sec. 3.2.2)

VALID_IPV6 = [
    # 6( h16 ":" ) ls32
    "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "ffff:FFFF:0:00:000:0000:aBcD:1",
    # "::" 5( h16 ":" ) ls32
    "::2:3:4:5:6:7:8", "::2:3:4:5:6:1.2.3.4",
    # [ h16 ] "::" 4( h16 ":" ) ls32
    "1::3:4:5:6:7:8", "::3:4:5:6:7:8", "1::3:4:5:6:1.2.3.4",
    # [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
    "1:2::4:5:6:7:8", "1:2::4:5:6:1.2.3.4", "::4:5:6:7:8",
    # [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
    "1:2:3::5:6:7:8", "1:2:3::5:6:1.2.3.4", "::5:6:7:8",
    # [ *3( h16 ":" ) h16 ] "::" h16 ":" ls32
    "1:2:3:4::6:7:8", "1:2:3:4::6:1.2.3.4", "::6:7:8",
    # [ *4( h16 ":" ) h16 ] "::" ls32
    "1:2:3:4:5::7:8", "1:2:3:4:5::1.2.3.4", "::7:8", "::1.2.3.4", "::ffff:192.168.0.1",
    # [ *5( h16 ":" ) h16 ] "::" h16
    "1:2:3:4:5:6::8", "::8", "::1", "1::8",
    # [ *6( h16 ":" ) h16 ] "::"
    "1:2:3:4:5:6:7::", "1::", "::", "fe80::",
    "::255.255.255.255", "::0.0.0.0", "2001:db8::ff00:42:8329",
]

INVALID_IPV6 = [
    "", ":", ":::", "1:::2", "::1::", "1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "1:2:3:4::5:6:7:8", "12345::", "::12345",
    "1:2:3:4:5:6:7:12345", "g::", "::g", ":1::", "::1:", "1:", ":1", "1:2:3:4:5:6:7:8:",
    "::256.1.1.1", "::1.2.3.256", "::01.2.3.4", "::1.2.3", "::1.2.3.4.5", "::x1.2.3.4",
    "::1.2.3.4:1", "1.2.3.4::", "1.2.3.4::1", "::1.2.3.4:5:6", "1:2:3:4:5:6:7:1.2.3.4",
    "1:2:3:4:5:6::1.2.3.4", "1::2:3:4:5:6:1.2.3.4", "::ffff:1.2.3.4.", "::1 ", "::-1",
    "1:2:3:4:5:6:1.2.3.4:8", "::a.b.c.d", "::+1", "1::2:3:4:5:6:7:8",
]


@pytest.mark.parametrize("addr", VALID_IPV6)
def test_valid_ipv6(addr: str) -> None:
    for profile in ("uri", "iri", "iri-3987bis"):
        ref = parse(f"http://[{addr}]:80/p", profile=profile)
        assert ref.host_kind is HostKind.IPV6
        assert ref.get("host") == f"[{addr}]"
        assert ref.get("port") == "80"
        assert ref.get("path") == "/p"


@pytest.mark.parametrize("addr", [a for a in INVALID_IPV6 if " " not in a])
def test_invalid_ipv6(addr: str) -> None:
    assert codes(f"http://[{addr}]/") == [(E.IP_LITERAL, 7)]
    err = validate(f"http://[{addr}]/")[0]
    assert err.end == 7 + len(addr) + 2 and err.component == "host"


@pytest.mark.parametrize("lit", ["v1.x", "V1.x", "vF.a:b", "v1a2B.-._~!$&'()*+,;=:", "vA.1", "v0.0"])
def test_valid_ipvfuture(lit: str) -> None:
    ref = parse(f"http://[{lit}]:1/")
    assert ref.host_kind is HostKind.IPVFUTURE and ref.get("host") == f"[{lit}]"


@pytest.mark.parametrize("lit", ["v", "v1", "v1.", "v.x", "vg.x", "v1.x/", "v1.%41", "v1.é", "w1.x",
                                 "v1.x[", "v1x", "v1.x?"])
def test_invalid_ipvfuture(lit: str) -> None:
    assert codes(f"http://[{lit}]") in ([(E.IP_LITERAL, 7)], [(E.IP_LITERAL, 7), (E.COMPONENT_CHAR, 8 + len(lit))]), lit


def test_ip_literal_cut_by_delimiters() -> None:
    # '/', '?', '#' end the authority, '@' ends the userinfo (RFC 3986 sec. 3.2)
    assert codes("http://[v1.x/]/") == [(E.IP_LITERAL, 7), (E.COMPONENT_CHAR, 13)]
    assert codes("http://[::1?]") == [(E.IP_LITERAL, 7), (E.COMPONENT_CHAR, 12)]
    assert codes("http://[v1.x@]/") == [(E.COMPONENT_CHAR, 7), (E.COMPONENT_CHAR, 13)]


def test_ipvfuture_non_ascii_in_uri_profile() -> None:
    assert codes("http://[v1.é]/", profile="uri") == [(E.NON_ASCII_IN_URI, 11), (E.IP_LITERAL, 7)][::-1]


@pytest.mark.parametrize("profile", ["uri", "iri", "iri-3987bis", "leiri", "web-address"])
def test_zone_ids_are_not_uri_syntax(profile: str) -> None:
    """RFC 3987 sec. 2.2 has no zone identifiers, and RFC 9844 removed RFC 6874's: whatever its form,
    a zone is one error spanning it, saying why and what to do (pass it out of band)."""
    for text, zone in (("http://[fe80::1%25eth0]/", "%25eth0"), ("http://[fe80::1%25en1]:80/", "%25en1"),
                       ("http://[::1%25%C3%BC]/", "%25%C3%BC"), ("http://[fe80::1%eth0]/", "%eth0"),
                       ("http://[fe80::1%25]/", "%25")):
        assert not is_valid(text, profile=profile), text
        ref = scan(text, profile=profile)
        assert ref.host_kind is HostKind.IPV6
        (error,) = validate(text, profile=profile)
        assert (error.code, error.position, error.end) == (E.ZONE_ID, text.index("%"), text.index("]"))
        assert "RFC 9844" in error.message and "out of band" in error.message
        assert zone in error.message or profile == "web-address"  # (which encodes a bare '%' first)
    assert is_valid("http://[fe80::1]/", profile=profile)
    # '%' in something that is not an IPv6 address: a plain malformed literal
    assert codes("http://[x%25]/") == [(E.IP_LITERAL, 7)]


def test_ip_literal_structure_errors() -> None:
    assert codes("http://[::1") == [(E.IP_LITERAL, 7)]
    assert codes("http://[::1/x") == [(E.IP_LITERAL, 7)]
    assert codes("http://[") == [(E.IP_LITERAL, 7)]
    assert codes("http://[]") == [(E.IP_LITERAL, 7)]
    assert codes("http://[::1]x") == [(E.COMPONENT_CHAR, 12)]
    assert codes("http://[::1]x:80") == [(E.COMPONENT_CHAR, 12)]
    assert parse_ok_port("http://[::1]x:80") == "80"
    assert codes("http://[::1]]") == [(E.COMPONENT_CHAR, 12)]
    assert codes("http://x[::1]") == [(E.COMPONENT_CHAR, 8), (E.PORT, 10), (E.PORT, 12)]
    assert codes("http://[::1]@x") == [(E.COMPONENT_CHAR, 7), (E.COMPONENT_CHAR, 11)]
    # text before the first ':' is a scheme for the kinds that allow one
    assert codes("[::1]") == [(E.SCHEME, 0), (E.COMPONENT_CHAR, 4)]
    assert codes("[::1]", "irelative-ref") == [
        (E.COMPONENT_CHAR, 0), (E.COMPONENT_CHAR, 1), (E.COMPONENT_CHAR, 2), (E.COMPONENT_CHAR, 4)]
    assert codes("a:[::1]") == [(E.COMPONENT_CHAR, 2), (E.COMPONENT_CHAR, 6)]


def parse_ok_port(text: str) -> str | None:
    return scan(text).get("port")


def test_group_characters_inside_ip_literals_keep_their_code() -> None:
    assert codes("http://[::1 ]/") == [(E.SPACE, 11)]
    assert codes("http://[:: 1]/") == [(E.SPACE, 10)]
    # IRI113 only when the literal is still malformed without the group characters
    assert codes("http://[1 2::]/") == [(E.SPACE, 9)]
    assert codes("http://[1 2:::]/") == [(E.IP_LITERAL, 7), (E.SPACE, 9)]
    assert codes("http://[::1\x00") == [(E.IP_LITERAL, 7), (E.CONTROL, 11)]
    assert codes("http://[v1.<>]/") == [(E.IP_LITERAL, 7), (E.DELIMITER, 11), (E.DELIMITER, 12)]
    assert codes("http://[::1]{}:1") == [(E.UNWISE, 12), (E.UNWISE, 13)]
    assert codes("http://[::é]/") == [(E.IP_LITERAL, 7)]
    assert codes("http://[::é]/", profile="uri") == [(E.NON_ASCII_IN_URI, 10)]
    assert codes("http://[::1é]/", profile="uri") == [(E.NON_ASCII_IN_URI, 11)]
    assert codes("http://[::1é]/") == [(E.IP_LITERAL, 7)]


# ---------------------------------------------------------------- paths (RFC 3986 sec. 3.3)

@pytest.mark.parametrize(("text", "path", "segments"), [
    # ipath-abempty
    ("http://h", "", []),
    ("http://h/", "/", [""]),
    ("http://h//", "//", ["", ""]),
    ("http://h/a/b/", "/a/b/", ["a", "b", ""]),
    ("http://h//a", "//a", ["", "a"]),
    ("http://h/a:b@c", "/a:b@c", ["a:b@c"]),
    # ipath-absolute
    ("a:/", "/", [""]),
    ("a:/b", "/b", ["b"]),
    ("a:/b//c", "/b//c", ["b", "", "c"]),
    ("/", "/", [""]),
    ("/a:b", "/a:b", ["a:b"]),
    # ipath-rootless
    ("a:b", "b", ["b"]),
    ("a:b/c", "b/c", ["b", "c"]),
    ("a::", ":", [":"]),
    ("a:b:c", "b:c", ["b:c"]),
    ("a:@", "@", ["@"]),
    # ipath-noscheme
    ("b", "b", ["b"]),
    ("b/c:d", "b/c:d", ["b", "c:d"]),
    ("@x:y/", None, None),
    (".", ".", ["."]),
    ("..", "..", [".."]),
    ("../a", "../a", ["..", "a"]),
    ("./a:b", "./a:b", [".", "a:b"]),
    ("%41:b", None, None),
    # ipath-empty
    ("a:", "", []),
    ("", "", []),
    ("?q", "", []),
    ("#f", "", []),
    ("a:?q", "", []),
])
def test_paths(text: str, path: str | None, segments: list[str] | None) -> None:
    ref = scan(text)
    if path is None:  # a colon in a first segment makes it a (bad) scheme
        assert ref.errors
        return
    assert ref.errors == ()
    assert ref.get("path") == path
    assert [text[s.start : s.end] for s in ref.segments] == segments
    check_spans(ref)


def test_double_slash_after_scheme_is_authority() -> None:
    ref = parse("a://b/c")
    assert ref.get("authority") == "b" and ref.get("path") == "/c"
    ref = parse("a:///c")
    assert ref.get("authority") == "" and ref.get("path") == "/c"
    ref = parse("a:/b//c")
    assert ref.authority is None and ref.get("path") == "/b//c"


@pytest.mark.parametrize(("text", "expected"), [
    ("a:b c", [(E.SPACE, 3)]),
    ("/a b/c d", [(E.SPACE, 2), (E.SPACE, 6)]),
    ("a:[", [(E.COMPONENT_CHAR, 2)]),
    ("a:]", [(E.COMPONENT_CHAR, 2)]),
    ("a:<b>", [(E.DELIMITER, 2), (E.DELIMITER, 4)]),
    ('a:"', [(E.DELIMITER, 2)]),
    ("a:\\", [(E.UNWISE, 2)]),
    ("a:^", [(E.UNWISE, 2)]),
    ("a:`", [(E.UNWISE, 2)]),
    ("a:{", [(E.UNWISE, 2)]),
    ("a:|", [(E.UNWISE, 2)]),
    ("a:}", [(E.UNWISE, 2)]),
    ("a:\x00", [(E.CONTROL, 2)]),
    ("a:\x1f", [(E.CONTROL, 2)]),
    ("a:\x7f", [(E.CONTROL, 2)]),
    ("a:\n", [(E.CONTROL, 2)]),
    ("a:\x80", [(E.CONTROL, 2)]),
    ("a:\x9f", [(E.CONTROL, 2)]),
    ("a:\ue000", [(E.PRIVATE_USE, 2)]),
    ("a:\U000e0001", [(E.TAG, 2)]),
    ("a:\ufffd", [(E.SPECIAL, 2)]),
    ("a:\ufdd0", [(E.NONCHARACTER, 2)]),
    ("a:\udfff", [(E.SURROGATE, 2)]),
    ("c:\\windows", [(E.UNWISE, 2)]),
])
def test_bad_path_characters(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text) == expected


# ---------------------------------------------------------------- query and fragment

def test_query_and_fragment_components() -> None:
    assert comps("a:b?c/d?e:@#f/g?h:@") == {
        "scheme": "a", "authority": None, "userinfo": None, "host": None, "port": None,
        "path": "b", "query": "c/d?e:@", "fragment": "f/g?h:@"}
    assert comps("a:?") ["query"] == ""
    assert comps("a:#")["fragment"] == ""
    assert comps("a:?#")["query"] == ""
    assert comps("a:#?")["fragment"] == "?"
    assert comps("a:?#")["fragment"] == ""
    assert comps("a:?a?b")["query"] == "a?b"
    assert comps("a:b?#c")["fragment"] == "c"


def test_hash_inside_fragment() -> None:
    assert codes("a:#b#c") == [(E.COMPONENT_CHAR, 4)]
    assert codes("a:##") == [(E.COMPONENT_CHAR, 3)]


@pytest.mark.parametrize("c", ["[", "]"])
def test_brackets_in_query_and_fragment(c: str) -> None:
    assert codes(f"a:?{c}") == [(E.COMPONENT_CHAR, 3)]
    assert codes(f"a:#{c}") == [(E.COMPONENT_CHAR, 3)]


@pytest.mark.parametrize("cp", [0xE000, 0xF8FF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD])
def test_iprivate_only_in_query(cp: int) -> None:
    c = chr(cp)
    for profile in ("iri", "iri-3987bis"):
        assert is_valid(f"a:?{c}", profile=profile)
        assert codes(f"a:#{c}", profile=profile) == [(E.PRIVATE_USE, 3)]
        assert codes(f"a:{c}", profile=profile) == [(E.PRIVATE_USE, 2)]
        assert codes(f"//{c}", profile=profile) == [(E.PRIVATE_USE, 2)]
        assert codes(f"//{c}@h", profile=profile) == [(E.PRIVATE_USE, 2)]
    assert codes(f"a:?{c}", profile="uri") == [(E.NON_ASCII_IN_URI, 3)]


@pytest.mark.parametrize("cp", [0xE0000, 0xE0001, 0xE007F, 0xE0FFF])
def test_tags_in_query_only_in_3987bis(cp: int) -> None:
    c = chr(cp)
    assert is_valid(f"a:?{c}", profile="iri-3987bis")
    assert codes(f"a:?{c}", profile="iri") == [(E.TAG, 3)]
    assert codes(f"a:#{c}", profile="iri-3987bis") == [(E.TAG, 3)]
    assert codes(f"a:{c}", profile="iri-3987bis") == [(E.TAG, 2)]
    assert codes(f"//{c}", profile="iri-3987bis") == [(E.TAG, 2)]
    assert codes(f"a:?{c}", profile="uri") == [(E.NON_ASCII_IN_URI, 3)]


def test_tag_neighbours() -> None:
    assert codes("a:?\U000e1000", profile="iri") == []  # first ucschar after the tags
    assert codes("a:\U000e1000") == []
    assert codes("a:?\U000dfffd") == []
    assert codes("a:?\U000dfffe") == [(E.NONCHARACTER, 3)]


# ---------------------------------------------------------------- pct-encoded (RFC 3986 sec. 2.1)

@pytest.mark.parametrize(("text", "expected"), [
    ("a:%", [(E.PERCENT, 2, 3)]),
    ("a:%4", [(E.PERCENT, 2, 4)]),
    ("a:%4G", [(E.PERCENT, 2, 4)]),
    ("a:%G4", [(E.PERCENT, 2, 3)]),
    ("a:%%41", [(E.PERCENT, 2, 3)]),
    ("a:%%", [(E.PERCENT, 2, 4)]),  # a run of bare "%" is one error
    ("a:%4%41", [(E.PERCENT, 2, 4)]),
    ("a:b%", [(E.PERCENT, 3, 4)]),
    ("a:b%?", [(E.PERCENT, 3, 4)]),
    ("a:b%4?x", [(E.PERCENT, 3, 5)]),
    ("a:?%", [(E.PERCENT, 3, 4)]),
    ("a:#%", [(E.PERCENT, 3, 4)]),
    ("a:#%a", [(E.PERCENT, 3, 5)]),
    ("//%/", [(E.PERCENT, 2, 3)]),
    ("//%@h", [(E.PERCENT, 2, 3)]),
    ("%", [(E.PERCENT, 0, 1)]),
    ("%2", [(E.PERCENT, 0, 2)]),
    ("a:%é1", [(E.PERCENT, 2, 3)]),
    ("a:% 1", [(E.PERCENT, 2, 3), (E.SPACE, 3, 4)]),
])
def test_bad_percent(text: str, expected: list[tuple[str, int, int]]) -> None:
    assert [(e.code, e.position, e.end) for e in validate(text)] == expected


@pytest.mark.parametrize("text", ["a:%41", "a:%aF", "a:%00", "a:%ff%FF", "%41:x", "//%41/%42?%43#%44",
                                  "a:%25", "//u%3A@h%2E", "a:%20"])
def test_good_percent(text: str) -> None:
    if text.startswith("%41:"):
        assert codes(text) == [(E.SCHEME, 0)]
        assert codes("./" + text) == []
    else:
        assert codes(text) == []


def test_percent_does_not_cross_components() -> None:
    # "%4" then "?": the hex digits must be in the same component
    assert codes("a:%4?1") == [(E.PERCENT, 2)]
    assert codes("a:%?41") == [(E.PERCENT, 2)]
    assert codes("//h%/41") == [(E.PERCENT, 3)]


# ---------------------------------------------------------------- profiles

def test_uri_profile_rejects_all_non_ascii() -> None:
    assert codes("http://ü/ü?ü#ü", profile="uri") == [
        (E.NON_ASCII_IN_URI, 7), (E.NON_ASCII_IN_URI, 9), (E.NON_ASCII_IN_URI, 11),
        (E.NON_ASCII_IN_URI, 13)]
    assert codes("http://u\u00e9@h", profile="uri") == [(E.NON_ASCII_IN_URI, 8)]
    # group characters keep their group code in the uri profile too
    assert codes("a:\x85\ufffd\ufdd0\ud800", profile="uri") == [
        (E.CONTROL, 2), (E.SPECIAL, 3), (E.NONCHARACTER, 4), (E.SURROGATE, 5)]
    assert is_valid("http://%C3%BC/", profile="uri")


def test_iri_profile_accepts_ucschar_everywhere_but_scheme_and_port() -> None:
    ref = parse("http://ü@ü/ü/ü?ü#ü")
    assert ref.get("userinfo") == "ü" and ref.get("fragment") == "ü"


def test_profile_enum_and_string_agree() -> None:
    for p in Profile:
        assert scan("a:b", profile=p).profile is p
        assert scan("a:b", profile=p.value).profile is p
        assert scan("a:b c", profile=p.value).profile is p


def test_bidi_formatting_is_ucschar() -> None:
    # RFC 3987 sec. 4.1 forbids them, but the ABNF accepts them; the bidi rules report them
    for c in "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2069\u061c":
        assert is_valid(f"http://a/{c}", profile="iri")
        assert codes(f"a:{c}", profile="uri") == [(E.NON_ASCII_IN_URI, 2)]


def test_leiri_reports_at_original_positions() -> None:
    ref = scan("http://a/b c<d>?\ue000#é\x01", profile="leiri")
    assert ref.errors == ()
    assert ref.original == "http://a/b c<d>?\ue000#é\x01"
    assert ref.text == "http://a/b%20c%3Cd%3E?%EE%80%80#é%01"
    assert [(p.position, p.char, p.action, p.replacement) for p in ref.preprocessing] == [
        (10, " ", "percent-encode", "%20"), (12, "<", "percent-encode", "%3C"),
        (14, ">", "percent-encode", "%3E"), (16, "\ue000", "percent-encode", "%EE%80%80"),
        (19, "\x01", "percent-encode", "%01")]
    assert ref.get("query") == "%EE%80%80"
    assert ref.profile is Profile.LEIRI


def test_leiri_keeps_grammar_errors_at_original_positions() -> None:
    ref = scan("a b:x y%zz", profile="leiri")
    # the space in the scheme is percent-encoded, and a '%' cannot be in a scheme
    assert next((e.code, e.position) for e in ref.errors) == (E.SCHEME, 1)
    assert (E.PERCENT, 7) in [(e.code, e.position) for e in ref.errors]
    # surrogates and U+FFFE/FFFF are not leiri-ucschar: still errors, at original positions
    ref = scan("a:b \ud800 \uffff", profile="leiri")
    assert [(e.code, e.position) for e in ref.errors] == [(E.SURROGATE, 4), (E.NONCHARACTER, 6)]
    assert [p.position for p in ref.preprocessing] == [3, 5]


def test_leiri_does_not_fix_percent() -> None:
    assert [(e.code, e.position) for e in scan("a:%zz é%", profile="leiri").errors] == [
        (E.PERCENT, 2), (E.PERCENT, 7)]


def test_web_address_preprocessing() -> None:
    text = " \thttp:\\\\a\tb\\c d%zz?x\\y#f#g\n "
    ref = scan(text, profile="web-address")
    assert ref.errors == ()
    assert ref.text == "http://ab/c%20d%25zz?x%5Cy#f%23g"
    actions = [(p.position, p.action) for p in ref.preprocessing]
    assert actions == [(0, "strip"), (1, "strip"), (7, "convert"), (8, "convert"), (10, "strip"),
                       (12, "convert"), (14, "percent-encode"), (16, "percent-encode"),
                       (21, "percent-encode"), (25, "percent-encode"), (27, "strip"),
                       (28, "strip")]
    assert ref.get("host") == "ab"
    assert ref.original == text


def test_web_address_percent_after_stripping() -> None:
    # sec. 6.2: strip (step 2) happens before '%' repair (step 4)
    ref = scan("a:%4\n1", profile="web-address")
    assert ref.text == "a:%41" and ref.errors == ()
    ref = scan("a:%4", profile="web-address")
    assert ref.text == "a:%254"


def test_web_address_error_positions_in_original() -> None:
    ref = scan("  a:\ud800", profile="web-address")
    assert [(e.code, e.position) for e in ref.errors] == [(E.SURROGATE, 4)]
    ref = scan("\t[::1]:x", profile="web-address")
    assert [(e.code, e.position) for e in ref.errors] == [(E.SCHEME, 1), (E.COMPONENT_CHAR, 5)]


def test_web_address_kinds() -> None:
    assert scan(" //a ", "IRI", "web-address").errors[0].code == E.MISSING_SCHEME
    assert not scan(" a:b#c ", "absolute-IRI", "web-address").is_valid


# ---------------------------------------------------------------- errors: all of them, in order

def test_all_errors_in_position_order() -> None:
    text = "ht~tp://u ser@ho<st:8x/pa th%?q\ue000 \x7f#f#\ue000"
    got = codes(text)
    assert got == [
        (E.SCHEME, 2), (E.SPACE, 9), (E.DELIMITER, 16), (E.PORT, 21), (E.SPACE, 25),
        (E.PERCENT, 28), (E.SPACE, 32), (E.CONTROL, 33), (E.COMPONENT_CHAR, 36),
        (E.PRIVATE_USE, 37)]
    assert [e.position for e in validate(text)] == sorted(e.position for e in validate(text))


def test_parse_raises_first_error() -> None:
    with pytest.raises(IRISyntaxError) as info:
        parse("http://a b/c d")
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.code, err.position, err.end, err.component) == (E.SPACE, 8, 9, "host")
    assert err.message.startswith("U+0020 SPACE")
    assert str(err).startswith("space at 8: U+0020 SPACE")


@pytest.mark.parametrize(("text", "label"), [
    ("a: ", "U+0020 SPACE"),
    ("a:<", "U+003C LESS-THAN SIGN"),
    ("a:\x00", "U+0000 <control-0000>"),
    ("a:\x85", "U+0085 <control-0085>"),
    ("a:\ue000", "U+E000 <private-use-E000>"),
    ("a:\ud800", "U+D800 <surrogate-D800>"),
    ("a:\ufdd0", "U+FDD0 <noncharacter-FDD0>"),
    ("a:\U0010ffff", "U+10FFFF <noncharacter-10FFFF>"),
    ("a:\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ("a:\ufffd", "U+FFFD REPLACEMENT CHARACTER"),
    ("a:\\", "U+005C REVERSE SOLIDUS"),
    ("a:[", "U+005B LEFT SQUARE BRACKET"),
    ("é:", "U+00E9 LATIN SMALL LETTER E WITH ACUTE"),
])
def test_messages_name_the_character(text: str, label: str) -> None:
    err = validate(text)[0]
    assert label in err.message
    assert "RFC" in err.message or "3987bis" in err.message


def test_error_ends() -> None:
    assert [(e.position, e.end) for e in validate("a:x y")] == [(3, 4)]
    assert validate("http://[::1")[0].end == 11


def test_validate_and_is_valid() -> None:
    assert validate("http://a/") == []
    assert is_valid("http://a/")
    assert not is_valid("http://a /")


# ---------------------------------------------------------------- RFC 3987 / 3986 worked examples

@pytest.mark.parametrize("text", [
    "http://r\u00e9sum\u00e9.example.org",
    "http://www.example.org/red%09ros\u00e9#red",
    "http://example.com/\U00010300\U00010301\U00010302",
    "http://www.example.org/r\u00e9sum\u00e9.html",
    "http://www.example.org/D%C3%BCrst",
    "http://www.example.org/D\u00fcrst",
    "http://xn--99zt52a.example.org/%e2%80%ae",
    "http://\u7d0d\u8c46.example.org/%E2%80%AE",
    "http://www.example.org/%C3%BC",
    "http://www.example.org/r%C3%A9sum%C3%A9.html",
    "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82",
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "foo://example.com:8042/over/there?name=ferret#nose",
    "urn:example:animal:ferret:nose",
    "http://example.com/\u05d0\u05d1\u05d2/\u05d3\u05d4\u05d5/?\u05d6\u05d7\u05d8=\u05d9\u05db\u05dc",
    "http://ab.CDEFGH.ij/kl/mn/op.html",
    "http://AB.CD.ef/gh/IJ/kl.html",
    "http://ab.cd.EF/GH/ij/kl.html",
    "http://\u0661\u0662\u0663.\u0664\u0665\u0666.\u0667\u0668\u0669/",
    "http://www.example.org/%7Euser",
    "example://a/b/c/%7Bfoo%7D",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    "http://example.com:/",
    "http://example.com:80/",
    "http://www.example.org/~user",
    "http://example.org/~user",
    "http://example.com/?",
    "http://example.com/#",
    "http://example.org/ros\u00e9",
    "http://www.example.org/r%E9sum%E9.html",
])
def test_rfc_examples_are_iris(text: str) -> None:
    ref = parse(text, "IRI")
    check_spans(ref)


RFC3986_RELATIVE = ["g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x",
                    "g;x", "g;x?y#s", "", ".", "./", "..", "../", "../g", "../..", "../../",
                    "../../g", "../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..",
                    "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y",
                    "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g"]


@pytest.mark.parametrize("text", RFC3986_RELATIVE)
def test_rfc3986_reference_examples(text: str) -> None:
    for profile in ("uri", "iri", "iri-3987bis"):
        ref = parse(text, profile=profile)
        check_spans(ref)
    if ":" in text.split("/")[0].split("?")[0].split("#")[0]:
        assert not is_valid(text, "irelative-ref")
    else:
        assert is_valid(text, "irelative-ref")


def test_foo_example_components() -> None:
    ref = parse("foo://example.com:8042/over/there?name=ferret#nose")
    assert ref.components() == {
        "scheme": "foo", "authority": "example.com:8042", "userinfo": None,
        "host": "example.com", "port": "8042", "path": "/over/there", "query": "name=ferret",
        "fragment": "nose"}
    assert ref.is_absolute and ref.is_valid
    assert ref.scheme == Span(0, 3) and len(ref.scheme) == 3
    assert ref.path == Span(22, 33)
    assert [ref.text[s.start : s.end] for s in ref.segments] == ["over", "there"]


# ---------------------------------------------------------------- fast path == slow path

@pytest.mark.parametrize("text", [
    "http://a/b?c#d", "a:b", "//x", "", "a:", "?", "#", "http://u:p@h:80/p?q#f", "x:/a//b",
    "mailto:a@b", "http://ü/é?\ue000", "./a:b", "@@", "a:::", "%41", "a:%41/%42", "//@", "//:",
    "http://1.2.3.4:5/", "http://256.0.0.1/",
])
def test_fast_and_slow_agree(text: str) -> None:
    for profile in (Profile.URI, Profile.IRI, Profile.IRI_BIS):
        for kind in KINDS:
            fast = scan(text, kind, profile)
            slow = _scan(text, kind, profile)
            assert fast.components() == slow.components()
            assert [(e.code, e.position) for e in fast.errors] == [
                (e.code, e.position) for e in slow.errors]
            assert fast.host_kind == slow.host_kind
            assert fast.segments == slow.segments
            assert fast.kind == kind and fast.profile is profile


def test_repr() -> None:
    assert "IRIReference('a:b'" in repr(scan("a:b"))


# ---------------------------------------------------------------- property-based (hypothesis)

from hypothesis import HealthCheck, assume, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from iri_lint.core.chars import IPRIVATE_RANGES, UCSCHAR_RANGES  # noqa: E402

_ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_DIGIT = "0123456789"
_HEX = "0123456789ABCDEFabcdef"
_SUBDELIMS = "!$&'()*+,;="

ucschar = st.one_of(*[st.integers(lo, hi) for lo, hi in UCSCHAR_RANGES]).map(chr)
iprivate = st.one_of(*[st.integers(lo, hi) for lo, hi in IPRIVATE_RANGES]).map(chr)
pct = st.tuples(st.sampled_from(_HEX), st.sampled_from(_HEX)).map(lambda t: "%" + "".join(t))
iunreserved = st.one_of(st.sampled_from(_ALPHA + _DIGIT + "-._~"), ucschar)
sub_delim = st.sampled_from(_SUBDELIMS)


def run_of(*parts: st.SearchStrategy[str], min_size: int = 0) -> st.SearchStrategy[str]:
    return st.lists(st.one_of(*parts), min_size=min_size, max_size=8).map("".join)


scheme_st = st.tuples(st.sampled_from(_ALPHA),
                      st.text(_ALPHA + _DIGIT + "+-.", max_size=6)).map("".join)
userinfo_st = run_of(iunreserved, pct, sub_delim, st.just(":"))
reg_name_st = run_of(iunreserved, pct, sub_delim)
dec_octet = st.integers(0, 255).map(str)
ipv4_st = st.lists(dec_octet, min_size=4, max_size=4).map(".".join)
h16 = st.text(_HEX, min_size=1, max_size=4)


@st.composite
def ipv6_st(draw: st.DrawFn) -> str:
    ls32 = draw(st.booleans())
    total = 8
    if draw(st.booleans()):  # no compression
        groups = draw(st.lists(h16, min_size=total, max_size=total))
        if ls32:
            return ":".join(groups[:6]) + ":" + draw(ipv4_st)
        return ":".join(groups)
    room = 5 if ls32 else 7  # "::" stands for at least one group; ls32 counts two
    before = draw(st.integers(0, room))
    after = draw(st.integers(0, room - before))
    head = ":".join(draw(st.lists(h16, min_size=before, max_size=before)))
    tail_groups = draw(st.lists(h16, min_size=after, max_size=after))
    if ls32:
        tail_groups.append(draw(ipv4_st))
    return head + "::" + ":".join(tail_groups)


ipvfuture_st = st.tuples(st.sampled_from("vV"), st.text(_HEX, min_size=1, max_size=3),
                         st.text(_ALPHA + _DIGIT + "-._~:" + _SUBDELIMS, min_size=1, max_size=6)
                         ).map(lambda t: f"{t[0]}{t[1]}.{t[2]}")
host_st = st.one_of(reg_name_st, ipv4_st, ipv6_st().map(lambda a: f"[{a}]"),
                    ipvfuture_st.map(lambda a: f"[{a}]"))
ipchar = st.one_of(iunreserved, pct, sub_delim, st.sampled_from(":@"))
segment = run_of(ipchar)
segment_nz = run_of(ipchar, min_size=1)
segment_nz_nc = run_of(iunreserved, pct, sub_delim, st.just("@"), min_size=1)
query_st = run_of(ipchar, iprivate, st.sampled_from("/?"))
fragment_st = run_of(ipchar, st.sampled_from("/?"))


@st.composite
def iri_reference(draw: st.DrawFn, relative: bool | None = None) -> tuple[str, dict[str, str | None]]:
    """An IRI-reference built from the RFC 3987 sec. 2.2 grammar, with its expected components."""
    c: dict[str, str | None] = dict.fromkeys(grammar.COMPONENTS)
    if relative is None:
        relative = draw(st.booleans())
    out = ""
    if not relative:
        c["scheme"] = scheme = draw(scheme_st)
        out = scheme + ":"
    form = draw(st.sampled_from(["authority", "absolute", "rootless", "empty"]))
    if form == "authority":
        auth = ""
        if draw(st.booleans()):
            c["userinfo"] = userinfo = draw(userinfo_st)
            auth += userinfo + "@"
        c["host"] = host = draw(host_st)
        auth += host
        if draw(st.booleans()):
            c["port"] = port = draw(st.text(_DIGIT, max_size=5))
            auth += ":" + port
        c["authority"] = auth
        path = "".join("/" + s for s in draw(st.lists(segment, max_size=4)))
        out += "//" + auth
    elif form == "absolute":
        path = "/"
        if draw(st.booleans()):
            path += draw(segment_nz) + "".join("/" + s for s in draw(st.lists(segment, max_size=3)))
    elif form == "rootless":
        first = draw(segment_nz_nc if relative else segment_nz)
        path = first + "".join("/" + s for s in draw(st.lists(segment, max_size=3)))
    else:
        path = ""
    c["path"] = path
    out += path
    if draw(st.booleans()):
        c["query"] = query = draw(query_st)
        out += "?" + query
    if draw(st.booleans()):
        c["fragment"] = fragment = draw(fragment_st)
        out += "#" + fragment
    return out, c


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(iri_reference())
def test_generated_references_are_accepted(case: tuple[str, dict[str, str | None]]) -> None:
    text, expected = case
    ref = scan(text)
    assert ref.errors == (), (text, ref.errors)
    assert ref.components() == expected
    check_spans(ref)
    absolute = expected["scheme"] is not None
    assert is_valid(text, "IRI") is absolute
    assert is_valid(text, "irelative-ref") is not absolute
    assert is_valid(text, "absolute-IRI") is (absolute and expected["fragment"] is None)
    slow = _scan(text, "IRI-reference", Profile.IRI)
    assert slow.components() == expected and slow.errors == ()
    assert slow.host_kind == ref.host_kind
    host = expected["host"]
    if host is not None:
        if host.startswith("[v") or host.startswith("[V"):
            assert ref.host_kind is HostKind.IPVFUTURE
        elif host.startswith("["):
            assert ref.host_kind is HostKind.IPV6
    # under the 3987bis profile the same strings are valid; under uri only the ASCII ones
    assert scan(text, profile="iri-3987bis").components() == expected
    assert is_valid(text, profile="uri") is text.isascii()


# characters that no component allows, in every profile, and that change no structure
BAD_CHARS = st.one_of(
    st.sampled_from(' <>"\\^`{|}\x00\x1f\x7f\x80\x9f\ud800\udfff\ufdd0\ufdef\ufff0\ufffd\ufffe\uffff'),
    st.sampled_from([chr(0x1FFFE), chr(0x10FFFF), chr(0xE0000), chr(0xE0FFF), chr(0xFFFFF)]),
    st.integers(0xD800, 0xDFFF).map(chr),
    st.integers(0xFFF0, 0xFFFD).map(chr),
    st.integers(0, 0x1F).map(chr),
)


def group_code(c: str) -> str:
    from iri_lint.core.chars import Group, group
    return {
        Group.SPACE: E.SPACE, Group.DELIM: E.DELIMITER, Group.UNWISE: E.UNWISE,
        Group.CONTROL: E.CONTROL, Group.SPECIAL: E.SPECIAL, Group.NONCHAR: E.NONCHARACTER,
        Group.SURROGATE: E.SURROGATE, Group.TAG: E.TAG,
    }[group(c)]


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(iri_reference(), BAD_CHARS, st.data())
def test_inserted_bad_character_is_reported_exactly(case: tuple[str, dict[str, str | None]],
                                                    bad: str, data: st.DataObject) -> None:
    text = case[0]
    pos = data.draw(st.integers(0, len(text)))
    # do not split a pct-encoded triple, nor the "//" that opens an authority
    assume("%" not in text[max(0, pos - 2) : pos])
    assume(text[max(0, pos - 1) : pos + 1] != "//" and not text.startswith("//", pos))
    assume(not text.startswith("[", pos))  # '[' must open the host to be an IP literal
    broken = text[:pos] + bad + text[pos:]
    for profile in ("iri", "iri-3987bis", "uri"):
        errs = [(e.code, e.position) for e in scan(broken, profile=profile).errors]
        code = group_code(bad)
        if profile == "iri-3987bis" and code == E.TAG:
            continue  # tags are iprivate in a 3987bis query
        if profile == "uri":
            # the URI grammar has no tags: any non-ASCII but the 6.3 groups is IRI115 there
            code = E.NON_ASCII_IN_URI if code == E.TAG else code
            errs = [e for e in errs if e[0] != E.NON_ASCII_IN_URI or e[1] == pos]
        assert errs == [(code, pos)], (broken, profile)


@settings(max_examples=300)
@given(iri_reference(), st.sampled_from("\ue000\U000f0000\U0010fffd"), st.data())
def test_private_use_outside_query(case: tuple[str, dict[str, str | None]], priv: str,
                                   data: st.DataObject) -> None:
    text, comp = case
    q = text.find("?") if comp["query"] is not None else -1
    f = text.find("#") if comp["fragment"] is not None else -1
    limit = len(text) if f < 0 else f
    pos = data.draw(st.integers(0, len(text)))
    assume("%" not in text[max(0, pos - 2) : pos])
    assume(text[max(0, pos - 1) : pos + 1] != "//" and not text.startswith("//", pos))
    broken = text[:pos] + priv + text[pos:]
    assume(not text.startswith("[", pos))  # would no longer open an IP literal
    in_query = 0 <= q < pos <= limit
    errs = [(e.code, e.position) for e in scan(broken).errors]
    assert errs == ([] if in_query else [(E.PRIVATE_USE, pos)]), broken


_ALPHABET = "a1:/?#[]@%.vV-_~!=é \\<\ue000\ud800\U000e0001FfG"


@settings(max_examples=1500)
@given(st.text(_ALPHABET, max_size=24), st.sampled_from(KINDS),
       st.sampled_from([Profile.URI, Profile.IRI, Profile.IRI_BIS]))
def test_fast_path_agrees_with_slow_scanner(text: str, kind: str, profile: Profile) -> None:
    fast = scan(text, kind, profile)
    slow = _scan(text, kind, profile)
    assert fast.components() == slow.components()
    assert [(e.code, e.position, e.end) for e in fast.errors] == [
        (e.code, e.position, e.end) for e in slow.errors]
    assert fast.host_kind == slow.host_kind
    positions = [e.position for e in fast.errors]
    assert positions == sorted(positions)
    for e in fast.errors:
        assert 0 <= e.position <= e.end <= len(text) and (e.position < e.end or not text)
        assert e.code in E.KINDS
    check_spans(fast)


@settings(max_examples=500)
@given(st.text(_ALPHABET + "\t\n\r\x01 ", max_size=24), st.sampled_from(["leiri", "web-address"]))
def test_preprocessing_profiles_point_into_the_original(text: str, profile: str) -> None:
    ref = scan(text, profile=profile)
    assert ref.original == text
    for e in ref.errors:
        assert 0 <= e.position < len(text)
        assert e.position < e.end <= len(text)
    for note in ref.preprocessing:
        assert text[note.position] == note.char
    # whatever the preprocessing encoded is gone from the errors
    encoded = {n.position for n in ref.preprocessing}
    assert not encoded & {e.position for e in ref.errors if e.code in (E.SPACE, E.DELIMITER)}
    check_spans(ref)


# ---------------------------------------------------------------- hostile inputs (no clocks)

N = 200_000


@pytest.mark.parametrize(("piece", "prefix"), [
    ("%41", "a:"), ("%41", "http://"), (":", ""), (":", "a:"), ("@", "//"), ("@", ""),
    ("[", ""), ("[", "//"), (".", "//"), ("/", "a:"), ("/", ""), ("%", ""), ("%4", "a:"),
    ("a", "http://"), ("é", "http://"), ("1.", "//"), ("::", "//["), ("?", "a:?"), ("#", "a:#"),
    ("%41", "%"), ("a:", ""), ("//", ""), (" ", "a:"),
])
@pytest.mark.slow  # stress: hostile inputs
def test_hostile_inputs_finish(piece: str, prefix: str) -> None:
    text = prefix + piece * (N // len(piece))
    ref = scan(text)
    assert ref.text == text
    assert len(ref.errors) <= len(text)
    check_spans(ref)


def _spans(text: str) -> list[tuple[str, int, int]]:
    return [(e.code, e.position, e.end) for e in scan(text).errors]


@pytest.mark.slow  # stress: hostile inputs
def test_hostile_error_counts_are_exact() -> None:
    # a run of one bad character is one error spanning the run: linear, and every character covered
    n = 50_000
    assert _spans("a:" + "%" * n) == [(E.PERCENT, 2, n + 2)]
    assert _spans("a:" + " " * n) == [(E.SPACE, 2, n + 2)]
    assert _spans("[" * n) == [(E.COMPONENT_CHAR, 0, n)]  # no ':' so no scheme: one run in the path
    assert _spans("a:" + "[" * n) == [(E.COMPONENT_CHAR, 2, n + 2)]
    assert _spans("//" + "@" * n) == [(E.COMPONENT_CHAR, 2, n + 1)]  # the last '@' ends the userinfo
    assert _spans("a:" + "<>" * n) == [(E.DELIMITER, 2, 2 * n + 2)]  # one 3987bis sec. 6.3 group: one run
    mixed = scan("a:" + "[]" * n).errors  # misplaced characters stay one error each
    assert len(mixed) == 2 * n and all(e.end == e.position + 1 for e in mixed)
    ref = scan("//[" + "1" * n)
    assert [(e.code, e.position) for e in ref.errors] == [(E.IP_LITERAL, 2)]
    assert scan("//" + "a" * n + ":" + "1" * n).is_valid
    assert len(scan("a:" + "%4" * n).errors) == n


def test_hostile_ipv6_is_linear() -> None:
    n = 50_000
    assert not is_valid("//[" + "1:" * n + "]")
    assert not is_valid("//[" + ":" * n + "]")
    assert not is_valid("//[" + "1::" * n + "]")
    assert not is_valid("//[v" + "1" * n + "]")
    assert is_valid("//[v" + "1" * n + ".x]")


@pytest.mark.parametrize("profile", ["leiri", "web-address"])
@pytest.mark.slow  # stress: hostile inputs
def test_hostile_preprocessing(profile: str) -> None:
    n = 50_000
    ref = scan("a:" + " " * n + "%" * n, profile=profile)
    assert len(ref.preprocessing) >= n


# ---------------------------------------------------------------- the regex scanner vs a reference

from iri_lint.core.chars import (  # noqa: E402
    IPRIVATE_RANGES,
    SCHEME_CHARS,
    SUB_DELIMS,
    TAG_RANGE,
    UCSCHAR_RANGES,
    UNRESERVED,
    Group,
    group,
)

_ASCII_OK = {
    "userinfo": UNRESERVED | SUB_DELIMS | {":"},
    "host": UNRESERVED | SUB_DELIMS,
    "path": UNRESERVED | SUB_DELIMS | {":", "@", "/"},
    "query": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
    "fragment": UNRESERVED | SUB_DELIMS | {":", "@", "/", "?"},
    "scheme": set(SCHEME_CHARS),  # no pct-encoded in these two: '%' is one more bad character
    "port": set("0123456789"),
}
_OWN_CODE = {"scheme": E.SCHEME, "port": E.PORT}
_GROUP_CODE = {Group.SPACE: E.SPACE, Group.DELIM: E.DELIMITER, Group.UNWISE: E.UNWISE,
               Group.CONTROL: E.CONTROL, Group.SPECIAL: E.SPECIAL, Group.NONCHAR: E.NONCHARACTER,
               Group.SURROGATE: E.SURROGATE}
_HEXDIGITS = set("0123456789abcdefABCDEF")


def in_ranges(c: str, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(lo <= ord(c) <= hi for lo, hi in ranges)


def _reference_component(text: str, component: str, profile: str) -> list[tuple[int, int, str]]:
    """Character by character, straight from RFC 3987 sec. 2.2 and 3987bis sec. 6.3 (the oracle)."""

    def ok(c: str) -> bool:
        if c in _ASCII_OK[component]:
            return True
        if c < "\x80" or profile == "uri" or component in _OWN_CODE:
            return False
        private = [*IPRIVATE_RANGES, TAG_RANGE] if profile == "iri-3987bis" else IPRIVATE_RANGES
        return in_ranges(c, UCSCHAR_RANGES) or (component == "query" and in_ranges(c, private))

    def code(c: str) -> str:
        g = group(c)
        if g in _GROUP_CODE:
            return _GROUP_CODE[g]
        if c >= "\x80" and profile == "uri":
            return E.NON_ASCII_IN_URI
        return {Group.TAG: E.TAG, Group.IPRIVATE: E.PRIVATE_USE}.get(g, _OWN_CODE.get(component, E.COMPONENT_CHAR))

    out: list[tuple[int, int, str]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "%" and component not in _OWN_CODE:
            if i + 2 < n and text[i + 1] in _HEXDIGITS and text[i + 2] in _HEXDIGITS:
                i += 3
            elif i + 1 < n and text[i + 1] in _HEXDIGITS:
                out.append((i, i + 2, E.PERCENT))
                i += 2
            else:
                j = i + 1
                while j < n and text[j] == "%" and not (j + 2 < n and {text[j + 1], text[j + 2]} <= _HEXDIGITS):
                    j += 1
                out.append((i, j, E.PERCENT))
                i = j
        elif ok(c):
            i += 1
        else:
            j = i + 1
            grouped = group(c) in _GROUP_CODE
            while j < n and (group(text[j]) is group(c) if grouped else text[j] == c):
                j += 1
            out.append((i, j, code(c)))
            i = j
    return out


_SOUP = st.text(st.sampled_from(list("a1:/?#@[]%4fF.-_~!$=' <>\"\\^`{|}\x00\x1f\x7f\x85\xa0é\u200e\ud7ff"
                                     "\ue000\uf8ff\uf900\ufdd0\ufdef\ufff0\ufffd\ufffe\U00010000\U0001fffe"
                                     "\U000e0000\U000e0fff\U000e1000\U000f0000\U0010ffff\ud800")), max_size=40)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_SOUP, st.sampled_from(sorted(_ASCII_OK)), st.sampled_from(["uri", "iri", "iri-3987bis"]))
def test_component_scanner_agrees_with_a_char_by_char_reference(text: str, component: str, profile: str) -> None:
    out: list[ErrorRecord] = []
    scanner._component_errors(text, Span(0, len(text)), component, Profile(profile), out)
    assert [(r[0], r[1], r[2]) for r in out] == _reference_component(text, component, profile)


def _reference_scan(text: str, kind: str, profile: str) -> tuple[list[tuple[int, int, str, str]],
                                                                  dict[str, tuple[int, int] | None]]:
    """The whole reference, in plain Python: RFC 3986 appendix B split (userinfo up to the
    authority's last '@', host up to its first ':'), then each component character by character.
    IP literals and the messages of kind errors come from the module (checked on their own).
    """
    out: list[tuple[int, int, str, str]] = []
    spans: dict[str, tuple[int, int] | None] = dict.fromkeys(grammar.COMPONENTS)

    def scan_part(start: int, end: int, component: str) -> None:
        out.extend((start + a, start + b, code, component)
                   for a, b, code in _reference_component(text[start:end], component, profile))

    def first_of(chars: str, start: int) -> int:
        return next((j for j in range(start, len(text)) if text[j] in chars), len(text))

    i = 0
    colon = first_of(":/?#", 0)
    if colon < len(text) and text[colon] == ":":
        if kind == "irelative-ref":  # no scheme: each ':' of the first segment is an error
            out.extend((j, j + 1, E.COMPONENT_CHAR, "path") for j in range(colon, first_of("/?#", 0))
                       if text[j] == ":")
        else:
            spans["scheme"], i = (0, colon), colon + 1
            if colon == 0:
                out.append((0, 1, E.SCHEME, "scheme"))
            elif text[0] not in ALPHA_CHARS:
                first = _reference_component(text[0], "scheme", profile)  # empty: a scheme character
                out.append((0, 1, first[0][2] if first else E.SCHEME, "scheme"))
                scan_part(1, colon, "scheme")
            else:
                scan_part(0, colon, "scheme")
    if spans["scheme"] is None and kind in ("IRI", "absolute-IRI"):
        out.append((0, min(1, len(text)), E.MISSING_SCHEME, "scheme"))
    if text.startswith("//", i):
        a_start = i + 2
        i = a_end = first_of("/?#", a_start)
        spans["authority"] = (a_start, a_end)
        at = text.rfind("@", a_start, a_end)
        h_start = a_start
        if at >= 0:
            spans["userinfo"], h_start = (a_start, at), at + 1
            scan_part(a_start, at, "userinfo")
        if text.startswith("[", h_start):
            errs: list[ErrorRecord] = []
            host, port, _ = scanner._ip_literal_host(text, Span(h_start, a_end), Profile(profile), errs)
            out.extend((r[0], r[1], r[2], r[3] or "") for r in errs)
            spans["host"], spans["port"] = host, port
        else:
            h_end = text.find(":", h_start, a_end)
            h_end = a_end if h_end < 0 else h_end
            spans["host"] = (h_start, h_end)
            whole = text[h_start:a_end]
            pieces = whole.split(",")
            close = whole.find("]")
            if h_end < a_end and _stdlib_ipv6(whole):  # an IPv6 address without brackets: one error
                spans["port"] = (h_end + 1, a_end)
                out.append((h_start, a_end, E.IP_LITERAL, "host"))
            elif h_end < a_end and not whole[h_end - h_start + 1 :].isdigit() and close > 0 and \
                    _stdlib_ipv6(whole[:close]) and (close + 1 == len(whole) or (
                    whole[close + 1] == ":" and ((whole[close + 2 :].isascii() and whole[close + 2 :].isdigit())
                                                 or not whole[close + 2 :]))):  # (one without its '[')
                spans["port"] = (h_end + 1, a_end)
                out.append((h_start, h_start + close, E.IP_LITERAL, "host"))
            elif h_end < a_end and len(pieces) > 1 and all(  # a list of hosts: one error
                    p and p.count(":") <= 1 and p.split(":")[0] and p.partition(":")[2].isascii()
                    and (p.partition(":")[2].isdigit() or not p.partition(":")[2]) and not set(p) & set("[]")
                    for p in pieces):
                spans["port"] = (h_end + 1, a_end)
                out.append((h_start, a_end, E.COMPONENT_CHAR, "host"))
            else:
                if not _is_dotted_quad(text[h_start:h_end]):
                    scan_part(h_start, h_end, "host")
                if h_end < a_end:
                    spans["port"] = (h_end + 1, a_end)
                    scan_part(h_end + 1, a_end, "port")
    p_end = first_of("?#", i)
    spans["path"] = (i, p_end)
    scan_part(i, p_end, "path")
    if p_end < len(text) and text[p_end] == "?":
        q_end = first_of("#", p_end + 1)
        spans["query"] = (p_end + 1, q_end)
        scan_part(p_end + 1, q_end, "query")
        p_end = q_end
    if p_end < len(text):
        spans["fragment"] = (p_end + 1, len(text))
        if kind == "absolute-IRI":
            out.append((p_end, len(text), E.FRAGMENT_NOT_ALLOWED, "fragment"))
        scan_part(p_end + 1, len(text), "fragment")
    return sorted(out, key=lambda e: e[0]), spans


ALPHA_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def _is_dotted_quad(host: str) -> bool:
    """RFC 3986 sec. 3.2.2 IPv4address: four dec-octets, no leading zeros."""
    parts = host.split(".")
    return len(parts) == 4 and all(p.isdigit() and p.isascii() and (p == "0" or p[0] != "0") and int(p) <= 255
                                   for p in parts)


_WHOLE_ALPHABET = [*"aA1:/?#[]@%.fF-_~!=v ", "//", "%4", "%41", "::", "[::1]", "[v1.x]", "é", "\ue000",
                   "\U000e0041", "\x00", "<", "{", "\ufdd0", "\ud800", "]:"]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_WHOLE_ALPHABET), max_size=14).map("".join), st.sampled_from(KINDS),
       st.sampled_from(["uri", "iri", "iri-3987bis"]))
@example("//::]:", "IRI-reference", "uri")  # (an IPv6 address that lost its '[', then an empty port: one error)
def test_scan_agrees_with_a_plain_reference(text: str, kind: str, profile: str) -> None:
    """Every error (code, exact span, component) and every component span, whichever path scan takes."""
    ref = scan(text, kind, profile)
    expected, spans = _reference_scan(text, kind, profile)
    assert [(e.position, e.end, e.code, e.component) for e in ref.errors] == expected
    assert {name: None if (sp := getattr(ref, name)) is None else (sp.start, sp.end)
            for name in grammar.COMPONENTS} == spans


def test_scan_agrees_with_the_reference_on_the_stdlib_literals() -> None:
    """The benchmark's own corpus: URL-like constants of the standard library."""
    import ast
    import sysconfig
    from pathlib import Path

    root = Path(sysconfig.get_paths()["stdlib"])
    seen = 0
    for name in ("urllib/parse.py", "test/test_urlparse.py", "test/test_urllib2.py", "http/cookiejar.py",
                 "test/test_ipaddress.py", "logging/config.py", "test/test_logging.py"):
        path = root / name
        if not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 200:
                for kind in KINDS:
                    ref = scan(node.value, kind)
                    expected, spans = _reference_scan(node.value, kind, "iri")
                    assert [(e.position, e.end, e.code, e.component) for e in ref.errors] == expected, node.value
                    assert {name: getattr(ref, name) for name in grammar.COMPONENTS} == spans, node.value
                    seen += 1
    assert seen > 1000


def test_group_ranges_are_the_groups() -> None:
    # the scanner's regex classes are built from _GROUP_RANGES; group() is the definition
    ranges = grammar.GROUP_RANGES
    edges = {cp for rs in ranges.values() for lo, hi in rs for cp in (lo - 1, lo, hi, hi + 1)}
    plane_ends = {(p << 16) + k for p in range(17) for k in (0, 0xFFFD, 0xFFFE, 0xFFFF)}
    for cp in sorted(set(range(0x10000)) | edges | plane_ends):
        if not 0 <= cp <= 0x10FFFF:
            continue
        inside = [g for g, rs in ranges.items() if any(lo <= cp <= hi for lo, hi in rs)]
        g = group(chr(cp))
        assert inside == ([g] if g in ranges else []), hex(cp)


def test_errors_are_built_lazily_and_behave_like_plain_ones() -> None:
    import pickle

    ref = scan("http://x/a b%zz")
    assert [(r[0], r[1], r[2]) for r in ref.error_records] == [(10, 11, E.SPACE), (12, 13, E.PERCENT)]
    err = ref.errors[0]
    assert isinstance(err, IRISyntaxError) and isinstance(err, ValueError)
    assert err.message.startswith("U+0020 SPACE in path") and err.args == (err.message,)
    assert str(err) == f"{E.SPACE} at 10: {err.message}" and err.message in repr(err)
    back = pickle.loads(pickle.dumps(err))
    assert (back.code, back.position, back.end, back.message, back.component) == (
        err.code, err.position, err.end, err.message, err.component)
    assert ref.error(1).message == ref.errors[1].message
    with pytest.raises(IRISyntaxError) as info:
        parse("http://x/a b")
    assert type(info.value) is IRISyntaxError and info.value.args == (err.message,)


def test_scanning_never_builds_messages_it_is_not_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, ...]] = []
    real = core_errors.char_problem

    def counting(*a: Any) -> Any:
        calls.append(a)
        return real(*a)

    for module in (core_errors, scanner):
        monkeypatch.setattr(module, "char_problem", counting)
    ref = scan("a:" + "[]" * 5000)
    assert len(ref.error_records) == 10_000 and len(calls) <= 2  # one per distinct character, cached
    calls.clear()
    assert ref.error(3).message.startswith("U+005D RIGHT SQUARE BRACKET") and len(calls) == 1


def _stdlib_ipv6(text: str) -> bool:
    """RFC 3986 IPv6address by the stdlib: ``ipaddress`` without its zone IDs (RFC 4007)."""
    import ipaddress

    if "%" in text:
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


_IPV6_PIECES = st.sampled_from(["0", "1", "ff", "FFFF", "12345", "0db8", ":", "::", ".", "1.2.3.4", "255",
                                "256", "01", "ffff:", "a"])


@given(st.one_of(
    st.integers(0, 2**128 - 1).flatmap(lambda n: st.sampled_from(_ipv6_spellings(n))),
    st.lists(_IPV6_PIECES, max_size=14).map("".join),
), st.sampled_from(["", ":", ":80", ":8x", "x", "/p", "?q"]))
@settings(max_examples=400)
def test_ip_literals_agree_with_ipaddress(address: str, after: str) -> None:
    """The one match that lets a well-formed IP literal through agrees with ``ipaddress``, port or not."""
    ref = scan(f"http://[{address}]{after}")
    ip_ok = _stdlib_ipv6(address)
    assert ((E.IP_LITERAL, 7) not in codes(f"http://[{address}]{after}")) is ip_ok, address
    if ip_ok:
        assert ref.get("host") == f"[{address}]" and ref.host_kind is HostKind.IPV6
        assert ref.is_valid is (after not in (":8x", "x"))


def _ipv6_spellings(n: int) -> list[str]:
    """Several spellings of one address: compressed, exploded, and IPv4 in the last 32 bits."""
    import ipaddress

    address = ipaddress.IPv6Address(n)
    low = ipaddress.IPv4Address(n & 0xFFFFFFFF)
    head = address.exploded.rsplit(":", 2)[0]
    return [address.compressed, address.exploded, address.compressed.upper(), f"{head}:{low}",
            f"::{low}", f"::ffff:{low}"]


@pytest.mark.parametrize("text", [
    "http://x:8\u00e9", "http://\u00e9@x/", "http://a\u00e9b@x:%s/", "http://[\u00e9]/", "http://[::1]\u00e9:80/",
    "\u00e9:x", "a\u00e9:x", "http://x/%zz \u00e9", "http://a%zz\u00e9/", "http://x/%zz%zz \u00e9\ue000",
    "http://x/?%s\ue000#\ue000", "http://%s:%d/\u00e9", "//\u00e9:\u00e9@", "http://x/\u00e9\u00a0",
])
def test_default_call_on_non_ascii_text_agrees_with_the_full_scanner(text: str) -> None:
    """The default call reads non-ASCII text with its ASCII trouble regex where that matches."""
    fast, full = scan(text), _scan(text, "IRI-reference", Profile.IRI)
    assert fast.error_records == full.error_records
    assert fast.components() == full.components()


@pytest.mark.parametrize("text", ["http://x/", "http://x:%s/", "http://[::1]/", "http://[v1]/", "%zz", "\u00e9", ""])
@pytest.mark.parametrize(("kind", "profile"), [("IRI-reference", "iri"), ("IRI-reference", Profile.IRI),
                                               (None, "iri"), ("IRI-reference", None)])
def test_explicit_defaults_take_the_default_call(text: str, kind: str | None, profile: str | None) -> None:
    """The linter passes its configured profile as a string: it gets the default call's path and result."""
    ref, default = scan(text, kind, profile), scan(text)
    assert type(ref) is type(default)
    assert (ref.kind, ref.profile) == ("IRI-reference", Profile.IRI)
    assert ref.error_records == default.error_records and ref.components() == default.components()


@pytest.mark.parametrize("text", ["http://x/a", "http://x:%s/", "http://[::1]x", "\u00e9", "http://[::1]/"])
@pytest.mark.parametrize("profile", ["iri", "uri", "leiri"])
def test_results_pickle_and_copy(text: str, profile: str) -> None:
    """Results cross process boundaries (multiprocessing) before and after their spans are read."""
    import copy
    import pickle

    for read_spans in (False, True):
        ref = scan(text, profile=profile)
        if read_spans:
            ref.components()
        for twin in (pickle.loads(pickle.dumps(ref)), copy.copy(ref), copy.deepcopy(ref)):
            same = (twin.text, twin.kind, twin.profile, twin.original)
            assert same == (ref.text, ref.kind, ref.profile, ref.original)
            assert twin.error_records == ref.error_records and twin.components() == ref.components()


def test_syntax_errors_pickle() -> None:
    """A worker process's IRISyntaxError reaches the parent whole (exceptions pickle by their args)."""
    import pickle

    with pytest.raises(IRISyntaxError) as info:
        parse("http://x:%s/")
    for err in (info.value, *scan("http://[::1]x", profile="leiri").errors):
        twin = pickle.loads(pickle.dumps(err))
        assert type(twin) is IRISyntaxError and str(twin) == str(err)
        assert (twin.code, twin.position, twin.end, twin.message, twin.component) == (
            err.code, err.position, err.end, err.message, err.component)


@pytest.mark.parametrize("address", ["fd00:ec2::254", "::1", "2001:db8::7", "fe80::1:8080", "1:2:3:4:5:6:7:8"])
def test_an_ipv6_address_without_brackets_is_one_error_that_names_it(address: str) -> None:
    (err,) = scan(f"http://{address}/").errors
    assert (err.code, err.position, err.end) == (E.IP_LITERAL, 7, 7 + len(address))
    assert f"[{address}]" in err.message


@pytest.mark.parametrize(("text", "address"), [("http://::1]/", "::1"), ("http://::12.34.56.78]/", "::12.34.56.78"),
                                               ("http://fe80::1]:8080/", "fe80::1"), ("http://::1]", "::1")])
def test_an_ipv6_address_that_lost_its_open_bracket_is_one_error_that_names_it(text: str, address: str) -> None:
    """outside48 repro 02 (uritools' tests): "http://::1]/" has an authority, an address without its '[': not
    IRI601's empty host and IRI112's colons, one IRI113 over the address."""
    (err,) = scan(text).errors
    assert (err.code, err.position, err.end) == (E.IP_LITERAL, 7, 7 + len(address))
    assert f"[{address}]" in err.message


@pytest.mark.parametrize("hosts", ["h1:5432,h2:5432", "db1:27017,db2", "a:1,b:2,c:3", "a:1,[::1]:2"])
def test_a_multi_host_list_is_one_error_that_says_what_it_is(hosts: str) -> None:
    (err,) = scan(f"https://u@{hosts}/db").errors
    assert (err.code, err.position, err.end) == (E.COMPONENT_CHAR, 10, 10 + len(hosts))
    assert "list of hosts" in err.message


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "MongoDB", "rediscache", "memcache",
                                    "memcached", "pymemcached", "djangopylibmc",  # (outside10 repro 02)
                                    "redis+sentinel", "rediss+sentinel"])  # (fixtures206 repro 03)
@pytest.mark.parametrize("hosts", ["h1:5432,h2:5432", "db1:27017,db2", "a:1,b:2,c:3", "h1:1,[2001:db8::1]:2,h3"])
def test_a_host_list_is_the_authority_of_a_scheme_whose_grammar_lists_hosts(scheme: str, hosts: str) -> None:
    """libpq's and MongoDB's connection strings (and django-environ's cache URLs) list hosts (issue #26)."""
    ref = scan(f"{scheme}://u@{hosts}/db")
    assert ref.is_valid and ref.host_kind is HostKind.REG_NAME


@pytest.mark.parametrize(("text", "valid"), [("sqlite://:memory:", True), ("SQLite://:memory:", True),
                                              ("sqlite://:memory:x", False), ("postgres://:memory:", False)])
def test_a_schemes_documented_special_authority_is_no_port(text: str, valid: bool) -> None:
    """dj-database-url and django-environ document sqlite://:memory: as the in-memory database (issue #26)."""
    assert scan(text).is_valid is valid


@pytest.mark.parametrize(("hosts", "bad", "code"), [
    ("h1:1,h 2:2", " ", E.SPACE), ("h1:1,[1::2::3]:2", "[", E.IP_LITERAL), ("h1:1,h2^:2", "^", E.UNWISE)])
def test_each_host_of_a_listed_authority_is_checked_as_a_host(hosts: str, bad: str, code: object) -> None:
    text = f"mongodb://{hosts}/"
    (err,) = scan(text).errors
    assert (err.code, err.position) == (code, text.index(bad))


@pytest.mark.parametrize("hosts", ["[fd00::10]:27017,[fd00::11]:27017", "[2001:db8::1]:5432,db-1.internal:5432",
                                   "[2001:db8::1],[2001:db8::2]"])
def test_a_host_list_may_start_with_an_ip_literal(hosts: str) -> None:
    """fixtures172 repro 02: the list was read as one IP literal and a port of commas (IRI112) when its first
    host was bracketed, and as a list otherwise; each host is checked as one whatever their order."""
    ref = scan(f"mongodb://u@{hosts}/db")
    assert ref.is_valid and ref.host_kind is HostKind.IPV6
    (err,) = scan(f"https://u@{hosts}/db").errors
    assert (err.code, err.position, err.end) == (E.COMPONENT_CHAR, 10, 10 + len(hosts))
    text = "mongodb://[fd00::1x]:1,[fd00::11]:2/"
    (err,) = scan(text).errors
    assert (err.code, err.position, err.end) == (E.IP_LITERAL, 10, 20)


@pytest.mark.parametrize(("text", "bad"), [("postgresql://u@h1:5432,h2:54e2/db", "e"),
                                           ("mongodb://[fd00::10]:27017,[fd00::11]:2x017/db", "x")])
def test_a_typo_in_a_listed_host_s_port_is_that_port_s_error(text: str, bad: str) -> None:
    """fixtures173 repro 03: a bad port in a later host of a list dropped the whole list back to one host, and
    the finding was its first comma as a port character; the list stays the list, the typo its port's error."""
    (err,) = scan(text).errors
    assert (err.code, err.position) == (E.PORT, text.rindex(bad))


@pytest.mark.parametrize(("text", "code", "bad"), [("a://@AAA,A:\ue000", E.PRIVATE_USE, "\ue000"),
                                                   ("https://a,b:8o/", E.PORT, "o")])
def test_a_comma_in_a_host_whose_one_port_is_wrong_is_no_list(text: str, code: object, bad: str) -> None:
    """Hypothesis (test_private_use_outside_query): with no port of digits in it, ``AAA,A:\\ue000`` is a host with a
    comma (a sub-delim) and a wrong port, whose character is the error, not a list of hosts hiding it."""
    (err,) = scan(text).errors
    assert (err.code, err.position) == (code, text.index(bad))
