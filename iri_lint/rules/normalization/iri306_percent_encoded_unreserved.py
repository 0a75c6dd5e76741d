"""IRI306 percent-encoded-unreserved: Percent-encoded unreserved character."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI306",
    name="percent-encoded-unreserved",
    family=Family.NORMALIZATION,
    summary="Percent-encoded unreserved character",
    section="RFC 3987 sec. 5.3.2.3",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SYNTAX,
    what=("A percent-encoded unreserved character (an ASCII letter or digit, `-`, `.`, `_` or `~`, as in `%41` "
          "for `A`) in an IRI with a scheme and no syntax errors; the fix decodes it."),
    why=("Unreserved characters (`A-Z a-z 0-9 - . _ ~`) should not be percent-encoded; `%41` and `A` are "
         "equivalent and the normal form is the character."),
    fix_text="Decode the percent-encoding.",
    valid=(Example("https://example.com/A"),),
    invalid=(Example("https://example.com/%41", "https://example.com/A", context=UseContext.DEREFERENCED),),
)

MESSAGE = "{old!r} percent-encodes unreserved characters; write {new!r} (RFC 3987 sec. 5.3.2.3)"


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of percent-encoded unreserved characters."""
    return step_changes(facts, "percent-unreserved", MESSAGE)
