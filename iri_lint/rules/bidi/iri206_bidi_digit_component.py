"""IRI206 bidi-digit-component: All-digit component next to right-to-left ones."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import displayed, problems

RULE = Rule(
    code="IRI206",
    name="bidi-digit-component",
    family=Family.BIDI,
    summary="All-digit component next to right-to-left ones",
    section="RFC 3987 sec. 4.4 example 10",
    severity=Severity.INFO,
    default=False,
    fix_level=None,
    what=("An all-digit component (host label, path segment, query value, or an all-digit port) whose nearest "
          "strong character before it is right-to-left, so that it is displayed out of place "
          "(`\u05d0\u05d1\u05d2.123.\u05d3\u05d4\u05d5`)."),
    why=("An all-digit component between right-to-left components is displayed in an order that readers may "
         "not expect (sec. 4.4 example 10). Advisory."),
    where="the first digit of the all-digit component",
    fix_text="Consider another structure for the IRI.",
    valid=(Example("http://example.com/abc/123/def"),),
    invalid=(Example("http://\u05d0\u05d1\u05d2.123.\u05d3\u05d4\u05d5/"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each all-digit component displayed out of place after right-to-left text."""
    text = facts.ref.text
    for p in problems(facts, "digit-component"):
        yield Raw(p.span.start, p.span.end,
                  f"the all-digit component {text[p.span.start : p.span.end]!r} after right-to-left text is "
                  f"displayed out of place (RFC 3987 sec. 4.4 Example 10); displayed as {displayed(facts, p)!r}")
