"""IRI <-> URI mapping: RFC 3987 sec. 3.1, 3.2 (3.2.1 examples), 3987bis sec. 3.3-3.7, IDNA."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint import IDNAError, MappingError, to_iri, to_uri
from iri_lint.core import is_valid
from iri_lint.core.mapping import uri_edits
from iri_lint.core.scanner import scan

# ---------------------------------------------------------------- sec. 3.1 IRI -> URI


@pytest.mark.parametrize(("iri", "uri"), [
    # sec. 3.1 note on step 2.3: existing %HH and URI characters are not encoded further
    ("http://www.example.org/red%09ros\u00e9#red", "http://www.example.org/red%09ros%C3%A9#red"),
    # sec. 3.1 note: non-BMP characters (Old Italic)
    ("http://example.com/\U00010300\U00010301\U00010302",
     "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"),
    # sec. 3.1 / 3987bis 3.4.1: ireg-name by percent-encoding
    ("http://r\u00e9sum\u00e9.example.org", "http://r%C3%A9sum%C3%A9.example.org"),
    # sec. 3.1 note on IDNs elsewhere: the query is percent-encoded, never IDNA
    ("http://validator.w3.org/check?uri=http%3A%2F%2Fr\u00e9sum\u00e9.example.org",
     "http://validator.w3.org/check?uri=http%3A%2F%2Fr%C3%A9sum%C3%A9.example.org"),
    # sec. 3.2.1 third example read backwards
    ("http://www.example.org/D\u00fcrst", "http://www.example.org/D%C3%BCrst"),
    # iprivate is mapped wherever it is (step 2)
    ("http://a/?\ue000", "http://a/?%EE%80%80"),
    # fragments and relative references are mapped too (sec. 3.1 first paragraph)
    ("#r\u00e9sum\u00e9", "#r%C3%A9sum%C3%A9"),
    ("../\u7d0d\u8c46?q=\u00e9", "../%E7%B4%8D%E8%B1%86?q=%C3%A9"),
    # '#', '%', '[' and ']' are never converted (sec. 3.1 MUST NOT)
    ("http://[::1]/a%2Fb#x#y", "http://[::1]/a%2Fb#x#y"),
    ("http://a/%zz", "http://a/%zz"),
])
def test_to_uri_examples(iri: str, uri: str) -> None:
    assert to_uri(iri) == uri


def test_to_uri_idna_sec_3_1_example() -> None:
    # sec. 3.1: "http://résumé.example.org" may be converted to "http://xn--rsum-bpad.example.org"
    # (3987bis 3.4.2 prints "xn--rsum-bad", a typo: the Punycode of "résumé" is "rsum-bpad")
    assert to_uri("http://r\u00e9sum\u00e9.example.org", idna=True) == "http://xn--rsum-bpad.example.org"
    assert to_uri("https://\u7d0d\u8c46.example.org/\u00e9", idna=True) == \
        "https://xn--99zt52a.example.org/%C3%A9"


def test_to_uri_idna_label_wise_and_mapping() -> None:
    # UTS #46 maps case and the ideographic full stop; ASCII labels are left as they are
    assert to_uri("http://R\u00c9SUM\u00c9\u3002Example.ORG:8080/", idna=True) == \
        "http://xn--rsum-bpad.Example.ORG:8080/"
    # percent-encoded UTF-8 in a non-ASCII label is decoded before ToASCII
    assert to_uri("http://r%C3%A9sum\u00e9.org", idna=True) == "http://xn--rsum-bpad.org"
    # an ASCII label that is percent-encoded stays: a URI maps to itself
    assert to_uri("http://r%C3%A9sum%C3%A9.org", idna=True) == "http://r%C3%A9sum%C3%A9.org"
    # userinfo and port around the host
    assert to_uri("ftp://\u00fc@\u00fc.de:21/\u00fc", idna=True) == "ftp://%C3%BC@xn--tda.de:21/%C3%BC"


def test_to_uri_idna_only_for_dns_schemes() -> None:
    assert to_uri("foo://\u00fc.de/", idna=True) == "foo://%C3%BC.de/"
    assert to_uri("//\u00fc.de/", idna=True) == "//%C3%BC.de/"


def test_to_uri_idna_leaves_ip_literals() -> None:
    assert to_uri("http://[2001:db8::1]/\u00e9", idna=True) == "http://[2001:db8::1]/%C3%A9"
    assert to_uri("http://[v7.\u00e9]/", idna=True, encode_ascii="encode") == "http://[v7.%C3%A9]/"
    assert to_uri("http://192.0.2.1/\u00e9", idna=True) == "http://192.0.2.1/%C3%A9"


@pytest.mark.parametrize(("host", "label"), [
    ("a_\u00e9.com", "a_\u00e9"),  # STD3: '_' not allowed
    ("-\u00e9.com", "-\u00e9"),  # hyphen at the edge
    ("ok.\u00e9\u200d.com", "\u00e9\u200d"),  # ZWJ without context (CONTEXTJ)
    ("r%FF\u00e9.org", "r%FF\u00e9"),  # not UTF-8
])
def test_to_uri_idna_failure_names_the_label(host: str, label: str) -> None:
    with pytest.raises(IDNAError) as info:
        to_uri(f"http://{host}/", idna=True)
    assert info.value.label == label
    assert info.value.reason
    assert repr(label) in str(info.value)
    assert isinstance(info.value, ValueError)
    assert info.value.position == 7 + host.index(label)


@pytest.mark.parametrize("c", [" ", "<", ">", '"', "{", "}", "|", "\\", "^", "`", "\x00", "\x7f"])
def test_to_uri_not_allowed_ascii(c: str) -> None:
    iri = f"http://a/b{c}c"
    with pytest.raises(MappingError) as info:
        to_uri(iri)
    assert info.value.position == 10
    assert info.value.char == c
    encoded = to_uri(iri, encode_ascii="encode")
    assert encoded == f"http://a/b%{ord(c):02X}c"
    assert is_valid(encoded, profile="uri")


def test_to_uri_non_iri_characters() -> None:
    for c in ("\ufffe", "\ufff0", "\x85", "\U000e0001"):
        if c == "\U000e0001":  # tag: 3987bis iprivate, mapped
            assert to_uri(f"http://a/?{c}") == "http://a/?%F3%A0%80%81"
            continue
        with pytest.raises(MappingError):
            to_uri(f"http://a/{c}")
        assert to_uri(f"http://a/{c}", encode_ascii="encode") == "http://a/" + "".join(
            f"%{b:02X}" for b in c.encode())
    with pytest.raises(MappingError, match="surrogate"):
        to_uri("http://a/\ud800", encode_ascii="encode")
    with pytest.raises(ValueError, match="encode_ascii"):
        to_uri("http://a/", encode_ascii="maybe")  # type: ignore[arg-type]


# ---------------------------------------------------------------- sec. 3.2 URI -> IRI


@pytest.mark.parametrize(("uri", "iri"), [
    # sec. 3.2.1, example 1: strictly legal UTF-8 is decoded
    ("http://www.example.org/D%C3%BCrst", "http://www.example.org/D\u00fcrst"),
    # example 2: %FC is not UTF-8, re-encoded (never guess iso-8859-1)
    ("http://www.example.org/D%FCrst", "http://www.example.org/D%FCrst"),
    # example 3: U+202E RLO is re-encoded (step 4, sec. 4.1); case of the hex not preserved
    ("http://xn--99zt52a.example.org/%e2%80%ae", "http://xn--99zt52a.example.org/%E2%80%AE"),
    # sec. 3.2: MUST NOT guess another encoding
    ("http://www.example.org/r%E9sum%E9.html", "http://www.example.org/r%E9sum%E9.html"),
    # sec. 6.4 examples
    ("http://www.example.org/r%C3%A9sum%C3%A9.html", "http://www.example.org/r\u00e9sum\u00e9.html"),
    ("http://www.example.org/r%E9sum%E9.xml#r%C3%A9sum%C3%A9",
     "http://www.example.org/r%E9sum%E9.xml#r\u00e9sum\u00e9"),
    # step 2: "%", reserved and not-allowed ASCII stay encoded, as written
    ("http://a/%25%2f%3F%23%20%3c%7B%09", "http://a/%25%2f%3F%23%20%3c%7B%09"),
    # step 2: unreserved ASCII is decoded
    ("http://a/%7euser/%41%2D%5F", "http://a/~user/A-_"),
    # step 3: overlong and other illegal UTF-8 (sec. 8)
    ("http://a/%C0%AF", "http://a/%C0%AF"),
    ("http://a/%E0%80%AF", "http://a/%E0%80%AF"),
    ("http://a/%ED%A0%80", "http://a/%ED%A0%80"),  # a surrogate
    ("http://a/%F4%90%80%80", "http://a/%F4%90%80%80"),  # beyond U+10FFFF
    ("http://a/%C3", "http://a/%C3"),  # truncated
    ("http://a/%C3%BC%BC", "http://a/\u00fc%BC"),  # a stray continuation
    ("http://a/%C3%2F%BC", "http://a/%C3%2F%BC"),  # split by an ASCII octet
    # step 4: not appropriate characters (sec. 2.2, 4.1, 6.1)
    ("http://a/%E2%80%8F", "http://a/%E2%80%8F"),  # RLM
    ("http://a/%E2%81%A6", "http://a/%E2%81%A6"),  # LRI
    ("http://a/%C2%A0%E3%80%80", "http://a/%C2%A0%E3%80%80"),  # look-alikes of space
    ("http://a/%C2%85", "http://a/%C2%85"),  # C1 control
    ("http://a/%E2%81%A0%EF%BB%BF%E2%80%8B", "http://a/%E2%81%A0%EF%BB%BF%E2%80%8B"),  # invisible
    ("http://a/%CD%80%E2%BF%B0", "http://a/%CD%80%E2%BF%B0"),  # RFC 3491 C.8, C.7
    ("http://a/%D9%85%E2%80%8C%D9%85", "http://a/\u0645\u200c\u0645"),  # ZWNJ is kept
    ("http://a/%EF%BF%BE", "http://a/%EF%BF%BE"),  # non-character
    ("http://a/%EF%BF%BD", "http://a/%EF%BF%BD"),  # specials
    ("http://a/%F3%A0%80%81", "http://a/%F3%A0%80%81"),  # tag
    # private use: only in the query (sec. 2.2)
    ("http://a/%EE%80%80?%EE%80%80#%EE%80%80", "http://a/%EE%80%80?\ue000#%EE%80%80"),
    # non-BMP
    ("http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82",
     "http://example.com/\U00010300\U00010301\U00010302"),
    # hosts are decoded too; no IDNA by default (RFC 3987 3.2.1)
    ("http://r%C3%A9sum%C3%A9.example.org", "http://r\u00e9sum\u00e9.example.org"),
    # already an IRI: characters are kept
    ("http://a/\u00fc%C3%BC", "http://a/\u00fc\u00fc"),
    ("no-percent", "no-percent"),
])
def test_to_iri_examples(uri: str, iri: str) -> None:
    assert to_iri(uri) == iri


def test_to_iri_decode_idna_3987bis_3_7_step_6() -> None:
    uri = "http://xn--99zt52a.example.org/%e2%80%ae"
    assert to_iri(uri) == "http://xn--99zt52a.example.org/%E2%80%AE"
    assert to_iri(uri, decode_idna=True) == "http://\u7d0d\u8c46.example.org/%E2%80%AE"
    assert to_iri("http://xn--rsum-bpad.example.org/", decode_idna=True) == \
        "http://r\u00e9sum\u00e9.example.org/"
    # not a DNS scheme, or an invalid A-label: unchanged
    assert to_iri("foo://xn--99zt52a.org/", decode_idna=True) == "foo://xn--99zt52a.org/"
    assert to_iri("http://xn--zz.org/", decode_idna=True) == "http://xn--zz.org/"
    # round trip through IDNA
    assert to_uri(to_iri(uri, decode_idna=True), idna=True) == \
        "http://xn--99zt52a.example.org/%E2%80%AE"


@pytest.mark.parametrize(("uri", "iri"), [
    ("%3%30", "%3%30"),  # decoding %30 would make "%30", a new escape (then "0": not idempotent)
    ("%%34%31", "%%341"),  # %34 is next to the stray "%" (it would give "%41"); %31 is not
    ("%%34a", "%%34a"),
    ("http://h/a%%C3%A9", "http://h/a%%C3%A9"),  # %C3 stays, and %A9 alone is no UTF-8
    ("http://h/%?%30", "http://h/%?%30"),  # across the query's start too
    ("http://h/%7e%", "http://h/~%"),  # a "%" at the end has nothing after it to decode
    ("http://h/%E9%30", "http://h/%E90"),  # "%E9" is a triplet, not a stray "%"
])
def test_to_iri_decodes_nothing_next_to_a_stray_percent(uri: str, iri: str) -> None:
    """RFC 3987 sec. 3.2 step 2 converts "%" followed by two hex digits; a "%" that is not keeps the
    two characters after it as written, so no new escape appears and the conversion is idempotent."""
    assert to_iri(uri) == iri
    assert to_iri(iri) == iri


@pytest.mark.slow  # linear time: hostile inputs
def test_to_iri_is_linear_on_hostile_input() -> None:
    n = 100_000
    assert to_iri("http://a/" + "%41" * n) == "http://a/" + "A" * n
    assert to_iri("http://a/" + "%C3%BC" * n) == "http://a/" + "\u00fc" * n
    assert to_iri("http://a/" + "%FF" * n) == "http://a/" + "%FF" * n
    assert to_iri("http://a/" + "%%41" * n) == "http://a/" + "%%41" * n
    assert to_uri("http://a/" + "\u00fc" * n) == "http://a/" + "%C3%BC" * n


# ---------------------------------------------------------------- properties

_HEX = re.compile(r"%[0-9A-Fa-f]{2}")


def _canon(uri: str) -> str:
    """Hex in uppercase, percent-encoded unreserved decoded: what sec. 3.2 allows to differ."""
    def fix(m: re.Match[str]) -> str:
        c = chr(int(m.group()[1:], 16))
        return c if c.isascii() and (c.isalnum() or c in "-._~") else m.group().upper()
    return _HEX.sub(fix, uri)


_uri_chars = st.sampled_from([*"abcXYZ019-._~!$&'()*+,;=:@/?", "%41", "%7e", "%2F", "%25",
                             "%20", "%C3%BC", "%c3%bc", "%E2%80%AE", "%FC", "%C0%AF", "%EE%80%80",
                             "%F0%90%8C%80", "%E7%B4%8D", "%C2%A0", "%ED%A0%80", "%F4%8F%BF%BF"])


@st.composite
def uris(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["http", "https", "foo", "urn"]))
    host = draw(st.sampled_from(["", "a", "EXAMPLE.com", "xn--99zt52a.jp", "r%C3%A9sum%C3%A9.org",
                                 "[::1]", "192.0.2.1"]))
    path = "".join(draw(st.lists(_uri_chars, max_size=12))).replace("?", "")
    query = draw(st.one_of(st.none(), st.lists(_uri_chars, max_size=6).map("".join)))
    frag = draw(st.one_of(st.none(), st.lists(_uri_chars, max_size=4).map("".join)))
    out = f"{scheme}://{host}/{path}"
    if query is not None:
        out += "?" + query
    if frag is not None:
        out += "#" + frag
    return out


_iri_chars = st.one_of(
    _uri_chars,
    st.characters(min_codepoint=0xA0, max_codepoint=0x10FFFD).filter(
        lambda c: is_valid("a:" + c) and c not in "\ufffe"),
)


@st.composite
def iris(draw: st.DrawFn) -> str:
    path = "".join(draw(st.lists(_iri_chars, max_size=10))).replace("?", "")
    host = draw(st.sampled_from(["a", "\u00fc.de", "\u7d0d\u8c46.jp", "[::1]", ""]))
    query = "".join(draw(st.lists(st.one_of(_iri_chars, st.sampled_from(["\ue000", "\U000f0000"])),
                                  max_size=5)))
    return f"{draw(st.sampled_from(['http', 'foo']))}://{host}/{path}?{query}"


@settings(max_examples=300)
@given(uris())
def test_to_uri_is_identity_on_uris(uri: str) -> None:
    assert is_valid(uri, profile="uri")
    assert to_uri(uri) == uri
    assert to_uri(uri, idna=True) == uri


@settings(max_examples=300)
@given(iris())
def test_to_uri_idempotent_and_valid(iri: str) -> None:
    assert is_valid(iri)
    uri = to_uri(iri)
    assert uri.isascii()
    assert is_valid(uri, profile="uri")
    assert to_uri(uri) == uri


@settings(max_examples=300)
@given(uris())
def test_to_iri_round_trip(uri: str) -> None:
    iri = to_iri(uri)
    assert is_valid(iri)
    assert _canon(to_uri(iri)) == _canon(uri)  # sec. 3.2: up to hex case and unreserved
    assert to_iri(iri) == iri  # idempotent


@settings(max_examples=200)
@given(iris())
def test_to_iri_of_to_uri_keeps_appropriate_characters(iri: str) -> None:
    back = to_iri(to_uri(iri))
    assert _canon(to_uri(back)) == _canon(to_uri(iri))


def test_round_trip_changes_only_hex_case_and_encoded_unreserved() -> None:
    """Sec. 3.2: the law the module docstring states, and that it is not plain equality."""
    assert to_uri(to_iri("http://a/%7e%c3%bc%2F")) == "http://a/~%C3%BC%2F"
    assert _canon(to_uri(to_iri("http://a/%7e%c3%bc%2F"))) == _canon("http://a/%7e%c3%bc%2F")



# ---------------------------------------------------------------- the URI to send (uri_edits)


def test_uri_edits_prefer_idna_for_a_dns_host() -> None:
    """The one suggestion of rule IRI404 and the editor's hover: IDNA for a DNS host (3987bis 3.4.2)
    where IDNA2008 takes it, else IDNA2003 (Python's codec, as its socket module resolves the name: fixtures236's
    '☃.net', once percent-encoded by a safe fix, a host urllib never decodes), else percent-encoding (3.4.1);
    ASCII as ``to_uri``'s ``encode_ascii`` says."""
    def applied(text: str, **kw: str) -> list[str]:
        return [text[a:b] + " -> " + new for a, b, new in uri_edits(scan(text), **kw)]  # type: ignore[arg-type]

    assert applied("http://bücher.example/straße") == ["bücher.example -> xn--bcher-kva.example", "ß -> %C3%9F"]
    assert applied("http://a_ü.example/") == ["a_ü.example -> xn--a_-yka.example"]  # (IDNA2008's STD3: no "_")
    assert applied("http://\u2603.net/x") == ["\u2603.net -> xn--n3h.net"]  # (a symbol IDNA2008 refuses)
    assert applied("http://a\u200db.example/") == ["\u200d -> %E2%80%8D"]  # (both refuse a ZWJ there)
    assert applied("foo://bücher.example/") == ["ü -> %C3%BC"]  # not a DNS scheme
    assert applied("http://example.com/a") == []
    with pytest.raises(MappingError):
        uri_edits(scan("http://bücher.example/a b"))
    assert applied("http://bücher.example/a b", encode_ascii="encode")[1] == "  -> %20"
    assert applied("http:///é") == ["é -> %C3%A9"]  # an empty host (this once looped for ever)
    assert applied("http://h.example/é") == ["é -> %C3%A9"]
