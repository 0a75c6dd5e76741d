"""Where values are used as URLs: URL APIs (through clients too), URL-named targets and returns."""

from __future__ import annotations

import ast
import os
import pathlib
import sysconfig
import textwrap
import warnings
from pathlib import Path

import pytest

from iri_lint.source.locate import SourceFile, split_lines
from iri_lint.source.marks import ScanOptions, marked_lines
from iri_lint.source.model import Reason, SourcePos
from iri_lint.source.project import Project
from iri_lint.source.urlvalues import ModuleValues, UrlValue, url_values
from iri_lint.source.values import Text


def found(src: str, **kw: object) -> list[UrlValue]:
    src = textwrap.dedent(src)
    return list(url_values(ast.parse(src), split_lines(src), **kw))  # type: ignore[arg-type]


def summary(src: str, **kw: object) -> list[tuple[int, str, str, str]]:
    """(line, reason, API or name, value with holes as 0) of each use."""
    return [(uv.node.lineno, uv.reason.value, uv.api.name if uv.api else str(uv.name), uv.value.flat())  # type: ignore[attr-defined]
            for uv in found(src, **kw)]


def at(src: str, needle: str, nth: int = 0) -> SourcePos:
    src = textwrap.dedent(src)
    i = -1
    for _ in range(nth + 1):
        i = src.index(needle, i + 1)
    return SourcePos(src.count("\n", 0, i) + 1, i - (src.rfind("\n", 0, i) + 1))


ISSUE = """\
    import requests, httpx
    from urllib.parse import urljoin
    CDN = "https://cdn.example.net"
    BASE_SLASH = "https://api.example.net/"
    LISTING = "https://shop.example/list?page=1"
    AVATAR_URL = "https://img.example/{user}/{size}.png"
    ROOT = "https://orders.example/api"
    requests.get(CDN + "/img/team photo.jpg")
    requests.get(CDN + "img/logo.png")
    requests.get(BASE_SLASH + "/health")
    requests.get(LISTING + "?sort=desc")
    requests.get(urljoin("https://h.example/api/v2", "items"))
    requests.get(AVATAR_URL)
    link = CDN + "/\\u202etxt.exe"; requests.get(link)
    name = "/exports/q3 summary.csv"; requests.get(CDN + name)
    requests.get("/".join([CDN, "x y"]))
    api = httpx.Client(base_url=ROOT); api.get("orders/x y")
"""


def test_the_issue_examples_reach_the_api_assembled() -> None:
    got = [(line, value) for line, reason, api, value in summary(ISSUE) if api == "requests.get" or "Client" in api]
    assert got == [
        (8, "https://cdn.example.net/img/team photo.jpg"),
        (9, "https://cdn.example.netimg/logo.png"),
        (10, "https://api.example.net//health"),
        (11, "https://shop.example/list?page=1?sort=desc"),
        (12, "https://h.example/api/items"),
        (13, "https://img.example/{user}/{size}.png"),
        (14, "https://cdn.example.net/\u202etxt.exe"),
        (15, "https://cdn.example.net/exports/q3 summary.csv"),
        (16, "https://cdn.example.net/x y"),
        (17, "https://orders.example/api"),  # (the client's base URL, where the client is made)
        (17, "https://orders.example/api/orders/x y"),
    ]


def test_each_character_points_at_the_literal_piece_that_holds_it() -> None:
    uses = {uv.node.lineno: uv.value for uv in found(ISSUE) if uv.api is not None}  # type: ignore[attr-defined]
    v = uses[8]
    assert v.position(v.flat().index(" "))[1] == at(ISSUE, " photo")  # type: ignore[index]
    assert v.position(0)[1] == at(ISSUE, "https://cdn")  # type: ignore[index]
    v = uses[14]
    assert v.position(v.flat().index("\u202e"))[1] == at(ISSUE, "\\u202e")  # type: ignore[index]
    v = uses[15]
    assert v.position(v.flat().index(" "))[1] == at(ISSUE, " summary")  # type: ignore[index]
    v = uses[17]
    assert v.position(v.flat().index(" "))[1] == at(ISSUE, " y\")")  # type: ignore[index]
    # the "/" httpx puts between base and path is made by the call, not spelled by a literal
    piece, _ = v.origin(len("https://orders.example/api"))  # type: ignore[misc]
    assert not piece.spelled  # type: ignore[union-attr]


def test_urljoin_arguments_are_uses_too() -> None:
    names = [(api, value) for _, _, api, value in summary(ISSUE) if "urljoin" in api]
    assert names == [("urllib.parse.urljoin", "https://h.example/api/v2"), ("urllib.parse.urljoin", "items"),
                     ("urllib.parse.urljoin", "https://h.example/api/items")]  # (the call's result: it drops v2)


def test_url_named_targets_returns_defaults_keys_and_keywords() -> None:
    src = """\
        BASE = "https://h"
        home_url = BASE + "/home"
        self_url: str = BASE
        start_urls = [BASE + "/a", "https://other"]
        def avatar_url(uid):
            return BASE + "/u/" + uid
        def f(callback_url=BASE + "/cb"):
            pass
        def resolve_url(name):
            try:
                return BASE + "/" + name
            except KeyError:
                return ""
        links = {"next_url": BASE + "/next", "title": "x"}
        make(redirect_uri=BASE + "/r")
        def g(x):
            api_url = BASE
            api_url += "/v1/" + x
    """
    assert summary(src) == [
        (2, "url-name", "home_url", "https://h/home"),
        (3, "url-name", "self_url", "https://h"),
        (4, "url-name", "start_urls", "https://h/a"),
        (4, "url-name", "start_urls", "https://other"),
        (6, "url-name", "avatar_url", "https://h/u/0"),
        (7, "url-name", "callback_url", "https://h/cb"),
        (11, "url-name", "resolve_url", "https://h/0"),
        (13, "url-name", "resolve_url", ""),
        (14, "url-name", "next_url", "https://h/next"),
        (15, "url-name", "redirect_uri", "https://h/r"),
        (17, "url-name", "api_url", "https://h"),
        (18, "url-name", "api_url", "https://h/v1/0"),
    ]


def test_clients_sessions_and_their_methods() -> None:
    src = """\
        import requests, httpx, aiohttp
        ROOT = "https://api.example/v1"
        class Service:
            def __init__(self):
                self.http = httpx.AsyncClient(base_url=ROOT)
                self.session = requests.Session()
            async def users(self, uid):
                await self.http.get(f"/users/{uid}")
                await self.http.request("GET", "items")
                self.session.post(ROOT + "/x", json={})
        async def main():
            async with aiohttp.ClientSession("https://a.example/api/") as s:
                await s.get("items/1")
                await s.get("/root")
        with httpx.Client() as c:
            c.get("relative")
    """
    got = [(line, api, value) for line, reason, api, value in summary(src) if reason == "url-api"]
    assert got == [
        (5, "httpx.AsyncClient", "https://api.example/v1"),  # (a client's base URL: parsed where it is made)
        (8, "httpx.AsyncClient().get", "https://api.example/v1/users/0"),
        (9, "httpx.AsyncClient().request", "https://api.example/v1/items"),
        (10, "requests.Session().post", "https://api.example/v1/x"),
        (12, "aiohttp.ClientSession", "https://a.example/api/"),
        (13, "aiohttp.ClientSession().get", "https://a.example/api/items/1"),
        (14, "aiohttp.ClientSession().get", "https://a.example/root"),
        (16, "httpx.Client().get", "relative"),
    ]
    client = next(uv.client for uv in found(src) if uv.node.lineno == 8)  # type: ignore[attr-defined]
    assert client is not None and client.base is not None and client.base.text == "https://api.example/v1"


def test_values_of_which_nothing_is_known_are_not_yielded() -> None:
    src = """\
        import requests
        def f(url, base_url):
            requests.get(url)
            requests.get(base_url + "/x")
            next_url = compute()
    """
    assert summary(src) == [(4, "url-api", "requests.get", "0/x")]


def test_a_loop_variable_read_in_the_body_holds_each_item_of_its_display() -> None:
    """``for path in ("/health", "ready")``, or over a name this module binds to a display: each item reaches the
    use in turn, through any join, unpacked from each item too; not a longer display, a dict's keys, a variable the
    body binds again, the variable after the loop, nor a second loop inside the first."""
    src = """\
        import requests
        BASE = "https://api.example.com"
        def probe(more):
            for path in ("/health", "ready"):
                requests.get(BASE + path)
            for path in ["/a", "/b"]:
                path = path.strip()
                requests.get(BASE + path)
            for path, _ in (("/c", 1),):
                requests.get(BASE + path)
            for page in (1, 2):
                requests.get(f"{BASE}/items?page={page}")
            for kind in [*more, "x"]:
                requests.get(BASE + kind)
            requests.get(BASE + page)
    """
    assert summary(src) == [
        (5, "url-api", "requests.get", "https://api.example.com/health"),
        (5, "url-api", "requests.get", "https://api.example.comready"),
        (8, "url-api", "requests.get", "https://api.example.com0"),
        (10, "url-api", "requests.get", "https://api.example.com/c"),  # (unpacked from each item)
        (12, "url-api", "requests.get", "https://api.example.com/items?page=1"),
        (12, "url-api", "requests.get", "https://api.example.com/items?page=2"),
        (14, "url-api", "requests.get", "https://api.example.com0"),
        (15, "url-api", "requests.get", "https://api.example.com0"),
    ]
    named = """\
        import requests
        from urllib.parse import urljoin
        BASE = "https://api.example.com/v2"
        PATHS = ("/a", "b")
        def probe():
            for path in PATHS:
                requests.get(BASE + path)
            for path in ("x.json",):
                requests.get(urljoin(BASE, path))
                requests.get("{}/{}".format(BASE, path))
            for path in {"/d": 1}:
                requests.get(BASE + path)
            for host in ("https://a.example",):
                for path in ("/x",):
                    requests.get(host + path)
    """
    assert summary(named) == [
        (7, "url-api", "requests.get", "https://api.example.com/v2/a"),
        (7, "url-api", "requests.get", "https://api.example.com/v2b"),
        (9, "url-api", "requests.get", "https://api.example.com/x.json"),  # (the join's result, and its arguments)
        (9, "url-api", "urllib.parse.urljoin", "https://api.example.com/v2"),
        (9, "url-api", "urllib.parse.urljoin", "x.json"),
        (10, "url-api", "requests.get", "https://api.example.com/v2/x.json"),
        (12, "url-api", "requests.get", "https://api.example.com/v20"),  # (a dict's keys: a hole)
        (15, "url-api", "requests.get", "https://a.example0"),  # (the first loop only)
    ]
    many = "\n".join(["import requests", "B = 'https://h.example'",
                      f"for p in ({', '.join(repr(str(i)) for i in range(17))}):", "    requests.get(B + p)"])
    assert [v.value.flat() for v in found(many)] == ["https://h.example0"]


def test_aliases_of_url_apis_and_configured_ones() -> None:
    src = """\
        from requests import get as fetch
        import urllib.request as ur
        from mylib import download
        fetch("https://h/a b")
        ur.urlopen("https://h/" + "é")
        download("x", "https://h/d")
        o = Obj(); o.link_href = "https://h/l"
    """
    got = summary(src, options=ScanOptions(extra_url_apis=("mylib.download:1",), url_names=("url", "href")))
    assert got == [
        (4, "url-api", "requests.get", "https://h/a b"),
        (5, "url-api", "urllib.request.urlopen", "https://h/é"),
        (6, "url-api", "mylib.download", "https://h/d"),
        (7, "url-name", "o.link_href", "https://h/l"),
    ]


def test_constants_from_another_module_reach_the_api(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "config.py").write_text('CDN = "https://cdn.example.net"\n')
    src = "import requests\nfrom config import CDN\nrequests.get(CDN + 'img/logo.png')\n"
    (tmp_path / "app.py").write_text(src)
    project = Project()
    (uv,) = url_values(ast.parse(src), split_lines(src), path=str(tmp_path / "app.py"), project=project)
    assert uv.value.text == "https://cdn.example.netimg/logo.png"
    src_of_cdn, pos = uv.value.position(0)  # type: ignore[misc]
    assert src_of_cdn.path == os.path.realpath(tmp_path / "config.py") and pos == SourcePos(1, 7)
    src_of_img, pos = uv.value.position(len("https://cdn.example.net"))  # type: ignore[misc]
    assert src_of_img.path == str(tmp_path / "app.py") and pos == SourcePos(3, 20)
    assert project.files_read == 1 and project.read_twice == 0


def test_uses_come_in_source_order_with_their_reason() -> None:
    src = "import requests\nrequests.get('https://a', url='https://b')\n"
    got = found(src)
    assert [(uv.reason, uv.value.text) for uv in got] == [(Reason.URL_API, "https://a"), (Reason.URL_API, "https://b")]
    # the caller's SourceFile (literals.py has one) serves as the lines
    again = list(url_values(ast.parse(src), SourceFile(split_lines(src))))
    assert [uv.value.position(0)[1] for uv in again] == [uv.value.position(0)[1] for uv in got]  # type: ignore[index]


def _stdlib_files(*packages: str) -> list[pathlib.Path]:
    root = pathlib.Path(sysconfig.get_paths()["stdlib"])
    if not packages:
        return sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)
    return sorted(p for pkg in packages for p in (root / pkg).rglob("*.py"))


def _check_files(files: list[pathlib.Path]) -> int:
    """url_values over real files with one project: no exception, every known character a literal spells
    at a source character that spells it (itself, or the backslash of its escape)."""
    project = Project()
    texts: dict[str, list[str]] = {}
    checked = 0
    for path in files:
        try:
            data = path.read_bytes()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data)
            text = data.decode("utf-8")
        except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
            continue  # deliberately broken test inputs
        for uv in url_values(tree, split_lines(text), path=str(path), project=project):
            v = uv.value
            for i in range(len(v)):
                piece, k = v.origin(i)  # type: ignore[misc]
                if not isinstance(piece, Text) or not piece.spelled or piece.src is None:
                    continue
                pos = piece.position(k)
                assert pos is not None
                name = piece.src.path or ""
                lines = texts.get(name) or texts.setdefault(name, split_lines(pathlib.Path(name).read_text("utf-8")))
                line = lines[pos.line - 1]
                ch = line[pos.col + (1 if pos.line == 1 and line.startswith("\ufeff") else 0)]
                assert ch == piece.text[k] or ch == "\\", (path, uv.node.lineno, i)  # type: ignore[attr-defined]
                checked += 1
    assert project.read_twice == 0
    return checked


def test_real_code_positions() -> None:
    assert _check_files(_stdlib_files("urllib", "http", "xmlrpc", "wsgiref", "email", "xml")) > 100


@pytest.mark.slow
def test_the_whole_standard_library() -> None:
    assert _check_files(_stdlib_files()) > 1000


def test_the_callers_marked_lines_give_the_same_uses() -> None:
    src = textwrap.dedent(ISSUE)
    lines = split_lines(src)
    marked = marked_lines(SourceFile(lines), ScanOptions())
    given = [(uv.node.lineno, uv.value.flat()) for uv in url_values(ast.parse(src), lines, marked=marked)]  # type: ignore[attr-defined]
    assert given == [(uv.node.lineno, uv.value.flat()) for uv in found(ISSUE)]  # type: ignore[attr-defined]
    # with no prefilter every statement is walked: the same again
    every = found(ISSUE, options=ScanOptions(prefilter=False))
    assert given == [(uv.node.lineno, uv.value.flat()) for uv in every]  # type: ignore[attr-defined]


def test_the_prefilter_loses_no_use_on_real_code() -> None:
    """Walking only marked statements and expressions finds what walking everything finds."""
    for path in _stdlib_files("urllib", "http", "xmlrpc", "wsgiref"):
        text = path.read_text("utf-8")
        tree = ast.parse(text)
        lines = split_lines(text)
        pruned = [(uv.node.lineno, uv.expr.col_offset, uv.value.flat()) for uv in url_values(tree, lines)]  # type: ignore[attr-defined]
        every = [(uv.node.lineno, uv.expr.col_offset, uv.value.flat())  # type: ignore[attr-defined]
                 for uv in url_values(tree, lines, options=ScanOptions(prefilter=False))]
        assert pruned == every, path


@pytest.mark.parametrize("base", ['"https://h.example/v2/"', 'httpx.URL("https://h.example/v2/")',
                                  'yarl.URL("https://h.example/v2/")'])
def test_a_client_base_url_may_be_a_url_object(base: str) -> None:
    """``base_url`` takes a string or a URL object (aiohttp's ``StrOrURL``, httpx's ``URL | str``)."""
    src = f"import httpx, yarl, aiohttp\nc = httpx.Client(base_url={base})\nc.get('items')\n" \
          f"s = aiohttp.ClientSession({base})\ns.get('users')\n"
    values = [value for line, _, _, value in summary(src) if line in (3, 5)]
    assert values == ["https://h.example/v2/items", "https://h.example/v2/users"]


def _marked(body: str) -> list[int]:
    """The lines of ``body`` marked in a module defining ``get1(url)`` (read from the lines alone: ``body`` need
    not parse)."""
    define = "def get1(url):\n    return url\n\n\n"
    return [m - 4 for m in ModuleValues(ast.parse(define), split_lines(define + body)).marked() if m > 4]


def test_a_call_is_walked_for_a_positional_join_only_where_its_arguments_may_hold_one() -> None:
    """A call of a function taking a URL-named parameter is walked when a join, an f-string or another call
    stands inside its parentheses, on its line or the next; a join before it or after it closes is not the
    call's."""
    body = ('get1(HOST + "b")\nget1(f"{a}")\nget1(mk("x"))\nget1(\n    a)\nget1(a,\n     HOST + "b")\n'
            'x = HOST + "b"; get1(x)\nget1(x) + "b"\nget1(a, (1, 2))\nget1(a); get1(b % 2)\nget1(rf"{a}")\n')
    assert _marked(body) == [1, 2, 3, 6, 11, 12]


def test_reading_a_calls_arguments_costs_linear_time() -> None:
    """A line of 100,000 unclosed calls reads at most a bounded stretch after each."""
    assert _marked("get1(" * 100_000 + "\n") == [1]
    assert _marked("get1(a)" * 100_000 + "\n") == []
