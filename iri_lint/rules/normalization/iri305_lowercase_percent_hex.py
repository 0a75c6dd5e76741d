"""IRI305 lowercase-percent-hex: Percent-encoding with lowercase hex digits."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI305",
    name="lowercase-percent-hex",
    family=Family.NORMALIZATION,
    summary="Percent-encoding with lowercase hex digits",
    section="RFC 3987 sec. 5.3.2.1",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SYNTAX,
    what=("A percent-encoding with a lowercase hex digit (`%2f`, `%c3%a9`) anywhere in an IRI with a scheme "
          "and no syntax errors; the fix uppercases the digits."),
    why="`%2f` and `%2F` are equivalent; the normal form uses uppercase hex digits.",
    fix_text="Uppercase the hex digits.",
    valid=(Example("https://example.com/a%2Fb"),),
    invalid=(Example("https://example.com/a%2fb", "https://example.com/a%2Fb", context=UseContext.DEREFERENCED),),
)

MESSAGE = "percent-encoding {old!r} has lowercase hex digits; write {new!r} (RFC 3987 sec. 5.3.2.1)"


def check(facts: Facts) -> Iterator[Raw]:
    """Each percent-encoding with lowercase hex digits."""
    return step_changes(facts, "percent-hex-case", MESSAGE)
