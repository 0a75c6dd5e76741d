"""IRI812 client-base-slash: An aiohttp client's `base_url` has a path that does not end with `/`."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI812",
    name="client-base-slash",
    family=Family.ASSEMBLY,
    summary="An aiohttp client's `base_url` has a path that does not end with `/`",
    section="RFC 3986 sec. 5.2.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("The `base_url` of an `aiohttp.ClientSession` (by keyword or first argument) has a path that does not "
          "end with `/`: `aiohttp.ClientSession(base_url=\"https://api.example/v2\")`, or a base assembled from "
          "a constant, `CDN + \"/audio\"`. aiohttp refuses it when the session is made: "
          "`ValueError: base_url must have a trailing '/'` (aiohttp 3.14, `ClientSession.__init__`; releases "
          "before 3.10 took no path at all). Only where the base's scheme, authority and the path's last "
          "character are known text: a base that ends with a hole (`f\"{API}/{version}\"`) or whose path is "
          "empty (`\"https://api.example\"`, which yarl reads as `/`) is not reported. Also where a project class "
          "makes the session and hands `base_url` on as it is (`class ApiSession(aiohttp.ClientSession)` with "
          "`def __init__(self, base_url, **kw): super().__init__(base_url=base_url, **kw)`): at "
          "`ApiSession(base_url=...)`, at a subclass's `super().__init__(base_url=...)`, at the call of a class "
          "below the session without an `__init__` (`ChatSession(\"https://chat.example/api/v4\")`), and at the "
          "`__init__`'s `base_url` default, the base of every call that gives none. The requests made "
          "through such a session are no IRI804 (none is ever resolved against it) where the base reaches "
          "`aiohttp.ClientSession` in their module or is spelled there; where both are another module's (a "
          "subclass's `super().__init__` elsewhere), the request's IRI804 says that aiohttp refuses the base."),
    why=("A relative request is resolved against the base as RFC 3986 sec. 5.2.3 merges paths: the base's last "
         "segment after its last `/` is replaced (`v2` + `items` is `/items`, not `/v2/items`). aiohttp "
         "refuses such a base rather than drop the segment silently, so the code fails where the session is "
         "made, at run time only, often in a path that tests do not take."),
    where="the last character of the base's path",
    fix_text=("End the base's path with `/` (`base_url=\"https://api.example/v2/\"`) and give the requests "
              "relative paths without a leading `/` (`session.get(\"items\")`), which keeps `v2`."),
    valid=(
        Example('import aiohttp\nsession = aiohttp.ClientSession("https://api.example/v2/")\n', kind="python"),
        Example('import aiohttp\nsession = aiohttp.ClientSession("https://api.example")\n', kind="python"),
        Example('import httpx\napi = httpx.Client(base_url="https://api.example/v2")\n', kind="python"),
    ),
    invalid=(
        Example('import aiohttp\nsession = aiohttp.ClientSession(base_url="https://api.example/v2")  # IRI812\n',
                kind="python"),
        Example('import aiohttp\nCDN = "https://cdn.example"\n'
                'async def fetch(name):\n    async with aiohttp.ClientSession(CDN + "/audio") as session:  # IRI812\n'
                '        return await session.get(name)\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """The last character of an aiohttp base's path when it is no '/' (sec. 5.2.3: the session refuses it)."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or not assembly.slash_base or ref.scheme is None or ref.authority is None:
        return
    path = ref.path
    last = path.end - 1
    if path.end == path.start or ref.text[last] == "/" or any(u <= last for u in assembly.unknown if u >= path.start):
        return  # (a hole in the path may end it with '/', or hold the '?' that ends it)
    yield Raw(last, path.end, f"aiohttp refuses this base_url when the session is made (ValueError: base_url must "
                              f"have a trailing '/'): its path '{facts.shown[path.start : path.end]}' does not end "
                              f"with '/'; end it with '/'")
