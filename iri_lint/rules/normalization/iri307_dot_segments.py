"""IRI307 dot-segments: `.` or `..` segments in an absolute IRI's path."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, FixLevel, Raw, Rule, Severity, UseContext
from .shared import step_changes

RULE = Rule(
    code="IRI307",
    name="dot-segments",
    family=Family.NORMALIZATION,
    summary="`.` or `..` segments in an absolute IRI's path",
    section="RFC 3987 sec. 5.3.2.4; RFC 3986 sec. 5.2.4",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SYNTAX,
    what=("A `.` or `..` segment in the path of an IRI with a scheme and no syntax errors, rootless paths "
          "(`urn:a/../b`) included; relative references keep theirs. A percent-encoded dot is one too "
          "(`%2e%2e`: unreserved, decoded by syntax-based normalization, sec. 6.2.2.2). The fix removes them as "
          "resolution does (RFC 3986 sec. 5.2.4); a URL library may send the dots as they are."),
    why=("Dot-segments are meant for relative references; in an absolute IRI they are removed on resolution, "
         "so `/a/../b` and `/b` name the same resource. Rootless paths lose them too (`urn:a/../b` resolves to "
         "`urn:/b`, RFC 3986 sec. 5.2.2)."),
    where="the first character of the text that resolution removes (`b/../` in `/a/b/../c`, `./` in `/a/./c`)",
    fix_text="Remove the dot-segments.",
    valid=(Example("https://example.com/b"),),
    invalid=(
        Example("https://example.com/a/../b", "https://example.com/b", context=UseContext.DEREFERENCED),
        Example("tag:example.com,2024:a/./b", "tag:example.com,2024:a/b", context=UseContext.DEREFERENCED),
    ),
)

MESSAGE = "path has dot-segments; {old!r} resolves to {new!r} (RFC 3986 sec. 5.2.4)"


def check(facts: Facts) -> Iterator[Raw]:
    """The dot-segments of the path, removed as resolution does."""
    return step_changes(facts, "dot-segments", MESSAGE)
