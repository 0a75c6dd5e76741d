"""Text mode: find IRIs inside docstrings and prose (RFC 3987 sec. 7.3; RFC 3986 appendix C)."""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from iri_lint.core.lazy import lazy_regex
from iri_lint.source.candidates import AUTHORITY_SCHEMES, is_absolute_candidate, is_bare_prefix
from iri_lint.source.locate import Locator, PartLocator, SourceFile
from iri_lint.source.model import Literal, Reason, UseContext
from iri_lint.source.templates import apply_templates

# a scheme that does not continue a word; possessive, so finditer stays linear
_scheme_start = lazy_regex(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+:")
_bare_end = lazy_regex(r"[\s<>\"`]")  # RFC 3986 appendix C delimiters (and reST/Markdown backquotes)
_quoted_end = lazy_regex(r"[\s<>\"]")
_angle_end = lazy_regex(r"[<>\"\r\n]")
_slash = lazy_regex(r"[/\\]")  # what makes "http:..." no QName (candidates.is_absolute_candidate)
_STRIPPABLE = ".,;:!?)]}'"  # what may end a sentence around an IRI (appendix C), or a dict shown in it


class FoundIRI(NamedTuple):
    """One IRI found in text: value offsets [start, end) and how it was delimited."""

    start: int
    end: int
    delimiter: str  # "<" angle brackets, '"' double quotes, "" bare


def extract(text: str) -> Iterator[FoundIRI]:
    """IRIs inside ``text``, left to right, in linear time (RFC 3987 sec. 7.3; RFC 3986 appendix C)."""
    pos = 0
    n = len(text)
    ahead = _Ahead(text)
    while pos < n:
        m = _scheme_start().search(text, pos)
        if m is None:
            return
        a, e = m.start(), m.end()
        before = text[a - 1] if a else ""
        span = None
        if before == "<":
            span = _angle(text, a, e)
        if span is None:
            span = _bare(ahead, a, e, quoted=before == '"')
        if span is None:
            pos = e
            continue
        yield span
        pos = max(span.end, e)


class _Ahead:
    """What lies ahead of a scheme, looked up once for all the schemes of one stretch of text.

    Many schemes can share one word (``a:a:a:...``); each answer is kept until a later scheme
    is past it, so every search covers new text and ``extract`` stays linear.
    """

    __slots__ = ("found", "tails", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[object, tuple[int, int]] = {}  # what -> (searched from, found at)
        self.tails: dict[int, int] = {}  # end -> start of its trailing punctuation

    def next(self, what: re.Pattern[str] | str, pos: int) -> int:
        """Offset of the first match of ``what`` at or after ``pos`` (``len(text)`` if none)."""
        hit = self.found.get(what)
        if hit is not None and hit[0] <= pos <= hit[1]:
            return hit[1]
        if isinstance(what, str):
            at = self.text.find(what, pos)
        else:
            m = what.search(self.text, pos)
            at = m.start() if m is not None else -1
        at = len(self.text) if at < 0 else at
        self.found[what] = (pos, at)
        return at

    def tail(self, a: int, end: int) -> int:
        """Start of the longest run of punctuation and closers ending at ``end`` (not before ``a``)."""
        t = self.tails.get(end)
        if t is None:
            piece = self.text[a:end]
            t = self.tails[end] = end - (len(piece) - len(piece.rstrip(_STRIPPABLE)))
        return max(t, a)


def _angle(text: str, a: int, e: int) -> FoundIRI | None:
    """``<scheme:...>`` on one line, spaces included (appendix C); ``<rdf:type>`` markup is not one."""
    m = _angle_end().search(text, e)
    if m is None or text[m.start()] != ">":
        return None
    end = m.start()
    value = text[a:end]
    # like a bare IRI: scheme:// or a registered scheme (XML tags such as <foaf:name> are markup)
    if not is_absolute_candidate(value) or is_bare_prefix(value):
        return None
    return FoundIRI(a, end, "<")


def _bare(ahead: _Ahead, a: int, e: int, *, quoted: bool) -> FoundIRI | None:
    """A bare or double-quoted IRI: ``scheme://`` or a registered scheme, up to whitespace or ``<>"``."""
    text = ahead.text
    end = ahead.next(_quoted_end() if quoted else _bare_end(), e)
    closed = quoted and end < len(text) and text[end] == '"'
    link = ahead.next("](", e)  # a Markdown link [http://x](target): the IRI ends at "]"
    if link < end:
        end, closed = link, False
    if not closed:
        if ahead.tail(a, end) >= e + 3 and not _looks_absolute(ahead, a, e, end):
            return None  # (decided by the scheme, the 2 characters after it and a '/': no stripping)
        end = _strip_trailing(text, a, end)
    if not _looks_absolute(ahead, a, e, end):
        return None
    return FoundIRI(a, end, '"' if closed else "")


def _looks_absolute(ahead: _Ahead, a: int, e: int, end: int) -> bool:
    """``text[a:end]`` is an absolute IRI and not a bare prefix, judged on its start.

    Both tests read only the scheme, the 2 characters after it (the value holds no whitespace)
    and, for ``http:Name`` (a QName unless a ``/`` or ``\\`` follows), whether the value holds a
    slash: found by the shared look-ahead, so that many schemes in one word stay linear.
    """
    window = ahead.text[a : min(end, e + 3)]
    if e + 3 < end and window[: e - a - 1].lower() in AUTHORITY_SCHEMES and "/" not in window \
            and "\\" not in window and ahead.next(_slash(), e) < end:
        window += "/"  # (the rest of the value holds one: all is_absolute_candidate asks of it)
    return is_absolute_candidate(window) and not is_bare_prefix(window)


def _strip_trailing(text: str, a: int, end: int) -> int:
    """Drop sentence punctuation and unbalanced ``)``, ``]``, ``}``, ``'`` at the end (appendix C).

    Punctuation always goes; a ``)``, ``]`` or ``}`` goes while more of them than openers remain, a
    ``'`` while their number is odd. Counted once, so the cut is found without a loop per
    character.
    """
    piece = text[a:end]
    tail = piece[len(piece.rstrip(_STRIPPABLE)) :]
    if not tail:
        return end
    budgets = {
        ")": piece.count(")") - piece.count("("),
        "]": piece.count("]") - piece.count("["),
        "}": piece.count("}") - piece.count("{"),
        "'": piece.count("'") % 2,
    }
    keep = 0  # length of the tail that stays: up to the last closer that may not go
    for c, budget in budgets.items():
        at = _kth_from_end(tail, c, max(budget, 0) + 1)
        keep = max(keep, at + 1)
    return end - len(tail) + keep


def _kth_from_end(s: str, c: str, k: int) -> int:
    """Offset of the ``k``-th ``c`` from the end of ``s`` (-1 if there are fewer)."""
    if s.count(c) < k:
        return -1
    lo, hi = 0, len(s) - 1  # the largest x with k of them in s[x:]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if s.count(c, mid) >= k:
            lo = mid
        else:
            hi = mid - 1
    return lo


class EmbeddedLocator(PartLocator):
    """An IRI found inside prose: its findings are reported under IRI7xx, and prose is never edited."""

    __slots__ = ()


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
    holes = sorted(holes)
    hole_starts = [a for a, _ in holes]
    for sp in spans:
        first = bisect_left(hole_starts, sp.start)
        last = bisect_left(hole_starts, sp.end, first)
        sub_holes = [(a - sp.start, b - sp.start) for a, b in holes[first:last] if b <= sp.end]
        # prose writes placeholders in every syntax ("http://{host}:<port>/"): none is a finding
        tpl = apply_templates(raw[sp.start:sp.end], sub_holes, percent_template=percent_template,
                              format_template=format_template, every_syntax=True)
        loc = EmbeddedLocator(container, sp.start, tpl.index_map)
        out.append(Literal(
            value=tpl.value, reason=Reason.ABSOLUTE, context=UseContext.UNKNOWN, kind="IRI",
            start=loc.position(0), end=loc.position(len(tpl.value)), holes=tpl.holes,
            position_of=loc.position, is_fstring=type(node) is ast.JoinedStr, locator=loc,
        ))
    return out

