"""Which literals are IRIs: value tests, URL-taking APIs and URL-like names (docs/design.md)."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import NamedTuple

from iri_lint.core.chars import starts_header_line
from iri_lint.core.schemes import port_after, windows_path
from iri_lint.data.schemes import REGISTERED

SCHEME_START = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+:")  # a scheme and its colon (RFC 3986 sec. 3.1)
# substrings that only regexes (or Windows paths) contain; none is valid in an IRI anyway
_REGEX_MARKERS = (
    "\\d", "\\w", "\\s", "\\S", "\\W", "\\D", "\\b", "\\.", "\\/", "\\?", "\\+", "\\*",
    "\\|", "\\(", "\\)", "\\[", "\\]", "\\{", "\\}", "\\^", "\\$",  # a metacharacter escaped
    "(?", "[^", ".*", ".+", "[a-z", "[A-Z", "[0-9", "]+", "]*", "]{", ")?", ")*", ")+",
    # replacement templates of re.sub / Match.expand
    "\\1", "\\2", "\\3", "\\4", "\\5", "\\6", "\\7", "\\8", "\\9", "\\g<",
    # markup: an attribute assignment (a quote is never valid in an IRI)
    '="', "='",
)  # fmt: skip
# the same markers as one search (one pass over a long literal instead of one per marker)
_REGEX_MARKER = re.compile(
    r"""\\(?:[dwsSWDb./?+*1-9|()\[\]{}^$]|g<)|\(\?|\[(?:\^|a-z|A-Z|0-9)|\.[*+]|\][+*{]|\)[?*+]|=["']"""
)
_SPACE = re.compile(r"\s")  # exactly str.isspace()
_IRI_DELIM = re.compile(r"[:/?#=&.%@]")
_PATH_DELIM = re.compile(r"[/.?=&#%]")


# functions whose first argument is a message (text, where whitespace delimits an IRI: RFC 3986 appendix C)
MESSAGE_FUNCTIONS = frozenset((
    "print", "warnings.warn", "sys.exit", "pytest.fail", "pytest.skip", "pytest.xfail", "pytest.exit",
    "click.echo", "click.secho",
))
REGEX_FUNCTIONS = frozenset(
    f"{mod}.{fn}"
    for mod in ("re", "regex")
    for fn in (
        "compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer",
    )
)  # fmt: skip

# what else takes a regex: pytest's ``match=`` (raises, warns, deprecated_call); unittest's assertions by the
# argument after the text or the exception (and their keywords)
REGEX_KEYWORD_FUNCTIONS = frozenset(("pytest.raises", "pytest.warns", "pytest.deprecated_call"))
REGEX_METHODS = frozenset((
    "assertRaisesRegex", "assertWarnsRegex", "assertRegex", "assertNotRegex", "assertRaisesRegexp",
    "assertRegexpMatches", "assertNotRegexpMatches",
))
REGEX_METHOD_KEYWORDS = frozenset(("expected_regex", "unexpected_regex"))

# str methods whose arguments are pieces of strings, never whole IRIs
PIECE_METHODS = frozenset(
    (
        "startswith", "endswith", "find", "rfind", "index", "rindex", "split", "rsplit",
        "replace", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix",
        "partition", "rpartition", "count", "mount", "join", "lower", "upper",
        # SQL LIKE patterns and substrings (SQLAlchemy's column operators, pandas' .str): "tag:%"
        "like", "ilike", "not_like", "not_ilike", "notlike", "notilike", "contains",
    )
)  # fmt: skip


# callables whose strings are route patterns and route names, never IRIs to check, in every framework
# that routes: Flask and Quart (@app.route, add_url_rule), aiohttp (add_route, add_get, ...), Pyramid
# (add_route), Starlette (Route, Mount, WebSocketRoute, add_route), FastAPI (add_api_route, api_route),
# Django (path, re_path), Werkzeug (Rule). A route may hold a whole "https://{host}/..." pattern.
ROUTERS = frozenset({
    "route", "add_route", "add_url_rule", "add_api_route", "api_route", "add_websocket_route",
    "websocket_route", "add_api_websocket_route", "path", "re_path", "Route", "Mount", "WebSocketRoute",
    "Rule", "add_get", "add_post", "add_put", "add_patch", "add_delete", "add_head", "add_view", "add_static",
})  # fmt: skip
ROUTE_KEYWORDS = frozenset({"path", "rule", "pattern", "route", "prefix"})


_PLURALS: dict[tuple[str, ...], tuple[str, ...]] = {}


def _plurals(suffixes: tuple[str, ...]) -> tuple[str, ...]:
    """``suffixes`` with an ``s`` added (cached)."""
    out = _PLURALS[suffixes] = tuple(s + "s" for s in suffixes)
    return out


_TEMPLATE_WORDS = frozenset(("template", "templates", "tmpl", "fmt", "pattern", "patterns", "placeholder",
                             "placeholders"))
_LAST_TEMPLATE_WORDS = frozenset(("pat", "pats"))  # (pattern's, last: ``PAT_URL`` holds a personal access token's)


def says_template(name: str) -> bool:
    """Whether a name says it holds a template (``ITEM_URL_TEMPLATE``, ``url_fmt``, ``self.link_pattern``,
    ``link_pat``): its value is one whatever its placeholders look like (issue #27)."""
    words = name.rsplit(".", 1)[-1].lower().split("_")
    return not _TEMPLATE_WORDS.isdisjoint(words) or words[-1] in _LAST_TEMPLATE_WORDS


_QUERY_SUFFIXES = ("xpath", "xpaths", "selector", "selectors", "jsonpath", "jsonpaths", "jmespath")


def says_query(name: str) -> bool:
    """Whether a name says it holds queries of another language, XPath, a CSS selector, JSONPath
    (``elements_xpath``, ``LINK_SELECTORS``): under a key ``href`` too, such a value selects a link, it is none."""
    return name.rsplit(".", 1)[-1].lower().endswith(_QUERY_SUFFIXES)


def is_url_name(name: str, suffixes: tuple[str, ...]) -> bool:
    """Whether an identifier is named like a URL (``BASE_URL``, ``apiUrl``, ``href``, ``urls``, numbered: ``url2``,
    ``MIRROR_URL_2``, versioned: ``users_url_v2``, ``shareUrlV2``)."""
    low = name.lower()
    if low[-1:].isdigit() and len(stripped := name.rstrip("0123456789").rstrip("_")) > 0:
        if stripped.lower().endswith("_v") or (stripped.endswith("V") and stripped[-2:-1].islower()):
            stripped = stripped[:-1].rstrip("_")  # (a version, "_v2": the same URL's next one)
        name, low = stripped, stripped.lower()
    if not low.endswith(suffixes) and not low.endswith(_PLURALS.get(suffixes) or _plurals(suffixes)):
        return False  # (the common case, in one step)
    if low.endswith("s") and len(low) > 1:
        if _suffix_match(name[:-1], low[:-1], suffixes):
            return True
    return _suffix_match(name, low, suffixes)


_OPTION_ADDERS = frozenset(("add_argument", "add_option", "option"))  # argparse's parsers and groups, optparse's, click


def option_dest(call: ast.Call) -> str | None:
    """The attribute a command-line option's value is stored under, when ``call`` adds one (argparse's
    ``add_argument``, optparse's ``add_option``): ``dest=``, else the first long option string, else the first,
    without its dashes (``"--mirror-url"``: ``mirror_url``); its ``default=`` is that attribute's value."""
    func = call.func
    if type(func) is not ast.Attribute or func.attr not in _OPTION_ADDERS:
        return None
    dest = next((k.value for k in call.keywords if k.arg == "dest"), None)
    if dest is not None:
        return dest.value if type(dest) is ast.Constant and type(dest.value) is str else None
    names = [a.value for a in call.args if type(a) is ast.Constant and type(a.value) is str]
    if func.attr == "option":  # (click's ``@click.option("--mirror", "mirror_url", ...)``: a name without dashes
        if not any(n.startswith("-") for n in names):  # is the parameter's; another ``.option(...)`` no option's)
            return None
        if (bare := next((n for n in names if not n.startswith("-")), None)) is not None:
            return bare
    name = next((n for n in names if n.startswith("--")), names[0] if names else "")
    return name.lstrip("-").replace("-", "_") or None


def string_key(target: object) -> str | None:
    """The key of a subscript by a string that names a setting (``item["image_urls"]``, ``meta["next_url"]``):
    a URL-named one makes the target a URL context as a dict display's key does; None for any other target."""
    if type(target) is not ast.Subscript:
        return None
    key = target.slice
    return key.value if type(key) is ast.Constant and type(key.value) is str and is_key_name(key.value) else None


def is_key_name(key: str) -> bool:
    """Whether a dict's string key names a setting as an identifier does: ``base_url``, dotted
    (``schema.registry.url``, confluent-kafka's and Spring's configuration keys) or kebab-case
    (``proxy-url``, kubeconfig's and many YAML formats')."""
    return all(part.replace("-", "_").isidentifier() for part in key.split("."))


def _suffix_match(name: str, low: str, suffixes: tuple[str, ...]) -> bool:
    for s in suffixes:
        if low.endswith(s):
            k = len(low) - len(s)
            # a word boundary: whole name, snake_case, a key's dotted or kebab-case parts, or camelCase (not "curl")
            if k == 0 or name[k - 1] in "_.-" or (name[k].isupper() and not name[k - 1].isupper()):
                return True
            if name[k:].isupper() and name[:k].islower():  # homepageURL
                return True
    return False


# what may stand at either end of a literal before its scheme: whitespace (a separator) or control
# characters (findings); neither is a reason to pass the literal by
EDGE = "".join(map(chr, range(0x21))) + "".join(map(chr, range(0x7F, 0xA0)))


def has_scheme(value: str) -> bool:
    """Whether ``value`` starts with ``scheme:``, after any whitespace and control characters."""
    return SCHEME_START.match(value) is not None or (
        value[:1] in EDGE and value[:1] != "" and SCHEME_START.match(value.lstrip(EDGE)) is not None)


# schemes whose IRIs always have an authority (RFC 9110 sec. 4.2, RFC 6455 sec. 3, RFC 1738 sec. 3.2):
# without any "/" after the colon, such a value is something else of another grammar: an XML
# qualified name ("http:NegotiateAuthentication", NCName ":" NCName) or a connection-pool key
# ("http:host:81"), a script's marker ('content:{a:"', snscrape's); only where a URL is expected is it a URL missing
# its "//" (Android's content URIs name their provider as the authority: "content://contacts/people/1")
AUTHORITY_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp", "content"})  # never a QName: "http:Name" is one


def is_absolute_candidate(value: str) -> bool:
    """Rule 1: the whole literal is an absolute IRI (not a label, CURIE, QName, host:port or path)."""
    m = SCHEME_START.match(value)
    if m is None:
        return False
    e = m.end()
    scheme = value[: e - 1]
    if len(scheme) < 2:  # C:\\ and other drive letters
        return False
    if value.startswith("//", e):
        return len(value) > e + 2 and not value[e + 2].isspace()
    if e >= len(value) or value[e].isspace() or value[e] in ':"':
        return False  # "Label: text", "scheme:" alone, "std::string", a search term 'tag:"x"' (no IRI has '"')
    low = scheme.lower()
    if low in AUTHORITY_SCHEMES and "/" not in value and "\\" not in value:
        return False  # "http:Name" (a QName), "http:host:81" (a pool key): never a URL of that scheme
    return low in REGISTERED


def is_absolute_literal(value: str) -> bool:
    """``is_absolute_candidate`` of a literal's value, whitespace and controls before a scheme aside."""
    return is_absolute_candidate(value if SCHEME_START.match(value) else value.lstrip(EDGE))


_ROUTE_NAMESPACE = re.compile(r"[A-Za-z_][A-Za-z0-9_+.\-]*+:")


def is_route_name(value: str, url_api: bool = False) -> bool:
    """``admin:index``, ``app:view``: a named route (Django accepts them for ``*_url``), not an IRI; nor a Windows
    path from its drive (``C:\\Users``) a URL API is given, which it reads as a URL of scheme ``C`` (``url_api``).

    In a URL context, ``name:...`` without a ``/`` after the colon whose scheme is not registered is a route or
    CURIE (``film:detail`` too, one letter from ``file:``: a mistyped scheme would still have its path). A URL
    namespace is a Python identifier, so the name may hold ``_`` (``wagtailadmin_pages:add``), which no scheme can."""
    m = _ROUTE_NAMESPACE.match(value)
    if m is None or value.startswith("/", m.end()) or port_after(value, m.end() - 1) or \
            (url_api and windows_path(value) == "drive"):
        return False  # ("dbfs:/mnt/x", "models:/name/1": a scheme and its absolute path, which no view name has;
        # "localhost:8080/healthz": a host and its port, fixtures191 repro 02)
    scheme = value[: m.end() - 1].lower()
    return scheme not in REGISTERED  # (a view "film:detail" is no typo of "file:": fixtures170 repro 02)


# in an absolute IRI, sub-delims and "." are ordinary characters: "a(b)*c" is no regex; and a quote after "=" is a
# character at fault in the query ('?q="><script>'), not markup around the IRI; a class of one range, '[1-4]', is a
# regex's or a glob's (fnmatch, fsspec): no IRI holds one (RFC 3986 sec. 3.3)
_REGEX_MARKER_IN_IRI = re.compile(
    r"""\\(?:[dwsSWDb./?+*1-9|()\[\]{}^$]|g<)|\(\?|\[(?:\^|a-z|A-Z|0-9|[A-Za-z0-9]-[A-Za-z0-9]\])|\][+*{]""")
_ABSOLUTE_IRI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+://")
_NO_ESCAPE_MARKER = re.compile(r"""\(\?|\[(?:\^|a-z|A-Z|0-9|[A-Za-z0-9]-[A-Za-z0-9]\])|\][+*{]""")
# backslashes that are a path's separators, not a regex's escapes: a scheme written with them
# ("https:\\host", IRI603's mistake) or a Windows drive ("sqlite:///C:\\data\\app.db")
_BACKSLASH_SCHEME = re.compile(r"(?i:https?|wss?|ftps?|file):\\(?!/)")  # (not "https:\/\/": a regex's)
_DRIVE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]:\\")


def looks_like_regex(value: str) -> bool:
    """Whether the value reads as a regular expression."""
    if value.startswith("^") or (value.endswith("$") and not value.endswith("\\$")):
        return True
    # (an IRI's text, ``scheme://`` or a registered scheme's opaque IRI, ``mailto:a@b.example?subject="Hi"``: its
    # ``="`` is a quote in a query, not an XPath or CSS attribute test)
    marker = _REGEX_MARKER_IN_IRI if _ABSOLUTE_IRI.match(value) or _opaque_iri(value) else _REGEX_MARKER
    if marker.search(value) is None:
        return False
    return (_BACKSLASH_SCHEME.match(value) is None and _DRIVE.search(value) is None) or \
        _NO_ESCAPE_MARKER.search(value) is not None


# an IRI whose path ends with '/' or a document's name, a space and an HTTP status: a record, not one IRI (other
# spaces before that space end the first word as str.split does: "http://a/\u3000 200")
_STATUS_RECORD = re.compile(r"(?:/|\.[A-Za-z][A-Za-z0-9]{0,4}+)[^\S ]*+ [1-5][0-9][0-9]$")


_OPAQUE_DELIM = re.compile(r"[@/?=&#]")


def _opaque_iri(word: str) -> bool:
    """A word that is an IRI of a registered scheme written without an authority, its scheme in lower case and its rest
    holding a delimiter (``mailto:a@shop.example?subject=Refund``): as much one IRI as ``scheme://...``; not a
    label (``Info:Some``)."""
    m = SCHEME_START.match(word)
    return m is not None and m.end() > 2 and (scheme := word[: m.end() - 1]).islower() and scheme in REGISTERED \
        and scheme not in AUTHORITY_SCHEMES and _OPAQUE_DELIM.search(word, m.end()) is not None  # ('http:/' lost one)


def looks_like_prose(value: str, *, url_context: bool) -> bool:
    """Whether whitespace makes this text rather than one IRI with a bad character."""
    if _SPACE.search(value) is None or value[:5].lower() == "wifi:":
        return False  # (a Wi-Fi QR payload is one whatever its network's name holds: the WPA3 grammar's spaces)
    words = value.split(None, 3)  # the first words; the rest stays one (only len <= 4 matters)
    if not words:
        return True
    if ("://" in words[0] or _opaque_iri(words[0])) and not value[0].isspace():
        after = value[len(words[0])]
        text_after = not url_context and (len(words) >= 3 or value.endswith("\n")) and (after == "\n" or (
            after == "\t" and len(words) > 1 and _IRI_DELIM.search(words[1]) is None))
        if after in "\r\n\t" and not text_after:
            return False  # a control character inside an IRI (header injection), not a line break of prose
        # (outside URL contexts a line break before two words or more is one of text: captured output, a
        # message, a file's lines each ended by its line break ("https://h/valid\nnot-a-url\n"); so is a tab
        # before two words of which the first holds no delimiter, a tab-separated record
        # "url<TAB>Daily headlines", not "http://exa<TAB>mple.com/a"; ``iri_text`` has found an injection
        # already, a header-like "Name:" line after the IRI's)
        if len(words) == 2 and "\n" not in value and _STATUS_RECORD.search(value) is None:
            # (but a word that ends a sentence after a whole host or path is prose's: "http://h.de/ erreichbar.",
            # a Gutenberg marker, outside49)
            return _ends_sentence(words[0], words[1])
            # "scheme://host/blank space": one more word is a broken IRI, whatever it holds
            # (but a status after a whole path, a link checker's "https://h/docs/ 200", is a record's)
    if not url_context:
        # outside URL contexts: trailing whitespace, or "scheme://host/my file.pdf" (one inner space
        # before a word that carries IRI delimiters) is a broken IRI; anything wordier is prose
        if value[0].isspace() or len(words) > 2:
            return True
        if len(words) == 1:
            return False
        return not ("://" in words[0] and value.count(" ") == 1 and "\n" not in value
                    and _PATH_DELIM.search(words[1].rstrip(".")) is not None)
    if ("://" in words[0] or is_absolute_candidate(words[0])) and not value[0].isspace():
        return False  # a URL-named value that starts as an absolute IRI is one, spaces and all ("tel:+1 415 ...")
    if len(words) >= 4:
        return True
    # (a first word of dots alone is an ellipsis, no path segment: a dummy record's ".. url .." placeholder)
    return len(words) > 1 and (_IRI_DELIM.search(words[0]) is None or not words[0].strip(".\u2026"))


def _ends_sentence(iri: str, word: str) -> bool:
    """Whether ``word`` ends a sentence (``.``, ``!``, ``?``) after an IRI whose host or path is whole (it ends
    with ``/``, or has no path): text that names a site, not a file name with a space."""
    return word[-1] in ".!?" and (iri.endswith("/") or "/" not in iri.partition("://")[2])


# host:port with an IP host ("10.0.0.1:3128", "[::1]:8080"): an address, not an IRI (as "localhost:8080")
_IP_HOST_PORT = re.compile(r"(?:[0-9]{1,3}+(?:\.[0-9]{1,3}+){3}|\[[0-9A-Fa-f:.%]*+\]):[0-9]{1,5}+")


def is_host_port(value: str) -> bool:
    """``10.0.0.1:3128`` or ``[::1]:8080``: a socket address, not an IRI."""
    return _IP_HOST_PORT.fullmatch(value) is not None


# git's and ssh's scp-like address [user@]host:path: an '@' before the first ':' and no '/' before it,
# so no scheme (RFC 3986 sec. 3.1 allows no '@' there) and no relative reference (sec. 4.2: no ':' in
# its first segment): by the grammar it is no URI reference at all
_SCP_ADDRESS = re.compile(r"[^/:@\s]++@[^/:@\s]++:(?!//)")


def is_scp_address(value: str) -> bool:
    """``git@github.com:org/repo.git``: git's scp-like syntax for ssh, not an IRI."""
    return _SCP_ADDRESS.match(value) is not None


# fsspec's URL chains: "zip://a.csv::https://h/x.zip", "simplecache::s3://b/k" (fsspec.core's url_to_fs)
_CHAIN_LINK = re.compile(r"[A-Za-z][A-Za-z0-9+.\-_]*+://")
_CHAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*+")


def chain_links(value: str) -> list[tuple[int, int]] | None:
    """The IRI of an fsspec URL chain, links joined by ``::`` (each ``protocol://path`` or a bare ``protocol``):
    its last link, the file system's URL (``https://h/x.zip``); the others name a member of an archive or a
    cache (``zip://a.csv``), no IRIs. None when ``value`` is no chain; not one IRI: ``::`` would read as a port."""
    if "::" not in value:
        return None
    start = 0
    parts = value.split("::")
    for part in parts[:-1]:
        if not (_CHAIN_LINK.match(part) or _CHAIN_NAME.fullmatch(part)):
            return None
        start += len(part) + 2
    return [(start, len(value))] if _CHAIN_LINK.match(parts[-1]) else None


def embedded_iris(value: str) -> list[tuple[int, int]] | None:
    """The IRIs inside a notation that is no IRI itself: an fsspec chain's last link (``chain_links``), a
    Markdown link's destinations (``markdown_link``), a requirement's URL before its extras (``_EXTRAS``); None
    when ``value`` is none of them."""
    links = chain_links(value)
    if links is None and value[-1:] == "]" and (m := _EXTRAS.search(value)) is not None:
        return [(0, value.rindex("[", 0, m.end()))]
    return links if links is not None else markdown_link(value)


# a requirement with extras, as pip and Poetry take one (``poetry add "git+https://h/demo.git[foo,bar]"``,
# ``".../demo-0.1-py3-none-any.whl[extra]"``): a URL to a distribution's archive or a repository (at a revision),
# then PEP 508 extras in brackets (identifiers, or a field's placeholder), which are no part of the URL
_EXTRAS = re.compile(r"(?:\.git(?:@[\w.\-/]++)?+|\.whl|\.zip|\.tar\.gz|\.tgz|\.tar\.bz2|\.tar\.xz)"
                     r"\[(?:[A-Za-z0-9][\w.\-]*+|\{[^{}]*+\})(?:,\s*+(?:[A-Za-z0-9][\w.\-]*+|\{[^{}]*+\}))*+\]$")


def links_an_iri(value: str) -> bool:
    """A Markdown link or image, the whole text, to an absolute IRI (``"![cov](https://img.shields.io/...)"``):
    its destination is checked alone wherever the text stands, as a bare IRI is."""
    links = markdown_link(value) if value[:1] in ("[", "!") else None
    return bool(links) and any(has_scheme(value[a:b]) for a, b in links)  # type: ignore[union-attr]


def markdown_link(value: str) -> list[tuple[int, int]] | None:
    """The destinations of the Markdown inline link or image that is the whole of ``value`` (CommonMark 0.31
    sec. 6.3, 6.4): ``[text](dest)``, ``![alt](src)``, a destination in ``<...>`` or holding balanced
    parentheses, a title after it (``"..."``, ``'...'``, ``(...)``), link text that is itself an image (a
    badge, ``[![CI](src)](href)``: both). A destination with a space and no title after it is one IRI whose
    spaces are its faults. None when ``value`` is no such link. Each part is read once: linear."""
    return _link(value, 0, len(value), nested=False)


def _link(value: str, i: int, end: int, *, nested: bool) -> list[tuple[int, int]] | None:
    i += value.startswith("!", i)
    close = _closing_bracket(value, i, end)
    if close < 0 or not value.startswith("(", close + 1) or value[end - 1 : end] != ")" or close + 2 >= end:
        return None
    inner = None if nested else _link(value, i + 1, close, nested=True)  # (a badge's image)
    dest = _destination(value, close + 2, end - 1)
    return None if dest is None else [*(inner or ()), dest]


def _closing_bracket(value: str, i: int, end: int) -> int:
    """Where the ``]`` that closes the ``[`` at ``i`` is, brackets between balanced (-1: none before ``end``)."""
    if not value.startswith("[", i):
        return -1
    depth = 0
    for k in range(i, end):
        c = value[k]
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return k
        elif c == "\n":
            return -1
    return -1


_TITLES = {'"': '"', "'": "'", "(": ")"}


def _destination(value: str, a: int, b: int) -> tuple[int, int] | None:
    """The destination between a link's parentheses, ``value[a:b]``, a title after it left out; None when a
    backslash escapes a punctuation mark in it (CommonMark sec. 2.4: ``<https://h/a\\>b>`` is ``a>b``, whose
    characters are not the literal's)."""
    while a < b and value[a] in " \t":
        a += 1
    if _ESCAPE.search(value, a, b) is not None:
        return None
    if value.startswith("<", a):
        k = value.find(">", a, b)
        return None if k < 0 or "<" in value[a + 1 : k] or "\n" in value[a:k] else (a + 1, k)
    depth, k = 0, a
    while k < b and value[k] not in " \t\n":
        depth += (value[k] == "(") - (value[k] == ")")
        if depth < 0:
            return None
        k += 1
    rest = value[k:b].strip(" \t")
    if depth or k == a or "\n" in rest:
        return None
    if rest and not (len(rest) >= 2 and _TITLES.get(rest[0]) == rest[-1]):
        k = len(value[a:b].rstrip(" \t")) + a  # (no title: the spaces are the destination's)
    return a, k


_ESCAPE = re.compile(r"\\[!-/:-@\[-`{-~]")  # (a backslash before ASCII punctuation: CommonMark's escape)


# what delimits a URI in text and cannot start one (RFC 3986 app. C; Markdown's code span)
_AROUND = {"<": ">", '"': '"', "[": "]", "`": "`"}


def set_off(value: str) -> tuple[int, int] | None:
    """Where the URL is in a text that sets one off by delimiters no URI reference starts with, whitespace
    around them allowed: ``'"https://h/x"'``, ``" [https://h/x]"``, ``"`https://h/x`"`` (RFC 3986 appendix C,
    Markdown's code span); None when ``value`` is no such text. Read for a value made in code (``'"%s"' % CDN``
    at a URL-named target); a literal ``"[::1]"`` in a host's place is an IP literal, not a URL set off."""
    a = len(value) - len(value.lstrip())
    b = len(value.rstrip())
    if b - a < 3 or (close := _AROUND.get(value[a])) != value[b - 1] or \
            value.find(close, a + 1, b - 1) >= 0 or value.find(value[a], a + 1, b - 1) >= 0:
        return None  # (a delimiter inside: markup, Rich's "[link=...]text[/link]", no URL set off whole)
    return a + 1, b - 1


def is_delimited(value: str, holes: Sequence[tuple[int, int]] = ()) -> bool:
    """``<iri>`` and Clark notation ``{namespace}local`` are not IRIs themselves; with ``holes`` (a template's
    value), a namespace that is one hole is Clark's too (``"{%s}href" % XLINK_NS``), and so is one hole set off
    in text (``set_off``: ``" [%(uri)s]" % {"uri": uri}``, ``'"%s"' % url``: a URL shown)."""
    if value.startswith("<") and value.endswith(">"):
        return True
    if holes and set_off(value) in holes:
        return True
    if value.startswith("{"):
        close = value.find("}")
        return close > 0 and (":" in value[1:close] or (1, close) in holes)
    return False


def is_bare_prefix(value: str) -> bool:
    """A scheme prefix with nothing after it: ``http:``, ``https://``, ``://``."""
    v = value.strip()
    if v in ("", ":", "//", "://", "/"):
        return v != "/"
    m = SCHEME_START.match(v)
    if m is None:
        return v.startswith("://")
    rest = v[m.end() :]
    return rest in ("", "/", "//")


# ---------------------------------------------------------------- text that holds IRIs

# whitespace separates the IRIs of a text (RFC 3986 appendix C), and so do ";", "," and "|" right before
# the next "scheme://" (failover lists such as kombu's "amqp://a;amqp://b", comma-separated origins, spotdl's
# "YT_URL|SPOTIFY_URL" pairs: outside32 repro 01; '|' is no URI character, sec. 2)
_NEXT_IRI = r"[;,|](?=[A-Za-z][A-Za-z0-9+._\-]*+://)"  # ("_": Kafka listener names, SASL_SSL://)
SEPARATOR = re.compile(rf"[ \t\r\n]|{_NEXT_IRI}")
_TOKEN = re.compile(r"(?:[^ \t\r\n;,|]++|[;,|](?![A-Za-z][A-Za-z0-9+._\-]*+://))++")
_LINE = re.compile(r"[^\r\n]++")


class IriText(NamedTuple):
    """A value read as text that holds IRIs: the spans of its IRIs, or a header injection."""

    items: tuple[tuple[int, int], ...]  # empty: the value is no such text (or a list of listeners alone)
    injection: bool = False  # an IRI, a line break, then "Name:": one IRI with control characters
    listed: bool = False  # a list of IRIs and Kafka listeners: what is no item in it is no IRI


_NOT_TEXT = IriText(())
_INJECTION = IriText((), True)


def is_item(token: str) -> bool:
    """Whether a token of a list is an absolute IRI of it (not a bare prefix)."""
    return is_absolute_candidate(token) and not is_bare_prefix(token)


def _is_listener(token: str) -> bool:
    """A ``NAME://host:port`` whose name no scheme may be (``SASL_SSL://0.0.0.0:9093``, a Kafka listener): a
    member of the list, and no IRI of it."""
    m = _LISTENER.match(token)
    return m is not None and "_" in m.group(1)


_LISTENER = re.compile(r"([A-Za-z][A-Za-z0-9_]*+)://")
# HTML's image candidate string: a URL, then a width or density descriptor ("logo@2x.png 2x", "a.png 480w, ...")
_DESCRIPTOR = re.compile(r"[0-9]++(?:\.[0-9]++)?+[wx],?+")


def iri_text(value: str, holes: Sequence[tuple[int, int]] = ()) -> IriText:
    """Read ``value`` as text that holds absolute IRIs: lines of IRIs separated by whitespace (a scope
    list, a CORS origin list, captured output with its newline) or by ";" or "," before the next
    ``scheme://`` (a failover list), or the lines of tab-separated
    records whose first field is IRIs (within one line of text a tab is in the IRI:
    ``"http://h/a\\tb"``). Whitespace separates the IRIs (RFC 3986 appendix C) and is no finding. A
    line that starts with a header-like ``Name:`` right after a line of IRIs is header injection:
    the value is then one IRI whose CR/LF are reported (for every scheme). Linear: each token is
    read once. A token a template's placeholder begins (``holes``) may be one too: ``"{0}/{1}\\n"``."""
    items: list[tuple[int, int]] = []
    after_iri = listed = False
    records = "\n" in value or "\r" in value  # lines: a tab separates the fields of a record
    starts = {a: b for a, b in holes}
    for line in _LINE.finditer(value):
        lo, hi = line.span()
        tokens = [t.span() for t in _TOKEN.finditer(value, lo, hi)]
        # (a ',' or ';' before the space and the next item separates them: "http://localhost:3000, http://...";
        # trailing punctuation is no part of a URI in text, RFC 3986 appendix C)
        tokens = [(a, b - 1) if k + 1 < len(tokens) and b - a > 1 and value[b - 1] in ",;" else (a, b)
                  for k, (a, b) in enumerate(tokens)]
        if not tokens:
            after_iri = False
            continue
        tab = value.find("\t", tokens[0][0], hi) if records else -1
        field = tokens if tab < 0 else [t for t in tokens if t[1] <= tab]
        n = 0
        while n < len(tokens) and (is_item(t := value[tokens[n][0] : tokens[n][1]]) or _is_listener(t) or (
                n and _DESCRIPTOR.fullmatch(t) is not None) or _hole_led(value, tokens[n], starts)):
            n += 1  # (and a srcset's descriptor after its URL)
        if n == len(tokens) or (field and n >= len(field)):
            kept = tokens[:n] if n == len(tokens) else field  # all IRIs, or a record's first field
            items.extend(s for s in kept if not _is_listener(t := value[s[0] : s[1]]) and not _DESCRIPTOR.fullmatch(t))
            after_iri = listed = True
            continue
        if after_iri and lo > 0 and starts_header_line(value, lo - 1):  # (a field with its value, RFC 9110 sec. 5)
            return _INJECTION
        return _NOT_TEXT
    return IriText(tuple(items), listed=listed)


def _hole_led(value: str, token: tuple[int, int], holes: dict[int, int]) -> bool:
    """A token that a template's placeholder begins, then more (``{0}/{1}``, ``%s/a``, ``{badge}({url})``): the
    placeholder may hold a whole base URL, so the token may be an absolute IRI of the text, whatever follows the
    placeholder (outside70: a Markdown badge line's ``(``); a placeholder alone holds nothing to check."""
    end = holes.get(token[0])
    return end is not None and end < token[1]


_WORD_RUN = re.compile(r"\S++")


def listed_urls(text: str, name: str | None, suffixes: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """The absolute URLs of a value a plural URL name holds (``{"urls": "\\r\\n".join(urls)}``, a configured
    name's plural too), when whitespace separates more than one word: a list, each URL of it alone (RFC 3986
    appendix C), not one URL whose CR starts a header."""
    last = name.rsplit(".", 1)[-1] if name else ""
    if last[-1:].lower() != "s" or not is_url_name(last[:-1], suffixes) or SEPARATOR.search(text) is None:
        return None
    words = [m.span() for m in _WORD_RUN.finditer(text)]
    urls = [(a, b) for a, b in words if _ABSOLUTE_IRI.match(text, a)]
    return urls if len(words) > 1 and urls else None


def inner_urls(text: str) -> list[tuple[int, int]] | None:
    """The URLs a URL-named value holds in a notation of text (set off by delimiters, a Markdown link's
    destinations, an fsspec chain's last link), when it is one."""
    inner = set_off(text)
    return [inner] if inner is not None else embedded_iris(text)
