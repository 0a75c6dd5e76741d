"""IRI804 urljoin-drops-path: `urljoin` drops part of the base's path."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI804",
    name="urljoin-drops-path",
    family=Family.ASSEMBLY,
    summary="`urljoin` drops part of the base's path",
    section="RFC 3986 sec. 5.2.2, 5.2.3",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("A call of `urllib.parse.urljoin(base, ref)` whose base and reference are known well enough to resolve "
          "(RFC 3986 sec. 5.2) and that drops part of the base's path: a relative-path reference (`\"items\"`, "
          "`\"./items\"`, `\"../items\"`) "
          "against a base whose path does not end with `/` (`\"https://h.example/api/v2\"`: `v2` is replaced) "
          "when a `/` there would keep it (not `\"../items\"` against `/v2`: both give `/items`, the `..` "
          "goes up on purpose; nor a reference that spells the segment again, `\"v2/items\"`: `/api/v2/items` "
          "keeps it; nor one whose first segment is another version in place of the last one, `\"v3/items\"` "
          "against `/api/v2`, a switch of versions, fixtures171's note), "
          "or an absolute-path reference (`\"/items\"`) against a base with a path (`/api/v2/` is replaced); "
          "the base an absolute URI, or a reference with an absolute path (Django's `STATIC_URL = \"/static\"`, "
          "resolved as sec. 5.2 does with the scheme left out; against a relative path urllib does otherwise); "
          "checked at every call, whatever its result is used for (and reported at the reference, below). "
          "And a relative reference against a base whose scheme Python's `urljoin` resolves nothing against "
          "(one `urllib.parse.uses_relative` lacks: `s3`, `gs`, `redis`, `git+https`): it returns the reference "
          "alone, the whole base dropped (`urljoin(\"gs://bucket/\", \"x.csv\")` is `\"x.csv\"`). "
          "The same for a request through an aiohttp `ClientSession(base_url=...)`, which resolves it so "
          "(`ClientSession._build_url`): an absolute path against a base with a path; a relative one meets only a "
          "base without a trailing `/`, which aiohttp refuses when the session is made (IRI812, at the base; here, "
          "either kind, only when the session is made and its base spelled in other modules, and the message says "
          "the session refuses it), and for a URL object's `.join` "
          "(`yarl.URL(base).join(URL(ref))`, "
          "`httpx.URL(base).join(ref)`), which resolve as `urljoin` does (those where their result reaches a "
          "URL use: a URL API, a URL-named target). Not for an httpx client's "
          "`base_url`, which httpx appends to instead of resolving, nor for a base "
          "that is a page's URL (its last segment a document's name, `index.html`): its links resolve against "
          "it (sec. 5.1), nor for a resource a site keeps at its root, found from any of its pages "
          "(`urljoin(page, \"/robots.txt\")`, RFC 9309 sec. 2.3; a well-known URI, RFC 8615, "
          "`/.well-known/security.txt`; `/favicon.ico`, `/sitemap.xml`, `/ads.txt`, `/app-ads.txt`, `/humans.txt`), "
          "but an issuer's metadata, whose path OpenID puts before `/.well-known/openid-configuration` and RFC 8414 "
          "after `/.well-known/oauth-authorization-server`. And `posixpath.join(url, ..., \"/x\")`, where a "
          "part that starts with `/` throws away "
          "all before it, the URL's scheme and host too (`posixpath.join(CDN, \"/img/a.png\")` is `/img/a.png`), "
          "whatever the parts after it hold (`posixpath.join(API, \"/themes\", str(theme_id))`: an unknown part "
          "may start afresh once more, but the URL is lost either way), where the join's value is used; a "
          "URL-named helper's own `posixpath.join` "
          "(`def index_url(name): return posixpath.join(CDN, \"/idx/\" + name)`) once, where it "
          "returns it, not again at its callers in other modules (a helper named otherwise: at each caller that "
          "sends what it returns)."),
    why=("Reference resolution merges a relative path with the base's path up to its last `/` (sec. 5.2.3) and "
         "replaces the whole path with an absolute one (sec. 5.2.2): `urljoin(\"https://h.example/api/v2\", "
         "\"items\")` is `https://h.example/api/items`, not `.../api/v2/items`. Code that keeps a base URL "
         "for an API version or a prefix almost always means to keep it."),
    where=("the first character of the reference (`urljoin`'s second argument, or the path a client with a base "
           "URL requests)"),
    fix_text=("End the base's path with `/` and give the reference without a leading `/` "
              "(`urljoin(\"https://h.example/api/v2/\", \"items\")`), or join the strings. Where the sibling of "
              "the base's last segment is meant (RFC 7009's `revoke` next to an OAuth `token` endpoint, "
              "Prometheus' `query_range` next to `query`), write that URL whole, or keep the call with "
              "`# noqa: IRI804`: a `/` would make it a child."),
    valid=(
        Example('from urllib.parse import urljoin\nimport requests\n'
                'requests.get(urljoin("https://h.example/api/v2/", "items"))\n', kind="python"),
        Example('from urllib.parse import urljoin\nimport requests\n'
                'requests.get(urljoin("https://h.example", "/items"))\n', kind="python"),
        Example('from urllib.parse import urljoin\nimport requests\n'
                'requests.get(urljoin("https://h.example/api/v1/", "../v2/items"))\n', kind="python"),
        Example('from urllib.parse import urljoin\nimport requests\n'
                'requests.get(urljoin("https://books.example.com/index.html", "catalogue/page-2.html"))\n',
                kind="python"),
        Example('from urllib.parse import urljoin\nimport requests\n'
                'requests.get(urljoin("https://h.example/api/v2", "v3/items"))\n', kind="python"),
    ),
    invalid=(
        Example('from urllib.parse import urljoin\nimport requests\n'
                'requests.get(urljoin("https://h.example/api/v2", "items"))\n', kind="python"),
        Example('from urllib.parse import urljoin\nimport requests\n'
                'requests.get(urljoin("https://h.example/api/v2/", "/items"))\n', kind="python"),
        Example('from urllib.parse import urljoin\nimport requests\n'
                'page = urljoin("https://h.example/api/v2", "./items")  # IRI804\nrequests.get(page + "?page=2")\n',
                kind="python"),
        Example('import aiohttp\n\n\nasync def rooms():\n'
                '    async with aiohttp.ClientSession(base_url="https://h.example/api/") as s:\n'
                '        return await s.get("/rooms")\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """What the source layer found ``urljoin`` to drop (``Assembly.urljoin``), at the reference."""
    assembly = facts.assembly
    if assembly is None or assembly.urljoin is None:
        return
    at, kind, dropped = assembly.urljoin
    who = "the client's base_url resolution" if kind.startswith("base_url ") else \
        "the URL's join()" if kind.startswith("join ") else "urljoin"
    if kind == "unresolved":
        message = (f"urljoin resolves nothing against a '{dropped}:' URL (urllib.parse.uses_relative lacks the "
                   "scheme): it returns this reference alone and drops the whole base; join them with '/' instead")
    elif kind.startswith("posixpath "):
        message = (f"posixpath.join starts again at this absolute path and drops all before it, '{dropped}' with its "
                   "scheme and host (a part starting with '/' replaces the parts before it): drop the leading '/'")
    elif kind.endswith("relative"):
        if "/" not in dropped and _version(dropped) and _version(_first_segment(facts.ref.text, at)):
            return  # (another version in place of the last: "v3/items" against /api/v2, on purpose)
        what = f"segments '{dropped}'" if "/" in dropped else f"last segment '{dropped}'"
        message = (f"{who} replaces the base's {what} with this relative reference "
                   "(RFC 3986 sec. 5.2.3): end the base with '/' to keep it (a sibling meant: write its URL whole)")
        if kind == "base_url relative":  # (aiohttp refuses such a base: IRI812 where it is spelled in this module)
            message = (f"aiohttp refuses this client's base_url, whose path does not end with '/' (ValueError where "
                       f"the session is made), and would replace its {what} with this relative reference "
                       "(RFC 3986 sec. 5.2.3): end the base with '/'")
    elif kind == "base_url absolute" and not dropped.endswith("/"):
        message = (f"aiohttp refuses this client's base_url, whose path '{dropped}' does not end with '/' (ValueError "
                   "where the session is made), and would replace that path with this absolute path (RFC 3986 sec. "
                   "5.2.2): end the base with '/' and drop the leading '/'")
    else:
        keep = " to keep it" if dropped.endswith("/") else " and end the base with '/' to keep it"
        message = (f"{who} replaces the base's path '{dropped}' with this absolute path (RFC 3986 "
                   f"sec. 5.2.2): drop the leading '/'{keep}")
    yield Raw(at, at + 1, message)


_VERSION = re.compile(r"v?[0-9]++(?:\.[0-9]++)*+(?:(?:alpha|beta|rc)[0-9]*+)?+", re.IGNORECASE)  # (v1beta1)


def _version(segment: str) -> bool:
    """An API version as a path segment spells it: ``v2``, ``V1.1``, ``2``, ``2.0``, ``v1beta1``."""
    return _VERSION.fullmatch(segment) is not None


def _first_segment(text: str, at: int) -> str:
    while text.startswith(("./", "/"), at):  # ("./v3/items" resolves as "v3/items"; its offset is at the '/')
        at += 1 if text[at] == "/" else 2
    ends = [i for i in (text.find(c, at) for c in "/?#") if i >= 0]
    return text[at : min(ends, default=len(text))]
