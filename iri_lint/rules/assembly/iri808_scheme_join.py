"""IRI808 scheme-join: A URL with its own scheme joined after `scheme://`."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.schemes import WEB_SCHEMES
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import SCHEME_AND_SLASHES

RULE = Rule(
    code="IRI808",
    name="scheme-join",
    family=Family.ASSEMBLY,
    summary="A URL with its own scheme joined after `scheme://`",
    section="RFC 3986 sec. 3.1, 3.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A URL value assembled in code where a piece that starts with a scheme and `//` (`https://cdn.example`) "
          "is joined right after another scheme's `//`, where the authority begins: `\"https://\" + CDN`, "
          "`f\"https://{CDN}/img\"`, `SCHEME + \"://\" + CDN`, with `CDN` already a whole URL. Only known text "
          "of the joined piece counts (`\"https://\" + host` with `host` unknown is not reported), and only at the "
          "authority's start: a URL joined into a path or a query (`\"https://web.archive.org/web/\" + url`, "
          "`?next=` + url) is a nested URL, data of the outer one, and only after a web scheme (http, https, ws, wss, "
          "ftp) or one the code does not spell: another scheme before a whole URL wraps it (`\"pmtiles://\" + URL`, "
          "MapLibre's PMTiles protocol, which fetches the URL it wraps; outside70)."),
    why=("The authority runs from `//` to the next `/`, `?` or `#` (RFC 3986 sec. 3.2), and `:` separates the "
         "host from the port: `https://https://cdn.example/x` has the host `https`, an empty port and the path "
         "`//cdn.example/x`. Valid syntax, so nothing fails until the request goes to a host named `https` (or, "
         "with a search domain, to a machine of that name on the local network)."),
    where=("the first scheme, the one the outer piece spells before the `://` the joined URL then repeats (the "
           "`h` of `\"https://\" + CDN`); after a scheme that is a hole (`scheme + \"://\" + CDN`), the `://` "
           "the code spells"),
    fix_text=("Drop one of the two: join the host (`\"https://\" + HOST`, `HOST = \"cdn.example\"`) or use the "
              "whole URL (`CDN + \"/img\"`)."),
    valid=(
        Example('import requests\nHOST = "cdn.example.net"\nrequests.get("https://" + HOST + "/img/logo.png")\n',
                kind="python"),
        Example('import requests\nCDN = "https://cdn.example.net"\nrequests.get(CDN + "/img/logo.png")\n',
                kind="python"),
        Example('import requests\nPAGE = "https://example.org/a"\n'
                'requests.get("https://web.archive.org/web/" + PAGE)\n', kind="python"),
        Example('import requests\nTILES = "https://example.com/world.pmtiles"\n'
                'requests.post(STYLE_API, json={"source_url": "pmtiles://" + TILES})\n', kind="python"),
    ),
    invalid=(
        Example('import requests\nCDN = "https://cdn.example.net"\nrequests.get("https://" + CDN + "/img/logo.png")\n',
                kind="python"),
        Example('import requests\nCDN = "https://cdn.example.net"\nrequests.get(f"https://{CDN}/img/logo.png")\n',
                kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)



def check(facts: Facts) -> Iterator[Raw]:
    """A join at the authority's start whose known text starts with a scheme and '//' (sec. 3.1, 3.2)."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or ref.authority is None:
        return
    text, j = ref.text, ref.authority.start
    if j not in assembly.joins or j in assembly.unknown or not text.startswith("//", j - 2):
        return
    m = SCHEME_AND_SLASHES.match(text, j)
    if m is None or any(j <= h < m.end() for h in assembly.unknown):
        return
    head = j - 3 if text.startswith("://", j - 3) else j - 2
    first = ref.scheme.start if ref.scheme is not None and text[j - 3] == ":" else head
    if first < head and not any(first <= h < head for h in assembly.unknown) and \
            text[first:head].lower() not in WEB_SCHEMES:
        return  # (``"pmtiles://" + URL``: a scheme of its own that hands the URL it wraps on)
    start = head if any(first <= h < head for h in assembly.unknown) else first  # (a scheme that is a hole)
    host = "" if ref.host is None else facts.shown[ref.host.start : ref.host.end]
    later = [k for k in (*assembly.joins, *assembly.unknown) if k > j]
    end = min((k for k in (*later, *(text.find(c, m.end()) for c in "/?#")) if k >= m.end()), default=len(text))
    # (over the joined scheme too: the empty port its ':' makes, IRI309, follows from the join)
    yield Raw(start, m.end(), f"'{facts.shown[j:end]}' is joined after "
                        f"'{facts.shown[start:j]}', where the authority begins: the host becomes {host!r}, "
                        "and the joined URL is the path (RFC 3986 sec. 3.2)")
