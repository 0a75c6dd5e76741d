"""IRI312 host-not-idna-mapped: Non-ASCII host label not in its IDNA-mapped form."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI312",
    name="host-not-idna-mapped",
    family=Family.NORMALIZATION,
    summary="Non-ASCII host label not in its IDNA-mapped form",
    section="RFC 3987 sec. 5.3.3; UTS #46",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SCHEME,
    what=("A non-ASCII label of a DNS host that UTS #46 mapping changes (uppercase or full-width letters), or "
          "an ideographic full stop used as the label separator; the fix writes the mapped form."),
    why=("Internationalized host labels are compared after UTS #46 mapping (case folding, width mapping); the "
         "unmapped form is a different string for the same host."),
    fix_text="Use the mapped label.",
    valid=(Example("https://bücher.example/"),),
    invalid=(Example("https://BÜCHER.example/", "https://bücher.example/", context=UseContext.DEREFERENCED),),
)

MESSAGE = "host label {old!r} is not in its IDNA-mapped form {new!r} (RFC 3987 sec. 5.3.3, UTS #46)"


def keep(old: str, new: str) -> bool:
    """A label other than an ACE one (IRI311's)."""
    return old[:4].lower() != "xn--"


def check(facts: Facts) -> Iterator[Raw]:
    """Each non-ASCII host label that UTS #46 mapping changes."""
    return step_changes(facts, "idn-host", MESSAGE, keep, at_first_change=True)
