"""IRI204 bidi-mixed-direction: Component mixes right-to-left and left-to-right characters."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.bidi import short_visible
from ...core.chars import char_label
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity, UseContext
from .shared import displayed, encoding_fix, problems

RULE = Rule(
    code="IRI204",
    name="bidi-mixed-direction",
    family=Family.BIDI,
    summary="Component mixes right-to-left and left-to-right characters",
    section="RFC 3987 sec. 4.2",
    severity=Severity.WARNING,
    default=True,
    fix_level=FixLevel.URI,
    what=("A component (userinfo, host label, path segment, file extension, query name or value, fragment) "
          "holding both right-to-left (bidi class R or AL) and left-to-right (L) characters; the fix "
          "percent-encodes the whole component."),
    why=("A component SHOULD NOT use both right-to-left and left-to-right characters: the display then depends "
         "on the bidi algorithm's details and can be read in the wrong order."),
    where="the first character of the component that mixes directions",
    fix_text=("Split the component, or percent-encode the whole component (4.2 last paragraph), which keeps "
              "the URI; in a host no fix is offered (a resolver reads no percent-encoded name: write the host in "
              "its IDNA form, RFC 3986 sec. 3.2.2)."),
    valid=(Example("http://example.com/\u05d0\u05d1\u05d2/abc"),),
    invalid=(
        Example("http://example.com/ab\u05d0\u05d1",
                "http://example.com/ab%D7%90%D7%91", context=UseContext.DEREFERENCED),
    ),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each component mixing directions; the fix percent-encodes all of it (sec. 4.2)."""
    ref = facts.ref
    text = ref.text
    for p in problems(facts, "mixed-direction"):
        comp = facts.shown[p.component.start : p.component.end]  # (a hole as "…", not the "0" checked)
        edits, advice = encoding_fix(facts, p)
        yield Raw(p.span.start, p.span.end,
                  f"{p.part} {short_visible(comp)!r} mixes right-to-left ({char_label(text[p.rtl])}) and "
                  f"left-to-right ({char_label(text[p.ltr])}) characters (RFC 3987 sec. 4.2 rule 1); "
                  f"displayed as {displayed(facts, p)!r}; {advice}", edits)
