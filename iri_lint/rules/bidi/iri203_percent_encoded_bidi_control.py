"""IRI203 percent-encoded-bidi-control: Percent-encoded bidi control, e.g. `%E2%80%AE`."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.bidi import decoded_control
from ...core.chars import char_label
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import problems

RULE = Rule(
    code="IRI203",
    name="percent-encoded-bidi-control",
    family=Family.BIDI,
    summary="Percent-encoded bidi control, e.g. `%E2%80%AE`",
    section="RFC 3987 sec. 3.2, 4.1",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("The UTF-8 percent-encoding of a bidi control that IRI201 or IRI202 names (`%E2%80%AE` for RLO), in "
          "either case of hex digit, anywhere in the IRI; there is no fix, since it may be deliberate data."),
    why=("Encoded, the control is harmless in the URI, but every URI-to-IRI conversion must keep it encoded "
         "(sec. 3.2 step 3) and a careless decoder will reorder the display."),
    fix_text="Remove the encoded control unless it is deliberate test data.",
    valid=(Example("https://example.com/%E2%82%AC"),),
    invalid=(Example("https://example.com/%E2%80%AEabc"),),
    needs=Needs.PERCENT,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each percent-encoded bidi control; no fix, since it may be deliberate data."""
    text = facts.ref.text
    for p in problems(facts, "percent-encoded-control"):
        escape = text[p.span.start : p.span.end]
        yield Raw(p.span.start, p.span.end, f"{escape} is the percent-encoded bidi control "
                  f"{char_label(decoded_control(escape))}; it stays encoded in the IRI (RFC 3987 sec. 3.2, 4.1) "
                  "but reorders text wherever the URI is decoded; remove it unless it is data")
