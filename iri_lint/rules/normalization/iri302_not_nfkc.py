"""IRI302 not-nfkc: Compatibility character (changes under NFKC), e.g. U+FB01."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import unicode_form

RULE = Rule(
    code="IRI302",
    name="not-nfkc",
    family=Family.NORMALIZATION,
    summary="Compatibility character (changes under NFKC), e.g. U+FB01",
    section="RFC 3987 sec. 7.5",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.NONE,
    what=("Characters of a non-ASCII IRI that NFKC changes: compatibility characters such as the ligature "
          "U+FB01 or superscript digits; one finding covers the characters that change, and the fix writes "
          "their NFKC form."),
    why=("Sec. 7.5 recommends creating IRIs in NFKC where possible: compatibility characters such as the "
         "ligature U+FB01 look like plain letters but are different identifiers."),
    fix_text="Replace with the NFKC form.",
    valid=(Example("https://example.com/file"),),
    invalid=(Example("https://example.com/ﬁle", "https://example.com/file"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """The first characters NFKC changes; the fix writes their NFKC form."""
    return unicode_form(facts, "NFKC", "RFC 3987 sec. 7.5")
