"""IRI303 uppercase-scheme: Scheme not in lowercase."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import whole_component

RULE = Rule(
    code="IRI303",
    name="uppercase-scheme",
    family=Family.NORMALIZATION,
    summary="Scheme not in lowercase",
    section="RFC 3987 sec. 5.3.2.1",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SYNTAX,
    what=("An uppercase ASCII letter in the scheme (`HTTPS:`) of an IRI without syntax errors; the fix "
          "lowercases the scheme."),
    why=("Schemes are case-insensitive and normalize to lowercase; an uppercase scheme makes simple string "
         "comparison fail."),
    fix_text="Lowercase the scheme.",
    valid=(Example("https://example.com/"),),
    invalid=(Example("HTTPS://example.com/", "https://example.com/", context=UseContext.DEREFERENCED),),
)

MESSAGE = "scheme {old!r} is not lowercase; the normal form is {new!r} (RFC 3987 sec. 5.3.2.1)"


def check(facts: Facts) -> Iterator[Raw]:
    """One finding for the scheme's uppercase letters, quoting the scheme."""
    return whole_component(facts, "case-scheme", "scheme", MESSAGE, ":")
