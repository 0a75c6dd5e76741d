"""Template placeholders inside a literal's value, recognised by the grammar of each template language.

A literal may be filled anywhere: in another module, through ``self.X.format(...)``, by a framework,
by ``uritemplate``. So a placeholder is recognised by its own grammar wherever the literal is, and
stands for valid content of its component (docs/design.md, "Which literals are IRIs"); braces that
are no such field (``{ ?x a ?y }`` in SPARQL, a JSON body) stay characters at fault.

One compiled search finds the next placeholder; Python runs once per placeholder found. Every
pattern is possessive, and no placeholder but a format field's one nested field crosses a brace,
so a failed start costs at most the text up to its second next brace: linear in the value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from iri_lint.core.lazy import lazy_regex
from iri_lint.source.model import HOLE

Span = tuple[int, int, "str | None"]

# ---------------------------------------------------------------- Python format fields
# The Python documentation, "Format String Syntax" (string module):
#   replacement_field ::= "{" [field_name] ["!" conversion] [":" format_spec] "}"
#   field_name        ::= arg_name ("." attribute_name | "[" element_index "]")*
#   arg_name          ::= [identifier | digit+]
#   attribute_name    ::= identifier
#   element_index     ::= digit+ | index_string
#   index_string      ::= <any source character except "]"> +
#   conversion        ::= "r" | "s" | "a"
#   format_spec       ::= text, with replacement fields nested one level deep ("{:>{width}}")
# (An index string holds no brace here: "{a[{]}" is never meant as a field in a URL.) CPython looks up any
# arg_name up to '.', '[', '!', ':' or '}' as a keyword (format(**{"realm-name": r})): a name with hyphens, as
# python-keycloak's "realms/{realm-name}/...", is read as one too; not quotes or spaces (JSON in a query).
_IDENT = r"[^\W\d]\w*+"
_FIELD_NAME = rf"(?:[^\W\d][\w-]*+|\d++)?+(?:\.{_IDENT}|\[[^\]{{}}]++\])*+"
_CONVERSION = r"(?:![rsa])?+"
_NESTED_FIELD = rf"\{{{_FIELD_NAME}{_CONVERSION}(?::[^{{}}]*+)?+\}}"
FORMAT_FIELD = rf"\{{{_FIELD_NAME}{_CONVERSION}(?::(?:[^{{}}]++|{_NESTED_FIELD})*+)?+\}}"

# ---------------------------------------------------------------- RFC 6570 expressions (levels 1-4)
#   expression    =  "{" [ operator ] variable-list "}"
#   operator      =  op-level2 / op-level3 / op-reserve
#   op-level2     =  "+" / "#"
#   op-level3     =  "." / "/" / ";" / "?" / "&"
#   op-reserve    =  "=" / "," / "!" / "@" / "|"      ; reserved: not a template of any level
#   variable-list =  varspec *( "," varspec )
#   varspec       =  varname [ modifier-level4 ]
#   varname       =  varchar *( ["."] varchar )
#   varchar       =  ALPHA / DIGIT / "_" / pct-encoded
#   modifier-level4 = prefix / explode
#   prefix        =  ":" max-length
#   max-length    =  %x31-39 0*3DIGIT                   ; positive integer < 10000
#   explode       =  "*"
_VARCHAR = r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})"
_VARSPEC = rf"{_VARCHAR}++(?:\.{_VARCHAR}++)*+(?::[1-9][0-9]{{0,3}}+|\*)?+"
RFC6570_EXPRESSION = rf"\{{[+#./;?&]?+{_VARSPEC}(?:,{_VARSPEC})*+\}}"

# ---------------------------------------------------------------- OpenAPI runtime expressions in braces
# an OpenAPI 3 callback's or link's key ("http://notify.example?id={$request.body#/id}", sec. "Runtime
# Expressions"):
#   expression = "$url" / "$method" / "$statusCode" / "$request." source / "$response." source
#   source     = "header." token / "query." name / "path." name / "body" ["#" json-pointer]
#   json-pointer = *( "/" reference-token ), reference-token = *( unescaped / "~" ( "0" / "1" ) )
_SOURCE = r"header\.[!#$%&'*+\-.^_`|~0-9A-Za-z]++|(?:query|path)\.[^{}]*+|body(?:\#(?:/(?:[^/~{}]|~[01])*+)*+)?+"
RUNTIME_EXPRESSION = rf"\{{\$(?:url|method|statusCode|(?:request|response)\.(?:{_SOURCE}))\}}"

# ---------------------------------------------------------------- other template languages
# Jinja: {{ expression }}, {% statement %}, {# comment #}: no brace of their own but in a quoted string
# (``{{ '{:%Y}'.format(d) }}``), which holds no delimiter of Jinja's (``{{``, ``}}``, ``%}``: so no scan that
# fails reads past the next place a match may start); each alternative starts with its own character
_JINJA_CHAR = r"[^'\"\n{}%]|\{(?![{%#])|\}(?!\})|%(?!\})"
_JINJA_QUOTED = rf"'(?:{_JINJA_CHAR}|\")*+'|\"(?:{_JINJA_CHAR}|')*+\""
JINJA = (rf"\{{\{{(?:[^{{}}'\"]++|{_JINJA_QUOTED})*+\}}\}}|\{{%(?:[^{{}}%'\"]++|%(?!\}})|{_JINJA_QUOTED})*+%\}}"
         r"|\{\#(?:[^{}\#]++|\#(?!\}))*+\#\}")
# Mustache/Handlebars's unescaped variable: {{{name}}} ({{&name}} and sections are Jinja's shape already)
MUSTACHE_TRIPLE = r"\{\{\{[^{}]*+\}\}\}"
# shell and JavaScript: ${NAME}, ${NAME:-default}, ${expression}
DOLLAR_BRACES = r"\$\{[^{}]*+\}"
# printf-style conversion (Python's %-formatting), after the "%" and the optional "(name)":
#   "%" ["(" mapping_key ")"] [flags] [width] ["." precision] [length] type
_PRINTF_TAIL = r"[#0 +\-]*+(?:\*|\d++)?+(?:\.(?:\*|\d*+))?+[hlL]?+"
# where the literal is not known to be %-formatted, no space flag: "50% sale.pdf", "20% discount" are a bare "%"
# and a space in a URL (IRI110, IRI101), not a conversion "% s" that a "%" elsewhere would fill (fixtures151)
# and no length modifier, which Python ignores ("%ld" is "%d"): "CPU%high" is a bare "%" before "high" (IRI110), not
# "%hi" (fixtures184 repro 01); a literal known to be a printf template may have one
_PRINTF_TAIL_UNFORMATTED = _PRINTF_TAIL.replace(" ", "").removesuffix("[hlL]?+")
_ALL_TYPES = "[diouxXeEfFgGcrsa%]"
# where the literal is not known to be %-formatted, only the usual conversions are placeholders: the
# rarer ones read as malformed percent-encodings too ("%u00E9", "50%off"), and %XX is an encoding
_USUAL_TYPES = "[sdirf]"
# a placeholder in an example (an absolute IRI too): <word>, such as <Region> or <number>, or words an example
# asks the reader to write there, between spaces or '/' (<ip/host where the bot is running>, <ip or hostname>),
# standing between characters of the IRI; next to another delimiter ('"><script>') it is markup, not a placeholder
_WORD = r"[^\W\d][\w\-]*+"
PLAIN_WORD = rf"""(?<![<>"])<{_WORD}(?:[ /]{_WORD})*+>(?![<>"])"""
# the whole authority an example asks for, host and port in one: "http://<ip:port>/api", "//<host:port>", after
# the userinfo ("app@<host:port>") and each of a host list's ("memcached://<ip:port>,<ip:port>", fixtures169)
AUTHORITY_WORDS = rf"(?:(?<=//)|(?<=[@,]))<{_WORD}:{_WORD}>(?=[/?#,]|\Z)"
# a route parameter with a converter (Werkzeug, Flask, Django): <int:id>, <re("[a-z]+"):name>
_ROUTE = r"<[A-Za-z_]\w*+(?:\([^()<>]*+\))?+:[A-Za-z_]\w*+>"

_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+://")
_START = re.compile(r"[%{$<]")
_close_pairs = lazy_regex(r"(?:\}\})++")
_brace = lazy_regex(r"[{}]")


@functools.cache
def _pattern(pct: bool, fmt: bool, routes: bool, every_type: bool, pct_escapes: bool = False) -> re.Pattern[str]:
    """The search for the next placeholder (group ``hole``) or run of escapes (``pct_esc``, ``brace_esc``).

    ``pct``: the literal is %-formatted; ``fmt``: it is ``.format``-ted; ``routes``: route parameters
    with converters count (a relative reference); ``every_type``: every printf conversion does;
    ``pct_escapes``: ``%%`` is printf's escape (the literal holds a printf conversion).
    """
    types = _ALL_TYPES if pct or every_type else _USUAL_TYPES
    if pct:
        printf = rf"%(?:\([^()]*+\))?+{_PRINTF_TAIL}{_ALL_TYPES}"
    else:  # "%%" is no escape, and "%2F" an encoding, not a conversion
        tail = _PRINTF_TAIL_UNFORMATTED + ("[hlL]?+" if every_type else "")
        printf = rf"%\([^()]*+\){_PRINTF_TAIL}{_ALL_TYPES}|%(?![(%]|[0-9A-Fa-f]{{2}}){tail}{types}"
    holes = [printf]
    if not fmt:  # in a .format template "{{" is an escaped brace
        holes += [MUSTACHE_TRIPLE, JINJA]
    holes += [FORMAT_FIELD, RFC6570_EXPRESSION, RUNTIME_EXPRESSION, DOLLAR_BRACES, PLAIN_WORD, AUTHORITY_WORDS]
    if routes:
        holes.append(_ROUTE)
    # "%%s" formats to "%s", a placeholder of the value it makes (as "{{x}}" of a .format template); not
    # "%%2F", "%%dd": an encoding of the value, nor "%%done", whose "%d" runs into a word
    alts = [("pct_hole", rf"%%(?![0-9A-Fa-f]{{2}})(?:\([^()]*+\))?+{_PRINTF_TAIL}{_USUAL_TYPES}(?![0-9A-Za-z])"),
            ("pct_esc", r"(?:%%)++")] if pct or pct_escapes else []
    if fmt:  # "{{x}}" formats to "{x}", a placeholder of the value it makes; other "{{" is a literal brace
        alts.append(("escaped_jinja", r"\{\{\{\{[^{}]*+\}\}\}\}"))  # ("{{{{ ds }}}}" formats to Jinja's "{{ ds }}")
        alts.append(("escaped_hole", rf"\{{(?:{_NESTED_FIELD}|{RFC6570_EXPRESSION})\}}"))  # (no field inside)
        alts.append(("brace_esc", r"(?:\{\{)++"))
    alts.append(("hole", "|".join(holes)))
    # the lookahead lets the engine pass over, in C, text where nothing can start
    return re.compile("(?=[%{$<])(?:" + "|".join(f"(?P<{name}>{rx})" for name, rx in alts) + ")")


_ESCAPES = {"pct_esc": "%", "brace_esc": "{"}  # runs of "%%" or "{{": one character each


class Templated(NamedTuple):
    """A value with placeholders collapsed to ``HOLE``."""

    value: str
    holes: tuple[tuple[int, int], ...]
    index_map: list[int] | None  # new index -> index in the input value (None: unchanged)
    percent_escapes: bool = False  # a '%%' was read as one '%': a '%' written into the literal is spelled so


def apply_templates(
    value: str,
    holes: Sequence[tuple[int, int]] = (),
    *,
    percent_template: bool = False,
    format_template: bool = False,
    every_syntax: bool = False,
) -> Templated:
    """Replace every placeholder of ``value`` by ``HOLE``; keep existing (f-string) holes.

    ``percent_template``: the literal is the left operand of ``%`` (``%%`` is a literal ``%``
    and every conversion is a placeholder); otherwise a conversion that is also a valid
    percent-encoding (``%2F``) is kept as text, and only the usual conversions (``%s``, ``%d``,
    ...) are placeholders. ``format_template``: the literal is the receiver of ``.format``
    (``{{``/``}}`` are literal braces). A route parameter with a converter (``<int:id>``) is one
    only in a relative reference. ``every_syntax`` takes every conversion and route parameter
    (prose writes placeholders in every syntax).
    """
    spans = _spans(value, percent_template, format_template, every_syntax)
    if not spans:
        return Templated(value, tuple(holes), None)
    old = sorted({a for a, _ in holes})
    parts: list[str] = []
    index_map: list[int] = []
    new_holes: list[tuple[int, int]] = []
    k = 0  # next old hole
    pos = 0
    for a, b, text in spans:
        if k < len(old) and old[k] < a:
            k = _keep_holes(old, k, pos, a, len(index_map) - pos, new_holes)
        index_map.extend(range(pos, a))
        parts.append(value[pos:a])
        if text is None:
            new_holes.append((len(index_map), len(index_map) + 1))
            parts.append(HOLE)
            index_map.append(a)
        else:  # a run of escapes that stand for literal text (%% or {{ or }})
            parts.append(text * ((b - a) // 2))
            index_map.extend(range(a, b, 2))
        pos = b
    _keep_holes(old, k, pos, len(value), len(index_map) - pos, new_holes)
    index_map.extend(range(pos, len(value) + 1))
    parts.append(value[pos:])
    return Templated("".join(parts), tuple(new_holes), index_map, any(t == "%" for _, _, t in spans))


def _keep_holes(
    old: list[int], k: int, pos: int, end: int, shift: int, out: list[tuple[int, int]]
) -> int:
    """Move the old holes before ``end`` to ``out`` (shifted), dropping those inside a placeholder."""
    while k < len(old) and old[k] < end:
        if old[k] >= pos:
            out.append((old[k] + shift, old[k] + shift + 1))
        k += 1
    return k


def placeholder_spans(
    value: str, *, percent_template: bool = False, format_template: bool = False, every_syntax: bool = False
) -> list[tuple[int, int, str | None]]:
    """Spans (start, end, literal text or None for a placeholder) of template syntax in value."""
    out: list[tuple[int, int, str | None]] = []
    for a, b, text in _spans(value, percent_template, format_template, every_syntax):
        if text is None or b - a == 2:
            out.append((a, b, text))
        else:
            out.extend((j, j + 2, text) for j in range(a, b, 2))
    return out


def _spans(value: str, pct: bool, fmt: bool, every: bool) -> list[Span]:
    """Like :func:`placeholder_spans`, but a run of escapes is one span."""
    if _START.search(value) is None:
        spans: list[Span] = []
    else:
        routes = every or _ABSOLUTE.match(value) is None
        spans = _found(value, _pattern(pct, fmt, routes, every))
        if not pct:
            spans = _unless_encoded(value, spans)
            if "%%" in value and any(t is None and value[a] == "%" for a, _, t in spans):
                # a printf conversion makes it a printf template wherever it is filled: "%%" is one "%" there
                spans = _unless_encoded(value, _found(value, _pattern(pct, fmt, routes, every, pct_escapes=True)))
    if fmt:
        spans = _literal_close_braces(value, spans)
    if "</" in value:
        spans = _without_tags(value, spans)
    return _outside_brace_groups(value, spans) if "{" in value else spans


_escape = lazy_regex(r"%[0-9A-Fa-f]{2}")
_conversion = lazy_regex(rf"%(?:\([^()]*+\))?+{_PRINTF_TAIL}{_ALL_TYPES}")


def _unless_encoded(value: str, spans: list[Span]) -> list[Span]:
    """``spans`` less the printf conversions with a width (``%2s``) where ``value`` holds a percent-encoding that is
    no conversion (``%2C``: ``'C'`` is no type, so ``%`` would raise ValueError): a percent-encoded text, where
    ``%2s`` is ``%2C`` mistyped (fixtures188 repro 03); ``%s`` stays one (``.replace("%s", q)`` fills such text)."""
    def width(s: Span) -> bool:
        return s[2] is None and value[s[0]] == "%" and value[s[0] + 1 : s[0] + 2].isdigit()
    if not any(map(width, spans)) or all(_conversion().match(value, m.start()) for m in _escape().finditer(value)):
        return spans
    return [s for s in spans if not width(s)]


_closing_tag = lazy_regex(rf"</({_WORD})>")


def _without_tags(value: str, spans: list[Span]) -> list[Span]:
    """``spans`` less each ``<b>`` whose ``</b>`` the text holds too: markup (``?q=<b>bold</b>``), no example's
    placeholder (one pass for the closing tags, then a set look-up per span: linear)."""
    closed = {m.group(1) for m in _closing_tag().finditer(value)}
    return [s for s in spans if not (s[2] is None and value[s[0]] == "<" and value[s[0] + 1 : s[1] - 1] in closed)]


def _found(value: str, pattern: re.Pattern[str]) -> list[Span]:
    return [(m.start(), m.end(), _ESCAPES.get(m.lastgroup or "")) for m in pattern.finditer(value)]


def _outside_brace_groups(value: str, spans: list[Span]) -> list[Span]:
    """``spans`` less each ``{...}`` placeholder inside braces that are none (GraphQL's ``{a{b{name}}}``, a JSON
    object): there it is their text, as for Python's format parser (``unexpected '{' in field name``)."""
    out: list[Span] = []
    depth = pos = 0
    for a, b, t in spans:
        for m in _brace().finditer(value, pos, a):  # (a '}' closes no more than is open)
            depth = depth + 1 if m.group() == "{" else max(0, depth - 1)
        pos = a
        if depth and t is None and value[a] == "{":
            continue  # (its text counts with what follows: its braces are balanced)
        out.append((a, b, t))
        pos = b
    return out


def _literal_close_braces(value: str, spans: list[Span]) -> list[Span]:
    """In a .format template, ``}}`` outside fields is a literal ``}`` (a run of them: one span)."""
    out: list[Span] = []
    pos = 0
    for a, b, t in [*spans, (len(value), len(value), None)]:
        if value.find("}}", pos, a) >= 0:
            out.extend((m.start(), m.end(), "}") for m in _close_pairs().finditer(value, pos, a))
        if a < len(value) or b > a:
            out.append((a, b, t))
        pos = b
    return out


# ---------------------------------------------------------------- names filled in elsewhere


class Filling(NamedTuple):
    """How a module fills in a name's value: ``NAME % x``, ``NAME.format(...)``, ``NAME.replace("ID", x)``."""

    pct: bool = False  # %-formatted: "%%" is a literal "%", every conversion a placeholder
    fmt: bool = False  # .format-ted: "{{" and "}}" are literal braces
    replaced: tuple[str, ...] = ()  # what .replace() fills in (sorted, no repeats)
    dated: bool = False  # a strftime format: every directive (``%Y``, ``%-d``, ``%%``) a placeholder
    items: bool = False  # filled as ``NAME[key]``: the strings inside the name's displays are the templates


NO_FILLING = Filling()


def merge_fillings(a: Filling, b: Filling) -> Filling:
    """Both fillings of one name (it is formatted in two places): the union of what each does."""
    return Filling(a.pct or b.pct, a.fmt or b.fmt, tuple(sorted({*a.replaced, *b.replaced})), a.dated or b.dated,
                   a.items or b.items)


_directive = lazy_regex(r"%[-_0^#]?[A-Za-z%]")  # (no repetition: linear)


def strftime_directives(value: str) -> tuple[tuple[int, int], ...]:
    """The spans of a strftime format's directives (C's strftime, with glibc's flags): ``%Y``, ``%-d``, ``%%``."""
    return tuple(m.span() for m in _directive().finditer(value))


# C's strftime conversions (with glibc's): what a '%' before a letter must be to make a date's format
_DATE_LETTERS = frozenset("aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ")
_percent = lazy_regex(r"%(?:[0-9A-Fa-f]{2}|[-_0^#]?([A-Za-z%])?)")  # (no repetition: linear)


def date_format(value: str) -> bool:
    """Whether ``value`` reads as a date's format by its grammar alone, wherever ``strftime`` fills it (another
    module's ``day.strftime(DAILY_URL)``): every '%' that is no percent-encoding is a strftime conversion
    that no lowercase letter follows (a separator, another conversion, ``%dT%H``: a word after it,
    ``%user:%pass``, is a broken percent-encoding, IRI110's), and there are two or more
    (``https://blog.example/%Y/%m/%d/``; one alone, ``100%Sale``, may be broken too)."""
    if value.count("%") < 2:
        return False
    conversions = 0
    for m in _percent().finditer(value):
        letter = m.group(1)
        if letter is None:
            if len(m.group()) != 3:  # (a percent-encoding is no conversion; a '%' before anything else is none)
                return False
        elif letter != "%":
            if letter not in _DATE_LETTERS or value[m.end() : m.end() + 1].islower():
                return False
            conversions += 1
    return conversions >= 2


def may_be_filled(text: str) -> bool:
    """Cheap text test: False means no name of the module ``text`` is filled in (no ``%``, no
    ``.format``, no ``.replace(``), so the search for them can be skipped."""
    return "%" in text or ".format" in text or ".replace(" in text
