"""IRI301 not-nfc: IRI is not in Unicode Normalization Form C."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import unicode_form

RULE = Rule(
    code="IRI301",
    name="not-nfc",
    family=Family.NORMALIZATION,
    summary="IRI is not in Unicode Normalization Form C",
    section="RFC 3987 sec. 5.3.2.2",
    severity=Severity.WARNING,
    default=True,
    fix_level=FixLevel.NONE,
    what=("Characters of a non-ASCII IRI that Unicode Normalization Form C changes, such as `e` followed by "
          "U+0301 COMBINING ACUTE ACCENT instead of `é`; one finding covers the characters that change, and "
          "the fix writes their NFC form."),
    why=("IRIs are compared character by character; equivalence MUST rely on IRIs being created in NFC (sec. "
         "5.3.2.2), so a decomposed `é` never matches the composed one."),
    where="the first character of the sequence that NFC changes (the base character before a combining mark)",
    fix_text="Convert to NFC.",
    valid=(Example("https://example.com/café"),),
    invalid=(Example("https://example.com/cafe\u0301", "https://example.com/café"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """The first characters NFC changes; the fix writes their NFC form."""
    return unicode_form(facts, "NFC", "RFC 3987 sec. 5.3.2.2")
