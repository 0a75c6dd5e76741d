"""IRI201 bidi-formatting-character: Bidi formatting character (LRM, RLM, LRE, RLE, PDF, LRO, RLO)."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.chars import char_label
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import problems

RULE = Rule(
    code="IRI201",
    name="bidi-formatting-character",
    family=Family.BIDI,
    summary="Bidi formatting character (LRM, RLM, LRE, RLE, PDF, LRO, RLO)",
    section="RFC 3987 sec. 4.1",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("One of the bidi formatting characters LRM, RLM (U+200E, U+200F), LRE, RLE, PDF, LRO or RLO "
          "(U+202A-202E) anywhere in the IRI; the fix removes it."),
    why=("IRIs MUST NOT contain bidirectional formatting characters: they change the displayed order, so the "
         "IRI a reader sees is not the IRI the program uses, and the visual form cannot be converted back to "
         "the logical one."),
    fix_text="Remove the formatting character.",
    valid=(Example("https://example.com/\u05d0\u05d1\u05d2"),),
    invalid=(Example("https://example.com/\u202eabc", "https://example.com/abc"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each bidi formatting character, removed by the fix."""
    text = facts.ref.text
    for p in problems(facts, "formatting-char"):
        c = text[p.span.start]
        yield Raw(p.span.start, p.span.end, f"{char_label(c)} is a bidi formatting character, which IRIs "
                  "MUST NOT contain (RFC 3987 sec. 4.1); remove it", (Edit(p.span.start, p.span.end, ""),))
