"""RFC 3987 sec. 4: bidi formatting characters (4.1), component rules (4.2), the examples of 4.4."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest
import unicodedataplus as ucd
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.core import bidi
from iri_lint.core.bidi import (
    BidiProblem,
    bidi_components,
    bidi_problems,
    display_order,
    encode_component,
    visible,
)
from iri_lint.core.chars import BIDI_CONTROLS, BIDI_FORMATTING, BIDI_ISOLATES, HEXDIG, pct_encode
from iri_lint.core.components import component_table
from iri_lint.core.reference import Span
from iri_lint.core.scanner import scan
from iri_lint.rules.engine import check

# The RFC writes rtl letters as uppercase ASCII ("Bidi Notation"). The tests use real letters;
# these maps only check that the transcriptions below are the RFC's examples.
HEBREW = dict(zip("ABCDEFGHIJKLMNOPQRSTUV", "אבגדהוזחטיכלמנסעפצקרשת", strict=True))
ARABIC = dict(zip("ABCDEFGHIJKLMNOPQRSTUV", "ابتثجحخدذرزسشصضطظعغفقك", strict=True))


def notation(s: str, letters: dict[str, str]) -> str:
    return "".join(letters.get(c, c) for c in s)


def problems(text: str, *, advisory: bool = False) -> list[BidiProblem]:
    return bidi_problems(scan(text), advisory=advisory)


def said(text: str, *, advisory: bool = False) -> list[str]:
    """The messages the bidi rules write for ``text``'s problems (the core returns facts, no prose)."""
    codes = ["IRI201", "IRI202", "IRI203", "IRI204", "IRI205"] + (["IRI206"] if advisory else [])
    return [f.message for f in check(text, select=codes)]


def kinds(text: str, *, advisory: bool = False) -> list[str]:
    return [p.kind for p in problems(text, advisory=advisory)]


# sec. 4.4: (number, RFC logical, RFC visual, Hebrew logical, Hebrew visual)
ALLOWED = [
    (1, "http://ab.CDEFGH.ij/kl/mn/op.html", "http://ab.HGFEDC.ij/kl/mn/op.html",
     "http://ab.גדהוזח.ij/kl/mn/op.html", "http://ab.חזוהדג.ij/kl/mn/op.html"),
    (2, "http://ab.CDE.FGH/ij/kl/mn/op.html", "http://ab.HGF.EDC/ij/kl/mn/op.html",
     "http://ab.גדה.וזח/ij/kl/mn/op.html", "http://ab.חזו.הדג/ij/kl/mn/op.html"),
    (3, "http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV", "http://VU#TS=RQ;PO=NM?LK/JI/HG/FE.DC.BA",
     "http://אב.גד.הו/זח/טי/כל?מנ=סע;פצ=קר#שת", "http://תש#רק=צפ;עס=נמ?לכ/יט/חז/וה.דג.בא"),
    (4, "http://AB.CD.ef/gh/IJ/KL.html", "http://DC.BA.ef/gh/LK/JI.html",
     "http://אב.גד.ef/gh/טי/כל.html", "http://דג.בא.ef/gh/לכ/יט.html"),
    (5, "http://ab.cd.EF/GH/ij/kl.html", "http://ab.cd.HG/FE/ij/kl.html",
     "http://ab.cd.הו/זח/ij/kl.html", "http://ab.cd.חז/וה/ij/kl.html"),
    (6, "http://ab.CD.EF/GH/IJ/kl.html", "http://ab.JI/HG/FE.DC/kl.html",
     "http://ab.גד.הו/זח/טי/kl.html", "http://ab.יט/חז/וה.דג/kl.html"),
    (7, "http://ab.CDE123FGH.ij/kl/mn/op.html", "http://ab.HGF123EDC.ij/kl/mn/op.html",
     "http://ab.גדה123וזח.ij/kl/mn/op.html", "http://ab.חזו123הדג.ij/kl/mn/op.html"),
    (10, "http://ab.CDEFGH.123/kl/mn/op.html", "http://ab.123.HGFEDC/kl/mn/op.html",
     "http://ab.גדהוזח.123/kl/mn/op.html", "http://ab.123.חזוהדג/kl/mn/op.html"),
]
EXAMPLE_8 = "http://ab.cd.ef/זח1/2טי/כל.html"
EXAMPLE_9 = "http://ab.cd.ef/זח%31/%32טי/כל.html"
EXAMPLE_9_ARABIC = "http://ab.cd.ef/خد%31/%32ذر/زس.html"


def test_transcriptions_are_the_rfc_examples() -> None:
    for _, logical, visual, heb, heb_visual in ALLOWED:
        assert notation(logical, HEBREW) == heb
        assert notation(visual, HEBREW) == heb_visual
    assert notation("http://ab.cd.ef/GH1/2IJ/KL.html", HEBREW) == EXAMPLE_8
    assert notation("http://ab.cd.ef/GH%31/%32IJ/KL.html", HEBREW) == EXAMPLE_9
    assert notation("http://ab.cd.ef/GH%31/%32IJ/KL.html", ARABIC) == EXAMPLE_9_ARABIC


@pytest.mark.parametrize(("number", "logical", "visual", "heb", "heb_visual"), ALLOWED)
def test_allowed_examples_have_no_problem(number: int, logical: str, visual: str, heb: str,
                                          heb_visual: str) -> None:
    assert scan(heb).is_valid
    assert problems(heb) == []
    arabic = notation(logical, ARABIC)
    assert problems(arabic) == []
    if number != 10:  # Example 10 is allowed, and only an advisory
        assert problems(heb, advisory=True) == []


@pytest.mark.parametrize(("number", "logical", "visual", "heb", "heb_visual"), ALLOWED)
def test_display_order_matches_the_rfc(number: int, logical: str, visual: str, heb: str,
                                       heb_visual: str) -> None:
    assert display_order(heb) == heb_visual
    assert display_order(notation(logical, ARABIC)) == notation(visual, ARABIC)


def test_example_8_digits_at_the_edges() -> None:
    found = problems(EXAMPLE_8)
    assert [(p.kind, p.span, p.component) for p in found] == [
        ("rtl-edge", Span(18, 19), Span(16, 19)),  # "1" ends "זח1"
        ("rtl-edge", Span(20, 21), Span(20, 23)),  # "2" starts "2טי"
    ]
    assert display_order(EXAMPLE_8) == notation("http://ab.cd.ef/LK/JI1/2HG.html", HEBREW)
    message = said(EXAMPLE_8)
    assert "1/2" in message[0]  # the message shows the display, where "1/2" reads as a fraction
    assert "digits 1" in message[0] and "ends" in message[0]
    assert "digits 2" in message[1] and "starts" in message[1]


@pytest.mark.parametrize("text", [EXAMPLE_9, EXAMPLE_9_ARABIC])
def test_example_9_percent_escapes_at_the_edges(text: str) -> None:
    found = problems(text)
    assert [(p.kind, text[p.span.start:p.span.end]) for p in found] == [
        ("rtl-edge", "%31"), ("rtl-edge", "%32")]
    assert all("percent-escape" in m for m in said(text))


def test_example_9_display_follows_the_current_bidi_algorithm() -> None:
    # The RFC's visual forms of Example 9 predate UBA 6.3 (ET next to EN is resolved before
    # neutrals now), so the displayed order differs from the RFC's; it is still scrambled.
    assert display_order(EXAMPLE_9) == "http://ab.cd.ef/לכ/יט%32/%31חז.html"
    assert display_order(EXAMPLE_9_ARABIC) == notation("http://ab.cd.ef/LK/JI32%/31%HG.html", ARABIC)


def test_example_10_is_advisory_only() -> None:
    heb = ALLOWED[-1][3]
    assert problems(heb) == []
    found = problems(heb, advisory=True)
    assert [(p.kind, heb[p.span.start:p.span.end]) for p in found] == [("digit-component", "123")]
    assert "http://ab.123." in said(heb, advisory=True)[0]


def test_port_next_to_an_rtl_label_is_advisory() -> None:
    text = "http://ab.גדה:8080/x"
    assert display_order(text) == "http://ab.8080:הדג/x"
    assert kinds(text) == []
    assert kinds(text, advisory=True) == ["digit-component"]


def test_digit_component_after_ltr_is_displayed_in_place() -> None:
    # digits take the direction of the strong character before them (UAX #9 W2, W7)
    assert display_order("http://ab.cd.123/גד/kl") == "http://ab.cd.123/דג/kl"
    assert kinds("http://ab.cd.123/גד/kl", advisory=True) == []
    assert kinds("http://example.com/2024/01/post", advisory=True) == []


def test_digit_components_after_rtl_move() -> None:
    text = "http://ab.גד/12//34/kl"
    assert display_order(text) == "http://ab.34//12/דג/kl"
    found = problems(text, advisory=True)
    assert [text[p.span.start:p.span.end] for p in found] == ["12", "34"]
    assert kinds("http://x/גד.1", advisory=True) == ["digit-component"]


# ------------------------------------------------------------------ sec. 4.1


@pytest.mark.parametrize("c", sorted(BIDI_FORMATTING))
def test_formatting_characters_are_forbidden(c: str) -> None:
    text = f"http://example.com/a{c}b"
    found = problems(text)
    assert [(p.kind, p.span) for p in found] == [("formatting-char", Span(20, 21))]
    assert found[0].component == Span(19, 22)
    assert f"U+{ord(c):04X}" in said(text)[0]
    assert c not in said(text)[0]


@pytest.mark.parametrize("c", sorted(BIDI_ISOLATES))
def test_isolates_and_alm_are_reported(c: str) -> None:
    found = problems(f"http://example.com/?q={c}x")
    assert [p.kind for p in found] == ["isolate-char"]
    assert c not in said(f"http://example.com/?q={c}x")[0]


def test_trojan_source_spoof_is_shown_with_markers() -> None:
    # RLO turns "moc.elpmaxe" around: the reader sees "example.com"
    text = "http://evil.test/\u202emoc.elpmaxe"
    shown = display_order(text)
    assert "⟨U+202E⟩" in shown and "\u202e" not in shown
    assert "example.com" in shown
    assert [p.kind for p in problems(text)] == ["formatting-char"]


def test_control_in_scheme_or_port_gets_the_whole_text_as_component() -> None:
    text = "ht\u200etp://x/"
    found = problems(text)
    assert found[0].component == Span(0, len(text))


@pytest.mark.parametrize(("text", "char"), [
    ("http://xn--99zt52a.example.org/%E2%80%AE", "U+202E"),  # RFC 3987 sec. 3.2.1, example 3
    ("http://example.org/?q=%e2%80%8f", "U+200F"),
    ("http://example.org/%D8%9C", "U+061C"),
    ("http://example.org/a%E2%81%A6b", "U+2066"),
])
def test_percent_encoded_controls(text: str, char: str) -> None:
    found = problems(text)
    assert [p.kind for p in found] == ["percent-encoded-control"]
    assert char in said(text)[0]
    assert text[found[0].span.start:found[0].span.end].upper().startswith(("%E2", "%D8"))


def test_percent_encoded_non_controls_are_fine() -> None:
    assert kinds("http://example.org/%E2%80%AF%E2%80%8B%25E2%80%AE") == []


def test_every_control_encoded() -> None:
    for c in BIDI_CONTROLS:
        enc = "".join(f"%{b:02X}" for b in c.encode())
        assert kinds(f"http://x/{enc}") == ["percent-encoded-control"]


# ------------------------------------------------------------------ sec. 4.2 rules


def test_mixed_direction() -> None:
    text = "http://example.com/שלוםworld"
    found = problems(text)
    assert [(p.kind, p.span) for p in found] == [("mixed-direction", Span(19, 28))]
    assert "U+05E9 HEBREW LETTER SHIN" in said(text)[0]
    assert "U+0077 LATIN SMALL LETTER W" in said(text)[0]


def test_one_problem_per_component_mixed_wins() -> None:
    assert kinds("http://example.com/1שלוםworld") == ["mixed-direction"]


def test_hex_letters_of_escapes_are_not_ltr() -> None:
    # %D7%90 is ALEF encoded; its hex digits are not Latin letters of the component
    assert kinds("http://example.com/א%D7%90ב") == []


def test_query_names_and_values_are_components() -> None:
    assert kinds("http://example.com/?lang=he&q=שלום") == []
    assert kinds("http://example.com/?q=שלום1") == ["rtl-edge"]


def test_extension_is_its_own_component() -> None:
    assert kinds("http://example.com/שלום.html") == []
    assert kinds("http://example.com/שלום.html", advisory=True) == []


def test_trailing_mark_belongs_to_its_letter() -> None:
    assert kinds("http://example.com/שָׁלוֹם/בְּ") == []


def test_arabic_indic_digits_at_edge() -> None:
    assert kinds("http://example.com/مرحبا١") == ["rtl-edge"]


def test_punctuation_at_edge() -> None:
    found = problems("http://example.com/-שלום")
    assert [p.kind for p in found] == ["rtl-edge"]
    assert "U+002D HYPHEN-MINUS" in said("http://example.com/-שלום")[0]


def test_userinfo_and_fragment() -> None:
    assert kinds("http://שלום@example.com/#שלום") == []
    assert kinds("http://user1@example.com/#שלום2") == ["rtl-edge"]


# ------------------------------------------------------------------ components


def test_components() -> None:
    ref = scan("http://u:p@ab.cd:80/x/foo.html/.htaccess/v./a.b.c?a=1&b=2;c=3=4#frag")
    assert [(c.kind, c.text) for c in bidi_components(ref)] == [
        ("userinfo", "u:p"), ("label", "ab"), ("label", "cd"), ("segment", "x"),
        ("segment", "foo"), ("extension", "html"), ("segment", ".htaccess"), ("segment", "v."),
        ("segment", "a.b"), ("extension", "c"), ("query-name", "a"), ("query-value", "1"),
        ("query-name", "b"), ("query-value", "2"), ("query-name", "c"), ("query-value", "3"),
        ("query-value", "4"), ("fragment", "frag"),
    ]
    for c in bidi_components(ref):
        assert ref.text[c.span.start:c.span.end] == c.text


def test_ip_hosts_have_no_labels() -> None:
    assert [c.kind for c in bidi_components(scan("http://[::1]/a"))] == ["segment"]
    assert [c.kind for c in bidi_components(scan("http://127.0.0.1/a"))] == ["segment"]


# ------------------------------------------------------------------ fix


def test_encode_component_fixes_example_8() -> None:
    ref = scan(EXAMPLE_8)
    found = bidi_problems(ref)
    start, end, replacement = encode_component(ref, found[0].component)
    assert (start, end) == (16, 19)
    assert replacement == "%D7%96%D7%971"
    fixed = ref.text[:start] + replacement + ref.text[end:]
    assert [p.component for p in bidi_problems(scan(fixed))] == [Span(30, 33)]


def test_encode_component_keeps_the_uri() -> None:
    mapping = pytest.importorskip("iri_lint.core.mapping")
    for text in (EXAMPLE_8, EXAMPLE_9, "http://example.com/?q=שלוםworld", "http://x/a\u202eb"):
        ref = scan(text)
        for comp in bidi_components(ref):
            start, end, repl = encode_component(ref, comp)
            fixed = text[:start] + repl + text[end:]
            assert mapping.to_uri(fixed) == mapping.to_uri(text)


def test_encode_component_accepts_a_component() -> None:
    ref = scan("http://x/אב?q=1")
    comp = bidi_components(ref)[1]
    assert encode_component(ref, comp) == (9, 11, "%D7%90%D7%91")


# ------------------------------------------------------------------ properties

_ALPHABET = st.sampled_from([*"ab1/.?=&#%:@-", "%31", "%E2%80%AE", *sorted(BIDI_CONTROLS),
                             *"אבשלوםمر١\u05b0\u200b\u0301"])


@given(st.lists(_ALPHABET, max_size=30).map("".join))
def test_messages_never_contain_invisible_characters(tail: str) -> None:
    for m in said("http://ab.cd/" + tail, advisory=True):
        assert visible(m) == m
        assert "\n" not in m
    for p in problems("http://ab.cd/" + tail, advisory=True):
        assert 0 <= p.span.start < p.span.end
        assert p.component.start <= p.span.start and p.span.end <= p.component.end


@given(st.text(st.characters(max_codepoint=127, exclude_characters="%"), max_size=60))
def test_ascii_without_escapes_has_no_bidi_problem(text: str) -> None:
    assert bidi_problems(scan(text), advisory=True) == []
    assert display_order(text) == visible(text)


def test_many_problems_are_all_found() -> None:
    """Linear work is checked by counting it (test_work_per_distinct_character), never by a clock."""
    text = "http://example.com/" + "שלום1/" * 20000
    assert len(problems(text, advisory=True)) == 20000


# ------------------------------------------------------------------ per-distinct-character work
# The passes look character properties up once per distinct character and find characters with
# regexes. These references are the straightforward per-character loops they replace.


def _ref_summary(text: str, start: int, end: int) -> tuple[int, int, bool]:
    rtl = ltr = -1
    digits = True
    i = start
    while i < end:
        if i + 2 < end and text[i] == "%" and text[i + 1] in HEXDIG and text[i + 2] in HEXDIG:
            digits = False
            i += 3
            continue
        c = text[i]
        i += 1
        if c in BIDI_CONTROLS:
            continue
        cls = "L" if c.isascii() and c.isalpha() else ucd.bidirectional(c)
        if cls in ("R", "AL") and rtl < 0:
            rtl = i - 1
        elif cls == "L" and ltr < 0:
            ltr = i - 1
        digits = digits and (c in "0123456789" or (not c.isascii() and cls in ("EN", "AN")))
    return rtl, ltr, digits


def _ref_edge(text: str, start: int, end: int, *, at_end: bool) -> Span | None:
    def rtl(c: str) -> bool:
        return not c.isascii() and ucd.bidirectional(c) in ("R", "AL")

    def triplet(i: int) -> bool:
        return i + 2 < end and text[i] == "%" and text[i + 1] in HEXDIG and text[i + 2] in HEXDIG

    if at_end:
        i = end
        while i > start and not text[i - 1].isascii() and ucd.bidirectional(text[i - 1]) == "NSM":
            i -= 1
        if i == start or rtl(text[i - 1]):
            return None
        j = i
        while j > start:
            if j - 3 >= start and triplet(j - 3):
                j -= 3
            elif text[j - 1] in "0123456789":
                j -= 1
            else:
                break
        return Span(j if j < i else i - 1, i)
    if rtl(text[start]):
        return None
    j = start
    while j < end:
        if triplet(j):
            j += 3
        elif text[j] in "0123456789":
            j += 1
        else:
            break
    return Span(start, j if j > start else start + 1)


def _ref_digit_spans(text: str, spans: list[Span]) -> list[Span]:
    out, i, rtl_before = [], 0, False
    for span in spans:
        for c in text[i : span.start]:
            cls = ("L" if c.isalpha() else "") if c.isascii() else ucd.bidirectional(c)
            if cls in ("R", "AL", "L"):
                rtl_before = cls != "L"
        i = span.start
        if rtl_before:
            out.append(span)
    return out


def _ref_problems(text: str, *, advisory: bool) -> list[tuple[str, Span, Span]]:
    """(kind, span, component) of every problem, by the per-character loops."""
    ref = scan(text)
    comps = bidi_components(ref)

    def comp_at(i: int) -> Span:
        return next((c.span for c in comps if c.span.start <= i < c.span.end), Span(0, len(text)))

    out = [("formatting-char" if c in BIDI_FORMATTING else "isolate-char", Span(i, i + 1), comp_at(i))
           for i, c in enumerate(text) if c in BIDI_CONTROLS]
    out += [("percent-encoded-control", Span(m.start(), m.end()), comp_at(m.start()))
            for m in re.finditer("|".join(pct_encode(c) for c in BIDI_CONTROLS), text, re.IGNORECASE)]
    summaries = [_ref_summary(text, c.span.start, c.span.end) for c in comps]
    for comp, (rtl, ltr, _) in zip(comps, summaries, strict=True):
        if rtl >= 0 and ltr >= 0:
            out.append(("mixed-direction", comp.span, comp.span))
        elif rtl >= 0:
            out += [("rtl-edge", edge, comp.span) for at_end in (False, True)
                    if (edge := _ref_edge(text, comp.span.start, comp.span.end, at_end=at_end))]
    if advisory and not text.isascii():
        spans = [c.span for c, s in zip(comps, summaries, strict=True) if s[2]]
        port = text[ref.port.start : ref.port.end] if ref.port is not None else ""
        if port.isascii() and port.isdigit():  # (a port is ASCII DIGIT, RFC 3986 sec. 3.2.3: "8١" is none)
            spans = sorted([*spans, ref.port], key=lambda sp: sp.start)  # type: ignore[list-item]
        out += [("digit-component", sp, sp) for sp in _ref_digit_spans(text, spans)]
    return sorted(out, key=lambda p: (p[1].start, p[1].end))


def _ref_hidden(c: str) -> bool:
    if c.isascii():
        return not c.isprintable()
    return c in BIDI_CONTROLS or ucd.category(c) in ("Cc", "Cf", "Zl", "Zp", "Zs", "Cn", "Co") or (
        "VARIATION SELECTOR" in ucd.name(c, ""))


def _ref_visible(text: str) -> str:
    return "".join(f"⟨U+{ord(c):04X}⟩" if _ref_hidden(c) else c for c in text)


_ANY_CHARACTER = st.characters(exclude_categories=())  # surrogates too


_HOSTILE_ALPHABET = st.sampled_from([
    *"ab1/.?=&#%:@-;[]F", "1/", "/1", ":8", "%31", "%E2%80%AE", "%e2%80%8f", "%4", "%%", "%a", "%ab",
    *sorted(BIDI_CONTROLS), *"אבשלوםمر١۱\u05b0\u0301\u064b\u200bé\x00\x85 ", "\uff46"])
_PREFIXES = st.sampled_from(["http://ab.cd/", "http://", "", "mailto:", "http://u:p@", "//", "x:",
                             "http://h:80/", "?", "#", "http://[::1]/", "http://א:80/",
                             "http://אב.1:8080/1", "http://א.com/"])
_RUNS = st.lists(st.tuples(_HOSTILE_ALPHABET, st.sampled_from([1, 1, 1, 2, 3, 70])).map(lambda t: t[0] * t[1]),
                 max_size=25).map("".join)


@settings(max_examples=400)
@given(_PREFIXES, _RUNS)
def test_problems_are_those_of_the_per_character_loops(prefix: str, tail: str) -> None:
    text = prefix + tail
    bulk = bidi._BULK
    try:
        for bidi._BULK in (bulk, 0):  # components one by one, and all at once
            for advisory in (False, True):
                assert [(p.kind, p.span, p.component) for p in problems(text, advisory=advisory)] == (
                    _ref_problems(text, advisory=advisory))
    finally:
        bidi._BULK = bulk


@settings(max_examples=300)
@given(_PREFIXES, _RUNS)
def test_summaries_and_edges_are_those_of_the_per_character_loops(prefix: str, tail: str) -> None:
    text = prefix + tail
    classes = bidi._classes(text)
    for comp in bidi_components(scan(text)):
        s, e = comp.span.start, comp.span.end
        assert bidi._direction_summary(text, s, e) == _ref_summary(text, s, e)
        assert bidi._direction_summary(text, s, e, classes) == _ref_summary(text, s, e)
        for at_end in (False, True):
            assert bidi._edge(text, s, e, at_end=at_end) == _ref_edge(text, s, e, at_end=at_end)
            assert bidi._edge(text, s, e, at_end=at_end, classes=classes) == _ref_edge(text, s, e, at_end=at_end)


@settings(max_examples=300)
@given(_PREFIXES, _RUNS)
def test_both_ways_to_find_digit_components_agree(prefix: str, tail: str) -> None:
    text = prefix + tail
    ref = scan(text)
    classes = bidi._classes(text)
    table = component_table(ref)
    digits = table.at_starts(f"{classes.digit_class}++(?={re.escape(table.joined()[1])}|\\Z)")
    port = ref.port
    if port is not None and not (len(port) and text[port.start : port.end].isdigit()):
        port = None
    assert bidi._digits_in_zones(ref, classes, digits, port) == bidi._digits_after_rtl(ref, classes, digits, port)


@given(st.text(_ANY_CHARACTER, max_size=40), st.sampled_from(["", "אa" * 120, "\u200f" * 150]))
def test_visible_anddisplay_head(tail: str, pad: str) -> None:
    text = "http://x/" + pad + tail
    assert visible(text) == _ref_visible(text)
    shown = display_order(text)
    assert bidi.display_head(text) == (shown[:200] + "…" if len(shown) > 200 else shown)


@given(st.text(_ANY_CHARACTER, max_size=40))
def test_encode_component_is_utf8_of_each_non_ascii_character(tail: str) -> None:
    ref = scan("http://x/" + tail)
    span = Span(9, len(ref.text))
    expected = "".join(c if c.isascii() else pct_encode(c, errors="surrogatepass") for c in tail)
    assert encode_component(ref, span) == (9, len(ref.text), expected)


def _counting(monkeypatch: pytest.MonkeyPatch, *names: str) -> Counter[str]:
    calls: Counter[str] = Counter()

    def counter(name: str) -> Callable[..., object]:
        f = getattr(bidi, name)

        def counted(*args: object, **kwargs: object) -> object:
            calls[name] += 1
            return f(*args, **kwargs)
        return counted

    for name in names:
        monkeypatch.setattr(bidi, name, counter(name))
    return calls


@pytest.mark.parametrize("tail", [
    "אa" * 50_000, "א" * 100_000, "א" + "\u05b0" * 100_000 + "1", "א" + "1" * 100_000,
    "א/" * 50_000, "1/" * 50_000, "\u202e" * 1000 + "שלום" * 20_000, "%D7%90" * 10_000 + "א",
    "א1/" * 30_000, "אa/" * 30_000,
])
@pytest.mark.slow  # stress: hostile inputs
def test_work_per_distinct_character(monkeypatch: pytest.MonkeyPatch, tail: str) -> None:
    calls = _counting(monkeypatch, "_bidi_class", "_is_hidden", "_component_problems")
    text = "http://אב.com/" + tail
    found = problems(text, advisory=True)
    distinct = len(set(text))
    # each distinct character once, and a few characters per problem (edges, messages)
    assert calls["_bidi_class"] <= distinct + 4 * len(found)
    assert calls["_is_hidden"] <= 2 * distinct + 300 * len(found)
    # components are looked at one by one only when few, or when they have a problem
    assert calls["_component_problems"] <= bidi._BULK + len(found)


def test_lone_surrogates_are_displayed_where_private_use_characters_would_be() -> None:
    # python-bidi takes UTF-8 only; both are Bidi_Class L
    shown = bidi._logical_to_display("http://x/\U000f0000אב\U000f00011a")
    assert bidi._logical_to_display("http://x/\ud800אב\udfff1a") == shown.translate(
        {0xF0000: "\ud800", 0xF0001: "\udfff"})
    assert display_order("http://x/\ud800אב") == "http://x/\ud800בא"
    assert kinds("http://x/\ud800אa") == ["mixed-direction"]


@pytest.mark.slow  # stress: hostile inputs
def test_hostile_results() -> None:
    text = "http://example.com/" + "אa" * 50_000
    (p,) = problems(text, advisory=True)
    assert (p.kind, p.span) == ("mixed-direction", Span(19, len(text)))
    (message,) = said(text, advisory=True)
    assert "…" in message and len(message) < 1000
    assert problems("http://example.com/" + "א/" * 50_000, advisory=True) == []
    text = "http://example.com/" + "א" + "\u05b0" * 100_000 + "1"
    assert [(p.kind, p.span) for p in problems(text)] == [("rtl-edge", Span(len(text) - 1, len(text)))]
    text = "http://אב.com:8080/" + "1/" * 50_000
    assert problems(text, advisory=True) == []  # "com" is ltr: the digits stay in place
    text = "http://com.אב:8080/" + "1/" * 3
    assert [p.span for p in problems(text, advisory=True)] == [
        Span(14, 18), Span(19, 20), Span(21, 22), Span(23, 24)]
    text = "http://example.com/" + "\u202e" * 100_000
    assert len(problems(text)) == 100_000


# ------------------------------------------------------------------ budgets: components judged by their text

_MANY_COMPONENTS = {
    "mixed only": "\u05d0a/" * 300,
    "edges only": "1\u05d0/" * 300,
    "both edges": "1\u05d01/" * 300,
    "mixed then edges": "\u05d0a/" * 150 + "1\u05d0/" * 150,
    "edges then mixed": "1\u05d0/" * 150 + "\u05d0a/" * 150,
    "interleaved": "\u05d0a/1\u05d0/\u05d0\u05d1/x\u05d0\u05d1/" * 80,
    "distinct": "".join(f"\u05d0{i}/a\u05d0{i}/" for i in range(200)),
    "labels": "",
}


@pytest.mark.parametrize("limit", [1, 3, 100, 10**9])
@pytest.mark.parametrize("tail", list(_MANY_COMPONENTS.values()), ids=list(_MANY_COMPONENTS))
def test_a_budget_builds_the_first_problems_and_counts_the_rest(tail: str, limit: int) -> None:
    from iri_lint.core.budget import Budget

    text = "http://" + ("1\u05d0." * 120 + "\u05d0a." * 50 if not tail else "example.com") + "/" + tail
    full = problems(text, advisory=True)
    budget = Budget(limit)
    got = bidi_problems(scan(text), advisory=True, budget=budget)
    seen: Counter[str] = Counter()
    kept = []
    for p in full:
        seen[p.kind] += 1
        if seen[p.kind] <= limit:
            kept.append(p)
    assert got == kept
    left = {kind: n - limit for kind, n in Counter(p.kind for p in full).items() if n > limit}
    assert budget.skipped == left


def test_repeated_components_are_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from iri_lint.core.budget import Budget

    calls = _counting(monkeypatch, "_direction_summary", "_edge")
    text = "http://example.com/" + "\u05d0a/1\u05d0/" * 5000
    found = bidi_problems(scan(text), budget=Budget(100))
    assert Counter(p.kind for p in found) == {"mixed-direction": 100, "rtl-edge": 100}
    assert calls["_direction_summary"] == 2  # one per distinct component text
    assert calls["_edge"] <= 4
