"""IRI501 mixed-script-host: Host label mixes scripts."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import MIXED_IN_HOST, Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import mixed_script

RULE = Rule(
    code="IRI501",
    name="mixed-script-host",
    family=Family.SECURITY,
    summary="Host label mixes scripts",
    section="RFC 3987 sec. 8; UTS #39",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("A host label whose letters do not resolve to one script (UTS #39 sec. 5.1), outside the "
          "combinations with Latin that Japanese, Chinese and Korean use (`аβc`: Cyrillic and Greek). A label "
          "that reads as an ASCII one is IRI502's instead."),
    why=("Characters from several scripts in one host label (outside the combinations UTS #39 allows for "
         "Japanese, Chinese and Korean) are the classic sign of a spoofed domain name."),
    where="the first character of the component, or of the label, in the script that mixes with the first one's",
    fix_text="Use characters of one script per label.",
    valid=(Example("https://日本ご.example/"), Example("https://example.com/pаypal")),
    invalid=(Example("https://аβc.example/"),),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each host label mixing scripts (not one that reads as ASCII: IRI502's)."""
    return mixed_script(facts, in_host=True, key=MIXED_IN_HOST)
