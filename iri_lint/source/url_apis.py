"""The URL APIs: functions and methods whose arguments are URLs (docs/url-apis.md), and the user's own
(``extra-url-apis``)."""

from __future__ import annotations

import ast
import re
from typing import NamedTuple

from iri_lint.core.context import UriOnly, UseContext


class UrlApi(NamedTuple):
    """A function or method whose arguments are URLs."""

    name: str  # qualified; "()" marks a call result, e.g. "requests.Session().get"
    args: tuple[int, ...] = (0,)  # positional indexes that hold URLs
    keywords: tuple[str, ...] = ("url",)
    context: UseContext = UseContext.DEREFERENCED
    uri_only: UriOnly | bool = UriOnly.NO  # raises UnicodeEncodeError on non-ASCII (IRI4xx)
    relative: bool = True  # relative references are checked (a URL context)
    # encodes a non-ASCII host with the ``idna`` package (IDNA2008 + UTS #46), so a label only
    # IDNA2003 reads (IRI403's opt-in difference between the versions) makes the call fail
    idna2008: bool = False
    # takes a URL or a local path (pandas.read_csv, fsspec.open): a URL only when it starts "scheme://"
    or_path: bool = False
    # a client's base that each request is appended to, raw path and query (httpx's ``Client._merge_url``)
    appends: bool = False
    # a client's base whose path must end with '/': aiohttp's ClientSession raises ValueError("base_url must have
    # a trailing '/'") otherwise (aiohttp 3.14, client.py; earlier releases took no path at all)
    slash_base: bool = False
    # needs an absolute URL, having no base to resolve against: a reference without a scheme raises (requests'
    # MissingSchema, urllib.request's "unknown url type", scrapy's "Missing scheme in request url")
    absolute: bool = False
    # the position and keyword of a base it resolves a relative reference against, when a call gives one
    # (rdflib's ``URIRef(value, base)``: ``urljoin(base, value)``)
    base: tuple[int, str] | None = None

    def at_call(self, call: ast.Call) -> UrlApi:
        """The API as this call uses it: one given a base it resolves against takes a relative reference."""
        if self.base is None or self.relative:
            return self
        i, keyword = self.base
        given = call.args[i] if i < len(call.args) else next((k.value for k in call.keywords if k.arg == keyword), None)
        if given is None or (type(given) is ast.Constant and given.value is None):
            return self
        return self._replace(relative=True)

    def takes(self, value: str) -> bool:
        """Whether ``value`` (holes as ``HOLE``) is a URL for this API: a URL-or-path API's only when it starts
        with a scheme, or a hole standing for one, and ``//``, as pandas' ``is_url`` and fsspec decide."""
        return not self.or_path or _URL_OR_HOLE_START.match(value) is not None


_URL_OR_HOLE_START = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.\-]*+|0)://")


def _http_client(prefix: str, methods: tuple[str, ...], *, url_arg: int = 0, idna2008: bool = False,
                 absolute: bool = False) -> list[UrlApi]:
    args = (url_arg,)
    return [UrlApi(f"{prefix}.{m}", args, idna2008=idna2008, absolute=absolute) for m in methods]


_URLLIB = UriOnly.BEFORE_FRAGMENT
_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
_REQUEST = ("request",)


def _client_family(prefix: str) -> list[UrlApi]:
    # requests (models.PreparedRequest), httpx (httpx._urlparse) and aiohttp (through yarl) encode a
    # non-ASCII host with the idna package; a client that may have a base URL (httpx's, aiohttp's) takes a
    # relative reference, requests and the module functions of httpx none
    absolute = prefix.startswith("requests") or prefix == "httpx"
    return [
        *_http_client(prefix, _VERBS, idna2008=True, absolute=absolute),
        # (``stream`` is httpx's alone, as ``build_request`` is its clients': requests streams with ``stream=True``)
        *_http_client(prefix, (*_REQUEST, *(("stream",) if prefix.startswith("httpx") else ()),
                               *(("build_request",) if "httpx." in prefix else ())),
                      url_arg=1, idna2008=True, absolute=absolute),
    ]


DEFAULT_URL_APIS: tuple[UrlApi, ...] = (
    # uri_only: http.client and urllib.request encode the request line as ASCII; urllib.request's Request cuts
    # the fragment off first, so only what is before it must be ASCII
    UrlApi("urllib.request.urlopen", uri_only=_URLLIB, absolute=True),
    UrlApi("urllib.request.Request", uri_only=_URLLIB, absolute=True),
    UrlApi("urllib.request.urlretrieve", uri_only=_URLLIB, absolute=True),
    UrlApi("urllib.request.build_opener().open", keywords=("fullurl",), uri_only=_URLLIB, absolute=True),
    UrlApi("urllib.parse.urljoin", (0, 1), ("base", "url"), UseContext.UNKNOWN),
    UrlApi("requests.compat.urljoin", (0, 1), ("base", "url"), UseContext.UNKNOWN),  # (the same function)
    UrlApi("urllib.parse.urlsplit", keywords=("url",), context=UseContext.UNKNOWN),
    UrlApi("urllib.parse.urlparse", keywords=("url",), context=UseContext.UNKNOWN),
    *[
        UrlApi(f"http.client.{cls}().{m}", (1,), ("url",), uri_only=UriOnly.WHOLE)
        for cls in ("HTTPConnection", "HTTPSConnection")
        for m in ("request", "putrequest")
    ],
    *[UrlApi(f"webbrowser.{m}") for m in ("open", "open_new", "open_new_tab")],
    *[UrlApi(f"webbrowser.get().{m}") for m in ("open", "open_new", "open_new_tab")],  # (a named browser's)
    # robotparser reads robots.txt with urllib.request.urlopen
    UrlApi("urllib.robotparser.RobotFileParser", uri_only=_URLLIB),
    UrlApi("urllib.robotparser.RobotFileParser().set_url", uri_only=_URLLIB),
    # xmlrpc.client sends the URI's path in an http.client request line (ASCII)
    *[UrlApi(f"xmlrpc.client.{cls}", keywords=("uri",), uri_only=UriOnly.AFTER_HOST)
      for cls in ("ServerProxy", "Server")],
    # websockets turns an IRI into a URI itself (websockets.uri.parse_uri)
    *[UrlApi(f"websockets.{m}", keywords=("uri",))
      for m in ("connect", "client.connect", "sync.client.connect", "asyncio.client.connect")],
    *[UrlApi(f"selenium.webdriver.{b}().get") for b in ("Chrome", "Firefox", "Edge", "Safari", "Remote")],
    # (the same classes from their own modules, as Django's LiveServerTestCase example imports them)
    *[UrlApi(f"selenium.webdriver.{m}.webdriver.WebDriver().get")
      for m in ("chrome", "firefox", "edge", "safari", "remote", "chromium", "ie", "webkitgtk", "wpewebkit")],
    *_client_family("requests"),
    *_client_family("requests.Session()"),
    *_client_family("requests.session()"),
    *_client_family("httpx"),
    *_client_family("httpx.Client()"),
    *_client_family("httpx.AsyncClient()"),
    *_client_family("aiohttp.ClientSession()"),
    UrlApi("aiohttp.ClientSession().ws_connect", idna2008=True),
    # a client's base URL: parsed where the client is made (a template there is sent unfilled); absolute, having
    # nothing to resolve against (httpx's UnsupportedProtocol, aiohttp's "Only absolute URLs are supported")
    UrlApi("httpx.Client", (), ("base_url",), idna2008=True, appends=True, absolute=True),
    UrlApi("httpx.AsyncClient", (), ("base_url",), idna2008=True, appends=True, absolute=True),
    UrlApi("aiohttp.ClientSession", (0,), ("base_url",), idna2008=True, slash_base=True, absolute=True),
    # urllib3.util.url encodes a non-ASCII host with the idna package
    UrlApi("urllib3.request", (1,), idna2008=True),
    UrlApi("urllib3.PoolManager().request", (1,), idna2008=True),
    UrlApi("urllib3.PoolManager().urlopen", (1,), idna2008=True),
    UrlApi("urllib3.PoolManager().request_encode_url", (1,), idna2008=True),
    UrlApi("aiohttp.request", (1,), idna2008=True),
    UrlApi("requests.Request", (1,), idna2008=True),  # (a session that has a base may prepare it: toolbelt)
    UrlApi("httpx.Request", (1,), idna2008=True),
    # HTTP mocks of tests: a URL that is not the one the code requests never matches (fixtures233): responses',
    # respx's and aioresponses' verbs (a regex object is no literal, not read). Not responses' ``add(method, url)``:
    # ``add`` is set's method too, each call of which would be resolved (2% of flake8's time on run.py --quick);
    # its ``url=`` is checked as every URL-named keyword, and ``extra-url-apis = ["responses.add:1"]`` adds it
    *[UrlApi(f"responses.{m}", (0,), ("url",), UseContext.UNKNOWN) for m in _VERBS],
    *[UrlApi(f"responses.RequestsMock().{m}", (0,), ("url",), UseContext.UNKNOWN) for m in _VERBS],
    *[UrlApi(f"respx.{m}", (0,), ("url",), UseContext.UNKNOWN) for m in _VERBS],
    *[UrlApi(f"aioresponses.aioresponses().{m}", (0,), ("url",), UseContext.UNKNOWN) for m in _VERBS],
    # URL-object constructors and parsers: the argument is a URL, used later (issue #14)
    *[
        UrlApi(name, context=UseContext.UNKNOWN, keywords=("url", "val", "text", "uri", "value"),
               idna2008=name in ("yarl.URL", "httpx.URL", "urllib3.util.parse_url", "urllib3.util.url.parse_url"))
        for name in (
            "yarl.URL", "httpx.URL", "furl.furl", "furl.furl.furl", "purl.URL", "starlette.datastructures.URL",
            "hyperlink.parse", "hyperlink.URL.from_text", "hyperlink.DecodedURL.from_text",
            "hyperlink.EncodedURL.from_text", "urllib3.util.parse_url", "urllib3.util.url.parse_url",
            "rfc3986.uri_reference", "rfc3986.iri_reference", "rfc3986.urlparse",
            "rfc3986.URIReference.from_string", "rfc3986.IRIReference.from_string",
            "w3lib.url.safe_url_string", "w3lib.url.canonicalize_url", "w3lib.url.url_query_cleaner",
            "w3lib.url.add_or_replace_parameter", "werkzeug.urls.url_parse", "validators.url",
        )
    ],
    # each by its own parameter's name (django's redirect(to): location= would raise there)
    *[
        UrlApi(name, keywords=(keyword,))
        for name, keyword in (("flask.redirect", "location"), ("werkzeug.utils.redirect", "location"),
                              ("starlette.responses.RedirectResponse", "url"),
                              ("fastapi.responses.RedirectResponse", "url"), ("django.shortcuts.redirect", "to"))
    ],
    # scrapy's Request and its subclasses (FormRequest, JsonRequest, XmlRpcRequest keep its url parameter)
    *[UrlApi(f"scrapy{m}.{cls}", absolute=True) for m in ("", ".http") for cls in ("Request", "FormRequest")],
    *[UrlApi(f"scrapy.http.{cls}", absolute=True) for cls in ("JsonRequest", "XmlRpcRequest")],
    # (django.http re-exports them from django.http.response, where they are defined)
    *[UrlApi(f"django.http{m}.{cls}", keywords=("redirect_to",)) for m in ("", ".response")
      for cls in ("HttpResponseRedirect", "HttpResponsePermanentRedirect")],
    # identifiers: namespaces are compared as strings (RFC 3987 5.1); absolute only
    *[
        UrlApi(name, context=UseContext.IDENTIFIER, relative=False, keywords=("value",),
               base=(1, "base") if name.endswith("URIRef") else None)
        for name in (
            "rdflib.Namespace",
            "rdflib.namespace.Namespace",
            "rdflib.URIRef",
            "rdflib.term.URIRef",
            "rdflib.namespace.DefinedNamespace",
        )
    ],
    *[
        UrlApi(f"{et}.register_namespace", (1,), ("uri",), UseContext.IDENTIFIER, relative=False)
        for et in ("xml.etree.ElementTree", "xml.etree.cElementTree", "lxml.etree")
    ],
)


def parse_extra_api(spec: str) -> UrlApi:
    """Parse a user API spec ``qualified.name[:arguments][:url-or-path]`` into a UrlApi: ``arguments`` are
    positions and keyword names, separated by ``,`` or ``+`` (``pandas.read_csv:filepath_or_buffer``; the
    first positional when no position is given, and ``url=`` always); ``url-or-path`` for an API that reads
    local paths as often, whose argument is a URL only when it starts with ``scheme://``."""
    name, *rest = (part.strip() for part in spec.split(":"))
    or_path = "url-or-path" in rest
    items = [x.strip() for part in rest if part != "url-or-path" for x in re.split(r"[,+]", part) if x.strip()]
    args = tuple(int(x) for x in items if x.isdigit()) or (0,)
    keywords = ("url", *(x for x in items if not x.isdigit() and x != "url"))
    return UrlApi(name, args, keywords, UseContext.UNKNOWN, or_path=or_path)


# the compatibility layers that re-export the standard library's urllib (six, future): the same functions
_COMPAT_URLLIB = (("six.moves.urllib_parse.", "urllib.parse."), ("six.moves.urllib.", "urllib."),
                  ("future.moves.urllib.", "urllib."), ("future.backports.urllib.", "urllib."))


def compat_qual(qual: str) -> str:
    """The standard library's name of a function a compatibility layer re-exports (``six.moves.urllib.parse.urljoin``
    is ``urllib.parse.urljoin``); any other name as it is."""
    if qual.startswith(("six.", "future.")):
        for prefix, stdlib in _COMPAT_URLLIB:
            if qual.startswith(prefix):
                return stdlib + qual[len(prefix):]
    return qual


# the environment's lookups: the value is the variable's, or the default the code gives (a choice at the use)
# (``os.environ.setdefault`` gives its default where the variable is unset; python-decouple's ``config(name,
# default=..., cast=...)`` reads the environment, then .env files, then the default: fixtures223's settings;
# django-environ's ``env = environ.Env()`` then ``env(name, cast, default)`` and ``env.str(name, default)``)
ENVIRONMENT = frozenset(("os.getenv", "os.environ.get", "os.environ.setdefault", "decouple.config",
                         "environ.Env()", "environ.Env().str"))
_DEFAULT_AT = {"environ.Env()": 2}  # (``Env.__call__(var, cast=None, default=NOTSET)``); else the second


def env_default(call: ast.Call, qual: str = "") -> ast.expr | None:
    """The default of ``os.getenv(name, default)``, ``os.environ.get``/``setdefault``, ``decouple.config(name,
    default=...)``, django-environ's ``env(name, cast, default)``, if given (by position, or by its keyword);
    ``qual``: the read's function."""
    at = _DEFAULT_AT.get(qual, 1)
    if len(call.args) > at and not any(type(a) is ast.Starred for a in call.args[: at + 1]):
        return call.args[at]
    return next((k.value for k in call.keywords if k.arg in ("default", "failobj", "value")), None)
