"""Joins, urljoin (RFC 3986 sec. 5.2), client base URLs and yarl on values."""

from __future__ import annotations

import ast
import posixpath
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.core.resolve import remove_dot_segments, resolve
from iri_lint.source import assembly
from iri_lint.source.values import HoleKind, Value, concat, hole, made

NODE = ast.Constant("x")


def text(s: str) -> Value:
    return made(s, NODE, None)


def parts(*items: str | None) -> Value:
    """A value from known texts and holes (None)."""
    return concat([text(i) if i is not None else hole(NODE, None, name="h") for i in items])


paths = st.text(st.sampled_from("ab./"), max_size=12)
# (not ":..." first: the core reads an empty scheme there, which it reports as IRI111; RFC 3986 appendix B
# and urllib read a path, as assembly.split does)
refs = st.text(st.sampled_from("ab./?#:"), max_size=10).filter(lambda r: not r.startswith(":"))
bases = st.builds(lambda p, q: "http://h" + ("/" if p and not p.startswith("/") else "") + p + q, paths,
                  st.sampled_from(["", "?q", "#f", "?q#f"]))


@settings(max_examples=500, deadline=None)
@given(paths)
def test_law_dot_segment_spans_spell_remove_dot_segments(path: str) -> None:
    spans = assembly.dot_segment_spans(path)
    assert "".join(path[a:b] for a, b in spans) == remove_dot_segments(path)


@settings(max_examples=500, deadline=None)
@given(bases, st.one_of(refs, st.builds(lambda r: "//g" + r, refs), st.builds(lambda r: "x:" + r, refs)))
def test_law_known_urljoin_is_rfc_3986_resolution(base: str, ref: str) -> None:
    got = assembly.urljoin(text(base), text(ref), NODE, None)
    assert got.text == resolve(base, ref)


@settings(max_examples=500, deadline=None)
@given(st.builds(lambda h, p, q: h + "/" + p + q, st.sampled_from(["", "//h"]), paths,
                 st.sampled_from(["", "?q", "#f", "?q#f"])), refs)
def test_law_urljoin_against_an_absolute_path_is_rfc_3986_resolution(base: str, ref: str) -> None:
    """Django's ``urljoin(STATIC_URL, "img/x.png")``, ``STATIC_URL = "/static"``: a base that is an absolute-path
    (or network-path) reference resolves as one with a scheme does, the scheme left out."""
    got = assembly.urljoin(text(base), text(ref), NODE, None)
    resolved = resolve("http:" + base, ref)
    assert got.text == (resolved[len("http:") :] if resolved.startswith("http:") else resolved)


@settings(max_examples=300, deadline=None)
@given(bases, refs)
def test_law_urljoin_keeps_each_character_from_its_input(base: str, ref: str) -> None:
    b = concat([made(c, NODE, None) for c in base])  # one piece per character: origins are distinct
    r = concat([made(c, NODE, None) for c in ref])
    got = assembly.urljoin(b, r, NODE, None)
    assert got.text == resolve(base, ref)


@pytest.mark.parametrize(("base", "ref", "flat"), [
    (["https://h/api/v2"], ["items"], "https://h/api/items"),  # sec. 5.2.3 drops "v2"
    (["https://", None, "/api/"], ["items/", None], "https://0/api/items/0"),  # a host hole stays a host
    (["https://h/api/", None], ["items"], None),  # the last base segment could hold "/"
    (["https://h/", None, "/x"], ["y"], "https://h/0/y"),
    (["https://h/a"], [None], None),  # the reference's scheme is unknown
    (["https://h/a"], ["v1", None], None),  # "v1" + a hole could read "v1:..."
    (["https://h/a/b"], ["../", None], "https://h/0"),
    (["https://h/a"], ["?q=", None], "https://h/a?q=0"),
    ([None, "/a"], ["b"], None),  # the base's scheme is unknown
    (["en/admin"], ["x"], None),  # a relative-path base: urllib does otherwise than RFC 3986 (``?q`` + ``x``: ``/x``)
    (["/static"], ["img/", None], "/img/0"),  # sec. 5.2.3 drops "static" (STATIC_URL without its '/')
    (["https://h/a"], ["//cdn.example/", None], "https://cdn.example/0"),
    (["https://h/api/"], ["{", None, "}/values"], "https://h/api/{0}/values"),  # ('{' begins no scheme: fixtures187)
    (["https://h/api/"], ["-", None], "https://h/api/-0"),  # (nor does '-': a scheme begins with a letter)
])
def test_urljoin_with_holes_resolves_when_known_text_decides(base: list[str | None], ref: list[str | None],
                                                             flat: str | None) -> None:
    got = assembly.urljoin(parts(*base), parts(*ref), NODE, None)
    if flat is None:
        assert got.opaque
    else:
        assert got.flat() == flat


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from("ab/."), max_size=4), min_size=1, max_size=5))
def test_law_known_posix_join_is_posixpath_join(items: list[str]) -> None:
    got = assembly.posix_join([text(i) for i in items], NODE, None)
    assert got.text == posixpath.join(*items)


def test_posix_join_with_holes() -> None:
    """Where a hole decides what comes before a part, that is a hole; what the parts themselves spell
    after it stays (a "0" is a hole in ``flat``)."""
    assert assembly.posix_join([parts("https://h/a"), parts(None)], NODE, None).flat() == "00"  # "/..." restarts?
    assert assembly.posix_join([parts(None), parts("b")], NODE, None).flat() == "0b"  # (a "/" in the hole?)
    assert assembly.posix_join([parts("a/", None), parts("/b")], NODE, None).flat() == "/b"
    assert assembly.posix_join([parts("a"), parts("b", None)], NODE, None).flat() == "a/b0"
    assert assembly.posix_join([parts("https://h/"), parts(None, " hd")], NODE, None).flat() == "00 hd"
    # (a path that started afresh keeps its text: the URL before it is lost whatever the hole holds)
    assert assembly.posix_join([parts("https://h/a"), parts("/t"), parts(None)], NODE, None).flat() == "/t/0"


@pytest.mark.parametrize(("base", "ref", "expected"), [
    ("https://h/api", "orders/x", "https://h/api/orders/x"),  # httpx puts one "/" after the base path
    ("https://h/api/", "/orders", "https://h/api/orders"),  # and strips the reference's leading "/"
    ("https://h", "orders", "https://h/orders"),
    ("https://h/api", "https://other.example/x", "https://other.example/x"),  # absolute: no base
    ("https://h/api", "?page=2", "https://h/api/?page=2"),
    ("https://h/api", "a#frag", "https://h/api/a#frag"),  # (httpx sends no fragment; it is checked as written)
    # the base's query is in the raw path httpx appends to (fixtures165 repro 02: httpx 0.28 sends these)
    ("https://h/v1?appid=demo", "alerts?lang=en", "https://h/v1?appid=demo/alerts?lang=en"),
    ("https://h/v1?a=1/", "/x", "https://h/v1?a=1/x"),
])
def test_httpx_merge(base: str, ref: str, expected: str) -> None:
    assert assembly.httpx_merge(text(base), text(ref), NODE, None).text == expected


def test_httpx_merge_with_holes() -> None:
    assert assembly.httpx_merge(parts(None), parts("orders/x y"), NODE, None).flat() == "0/orders/x y"
    assert assembly.httpx_merge(parts("https://h/", None), parts("a"), NODE, None).flat() == "https://h/0/a"
    assert assembly.httpx_merge(parts("https://h"), parts(None), NODE, None).opaque
    assert assembly.httpx_merge(parts("https://h#x"), parts("a"), NODE, None).opaque


def test_join() -> None:
    got = assembly.join(text("/"), [text("https://h"), parts("a", None), text("x y")], NODE, None)
    assert got.flat() == "https://h/a0/x y"


@pytest.mark.parametrize(("value", "chars", "left", "right", "flat"), [
    (["https://h/"], "/", False, True, "https://h"),
    (["https://h/", None, "//"], "/", False, True, "https://h/0"),
    ([None, "//"], "/", False, True, "0"),
    (["  a  "], None, True, True, "a"),
    (["//", None, "/"], "/", True, False, "0/"),
])
def test_strip(value: list[str | None], chars: str | None, left: bool, right: bool, flat: str) -> None:
    assert assembly.strip(parts(*value), chars, NODE, None, left=left, right=right).flat() == flat


def test_removeaffix() -> None:
    assert assembly.removeaffix(parts("https://h/"), "/", NODE, None, suffix=True).flat() == "https://h"
    assert assembly.removeaffix(parts("https://h"), "/", NODE, None, suffix=True).flat() == "https://h"
    assert assembly.removeaffix(parts("a", None, "/"), "x/", NODE, None, suffix=True).opaque
    assert assembly.removeaffix(parts("https://h"), "https://", NODE, None, suffix=False).flat() == "h"


def test_quote_keeps_text_it_leaves_unchanged_and_encodes_the_rest() -> None:
    """Known text quoting leaves as it is keeps its literal; other known text is quote's (a bidi control's octets
    stay: fixtures219 repro 1); an unknown value is a hole known to be encoded, with the characters kept."""
    safe = text("a/b-c")
    assert assembly.quoted(safe, None, NODE, None) is safe
    for v in (parts(None), None):
        got = assembly.quoted(v, None, NODE, None, name="q")
        (_, h), = got.holes()
        assert h.kind is HoleKind.ENCODED and h.safe == "/" and h.name == "q"
    assert quote("a/b-c") == "a/b-c"
    assert assembly.quoted(text("a b\u202e"), None, NODE, None).text == "a%20b%E2%80%AE"
    assert assembly.quoted(text("a/b c"), None, NODE, None, plus=True).text == "a%2Fb+c"


@pytest.mark.parametrize(("url", "seg", "flat"), [
    ("https://h/api", "v1", "https://h/api/v1"),
    ("https://h/api/", "v1", "https://h/api/v1"),
    ("https://h", "v1", "https://h/v1"),
    ("https://h/api?q=1#f", "v1", "https://h/api/v1"),  # query and fragment go
    ("https://h/api", "a b", "https://h/api/0"),  # yarl percent-encodes the segment
    ("https://h/api", "/abs", None),  # ValueError in yarl
])
def test_yarl_child(url: str, seg: str, flat: str | None) -> None:
    got = assembly.yarl_child(text(url).retype("yarl.URL"), text(seg), NODE, None)
    assert got.type == "yarl.URL"
    if flat is None:
        assert got.opaque
    else:
        assert got.flat() == flat


def test_yarl_with_path() -> None:
    url = text("https://h/old?q=1").retype("yarl.URL")
    assert assembly.yarl_with_path(url, text("new/x"), NODE, None).flat() == "https://h/new/x"
    assert assembly.yarl_with_path(url, text("/new"), NODE, None).flat() == "https://h/new"
