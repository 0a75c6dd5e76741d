"""IRI202 bidi-isolate-character: Bidi isolate or Arabic letter mark (LRI, RLI, FSI, PDI, ALM)."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.chars import char_label
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import problems

RULE = Rule(
    code="IRI202",
    name="bidi-isolate-character",
    family=Family.BIDI,
    summary="Bidi isolate or Arabic letter mark (LRI, RLI, FSI, PDI, ALM)",
    section="RFC 3987 sec. 4.1",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("One of the bidi isolates LRI, RLI, FSI, PDI (U+2066-2069) or U+061C ARABIC LETTER MARK anywhere in "
          "the IRI; the fix removes it."),
    why=("The isolates and ALM were added to Unicode after RFC 3987 and reorder text just like the characters "
         "sec. 4.1 forbids (the 'Trojan Source' attack)."),
    fix_text="Remove the isolate character.",
    valid=(Example("https://example.com/abc"),),
    invalid=(Example("https://example.com/\u2067abc\u2069", "https://example.com/abc"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each bidi isolate or ALM, removed by the fix."""
    text = facts.ref.text
    for p in problems(facts, "isolate-char"):
        c = text[p.span.start]
        yield Raw(p.span.start, p.span.end, f"{char_label(c)} reorders the display like the bidi formatting "
                  "characters IRIs MUST NOT contain (RFC 3987 sec. 4.1, Trojan Source); remove it",
                  (Edit(p.span.start, p.span.end, ""),))
