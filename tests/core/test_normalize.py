"""The comparison ladder (RFC 3987 sec. 5.3): steps, traces, equivalence, properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint import equivalent, normalize, normalize_trace, to_iri, to_uri
from iri_lint.core import is_valid, scan
from iri_lint.core.normalize import Normalization

# ---------------------------------------------------------------- worked examples of sec. 5


def test_5_3_2_example() -> None:
    a = "example://a/b/c/%7Bfoo%7D/ros\u00e9"
    b = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9"
    assert equivalent(a, b, level="syntax")
    assert not equivalent(a, b, level="simple")
    assert normalize(b) == a


def test_5_3_2_1_case() -> None:
    assert equivalent("HTTP://www.EXAMPLE.com/", "http://www.example.com/")
    assert normalize("HTTP://www.EXAMPLE.com/") == "http://www.example.com/"
    assert normalize("http://a/%3a%7b") == "http://a/%3A%7B"
    # other components are case-sensitive
    assert not equivalent("http://a/B", "http://a/b", level="scheme")
    assert not equivalent("http://a/?Q", "http://a/?q", level="scheme")
    assert not equivalent("http://U@a/", "http://u@a/", level="scheme")


def test_5_3_2_2_no_character_normalization() -> None:
    nfc = "http://www.example.org/r\u00e9sum\u00e9.html"
    nfd = "http://www.example.org/re\u0301sume\u0301.html"
    for level in ("simple", "syntax", "scheme"):
        assert not equivalent(nfc, nfd, level=level)
    assert normalize(nfd, level="scheme") == nfd


def test_5_3_2_3_percent_encoding() -> None:
    for x in ("http://example.org/~user", "http://example.org/%7euser", "http://example.org/%7Euser"):
        assert normalize(x) == "http://example.org/~user"
    # reserved characters keep their encoding
    assert not equivalent("http://a/a%2Fb", "http://a/a/b", level="scheme")
    # IRI form is the normal form: encoded UTF-8 of ucschar is decoded
    assert normalize("http://a/ros%C3%A9") == "http://a/ros\u00e9"
    assert equivalent("http://a/ros%c3%a9", "http://a/ros\u00e9")
    # not UTF-8: stays encoded, never guessed (sec. 3.2)
    assert normalize("http://a/r%e9sum%e9") == "http://a/r%E9sum%E9"
    assert not equivalent("http://a/r%E9sum%E9", "http://a/r\u00e9sum\u00e9")
    # characters not appropriate literally are aligned on the encoded form
    assert normalize("http://a/\u202e") == "http://a/%E2%80%AE"
    assert equivalent("http://a/%e2%80%ae", "http://a/\u202e")
    assert normalize("http://a/%EE%80%80?%EE%80%80") == "http://a/%EE%80%80?\ue000"


def test_5_3_2_4_dot_segments() -> None:
    assert normalize("http://a/b/c/./../../g") == "http://a/g"
    assert normalize("http://a/%2E%2E/b") == "http://a/b"  # decoded first, then removed
    assert normalize("http://a/b/%2e/c") == "http://a/b/c"
    assert normalize("http://a/\u00e9/./\u00fc/../x") == "http://a/\u00e9/x"
    # an IRI's rootless path loses them as resolution removes them (RFC 3986 sec. 5.2.2) ...
    assert normalize("urn:a/../b") == "urn:/b"
    assert normalize("urn:a/./b/.") == "urn:a/b/"
    assert normalize("urn:a/..//b") == "urn:/.//b"  # not "urn://b", which has an authority
    # ... a relative reference's rootless path keeps them: they still act on the base
    assert normalize("../a/./b") == "../a/./b"
    # no authority: keep the path from reading as one
    assert normalize("foo:/..//x") == "foo:/.//x"
    assert normalize("foo:/.//x") == "foo:/.//x"


SCHEME_EQUIVALENT = ["http://example.com", "http://example.com/", "http://example.com:/",
                     "http://example.com:80/"]


def test_5_3_3_example() -> None:
    for x in SCHEME_EQUIVALENT:
        assert normalize(x, level="scheme") == "http://example.com/"  # the second is the normal form
        for y in SCHEME_EQUIVALENT:
            assert equivalent(x, y, level="scheme")
    assert not equivalent("http://example.com", "http://example.com/", level="syntax")


def test_5_3_3_delimiters_are_kept() -> None:
    assert not equivalent("http://example.com/?", "http://example.com/", level="scheme")
    assert not equivalent("http://example.com/#", "http://example.com/", level="scheme")
    assert normalize("http://example.com/?#", level="scheme") == "http://example.com/?#"
    assert not equivalent("http://a@example.com/", "http://example.com/", level="scheme")
    assert not equivalent("http://:@example.com/", "http://@example.com/", level="scheme")


def test_5_3_3_idn() -> None:
    a, b = "http://r\u00e9sum\u00e9.example.org", "http://xn--rsum-bpad.example.org"
    assert equivalent(a, b, level="scheme")
    assert not equivalent(a, b, level="syntax")
    assert normalize(b, level="scheme") == "http://r\u00e9sum\u00e9.example.org/"  # Unicode form
    assert equivalent("http://R\u00c9SUM\u00c9.Example.org", a, level="scheme")  # UTS #46 case
    assert equivalent("http://r%C3%A9sum%C3%A9.example.org", b, level="scheme")
    assert equivalent("http://\uff45xample.com", "http://example.com", level="scheme")  # full-width
    # UTS #46 maps U+3002 IDEOGRAPHIC FULL STOP to "." as to_uri(idna=True) does
    assert equivalent("http://\u7d0d\u8c46\u3002jp", "http://xn--99zt52a.jp", level="scheme")
    assert normalize("http://\u7d0d\u8c46\u3002JP/", level="scheme") == "http://\u7d0d\u8c46.jp/"
    # invalid labels stay as they are; non-DNS schemes are not touched
    assert normalize("http://xn--zz.org/", level="scheme") == "http://xn--zz.org/"
    assert normalize("http://a_\u00e9.org/", level="scheme") == "http://a_\u00e9.org/"
    assert normalize("foo://xn--99zt52a.jp/", level="scheme") == "foo://xn--99zt52a.jp/"
    assert normalize("http://[::1]:80", level="scheme") == "http://[::1]/"


def test_5_1_fragment_excluded_for_network_actions() -> None:
    assert not equivalent("http://a/b#x", "http://a/b#y")
    assert equivalent("http://a/b#x", "http://a/b#y", ignore_fragment=True)
    assert equivalent("http://a/b#x", "http://a/b", level="simple", ignore_fragment=True)
    assert equivalent("http://a/b#x", "HTTP://A/b#", level="syntax", ignore_fragment=True)


@pytest.mark.parametrize(("x", "y"), [
    ("https://a:443/", "https://a/"),
    ("https://a:0443", "https://a/"),
    ("ws://a:80", "ws://a/"),
    ("wss://a:443/x", "wss://a/x"),
    ("ftp://a:21/x", "ftp://a/x"),
    ("coap://a:5683", "coap://a/"),
    ("foo://a:/", "foo://a/"),
])
def test_scheme_table(x: str, y: str) -> None:
    assert normalize(x, level="scheme") == y


@pytest.mark.parametrize(("x", "y"), [
    ("file://host", "file://host/"),  # RFC 8089 sec. 2: auth-path = [ file-auth ] path-absolute
    ("FILE://Host", "file://host/"),
    ("file://localhost/etc/hosts", "file:///etc/hosts"),  # "exactly as if no authority were present"
    ("file://LOCALHOST", "file:///"),
    ("file:///etc/hosts", "file:///etc/hosts"),
    ("file://u@localhost/x", "file://u@localhost/x"),  # a userinfo: not the plain local machine
])
def test_file_scheme(x: str, y: str) -> None:
    assert normalize(x, level="scheme") == y
    assert equivalent(x, y, level="scheme")
    assert normalize(x, level="syntax") != y or x == y or x.lower() == y  # the scheme level's doing


def test_not_equivalent_at_scheme_level() -> None:
    assert not equivalent("http://a:443/", "http://a/", level="scheme")
    assert not equivalent("foo://a:80/", "foo://a/", level="scheme")
    assert not equivalent("ftp://a", "ftp://a/", level="scheme")  # no empty-path rule for ftp
    assert not equivalent("http://a/b", "https://a/b", level="scheme")


# ---------------------------------------------------------------- the trace


def test_trace_steps_and_spans() -> None:
    src = "HTTP://www.EXAMPLE.com:80/a/./%7euser/r%c3%a9sum%c3%a9"
    r = normalize_trace(src, level="scheme")
    assert isinstance(r, Normalization)
    assert r.value == "http://www.example.com/a/~user/r\u00e9sum\u00e9"
    assert [s.name for s in r.steps] == ["case-scheme", "percent-hex-case", "percent-unreserved",
                                         "percent-nonascii", "case-host", "dot-segments",
                                         "default-port"]
    assert r.steps[0].before == src and r.steps[-1].after == r.value
    for a, b in zip(r.steps, r.steps[1:], strict=False):
        assert a.after == b.before
    for step in r.steps:
        assert step.section.startswith("RFC 3987 sec. 5.3")
        # applying the edits to `before` gives `after`
        out, pos = [], 0
        for e in step.edits:
            out += [step.before[pos : e.span.start], e.replacement]
            pos = e.span.end
        assert "".join([*out, step.before[pos:]]) == step.after
    by_name = {s.name: s for s in r.steps}
    assert [src[s.start : s.end] for s in by_name["case-host"].source_spans] == ["EXAMPLE"]
    assert [src[s.start : s.end] for s in by_name["default-port"].source_spans] == [":80"]
    assert [src[s.start : s.end] for s in by_name["percent-unreserved"].source_spans] == ["%7e"]
    assert [src[s.start : s.end] for s in by_name["percent-nonascii"].source_spans] == \
        ["%c3%a9", "%c3%a9"]
    assert [src[s.start : s.end] for s in by_name["dot-segments"].source_spans] == ["./"]
    assert [src[s.start : s.end] for s in by_name["percent-hex-case"].source_spans] == \
        ["%7e", "%c3%a9", "%c3%a9"]
    assert by_name["percent-hex-case"].edits[1].replacement == "%C3%A9"  # a run is one edit


def test_trace_insertion_maps_to_end() -> None:
    r = normalize_trace("http://r%C3%A9sum%C3%A9.example.org", level="scheme")
    step = next(s for s in r.steps if s.name == "empty-path")
    assert step.edits[0].replacement == "/"
    assert step.source_spans == (type(step.edits[0].source)(35, 35),)


def test_no_steps_when_normal() -> None:
    r = normalize_trace("http://example.com/", level="scheme")
    assert r.steps == () and not r.changed
    assert normalize_trace("HTTP://A", level="simple").value == "HTTP://A"


def test_bad_level() -> None:
    with pytest.raises(ValueError, match="level"):
        normalize("http://a/", level="protocol")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level"):
        equivalent("a", "a", level="nope")  # type: ignore[arg-type]


def test_malformed_percent_is_not_decoded() -> None:
    assert normalize("http://a/%%34%31") == "http://a/%%34%31"
    assert normalize(normalize("http://a/%%3441")) == normalize("http://a/%%3441")


@pytest.mark.slow  # linear time: hostile inputs
def test_hostile_inputs_are_linear() -> None:
    n = 100_000
    r = normalize_trace("http://a/" + "%41" * n, level="scheme")
    assert r.value == "http://a/" + "A" * n
    step = next(s for s in r.steps if s.name == "percent-unreserved")
    assert len(step.edits) == 1  # one merged edit, not 100k
    assert normalize("http://a" + "/.." * n + "/x") == "http://a/x"
    assert normalize("HTTP://a/" + "%c3%bc" * n) == "http://a/" + "\u00fc" * n


# ---------------------------------------------------------------- properties

_pieces = st.sampled_from([
    "a", "B", "~", "-", "%41", "%7e", "%7E", "%2f", "%2F", "%25", "%c3%a9", "%C3%A9", "\u00e9", "%FC",
    "%e2%80%ae", "\u202e", "%C2%A0", "\u00a0", ".", "..", "/", "/./", "/../", "%2E", ";", "=", "\u7d0d",
    "%EE%80%80", "\ue000", "\U00010300", "%F0%90%8C%80", "%C0%AF", "@", ":",
])
_hosts = st.sampled_from(["", "a", "EXAMPLE.com", "Ex%41mple.org", "xn--99zt52a.jp", "\u7d0d\u8c46.jp",
                          "r%c3%a9sum%c3%a9.org", "R\u00c9SUM\u00c9.org", "xn--rsum-bpad.org",
                          "[::1]", "[2001:DB8::1]", "192.0.2.1", "xn--zz.org", "a_\u00e9.org"])


@st.composite
def iris(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["http", "HTTP", "https", "ws", "foo", "Foo", "urn", "ftp", ""]))
    authority = draw(st.booleans())
    path = "".join(draw(st.lists(_pieces, max_size=8)))
    out = ""
    if scheme:
        out = scheme + ":"
    if authority:
        port = draw(st.sampled_from(["", ":", ":80", ":443", ":080", ":8080"]))
        out += "//" + draw(_hosts) + port
        if path and not path.startswith("/"):
            path = "/" + path
    elif path.startswith("//"):
        path = "/." + path
    if not scheme and not authority:
        first = path.split("/")[0]
        if ":" in first:
            path = "./" + path
    out += path
    q = draw(st.one_of(st.none(), st.lists(_pieces, max_size=4).map("".join)))
    if q is not None:
        out += "?" + q
    f = draw(st.one_of(st.none(), st.lists(_pieces, max_size=3).map("".join)))
    if f is not None:
        out += "#" + f
    return out


@settings(max_examples=500)
@given(iris(), st.sampled_from(["syntax", "scheme"]))
def test_normalize_idempotent_and_valid(x: str, level: str) -> None:
    n = normalize(x, level=level)  # type: ignore[arg-type]
    assert normalize(n, level=level) == n  # type: ignore[arg-type]
    assert equivalent(x, n, level=level)  # type: ignore[arg-type]
    if is_valid(x):
        assert is_valid(n)


@settings(max_examples=300)
@given(iris(), iris())
def test_levels_are_monotone(x: str, y: str) -> None:
    if equivalent(x, y, level="simple"):
        assert equivalent(x, y, level="syntax")
    if equivalent(x, y, level="syntax"):
        assert equivalent(x, y, level="scheme")
    # and with the normal forms, which are the interesting pairs
    n = normalize(x)
    assert equivalent(x, n, level="syntax") and equivalent(x, n, level="scheme")
    # the scheme level only adds steps on top of the syntax level: monotone by construction
    assert normalize(n, level="scheme") == normalize(x, level="scheme")


@settings(max_examples=300)
@given(iris(), st.randoms(use_true_random=False))
def test_syntax_variants_are_equivalent(x: str, rnd: object) -> None:
    """Variants made by 5.3.2 operations (hex case, encoding unreserved, scheme case) are equal."""
    import random

    assert isinstance(rnd, random.Random)
    ref = scan(x)
    out = []
    for i, c in enumerate(x):
        in_scheme = ref.scheme is not None and i < ref.scheme.end
        if in_scheme and rnd.random() < 0.5:
            out.append(c.swapcase())
        elif not in_scheme and c.isascii() and c.isalnum() and rnd.random() < 0.2 \
                and ref.path.start <= i < ref.path.end and "%" not in x[max(i - 2, 0) : i]:
            out.append(f"%{ord(c):02x}")
        else:
            out.append(c)
    y = "".join(out)
    assert equivalent(x, y, level="syntax")
    assert equivalent(x, y, level="scheme")


@settings(max_examples=300)
@given(iris())
def test_syntax_level_agrees_with_the_mapped_uri(x: str) -> None:
    """Syntax-equivalent forms map to the same URI (sec. 5.3.2.3), up to what 5.3.2 changes."""
    n = normalize(x)
    try:
        ux, un = to_uri(x), to_uri(n)
    except ValueError:
        return
    assert normalize(to_iri(ux)) == normalize(to_iri(un)) == n


@pytest.mark.parametrize("port", ["\u0668\u0660", "\xb2\xb2", "\uff18\uff10"])
def test_a_port_of_non_ascii_digits_is_never_read_as_a_number(port: str) -> None:
    iri = f"http://h:{port}/"
    assert normalize(iri, level="scheme") == iri  # not "http://h/": that is no default port
    assert not equivalent(iri, "http://h/", level="scheme")
    assert equivalent(iri, iri, level="scheme")


@pytest.mark.parametrize(("base", "ref"), [("http://h/", "urn:a/../b"), ("http://h/x/", "tag:a/./b/../c"),
                                           ("foo:p/q", "bar:x/../../y")])
def test_resolution_and_normalization_agree_on_rootless_paths(base: str, ref: str) -> None:
    from iri_lint import resolve

    assert equivalent(resolve(base, ref), ref)


@pytest.mark.parametrize(("iri", "level"), [("/%/../%7e", "syntax"), ("/%/../\u2066", "scheme"),
                                            ("http://h/%/../%2E%2E/%7e", "syntax"),
                                            ("a:%/../%41/%/../%42", "scheme")])
def test_a_stray_percent_removed_by_dot_segments_still_reaches_the_fixed_point(iri: str, level: str) -> None:
    once = normalize(iri, level=level)  # type: ignore[arg-type]
    assert normalize(once, level=level) == once  # type: ignore[arg-type]
