"""Bidi IRIs, RFC 3987 sec. 4: forbidden formatting characters (4.1) and component rules (4.2).

Directions come from the Unicode Bidi_Class (``unicodedataplus``, one Unicode version for all of
the engine's character data); the displayed order from python-bidi's implementation of the
Unicode Bidirectional Algorithm (UAX #9).

Every pass is linear with C-level work per character: character properties are looked up once
per distinct character (``distinct_chars``), and the characters found that way are located with
regexes built from them (``char_class``); Python-level work grows with the number of distinct
characters, of components and of problems, not with the length of the text.
"""

from __future__ import annotations

import bisect
import collections
import functools
import itertools
import operator
import re
from collections.abc import Callable
from typing import NamedTuple

import unicodedataplus as ucd

from .budget import Budget, take_matches
from .chars import BIDI_CONTROLS, BIDI_FORMATTING, BIDI_ISOLATES, is_digits, pct_encode
from .components import (
    COMPONENT_NAMES,
    Component,
    ComponentTable,
    char_class,
    component_table,
    distinct_chars,
    unused_chars,
)
from .lazy import lazy_regex
from .reference import IRIReference, Span

__all__ = [
    "BidiProblem",
    "Component",
    "bidi_components",
    "bidi_problems",
    "decoded_control",
    "display_head",
    "display_order",
    "encode_component",
    "short_visible",
    "visible",
]

KINDS = (
    "formatting-char",
    "isolate-char",
    "percent-encoded-control",
    "mixed-direction",
    "rtl-edge",
    "digit-component",
)

_RTL = frozenset(("R", "AL"))
_DIGIT_CLASSES = frozenset(("EN", "AN"))
_MAX_SHOWN = 200  # characters of the displayed IRI a message shows


class BidiProblem(NamedTuple):
    """One sec. 4.1/4.2 problem: ``kind`` (see KINDS), the offending ``span``, its ``component``,
    and what a report of it needs to say."""

    kind: str
    span: Span
    component: Span
    part: str = ""  # the component's kind ("path segment"): for the sec. 4.2 kinds
    display: str = ""  # the head of the IRI's displayed order (UAX #9): for the sec. 4.2 and 4.4 kinds
    rtl: int = -1  # mixed-direction: where its first right-to-left character is
    ltr: int = -1  # mixed-direction: where its first left-to-right character is
    at_end: bool = False  # rtl-edge: the component's end, not its start


_TEXT_ORDER = operator.attrgetter("span.start", "span.end")


# ------------------------------------------------------------------ components (sec. 4.2)


def bidi_components(ref: IRIReference) -> list[Component]:
    """The non-empty components of RFC 3987 sec. 4.2, in text order."""
    table = component_table(ref)
    return [table.component(k) for k in range(len(table))]


# ------------------------------------------------------------------ display (sec. 4.1)


@functools.lru_cache(maxsize=1 << 14)
def _is_hidden(c: str) -> bool:
    """Whether a reader cannot see ``c``: controls, format characters, odd spaces, variation selectors."""
    if c.isascii():
        return not c.isprintable()
    return c in BIDI_CONTROLS or ucd.category(c) in ("Cc", "Cf", "Zl", "Zp", "Zs", "Cn", "Co") or (
        "VARIATION SELECTOR" in ucd.name(c, "")
    )


def visible(text: str) -> str:
    """``text`` with invisible characters shown as ⟨U+XXXX⟩ markers, safe for a one-line message."""
    if text.isascii() and text.isprintable():
        return text
    markers = {ord(c): f"⟨U+{ord(c):04X}⟩" for c in set(text) if _is_hidden(c)}
    return text.translate(markers) if markers else text


def short_visible(text: str, limit: int = 60) -> str:
    """``text`` for a message: invisible characters marked, long text cut."""
    return visible(text if len(text) <= limit else text[:limit] + "…")


_surrogate = lazy_regex("[\ud800-\udfff]")


def _logical_to_display(text: str) -> str:
    """UAX #9 display order of ``text`` in a left-to-right paragraph, without markers."""
    if text.isascii():
        return text  # no strong rtl character: logical order is display order
    # python-bidi takes UTF-8 only: lone surrogates (Bidi_Class L) stand in as private-use
    # characters (L as well) and are put back after
    surrogates = sorted(set(_surrogate().findall(text)))
    stand_ins = unused_chars(distinct_chars(text), len(surrogates))
    if surrogates:
        text = text.translate(dict(zip(map(ord, surrogates), stand_ins, strict=True)))
    # a paragraph of base direction L displays like LRE text PDF in an ltr context
    from bidi import get_display  # lazy boundary (c): the Unicode Bidirectional Algorithm, for non-ASCII text

    shown = get_display(text, base_dir="L")
    assert isinstance(shown, str)
    return shown.translate(dict(zip(map(ord, stand_ins), surrogates, strict=True))) if surrogates else shown


def display_order(text: str) -> str:
    """How ``text`` is displayed in a left-to-right embedding (RFC 3987 sec. 4.1), left to right.

    Computed with the Unicode Bidirectional Algorithm; invisible characters (bidi controls
    among them) are then shown as ⟨U+XXXX⟩ markers where the algorithm left them.
    """
    return visible(_logical_to_display(text))


def display_head(text: str, limit: int = _MAX_SHOWN) -> str:
    """``display_order(text)`` cut to ``limit`` characters and "…"; only the head gets markers."""
    # every character shows as one or more, so the head of the display is the display of a head
    shown = visible(_logical_to_display(text)[: limit + 1])
    return shown[:limit] + "…" if len(shown) > limit else shown


# ------------------------------------------------------------------ character classes (UAX #9)


def _bidi_class(c: str) -> str:
    """The Bidi_Class of ``c`` (UAX #9 Table 4)."""
    return str(ucd.bidirectional(c))


_escape = lazy_regex("%[0-9A-Fa-f]{2}")  # RFC 3986 sec. 2.1; triplets never overlap
_leading = lazy_regex("(?:%[0-9A-Fa-f]{2}|[0-9])*+")  # digits and escapes at a component's start
_trailing = lazy_regex("(?:[0-9A-Fa-f]{2}%|[0-9])*+")  # the same at its end, read backwards


class _Classes(NamedTuple):
    """Regexes over the distinct characters of one text, by Bidi_Class (UAX #9)."""

    rtl: re.Pattern[str]  # R and AL, without the bidi controls (reported on their own)
    ltr: re.Pattern[str]  # ASCII letters and L, without the bidi controls
    not_digit: re.Pattern[str]  # anything but digits (ASCII, EN, AN) and bidi controls
    digit_class: str  # the class of the digits (ASCII, EN, AN) and bidi controls
    marks: re.Pattern[str]  # runs of NSM
    rtl_zones: re.Pattern[str]  # R or AL and what follows up to L (bidi controls included)
    strong: re.Pattern[str]  # R, AL (group 1) or L, bidi controls included
    rtl_chars: tuple[str, ...]  # what ``rtl`` matches
    ltr_chars: tuple[str, ...]  # L, bidi controls included (ASCII letters are ltr too)


def _by_class(text: str) -> dict[str, list[str]]:
    """The distinct non-ASCII characters of ``text`` by Bidi_Class, each looked up once."""
    by_class: dict[str, list[str]] = {}
    for c in distinct_chars(text):
        if not c.isascii():
            by_class.setdefault(_bidi_class(c), []).append(c)
    return by_class


def _classes(text: str, by_class: dict[str, list[str]] | None = None) -> _Classes:
    """The classes of ``text``'s characters (``by_class``: ``_by_class(text)``)."""
    if by_class is None:
        by_class = _by_class(text)
    rtl_all = by_class.get("R", []) + by_class.get("AL", [])
    ltr_all = by_class.get("L", [])
    rtl = [c for c in rtl_all if c not in BIDI_CONTROLS]
    ltr = [c for c in ltr_all if c not in BIDI_CONTROLS]
    digits = [*(c for cls in _DIGIT_CLASSES for c in by_class.get(cls, ())), *BIDI_CONTROLS]
    return _Classes(
        rtl=re.compile(char_class(rtl)),
        ltr=re.compile(char_class(ltr, ranges="A-Za-z")),
        not_digit=re.compile(char_class(digits, negate=True, ranges="0-9")),
        digit_class=char_class(digits, ranges="0-9"),
        marks=re.compile(char_class(by_class.get("NSM", [])) + "*+"),
        strong=re.compile(f"({char_class(rtl_all)})|{char_class(ltr_all, ranges='A-Za-z')}"),
        rtl_zones=re.compile(char_class(rtl_all) + char_class(ltr_all, negate=True, ranges="A-Za-z") + "*+"),
        rtl_chars=tuple(rtl),
        ltr_chars=tuple(ltr_all),
    )


# ------------------------------------------------------------------ problems


@functools.cache
def _pct_controls() -> re.Pattern[str]:
    """UTF-8 percent-encodings of the bidi controls; lead bytes never start mid-character."""
    alts = sorted(
        pct_encode(c) for c in BIDI_CONTROLS
    )
    return re.compile("|".join(re.escape(a) for a in alts), re.IGNORECASE)




def decoded_control(escape: str) -> str:
    """The bidi control that ``escape`` (UTF-8 ``%HH`` escapes) percent-encodes."""
    return bytes(int(escape[i + 1 : i + 3], 16) for i in range(0, len(escape), 3)).decode("utf-8")


def _component_at(table: ComponentTable, pos: int, whole: Span) -> Span:
    """The span of the component holding ``pos``, else ``whole``."""
    k = table.index(pos)
    return whole if k < 0 else table.span(k)


def _direction_summary(text: str, start: int, end: int,
                       classes: _Classes | None = None) -> tuple[int, int, bool]:
    """(first rtl index or -1, first ltr index or -1, all digits) of [start, end), escapes skipped."""
    cls = classes if classes is not None else _classes(text[start:end])
    m = cls.rtl.search(text, start, end)
    rtl = m.start() if m else -1
    if text.find("%", start, end) < 0:
        m = cls.ltr.search(text, start, end)
        ltr = m.start() if m else -1
    else:  # the hex digits of an escape are not letters: blank the escapes, keeping positions
        m = cls.ltr.search(_escape().sub("\0\0\0", text[start:end]))
        ltr = start + m.start() if m else -1
    digits = cls.not_digit.search(text, start, end) is None
    return rtl, ltr, digits


def _match_end(pattern: re.Pattern[str], text: str, pos: int, endpos: int | None = None) -> int:
    """Where ``pattern`` (a run, possibly empty) matched at ``pos`` ends."""
    m = pattern.match(text, pos, len(text) if endpos is None else endpos)
    return pos if m is None else m.end()


def _edge(text: str, start: int, end: int, *, at_end: bool,
          classes: _Classes | None = None) -> Span | None:
    """The non-rtl run at one edge of an rtl component (sec. 4.2 rule 2), or None if it is fine."""
    if at_end:
        last = text[end - 1]
        if not last.isascii() and _bidi_class(last) in _RTL:
            return None
        cls = classes if classes is not None else _classes(text[start:end])
        backwards = text[start:end][::-1]
        # a trailing mark (NSM) takes the direction of the character it is on
        k = _match_end(cls.marks, backwards, 0)
        i = end - k
        if i == start or (not text[i - 1].isascii() and _bidi_class(text[i - 1]) in _RTL):
            return None
        j = i - (_match_end(_trailing(), backwards, k) - k)
        return Span(j if j < i else i - 1, i)
    if not text[start].isascii() and _bidi_class(text[start]) in _RTL:
        return None
    j = _match_end(_leading(), text, start, end)
    return Span(start, j if j > start else start + 1)


def bidi_problems(ref: IRIReference, *, advisory: bool = False, edges_left: frozenset[str] = frozenset(),
                  budget: Budget | None = None) -> list[BidiProblem]:
    """Problems of RFC 3987 sec. 4.1 and 4.2 in ``ref``, in text order.

    Rule 1 (mixed-direction) takes precedence over rule 2 (rtl-edge): one 4.2 problem per
    component, whose fix is the same. ``advisory`` adds Example 10 (digit-component). An edge
    holding one of ``edges_left`` (bidi formatting or isolate characters) is left to that character's
    own sec. 4.1 problem (removing it is the fix of both).
    With a ``budget``, only the problems it takes are built (the first of each kind in text
    order); it counts the others.
    """
    text = ref.text
    whole = Span(0, len(text))
    out: list[BidiProblem] = []
    if text.isascii():
        if "%" in text:
            _percent_controls(ref, whole, out, budget)
        return out

    _controls(ref, whole, out, budget)
    if "%" in text:
        _percent_controls(ref, whole, out, budget)
    by_class = _by_class(text)
    if "R" in by_class or "AL" in by_class:  # else nothing is right-to-left, and sec. 4.2 holds
        classes = _classes(text, by_class)
        display = _Display(text)
        table = component_table(ref)
        verdicts: dict[str, _Verdict] = {}  # hostile IRIs repeat one component 30k times
        comps = _rtl_components(ref, classes)
        tried: set[frozenset[str]] = set()
        for i, k in enumerate(comps):
            if budget is not None and not i % _BULK and _counted_in_bulk(
                    text, table, comps[i:], classes, budget, verdicts, tried, edges_left):
                break
            _component_problems(text, table, k, classes, display, out, budget, verdicts, edges_left)
        if advisory:
            _digit_components(ref, classes, display, out, budget)
    out.sort(key=_TEXT_ORDER)
    return out


_BULK = 16  # more components than this to look at: one regex over all of them


def _rtl_components(ref: IRIReference, classes: _Classes) -> list[int]:
    """Indices of the components with an rtl character, less those that are rtl from edge to
    edge without ltr characters or "%" when there are many."""
    table = component_table(ref)
    few = list(itertools.islice(table.holding(classes.rtl), _BULK + 1))
    if len(few) <= _BULK:
        return few
    return list(table.matching(_suspects(classes, table), table.joined()[0]))


def _suspects(classes: _Classes, table: ComponentTable) -> re.Pattern[str]:
    """Components with an rtl character that are not rtl from edge to edge without ltr
    characters or "%" (those have no sec. 4.2 problem)."""
    sep = table.joined()[1]
    rtl = char_class(classes.rtl_chars)
    inner = char_class([sep, *classes.ltr_chars, "%"], negate=True, ranges="A-Za-z")
    return table.at_starts(f"(?={char_class([sep, *classes.rtl_chars], negate=True)}*+{rtl})"
                           f"(?!{rtl}(?:{inner}*+(?<={rtl}))?(?:{re.escape(sep)}|\\Z))")


class _Display:
    """The displayed order for messages, computed once when first needed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.shown: str | None = None

    def __call__(self) -> str:
        if self.shown is None:
            # bounded, so that many problems in a long IRI do not make quadratic output
            self.shown = display_head(self.text)
        return self.shown


def _controls(ref: IRIReference, whole: Span, out: list[BidiProblem], budget: Budget | None) -> None:
    """Sec. 4.1: the bidi formatting characters, and the isolates added to Unicode since."""
    text = ref.text
    present = BIDI_CONTROLS & distinct_chars(text)
    if not present:
        return
    by_kind: dict[str, list[str]] = {}
    for c in present:
        by_kind.setdefault(_control_kind(c), []).append(c)

    def count(kind: str, pos: int) -> int:
        return sum(text.count(c, pos) for c in by_kind[kind])

    table = component_table(ref)
    kinds = [(kind, char_class(chars)) for kind, chars in sorted(by_kind.items())]
    for kind, m in take_matches(budget, text, kinds, count):
        i = m.start()
        out.append(BidiProblem(kind, Span(i, i + 1), _component_at(table, i, whole)))


def _control_kind(c: str) -> str:
    """A bidi formatting character (RFC 3987 sec. 4.1), or an isolate added to Unicode since."""
    if c in BIDI_FORMATTING:
        return "formatting-char"
    assert c in BIDI_ISOLATES
    return "isolate-char"


# (first rtl, first ltr) offsets in a component, ltr -1 unless mixed; and when not mixed, the
# edges (at_end, start, end offsets) that break rule 2: a component's text alone decides them
_Verdict = tuple[int, int, tuple[tuple[bool, int, int], ...]]


def _verdict(text: str, s: int, e: int, classes: _Classes, edges_left: frozenset[str] = frozenset()) -> _Verdict:
    """Sec. 4.2 rules 1 and 2 for the component at [s, e), as offsets into it."""
    rtl, ltr, _ = _direction_summary(text, s, e, classes)
    if ltr >= 0:
        return rtl - s, ltr - s, ()
    edges = []
    for at_end in (False, True):
        edge = _edge(text, s, e, at_end=at_end, classes=classes)
        if edge is not None and edges_left.isdisjoint(text[edge.start : edge.end]):
            edges.append((at_end, edge.start - s, edge.end - s))
    return (rtl - s if rtl >= 0 else -1), -1, tuple(edges)


def _counted_in_bulk(text: str, table: ComponentTable, rest: list[int], classes: _Classes,
                     budget: Budget, verdicts: dict[str, _Verdict], tried: set[frozenset[str]],
                     edges_left: frozenset[str] = frozenset()) -> bool:
    """Whether the sec. 4.2 problems of components ``rest`` are all of kinds whose share of
    ``budget`` is used up; if so they are counted, per distinct component text, and not built.
    Each set of full kinds is tried once (``tried``): a share once used up stays so."""
    full = frozenset(kind for kind in ("mixed-direction", "rtl-edge") if not budget.room(kind))
    if not full or full in tried:
        return False
    tried.add(full)
    starts, ends = table.starts, table.ends
    texts = collections.Counter(map(text.__getitem__, map(slice, map(starts.__getitem__, rest),
                                                          map(ends.__getitem__, rest))))
    counts = {"mixed-direction": 0, "rtl-edge": 0}
    for key, n in texts.items():
        verdict = verdicts.get(key)
        if verdict is None:
            verdict = verdicts[key] = _verdict(key, 0, len(key), classes, edges_left)  # the text alone decides
        if verdict[1] >= 0:
            counts["mixed-direction"] += n
        else:
            counts["rtl-edge"] += n * len(verdict[2])
    if any(n and kind not in full for kind, n in counts.items()):
        return False
    for kind, n in counts.items():
        budget.skip(kind, starts[rest[0]], n)
    return True


def _component_problems(text: str, table: ComponentTable, k: int, classes: _Classes,
                        display: Callable[[], str], out: list[BidiProblem],
                        budget: Budget | None = None, verdicts: dict[str, _Verdict] | None = None,
                        edges_left: frozenset[str] = frozenset()) -> None:
    """Sec. 4.2 rules 1 and 2 for component ``k``, which has a right-to-left character.

    ``verdicts`` (component text -> verdict) shares the judgement of components of one text.
    """
    s, e = table.starts[k], table.ends[k]
    if verdicts is None:
        verdict = _verdict(text, s, e, classes, edges_left)
    else:
        key = text[s:e]
        found = verdicts.get(key)
        verdict = verdicts[key] = _verdict(text, s, e, classes, edges_left) if found is None else found
    rtl, ltr, edges = verdict
    if ltr >= 0:
        if budget is not None and not budget.take("mixed-direction", s):
            return
        comp = table.component(k)
        out.append(BidiProblem("mixed-direction", comp.span, comp.span, COMPONENT_NAMES[comp.kind], display(),
                               rtl=s + rtl, ltr=s + ltr))
        return
    for at_end, a, b in edges:
        if budget is not None and not budget.take("rtl-edge", s + a):
            continue
        comp = table.component(k)
        out.append(BidiProblem("rtl-edge", Span(s + a, s + b), comp.span, COMPONENT_NAMES[comp.kind], display(),
                               at_end=at_end))


def _percent_controls(ref: IRIReference, whole: Span, out: list[BidiProblem],
                      budget: Budget | None) -> None:
    """Sec. 4.1 and 3.2: bidi controls percent-encoded, which decoding brings back."""
    text = ref.text
    pct_control = _pct_controls()
    kinds = [("percent-encoded-control", f"(?i:{pct_control.pattern})")]
    for _, m in take_matches(budget, text, kinds, lambda _, pos: len(pct_control.findall(text, pos))):
        table = component_table(ref)
        out.append(BidiProblem("percent-encoded-control", Span(m.start(), m.end()),
                               _component_at(table, m.start(), whole)))


def _digit_components(ref: IRIReference, classes: _Classes, display: Callable[[], str],
                      out: list[BidiProblem], budget: Budget | None = None) -> None:
    """RFC 3987 sec. 4.4 Example 10: an all-digit component after right-to-left text.

    Digits take the direction of the last strong character before them (UAX #9 W2, W7), so
    only an rtl context moves them; "ab.123.CDE" is displayed as written.
    """
    text = ref.text
    table = component_table(ref)
    joined, sep, _ = table.joined()
    digits = table.at_starts(f"{classes.digit_class}++(?={re.escape(sep)}|\\Z)")
    port = ref.port
    if port is not None and not (len(port) and is_digits(text[port.start : port.end])):
        port = None  # the port counts when it is all digits: "ab.CDE:8080/" shows "ab.8080:EDC/"
    # Python-level work for whichever is fewer: digit components, or rtl zones (an rtl
    # character and what follows it up to the next ltr one)
    candidates = len(digits.findall(joined)) + (port is not None)
    if not candidates:
        return
    if len(list(itertools.islice(classes.rtl_zones.finditer(text), candidates + 1))) <= candidates:
        spans = _digits_in_zones(ref, classes, digits, port)
    else:
        spans = _digits_after_rtl(ref, classes, digits, port)
    if budget is not None:
        built = [(start, end) for start, end in spans[: budget.limit] if budget.take("digit-component", start)]
        budget.skip("digit-component", 0, len(spans) - len(built))
        spans = built
    for start, end in spans:
        span = Span(start, end)
        out.append(BidiProblem("digit-component", span, span, display=display()))


def _digits_in_zones(ref: IRIReference, classes: _Classes, digits: re.Pattern[str],
                     port: Span | None) -> list[tuple[int, int]]:
    """The digit components (and port) that start inside an rtl zone (UAX #9 W2, W7)."""
    table = component_table(ref)
    joined = table.joined()[0]
    spans: list[tuple[int, int]] = []
    for zone in classes.rtl_zones.finditer(ref.text):
        first = bisect.bisect_right(table.starts, zone.start())
        last = bisect.bisect_right(table.starts, zone.end())
        spans += ((table.starts[k], table.ends[k]) for k in table.matching(digits, joined, first, last))
        if port is not None and zone.start() < port.start <= zone.end():
            spans.append((port.start, port.end))
    spans.sort(key=operator.itemgetter(0))
    return spans


def _digits_after_rtl(ref: IRIReference, classes: _Classes, digits: re.Pattern[str],
                      port: Span | None) -> list[tuple[int, int]]:
    """The same, by looking back from each digit component to the last strong character."""
    table = component_table(ref)
    joined = table.joined()[0]
    spans = [(table.starts[k], table.ends[k]) for k in table.matching(digits, joined)]
    if port is not None:
        spans.append((port.start, port.end))
        spans.sort(key=operator.itemgetter(0))
    text = ref.text
    n = len(text)
    backwards = text[::-1]
    i = 0
    rtl_before = False
    out = []
    for start, end in spans:
        if start > i:  # only what lies after the previous span: linear
            m = classes.strong.search(backwards, n - start, n - i)
            if m is not None:
                rtl_before = m.group(1) is not None
        i = start
        if rtl_before:
            out.append((start, end))
    return out


# ------------------------------------------------------------------ fix (sec. 4.2, last paragraph)

# byte -> itself when ASCII, else %HH: str.translate over the Latin-1 reading of the UTF-8
_PCT_BYTES = [chr(b) if b < 0x80 else f"%{b:02X}" for b in range(256)]


def encode_component(ref: IRIReference, component: Component | Span) -> tuple[int, int, str]:
    """The fix of RFC 3987 sec. 4.2: the whole component mapped to URI notation (sec. 3.1).

    Only non-ASCII characters are encoded, as UTF-8 with uppercase hex, exactly as the IRI-to-URI
    mapping would: the URI the IRI maps to is unchanged.
    """
    span = component.span if isinstance(component, Component) else component
    value = ref.text[span.start : span.end]
    if not value.isascii():
        # ASCII is one byte and stays; every other character's UTF-8 bytes are all >= 0x80
        value = value.encode("utf-8", "surrogatepass").decode("latin-1").translate(_PCT_BYTES)
    return span.start, span.end, value
