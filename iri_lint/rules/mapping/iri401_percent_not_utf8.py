"""IRI401 percent-not-utf8: Percent-encoded octets that are not UTF-8."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import octet_problems_of

RULE = Rule(
    code="IRI401",
    name="percent-not-utf8",
    family=Family.MAPPING,
    summary="Percent-encoded octets that are not UTF-8",
    section="RFC 3987 sec. 3.2, 6.4",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("Each percent-encoded octet from `%80` up that is not part of a well-formed UTF-8 sequence (a "
          "Latin-1 `%E9`). In source it is reported by default only where the literal is used as an IRI (it "
          "holds non-ASCII text, or an IRI-consuming API such as an rdflib namespace takes it), elsewhere only "
          "when IRI401 is selected by name."),
    why=("Octets that do not decode as UTF-8 (e.g. Latin-1 `%E9`) have no IRI form (sec. 6.4): the IRI cannot "
         "be displayed, and servers disagree on what it names. In source, reported by default where the "
         "literal is used as an IRI (it holds non-ASCII text, or names an identifier such as an rdflib "
         "namespace); an ASCII URL with `%E9` is a valid URI, so there it is reported only when IRI401 is "
         "selected by name."),
    fix_text="Percent-encode the UTF-8 bytes of the intended character (`%C3%A9` for `é`).",
    # (an IRI with non-ASCII text: an ASCII one is a URI, reported only when IRI401 is selected by name)
    valid=(Example("https://example.com/menü/caf%C3%A9"),),
    invalid=(Example("https://example.com/menü/caf%E9"),),
    needs=Needs.PERCENT,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each escaped octet that no well-formed UTF-8 sequence takes."""
    text = facts.ref.text
    for s, e, _ in octet_problems_of(facts, "not-utf8"):
        yield Raw(s, e, f"{text[s:e]} is not UTF-8, so this IRI has no IRI form (RFC 3987 sec. 6.4); "
                  "percent-encode the UTF-8 octets of the intended character instead (e.g. %C3%A9 for U+00E9)")
