"""Which literals are candidates: real-world traps stay quiet, URL contexts are found."""

from __future__ import annotations

import ast
import textwrap

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from iri_lint.core.context import UriOnly
from iri_lint.source import candidates
from iri_lint.source.literals import ScanOptions, find_literals
from iri_lint.source.model import HOLE, Literal, Reason, UseContext
from iri_lint.source.templates import apply_templates


def scan(src: str, **opts: object) -> list[Literal]:
    src = textwrap.dedent(src)
    return list(find_literals(ast.parse(src), src.splitlines(True), options=ScanOptions(**opts)))  # type: ignore[arg-type]


NOT_CANDIDATES = [
    'logger.info("INFO: Spider opened")',
    'x = "Example: see below"',
    'p = "rdf:type"',
    'name = "admin:index"',
    'proxy = "localhost:3128"',
    'path = "C:\\\\x\\\\y"',
    't = "12:30"',
    's = "std::string"',
    'x = "http://"',
    'x = "mailto:"',
    'x = "://"',
    'if url.startswith("http://example.com/"): pass',
    'session.mount("https://", adapter)',
    'u = "http://example.com/" + path',
    'u = base + "http://x.org/"',
    'if "://" in value: pass',
    'pat = re.compile(r"https?://[^/]+/(?P<id>\\d+)")',
    'x = "^http://.*$"',
    'ns = "{http://www.w3.org/1999/xhtml}body"',
    'd = "<http://example.org/a>"',
    'msg = "see http://example.com/ for details"',
    'msg = "http://example.com/ is our homepage"',
    'x = b"http://bytes.example/"',
    'def f():\n    """Fetch http://example.com/ docs."""',
    '"http://bare.example/ string statement"',
    'x = "Note: something"',
]


@pytest.mark.parametrize("src", NOT_CANDIDATES)
def test_traps_are_not_candidates(src: str) -> None:
    assert scan("import re\n" + src) == []


def test_absolute_literals() -> None:
    lits = scan(
        """
        NS = "http://purl.org/dc/terms/"
        mail = "mailto:a@example.com"
        u = "urn:isbn:0451450523"
        custom = "x-app://open/thing"
        """
    )
    assert [(lit.value, lit.reason, lit.kind) for lit in lits] == [
        ("http://purl.org/dc/terms/", Reason.ABSOLUTE, "IRI"),
        ("mailto:a@example.com", Reason.ABSOLUTE, "IRI"),
        ("urn:isbn:0451450523", Reason.ABSOLUTE, "IRI"),
        ("x-app://open/thing", Reason.ABSOLUTE, "IRI"),
    ]


def test_url_apis_through_imports() -> None:
    lits = scan(
        """
        import requests as rq
        from urllib.request import urlopen as uo
        import urllib.parse
        import webbrowser
        rq.get("/users?id=1")
        uo("http://bücher.example/")
        urllib.parse.urljoin("http://a/b/", "../c d")
        webbrowser.open("https://docs.example/")
        s = rq.Session()
        s.post("/p a")
        with rq.Session() as sess:
            sess.request("GET", "/r")
        """
    )
    got = [(lit.value, lit.reason, lit.context, lit.api, lit.uri_only_api) for lit in lits]
    assert got == [
        ("/users?id=1", Reason.URL_API, UseContext.DEREFERENCED, "requests.get", False),
        ("http://bücher.example/", Reason.URL_API, UseContext.DEREFERENCED,
         "urllib.request.urlopen", UriOnly.BEFORE_FRAGMENT),  # (Request drops the fragment)
        ("http://a/b/", Reason.URL_API, UseContext.UNKNOWN, "urllib.parse.urljoin", False),
        ("../c d", Reason.URL_API, UseContext.UNKNOWN, "urllib.parse.urljoin", False),
        ("https://docs.example/", Reason.URL_API, UseContext.DEREFERENCED, "webbrowser.open",
         False),
        ("/p a", Reason.URL_API, UseContext.DEREFERENCED, "requests.Session().post", False),
        ("/r", Reason.URL_API, UseContext.DEREFERENCED, "requests.Session().request", False),
    ]  # fmt: skip
    # (an API with no base URL takes only absolute ones: its relative literals are checked as IRIs, IRI116)
    assert [lit.kind for lit in lits] == ["IRI", "IRI", "IRI-reference", "IRI-reference", "IRI-reference", "IRI",
                                          "IRI"]


def test_rpc_websocket_browser_and_request_builder_apis() -> None:
    """Calls whose argument is a URL beyond the HTTP clients (fixtures33's gaps): an XML-RPC server proxy,
    a WebSocket connection, a browser driver's ``get``, an httpx client's ``build_request``."""
    lits = scan(
        """
        import xmlrpc.client
        import websockets
        import httpx
        from selenium import webdriver
        from selenium.webdriver.firefox.webdriver import WebDriver
        xmlrpc.client.ServerProxy("/RPC2")
        websockets.connect(uri="/ws")
        webdriver.Firefox().get("/page")
        httpx.Client().build_request("GET", "/items")
        WebDriver().get("/live")
        """
    )
    assert [(lit.value, lit.api, lit.uri_only_api) for lit in lits] == [
        ("/RPC2", "xmlrpc.client.ServerProxy", UriOnly.AFTER_HOST), ("/ws", "websockets.connect", False),
        ("/page", "selenium.webdriver.Firefox().get", False), ("/items", "httpx.Client().build_request", False),
        ("/live", "selenium.webdriver.firefox.webdriver.WebDriver().get", False)]  # (its own module: fixtures74)


def test_redirects_by_their_own_parameter_and_module() -> None:
    """Django's ``redirect(to=...)`` (not flask's ``location=``) and its redirect classes imported from
    ``django.http.response``, where they are defined (fixtures86, repros 01 and 02)."""
    lits = scan(
        """
        from django.shortcuts import redirect
        from django.http.response import HttpResponseRedirect, HttpResponsePermanentRedirect as Moved
        import flask
        redirect(to="/a b")
        redirect(location="/b c")
        HttpResponseRedirect("/c d")
        Moved(redirect_to="/d e")
        flask.redirect(location="/e f")
        flask.redirect(to="/f g")
        """
    )
    assert [(lit.value, lit.api) for lit in lits] == [
        ("/a b", "django.shortcuts.redirect"), ("/c d", "django.http.response.HttpResponseRedirect"),
        ("/d e", "django.http.response.HttpResponsePermanentRedirect"), ("/e f", "flask.redirect")]


def test_scrapy_request_subclasses_take_a_url() -> None:
    """scrapy's FormRequest, JsonRequest and XmlRpcRequest keep Request's ``url`` parameter (fixtures112)."""
    lits = scan(
        """
        import scrapy
        from scrapy.http import JsonRequest, XmlRpcRequest
        scrapy.FormRequest("/a b", formdata={})
        JsonRequest(url="/c d")
        XmlRpcRequest("/e f")
        scrapy.Request(url="/g h")
        """
    )
    assert [(lit.value, lit.api) for lit in lits] == [
        ("/a b", "scrapy.FormRequest"), ("/c d", "scrapy.http.JsonRequest"), ("/e f", "scrapy.http.XmlRpcRequest"),
        ("/g h", "scrapy.Request")]


def test_unimported_names_are_not_apis() -> None:
    assert scan('get("/users")\nrequests.get("/x")') == []


def test_url_names() -> None:
    lits = scan(
        """
        BASE_URL = "https://api.example.com/v1/"
        self.api_url = "/relative"
        homepage_uri: str = "http://a b"
        apiHref = "#top"
        start_urls = ["http://a.example/", "/b"]
        setup(url="/x", download_url="/y")
        def f(callback_url="/cb"): pass
        d = {"homepage_url": "/home"}
        curl = "/not-a-url-name"
        link = "/too-noisy"
        url2 = "/second"
        MIRROR_URL_3 = "/third"
        oauth2 = "/not-numbered-url"
        users_url_v2 = "/versioned"
        shareUrlV2 = "/versioned-camel"
        API_URL_V2 = "/versioned-upper"
        api_v2 = "/not-a-url-name-versioned"
        nav2 = "/not-versioned"
        """
    )
    assert [lit.value for lit in lits] == [
        "https://api.example.com/v1/", "/relative", "http://a b", "#top",
        "http://a.example/", "/b", "/x", "/y", "/cb", "/home", "/second", "/third", "/versioned", "/versioned-camel",
        "/versioned-upper",
    ]  # fmt: skip
    assert {lit.reason for lit in lits} == {Reason.URL_NAME}


def test_identifier_contexts() -> None:
    lits = scan(
        """
        if x == "http://id.example/ns#": pass
        d = {"http://purl.org/dc/terms/": 1}
        ok = u in ("http://a.example/", "http://b.example/")
        from rdflib import Namespace
        EX = Namespace("http://example.org/ns#")
        """
    )
    assert [lit.context for lit in lits] == [UseContext.IDENTIFIER] * 5
    assert lits[-1].api == "rdflib.Namespace"


def test_templates() -> None:
    lits = scan(
        """
        a = "http://%s:%d/x" % (h, p)
        b = f"http://{host}:{port}/y"
        c = "http://{}:{}/z".format(h, p)
        d = "https://api.example/{+path}{?q,x}"
        e = "http://${HOST}/{{ page }}/<int:id>"
        g = "http://x/a%2Fb%s"
        """
    )
    assert [lit.value for lit in lits] == [
        f"http://{HOLE}:{HOLE}/x",
        f"http://{HOLE}:{HOLE}/y",
        f"http://{HOLE}:{HOLE}/z",
        # templates by their grammar wherever they are filled (#26): an RFC 6570 expression is a hole
        # though this module never fills it, and a <conv:route> is no parameter in an absolute IRI
        f"https://api.example/{HOLE}{HOLE}",
        f"http://{HOLE}/{HOLE}/<int:id>",
        f"http://x/a%2Fb{HOLE}",
    ]
    for lit in lits:
        for a, b in lit.holes:
            assert lit.value[a:b] == HOLE


def test_percent_template_semantics() -> None:
    t = apply_templates("http://x/100%%/%2F", percent_template=True)
    assert t.value == f"http://x/100%/{HOLE}"
    assert apply_templates("http://x/%2F%s").value == f"http://x/%2F{HOLE}"


def test_template_positions_point_at_placeholders() -> None:
    src = 'url = "http://%s/a b" % host\n'
    (lit,) = scan(src)
    assert lit.position_of is not None
    hole = lit.holes[0][0]
    pos = lit.position_of(hole)
    assert src[pos.col : pos.col + 2] == "%s"
    space = lit.value.index(" ")
    assert src[lit.position_of(space).col] == " "


def test_url_context_space_is_candidate_but_prose_is_not() -> None:
    assert [lit.value for lit in scan('requests_url = "http://a b"')] == ["http://a b"]
    assert scan('help_url = "Visit the site for more help"') == []
    # (outside45, canvasapi's tests: a dummy record's ellipsis placeholder; a relative path's space is found)
    assert scan('todo = {"html_url": ".. url ..", "a_url": "\u2026 url"}') == []
    assert [lit.value for lit in scan('d_url = "../static/a b.png"')] == ["../static/a b.png"]


def test_options() -> None:
    assert [lit.value for lit in scan('x = b"http://b.example/"', include_bytes=True)] == [
        "http://b.example/"
    ]
    src = "import mylib\nmylib.fetch('/rel')\n"
    assert scan(src) == []
    assert [lit.value for lit in scan(src, extra_url_apis=("mylib.fetch",))] == ["/rel"]
    assert [lit.value for lit in scan("endpoint = '/e'", url_names=("endpoint",))] == ["/e"]


def test_giant_implicit_concatenation_no_recursion() -> None:
    pieces = "\n".join(f'    "piece{i} "' for i in range(5000))
    src = f'x = (\n    "http://example.com/"\n{pieces}\n)\n'
    assert scan(src) == []  # prose (spaces) outside URL contexts; and no RecursionError
    src = f'url = (\n    "http://example.com/"\n{pieces.replace(" ", "")}\n)\n'
    (lit,) = scan(src)
    assert lit.position_of is not None
    assert lit.position_of(len(lit.value) - 1).line == 5002


@pytest.mark.parametrize(
    ("value", "prose"),
    [
        ("https://example.com/my file.pdf", False),
        ("https://example.com/a b/c", False),
        ("http://example.com is down", True),
        # an absolute IRI and one more word is a broken IRI, whatever the word holds (#14)
        ("http://localhost:8000 (default)", False),
        ("https://docs.example.com/en/latest/ 200", True),  # a link checker's status record (fixtures155)
        ("https://h.example/gone.html 404", True),
        ("https://h.example/report 200", False),  # ("report 200" may be a file's name)
        ("https://github.com/x/y.git master", False),
        ("http://example.org/blank space", False),
        ("see http://example.com/a b", True),
        ("http://example.com/ for details.", True),
        # CR or TAB right after the IRI is a control character in it (header injection), and so is a line break
        # before one word (w3lib's and validators' "http://exa\nmple.com"); before more, outside URL contexts,
        # it is one of text (captured output: gallery-dl's test_job.py); in one, a control character
        ("https://victim.example\r\nX-Injected: 1", False),
        ("https://example.com/\tnext", False),
        ("https://example.com/\tnext column", True),  # a tab-separated record (fixtures157)
        ("http://exa\tmple.com/a\r\nb?q=a\tb", False),  # (w3lib's: what follows the tab is the IRI's)
        ("http://exa\nmple.com/p", False),
        ("http://abc:\n\n/#", False),
        ("https://example.com\nSee also the docs", True),
        ("https://example.org/valid\nnot-a-url\n", True),  # a file's lines, each ended (outside5 repro 02)
        ("http://exa\nmple.com/p\n", True),  # (so read too: a text's lines end with their break)
        ("https://example.org/1.jpg\n| https://example.org/alt/1.jpg\n", True),
        # an IRI of a registered scheme without '//' and one more word is broken too (fixtures175 repro 03); a
        # label's first word, or one holding no delimiter, is not such an IRI
        ("mailto:orders@shop.example?subject=Refund request", False),
        ("mailto:orders@shop.example?subject=Refund request now", True),
        ("Info:Some text", True),
        ("urn:isbn:123 456", True),
        # a word that ends a sentence after a whole host or path names a site in text (outside49, gutenbergpy's
        # markers); not after a path's last segment, where a file's name may hold a space
        ("http://gutenberg.spiegel.de/ erreichbar.", True),
        ("http://gutenberg2000.de erreichbar.", True),
        ("https://example.com/see here.", False),
        ("https://example.com/docs/ manual", False),
    ],
)
def test_one_inner_space_before_a_path_word_is_a_broken_iri(value: str, prose: bool) -> None:
    from iri_lint.source.candidates import looks_like_prose

    assert looks_like_prose(value, url_context=False) is prose
    if "\n" in value:
        assert looks_like_prose(value, url_context=True) is False


@pytest.mark.parametrize(
    "src",
    [
        'm.expand(r"ssh://\\1\\2/\\3")',
        're.sub(p, r"https://\\g<host>/", s)',
        'href = " href=\\"#%s-%d\\"" % (s, i)',
        "link_url = '<a href=\"http://x/\">'",
        "SKIP = [r'http://.*?object=tx\\|', r'https://h\\.example/\\(x\\)$']",  # metacharacters escaped
    ],
)
def test_regex_templates_and_markup_are_not_iris(src: str) -> None:
    tree = ast.parse(src)
    assert list(find_literals(tree, src.splitlines(keepends=True))) == []


@pytest.mark.parametrize(
    ("value", "regex"),
    [
        ("https:\\shop.example\\path", False),  # IRI603's mistake: '\\s' is a separator, no escape
        ("https:\\\\www.example.org", False),
        ("sqlite:///C:\\dataops\\app.db", False),  # a Windows drive pasted into a database URL
        ("https:\\/\\/example\\.com", True),  # escaped slashes: a regex's
        ("localhost:\\d+", True),
        ("http://localhost:\\d+", True),
        ("C:\\data\\(?P<name>\\w+)", True),  # a drive, but a group: a regex over paths
    ],
)
def test_backslashes_of_a_scheme_or_a_drive_are_no_regex_escapes(value: str, regex: bool) -> None:
    assert candidates.looks_like_regex(value) is regex


@pytest.mark.parametrize(("value", "regex"), [
    ('mailto:help@shop.example?subject="Refund"', False), ("tel:+1-555-0100;ext='12'", False),
    ('//a[@href="x"]', True), ('input[name="q"]', True), ('Info:Some="x"', True),
])
def test_a_quote_after_an_equals_sign_in_an_opaque_iri_is_no_attribute_test(value: str, regex: bool) -> None:
    """outside71's miss: ``="`` marks an XPath or CSS attribute test, but in a registered scheme's opaque IRI it is
    a quote in the query (RFC 6068 wants it as %22: IRI102)."""
    assert candidates.looks_like_regex(value) is regex


@pytest.mark.parametrize(
    ("src", "found"),
    [
        ('login_url = "admin:login"', False),
        ('changelist_url = "admin:%s_%s_changelist" % (a, b)', False),
        ('next_url = "htps:/example.com"', True),  # typo of a common scheme: still checked
        ('api_url = "mailto:someone@example.com"', True),
    ],
)
def test_route_names_in_url_contexts(src: str, found: bool) -> None:
    tree = ast.parse(src)
    assert bool(list(find_literals(tree, src.splitlines(keepends=True)))) is found


@pytest.mark.parametrize("value", ["[a](" * 100_000, "![" + "a" * 200_000 + "](x", "[" * 200_000, "`" * 200_000])
def test_notations_are_read_in_one_pass(value: str) -> None:
    """(Possessive patterns, no nesting: a failed reading costs the text once.)"""
    assert candidates.embedded_iris(value) is None
    assert candidates.set_off(value) is None  # (a run of backticks holds its delimiter inside: no URL set off)


@pytest.mark.parametrize(
    ("src", "found"),
    [
        ('push_url = "git@github.com:%s.git" % path', False),  # git's scp-like ssh address
        ('remote_url = "deploy@host.example:/srv/repo.git"', False),
        ('requests.get("git@github.com:org/repo.git")', True),  # a URL API takes one URL: checked
        ('clone_url = "git@github.com://org/repo"', True),  # '//' after the ':': no scp address
        ('requests.get("https://")', True),  # a URL API given a bare prefix gets no URL
        ('requests.get("")', False),  # the empty reference is this document
        ('prefix_url = "https://"', False),  # a prefix to build URLs from
    ],
)
def test_what_is_no_url_but_a_url_api_takes_whole(src: str, found: bool) -> None:
    """By the grammar, an '@' before the first ':' makes no scheme and no relative reference: git's
    [user@]host:path (issue #26). What a URL API is given is one URL, whatever its shape."""
    src = f"import requests\n{src}"
    tree = ast.parse(src)
    assert bool(list(find_literals(tree, src.splitlines(keepends=True)))) is found


# -- the value tests read a long literal in C: same answers as the plain character loops ----------

_WORDS = ["http://a/b", "http://a/", "x", "a.b", "?q=1", "my", "file.pdf", "://", "@", "%", "#", "200", "/"]
_GAPS = [" ", "  ", "\n", "\t", "\u3000", "\x1c", "\u00a0", ""]
prose_like = st.lists(st.sampled_from(_WORDS + _GAPS), max_size=12).map("".join)
marker_like = st.lists(
    st.sampled_from(["\\", "d", "g", "<", "(", "?", "[", "^", "a-z", "0-9", ".", "*", "+", "]", "{",
                     ")", "=", '"', "'", "1", "x", "/", " ", "|", "$", "}"]),
    max_size=20,
).map("".join)


def ref_prose(value: str, *, url_context: bool) -> bool:
    """looks_like_prose as first written, one character at a time."""
    if not any(c.isspace() for c in value) or value[:5].lower() == "wifi:":
        return False
    words = value.split()
    if not words:
        return True
    if "://" in words[0] and not value[0].isspace():
        after = value[len(words[0])]
        text_after = not url_context and (len(words) >= 3 or value.endswith("\n")) and (
            after == "\n" or (after == "\t" and len(words) > 1 and not any(c in ":/?#=&.%@" for c in words[1])))
        if after in "\r\n\t" and not text_after:  # a control character in it
            return False
        last = words[0].rsplit("/", 1)[-1]
        status = len(words) == 2 and len(words[1]) == 3 and words[1][0] in "12345" and words[1].isdigit() and \
            value.endswith(" " + words[1]) and value.count(" ") == 1 and (words[0].endswith("/") or (
                "." in last and 1 <= len(ext := last.rsplit(".", 1)[1]) <= 5 and ext[0].isalpha()
                and ext.isascii() and ext.isalnum()))
        if len(words) == 2 and "\n" not in value and not status:  # an absolute IRI and one more word
            return False
    if not url_context:
        if value[0].isspace() or len(words) > 2:
            return True
        if len(words) == 1:
            return False
        return not ("://" in words[0] and value.count(" ") == 1 and "\n" not in value
                    and any(c in "/.?=&#%" for c in words[1].rstrip(".")))
    if "://" in words[0] and not value[0].isspace():  # a URL-named value that starts as an IRI
        return False
    if len(words) >= 4:
        return True
    return len(words) > 1 and not any(c in ":/?#=&.%@" for c in words[0])


@settings(max_examples=500, deadline=None)
@given(prose_like)
@example("http://a/b\t\n")  # (a tab, then the text's last line break: no word after the tab)
@example("http://a/\u3000 200")  # (another space before a status's: the path still ends the first word)
def test_prose_agrees_with_the_character_loop(value: str) -> None:
    for url_context in (False, True):
        assert candidates.looks_like_prose(value, url_context=url_context) is ref_prose(
            value, url_context=url_context
        )


@settings(max_examples=500, deadline=None)
@given(marker_like)
def test_regex_marker_search_is_the_marker_list(value: str) -> None:
    found = candidates._REGEX_MARKER.search(value) is not None
    assert found is any(m in value for m in candidates._REGEX_MARKERS)


def test_long_literals_are_read_once() -> None:
    long_path = "https://example.com/" + "a/" * 50_000
    assert candidates.looks_like_prose(long_path, url_context=False) is False
    assert candidates.looks_like_prose(long_path + " x.pdf", url_context=False) is False
    assert candidates.looks_like_prose("see " + long_path + " " + "w " * 50_000, url_context=True) is True
    assert candidates.looks_like_regex(long_path) is False
    assert candidates.looks_like_regex(long_path + "\\d") is True


FILLED_LATER = 'URL = "http://example.com/%s"\nprint(URL % 1)\nNAME = URL.replace("example", "x")\n'


def test_filled_names_are_found_on_first_need() -> None:
    """The names a module fills in are looked for once an assignment needs them, as the whole-tree
    pass finds them: the %-template of a literal assigned before its name is formatted is a hole."""
    (lit,) = find_literals(ast.parse(FILLED_LATER), FILLED_LATER.splitlines(keepends=True))
    assert lit.value == "http://example.com/" + HOLE


def test_a_scan_given_the_filled_names_adds_none() -> None:
    """A caller that passes in the module's filled names (the language server, one statement at a
    time) gets them used as they are: the scan neither looks for more nor adds to them."""
    from iri_lint.source.literals import Scanner
    from iri_lint.source.locate import SourceFile

    scanner = Scanner(SourceFile(FILLED_LATER.splitlines(keepends=True)), ScanOptions())
    given: dict[str, object] = {}
    scanner.filled = given  # type: ignore[assignment]
    list(scanner.run(ast.parse(FILLED_LATER)))
    assert given == {}


@pytest.mark.parametrize(
    ("value", "inner"),
    [
        ("[Code](github://org/repo/tree/main)", ["github://org/repo/tree/main"]),  # tensorflow-datasets' catalog
        ("![logo](/static/logo.png)", ["/static/logo.png"]),
        ("[Docs](https://example.com/a b)", ["https://example.com/a b"]),  # (its space: the IRI's fault)
        ("zip://a.csv::https://h/x.zip", ["https://h/x.zip"]),  # an fsspec chain's last link
        # CommonMark's other forms (fixtures121, repro 01): a badge, a title, balanced parentheses, <...>
        ("[![CI](https://ci.example/b.svg)](https://ci.example/)", ["https://ci.example/b.svg", "https://ci.example/"]),
        ('[Docs](https://h/docs "Documentation")', ["https://h/docs"]), ("[Docs](https://h/d 'T')", ["https://h/d"]),
        ("[Foo](https://en.wikipedia.org/wiki/Foo_(bar))", ["https://en.wikipedia.org/wiki/Foo_(bar)"]),
        ("[Notes](<https://h/release notes>)", ["https://h/release notes"]), ("[a [b]](https://h/)", ["https://h/"]),
        ("[Docs](https://h/(x)", None), ("[Docs] (https://h/)", None), ("[x]()", None), ("[a](b)(c)", None),
        ("https://h/a(b)", None),
        # a backslash escape (CommonMark sec. 2.4) makes the destination other text than the literal's: not read
        # (trafilatura's Markdown tests: "\\>" is ">", not a backslash in the URL); a backslash before a letter is one
        ("[t](<http://x.com/a\\>b>)", None), ("[t](http://x.com/a\\)b)", None),
        ("[t](http://x.com/a\\b)", ["http://x.com/a\\b"]),
    ],
)
def test_the_iris_inside_a_notation(value: str, inner: list[str] | None) -> None:
    spans = candidates.embedded_iris(value)
    assert (None if spans is None else [value[a:b] for a, b in spans]) == inner


@pytest.mark.parametrize(
    ("value", "inner"),
    [
        (' "https://h/x" ', "https://h/x"), ("[https://h/x]", "https://h/x"), ("`/a b`", "/a b"),
        ('"x', None), ("[]", None), ("[https://h/x)", None), ("https://h/x", None),
    ],
)
def test_a_url_set_off_in_text(value: str, inner: str | None) -> None:
    span = candidates.set_off(value)
    assert (None if span is None else value[span[0]:span[1]]) == inner



@pytest.mark.parametrize(("value", "route"), [
    ("admin:index", True), ("wagtailadmin_pages:add", True), ("shop:cart-detail", True),
    # a scheme and its absolute path, which no view name has (fixtures169 repro 01: Databricks, MLflow, Hadoop)
    ("dbfs:/mnt/raw/Q3 report.csv", False), ("models:/Fraud Detector/Production", False), ("hdfs:/a|b", False),
    ("s3://bucket/key", False),
    ("film:subtitles", True), ("tile:index", True), ("filer:index", True),  # no typos of file: (fixtures170, 02)
])
def test_a_view_name_has_no_path_after_its_colon(value: str, route: bool) -> None:
    assert bool(scan(f"login_url = {value!r}")) is not route


def test_a_loop_binds_each_item_of_a_display_to_its_name() -> None:
    """outside9 repro 02 (pyvo): ``for pat in [...]`` binds each item to a name that says pattern, as an
    assignment would: the items are no IRIs (an ADQL LIKE pattern's ``%``); a URL-named loop variable makes its
    items URL values, in a comprehension too; an iterable that is no display binds nothing."""
    lits = scan(
        """
        x = [f"LIKE '{pat}'" for pat in ["ivo://ivoa.net/std/epntap#table-2.%"]]
        for pattern in ("http://h/50%",):
            pass
        for url in ["/a b", "http://h/c"]:
            pass
        y = [u for u in ("http://h/e f",)]
        for url in make():
            pass
        """
    )
    assert [(lit.value, lit.reason) for lit in lits] == [
        ("/a b", Reason.URL_NAME), ("http://h/c", Reason.URL_NAME), ("http://h/e f", Reason.ABSOLUTE)]


def test_each_hole_led_token_of_a_text_is_a_literal_with_its_own_holes() -> None:
    """``"{0}/a {1}/b\\n"`` under a URL name: each token a placeholder begins is an IRI of the text (outside13 repro
    01), each with its own placeholder (spelled as one character); a placeholder alone is no such token."""
    lits = scan('LINES_URL = "{0}/a {1}/b\\n"\nMORE_URL = "{0}/a {1}/b {2}\\n"\n')
    assert [(lit.value, lit.holes) for lit in lits] == [
        (f"{HOLE}/a", ((0, 1),)), (f"{HOLE}/b", ((0, 1),)), (f"{HOLE}/a {HOLE}/b {HOLE}\n", ((0, 1), (4, 5), (8, 9)))]


@pytest.mark.parametrize(("value", "url"), [
    ("git+https://github.com/demo/poetry-plugin.git[foo]", "git+https://github.com/demo/poetry-plugin.git"),
    ("git+https://h.example/d.git@v1.2[a, b-c]", "git+https://h.example/d.git@v1.2"),
    ("https://files.example/demo-0.1.0-py3-none-any.whl[{extra},bar]", "https://files.example/demo-0.1.0-py3-none-any.whl"),
    ("https://h.example/d.tar.gz[x]", "https://h.example/d.tar.gz"), ("https://example.com/a[b]", None),
    ("https://h.example/x.zip[a b]", None), ("https://h.example/x.git[]", None), ("https://h.example/x.git[a]/m", None),
])
def test_a_requirement_s_url_is_what_stands_before_its_extras(value: str, url: str | None) -> None:
    """outside59 (poetry's tests) and fixtures234 #2: pip and Poetry take a URL to an archive or repository with
    PEP 508 extras after it, no part of the URL: the URL before them is the IRI, checked at its own columns (a
    space in it is still IRI101); a bracket elsewhere, or holding no identifiers, is a URL's."""
    found = candidates.embedded_iris(value)
    assert (value[found[0][0] : found[0][1]] if found else None) == url

