"""IRI116 missing-scheme: An absolute IRI is required but there is no scheme."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.context import UseContext
from ...core.errors import Kind
from ...core.schemes import port_after, windows_path
from ...data.schemes import REGISTERED
from ..facts import Facts
from ..model import Example, Family, Raw, Rule, Severity
from .shared import Subject, report

RULE = Rule(
    code="IRI116",
    name="missing-scheme",
    family=Family.SYNTAX,
    summary="An absolute IRI is required but there is no scheme",
    section="RFC 3987 sec. 2.2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A string checked through the Python API as the kind `IRI` or `absolute-IRI` (`check(text, "
          'kind="IRI")`) that has no scheme, i.e. a relative reference such as `//example.com/`; and a reference '
          "without a scheme given to a URL API that has no base URL to resolve it against, so needs an absolute "
          "one (\"absolute only\" in [the URL APIs' table](../url-apis.md)): `requests`' functions and `Session` "
          "methods, `httpx`'s module functions (`httpx.get`), "
          "`urllib.request`'s `urlopen`, `Request`, `urlretrieve` and an opener's `open`, and scrapy's `Request` "
          "(`requests.get(\"api.example.com/v1/users\")`, `urlopen(\"index.html\")`, a constant `\"/v1/users\"` "
          "that reaches one). Not a value whose start is unknown (`f\"{host}/v1\"`, `base + \"/v1\"`), nor a "
          "request through a client that may have a base URL (`httpx.Client`, `aiohttp.ClientSession`: its "
          "`base_url` itself must be absolute, having nothing to be resolved against), nor a project's own "
          "subclass of `requests.Session` that overrides a request method (`request`, `get`: it may join a base, "
          "as requests-toolbelt's `BaseUrlSession` does; a subclass that overrides none sends what it is given), "
          "nor a `requests.Request` (a session with a base may prepare it: "
          "requests-toolbelt's `BaseUrlSession`). And a host and a port without a scheme given to such an API "
          "(`requests.get(\"localhost:8080/healthz\")`; not an identifier's, rdflib's `URIRef(\"store:1\")`): by "
          "the grammar `localhost` is its scheme and `8080/healthz` "
          "its path (RFC 3986 sec. 3.1, 3.3), a scheme no API has (requests' `InvalidSchema`, urllib's `unknown url "
          "type`): a name that is no registered scheme, then `:` and up to five digits that end the reference or "
          "come before `/`, `?` or `#` (a registered scheme's name is left alone, `tel:5551234`, so a service "
          "named `redis` or `ldap` probed as `redis:6379` is not reported: a trade of recall for precision). "
          "A value that has no scheme because a join dropped the URL "
          "before its absolute path (`posixpath.join(CDN, \"/x\")`) is IRI804's finding, the cause, alone."),
    why=("Where the grammar asks for `IRI` or `absolute-IRI` a relative reference is an error; an API with no "
         "base URL cannot resolve one (RFC 3986 sec. 5.1) and raises: requests' `MissingSchema`, urllib's "
         "`ValueError: unknown url type`, scrapy's `Missing scheme in request url`."),
    fix_text="Add the scheme, e.g. `https:`.",
    valid=(Example("https://example.com/", kind="IRI"),
           Example('import httpx\nhttpx.Client(base_url="https://api.example.com").get("/v1/users")\n',
                   kind="python")),
    invalid=(Example("//example.com/", kind="IRI"),
             Example('import requests\nrequests.get("api.example.com/v1/users")\n', kind="python"),
             Example('import requests\nrequests.get("localhost:8080/healthz")\n', kind="python")),
    needs=None,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    text = err.ref.text
    first = text[: min((i for i in (text.find(c) for c in "/?#") if i >= 0), default=len(text))]
    host = f", where '{first}' is a path segment, not a host (with 'https://' before it, one)" \
        if "." in first and not text.startswith((".", "/")) else ""
    return f"an {err.ref.kind} needs a scheme such as 'https:' (RFC 3987 sec. 2.2); this is a relative reference{host}"


def check(facts: Facts) -> Iterator[Raw]:
    """A relative reference where the kind asked for needs a scheme; a host and port read as a scheme there."""
    ref = facts.ref
    if ref.error_records and windows_path(ref.text) is None:  # (a UNC path is IRI103's, the cause)
        yield from report(facts, Kind.MISSING_SCHEME, message)
    elif ref.kind != "IRI-reference" and facts.context is UseContext.DEREFERENCED and ref.scheme is not None and \
            ref.authority is None and \
            (port := port_after(ref.text, ref.scheme.end)) and \
            (host := ref.text[: ref.scheme.end]).lower() not in REGISTERED:
        yield Raw(0, port, f"'{ref.text[:port]}' is a host and a port without a scheme: the grammar reads '{host}' as "
                           f"the scheme (RFC 3986 sec. 3.1), one no HTTP client has; put 'http://' before it")

