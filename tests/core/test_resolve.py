"""Reference resolution: RFC 3986 sec. 5.4 examples, IRI examples (RFC 3987 sec. 6.5), linearity."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint import resolve
from iri_lint.core import is_valid, scan
from iri_lint.core.resolve import remove_dot_segments

BASE = "http://a/b/c/d;p?q"

# RFC 3986 sec. 5.4.1
NORMAL = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# RFC 3986 sec. 5.4.2
ABNORMAL = [
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),  # strict parsers
]


@pytest.mark.parametrize(("ref", "target"), NORMAL + ABNORMAL)
def test_rfc3986_5_4(ref: str, target: str) -> None:
    assert resolve(BASE, ref) == target


def test_rfc3986_5_4_2_non_strict() -> None:
    assert resolve(BASE, "http:g", strict=False) == "http://a/b/c/g"
    assert resolve(BASE, "HTTP:g", strict=False) == "http://a/b/c/g"
    assert resolve(BASE, "https:g", strict=False) == "https:g"


# RFC 3986 sec. 5.2.4 examples
@pytest.mark.parametrize(("path", "out"), [
    ("/a/b/c/./../../g", "/a/g"),
    ("mid/content=5/../6", "mid/6"),
    ("", ""),
    ("/", "/"),
    (".", ""),
    ("..", ""),
    ("/.", "/"),
    ("/..", "/"),
    ("/../..", "/"),
    ("//", "//"),
    ("/a//../b", "/a/b"),
    ("a/../b", "/b"),  # rule E then C: the RFC's own result for a rootless path
    ("../a", "a"),
    ("./a/./b/.", "a/b/"),
])
def test_remove_dot_segments(path: str, out: str) -> None:
    assert remove_dot_segments(path) == out


IRI_BASE = "http://例え.jp/ユーザー/文書/目次?質問"


@pytest.mark.parametrize(("ref", "target"), [
    ("../画像/猫.png", "http://例え.jp/ユーザー/画像/猫.png"),
    ("./章/../節", "http://例え.jp/ユーザー/文書/節"),
    ("../../../../résumé", "http://例え.jp/résumé"),
    (".", "http://例え.jp/ユーザー/文書/"),
    ("..", "http://例え.jp/ユーザー/"),
    ("?答え#断片", "http://例え.jp/ユーザー/文書/目次?答え#断片"),
    ("#断片", "http://例え.jp/ユーザー/文書/目次?質問#断片"),
    ("//例.com/./a/../ü", "http://例.com/ü"),
    ("ü./ü../.ü/..ü", "http://例え.jp/ユーザー/文書/ü./ü../.ü/..ü"),
    ("%E2%82%AC/../€", "http://例え.jp/ユーザー/文書/€"),
    ("/Dürst/./../Dürst/", "http://例え.jp/Dürst/"),
])
def test_iri_resolution(ref: str, target: str) -> None:
    assert resolve(IRI_BASE, ref) == target


def test_no_authority_double_slash_guard() -> None:
    assert resolve("foo:/a/b", "/..//x") == "foo:/.//x"
    assert resolve("foo:/a/b", "..//x") == "foo:/.//x"
    assert is_valid(resolve("foo:/a/b", "..//x"), "IRI")


def test_base_needs_a_scheme() -> None:
    with pytest.raises(ValueError, match="absolute"):
        resolve("//a/b", "c")


def test_base_without_path_and_authority() -> None:
    assert resolve("http://a", "g") == "http://a/g"
    assert resolve("http://a", "") == "http://a"
    assert resolve("urn:x", "#f") == "urn:x#f"
    assert resolve("http://a/b#frag", "") == "http://a/b"  # base fragment ignored (5.2.1)


@pytest.mark.slow  # linear time: hostile inputs
def test_hostile_dot_runs_are_linear() -> None:
    n = 100_000
    assert resolve("http://a/b/c", "/.." * n + "/x") == "http://a/x"
    assert resolve("http://a/b/c", "../" * n + "x") == "http://a/x"
    assert remove_dot_segments("/a" * n + "/.." * n) == "/"
    assert remove_dot_segments("/." * n) == "/"
    long = "/" + "é" * n
    assert remove_dot_segments(long + "/../x") == "/x"


_seg = st.sampled_from(["", ".", "..", "a", "é", "%41", "b;c", "..x", "x.", "猫"])
_segs = st.lists(_seg, max_size=8)


@st.composite
def _refs(draw: st.DrawFn) -> str:
    path = "/".join(draw(_segs))
    prefix = draw(st.sampled_from(["", "/", "//host", "//h:8", "s:", "s://h/"]))
    if prefix in ("//host", "//h:8", "s://h/") and path and not path.startswith("/"):
        path = "/" + path
    if prefix == "" and ":" in path.split("/")[0]:
        path = "./" + path
    query = draw(st.sampled_from(["", "?", "?q=ü", "?../x"]))
    frag = draw(st.sampled_from(["", "#", "#f", "#./é"]))
    return prefix + path + query + frag


@st.composite
def _bases(draw: st.DrawFn) -> str:
    path = "/".join(draw(_segs))
    kind = draw(st.sampled_from(["http://a", "http://ü", "foo:", "foo:/"]))
    if kind.startswith("http") and path and not path.startswith("/"):
        path = "/" + path
    if kind == "foo:" and path.startswith("//"):
        path = "/." + path
    if kind == "foo:/" and path.startswith("/"):
        path = "." + path
    return kind + path + draw(st.sampled_from(["", "?q", "?é"]))


@settings(max_examples=400)
@given(_bases(), _refs())
def test_resolution_result_is_a_valid_iri(base: str, ref: str) -> None:
    assert is_valid(base, "IRI")
    assert is_valid(ref)
    target = resolve(base, ref)
    assert is_valid(target, "IRI")
    # the target has no dot-segments left in its path, unless it is the base's own path
    r = scan(ref)
    if r.get("path") or r.scheme is not None or r.authority is not None:
        t = scan(target)
        segs = t.segments
        if t.authority is None and (t.get("path") or "").startswith("/.//"):
            segs = segs[1:]  # the "/." guard before a path starting with "//"
        assert all(target[s.start : s.end] not in (".", "..") for s in segs)
        assert resolve(base, target) == target  # a fixed point
