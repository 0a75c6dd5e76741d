"""Bidi IRIs, RFC 3987 sec. 4: forbidden formatting characters (4.1) and component rules (4.2).

Directions come from the Unicode Bidi_Class (``unicodedataplus``, one Unicode version for all of
the engine's character data); the displayed order from python-bidi's implementation of the
Unicode Bidirectional Algorithm (UAX #9).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import unicodedataplus as ucd
from bidi import get_display

from .chars import BIDI_CONTROLS, BIDI_FORMATTING, BIDI_ISOLATES, char_label, is_pct_triplet, pct_encode
from .parse import HostKind, IRIReference, Span

__all__ = [
    "BidiProblem",
    "Component",
    "bidi_components",
    "bidi_problems",
    "display_order",
    "encode_component",
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


@dataclass(frozen=True, slots=True)
class Component:
    """A component for bidi purposes (RFC 3987 sec. 4.2), as a span over the IRI text.

    ``kind`` is one of "userinfo", "label", "segment", "extension", "query-name",
    "query-value", "fragment".
    """

    kind: str
    span: Span
    text: str


@dataclass(frozen=True, slots=True)
class BidiProblem:
    """One sec. 4.1/4.2 problem: ``kind`` (see KINDS), the offending ``span``, its ``component``."""

    kind: str
    span: Span
    component: Span
    message: str


# ------------------------------------------------------------------ components (sec. 4.2)


def _split(text: str, start: int, end: int, seps: str) -> list[tuple[int, int]]:
    """[start, end) cut at every character of ``seps``; empty pieces kept."""
    out = []
    i = start
    for j in range(start, end):
        if text[j] in seps:
            out.append((i, j))
            i = j + 1
    out.append((i, end))
    return out


def bidi_components(ref: IRIReference) -> list[Component]:
    """The non-empty components of RFC 3987 sec. 4.2, in text order."""
    text = ref.text
    out: list[Component] = []

    def add(kind: str, start: int, end: int) -> None:
        if start < end:
            out.append(Component(kind, Span(start, end), text[start:end]))

    if ref.userinfo is not None:
        add("userinfo", ref.userinfo.start, ref.userinfo.end)
    if ref.host is not None and ref.host_kind is HostKind.REG_NAME:
        # RFC 3490 treats each label as a component (sec. 4.2)
        for s, e in _split(text, ref.host.start, ref.host.end, "."):
            add("label", s, e)
    for seg in ref.segments:
        # "the extensions in a resource name can be treated as separate components" (sec. 4.2);
        # a leading dot (".htaccess") or a trailing one is not an extension
        dot = text.rfind(".", seg.start, seg.end)
        if seg.start < dot < seg.end - 1:
            add("segment", seg.start, dot)
            add("extension", dot + 1, seg.end)
        else:
            add("segment", seg.start, seg.end)
    if ref.query is not None:
        for s, e in _split(text, ref.query.start, ref.query.end, "&;"):
            for n, (ps, pe) in enumerate(_split(text, s, e, "=")):
                add("query-name" if n == 0 else "query-value", ps, pe)
    if ref.fragment is not None:
        add("fragment", ref.fragment.start, ref.fragment.end)
    return out


# ------------------------------------------------------------------ display (sec. 4.1)


def _is_hidden(c: str) -> bool:
    # characters a reader cannot see: controls, format characters, odd spaces, variation selectors
    if c.isascii():
        return not c.isprintable()
    return c in BIDI_CONTROLS or ucd.category(c) in ("Cc", "Cf", "Zl", "Zp", "Zs", "Cn", "Co") or (
        "VARIATION SELECTOR" in ucd.name(c, "")
    )


def visible(text: str) -> str:
    """``text`` with invisible characters shown as ⟨U+XXXX⟩ markers, safe for a one-line message."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(f"⟨U+{ord(c):04X}⟩" if _is_hidden(c) else c for c in text)


def _short(text: str, limit: int = 60) -> str:
    """``text`` for a message: invisible characters marked, long text cut."""
    return visible(text if len(text) <= limit else text[:limit] + "…")


def display_order(text: str) -> str:
    """How ``text`` is displayed in a left-to-right embedding (RFC 3987 sec. 4.1), left to right.

    Computed with the Unicode Bidirectional Algorithm; invisible characters (bidi controls
    among them) are then shown as ⟨U+XXXX⟩ markers where the algorithm left them.
    """
    if text.isascii():
        return visible(text)  # no strong rtl character: logical order is display order
    # a paragraph of base direction L displays like LRE text PDF in an ltr context
    shown = get_display(text, base_dir="L")
    assert isinstance(shown, str)
    return visible(shown)


# ------------------------------------------------------------------ problems


def _pct_controls() -> re.Pattern[str]:
    """UTF-8 percent-encodings of the bidi controls; lead bytes never start mid-character."""
    alts = sorted(
        pct_encode(c) for c in BIDI_CONTROLS
    )
    return re.compile("|".join(re.escape(a) for a in alts), re.IGNORECASE)


_PCT_CONTROL = _pct_controls()


def _decoded_control(escape: str) -> str:
    return bytes(int(escape[i + 1 : i + 3], 16) for i in range(0, len(escape), 3)).decode("utf-8")


def _component_at(components: list[Component], pos: int, whole: Span) -> Span:
    for comp in components:
        if comp.span.start <= pos < comp.span.end:
            return comp.span
    return whole


def _direction_summary(text: str, start: int, end: int) -> tuple[int, int, bool]:
    """(first rtl index or -1, first ltr index or -1, all digits) of [start, end), escapes skipped."""
    rtl = ltr = -1
    digits = True
    i = start
    while i < end:
        if is_pct_triplet(text, i, end):
            digits = False
            i += 3
            continue
        c = text[i]
        if c in BIDI_CONTROLS:
            i += 1  # reported on their own; RLM is R and ALM is AL
            continue
        if c.isascii():
            if c.isalpha():
                if ltr < 0:
                    ltr = i
                digits = False
            elif not c.isdigit():
                digits = False
        else:
            cls = ucd.bidirectional(c)
            if cls in _RTL:
                if rtl < 0:
                    rtl = i
            elif cls == "L" and ltr < 0:
                ltr = i
            if cls not in _DIGIT_CLASSES:
                digits = False
        i += 1
    return rtl, ltr, digits


def _edge(text: str, start: int, end: int, *, at_end: bool) -> Span | None:
    """The non-rtl run at one edge of an rtl component (sec. 4.2 rule 2), or None if it is fine."""
    if at_end:
        i = end
        # a trailing mark (NSM) takes the direction of the character it is on
        while i > start and not text[i - 1].isascii() and ucd.bidirectional(text[i - 1]) == "NSM":
            i -= 1
        if i == start or (not text[i - 1].isascii() and ucd.bidirectional(text[i - 1]) in _RTL):
            return None
        j = i
        while j > start:
            if j - 3 >= start and is_pct_triplet(text, j - 3, end):
                j -= 3
            elif text[j - 1].isascii() and text[j - 1].isdigit():
                j -= 1
            else:
                break
        return Span(j if j < i else i - 1, i)
    if not text[start].isascii() and ucd.bidirectional(text[start]) in _RTL:
        return None
    j = start
    while j < end:
        if is_pct_triplet(text, j, end):
            j += 3
        elif text[j].isascii() and text[j].isdigit():
            j += 1
        else:
            break
    return Span(start, j if j > start else start + 1)


def _edge_what(s: str) -> str:
    if s.startswith("%"):
        return f"the percent-escape {s}"
    if s.isdigit():
        return f"the digits {s}"
    return char_label(s[0])


COMPONENT_NAMES = {  # how messages name the components of sec. 4.2
    "userinfo": "userinfo",
    "label": "host label",
    "segment": "path segment",
    "extension": "file extension",
    "query-name": "query name",
    "query-value": "query value",
    "fragment": "fragment",
}


def bidi_problems(ref: IRIReference, *, advisory: bool = False) -> list[BidiProblem]:
    """Problems of RFC 3987 sec. 4.1 and 4.2 in ``ref``, in text order.

    Rule 1 (mixed-direction) takes precedence over rule 2 (rtl-edge): one 4.2 problem per
    component, whose fix is the same. ``advisory`` adds Example 10 (digit-component).
    """
    text = ref.text
    whole = Span(0, len(text))
    out: list[BidiProblem] = []
    if text.isascii():
        if "%" in text:
            _percent_controls(ref, bidi_components(ref), whole, out)
        return out

    components = bidi_components(ref)
    for i, c in enumerate(text):
        if c in BIDI_CONTROLS:
            where = _component_at(components, i, whole)
            if c in BIDI_FORMATTING:
                out.append(BidiProblem("formatting-char", Span(i, i + 1), where,
                                       f"{char_label(c)} is a bidi formatting character, which IRIs "
                                       "MUST NOT contain (RFC 3987 sec. 4.1); remove it"))
            else:
                assert c in BIDI_ISOLATES
                out.append(BidiProblem("isolate-char", Span(i, i + 1), where,
                                       f"{char_label(c)} reorders the display like the bidi "
                                       "formatting characters IRIs MUST NOT contain (RFC 3987 "
                                       "sec. 4.1, Trojan Source); remove it"))
    if "%" in text:
        _percent_controls(ref, components, whole, out)

    shown: str | None = None

    def display() -> str:
        nonlocal shown
        if shown is None:
            # bounded, so that many problems in a long IRI do not make quadratic output
            shown = display_order(text)
            if len(shown) > _MAX_SHOWN:
                shown = shown[:_MAX_SHOWN] + "…"
        return shown

    summaries = [_direction_summary(text, c.span.start, c.span.end) for c in components]
    for comp, (rtl, ltr, _) in zip(components, summaries, strict=True):
        name = COMPONENT_NAMES[comp.kind]
        s, e = comp.span.start, comp.span.end
        if rtl >= 0 and ltr >= 0:
            out.append(BidiProblem(
                "mixed-direction", comp.span, comp.span,
                f"{name} {_short(comp.text)!r} mixes right-to-left ({char_label(text[rtl])}) and "
                f"left-to-right ({char_label(text[ltr])}) characters (RFC 3987 sec. 4.2 rule 1); "
                f"displayed as {display()!r}; percent-encode the whole {name}"))
        elif rtl >= 0:
            for at_end in (False, True):
                edge = _edge(text, s, e, at_end=at_end)
                if edge is None:
                    continue
                side = "ends" if at_end else "starts"
                out.append(BidiProblem(
                    "rtl-edge", edge, comp.span,
                    f"right-to-left {name} {_short(comp.text)!r} {side} with "
                    f"{_edge_what(text[edge.start:edge.end])}, not a right-to-left character "
                    f"(RFC 3987 sec. 4.2 rule 2, Examples 8-9); displayed as {display()!r}; "
                    f"percent-encode the whole {name}"))
    if advisory:
        _digit_components(ref, components, summaries, display, out)
    out.sort(key=lambda p: (p.span.start, p.span.end))
    return out


def _percent_controls(ref: IRIReference, components: list[Component], whole: Span,
                      out: list[BidiProblem]) -> None:
    for m in _PCT_CONTROL.finditer(ref.text):
        c = _decoded_control(m.group())
        out.append(BidiProblem(
            "percent-encoded-control", Span(m.start(), m.end()),
            _component_at(components, m.start(), whole),
            f"{m.group()} is the percent-encoded bidi control {char_label(c)}; it stays encoded "
            "in the IRI (RFC 3987 sec. 3.2, 4.1) but reorders text wherever the URI is decoded; "
            "remove it unless it is data"))


def _digit_components(ref: IRIReference, components: list[Component],
                      summaries: list[tuple[int, int, bool]], display: Callable[[], str],
                      out: list[BidiProblem]) -> None:
    """RFC 3987 sec. 4.4 Example 10: an all-digit component after right-to-left text.

    Digits take the direction of the last strong character before them (UAX #9 W2, W7), so
    only an rtl context moves them; "ab.123.CDE" is displayed as written.
    """
    text = ref.text
    spans = [c.span for c, s in zip(components, summaries, strict=True) if s[2]]
    port = ref.port
    if port is not None and len(port) and text[port.start : port.end].isdigit():
        # the port is all digits too: "ab.CDE:8080/" displays as "ab.8080:EDC/"
        spans.append(port)
        spans.sort(key=lambda sp: sp.start)
    i = 0
    rtl_before = False
    for span in spans:
        for c in text[i : span.start]:
            if c.isascii():
                if c.isalpha():
                    rtl_before = False
            else:
                cls = ucd.bidirectional(c)
                if cls in _RTL:
                    rtl_before = True
                elif cls == "L":
                    rtl_before = False
        i = span.start
        if rtl_before:
            out.append(BidiProblem(
                "digit-component", span, span,
                f"the all-digit component {text[span.start:span.end]!r} after right-to-left "
                "text is displayed out of place (RFC 3987 sec. 4.4 Example 10); "
                f"displayed as {display()!r}"))


# ------------------------------------------------------------------ fix (sec. 4.2, last paragraph)


def encode_component(ref: IRIReference, component: Component | Span) -> tuple[int, int, str]:
    """The fix of RFC 3987 sec. 4.2: the whole component mapped to URI notation (sec. 3.1).

    Only non-ASCII characters are encoded, as UTF-8 with uppercase hex, exactly as the IRI-to-URI
    mapping would: the URI the IRI maps to is unchanged.
    """
    span = component.span if isinstance(component, Component) else component
    value = ref.text[span.start : span.end]
    encoded = "".join(
        c if c.isascii() else pct_encode(c, errors="surrogatepass")
        for c in value
    )
    return span.start, span.end, encoded
