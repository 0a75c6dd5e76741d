"""IRI114 misplaced-character: Character not allowed in this component."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Detail, Kind
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import KEY_REMEDY, Subject, in_object_key, report

RULE = Rule(
    code="IRI114",
    name="misplaced-character",
    family=Family.SYNTAX,
    summary="Character not allowed in this component",
    section="RFC 3987 sec. 2.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A character allowed in IRIs but not in the component where it stands: `[` or `]` outside an IP "
          "literal, an `@` in the userinfo (of two in the authority: the userinfo ends at the last one), a second "
          "`#`, anything but `:port` after an IP literal. A "
          "comma-separated host list (`h1:5432,h2:5432`) is one finding that says so, except under a scheme "
          "whose connection strings list hosts (`postgres`, `postgresql` and `mongodb`; django-environ's "
          "and django-cache-url's cache URLs, `memcached://h1:11211,h2:11211`; Redis Sentinel's "
          "`redis+sentinel://s1:26379,s2:26379/mymaster/1`), where each host of the list is checked as a host."),
    why=("Each component allows a set of characters; e.g. `[` only around an IP literal, `@` once before the "
         "host, `#` once before the fragment, `:` not in the first segment of a relative reference."),
    where=("the character itself; of two `@` in an authority, the first (the one a password holds, to encode as "
           "`%40`); of a host list, its first character"),
    fix_text="Percent-encode the character, or fix the structure of the IRI.",
    valid=(Example("https://example.com/a%5Bb%5D"), Example("postgresql://db1.example:5432,db2.example:5433/app")),
    invalid=(Example("https://example.com/a[b]"), Example("https://example.com/#a#b"),
             Example("https://h1.example:8080,h2.example:8080/")),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    detail = err.rec.detail
    if detail is Detail.FIRST_SEGMENT_COLON:
        return ("':' is not allowed in the first segment of a relative reference, which would read as a scheme "
                "(RFC 3986 sec. 4.2); write './' before it")
    if detail is Detail.HOST_LIST:
        return (f"{err.chars!r} is a comma-separated list of hosts (a multi-host connection string, as libpq and "
                "MongoDB read it), not one RFC 3986 host and port; generic URL parsers read it wrongly")
    if detail is Detail.AFTER_IP_LITERAL:
        return f"{err.label} after an IP literal: only ':' and a port may follow (RFC 3986 sec. 3.2)"
    if in_object_key(err.ref, err.rec):  # (a second '#' of "s3://b/issue#12#x": the key's own, no fragment's)
        return f"{err.label} is not allowed there in an IRI (RFC 3987 sec. 2.2); {KEY_REMEDY}"
    return f"{err.label} is not allowed in the {err.component} (RFC 3987 sec. 2.2); percent-encode it"


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of characters the component they stand in does not allow."""
    return report(facts, Kind.COMPONENT_CHAR, message)
