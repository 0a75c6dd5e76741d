"""IRI311 ace-label: Punycode (`xn--`) label that reads better as Unicode."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.security import is_spoof_label
from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI311",
    name="ace-label",
    family=Family.NORMALIZATION,
    summary="Punycode (`xn--`) label that reads better as Unicode",
    section="RFC 3987 sec. 5.3.3; 3987bis sec. 3.7",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SCHEME,
    what=("An `xn--` (Punycode) label of a DNS host (http, https, ftp and the other schemes iri-lint knows) "
          "that decodes to a valid IDN label, unless that label would be a confusable spoof (IRI502), or the "
          "value goes to an API that resolves names with Python's IDNA2003 codec (`urlopen`, `http.client`), "
          "which reads some Unicode labels as another name (`faß` as `fass`, where IDNA2008 keeps "
          "`xn--fa-hia`); the fix writes the label in Unicode."),
    why="An IDN label and its ACE form are equivalent; for legibility the IRI can show Unicode.",
    fix_text="Write the label in Unicode.",
    valid=(Example("https://bücher.example/"),),
    invalid=(Example("https://xn--bcher-kva.example/", "https://bücher.example/", context=UseContext.DEREFERENCED),),
)

MESSAGE = "ACE label {old!r} reads as {new!r}; IRIs can show it in Unicode (RFC 3987 sec. 5.3.3)"


def keep(old: str, new: str) -> bool:
    """An ACE label, unless its Unicode form is a spoof: the A-label is the safe form (IRI502)."""
    return old[:4].lower() == "xn--" and not any(is_spoof_label(label) for label in new.split("."))


def check(facts: Facts) -> Iterator[Raw]:
    """Each `xn--` label that reads as Unicode, unless that would show a spoof."""
    return step_changes(facts, "idn-host", MESSAGE, keep)
