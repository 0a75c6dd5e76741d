"""IRI205 bidi-rtl-edge: Right-to-left component does not start and end with a right-to-left character."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.bidi import short_visible
from ...core.chars import char_label, is_digits
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity, UseContext
from .shared import displayed, encoding_fix, problems

RULE = Rule(
    code="IRI205",
    name="bidi-rtl-edge",
    family=Family.BIDI,
    summary="Right-to-left component does not start and end with a right-to-left character",
    section="RFC 3987 sec. 4.2, 4.4 examples 8-9",
    severity=Severity.WARNING,
    default=True,
    fix_level=FixLevel.URI,
    what=("A component with right-to-left characters and no left-to-right ones that starts or ends with "
          "something else, such as digits, a percent-escape or punctuation (the path segment `\u05d0\u05d11`); "
          "the fix percent-encodes the whole component."),
    why=("A component with right-to-left characters SHOULD start and end with one; digits or percent-escapes "
         "at its edge are displayed on the wrong side."),
    where=("the character on the component's edge that is not right-to-left; for a run of digits or neutrals "
           "there, the run's first character (the `2` of `דוח-2024`)"),
    fix_text=("Percent-encode the whole component, which keeps the URI (4.2); in a host no fix is offered (a "
              "resolver reads no percent-encoded name: write the host in its IDNA form, RFC 3986 sec. 3.2.2)."),
    valid=(Example("http://\u05d0\u05d1\u05d2.example/"),),
    invalid=(
        Example("http://example.com/\u05d0\u05d11",
                "http://example.com/%D7%90%D7%911", context=UseContext.DEREFERENCED),
    ),
    needs=Needs.NON_ASCII,
)


def _what(edge: str) -> str:
    if edge.startswith("%"):
        return f"the percent-escape {edge}"
    if is_digits(edge):
        return f"the digits {edge}"
    return char_label(edge[0])


def check(facts: Facts) -> Iterator[Raw]:
    """Each edge of an rtl component that is not rtl; the fix percent-encodes the component (sec. 4.2)."""
    ref = facts.ref
    text = ref.text
    for p in problems(facts, "rtl-edge"):
        comp = facts.shown[p.component.start : p.component.end]  # (a hole as "…", not the "0" checked)
        side = "ends" if p.at_end else "starts"
        edits, advice = encoding_fix(facts, p)
        yield Raw(p.span.start, p.span.end,
                  f"right-to-left {p.part} {short_visible(comp)!r} {side} with "
                  f"{_what(text[p.span.start : p.span.end])}, not a right-to-left character "
                  f"(RFC 3987 sec. 4.2 rule 2, Examples 8-9); displayed as {displayed(facts, p)!r}; {advice}", edits)
