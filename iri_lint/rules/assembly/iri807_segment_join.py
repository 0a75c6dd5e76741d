"""IRI807 segment-join: A word joined to a path segment without a `/` merges two segments."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI807",
    name="segment-join",
    family=Family.ASSEMBLY,
    summary="A word joined to a path segment without a `/` merges two segments",
    section="RFC 3986 sec. 3.3",
    severity=Severity.WARNING,
    default=False,
    fix_level=None,
    what=("A URL value assembled in code in which a piece starting with a letter is joined right after a path "
          "whose last segment is a whole word of one piece, without a `/` between them (`API + \"charges\"`, where "
          "`API` is `\"https://pay.example/v1\"`: the path becomes `/v1charges`). Only where the text before the "
          "join spells that whole segment, from its `/`, and ends with a letter or digit, and the joined text "
          "is known and starts with two letters, and the segment holds no `.` (a file name's extension goes on: "
          "`\"/data.json\" + \"l\"`): a segment built from parts on purpose (`\"/img_\" + size`, "
          "`\"/v\" + \"2\"`, `\"/report\" + \".csv\"`, `\"/item-\" + slug`) is not reported. "
          "Opt-in: a hint, not a proof, since a segment may be spelled in parts on purpose (`\"/user\" + \"name\"`)."),
    why=("A path's segments are separated by `/` (RFC 3986 sec. 3.3): without one, the joined word is not a "
         "segment of its own but the end of the last one, and the request goes to another resource (`/v1charges` "
         "for `/v1/charges`), usually a 404."),
    where="the first character of the joined piece, which goes on with the last segment",
    fix_text="Join with a `/` (`API + \"/charges\"`), or end the base with one and resolve with `urljoin`.",
    valid=(
        Example('import requests\nAPI = "https://pay.example/v1"\nrequests.get(API + "/charges")\n', kind="python"),
        Example('import requests\nCDN = "https://cdn.example/img_"\nrequests.get(CDN + "large.png")\n',
                kind="python"),
    ),
    invalid=(
        Example('import requests\nAPI = "https://pay.example/v1"\nrequests.get(API + "charges")\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """A join inside the path after a whole segment of one piece, before a known word."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None:
        return
    text, path = ref.text, ref.path
    unknown = assembly.unknown
    joins = assembly.joins
    for k, j in enumerate(joins):
        if not (path.start < j < path.end) or j in unknown or not text[j].isalpha() or \
                not text[j - 1].isalnum() or not text[j - 1].isascii():
            continue
        if j + 1 >= len(text) or not text[j + 1].isalpha() or j + 1 in joins:
            continue  # one letter ("/page" + "s", "circle.svg" + "z"): a suffix, no word
        slash = text.rfind("/", path.start, j)
        if slash < 0 or (k and joins[k - 1] > slash) or any(slash < h < j for h in unknown):
            continue  # no '/' before it in the path, or the segment is built from parts
        if "." in text[slash:j]:
            continue  # a file name goes on with its extension ("report.csv" + "gz")
        yield Raw(j, j + 1, f"'{text[j]}' is joined to the path without a '/': the segment becomes "
                            f"'{facts.shown[slash + 1 : _segment_end(text, j, path.end)]}'")


def _segment_end(text: str, j: int, end: int) -> int:
    """Where the segment that the join continues ends: at the next '/', or the path's end."""
    nxt = text.find("/", j, end)
    return end if nxt < 0 else nxt
