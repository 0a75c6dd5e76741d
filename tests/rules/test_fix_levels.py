"""A fix's claimed ladder level is checked with the engine's own equivalent() (DESIGN.md)."""

from __future__ import annotations

from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.core import to_uri
from iri_lint.core.context import UriOnly
from iri_lint.core.normalize import equivalent
from iri_lint.rules.engine import check
from iri_lint.rules.model import FixLevel, FixSafety, Rule, UseContext
from iri_lint.rules.registry import all_rules

LADDER: dict[FixLevel, Literal["syntax", "scheme"]] = {FixLevel.SYNTAX: "syntax", FixLevel.SCHEME: "scheme"}


def _assert_level_holds(text: str, profile: str = "iri", uri_only_api: UriOnly | bool = False) -> int:
    checked = 0
    for f in check(text, select=["ALL"], context=UseContext.DEREFERENCED, profile=profile,
                   uri_only_api=uri_only_api):
        if f.fix is None:
            continue
        if f.fix.level in LADDER:
            assert equivalent(text, f.fix.value, level=LADDER[f.fix.level]), (f.code, text, f.fix.value)
            checked += 1
        elif f.fix.level is FixLevel.URI:
            assert to_uri(text, encode_ascii="encode") == to_uri(f.fix.value, encode_ascii="encode"), f.code
            checked += 1
        elif f.fix.level is FixLevel.SOURCE:
            assert f.fix.value == text
    return checked


@pytest.mark.parametrize("rule", [r for r in all_rules() if r.fix_level in (*LADDER, FixLevel.URI)],
                         ids=lambda r: r.code)
def test_rule_examples_keep_their_level(rule: Rule) -> None:
    assert any(_assert_level_holds(ex.text, ex.profile, ex.uri_only_api) for ex in rule.invalid)


HOSTS = st.sampled_from(["example.com", "EXAMPLE.com", "xn--bcher-kva.example", "Bücher.example"])
PATHS = st.lists(st.sampled_from(["a", "%7e", "%7E", "..", ".", "%c3%a9", "%C3%A9", "é", "x%2fy", "B"]),
                 max_size=5).map("/".join)


@given(scheme=st.sampled_from(["http", "HTTP", "https", "Https", "ftp"]), host=HOSTS,
       port=st.sampled_from(["", ":", ":80", ":443", ":8080"]), path=PATHS,
       query=st.sampled_from(["", "?q=%41", "?"]))
@settings(max_examples=300, deadline=None)
def test_every_ladder_fix_is_equivalent_at_its_level(scheme: str, host: str, port: str, path: str,
                                                     query: str) -> None:
    checked = _assert_level_holds(f"{scheme}://{host}{port}/{path}{query}")
    default_port = {"http": ":80", "https": ":443"}.get(scheme.lower())
    if scheme != scheme.lower() or port in (":", default_port) or "%7e" in path:
        assert checked, "a non-normal IRI produced no ladder fix to verify"


def test_safety_depends_on_context() -> None:
    text = "HTTPS://example.com:443/a/../b"
    deref = [f.fix for f in check(text, select=["IRI3"], context="dereferenced") if f.fix]
    ident = [f.fix for f in check(text, select=["IRI3"], context="identifier") if f.fix]
    assert deref and all(fx.safety is FixSafety.SAFE for fx in deref)
    assert ident and all(fx.safety is FixSafety.UNSAFE for fx in ident)


def test_uri_only_api_gets_the_mapped_uri() -> None:
    got = check("https://bücher.example/straße", select=["IRI404"], uri_only_api=True,
                context="dereferenced")
    assert [f.code for f in got] == ["IRI404"]
    assert got[0].fix is not None and got[0].fix.value == "https://xn--bcher-kva.example/stra%C3%9Fe"
    assert got[0].fix.safety is FixSafety.SAFE
    assert check("https://bücher.example/straße", select=["IRI404"], uri_only_api=False) == []


def test_uri_only_fix_edits_only_what_the_mapping_changes() -> None:
    text = "http://bücher.example/a/straße?q=日本"
    [f] = check(text, select=["IRI404"], uri_only_api=True, context="dereferenced")
    assert f.fix is not None
    assert f.fix.value == to_uri(text, idna=True)
    assert all(not text[e.start : e.end].isascii() or e.start == 7 for e in f.fix.edits)
    assert [text[e.start : e.end] for e in f.fix.edits] == ["bücher.example", "ß", "日本"]
