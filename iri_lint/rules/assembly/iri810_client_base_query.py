"""IRI810 client-base-query: A client's `base_url` has a query, which httpx appends requests to and aiohttp drops."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI810",
    name="client-base-query",
    family=Family.ASSEMBLY,
    summary="A client's `base_url` has a query, which httpx appends requests to and aiohttp drops",
    section="RFC 3986 sec. 3.3, 3.4",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("The `base_url` of an `httpx.Client` or `httpx.AsyncClient` holds a `?`, or the base a class derived "
          "from one gives `super().__init__(base_url=...)` in its `__init__`, or its call gives where the class hands "
          "`base_url` on or has no `__init__` (`StatusClient(base_url=...)`), or its `__init__`'s `base_url` "
          "default gives where a call gives none (a client a project's function "
          "makes from its parameter, `make_client(base)`, is not followed here): "
          "`httpx.Client(base_url=\"https://api.example/v1?appid=\" + KEY)`. httpx "
          "appends a relative request to the base's raw path, which holds the query (`Client._merge_url`), so "
          "`api.get(\"alerts\")` is sent as `/v1?appid=KEY/alerts`, and a request given `params=` replaces that "
          "query, key and path with it. Only a `?` the base's known text holds (a hole that may hold one is not "
          "reported); a request's own second `?` is IRI803's. The same `?` in the base of an "
          "`aiohttp.ClientSession`, which resolves each request against its base as `urljoin` does (RFC 3986 "
          "sec. 5.2.2): a request with a path drops the base's query (`ClientSession(base_url=\"https://api.example"
          "/v1/?appid=demo\").get(\"alerts\")` asks for `/v1/alerts`), so the key is never sent (fixtures190 "
          "repro 03; IRI804 for what it drops of the path, IRI812 for a path without a trailing `/`)."),
    why=("The query begins at the first `?` (RFC 3986 sec. 3.4) and runs to the end: every path httpx appends "
         "after it is data of the last parameter (sec. 3.3 never sees it), so each request reaches the base's "
         "endpoint with a mangled parameter; a resolution takes the query of a reference that has a path "
         "(sec. 5.2.2), never the base's. Either way the mistake shows at run time only, as 404s or a missing "
         "key."),
    where="the `?` of the base's query",
    fix_text=("Give the parameters on the client (`httpx.Client(base_url=BASE, params={\"appid\": KEY})`, which "
              "httpx merges into each request) or in a header, and end the base at its path."),
    valid=(
        Example('import httpx\napi = httpx.Client(base_url="https://api.example/v1/", params={"appid": "demo"})\n'
                'api.get("alerts")\n', kind="python"),
        Example('import aiohttp\nsession = aiohttp.ClientSession(base_url="https://api.example/v1/")\n',
                kind="python"),
    ),
    invalid=(
        Example('import httpx\napi = httpx.Client(base_url="https://api.example/v1?appid=demo")  # IRI810\n'
                'api.get("alerts")\n', kind="python"),
        Example('import os\n\nimport httpx\nKEY = os.environ["KEY"]\n'
                'api = httpx.AsyncClient(base_url=f"https://api.example/v1?appid={KEY}")\n', kind="python"),
        Example('import aiohttp\nsession = aiohttp.ClientSession("https://api.example/v1/?appid=demo")  # IRI810\n',
                kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """The '?' that starts the query of an httpx client's base (sec. 3.4): each request lands after it."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or not (assembly.appends or assembly.slash_base) or ref.query is None:
        return
    q = ref.query.start - 1
    if ref.text[q : q + 1] != "?":
        return
    if assembly.appends:
        yield Raw(q, q + 1, "httpx appends each relative request to this base's raw path, after its query: a "
                  "request's path becomes part of the last parameter's value; give the parameters with params= "
                  "and end the base at its path")
    else:
        yield Raw(q, q + 1, "aiohttp resolves each request against this base as urljoin does (RFC 3986 sec. "
                  "5.2.2): a request with a path drops the base's query; give the parameters with params= and end "
                  "the base at its path")
