"""IRI505 invisible-character: Invisible or default-ignorable character."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.chars import char_label
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import problems

RULE = Rule(
    code="IRI505",
    name="invisible-character",
    family=Family.SECURITY,
    summary="Invisible or default-ignorable character",
    section="3987bis sec. 9; UTS #39",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A default-ignorable (invisible) character anywhere in the IRI, such as U+200B ZERO WIDTH SPACE, "
          "U+00AD SOFT HYPHEN, U+2060 WORD JOINER or a variation selector, and ZWJ or ZWNJ outside the "
          "contexts IDNA allows; bidi controls are IRI201's and IRI202's, and the characters of U+E0000-E0FFF "
          "(tags, variation selectors 17-256) IRI107's, which knows where a profile allows them. "
          "The fix removes it."),
    why=("Default-ignorable characters (U+200B, U+00AD, U+2060, variation selectors, ZWJ outside IDNA's "
         "allowed contexts) are invisible, so two IRIs that look the same differ."),
    fix_text="Remove the invisible character.",
    valid=(Example("https://example.com/ab"),),
    invalid=(Example("https://example.com/a\u200bb", "https://example.com/ab"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of invisible characters, removed by the fix."""
    text = facts.ref.text
    for p in problems(facts, "invisible"):
        head = text[p.span.start : p.span.end][:4]  # three are named, then "..."
        labels = ", ".join(char_label(c) for c in head[:3]) + (", ..." if len(head) > 3 else "")
        yield Raw(p.span.start, p.span.end,
                  f"invisible {labels}: a default-ignorable character that readers cannot see "
                  "(RFC 3987 sec. 6.1 b, 3987bis sec. 9, UTS #39 sec. 3.1); remove it",
                  (Edit(p.span.start, p.span.end, ""),))
