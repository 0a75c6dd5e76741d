"""Text mode: find IRIs inside docstrings and prose (RFC 3987 sec. 7.3; RFC 3986 appendix C)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from iri_lint.source.candidates import is_absolute_candidate, is_bare_prefix
from iri_lint.source.locate import Locator, SourceFile, SourceMap
from iri_lint.source.model import Literal, Reason, UseContext
from iri_lint.source.templates import apply_templates

# a scheme that does not continue a word; possessive, so finditer stays linear
_SCHEME_START = re.compile(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+:")
_BARE_END = re.compile(r"[\s<>\"`]")  # RFC 3986 appendix C delimiters (and reST/Markdown backquotes)
_QUOTED_END = re.compile(r"[\s<>\"]")
_ANGLE_END = re.compile(r"[<>\"\r\n]")
_TRAILING = frozenset(".,;:!?")
_CLOSERS = {")": "(", "]": "["}


@dataclass(frozen=True, slots=True)
class Span:
    """One IRI found in text: value offsets [start, end) and how it was delimited."""

    start: int
    end: int
    delimiter: str  # "<" angle brackets, '"' double quotes, "" bare


def extract(text: str) -> Iterator[Span]:
    """IRIs inside ``text``, left to right, in linear time (RFC 3987 sec. 7.3; RFC 3986 appendix C)."""
    pos = 0
    n = len(text)
    while pos < n:
        m = _SCHEME_START.search(text, pos)
        if m is None:
            return
        a, e = m.start(), m.end()
        before = text[a - 1] if a else ""
        span = None
        if before == "<":
            span = _angle(text, a, e)
        if span is None:
            span = _bare(text, a, e, quoted=before == '"')
        if span is None:
            pos = e
            continue
        yield span
        pos = max(span.end, e)


def _angle(text: str, a: int, e: int) -> Span | None:
    """``<scheme:...>`` on one line, spaces included (appendix C); ``<rdf:type>`` markup is not one."""
    m = _ANGLE_END.search(text, e)
    if m is None or text[m.start()] != ">":
        return None
    end = m.start()
    value = text[a:end]
    # like a bare IRI: scheme:// or a registered scheme (XML tags such as <foaf:name> are markup)
    if not is_absolute_candidate(value) or is_bare_prefix(value):
        return None
    return Span(a, end, "<")


def _bare(text: str, a: int, e: int, *, quoted: bool) -> Span | None:
    """A bare or double-quoted IRI: ``scheme://`` or a registered scheme, up to whitespace or ``<>"``."""
    m = (_QUOTED_END if quoted else _BARE_END).search(text, e)
    end = m.start() if m is not None else len(text)
    closed = quoted and end < len(text) and text[end] == '"'
    link = text.find("](", e, end)  # a Markdown link [http://x](target): the IRI ends at "]"
    if link >= 0:
        end, closed = link, False
    if not closed:
        end = _strip_trailing(text, a, end)
    value = text[a:end]
    if not is_absolute_candidate(value) or is_bare_prefix(value):
        return None
    return Span(a, end, '"' if closed else "")


def _strip_trailing(text: str, a: int, end: int) -> int:
    """Drop sentence punctuation and unbalanced ``)``, ``]``, ``'`` at the end (appendix C)."""
    counts: dict[str, int] | None = None
    while end > a:
        c = text[end - 1]
        if c in _TRAILING:
            end -= 1
            continue
        if c in _CLOSERS or c == "'":
            if counts is None:  # counted once, then kept up to date: linear
                piece = text[a:end]
                counts = {ch: piece.count(ch) for ch in ("(", ")", "[", "]", "'")}
            if c == "'":
                unbalanced = counts["'"] % 2 == 1
            else:
                unbalanced = counts[c] > counts[_CLOSERS[c]]
            if unbalanced:
                counts[c] -= 1
                end -= 1
                continue
        break
    return end


class EmbeddedLocator(Locator):
    """Maps an embedded IRI's offsets through the containing literal's locator; never edits prose."""

    __slots__ = ("base", "parent", "sub_map")

    def __init__(self, parent: Locator, base: int, sub_map: list[int] | None) -> None:
        super().__init__(parent.node, parent.source)
        self.parent = parent
        self.base = base  # container value offset of the IRI's first character
        self.sub_map = sub_map  # IRI value offset -> offset in the extracted text (templates)

    def source_map(self) -> SourceMap | None:
        """None: fixes are refused, prose is never edited."""
        return None

    def offset(self, i: int) -> int:
        """Absolute file offset of IRI value offset ``i``."""
        m = self.sub_map
        if m is not None:
            i = m[min(max(i, 0), len(m) - 1)]
        return self.parent.offset(self.base + i)


def is_embedded(lit: Literal) -> bool:
    """Whether a literal is an IRI found inside text (its findings report under IRI7xx)."""
    return isinstance(lit.locator, EmbeddedLocator)


def embedded_literals(node: ast.expr, source: SourceFile, raw: str,
                      holes: Sequence[tuple[int, int]] = (), *, percent_template: bool = False,
                      format_template: bool = False) -> list[Literal]:
    """One Literal per IRI inside the text of ``node`` (decoded value ``raw``), placeholders as holes."""
    spans = list(extract(raw))
    if not spans:
        return []
    container = Locator(node, source, percent_template=percent_template, format_template=format_template)
    out = []
    for sp in spans:
        sub_holes = [(a - sp.start, b - sp.start) for a, b in holes if sp.start <= a and b <= sp.end]
        tpl = apply_templates(raw[sp.start:sp.end], sub_holes, percent_template=percent_template,
                              format_template=format_template)
        loc = EmbeddedLocator(container, sp.start, tpl.index_map)
        out.append(Literal(
            value=tpl.value, reason=Reason.ABSOLUTE, context=UseContext.UNKNOWN, kind="IRI",
            start=loc.position(0), end=loc.position(len(tpl.value)), holes=tpl.holes,
            position_of=loc.position, is_fstring=type(node) is ast.JoinedStr, locator=loc,
        ))
    return out

