"""IRI502 confusable-host: Host label looks like an ASCII label."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...core.bidi import short_visible
from ...core.chars import char_label
from ..facts import Facts
from ..model import Edit, Example, Family, Needs, Raw, Rule, Severity
from .shared import problems

RULE = Rule(
    code="IRI502",
    name="confusable-host",
    family=Family.SECURITY,
    summary="Host label looks like an ASCII label",
    section="RFC 3987 sec. 8; UTS #39",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A non-ASCII host label that reads as an ASCII label it is not: every non-ASCII character has an "
          "ASCII look-alike (UTS #39 skeleton), whether mixed with Latin letters (`pаypal`), written wholly "
          "in another script (`аррӏе`), or a Latin letter that is not ASCII (`gıthub`, dotless `ı`; `ɡoogle`, "
          "script `ɡ`)."),
    why=("A host label whose characters are confusable with ASCII letters (Cyrillic `а` in `pаypal`) imitates "
         "another domain; so does a label written wholly in another script that reads as a Latin word "
         "(all-Cyrillic `аррӏе`, UTS #39 sec. 4 whole-script confusables). Judged with ICU's SpoofChecker when "
         "`iri-lint[icu]` is installed, else with Unicode's confusables data (`confusable-homoglyphs`). IRI311 "
         "never proposes showing such a label."),
    where=("the label's first non-ASCII character, the first look-alike (the `а` of `pаypal`); the fix writes the "
           "whole label"),
    fix_text="Use the real ASCII host.",
    valid=(Example("https://paypal.com/"), Example("https://пример.рф/")),
    invalid=(Example("https://pаypal.com/"), Example("https://аррӏе.com/"), Example("https://gıthub.com/")),
    needs=Needs.NON_ASCII,
)


def _first_non_ascii(text: str, n: int) -> list[str]:
    """The first ``n`` distinct non-ASCII characters of ``text``, in order; one search each."""
    found: list[str] = []
    pos = 0
    while len(found) < n:
        m = re.compile(f"[^\\x00-\\x7f{''.join(map(re.escape, found))}]").search(text, pos)
        if m is None:
            break
        found.append(m.group())
        pos = m.end()  # the next new character comes after this one's first occurrence
    return found


def _non_ascii(label: str) -> str:
    chars = _first_non_ascii(label, 4)
    return ", ".join(char_label(c) for c in chars[:3]) + (", ..." if len(chars) > 3 else "")


def check(facts: Facts) -> Iterator[Raw]:
    """Each host label that reads as an ASCII label it is not."""
    for p in problems(facts, "confusable-host"):
        label = facts.shown[p.span.start : p.span.end]  # (a hole as "…")
        message = (f"host label {short_visible(label)!r} looks like the ASCII {p.looks_like!r} but is not ASCII "
                   f"({_non_ascii(label)}); a spoof of another host (RFC 3987 sec. 8, UTS #39 sec. 4)")
        edits = None if p.replacement is None else (Edit(p.span.start, p.span.end, p.replacement),)
        text = facts.ref.text  # (holes as "0": ASCII)
        first = next((i for i in range(p.span.start, p.span.end) if text[i] >= "\x80"), p.span.start)
        yield Raw(first, p.span.end, message, edits)  # (at the first look-alike; the fix writes the whole label)
