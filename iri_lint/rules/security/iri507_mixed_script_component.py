"""IRI507 mixed-script-component: Path, query or fragment component mixes scripts."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import mixed_script

RULE = Rule(
    code="IRI507",
    name="mixed-script-component",
    family=Family.SECURITY,
    summary="Path, query or fragment component mixes scripts",
    section="RFC 3987 sec. 8; UTS #39",
    severity=Severity.INFO,
    default=False,
    fix_level=None,
    what=("The IRI501 test outside the host: a user name, password, path segment, file extension, query name "
          "or value, or fragment whose letters do not resolve to one script (`pаypal` in a path)."),
    why=("Outside the host, mixed scripts are rarely an attack and common in real links (a Latin word in a "
         "Cyrillic article title), but can still hide a look-alike. Opt-in."),
    fix_text="Use characters of one script per component.",
    valid=(Example("https://example.com/日本ご"),),
    invalid=(Example("https://example.com/pаypal"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each component outside the host mixing scripts."""
    return mixed_script(facts, in_host=False, key="mixed-script")
