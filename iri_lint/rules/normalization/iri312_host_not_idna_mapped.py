"""IRI312 host-not-idna-mapped: Non-ASCII host label not in its IDNA-mapped form."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import shared_prefix, step_changes

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


def message(old: str, new: str) -> str:
    """MESSAGE, with the code points spelled out where the two forms look alike (only NFC differs)."""
    said = MESSAGE.format(old=old, new=new)
    if unicodedata.normalize("NFC", old) != new:
        return said
    head = shared_prefix(old, new)
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return f"{said}: it is not in NFC ({_code_points(old[head:len(old) - tail])} is " \
           f"{_code_points(new[head:len(new) - tail])})"


def _code_points(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text)


def keep(old: str, new: str) -> bool:
    """A label other than an ACE one (IRI311's)."""
    return old[:4].lower() != "xn--"


def check(facts: Facts) -> Iterator[Raw]:
    """Each non-ASCII host label that UTS #46 mapping changes."""
    return step_changes(facts, "idn-host", message, keep, at_first_change=True)
