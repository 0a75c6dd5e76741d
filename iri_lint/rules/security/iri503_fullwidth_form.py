"""IRI503 fullwidth-form: Full-width or half-width form."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.bidi import short_visible
from ...core.chars import char_label
from ...core.security import in_east_asian_text
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import problems

RULE = Rule(
    code="IRI503",
    name="fullwidth-form",
    family=Family.SECURITY,
    summary="Full-width or half-width form",
    section="RFC 3987 sec. 6.1",
    severity=Severity.WARNING,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A full-width or half-width form (a character whose compatibility decomposition is `<wide>` or "
          "`<narrow>`, such as U+FF41) anywhere in the IRI, unless it looks like a delimiter (IRI504); a run "
          "is one finding, and the fix writes the ordinary characters. Not punctuation or a symbol in East Asian "
          "text (beside a Han, kana, Hangul or Bopomofo character and no ASCII letter or digit: `進め！むじな`), "
          "where it is the writing system's own form, which its readers expect, and the resource's name."),
    why=("Full-width and half-width forms look like ordinary characters but are different code points; sec. "
         "6.1 and UTS #46 map them to their ordinary forms."),
    fix_text="Use the ordinary (NFKC) character.",
    valid=(Example("https://example.com/abc"), Example("https://example.com/進め！むじな.mp3")),
    invalid=(Example("https://example.com/ａbc", "https://example.com/abc"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of full-width or half-width forms; the fix writes their NFKC form."""
    text = facts.ref.text
    for p in problems(facts, "fullwidth"):
        if in_east_asian_text(text, p.span.start, p.span.end):
            continue  # (Japanese and Chinese text's own punctuation: "進め！むじな")
        chars, nfkc = text[p.span.start : p.span.end], p.replacement or ""
        yield Raw(p.span.start, p.span.end,
                  f"{short_visible(chars)!r} is written in full-width or half-width forms "
                  f"({char_label(chars[0])}{', ...' if len(chars) > 1 else ''}), easily mistaken "
                  f"for {nfkc!r} (RFC 3987 sec. 6.1 b, 7.5); write {nfkc!r}", (Edit(p.span.start, p.span.end, nfkc),))
