"""Notations that are no IRIs (``source.notations``)."""

from __future__ import annotations

import pytest

from iri_lint.source import notations


@pytest.mark.parametrize(
    ("value", "typed"),
    [
        ("List[str]", True), ("list[str]", True), ("dict(str, str)", True), ("Dict[str, List[int]]", True),
        ("Optional[kubernetes.client.V1Pod]", True),
        ("str", False),  # (a lone name is a valid relative reference: nothing to leave out)
        ("img[1].png", False), ("items[0]", False), ("a[b]c", False), ("List[str", False), ("List[str],", False),
        ("Callable[[int], str]", False), ("https://h.example/a[b]", False),
    ],
)
def test_python_types_as_strings(value: str, typed: bool) -> None:
    """An OpenAPI client's ``openapi_types`` maps its fields' names to their types: ``{"urls": "list[str]"}``."""
    assert notations.is_type_expression(value) is typed


@pytest.mark.parametrize(
    ("value", "opens"),
    [
        ("[http[s]://]open.spotify.com/{type}/{id}", True), ("[REDACTED]", True), ("[object Object]", True),
        ("[::1]", False), ("[2001:db8::1]:80", False), ("[fe80::1%25en0]", False), ("[v7.x]", False),
        ("[Docs](https://h.example/)", False), ("[link](https://h.example/a b)", False),  # a Markdown link's
        ("[", False), ("a[b]", False), ("https://[::1]/", False),
    ],
)
def test_a_bracket_opens_only_an_ip_literal(value: str, opens: bool) -> None:
    """RFC 3986 sec. 3.2.2: '[' starts an IP literal, a hex digit, ':' or IPvFuture's 'v' after it; a bracketed word
    first opens no URI reference (tekore's ``"[http[s]://]open.spotify.com/..."`` in an error message)."""
    assert notations.opens_no_reference(value) is opens


def test_a_deeply_nested_type_is_read_in_one_pass() -> None:
    deep = "a[" * 50_000 + "b" + "]" * 50_000
    assert notations.is_type_expression(deep) and not notations.is_type_expression(deep + "]")


@pytest.mark.parametrize(("value", "other"), [
    ("http://db.local:9308\x1b[0m\n\n", True), ("\x1b[1;32mhttps://h.example/\x1b[m", True),
    ("http://h.example/\x1b", False), ("http://h.example/\x1b[", False),  # (no whole escape sequence)
    ("http://h.example/[0m", False),
])
def test_text_colored_for_a_terminal_is_no_iri(value: str, other: bool) -> None:
    """ECMA-48 sec. 5.4: ESC '[' parameters, intermediates and a final byte color a terminal's text; no IRI holds
    an ESC (langchain-community's ``f"http://{host}:{port}\\033[0m"`` in a ``__repr__``)."""
    assert notations.is_other_notation(value) is other


@pytest.mark.parametrize(("value", "optional"), [
    ("mysql://user:password@host:port/dbname[?key=value&key=value...]", True),
    ("clickhousedb://user:password@host[:port][/dbname]", True), ("solr://h/{c}[/?use_ssl=true|false]", True),
    ("http://[::1]:80/", False), ("http://u@[::1]/", False), ("https://h/?filter[name]=x", False),
    ("https://h/?ids[]=1", False), ("http://[[::1]/", False),  # (hyperlink's test of a doubled bracket)
])
def test_a_urls_syntax_with_optional_parts_in_brackets(value: str, optional: bool) -> None:
    """superset's ``sqlalchemy_uri_placeholder``: a '[' right before a delimiter, where no IP literal stands (after
    '//' or '@'), opens an optional part of a syntax, not a URL's; Rails-style ``filter[name]`` keys stay URLs."""
    assert notations.has_optional_part(value) is optional


@pytest.mark.parametrize(("value", "other"), [
    ("!date^1392734382^{date_short}|fallback", True), ("!subteam^S123", True), ("!here", False),
    ("!a/b^c", False), ("/date^x", False),
])
def test_a_slack_control_sequence_is_no_iri(value: str, other: bool) -> None:
    """outside4 repro 06: slack_sdk's ``DateLink`` gives ``Link(url=f"!date^{epoch}^{fmt}")``, which Slack reads as
    ``<!date^...|text>``: '!', a word, fields after '^'."""
    assert notations.is_other_notation(value) is other
