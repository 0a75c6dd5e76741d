"""IRI402 overlong-utf8: Overlong or invalid UTF-8 escape such as `%C0%AF`."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import octet_problems_of

RULE = Rule(
    code="IRI402",
    name="overlong-utf8",
    family=Family.MAPPING,
    summary="Overlong or invalid UTF-8 escape such as `%C0%AF`",
    section="RFC 3987 sec. 8",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A percent-encoded sequence shaped like UTF-8 that is overlong (`%C0%AF` for `/`), encodes a "
          "surrogate (`%ED%A0%80`) or a code point above U+10FFFF, in either case of hex digit; one finding "
          "per sequence."),
    why=("Overlong UTF-8 (`%C0%AF` for `/`) and encoded surrogates are a classic way to smuggle delimiters "
         "past filters (sec. 8); they are never legitimate."),
    fix_text="Use the character itself or its shortest UTF-8 encoding.",
    valid=(Example("https://example.com/a%2Fb"),),
    invalid=(Example("https://example.com/%C0%AFetc"),),
    needs=Needs.PERCENT,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each overlong or invalid escaped UTF-8 sequence."""
    text = facts.ref.text
    for s, e, _ in octet_problems_of(facts, "overlong"):
        yield Raw(s, e, f"{text[s:e]} is overlong or invalid UTF-8 (encodes a surrogate, a code point above "
                  "U+10FFFF, or a character in too many octets); such escapes smuggle delimiters past filters "
                  "(RFC 3987 sec. 8)")
