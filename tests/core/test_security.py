"""Spoofing risks: RFC 3987 sec. 6.1, 7.5, 8; 3987bis sec. 9; UTS #39; RFC 3986 sec. 3.2.1."""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iri_lint.core import joiners, security
from iri_lint.core.bidi import visible
from iri_lint.core.chars import BIDI_CONTROLS
from iri_lint.core.components import Component, ComponentTable, component_table
from iri_lint.core.reference import HostKind, Span
from iri_lint.core.scanner import scan
from iri_lint.core.security import (
    SecurityProblem,
    icu_available,
    is_default_ignorable,
    security_problems,
)
from iri_lint.rules.engine import check


@pytest.fixture(params=["icu", "no-icu"])
def icu_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run a test with ICU, and with ``import icu`` failing (the core without the extra)."""
    if request.param == "icu":
        pytest.importorskip("icu")
    else:
        monkeypatch.setitem(sys.modules, "icu", None)  # makes "import icu" raise ImportError
    security._clear_caches()
    yield request.param
    monkeypatch.undo()
    security._clear_caches()


@pytest.fixture
def no_icu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(sys.modules, "icu", None)
    security._clear_caches()
    yield
    monkeypatch.undo()
    security._clear_caches()


def found(text: str) -> list[SecurityProblem]:
    return security_problems(scan(text))


def said(text: str) -> list[str]:
    """The messages the security rules write for ``text``'s problems (the core returns facts, no prose)."""
    return [f.message for f in check(text, select=["IRI5"])]


def kinds(text: str) -> list[str]:
    return [p.kind for p in found(text)]


def test_icu_switch(icu_mode: str) -> None:
    assert icu_available() == (icu_mode == "icu")
    assert (security.skeleton("p\u0430ypal") == "paypal") == (icu_mode == "icu")


# ------------------------------------------------------------------ confusable-host


@pytest.mark.parametrize("text", [
    "http://p\u0430ypal.com/",  # Cyrillic a
    "http://g\u03bf\u03bfgle.com/",  # Greek omicron
    "https://\u0430pple.com/login",
])
def test_mixed_latin_confusable_host(icu_mode: str, text: str) -> None:
    problems = found(text)
    assert [p.kind for p in problems] == ["confusable-host"]
    assert problems[0].span == Span(text.index("//") + 2, text.index(".com"))
    assert "CYRILLIC" in said(text)[0] or "GREEK" in said(text)[0]


@pytest.mark.parametrize(("text", "reads"), [
    ("http://\u0261oogle.com/", "google"),  # LATIN SMALL LETTER SCRIPT G
    ("http://g\u0131thub.com/", "github"),  # LATIN SMALL LETTER DOTLESS I
    ("http://p\u0251ypal.com/", "paypal"),  # LATIN SMALL LETTER ALPHA
    ("http://g\u1d0f\u1d0fgle.com/", "google"),  # LATIN LETTER SMALL CAPITAL O
    ("https://pay\u2010pal.com/", "pay-pal"),  # HYPHEN: a label's own '-' (fixtures183 repro 03)
    ("https://notify.market\u2013example.com/", "market-example"),  # EN DASH
])
def test_latin_letters_that_read_as_ascii_are_confusable(icu_mode: str, text: str, reads: str) -> None:
    """UTS #39 makes no exception for a look-alike of the same script (fixtures153, repro 03): the data
    without ICU agrees with ICU's skeleton."""
    (p,) = found(text)
    assert (p.kind, p.looks_like) == ("confusable-host", reads)


def test_confusable_suggests_the_ascii_look_alike() -> None:
    pytest.importorskip("icu")
    (p,) = found("http://p\u0430ypal.com/")
    assert p.replacement == "paypal"
    assert p.looks_like == "paypal"
    assert "'paypal'" in said("http://p\u0430ypal.com/")[0]


def test_whole_script_confusable_with_or_without_icu(icu_mode: str) -> None:
    # all Cyrillic: "раура1" reads as "paypal": ICU's skeleton, or Unicode's confusables data without it
    text = "http://\u0440\u0430\u0443\u0440\u04301.com/"
    assert kinds(text) == ["confusable-host"]


@pytest.mark.parametrize("text", [
    "http://müller.de/", "http://пример.рф/", "http://例え.テスト/", "http://ελληνικά.gr/",
    "http://xn--mller-kva.de/", "http://www.br\u00e6ndendek\u00e6rlighed.com/", "http://stra\u00dfe.de/",
])
def test_real_idn_hosts_are_not_confusable(icu_mode: str, text: str) -> None:
    assert kinds(text) == []


# ------------------------------------------------------------------ mixed-script


@pytest.mark.parametrize("text", [
    "http://example.com/東京タワーとうきょうTokyo",  # Japanese: Han + Hiragana + Katakana + Latin
    "http://example.com/ㄅㄆ漢字abc",  # Chinese: Bopomofo + Han + Latin
    "http://example.com/한국어漢字abc",  # Korean: Hangul + Han + Latin
    "http://example.com/Москва-2024",  # digits and '-' are Common
    "http://example.com/café",  # decomposed? no: precomposed Latin
    "http://example.com/cafe\u0301",  # combining acute (Inherited) on Latin
    "http://example.com/Москва.html",  # the extension is its own component
    "http://example.com/?city=Москва&lang=ru",  # query names and values are components
    "http://example.com/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0",  # hex digits are not letters
    "http://example.com/Москва%20город",
])
def test_single_script_or_allowed_combinations(icu_mode: str, text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize(("text", "at", "scripts"), [
    ("http://example.com/Москва-city", "c", "Cyrillic and Latin"),
    ("http://example.com/東京とうきょう한국", "한", "Han and Hiragana and Hangul"),
    ("http://example.com/abcαβγ", "α", "Latin and Greek"),
    ("http://example.com/#שלוםworld", "w", "Hebrew and Latin"),
])
def test_mixed_script(icu_mode: str, text: str, at: str, scripts: str) -> None:
    problems = found(text)
    assert [p.kind for p in problems] == ["mixed-script"]
    assert problems[0].span.start == text.index(at, 19)
    assert " and ".join(problems[0].scripts) == scripts
    assert scripts in said(text)[0]


def test_a_label_not_every_character_of_which_reads_as_ascii_mixes_scripts(icu_mode: str) -> None:
    """``аβc`` (Cyrillic a, Greek beta, Latin c): beta has no ASCII look-alike, so the label reads as no ASCII
    label (IRI502) but mixes scripts (IRI501), with ICU or without (fixtures32, repro 01)."""
    assert kinds("https://\u0430\u03b2c.example/") == ["mixed-script"]


def test_confusable_label_is_not_also_mixed_script(icu_mode: str) -> None:
    assert kinds("http://p\u0430ypal.com/p\u0430ypal") == ["confusable-host", "mixed-script"]


# ------------------------------------------------------------------ fullwidth (6.1)


def test_fullwidth_latin_run(icu_mode: str) -> None:
    text = "http://ｅｘａｍｐｌｅ.com/ｆｏｏ"
    problems = found(text)
    assert [(p.kind, p.replacement) for p in problems] == [
        ("fullwidth", "example"), ("fullwidth", "foo")]
    assert problems[0].span == Span(7, 14)


def test_halfwidth_katakana(icu_mode: str) -> None:
    (p,) = found("http://example.jp/ﾃｽﾄ")
    assert (p.kind, p.replacement) == ("fullwidth", "テスト")
    assert "U+FF83 HALFWIDTH KATAKANA LETTER TE" in said("http://example.jp/ﾃｽﾄ")[0]


# ------------------------------------------------------------------ delimiter-lookalike (6.1 b)


@pytest.mark.parametrize(("c", "delim"), [
    ("\uff0f", "/"), ("\uff1a", ":"), ("\uff0e", "."), ("\u3002", "."), ("\uff61", "."),
    ("\ufe56", "?"), ("\uff03", "#"), ("\uff20", "@"), ("\uff05", "%"), ("\u037e", ";"),
    ("\u2024", "."),
])
def test_delimiter_lookalikes_without_confusables_data(icu_mode: str, c: str, delim: str) -> None:
    text = f"http://example.com/a{c}b"
    problems = found(text)
    assert [(p.kind, p.span, p.replacement) for p in problems] == [
        ("delimiter-lookalike", Span(20, 21), delim)]
    assert c not in said(text)[0] or c.isprintable()


@pytest.mark.parametrize(("c", "delim"), [("\u2215", "/"), ("\u2044", "/"), ("\u0589", ":"),
                                          ("\ua789", ":")])
def test_delimiter_lookalikes_from_uts39(icu_mode: str, c: str, delim: str) -> None:
    """UTS #39's skeleton with ICU; without it, Unicode's confusables data (data/confusables.py): IRI504's own
    example, U+2215 DIVISION SLASH, on a plain install too (fixtures30, repro 02)."""
    text = f"http://example.com{c}evil.example/"
    problems = found(text)
    assert [(p.kind, p.replacement) for p in problems] == [("delimiter-lookalike", delim)]


def test_space_lookalikes_suggest_percent_encoding(icu_mode: str) -> None:
    for c in ("\u00a0", "\u3000", "\u2002"):
        (p,) = found(f"http://example.com/a{c}b")
        assert (p.kind, p.replacement) == ("delimiter-lookalike", "%20")
        assert "U+0020 SPACE" in said(f"http://example.com/a{c}b")[0]


# ------------------------------------------------------------------ invisible


@pytest.mark.parametrize("c", ["\u200b", "\u00ad", "\u2060", "\ufe0f", "\ufeff", "\u3164", "\u034f", "\u180e"])
def test_invisible(icu_mode: str, c: str) -> None:
    text = f"http://example.com/a{c}b"
    problems = found(text)
    assert [(p.kind, p.span, p.replacement) for p in problems] == [
        ("invisible", Span(20, 21), "")]
    assert c not in said(text)[0]
    assert f"U+{ord(c):04X}" in said(text)[0]


@pytest.mark.parametrize("c", ["\U000e0001", "\U000e0041", "\U000e0100", "\U000e01ef"])
def test_tags_and_supplementary_variation_selectors_are_the_tag_rules(icu_mode: str, c: str) -> None:
    """U+E0000-E0FFF is outside ucschar (RFC 3987 sec. 2.2), and 3987bis allows it in a query: IRI107 says which."""
    assert found(f"http://example.com/a{c}b") == []


def test_invisible_runs_are_merged(icu_mode: str) -> None:
    (p,) = found("http://example.com/a\u200b\u200b\u2060b")
    assert p.span == Span(20, 23)


def test_invisible_in_host(icu_mode: str) -> None:
    # the label's only non-ASCII character is reported as invisible, not also as confusable
    assert kinds("http://pay\u200bpal.com/") == ["invisible"]


@pytest.mark.parametrize("text", [
    "http://example.in/\u0915\u094d\u200c\u0937",  # ZWNJ after a virama (RFC 5892 A.1)
    "http://example.in/\u0915\u094d\u200d\u0937",  # ZWJ after a virama (A.2)
    "http://example.ir/\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian "می‌خواهم"
])
def test_joiners_in_contexts_idna_allows(icu_mode: str, text: str) -> None:
    assert kinds(text) == []


def test_joiners_elsewhere_are_invisible(icu_mode: str) -> None:
    assert kinds("http://example.com/ab\u200cc") == ["invisible"]
    assert kinds("http://example.com/ab\u200dc") == ["invisible"]


def test_bidi_controls_are_left_to_the_bidi_checks(icu_mode: str) -> None:
    assert kinds("http://example.com/a\u202eb\u200e") == []


try:
    import icu as ICU  # imported before any test hides it
except ImportError:  # pragma: no cover
    ICU = None


@pytest.mark.skipif(ICU is None, reason="needs icu")
def test_fallback_default_ignorable_agrees_with_icu(no_icu: None) -> None:
    import unicodedataplus as ucd

    icu = ICU

    missed, extra = [], []
    for cp in range(0x80, 0x110000):
        c = chr(cp)
        if ucd.category(c) == "Cn" or 0xD800 <= cp <= 0xDFFF:
            continue  # the fallback knows assigned characters only
        ours = is_default_ignorable(c)
        theirs = icu.Char.hasBinaryProperty(c, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)
        if ours and not theirs:
            extra.append(cp)
        elif theirs and not ours:
            missed.append(cp)
    assert extra == []
    # U+FFF9-FFFB are specials (the parser's business); Unicode versions may differ a little
    assert len(missed) <= 8, [hex(cp) for cp in missed]


# ------------------------------------------------------------------ userinfo-password


def test_password_span_and_message() -> None:
    text = "https://alice:s3cr3t@example.com/"
    (p,) = found(text)
    assert p.kind == "userinfo-password"
    assert text[p.span.start:p.span.end] == "s3cr3t"
    assert p.component == Span(8, 20)
    assert "s3cr3t" not in said(text)[0]
    assert "3.2.1" in said(text)[0]


@pytest.mark.parametrize("text", ["https://alice@example.com/", "https://alice:@example.com/",
                                  "https://example.com/a:b@c", "mailto:a:b@example.com",
                                  "github://fsspec:filesystem_spec@main/README.md",  # org:repo (fsspec: fixtures111)
                                  "GitHub://org:repo@v1/x"])
def test_no_password(text: str) -> None:
    assert kinds(text) == []


def test_password_with_non_ascii() -> None:
    assert kinds("http://ünïcode:pässwörd@example.com/") == ["userinfo-password"]


@pytest.mark.parametrize(("text", "reported"), [
    ("amqp://guest:guest@localhost:5672//", False),  # RabbitMQ's default login: the user name tells it
    ("amqp://gu%65st:guest@localhost//", False),  # the same after percent-decoding (RFC 3986 sec. 2.1)
    ("amqp://guest:Guest@localhost//", True),  # passwords are case-sensitive
    ("amqp://guest:guest1@localhost//", True),
])
def test_a_password_that_repeats_the_user_name_is_a_default_login(text: str, reported: bool) -> None:
    assert (kinds(text) == ["userinfo-password"]) is reported


# ------------------------------------------------------------------ properties and speed

_ASCII_IRI = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7e), max_size=80)


@given(_ASCII_IRI)
def test_ascii_iris_only_ever_have_passwords(text: str) -> None:
    assert {p.kind for p in found(text)} <= {"userinfo-password"}


_MIXED = st.sampled_from([*"ab1/.?#@:%=&", "p\u0430", "\u03bf", "\uff0f", "\u2215", "\u200b",
                          "\u200c", "\u094d", "\u0915", "東", "タ", "한", "ｆ", "ﾃ", "\u00a0",
                          "\u202e", "\ufe0f", "ש"])


@given(st.lists(_MIXED, max_size=25).map("".join))
def test_messages_are_one_visible_line(tail: str) -> None:
    text = "http://u:pw@" + tail
    for m in said(text):
        assert visible(m) == m
        assert "\n" not in m
    for p in found(text):
        assert 0 <= p.span.start < p.span.end <= len(text)
        assert p.component.start <= p.span.start and p.span.end <= p.component.end


@given(st.lists(_MIXED, max_size=25).map("".join))
def test_same_kinds_of_character_findings_without_icu_are_a_subset(tail: str) -> None:
    # ICU only adds detection; the fallback never reports what ICU would not
    text = "http://example.com/" + tail
    with_icu = {(p.kind, p.span) for p in found(text) if p.kind in ("fullwidth", "invisible")}
    sys.modules["icu"] = None  # type: ignore[assignment]
    security._clear_caches()
    try:
        without = {(p.kind, p.span) for p in found(text) if p.kind in ("fullwidth", "invisible")}
    finally:
        del sys.modules["icu"]
        security._clear_caches()
    assert without <= with_icu


def test_ascii_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """No timing here (benchmarks/ times): an ASCII IRI looks no character property up."""
    calls = _counting(monkeypatch, "_kind", "_scx", "_mixed_script_problem")
    assert found("https://example.com/" + "a/b?c=d&" * 50_000) == []
    assert not calls


def test_many_problems_are_all_found(icu_mode: str) -> None:
    """Linear work is checked by counting it (test_work_per_distinct_character), never by a clock."""
    text = "http://example.com/" + "Москва-city\u200b\uff0f/" * 5000
    assert len(found(text)) == 15000


# ------------------------------------------------------------------ per-distinct-character work
# The passes look character properties up once per distinct character and find characters with
# regexes. ``_reference`` is the straightforward per-character loop they replace.


def _reference(text: str) -> list[tuple[str, Span, Span]]:
    """(kind, span, component) of every problem, by looking at each character in turn."""
    ref = scan(text)
    pw = security._password(ref)
    out = [] if pw is None else [(pw.kind, pw.span, pw.component)]
    if text.isascii():
        return out
    table = component_table(ref, split_userinfo=True)  # the user name and password apart
    comps = [table.component(k) for k in range(len(table))]

    def comp_at(i: int) -> Component | None:
        return next((c for c in comps if c.span.start <= i < c.span.end), None)

    def kind(i: int, c: str) -> object:
        if c.isascii() or c in BIDI_CONTROLS:
            return None
        if security.delimiter_for(c) is not None:
            return ("delimiter-lookalike", i)  # never merged with its neighbours
        if security._is_wide_or_narrow(c):
            return "fullwidth"
        if security.is_default_ignorable(c) and not (
                c in "\u200c\u200d" and joiners.joiner_allowed(text, comp_at(i), i)):
            return "invisible"
        return None

    for k, run in itertools.groupby(enumerate(text), key=lambda t: kind(*t)):
        if k is not None:
            start = next(run)[0]
            end = start + 1 + sum(1 for _ in run)
            comp = comp_at(start)
            out.append((k[0] if isinstance(k, tuple) else str(k), Span(start, end),
                        comp.span if comp else Span(0, len(text))))
    flagged = {i for _, sp, _ in out[1 if pw else 0:] for i in range(sp.start, sp.end)}
    confusable = set()
    if ref.host is not None and ref.host_kind is HostKind.REG_NAME:
        for comp in comps:
            if comp.kind == "label" and any(not c.isascii() and comp.span.start + k not in flagged
                                            for k, c in enumerate(comp.text)):
                p = security._confusable_verdict(comp.text)
                if p is not None:
                    out.append((p.kind, comp.span, comp.span))
                    confusable.add(comp.span)
    for comp in comps:
        if not comp.text.isascii() and comp.span not in confusable:
            pos = _reference_mixed(text, comp.span.start, comp.span.end, flagged)
            if pos is not None:
                out.append(("mixed-script", Span(pos, pos + 1), comp.span))
    return sorted(out, key=lambda p: (p[1].start, p[1].end))


def _reference_mixed(text: str, start: int, end: int, flagged: set[int]) -> int | None:
    letters, i = [], start
    while i < end:
        if text[i] == "%" and i + 2 < end:
            i += 3  # the two characters after "%" are not letters of the component
            continue
        scx = security._scx(text[i])
        if scx is not None and i not in flagged:
            letters.append((i, scx))
        i += 1
    resolved = letters[0][1] if letters else frozenset()
    for pos, scx in letters:
        resolved = resolved & scx
        if not resolved:
            if any(all(s & combo for _, s in letters) for combo in security._ALLOWED_COMBINATIONS):
                return None
            return pos
    return None


_HOSTILE = st.sampled_from([*"ab1/.?#@:%=&;-", "%41", "%4", "%%", "%Ж", "p\u0430", "\u03bf", "\uff0f",
                            "\u2215", "\u200b", "\u200c", "\u200d", "\u094d", "\u0915", "東", "タ", "한",
                            "ｆ", "ﾃ", "\u00a0", "\u202e", "\ufe0f", "ש", "\u0628", "\u064b", "\u0627",
                            "\u00ad", "Д", "é", "\x00", "\U00010ec4", "\u0897"])
_RUNS = st.lists(st.tuples(_HOSTILE, st.sampled_from([1, 1, 1, 2, 3, 130])).map(lambda t: t[0] * t[1]),
                 max_size=20).map("".join)
_PREFIXES = st.sampled_from(["http://example.com/", "http://", "", "x:", "http://u:p@", "http://a\u200c",
                             "http://h:80/?q=", "http://[::1]/"])


def _same_as_reference(text: str) -> None:
    expected = _reference(text)
    bulk = security._BULK
    try:
        for security._BULK in (bulk, 0):  # components one by one, and all at once
            assert [(p.kind, p.span, p.component) for p in found(text)] == expected
    finally:
        security._BULK = bulk


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_PREFIXES, _RUNS)
def test_problems_are_those_of_the_per_character_loop(prefix: str, tail: str) -> None:
    _same_as_reference(prefix + tail)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(_PREFIXES, _RUNS)
def test_problems_are_those_of_the_per_character_loop_without_icu(prefix: str, tail: str) -> None:
    sys.modules["icu"] = None  # type: ignore[assignment]
    security._clear_caches()
    try:
        _same_as_reference(prefix + tail)
    finally:
        del sys.modules["icu"]
        security._clear_caches()


_JOINING = st.sampled_from(["\u200c", "\u200c", "\u200d", "\u0628", "\u064b", "\u064b", "\u0627", "\u094d",
                            "/", ".", "\x00", "\u200b", "\u0640", "\u0897", "\u088f", "\U00010ec2"])


@settings(max_examples=300)
@given(st.lists(st.tuples(_JOINING, st.sampled_from([1, 1, 1, 2, 126, 127, 128, 129])), max_size=12),
       st.lists(st.integers(0, 400), max_size=8))
def test_allowed_joiners_are_those_idna_allows(runs: list[tuple[str, int]], cuts: list[int]) -> None:
    # components anywhere, also next to joining characters (the parser puts them at delimiters)
    text = "".join(c * n for c, n in runs)
    table = ComponentTable(text)
    bounds = sorted({min(c, len(text)) for c in cuts})
    for s, e in zip(bounds[::2], bounds[1::2], strict=False):
        table.add("segment", s, e)
    blanked = joiners.joiners_blanked(text, table)
    assert len(blanked) == len(text)
    allowed = [i for i, c in enumerate(text) if c in "\u200c\u200d" and joiners.joiner_allowed(
        text, None if table.index(i) < 0 else table.component(table.index(i)), i)]
    assert [i for i, (a, b) in enumerate(zip(text, blanked, strict=True)) if a != b] == allowed


_B, _F = "\u0628", "\u064b"  # joining types D and T


@pytest.mark.parametrize(("text", "allowed"), [
    (_B + _F * 127 + "\u200c" + _B, True),  # idna sees 128 characters either side
    (_B + _F * 128 + "\u200c" + _B, False),
    (_B + "\u200c" + _F * 127 + _B, True),
    (_B + "\u200c" + _F * 128 + _B, False),
    (_B + "\u200c\u0627", True),  # before a right-joining letter
    ("\u0627\u200c" + _B, False),  # after one
    (_B + "\u200d" + _B, False),  # ZWJ only after a virama
    ("\u0915\u094d\u200d", True),
    ("\u0915\u094d\u200c", True),
    ("\u094d" + _F + "\u200d", False),
    ("\u088f\u200c" + _B, False),  # idna raises on a character without a name before a joiner
    ("\u088f" + _F + "\u200c" + _B, True),
    ("\u0897\u200c" + _B, False),
    (_B + "\u0897\u200c" + _B, False),
    (_B + "\u200b\u200c" + _B, True),  # ZERO WIDTH SPACE is transparent
    (_B + "a\u200c" + _B, False),
    ("\u200c" + _B, False),
])
def test_joiner_contexts(text: str, allowed: bool) -> None:
    for prefix in ("", "x/"):
        s = prefix + text
        pos = s.index("\u200c") if "\u200c" in s else s.index("\u200d")
        assert joiners.joiner_allowed(s, None, pos) == allowed
        bare = ComponentTable(s)  # no component: the whole text is the context
        one = ComponentTable(s)
        one.add("segment", len(prefix), len(s))
        for table in (bare, one):
            assert (joiners.joiners_blanked(s, table)[pos] != s[pos]) == allowed


@pytest.mark.parametrize(("start", "end"), [(1, 3), (0, 2), (1, 2), (0, 3)])
def test_joiner_context_ends_with_its_component(start: int, end: int) -> None:
    # idna is shown the joiner's component only (never the case at the parser's delimiters)
    text = _B + "\u200c" + _B
    table = ComponentTable(text)
    table.add("segment", start, end)
    allowed = joiners.joiner_allowed(text, table.component(0), 1)
    assert allowed == ((start, end) == (0, 3))
    assert (joiners.joiners_blanked(text, table)[1] != text[1]) == allowed


def test_joiners_with_an_older_idna(monkeypatch: pytest.MonkeyPatch) -> None:
    # idna before 3.7 scans past non-joining characters: then every joiner is asked about
    monkeypatch.setattr(joiners, "_idna_follows_rfc5892", lambda: False)
    for text in ("http://example.ir/\u0645\u06cc\u200c\u062e\u0648", "http://example.com/ab\u200cc",
                 "http://example.in/\u0915\u094d\u200d\u0937\u200d"):
        _same_as_reference(text)


@pytest.mark.parametrize(("tail", "mixed_at"), [
    ("Москва%4D", None),  # the hex digits of an escape are not Latin letters
    ("Москва%zz", None),  # nor are any two characters after "%"
    ("Москва%a", "a"),  # too short for an escape: a letter
    ("Москва%%Da", "a"),  # "%%D" is skipped, then "a" counts
    ("abc%жж", None),
    ("abc%ж", "ж"),
    ("abc%%%ж", "ж"),
])
def test_escapes_hide_two_characters_from_the_script_check(tail: str, mixed_at: str | None) -> None:
    text = "http://example.com/" + tail
    problems = [p for p in found(text) if p.kind == "mixed-script"]
    assert [p.span.start for p in problems] == ([] if mixed_at is None else [text.rindex(mixed_at)])
    _same_as_reference(text)


def _counting(monkeypatch: pytest.MonkeyPatch, *names: str) -> Counter[str]:
    calls: Counter[str] = Counter()

    def owner(name: str) -> ModuleType:
        return joiners if hasattr(joiners, name) else security

    def counter(name: str) -> Callable[..., object]:
        f = getattr(owner(name), name)

        def counted(*args: object) -> object:
            calls[name] += 1
            return f(*args)
        return counted

    for name in names:
        monkeypatch.setattr(owner(name), name, counter(name))
    return calls


@pytest.mark.parametrize("tail", [
    "é" * 100_000, "aа" * 50_000, "ａ" * 100_000, "\u200b" * 100_000, "\u200c" * 100_000,
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645/" * 10_000, "\u0915\u094d\u200d" * 30_000,
    "a\u200b" * 50_000, "Москва/" * 10_000 + "city", "\u2215" * 1000, "%D0%9C" * 10_000 + "Мa",
    "Москва%4D/" * 10_000, "Москва\uff41/" * 10_000, "Москва-city/" * 10_000, "Москва/city/" * 5000,
])
@pytest.mark.slow  # stress: hostile inputs
def test_work_per_distinct_character(monkeypatch: pytest.MonkeyPatch, tail: str) -> None:
    joiners._joining.cache_clear()  # joining types are asked for again
    calls = _counting(monkeypatch, "_kind", "_scx", "_contextj", "_mixed_script_problem")
    text = "http://example.com/" + tail
    problems = found(text)
    distinct = len(set(text))
    assert calls["_kind"] <= 2 * distinct  # the character pass, and the script pass
    # components are looked at one by one only when few, or when they mix scripts
    mixed = sum(p.kind == "mixed-script" for p in problems)
    assert calls["_mixed_script_problem"] <= security._BULK + mixed
    assert calls["_scx"] <= 2 * distinct + 2 * len(problems) * distinct  # a mixed component: twice
    assert calls["_contextj"] <= 5 * distinct  # idna's valid_contextj: the joining types of the characters


@pytest.mark.slow  # stress: hostile inputs
def test_hostile_results(icu_mode: str) -> None:
    text = "http://example.com/" + "a\u200b" * 50_000
    problems = found(text)
    assert [p.span for p in problems] == [Span(i, i + 1) for i in range(20, len(text), 2)]
    assert {p.kind for p in problems} == {"invisible"}
    text = "http://example.com/?q=" + "\u200c" * 100_000
    assert [(p.kind, p.span) for p in found(text)] == [("invisible", Span(22, len(text)))]
    assert found("http://example.ir/" + "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645/" * 10_000) == []
    assert found("http://example.in/" + "\u0915\u094d\u200d" * 30_000) == []
    text = "http://example.com/" + "aа" * 50_000
    assert [(p.kind, p.span) for p in found(text)] == [("mixed-script", Span(20, 21))]
    text = "http://example.com/" + "ａ" * 100_000
    ((kind, span, fix),) = [(p.kind, p.span, p.replacement) for p in found(text)]
    assert (kind, span, fix) == ("fullwidth", Span(19, len(text)), "a" * 100_000)
    text = "http://example.com/" + "Москва-city/" * 10_000
    assert [p.span.start for p in found(text)] == list(range(26, len(text), 12))
    assert found("http://" + "é." * 50_000 + "com/") == []
    problems = found("http://" + "p\u0430y." * 25_000 + "com/")
    assert [(p.kind, p.span) for p in problems] == [("confusable-host", Span(i, i + 3))
                                                    for i in range(7, 7 + 4 * 25_000, 4)]


def test_a_label_with_surrogates_is_no_look_alike() -> None:
    """Found by the fuzz profile: ICU's skeleton raised ICUError on a host label holding surrogates that make
    no pair, 'aa\\ud800\\ud800\\udc00' (each a code point of its own in a Python str), and the whole
    file's check with it. No character is there to look like another (IRI109 reports each)."""
    assert "confusable-host" not in {p.kind for p in found("//user@example.a.aa\ud800\ud800\udc00/x")}


@pytest.mark.parametrize("host", ["é." * 50_000, "p\u0430y." * 25_000, "".join(f"é{i}." for i in range(20_000))])
def test_labels_are_judged_once_per_distinct_label(monkeypatch: pytest.MonkeyPatch, host: str) -> None:
    calls = _counting(monkeypatch, "_confusable_verdict")
    found("http://" + host + "com/")
    assert calls["_confusable_verdict"] == len({label for label in host.split(".") if not label.isascii()})


@pytest.mark.parametrize("iri", ["http://user:pass@h/", "http://u:***@h/", "http://u:%3Cpassword%3E@h/",
                                 "http://u:${PASSWORD}@h/", "postgres://scott:tiger@h/db", "http://u:xxx@h/",
                                 "http://u:%(pw)s@h/", "http://username:password@h/", "http://u:<pw>@h/",
                                 "amqp://guest:$AMQP_PASSWORD@h/",
                                 # a placeholder word said to be the reader's (smart_open's URI_EXAMPLES)
                                 "s3://my_key:my_secret@my_bucket/my_key", "http://u:yourpassword@h/",
                                 "http://u:your-password@h/", "http://u:MyPassword@h/",
                                 # SQL Server's documented sample (feast's default, outside21)
                                 "mssql+pyodbc://sa:yourStrong(!)Password@localhost:1433/db"])
def test_a_placeholder_password_is_no_leak(iri: str) -> None:
    assert "userinfo-password" not in {p.kind for p in security_problems(scan(iri))}


@pytest.mark.parametrize("iri", ["http://admin:S3cr3t!@h/", "redis://:hunter2@h:6379/0",
                                 "postgresql://app:Zq8%21v@db.internal/prod", "http://u:mysecret2024@h/",
                                 "http://u:myrtle@h/", "http://u:yourturn2024@h/", "http://u:mySuperPassword@h/"])
def test_a_real_looking_password_is_reported(iri: str) -> None:
    assert "userinfo-password" in {p.kind for p in security_problems(scan(iri))}


@pytest.mark.parametrize("with_icu", [True, False])
@pytest.mark.parametrize(("label", "reads_as"), [("\u0430\u0440\u0440\u04cf\u0435", "app"),
                                                 ("\u0440\u0430\u0443\u0440\u0430\u04cf", "paypa"),
                                                 ("\u0441\u043e\u0441", "coc")])
def test_a_whole_script_confusable_label_is_a_spoof(label: str, reads_as: str, with_icu: bool) -> None:
    """UTS #39 sec. 4: an all-Cyrillic label that reads as a Latin word is as much a spoof as a mixed
    one; without ICU, Unicode's confusables data (confusable_homoglyphs) finds it."""
    if not with_icu:
        sys.modules["icu"] = None  # type: ignore[assignment]
        security._clear_caches()
    try:
        problems = security_problems(scan(f"http://{label}.com/"))
        assert [p.kind for p in problems] == ["confusable-host"]
        assert reads_as in said(f"http://{label}.com/")[0]
        assert security.is_spoof_label(label)
    finally:
        if not with_icu:
            del sys.modules["icu"]
            security._clear_caches()


def test_a_spoof_a_label_is_never_proposed_for_display() -> None:
    from iri_lint import check

    assert not check("http://xn--80ak6aa92e.com/", select=["IRI311"])  # reads as 'аррӏе'
    assert [f.code for f in check("http://xn--r8jz45g.jp/", select=["IRI311"])] == ["IRI311"]  # 例え
    assert not security.is_spoof_label("\u4f8b\u3048") and not security.is_spoof_label("b\u00fccher")


def test_the_ascii_lookalike_table_is_unicodes_confusables_data() -> None:
    """data/confusables.py holds what confusable_homoglyphs says of each character, without its 16 MiB
    of JSON at run time (scripts/gen_confusables.py)."""
    pytest.importorskip("confusable_homoglyphs")
    import importlib.util

    script = Path(__file__).resolve().parents[2] / "scripts" / "gen_confusables.py"
    spec = importlib.util.spec_from_file_location("gen_confusables", script)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    from iri_lint.data.confusables import ASCII_LOOKALIKE, DELIMITER_LOOKALIKE

    assert gen.ascii_lookalikes() == ASCII_LOOKALIKE
    assert gen.delimiter_lookalikes() == DELIMITER_LOOKALIKE


def test_the_delimiter_lookalike_table_agrees_with_icu() -> None:
    """Where ICU says a character reads as a delimiter, the data says the same delimiter or nothing (the data
    is an older subset), and it says nothing ICU does not."""
    pytest.importorskip("icu")
    from iri_lint.data.confusables import DELIMITER_LOOKALIKE

    for c, delim in DELIMITER_LOOKALIKE.items():
        assert security.delimiter_for(c) == delim, hex(ord(c))


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u1680", "\u3000"])
def test_a_separator_in_an_iri_is_whitespace_as_the_space_is(sep: str, icu_mode: str) -> None:
    """fixtures161 repro 02: U+2028/U+2029 (mandatory line breaks) and U+1680, which no normalization maps to the
    space, are whitespace (general categories Zl, Zp, Zs), reported as U+3000 is (3987bis sec. 6.3), with ICU's
    skeleton and without it; NEL, a C1 control, stays IRI104's."""
    assert [(f.code, f.start) for f in check(f"https://h.example/a{sep}b")] == [("IRI504", 19)]
    assert "IRI504" not in {f.code for f in check("https://h.example/a\x85b")}
