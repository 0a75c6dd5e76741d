"""Template placeholders: recognised by each template language's grammar, as a plain reference scan
and Python's own format-string parser find them, in linear time."""

from __future__ import annotations

import _string  # the C parser behind str.format
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from iri_lint.source import templates
from iri_lint.source.model import HOLE
from iri_lint.source.templates import (
    Filling,
    apply_templates,
    date_format,
    may_be_filled,
    merge_fillings,
    placeholder_spans,
)

Span = tuple[int, int, "str | None"]

# -- the reference: one start character at a time, each grammar by hand -------------------------


def _word(value: str, j: int, *, first: bool) -> int:
    """End of a run of word characters at ``j`` (the first one no digit when ``first``)."""
    if j < len(value) and (value[j].isalnum() or value[j] == "_") and not (first and value[j].isdecimal()):
        j += 1
        while j < len(value) and (value[j].isalnum() or value[j] == "_"):
            j += 1
    return j


def _format_field(value: str, i: int, *, nested: bool) -> int:
    """End of a str.format replacement field at ``i`` (0: none)."""
    n = len(value)
    j = i + 1
    if j < n and value[j].isdecimal():
        while j < n and value[j].isdecimal():
            j += 1
    elif _word(value, j, first=True) > j:  # (its first name: words that '-' may join, "{realm-name}")
        while j < n and (value[j].isalnum() or value[j] in "_-"):
            j += 1
    while j < n:
        if value[j] == "." and _word(value, j + 1, first=True) > j + 1:
            j = _word(value, j + 1, first=True)
        elif value[j] == "[":
            k = j + 1
            while k < n and value[k] not in "]{}":
                k += 1
            if k == j + 1 or k == n or value[k] != "]":
                break
            j = k + 1
        else:
            break
    if j + 1 < n and value[j] == "!" and value[j + 1] in "rsa":
        j += 2
    if j < n and value[j] == ":":
        j += 1
        while j < n and value[j] != "}":
            if value[j] == "{":
                if not nested:
                    return 0
                k = _format_field(value, j, nested=False)
                if not k:
                    return 0
                j = k
            else:
                j += 1
    return j + 1 if j < n and value[j] == "}" else 0


_HEX = "0123456789abcdefABCDEF"


def _varchar(value: str, j: int) -> int:
    if j < len(value) and (value[j].isascii() and (value[j].isalnum() or value[j] == "_")):
        return j + 1
    if value.startswith("%", j) and len(value) >= j + 3 and all(c in _HEX for c in value[j + 1 : j + 3]):
        return j + 3
    return j


def _rfc6570(value: str, i: int) -> int:
    """End of an RFC 6570 expression at ``i`` (0: none)."""
    j = i + 1
    if j < len(value) and value[j] in "+#./;?&":
        j += 1
    while True:
        k = _varchar(value, j)
        if k == j:
            return 0
        j = k
        while True:  # varname = varchar *( ["."] varchar )
            k = _varchar(value, j)
            if k == j and value.startswith(".", j):
                k = _varchar(value, j + 1)
                k = k if k > j + 1 else j
            if k == j:
                break
            j = k
        if value.startswith(":", j) and j + 1 < len(value) and value[j + 1] in "123456789":
            k = j + 2
            while k < len(value) and k < j + 5 and value[k].isdigit() and value[k].isascii():
                k += 1
            j = k
        elif value.startswith("*", j):
            j += 1
        if value.startswith(",", j):
            j += 1
            continue
        return j + 1 if value.startswith("}", j) else 0


_TCHAR = set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _runtime_expression(value: str, i: int) -> int:
    """End of an OpenAPI runtime expression in braces at ``i`` (0: none), read a character at a time."""
    j = i + 2
    if not value.startswith("{$", i):
        return 0
    for word in ("url}", "method}", "statusCode}"):
        if value.startswith(word, j):
            return j + len(word)
    for side in ("request.", "response."):
        if value.startswith(side, j):
            j += len(side)
            break
    else:
        return 0
    if value.startswith("header.", j):
        k = j + len("header.")
        while k < len(value) and value[k] in _TCHAR:
            k += 1
        return k + 1 if k > j + len("header.") and value.startswith("}", k) else 0
    for part in ("query.", "path."):
        if value.startswith(part, j):
            k = value.find("}", j + len(part))
            return k + 1 if k >= 0 and "{" not in value[j:k] else 0
    if not value.startswith("body", j):
        return 0
    k = j + len("body")
    if value.startswith("#", k):
        k += 1
        while k < len(value) and value[k] == "/":
            k += 1
            while k < len(value) and value[k] not in "/{}":
                if value[k] == "~":
                    if value[k + 1 : k + 2] not in ("0", "1"):
                        return 0
                    k += 1
                k += 1
    return k + 1 if value.startswith("}", k) else 0


def _until(value: str, i: int, close: str, stops: str) -> int:
    """End of ``close`` first met after ``i``, before any of ``stops`` (0: none)."""
    k = i
    while k < len(value):
        if value.startswith(close, k):
            return k + len(close)
        if value[k] in stops:
            return 0
        k += 1
    return 0


def _jinja_until(value: str, i: int, close: str) -> int:
    """End of ``close`` first met after ``i``, before a brace outside a quoted string (0: none); a quoted
    string ends at its quote and holds no newline and none of ``{{ {% {# }} %}``."""
    k = i
    while k < len(value):
        if value.startswith(close, k):
            return k + len(close)
        c = value[k]
        if c in "{}":
            return 0
        if c in "'\"":
            k += 1
            while k < len(value) and value[k] != c:
                if value[k] == "\n" or value[k : k + 2] in ("{{", "{%", "{#", "}}", "%}"):
                    return 0
                k += 1
            if k == len(value):
                return 0
        k += 1
    return 0


def _mapping_key(value: str, j: int) -> int:
    """After ``(name)`` at ``j`` (0: no closing parenthesis before another opening one)."""
    k = j + 1
    while k < len(value) and value[k] not in "()":
        k += 1
    return k + 1 if k < len(value) and value[k] == ")" else 0


def _printf_tail(value: str, j: int, flags: str = "#0 +-", length: bool = True) -> int:
    """After a conversion's ``%`` (and its mapping key): flags, width, precision and length (``length``)."""
    while j < len(value) and value[j] in flags:
        j += 1
    if value.startswith("*", j):
        j += 1
    else:
        while j < len(value) and value[j].isdecimal():
            j += 1
    if value.startswith(".", j):
        j += 1
        if value.startswith("*", j):
            j += 1
        else:
            while j < len(value) and value[j].isdecimal():
                j += 1
    if length and j < len(value) and value[j] in "hlL":
        j += 1
    return j


def _printf(value: str, i: int, pct: bool, every: bool) -> int:
    j = i + 1
    named = value.startswith("(", j)
    if named:
        j = _mapping_key(value, j)
        if not j:
            return 0
    elif not pct and (value.startswith("%", j) or (len(value) >= j + 2 and all(c in _HEX for c in value[j : j + 2]))):
        return 0
    # (no space flag where not %-formatted, nor a length modifier but in a literal known to be a printf template)
    j = _printf_tail(value, j, "#0 +-" if pct or named else "#0+-", length=pct or named or every)
    types = "diouxXeEfFgGcrsa%" if pct or every or named else "sdirf"
    return j + 1 if j < len(value) and value[j] in types else 0


def _escaped_printf(value: str, i: int) -> int:
    """``%%s`` at ``i``: printf makes it ``%s``, a placeholder of the value (not ``%%2F``, nor ``%%done``)."""
    j = i + 2
    if len(value) >= j + 2 and all(c in _HEX for c in value[j : j + 2]):
        return 0
    if value.startswith("(", j):
        j = _mapping_key(value, j)
        if not j:
            return 0
    j = _printf_tail(value, j)
    if j < len(value) and value[j] in "sdirf":
        after = value[j + 1 : j + 2]
        return 0 if after.isascii() and after.isalnum() else j + 1
    return 0


def _angle(value: str, i: int, routes: bool) -> int:
    plain = i + 1 < len(value) and (value[i + 1].isalpha() or value[i + 1] == "_")
    if plain:
        j = i + 2
        while j < len(value) and (value[j].isalnum() or value[j] in "_-"):
            j += 1
        after = value[j + 1] if j + 1 < len(value) else ""
        if value.startswith(">", j) and (i == 0 or value[i - 1] not in '<>"') and after not in ("<", ">", '"'):
            return j + 1
        after_delimiter = value[max(0, i - 2):i] == "//" or (i > 0 and value[i - 1] in "@,")
        if after_delimiter and value.startswith(":", j) and j + 1 < len(value) and (
                value[j + 1].isalpha() or value[j + 1] == "_"):  # the authority: "//<host:port>"
            k = j + 2
            while k < len(value) and (value[k].isalnum() or value[k] in "_-"):
                k += 1
            if value.startswith(">", k) and value[k + 1:k + 2] in ("", "/", "?", "#", ","):
                return k + 1
    if not routes:
        return 0
    j = i + 1
    if not (j < len(value) and value[j].isascii() and (value[j].isalpha() or value[j] == "_")):
        return 0
    j = _word(value, j, first=True)
    if value.startswith("(", j):
        k = j + 1
        while k < len(value) and value[k] not in "()<>":
            k += 1
        if not value.startswith(")", k):
            return 0
        j = k + 1
    if not value.startswith(":", j) or not (j + 1 < len(value) and value[j + 1].isascii()
                                             and (value[j + 1].isalpha() or value[j + 1] == "_")):
        return 0
    j = _word(value, j + 1, first=True)
    return j + 1 if value.startswith(">", j) else 0


def _ref_at(value: str, i: int, pct: bool, fmt: bool, routes: bool, every: bool,
            escapes: bool) -> tuple[int, str | None]:
    c = value[i]
    if c == "%":
        if (pct or escapes) and value.startswith("%%", i):
            held = _escaped_printf(value, i)
            if held:
                return held, None
            j = i
            while value.startswith("%%", j):
                j += 2
            return j, "%"
        return _printf(value, i, pct, every), None
    if c == "{":
        if fmt and value.startswith("{{{{", i) and (end := _until(value, i + 4, "}}}}", "{}")):
            return end, None  # ("{{{{ ds }}}}" formats to Jinja's "{{ ds }}": a placeholder)
        if fmt and value.startswith("{{", i):
            inner = _format_field(value, i + 1, nested=False) or _rfc6570(value, i + 1)
            if inner and value.startswith("}", inner):
                return inner + 1, None  # ("{{x}}" formats to "{x}": a placeholder)
            j = i
            while value.startswith("{{", j):
                j += 2
            return j, "{"
        if not fmt:
            if value.startswith("{{{", i) and (end := _until(value, i + 3, "}}}", "{}")):
                return end, None  # (Mustache's unescaped variable)
            for opener, close in (("{{", "}}"), ("{%", "%}")):
                if value.startswith(opener, i) and (end := _jinja_until(value, i + 2, close)):
                    return end, None
            if value.startswith("{#", i) and (end := _until(value, i + 2, "#}", "{}")):
                return end, None
        return (_format_field(value, i, nested=True) or _rfc6570(value, i) or _runtime_expression(value, i)), None
    if c == "$":
        return (_until(value, i + 2, "}", "{") if value.startswith("${", i) else 0), None
    return _angle(value, i, routes), None


def ref_spans(value: str, *, percent_template: bool = False, format_template: bool = False,
              every_syntax: bool = False) -> list[Span]:
    """The reference scan: try every ``%``, ``{``, ``$`` and ``<`` in turn, leftmost first; once more with
    ``%%`` as one ``%`` when a printf conversion makes the value a printf template."""
    spans = _ref_encoded(value, _ref_scan(value, percent_template, format_template, every_syntax, escapes=False),
                         percent_template)
    if any(t is None and value[a] == "%" for a, _, t in spans):
        spans = _ref_encoded(value, _ref_scan(value, percent_template, format_template, every_syntax, escapes=True),
                             percent_template)
    return _ref_nested(value, _ref_close_braces(value, spans) if format_template else spans)


def _ref_encoded(value: str, spans: list[Span], pct: bool) -> list[Span]:
    """Where not %-formatted, a text holding an escape no conversion reads (``%2C``) has no conversion with a
    width (``%2s``): each '%' before two hex digits tried as a conversion of the full grammar."""
    encoded = not pct and any(value[i] == "%" and all(c in _HEX for c in value[i + 1 : i + 3]) and
                              len(value) >= i + 3 and not _printf(value, i, True, True) for i in range(len(value)))
    return [(a, b, t) for a, b, t in spans if not (encoded and t is None and value[a] == "%" and
                                                   value[a + 1 : a + 2].isdigit())]


def _ref_nested(value: str, spans: list[Span]) -> list[Span]:
    """The reference for fields nested in braces that are none: each character outside the kept spans read
    in turn (a dropped field's characters too)."""
    kept: list[Span] = []
    starts = {a: (b, t) for a, b, t in spans}
    depth, i = 0, 0
    while i < len(value):
        if i in starts:
            b, t = starts[i]
            if not (depth and t is None and value[i] == "{"):
                kept.append((i, b, t))
                i = max(b, i + 1)
                continue
        if value[i] == "{":
            depth += 1
        elif value[i] == "}" and depth:
            depth -= 1
        i += 1
    return kept


def _ref_scan(value: str, percent_template: bool, format_template: bool, every_syntax: bool,
              escapes: bool) -> list[Span]:
    routes = every_syntax or not _is_absolute(value)
    spans: list[Span] = []
    i = 0
    while i < len(value):
        if value[i] in "%{$<":
            end, text = _ref_at(value, i, percent_template, format_template, routes, every_syntax, escapes)
            if end:
                if text is None:
                    spans.append((i, end, None))
                else:
                    spans.extend((j, j + 2, text) for j in range(i, end, 2))
                i = end
                continue
        i += 1
    return spans


def _is_absolute(value: str) -> bool:
    j = 0
    if not (value[:1].isascii() and value[:1].isalpha()):
        return False
    while j < len(value) and value[j].isascii() and (value[j].isalnum() or value[j] in "+.-"):
        j += 1
    return value.startswith("://", j)


def _ref_close_braces(value: str, spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    pos = 0
    for a, b, t in [*spans, (len(value), len(value), None)]:
        j = value.find("}}", pos, a)
        while j >= 0:
            out.append((j, j + 2, "}"))
            j = value.find("}}", j + 2, a)
        if a < len(value) or b > a:
            out.append((a, b, t))
        pos = b
    return out


def ref_apply(value: str, holes: Sequence[tuple[int, int]], **flags: bool) -> tuple[Any, ...]:
    """The reference collapse: character by character."""
    spans = ref_spans(value, **flags)
    if not spans:
        return value, tuple(holes), None
    parts: list[str] = []
    index_map: list[int] = []
    new_holes: list[tuple[int, int]] = []
    old = {a for a, _ in holes}
    pos = 0
    for a, b, text in [*spans, (len(value), len(value), "")]:
        for i in range(pos, a):
            if i in old:
                new_holes.append((len(index_map), len(index_map) + 1))
            index_map.append(i)
        parts.append(value[pos:a])
        if text is None:
            new_holes.append((len(index_map), len(index_map) + 1))
            parts.append(HOLE)
            index_map.append(a)
        else:
            parts.append(text)
            index_map.extend([a] * len(text))
        pos = b
    index_map.append(len(value))
    return "".join(parts), tuple(new_holes), index_map


# -- agreement with the reference -----------------------------------------------------------------

FLAGS = [{"percent_template": p, "format_template": f, "every_syntax": e}
         for p in (False, True) for f in (False, True) for e in (False, True)]
PIECES = [
    "%", "{", "}", "$", "<", ">", "(", ")", ":", "a", "_", " ", "s", "d", "2F", "%%", "{{", "}}", '"',
    "%(", "{%", "%}", "{#", "#}", "${", "<a", "<a(", "%(a)s", "<int:x>", "{x}", "<a(b):c>", "%5.2f", "%-*d",
    "!r", "[0]", ".b", "+", "?", "*", ",", "1", "%41", "http://", "-", "'", "\n", "@", "/", "%2C", "%2s",
    "{$url}", "{$request.", "body", "#/", "~1", "~", "header.", "query.",  # OpenAPI runtime expressions
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
braces = st.lists(st.sampled_from(["{", "}", "{", "}", "a", "$", "{%", "%}", "{{", " ", ":", "!s", "0", "'", '"']),
                  max_size=120).map("".join)


def _check(value: str) -> None:
    holes = [(i, i + 1) for i, c in enumerate(value) if c == "a"]
    for flags in FLAGS:
        assert placeholder_spans(value, **flags) == ref_spans(value, **flags), (value, flags)
        t = apply_templates(value, holes, **flags)
        assert (t.value, t.holes, t.index_map) == ref_apply(value, holes, **flags), (value, flags)


@settings(max_examples=400, deadline=None)
@given(texts)
@example("{a-}}")  # a field name words joined by '-' may end with one (found by this test)
def test_agrees_with_reference(value: str) -> None:
    _check(value)
    _check("http://h/" + value)


@settings(max_examples=300, deadline=None)
@given(braces)
def test_agrees_with_reference_on_nested_braces(value: str) -> None:
    _check(value)  # nested format fields, unbalanced runs, "${", "{%"


@pytest.mark.parametrize(
    "value",
    [
        "{" * 7 + "x" + "}" * 7,
        "{" * 300 + "}",
        "{ " * 200 + "}" * 3,
        "${" * 9 + "}" * 9 + "{%" * 5,
        "{" + "{{{{{}}}}}" * 40 + "}",
        "{%{%{%" + "}" * 4 + "%s",
        "%(a%(b)s %(%(%(x)d",
        "<a(<b>):c> <a(<b):c> <x(<y(<z)>",
        "%(a %s <a(b <c> ) %(d)x",
        "{{ '{{ '", "{{'{:x}'", "{% '{% '", '{{ "{{ "', "{{ 'a{'", "{{ '}}' }}", "{% '%}' %}", "{{ 'a\n' }}",
        "{a:{b:{c}}}", "{a:>{b!r}}", "{a[{]}", "{a!x}", "{+a,b.c:3,d*}", "{=x}", "{a:10000}",
    ],
)
@pytest.mark.slow  # stress: long and hostile inputs
def test_agrees_on_hostile_shapes(value: str) -> None:
    _check(value)
    _check(value * 7)


@pytest.mark.slow  # stress: long and hostile inputs
def test_long_runs_agree() -> None:
    for unit in ("%", "{", "}", "{{", "}}", "%%", "$", "<", "%(", "{%", "${", "%2F", "{x", "<a(", "{a:", "{a[", "{{ '",
                 "'{:x}'"):
        _check(unit * 1500)
        _check("http://x/" + unit * 1500 + "/{y}/%s")


# -- each grammar, with the examples ------------------------------------------------------


@pytest.mark.parametrize(("expression", "hole"), [
    ("{$request.body#/id}", True), ("{$url}", True), ("{$statusCode}", True), ("{$response.header.Location}", True),
    ("{$request.query.queryUrl}", True), ("{$request.path.id}", True), ("{$request.body#/a~1b/c~0}", True),
    ("{$request.body}", True), ("{$foo}", False), ("{$request.body#/a~2}", False), ("{$request.cookie.x}", False),
])
def test_openapi_runtime_expressions_are_holes(expression: str, hole: bool) -> None:
    """An OpenAPI 3 callback's key, ``http://notify.example?id={$request.body#/id}`` (fixtures118, repro 01)."""
    value = f"https://x.example/cb?id={expression}&t=1"
    assert (apply_templates(value).value == f"https://x.example/cb?id={HOLE}&t=1") is hole


@pytest.mark.parametrize("field", [
    "{}", "{0}", "{name}", "{name.attr[0]!r:>{width}}", "{date:%Y}", "{0[key]}", "{a.b.c}", "{x!s}",
    "{x:{w}.{p}f}", "{héllo}",
    "{realm-name}", "{user-id.attr}",  # a keyword CPython looks up (python-keycloak's URL patterns: fixtures82)
])
def test_python_format_fields_are_holes(field: str) -> None:
    assert apply_templates(f"https://x.example/a/{field}/b").value == f"https://x.example/a/{HOLE}/b"


@pytest.mark.parametrize("expression", [
    "{var}", "{+path}", "{#frag}", "{.ext}", "{/a,b}", "{;p}", "{?q,page}", "{&x}", "{var:3}", "{list*}",
    "{?a.b,c%20d*}", "{x:9999}",
])
def test_rfc6570_expressions_are_holes(expression: str) -> None:
    assert apply_templates(f"https://x.example/a{expression}").value == f"https://x.example/a{HOLE}"


@pytest.mark.parametrize("braces", [
    "{ ?x a ?y }",  # SPARQL: a space is in no field name
    '{"a": 1}',  # JSON
    "{=x}", "{!x}", "{@x}", "{|x}", "{,x}",  # RFC 6570's reserved operators
    "{a b}", "{-}", "{a!x}", "{a[]}", "{x:{y:{z}}}",  # no field of either grammar
])
def test_braces_that_are_no_field_stay_characters(braces: str) -> None:
    assert "{" in apply_templates(f"https://x.example/?q={braces}").value


@pytest.mark.parametrize(("value", "holes"), [
    ("https://g.example/graphql?query={__schema{types{name}}}", 0),  # GraphQL (fixtures96, repro 01)
    ('https://h.example/?filter={"id": "{id}"}', 0),  # a JSON object's text
    ("https://h.example/{a}/{b}?q={x:{w}}", 3),  # fields side by side, and nested in a field's spec
    ("https://h.example/}{a}", 1),  # (a '}' closes nothing: no brace is open)
    ("https://h.example/{}{a}", 2), ("https://h.example/{ {a}", 0),
])
def test_a_field_inside_braces_that_are_none_is_their_text(value: str, holes: int) -> None:
    """As Python's format parser reads them: ``{types{name}}`` is no field (``unexpected '{' in field name``)."""
    assert len(apply_templates(value).holes) == holes


@pytest.mark.parametrize(("value", "holes"), [
    ("http://${HOST}/x", 1), ("http://h/{{ page }}/{% if x %}y{% endif %}{# c #}", 4),
    ("http://h/%s/%(name)s/%5.2f", 3), ("http://h/%2F%20", 0), ("http://h/%u00E9", 0),
    ("http://h/promo/50% sale.pdf", 0), ("http://h/20% discount", 0),  # (a bare '%' and a space: fixtures151)
    ("http://h/?q=CPU%high&min=100%lifetime", 0),  # (no length modifier where nothing %-formats it: fixtures184)
    ("http://h/u/{{{name}}}/{{&id}}", 2),  # (Mustache's unescaped variables: fixtures184 repro 02)
    # an escape no conversion reads (%2C) makes %2s the escape mistyped; %2F is one (type F), %s stays one
    ("http://h/?f=a%2Cb%2sc", 0), ("http://h/?f=a%2Fb%2sc", 1), ("http://h/?q=%s&f=a%2Cb", 1),
])
def test_other_template_languages(value: str, holes: int) -> None:
    assert len(apply_templates(value).holes) == holes


@pytest.mark.parametrize(("value", "holes"), [
    ("https://e.com/{{ '{:%Y}'.format(d) }}/", 1), ('https://e.com/{% if x == "}" %}a{% endif %}/', 2),
    ("https://e.com/{{ x|replace(\"'\", '') }}/", 1),
    ("https://e.com/{{ 'a}}' }}/", 0), ("https://e.com/{{ 'a }}/", 0),  # (a quote that does not close: no Jinja)
])
def test_jinja_holding_a_quoted_brace_is_one_placeholder(value: str, holes: int) -> None:
    """fixtures106 repro 03: a quoted string inside Jinja may hold a brace (``'{:%Y}'.format(d)``); it does not
    end the placeholder, but none of Jinja's own delimiters is read inside one (linear: no scan reads past the
    next place a placeholder may start)."""
    assert len(apply_templates(value).holes) == holes
    _check(value)


def test_jinja_written_through_format_is_a_placeholder() -> None:
    """fixtures106 repro 01: ``"https://{host}/{{{{ ds }}}}/m.json".format(host=h)`` formats to Jinja's ``{{ ds }}``,
    a placeholder as an f-string's ``{{{{ ds }}}}`` is; ``{{{{`` alone is two literal braces."""
    t = apply_templates("https://{host}/{{{{ ds }}}}/m.json", format_template=True)
    assert t.value == f"https://{HOLE}/{HOLE}/m.json"
    assert apply_templates("https://h/{{{{/a", format_template=True).value == "https://h/{{/a"


def test_format_escapes_where_the_literal_is_formatted() -> None:
    """In a ``.format`` template ``{{`` and ``}}`` are braces: around what reads as a placeholder (``{{x}}``
    formats to ``{x}``) the value holds that placeholder, as an f-string's ``{{x}}`` does (fixtures24, repro
    01); around anything else, braces."""
    t = apply_templates("http://h/{{x}}/{y}", format_template=True)
    assert t.value == f"http://h/{HOLE}/{HOLE}"
    assert apply_templates("http://h/{{a b}}/{y}", format_template=True).value == f"http://h/{{a b}}/{HOLE}"
    assert apply_templates("http://h/{{x}}/{y}").value == f"http://h/{HOLE}/{HOLE}"  # Jinja, else


@pytest.mark.parametrize(("value", "placeholder"), [
    ("https://login.<Region>/token", True), ("https://h/repos/o/r/pulls/<number>", True),
    ("https://h/?next=<api-key>", True), ('https://h/?q="><script>', False), ('https://h/<a href="x">', False),
    # words an example asks the reader to write (outside4 repro 04: pyTelegramBotAPI's examples)
    ("https://<ip/host where the bot is running>:8443/", True), ("https://h/<ip or hostname>", True),
    ("https://h/<a b/>", False), ("https://h/</a b>", False), ("https://h/<a  b>", False),
    ("https://h/?q=<b>bold</b>", False),  # markup: its '</b>' closes it (fixtures162's note: IRI805 misled)
    ("https://h/<b>/x</i>", True),
    ("https://h/<int:id>", False), ("/users/<int:id>", True),
    # the authority as one placeholder, host and port (last stop's Left: IRI102 and IRI112 on the example)
    ("http://<ip:port>/api", True), ("http://<host:port>", True), ("//<hostname:port>?x", True),
    ("http://<a:b>x/", False), ("http://h/<a:b>/", False), ("http://x<a:b>/", False),
    ("memcached://<ip:port>,<ip:port>", True), ("postgresql://app@<host:port>,<host:port>/app", True),
])
def test_angle_placeholders(value: str, placeholder: bool) -> None:
    assert (HOLE in apply_templates(value).value) is placeholder


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "{", "}", "{{", "}}", "{0}", "{x}", "{x.y}", "{x[1]}", "{x!r}", "{:>{w}}",
                                 "{x:%Y}", "/", "{ x}", "{x:{y}}", "{!r}", ":", "!", "{a-b}", "{-a}"]),
                       max_size=30).map("".join))
def test_format_fields_are_those_python_parses(value: str) -> None:
    """Wherever Python's own parser (``_string.formatter_parser``, what str.format runs) reads a
    string whose fields all fit the documented grammar, the scan finds exactly those fields."""
    try:
        parsed = list(_string.formatter_parser(value))
    except ValueError:
        return
    fields = [(name, spec, conv) for _, name, spec, conv in parsed if name is not None]
    if not all(_grammatical(name, spec, conv, nested=True) for name, spec, conv in fields):
        return
    found = [value[a:b] for a, b, text in placeholder_spans(value, format_template=True) if text is None]
    # ("{{x}}" is no field but the placeholder "{x}" of the value it formats to: no field starts with "{{")
    found = [f for f in found if not f.startswith("{{")]
    assert [_name_of(f) for f in found] == [name for name, _, _ in fields], (value, found)


def _grammatical(name: str, spec: str | None, conv: str | None, *, nested: bool) -> bool:
    first, rest = _string.formatter_field_name_split(name)
    if not (first == "" or isinstance(first, int) or (  # (an identifier, or words joined by '-': "realm-name")
            str(first)[:1] != "-" and str(first).replace("-", "_").isidentifier())):
        return False
    if isinstance(first, int) and not name[:1].isdecimal():
        return False
    for is_attr, key in rest:
        if (is_attr and not str(key).isidentifier()) or (not is_attr and any(c in "{}" for c in str(key))):
            return False
    if conv is not None and conv not in "rsa":
        return False
    if spec and ("{" in spec or "}" in spec):
        if not nested:
            return False
        try:
            inner = list(_string.formatter_parser(spec))
        except ValueError:
            return False
        if any("{" in text or "}" in text for text, _, _, _ in inner):
            return False  # ("{:{{0}}}": braces two deep in a spec, past the one level the grammar has)
        return all(_grammatical(n, s, c, nested=False) for _, n, s, c in inner if n is not None)
    return True


def _name_of(field: str) -> str:
    body = field[1:-1]
    depth = 0
    for k, c in enumerate(body):
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        elif c in "!:" and depth == 0:
            return body[:k]
    return body


# -- linear: a failed start costs at most the text up to its second next brace -------------------


class _Counting:
    """Wraps a compiled pattern; counts the matches the scan looks at."""

    def __init__(self, pat: Any, counter: list[int]) -> None:
        self.pat = pat
        self.counter = counter

    def finditer(self, value: str, pos: int = 0) -> Iterator[Any]:
        self.counter[0] += 1
        for m in self.pat.finditer(value, pos):
            self.counter[0] += 1
            yield m


def _steps(monkeypatch: pytest.MonkeyPatch, value: str, **flags: Any) -> int:
    counter = [0]
    real = templates._pattern

    def counting(*args: Any) -> Any:
        return _Counting(real(*args), counter)

    monkeypatch.setattr(templates, "_pattern", counting)
    templates.apply_templates(value, **flags)
    monkeypatch.undo()
    return counter[0]


@pytest.mark.parametrize(
    "unit",
    ["%", "{", "{{", "$", "<", "%(", "{%", "${", "%2F", "{x", "<a(", "<a(<", "a", " ", "\\", "\t", "{a:", "{a["],
)
@pytest.mark.parametrize("flags", FLAGS)
def test_runs_cost_a_few_steps(monkeypatch: pytest.MonkeyPatch, unit: str, flags: dict[str, bool]) -> None:
    value = "http://x/" + unit * (20_000 // len(unit))
    if flags["percent_template"] and unit in ("%", "%2F"):  # every "%%" / "%2F" is a placeholder
        return
    assert _steps(monkeypatch, value, **flags) <= 10, unit


@pytest.mark.parametrize("value", [
    "{a:" * 100_000, "{a[" * 100_000, "{a:" + "x" * 100_000 + "{b:" * 100_000, "{{" + "x" * 100_000,
    "%(" * 100_000, "<a(" * 100_000, "${" * 100_000, "{%" * 100_000, "{+a," * 100_000, "{a." * 100_000,
    "{" * 100_000 + "}" * 100_000,
    "{$request.body#/" * 50_000, "{$request.query." * 50_000, "{$request.body#/a~" * 50_000,  # (OpenAPI's)
])
def test_hostile_values_end(value: str) -> None:
    """Every start fails after a bounded stretch: 10^5 starts would take minutes if each read on."""
    for flags in FLAGS:
        apply_templates(value, (), **flags)


def test_escape_runs_are_one_step_each(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _steps(monkeypatch, "%%" * 10_000, percent_template=True) <= 3
    assert _steps(monkeypatch, "{{" * 10_000, format_template=True) <= 3
    t = apply_templates("a%%%%b", percent_template=True)
    assert (t.value, t.index_map) == ("a%%b", [0, 1, 3, 5, 6])


# -- names filled in elsewhere ---------------------------------------------------------------------


def test_fillings_merge_as_a_union() -> None:
    a = Filling(pct=True, replaced=("ID",))
    b = Filling(fmt=True, replaced=("X", "ID"))
    assert merge_fillings(a, b) == Filling(True, True, ("ID", "X")) == merge_fillings(b, a)


@pytest.mark.parametrize(("text", "filled"), [
    ("x = 1\n", False), ("URL % x\n", True), ("URL.format(x)\n", True), ("URL.replace('a', b)\n", True),
    ("url.replace\n", False),
])
def test_may_be_filled_is_a_cheap_text_test(text: str, filled: bool) -> None:
    assert may_be_filled(text) is filled


@pytest.mark.parametrize(("value", "read"), [
    ("https://s.example/sale/50%%25/%s", f"https://s.example/sale/50%25/{HOLE}"),  # printf: %% is one %
    ("https://s.example/rate/%(n)d%%", f"https://s.example/rate/{HOLE}%"),
    ("https://s.example/sale/50%%25/x", "https://s.example/sale/50%%25/x"),  # no conversion: no printf template
    ("https://s.example/%2F%%/%s", f"https://s.example/%2F%/{HOLE}"),  # (an encoding stays one)
])
def test_a_printf_conversion_makes_double_percent_one_percent(value: str, read: str) -> None:
    """A literal holding a printf conversion (a placeholder wherever it is filled) is a printf template, in which
    ``%%`` stands for one ``%`` (fixtures25: ``"…/50%%25/%s"`` read as a malformed ``%``)."""
    assert apply_templates(value).value == read


@pytest.mark.parametrize(("value", "read"), [
    ("%s/items/%%s", f"{HOLE}/items/{HOLE}"),  # printf makes "%s": a placeholder of the value it makes
    ("%s/items/%%(id)d/x", f"{HOLE}/items/{HOLE}/x"),
    ("%s/sale/%%25", f"{HOLE}/sale/%25"),  # an encoding of the value
    ("%s/a/%%dd", f"{HOLE}/a/%dd"),  # (%DD: an encoding too)
    ("%s/100%%done", f"{HOLE}/100%done"),  # "%d" runs into a word: no placeholder
])
def test_an_escaped_printf_placeholder_is_one_of_the_value(value: str, read: str) -> None:
    """``%%s`` of a ``%`` template formats to ``%s``, which a later ``%`` fills, as ``{{x}}`` of a ``.format``
    template formats to ``{x}``: a placeholder, not a malformed percent-encoding (fixtures36, repro 02)."""
    assert apply_templates(value, percent_template=True).value == read


@pytest.mark.parametrize(("value", "dated"), [
    ("https://blog.example.org/%Y/%m/%d/", True), ("https://h/%Y-%m-%dT%H:%M", True), ("https://h/%-d/%-m", True),
    ("https://h/%C3%A9/%Y/%m", True),  # (a percent-encoding beside them is one)
    ("https://h/%Y%%/%m", True),
    ("https://h/%Y", False), ("100%Sale", False),  # one conversion alone: maybe a broken percent-encoding
    ("https://h/%Y/%q", False), ("https://h/%Y/%m/%", False),  # a '%' that is no conversion: no date's format
    ("https://h/%2F%2F", False),
    ("http://%user:%pass@host", False),  # words after '%' (w3lib's tests): broken encodings, not a date's format
    ("https://h/%Y-%m-%dT%H:%M:%S", True),
])
def test_a_date_format_by_its_grammar(value: str, dated: bool) -> None:
    """fixtures121, repro 02: ``DAILY_URL = "https://blog.example.org/%Y/%m/%d/"`` in settings.py, filled by
    ``day.strftime(DAILY_URL)`` in another module, was IRI110 at ``%Y``."""
    assert date_format(value) is dated
