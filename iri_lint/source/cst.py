"""A second, independent parser for string literals: libcst, used only to cross-check fixes.

Detection runs on the stdlib ``ast`` with our own decoder (``decode.py``/``locate.py``); libcst
costs 10-33x ``ast.parse`` (issue 5), so it runs only on files being fixed. Here libcst's own
tokenizer finds the literals and ``ast.literal_eval`` of each token (libcst's ``evaluated_value``)
gives their values, so a bug in our decoder's spans or escapes shows up as a disagreement.

libcst is imported inside functions only: plain ``check`` must never pay for importing it.
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from ast import literal_eval
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from iri_lint.core.lazy import lazy_regex
from iri_lint.source.locate import split_lines
from iri_lint.source.model import HOLE
from iri_lint.source.templates import apply_templates

# libcst's metadata pass recurses about 4 frames per piece of an implicit concatenation; the
# stdlib's pydoc_data/topics.py (2,215 pieces) needs ~9,000. Beyond this bound we give up.
RECURSION_BOUND = 20_000
# f-string text: keep escapes whole (\N{...} is not a field), undouble {{ and }}
_ftext = lazy_regex(r"\\N\{[^}]*\}|\\[\s\S]|\{\{|\}\}")


class CstUnavailable(Exception):
    """libcst cannot cross-check this text (syntax error, or nesting beyond the bound)."""


class StaticPart(NamedTuple):
    """A ``FormattedStringText`` part of an f-string: its source span and run-time text."""

    start: int
    end: int
    value: str


class CstString(NamedTuple):
    """One string literal as libcst sees it. Offsets are absolute code point offsets of the text."""

    start: int  # first prefix letter or quote (parentheses excluded)
    end: int  # just past the closing quote(s)
    kind: str  # "SimpleString", "ConcatenatedString" or "FormattedString"
    value: str | None  # run-time value; None for bytes and for f-strings with fields
    data: bytes | None = None  # the value of a bytes literal (or an all-bytes concatenation)
    # the value with each f-string field as one HOLE (the convention of locate.expected_value);
    # None when unknown: a ``{x=}`` debug field, bytes, a str/bytes mix
    template: str | None = None
    holes: tuple[tuple[int, int], ...] = ()  # spans of ``template`` that are f-string fields
    static_parts: tuple[StaticPart, ...] = ()  # f-strings: their top-level FormattedStringText parts
    in_concatenation: bool = False  # a piece of an implicit concatenation


@contextlib.contextmanager
def _recursion_limit(limit: int) -> Iterator[None]:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _eval(token: str) -> object:
    with warnings.catch_warnings():  # invalid escapes warn (SyntaxWarning on 3.12+)
        warnings.simplefilter("ignore")
        return literal_eval(token)


def _undouble(m: re.Match[str]) -> str:
    g = m.group()
    return g[0] if g in ("{{", "}}") else g


def ftext_value(prefix: str, quote: str, text: str) -> str:
    """Run-time value of an f-string's static text (escapes decoded, doubled braces undoubled)."""
    raw = "r" in prefix.lower()
    body = text.replace("{{", "{").replace("}}", "}") if raw else _ftext().sub(_undouble, text)
    # a sentinel keeps a trailing quote or backslash off the closing quote
    value = _eval(("r" if raw else "") + quote + body + "#" + quote)
    assert isinstance(value, str)
    return value[:-1]


class _Offsets:
    """(1-based line, code point column) -> absolute offset, splitting lines like the tokenizer."""

    def __init__(self, text: str) -> None:
        bom = 1 if text.startswith("\ufeff") else 0  # libcst's positions leave a BOM out
        self.starts = [bom]
        for line in split_lines(text[bom:]):
            self.starts.append(self.starts[-1] + len(line))

    def __call__(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col


@dataclass(slots=True)
class _Value:
    value: str | None
    data: bytes | None
    template: str | None
    holes: list[tuple[int, int]]
    parts: list[StaticPart]


def _quote_of(s: str) -> str:
    q = s[-1]
    return q * 3 if s.endswith(q * 3) else q


def cst_strings(text: str) -> list[CstString]:  # noqa: C901 - one branch per libcst string node, one walk
    """Every string literal of a module as libcst parses it, sorted by (start, -end).

    Gives the whole of each implicit concatenation and each of its pieces; f-strings nested in
    replacement fields are included too. Raises :class:`CstUnavailable` when libcst cannot parse
    the text or its nesting exceeds :data:`RECURSION_BOUND`.
    """
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    offset = _Offsets(text)
    found: list[CstString] = []

    def simple(node: cst.SimpleString) -> _Value:
        v = _eval(node.value)
        if isinstance(v, bytes):
            return _Value(None, v, None, [], [])
        assert isinstance(v, str)
        return _Value(v, None, v, [], [])

    def formatted(node: cst.FormattedString) -> _Value:
        prefix, quote = node.start[: -len(_quote_of(node.start))], _quote_of(node.start)
        chunks: list[str] = []
        holes: list[tuple[int, int]] = []
        parts: list[StaticPart] = []
        debug = False
        pos = 0
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                s = ftext_value(prefix, quote, part.value)
                r = visitor.get_metadata(PositionProvider, part)
                parts.append(StaticPart(offset(r.start.line, r.start.column), offset(r.end.line, r.end.column), s))
                chunks.append(s)
                pos += len(s)
            elif isinstance(part, cst.FormattedStringExpression):
                debug = debug or part.equal is not None
                chunks.append(HOLE)
                holes.append((pos, pos + 1))
                pos += 1
        template = None if debug else "".join(chunks)
        value = template if not holes else None
        return _Value(value, None, template, holes if template is not None else [], parts)

    def leaf(node: cst.BaseExpression) -> _Value:
        return simple(node) if isinstance(node, cst.SimpleString) else formatted(node)  # type: ignore[arg-type]

    def record(node: cst.CSTNode, v: _Value, *, piece: bool) -> None:
        r = visitor.get_metadata(PositionProvider, node)
        found.append(CstString(
            offset(r.start.line, r.start.column), offset(r.end.line, r.end.column), type(node).__name__,
            v.value, v.data, v.template, tuple(v.holes), tuple(v.parts), piece,
        ))

    inner: set[int] = set()  # ConcatenatedStrings that are the tail of another one
    pieces: set[int] = set()

    class Collector(cst.CSTVisitor):
        METADATA_DEPENDENCIES = (PositionProvider,)

        def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> None:
            pieces.add(id(node.left))
            (inner if isinstance(node.right, cst.ConcatenatedString) else pieces).add(id(node.right))
            if id(node) in inner:
                return
            # walk the chain without recursion: left is always a leaf, right a leaf or a chain
            leaves: list[cst.BaseExpression] = []
            cur: cst.BaseExpression = node
            while isinstance(cur, cst.ConcatenatedString):
                leaves.append(cur.left)
                cur = cur.right
            leaves.append(cur)
            vs = [leaf(x) for x in leaves]
            if all(v.data is not None for v in vs):
                joined = _Value(None, b"".join(v.data for v in vs if v.data is not None), None, [], [])
            elif any(v.data is not None for v in vs):
                joined = _Value(None, None, None, [], [])  # str + bytes: a SyntaxError at compile time
            else:
                holes: list[tuple[int, int]] = []
                base = 0
                for v in vs:
                    holes.extend((a + base, b + base) for a, b in v.holes)
                    base += len(v.template) if v.template is not None else 0
                value = None if any(v.value is None for v in vs) else "".join(v.value or "" for v in vs)
                template = None if any(v.template is None for v in vs) else "".join(v.template or "" for v in vs)
                joined = _Value(value, None, template, holes if template is not None else [], [])
            record(node, joined, piece=False)

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            record(node, simple(node), piece=id(node) in pieces)

        def visit_FormattedString(self, node: cst.FormattedString) -> None:
            record(node, formatted(node), piece=id(node) in pieces)

    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise CstUnavailable(f"libcst cannot parse the file: {exc.message}") from None
    except RecursionError:
        raise CstUnavailable("libcst: nesting too deep") from None
    visitor = Collector()
    for limit in (0, RECURSION_BOUND):  # first under the current limit, then raised (bounded)
        found.clear()
        inner.clear()
        pieces.clear()
        try:
            with _recursion_limit(limit):
                MetadataWrapper(module, unsafe_skip_copy=True).visit(visitor)
            break
        except RecursionError:
            continue
    else:
        raise CstUnavailable(f"libcst: nesting deeper than the recursion bound ({RECURSION_BOUND})")
    found.sort(key=lambda s: (s.start, -s.end))
    return found


def literal_at(strings: list[CstString], start: int, end: int) -> CstString | None:
    """The outermost literal spanning exactly ``[start, end)``."""
    i = bisect_left(strings, (start, -end), key=lambda s: (s.start, -s.end))
    if i < len(strings) and strings[i].start == start and strings[i].end == end:
        return strings[i]
    return None


def verify_with_cst(
    new_text: str,
    start: int,
    end: int,
    expected_value: str,
    *,
    percent_template: bool | None = None,
    format_template: bool = False,
) -> bool | None:
    """Does the literal that libcst finds at exactly ``[start, end)`` evaluate to ``expected_value``?

    True: it does; False: no literal spans exactly that range, or its value differs; None: libcst
    cannot tell (it cannot parse the file, a str/bytes mix, a ``{x=}`` field, or an f-string with
    fields while comparing run-time values).

    By default ``expected_value`` is the run-time value (bytes compare as latin-1 text). With
    ``percent_template`` set (True or False) it is a *checked* value as the scanner builds it
    (``Literal.value``): f-string fields as HOLE, then
    :func:`~iri_lint.source.templates.apply_templates` with the same flags.
    """
    try:
        strings = cst_strings(new_text)
    except CstUnavailable:
        return None
    return verdict(strings, start, end, expected_value, percent_template=percent_template,
                   format_template=format_template)


def verdict(
    strings: list[CstString],
    start: int,
    end: int,
    expected_value: str,
    *,
    percent_template: bool | None = None,
    format_template: bool = False,
) -> bool | None:
    """:func:`verify_with_cst` on already parsed ``strings`` (one parse, many checks)."""
    lit = literal_at(strings, start, end)
    if lit is None:
        return False
    latin1 = lit.data.decode("latin-1") if lit.data is not None else None
    if percent_template is None:  # run-time values
        got = latin1 if latin1 is not None else lit.value
        return None if got is None else got == expected_value
    template = latin1 if latin1 is not None else lit.template
    if template is None:
        return None
    checked = apply_templates(
        template, lit.holes, percent_template=percent_template, format_template=format_template
    ).value
    return checked == expected_value
