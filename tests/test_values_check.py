"""URL values checked as assembled (issue #27, iri_lint.values_check): the same findings from flake8 and
``iri-lint check``, at the character at fault in the piece that holds it; templates and holes silent;
one finding per cause; hostile modules degrade to holes."""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest
from flake8.main.application import Application

from iri_lint import lint, values_check
from iri_lint.cli import main
from iri_lint.config import Config
from iri_lint.fix import fix_text
from iri_lint.lint import SourceError, SourceFinding, lint_text, lint_tree
from iri_lint.source.model import SourcePos, Spelled
from iri_lint.source.project import Project
from iri_lint.source.url_apis import parse_extra_api

ROOT = Path(__file__).parent
PROJECT = ROOT / "flake8" / "fixtures" / "values_project"
EXPECT = re.compile(r"expect: ((?:IRI\d{3}:\d+[ ,]*)+)")


def _expected(path: Path) -> set[tuple[int, int, str]]:
    """The ``# expect: IRI101:29`` annotations (flake8's 1-based columns)."""
    out = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            for item in re.findall(r"IRI\d{3}:\d+", m.group(1)):
                code, col = item.split(":")
                out.add((lineno, int(col), code))
    return out


def _reported(output: str) -> dict[str, set[tuple[int, int, str]]]:
    out: dict[str, set[tuple[int, int, str]]] = {}
    for m in re.finditer(r"^(.*?):(\d+):(\d+): (IRI\d{3}) ", output, re.M):
        out.setdefault(Path(m.group(1)).name, set()).add((int(m.group(2)), int(m.group(3)), m.group(4)))
    return out


FILES = sorted((PROJECT / "shop").glob("*.py"))


def test_the_fixture_project_is_annotated() -> None:
    assert len(_expected(PROJECT / "shop" / "client.py")) == 9  # (the test below would pass on nothing)


def test_flake8_and_iri_lint_check_report_the_fixture_project_at_its_columns(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Constants in one module, requests in another, ``self.BASE``, an httpx client's base_url: every
    expected finding at its column, the templates and holes silent, both front ends alike."""
    app = Application()
    app.run(["--isolated", *map(str, FILES)])
    by_flake8 = _reported(capsys.readouterr().out)
    assert main(["check", "--no-cache", "--isolated", *map(str, FILES)]) == 1
    by_cli = _reported(capsys.readouterr().out)
    for path in FILES:
        assert by_flake8.get(path.name, set()) == _expected(path), path.name
        assert by_cli.get(path.name, set()) == _expected(path), path.name


ISSUE_CONFIG = '''CDN = "https://cdn.example.net"
BASE_SLASH = "https://api.example.com/"
LISTING = "https://shop.example/list?page=1"
AVATAR_URL = "https://cdn.example.net/{user}/{size}"
ROOT = "https://api.example.org/v1"
'''
ISSUE_APP = '''import httpx
import requests
from urllib.parse import urljoin
from config import AVATAR_URL, BASE_SLASH, CDN, LISTING, ROOT
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
'''


def test_the_ten_examples_of_the_issue_are_reported(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "config.py").write_text(ISSUE_CONFIG, encoding="utf-8")
    app = tmp_path / "app.py"
    app.write_text(ISSUE_APP, encoding="utf-8")
    project = Project()
    found = [(f.line, f.col, f.code) for f in lint_text(ISSUE_APP, Config(), path=str(app), project=project)]
    assert found == [
        (5, 29, "IRI101"),  # the space of "team photo"
        (6, 20, "IRI801"),  # "img" continues the host
        (7, 27, "IRI802"),  # the second '/'
        (8, 24, "IRI803"),  # the second '?'
        (9, 50, "IRI804"),  # "items" replaces "v2"
        (10, 13, "IRI805"),  # AVATAR_URL's template, at the use: it is spelled in config.py
        (11, 15, "IRI201"),  # the bidi override, at its escape
        (12, 19, "IRI101"),  # the space of the local constant, in its own literal
        (13, 30, "IRI101"),
        (14, 52, "IRI101"),  # through the client's base_url
    ]
    assert project.read_twice == 0 and project.files_read == 1


def test_one_finding_per_cause_and_none_for_holes_or_kept_templates() -> None:
    src = '''import requests
URL = "https://example.com/a b"
requests.get(URL)
requests.get(URL + "?x=1")
TEMPLATE_URL = "https://example.com/{id}"
kept_url = TEMPLATE_URL


def fetch(base, item):
    return requests.get(base + "/items/" + item)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(2, 28, "IRI101")]


def test_an_environment_variable_is_unknown_text() -> None:
    """``os.getenv``/``os.environ.get`` give text (the environment's or the default): a hole, so what is
    joined to it is still checked; so is an unknown library call's result joined to text by ``+`` (``str``
    joins only ``str``: the sum is text, or it raises; fixtures29, repro 01)."""
    src = '''import os
import requests
import somelib
BASE = os.getenv("BASE_URL", "https://env.example.net")
requests.get(BASE + "/a b")
requests.get(os.environ.get("B") + "/c d")
requests.get(somelib.thing() + "/e f")
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (5, 23, "IRI101"), (6, 38, "IRI101"), (7, 34, "IRI101")]


def test_the_environment_s_default_is_followed_through_an_imported_name() -> None:
    """``from os import getenv`` (``as ge`` too): the default is what the code uses when the variable is unset,
    as ``os.getenv``'s (fixtures138, repro 01); a two-argument call of another function is not followed."""
    src = '''import requests
from os import getenv
from os import getenv as ge
CDN = "https://cdn.example.net"
requests.get(getenv("API_URL", CDN + "img"))
API_URL = ge("API_URL", CDN + "img2")
def f(x, y):
    return x
C_URL = f("a", CDN + "nope")
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(5, 38, "IRI801"), (6, 31, "IRI801")]


def test_a_list_or_dict_changed_in_place_is_not_its_display() -> None:
    """``targets = []`` then ``targets.append(x)`` is no empty list (apprise's ``"/{targets}/".format(
    targets="/".join(targets))`` read as ``//``): a list grown at its end keeps its first items, one changed
    otherwise (``sort``, ``insert``, ``parts[0] = ...``, ``del``) and a dict changed at all are holes."""
    src = '''import requests
def a(ids):
    targets = []
    for i in ids:
        targets.append(i)
    return requests.get("https://h.example/{t}/?x=1".format(t="/".join(targets)))
def b(y):
    parts = ["https://h.example", "a b"]
    parts.append(y)
    requests.get("/".join(parts))
def c(y):
    parts = ["https://h.example/", ""]
    parts.insert(1, y)
    requests.get("/".join(parts))
def d(y):
    parts = ["https://h.example/", ""]
    parts[1] = y
    requests.get("/".join(parts))
def e(y):
    parts = ["https://h.example/", ""]
    del parts[1]
    requests.get("/".join(parts))
def f(y):
    q = {"t": ""}
    q.update(t=y)
    requests.get("https://h.example/{t}/x".format(**q))
def g(ids):
    kept = []
    return requests.get("https://h.example/{t}/?x=1".format(t="/".join(kept)))
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(8, 36, "IRI101"), (29, 46, "IRI802")]


def test_a_join_given_positionally_to_a_url_named_parameter_is_checked_at_the_call() -> None:
    """``with_retry(CDN + "img")`` binds ``url`` as ``with_retry(url=...)`` does (fixtures140's gap): the
    module's functions and methods through ``self``; a parameter not URL-named and a plain name are not."""
    src = '''import requests
CDN = "https://cdn.example.net"
def with_retry(url, tries=3):
    for _ in range(tries):
        return requests.get(url)
class Api:
    def pull(self, target_url):
        return requests.get(target_url)
    def run(self):
        self.pull(CDN + "img/b.png")
def go(x):
    with_retry(CDN + "img/warm.png")
    with_retry(f"{CDN}/ok.png", CDN + "notaurl")
    with_retry(x, *[CDN + "star"])
    with_retry(link("a"))
    with_retry("".join([CDN, "b"]))
def link(p):
    return CDN + p
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (10, 25, "IRI801"), (12, 22, "IRI801"), (15, 21, "IRI801"), (16, 30, "IRI801")]


def test_a_join_given_to_a_parameter_only_shown_is_a_label() -> None:
    """outside15 repro 01 (suds' test banner): ``def start(url): print("Test @ ( %s )" % (url,))`` only shows its
    ``url``; a join given to it is a label, not a URL value. A parameter also used otherwise stays one."""
    src = """import logging, requests
def start(url):
    print("Test @ ( %s )" % (url,))
def note(url):
    logging.info("fetching %s", url)
    return requests.get(url)
def add(url, out):
    out.write(url + "\\n")
URL = "http://example.com/service?wsdl"
start(URL + "  ** cloned **")
note(URL + "  ** cloned **")
add(URL + "/a b", out)
"""
    # (a stream's write is no label: a sitemap's writer writes URLs)
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(11, 12, "IRI101"), (12, 13, "IRI101")]


def test_an_example_placeholder_in_an_assembled_value_is_a_hole_as_in_a_literal() -> None:
    """jupyterhub's log scrubber: ``uri.rsplit("/", 1)[0] + "/[secret]"`` (a redaction marker as a whole path
    segment), and an all-caps port, are placeholders in a value as in one literal; ``[0]`` is no marker."""
    src = '''import requests
def scrub(uri):
    uri = uri.rsplit("/", 1)[0] + "/[secret]"
    return uri
HOST = "https://h.example"
requests.get(HOST + ":API_PORT/a")
link_url = HOST + "/a/[0]"
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(7, 22, "IRI114")]


def test_assembly_findings_have_no_fix_and_fix_leaves_the_module_alone(tmp_path: Path) -> None:
    src = 'import requests\nHOST = "https://h.example"\nrequests.get(HOST + "docs")\n'
    found = lint_text(src, Config())
    assert [f.code for f in found] == ["IRI801"] and found[0].finding.fix is None
    path = tmp_path / "m.py"
    path.write_text(src, encoding="utf-8")
    assert main(["check", "--no-cache", "--isolated", "--fix", "--unsafe-fixes", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == src


CDN = 'import requests\nCDN = "https://cdn.example.net"\n\n\ndef get(x):\n'


def _fixed(body: str) -> tuple[str, list[SourceFinding]]:
    """The module ``CDN`` + ``body`` after ``iri-lint fix --unsafe-fixes``, and its findings before."""
    src = CDN + body
    found = lint_text(src, Config())
    run = fix_text(src, lambda text: lint_text(text, Config()), unsafe=True)
    assert run.error is None and not run.unsettled
    return run.text, found


@pytest.mark.parametrize(("piece", "fixed"), [
    ('CDN + "/img/team photo.jpg"', 'CDN + "/img/team%20photo.jpg"'),
    ('CDN + "/a b" "/c d e"', 'CDN + "/a%20b" "/c%20d%20e"'),  # one literal, one finding, one fix
    ('CDN + "/a\\u0020b"', 'CDN + "/a%20b"'),  # the escape is rewritten
    ('CDN + f"/a b/{x}/c d"', 'CDN + f"/a%20b/{x}/c%20d"'),
    ('CDN + "/a b/%s" % x', 'CDN + "/a%%20b/%s" % x'),  # a % template writes its % twice
    ('CDN + "/a b/{}".format(x)', 'CDN + "/a%20b/{}".format(x)'),
    ('(CDN + "/a b/%s") % x', '(CDN + "/a%%20b/%s") % x'),  # a % template through the + around it
    ('(CDN + "/a b/{}").format(x)', '(CDN + "/a%20b/{}").format(x)'),
    ('CDN + "/q?x=" + x + "&y=a b"', 'CDN + "/q?x=" + x + "&y=a%20b"'),
])
def test_a_value_finding_is_fixed_in_the_literal_written_at_the_use(piece: str, fixed: str) -> None:
    """The fix edits the one literal of the use's expression that spells what it changes, and no other byte."""
    text, found = _fixed(f"    return requests.get({piece})\n")
    assert [f.code for f in found] == ["IRI101"] and found[0].piece_fix is not None
    assert text == CDN + f"    return requests.get({fixed})\n"
    assert lint_text(text, Config()) == []


@pytest.mark.parametrize("body", [
    '    name = "/exports/q3 summary.csv"\n    return requests.get(CDN + name)\n',  # a name: used elsewhere too?
    '    url = CDN + "/a b/{id}"\n    return requests.get(url.format(id=x))\n',  # a later .format reads "%20"
    '    return requests.get((link := CDN + "/w z"))\n',  # ``link`` takes the value elsewhere
])
def test_a_value_finding_without_one_literal_of_its_own_has_no_fix(body: str) -> None:
    text, found = _fixed(body)
    assert [f.code for f in found] == ["IRI101"]
    assert found[0].finding.fix is None and found[0].piece_fix is None
    assert text == CDN + body


def test_a_fix_that_would_make_an_empty_segment_is_not_offered() -> None:
    """A lookalike slash after a base ending in ``/``: writing ``/`` makes ``//`` (IRI802; fixtures137, repro 01),
    which the fix's rung does not prove the same path; after a base without one, the fix is the delimiter."""
    body = ('    requests.get(CDN + "/" + "\\u2215etc")\n'
            '    return requests.get(CDN + "\\u2215etc")\n')
    text, found = _fixed(body)
    assert sorted(f.code for f in found) == ["IRI504", "IRI504", "IRI801"]
    assert text == CDN + body.replace('CDN + "\\u2215etc"', 'CDN + "/etc"')


@pytest.mark.parametrize(("body", "fixed"), [
    ('    return requests.get(CDN + "/{user}/a b")\n', '    return requests.get(CDN + "/{user}/a%20b")\n'),
    ('    return requests.get(CDN + "/%s/a b")\n', '    return requests.get(CDN + "/%s/a%20b")\n'),
    ('    link_url = CDN + "/{user}/a b"\n    return link_url\n', None),  # a later .format may read "%20"
])
def test_a_value_at_a_url_api_is_fixed_with_a_placeholder_left(body: str, fixed: str | None) -> None:
    """At the API nothing fills the value any more: the piece is fixed as the literal alone would be
    (``requests.get("https://h.example/{user}/a b")``; fixtures51, repro 02), not where a fill may follow."""
    text, found = _fixed(body)
    assert sorted(f.code for f in found) == (["IRI101", "IRI805"] if fixed else ["IRI101"])
    assert text == CDN + (fixed or body)


def test_the_fixed_value_is_the_value_the_fix_promised() -> None:
    """Run the fixed code: the URL it builds is the finding's fixed value."""
    body = '    return CDN + "/a b/%s" % x + "/c d"\n'
    text, found = _fixed(body.replace("return ", "url = ") + "    return url\n")
    (f,) = [f for f in found if f.code == "IRI101"][:1]
    assert f.finding.fix is not None
    space: dict[str, object] = {}
    exec(compile(text.replace("import requests\n", ""), "m", "exec"), space)
    assert space["get"]("X") == "https://cdn.example.net/a%20b/X/c%20d"  # type: ignore[operator]


@pytest.mark.parametrize(("hole", "expected"), [
    ("quote(term)", []),
    ("quote_plus(term)", []),  # (its '+' is an encoded space)
    ('quote(term, safe="&=")', [(6, 51, "IRI806")]),  # it keeps two delimiters (fixtures80)
])
def test_a_value_quoted_with_delimiters_kept_safe_is_unencoded_there(
        hole: str, expected: list[tuple[int, int, str]]) -> None:
    src = ('from urllib.parse import quote, quote_plus\nimport requests\n\n\n'
           f'def find(term):\n    return requests.get("https://h.example/s?q=" + {hole})\n')
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.col, f.code) for f in found] == expected
    assert all("with '&' and '=' kept safe" in f.finding.message for f in found)


def test_a_hole_joined_in_a_url_named_helpers_argument_is_the_callers() -> None:
    """``api_url("search?q=" + term)``: the helper's return sees its parameter as one hole, not the ``?q=``
    before ``term``, so IRI806 is the caller's, as with a helper not URL-named (fixtures145, repro 02); an
    argument that is the hole alone is the helper's (``cancel_url(order_id)``)."""
    src = '''import requests
BASE = "https://api.example/v2/"
def build(path):
    return BASE + path
def api_url(path):
    return BASE + path
def cancel_url(order_id):
    return BASE + "cancel?id=" + order_id
def find(term, oid):
    requests.get(build("search?q=" + term))
    requests.get(api_url("search?q=" + term))
    requests.get(cancel_url(oid))
'''
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.col, f.code) for f in found] == [(8, 33, "IRI806"), (10, 37, "IRI806"), (11, 39, "IRI806")]


def test_a_name_every_binding_of_which_is_an_integer_is_digits() -> None:
    """A pagination offset (``offset = 0``, ``offset += 50`` in the loop) is a hole where it is used, but
    digits: no IRI806 (fixtures137's note); a name also bound from a parameter is any text."""
    src = '''import requests
API = "https://api.example.com/items?limit=50&offset="
def crawl():
    offset = 0
    while True:
        requests.get(API + str(offset))
        requests.get(f"{API}{offset}")
        offset += 50
def other(term):
    page = 0
    page = term
    while True:
        requests.get(f"{API}{page}")
        page += 1
'''
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.col, f.code) for f in found] == [(13, 29, "IRI806")]


def test_a_name_every_binding_of_which_is_a_literal_holds_their_characters() -> None:
    """outside38 repro 02 (finvizfinance): ``frame = "d"``, then ``"w"`` in a branch, or ``"c" if w else "l"``, holds
    no delimiter (no IRI806), through an f-string, ``.format`` and ``%``; a name also bound from a parameter is any
    text. (A second choice, ``"a&b" if w else "x"``, is checked as each text in turn, as the first is: its '&' is
    the query's, no unencoded value.)"""
    src = '''import requests
def chart(ticker, weekly, mode):
    frame = "d"
    if weekly:
        frame = "w"
    kind = "c" if weekly else "l"
    pair = "a&b" if weekly else "x"
    requests.get(f"https://h.example/chart?t={ticker}&p={frame}&k={kind}&s={pair}")
    requests.get("https://h.example/chart?p={}&k={}&m={}".format(frame, kind, mode))
    requests.get("https://h.example/chart?p=%s&k=%s" % (frame, kind))
    requests.get("https://h.example/chart?p=" + frame + "&k=" + kind)
def other(ticker, weekly, term):
    frame = "d"
    if weekly:
        frame = term
    requests.get(f"https://h.example/chart?p={frame}")
'''
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.col, f.code) for f in found] == [(8, 46, "IRI806"), (9, 78, "IRI806"), (16, 46, "IRI806")]
    assert all("without percent-encoding" in f.finding.message for f in found)


@pytest.mark.parametrize(("body", "expected"), [
    ('    return requests.get(f"{API}/users/{uid}/prefs?uid={uid}")\n', [(7, 55)]),
    ('    return requests.get(API + "/users/" + uid + "/prefs?owner=" + uid)\n', [(7, 66)]),
    ('    return requests.get(\n        f"{API}/t/{uid}/c"\n        f"?uid={uid}"\n    )\n', [(9, 16)]),
    ('    prefs_url = f"{API}/users/{uid}/prefs?uid={uid}"\n    return requests.get(prefs_url)\n', [(7, 47)]),
])
def test_a_second_hole_of_one_name_is_placed_at_its_own_name(body: str, expected: list[tuple[int, int]]) -> None:
    """``{uid}`` in the path and again after ``uid=``: IRI806 is the second's, at it (fixtures84, repro 01), and a
    URL-named binding that reports it there is not reported again where it is used (repro 02)."""
    src = f'import requests\n\nAPI = "https://n.example/v1"\n\n\ndef f(uid):\n{body}'
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.col) for f in found] == expected


def test_a_url_named_keyword_of_a_class_statement_is_a_use() -> None:
    """``class Child(Base, docs_url=...)`` hands the keyword to ``__init_subclass__`` as a call would (fixtures85,
    repro 02): its value is checked, a relative literal by every rule (no literal scan reads it)."""
    src = ('CDN = "https://cdn.example.net"\n\n\nclass Base:\n    def __init_subclass__(cls, docs_url="", **kw):\n'
           '        cls.DOCS = docs_url\n\n\nclass Child(Base, docs_url=CDN + "docs"):\n    pass\n\n\n'
           'class Child2(Base, docs_url="docs/a b"):\n    pass\n\n\nclass Child3(Base, other="docs/a b"):\n    pass\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(9, 34, "IRI801"), (13, 35, "IRI101")]


@pytest.mark.parametrize(("use", "col"), [
    ('API + "charges"', 24), ('f"{API}refunds/x"', 24), ('"/".join([API]) + "charges"', 36),
    ('"https://pay.example/v1/" + "charges"', None), ('API + "/charges"', None),
    ('"https://h.example/v" + "2"', None), ('"https://h.example/report" + ".csv"', None),
    ('"https://h.example/img_" + "large.png"', None), ('"https://h.example/circle.svg" + "zz"', None),
    ('"https://h.example/page" + "s"', None), ('"https://h.example/" + "api" + "v2"', None),
    ('API + name + "charges"', None), ('"https://h.example" + "/v1" + "?q=" + "charges"', None),
])
def test_a_word_joined_to_a_path_segment_is_opt_in(use: str, col: int | None) -> None:
    """IRI807: ``API + "charges"`` makes ``/v1charges`` (fixtures110's note); a segment spelled in parts on
    purpose (a version digit, an extension, a prefix ending in ``_``, a file name's suffix, a plural's one
    letter, a segment that is a piece of its own) is not reported, nor is a join after the path."""
    src = f'import requests\nAPI = "https://pay.example/v1"\n\n\ndef f(name):\n    requests.get({use})\n'
    assert lint_text(src, Config()) == []
    got = [(f.line, f.col, f.code) for f in lint_text(src, Config(extend_select=("IRI807",)))]
    assert got == ([] if col is None else [(6, col, "IRI807")])


def test_unencoded_holes_are_opt_in() -> None:
    src = 'import requests\n\n\ndef find(term):\n    return requests.get("https://h.example/s?q=" + term)\n'
    assert lint_text(src, Config()) == []
    got = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.col, f.code) for f in got] == [(5, 51, "IRI806")]  # at the hole's expression
    assert (got[0].end.line, got[0].end.col) == (5, 55)  # over all of it: an editor underlines `term` (fixtures39, 01)


def test_an_argument_filling_a_url_named_helper_s_parameter_is_reported_in_the_helper(tmp_path: Path) -> None:
    """``cancel_url(order_id)`` at a URL API: the helper's return is checked where it returns, its parameter a
    hole after ``order=`` there (IRI806); the argument filling it is that one problem, not one more at every call
    (fixtures110, repro 01), nor where another call of the statement read ``order_id`` first (its hole is made
    once). A helper whose name says no URL is checked only at its calls; a literal argument's own fault is the
    caller's."""
    links = ('SITE = "https://shop.example.com"\n\n\ndef cancel_url(order_id):\n'
             '    return SITE + "/cancel?order=" + order_id\n\n\ndef plain_link(order_id):\n'
             '    return SITE + "/plain?order=" + order_id\n')
    caller = ('import requests\nfrom links import cancel_url, plain_link\n\n\ndef go(order_id):\n'
              '    requests.get(cancel_url(order_id))\n    requests.get(plain_link(order_id))\n'
              '    requests.get(cancel_url("a b"))\n'
              '    return {"next_url": plain_link(order_id), "cancel_url": cancel_url(order_id)}\n')
    config = Config(extend_select=("IRI806",))
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for name, text in (("links.py", links), ("caller.py", caller)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = {name: [(f.line, f.col, f.code)
                    for f in lint_text(text, config, path=str(tmp_path / name), project=Project())]
             for name, text in (("links.py", links), ("caller.py", caller))}
    assert found == {"links.py": [(5, 37, "IRI806")],
                     "caller.py": [(7, 28, "IRI806"), (8, 30, "IRI101"), (9, 35, "IRI806")]}
    one = links + caller.replace("from links import cancel_url, plain_link\n", "")
    assert [(f.line, f.code) for f in lint_text(one, config)] == [(5, "IRI806"), (15, "IRI806"), (16, "IRI101"),
                                                                  (17, "IRI806")]


def test_an_escaped_brace_of_another_module_s_template_is_reported_where_it_is_formatted(tmp_path: Path) -> None:
    """``"https://api.example/{{literal}}/{id}"`` in one module reads as a placeholder there (it is not known
    to be ``.format``-ted); ``.format`` in another makes its ``{{literal}}`` the text ``{literal}``, a
    placeholder that reaches the URL API unfilled: reported at the name bringing it (fixtures25, repro 01),
    with the rule an f-string's ``{{literal}}`` gets. The template's own placeholders, filled, are not."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "tpl.py").write_text('ESCAPED = "https://api.example/{{literal}}/{id}"\n'
                                     'PLAIN = "https://api.example/{kind}/{id}"\n', encoding="utf-8")
    use = ('import requests\nfrom tpl import ESCAPED, PLAIN\n\n'
           'requests.get(ESCAPED.format(id=1))\nrequests.get(PLAIN.format(kind="a", id=1))\n')
    got = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in got] == [(4, 13, "IRI805")]


def test_a_percent_another_module_s_printf_template_makes_is_reported_where_it_is_filled(tmp_path: Path) -> None:
    """``RATE2 = ".../50%%%s"`` filled in another module: ``RATE2 % "zz"`` is ``.../50%zz``, a ``%`` no hex digits
    follow (RFC 3986 sec. 2.1). Its own module, seeing a placeholder right after it, cannot tell; the use can
    (fixtures25, repro 03). A ``%`` of ``%%`` its own module does report is not reported again: one no hex digits
    follow (``BAD``), or one a placeholder only precedes, which mends nothing (``RATE``: ``5%``, fixtures174
    repro 01). The fix there writes ``%25`` as the template spells a ``%``: ``%%25``."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    tpl = ('RATE = "https://s.example/rate/%d%%"\nBAD = "https://s.example/%s/50%%zz"\n'
           'RATE2 = "https://s.example/50%%%s"\nRATE3 = "https://s.example/50%%z%s"\n')
    (tmp_path / "tpl.py").write_text(tpl, encoding="utf-8")
    use = ('import requests\nfrom tpl import BAD, RATE, RATE2, RATE3\n\nrequests.get(RATE % 5)\n'
           'requests.get(BAD % "x")\nrequests.get(RATE2 % "zz")\nrequests.get(RATE3 % "x")\n')
    project = Project()
    got = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=project)
    assert [(f.line, f.col, f.code) for f in got] == [(6, 13, "IRI110")]
    there = lint_text(tpl, Config(), path=str(tmp_path / "tpl.py"), project=project)
    assert [(f.line, f.code) for f in there] == [(1, "IRI110"), (2, "IRI110"), (4, "IRI110")]
    run = fix_text(tpl, lambda t: lint_text(t, Config(), path=str(tmp_path / "tpl.py"), project=Project()),
                   unsafe=True)
    assert run.text.splitlines()[:2] == ['RATE = "https://s.example/rate/%d%%25"', 'BAD = "https://s.example/%s/50%%25zz"']


def test_an_outside_object_joined_to_text_is_a_hole() -> None:
    """``HOST + "/a b/" + os.path.basename(p)`` and ``url += args.owner`` keep their known pieces (fixtures29,
    repro 01): the object's text is unknown, the rest is still checked; two objects alone are no text."""
    src = ('import os, requests\nHOST = "https://api.example.com"\n\n\ndef f(p, args):\n'
           '    requests.get(HOST + "/a b/" + os.path.basename(p))\n'
           '    requests.get(HOST + "img" + os.path.basename(p))\n'
           '    url = HOST\n    url += "/users/"\n    url += args.owner\n    url += "/repos list"\n'
           '    requests.get(url)\n    requests.get(os.path.basename(p) + os.sep)\n')
    found = [(f.line, f.col, f.code) for f in lint_text(src, Config())]
    assert found == [(6, 27, "IRI101"), (7, 25, "IRI801"), (11, 18, "IRI101")]


def test_from_dot_import_reads_the_package_s_name_after_its_submodules(tmp_path: Path) -> None:
    """``from . import HOST`` / ``from .. import HOST`` where the package's ``__init__.py`` binds ``HOST``
    (fixtures28, repro 01); ``from . import settings`` of a submodule is that module, as before."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    pk = tmp_path / "pk"
    (pk / "sub").mkdir(parents=True)
    (pk / "__init__.py").write_text('HOST = "https://pk.example.com"\nfrom . import settings\n', encoding="utf-8")
    (pk / "settings.py").write_text('API = "https://api.example.com"\n', encoding="utf-8")
    (pk / "sub" / "__init__.py").write_text("", encoding="utf-8")
    use = ('import requests\nfrom . import HOST, settings\n\n'
           'requests.get(HOST + "docs")\nrequests.get(settings.API + "v1")\n')
    (pk / "use.py").write_text(use, encoding="utf-8")
    deep = 'import requests\nfrom .. import HOST\n\nrequests.get(HOST + "docs")\n'
    (pk / "sub" / "deep.py").write_text(deep, encoding="utf-8")
    project = Project()
    got = lint_text(use, Config(), path=str(pk / "use.py"), project=project)
    assert [(f.line, f.col, f.code) for f in got] == [(4, 21, "IRI801"), (5, 29, "IRI801")]
    got = lint_text(deep, Config(), path=str(pk / "sub" / "deep.py"), project=project)
    assert [(f.line, f.col, f.code) for f in got] == [(4, 21, "IRI801")]


def test_a_piece_its_own_module_does_not_take_for_an_iri_is_checked_at_the_use(tmp_path: Path) -> None:
    """``CREDS = "admin:Zq9xT7"`` reads like ``scheme:`` but is no IRI its module checks (no registered
    scheme): joined into a userinfo elsewhere, its password is reported at the name bringing it (fixtures30,
    repro 01); an absolute IRI constant is still reported in its own module only."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "creds.py").write_text('CREDS = "admin:Zq9xT7"\nHOME = "https://h.example/a b"\n', encoding="utf-8")
    use = ('import requests\nfrom creds import CREDS, HOME\n\n'
           'requests.get("https://" + CREDS + "@h.example/")\nrequests.get(HOME + "/x")\n')
    got = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in got] == [(4, 26, "IRI506")]


def _found_in(tmp_path: Path, siblings: dict[str, str], use: str,
              config: Config | None = None) -> list[tuple[object, ...]]:
    """(line, column, code) of what ``use``, a module of a project holding ``siblings``, is found to have."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for name, text in siblings.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = lint_text(use, config or Config(), path=str(tmp_path / "use.py"), project=Project())
    return [(f.line, f.col, f.code) for f in found]


def test_a_problem_the_join_makes_in_another_modules_piece_is_reported_at_the_use(tmp_path: Path) -> None:
    """``HEB + "abc"`` mixes directions in one segment and ``E + "\\u0301"`` is no longer NFC, though each
    constant's own module finds nothing in it: the use reports them at the name bringing the piece
    (fixtures32, repro 02). A problem the constant's module finds itself stays there."""
    siblings = {"s.py": 'HEB = "http://example.com/\u05e9\u05dc\u05d5\u05dd"\n'
                        'E = "http://example.com/cafe"\nSP = "http://example.com/a b"\n'}
    use = ('import requests\nfrom s import HEB, E, SP\n'
           'requests.get(HEB + "abc")\nrequests.get(E + "\\u0301")\nrequests.get(SP + "/c")\n')
    assert _found_in(tmp_path, siblings, use) == [(3, 13, "IRI204"), (4, 13, "IRI301")]


def test_a_configured_url_api_imported_relatively_is_the_api(tmp_path: Path) -> None:
    """``extra-url-apis = pk.http.fetch`` names the function ``from .http import fetch`` imports in ``pk/u.py``
    as ``from pk.http import fetch`` does (fixtures32, repro 03)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pk" / "http.py").write_text("def fetch(url):\n    return url\n", encoding="utf-8")
    use = ('from .http import fetch\nfrom pk.http import fetch as f2\nfrom . import http\nCDN = "https://cdn.example"\n'
           'fetch(CDN + "img")\nf2(CDN + "img")\nfetch("/a b")\nhttp.fetch("/c d")\n'
           'from .http import fetch as f3\nf3(CDN + "img")\n')  # (aliased too: fixtures40, repro 01)
    got = lint_text(use, Config(extra_url_apis=("pk.http.fetch",)), path=str(tmp_path / "pk" / "u.py"),
                    project=Project())
    assert [(f.line, f.code) for f in got] == [(5, "IRI801"), (6, "IRI801"), (7, "IRI101"), (8, "IRI101"),
                                              (10, "IRI801")]


def test_one_cause_one_finding_at_a_join_into_the_port_and_an_escaped_placeholder(tmp_path: Path) -> None:
    """``API + "443"`` makes the port 6443443: the join is the cause (IRI801), the port's range follows from it
    (no IRI602); ``"%s/items/%%s" % HOME`` leaves ``%s`` unfilled (IRI805), no malformed ``%`` too (IRI110)
    (fixtures36, repros 01 and 02)."""
    use = ('import requests\nfrom s import API\nHOME = "https://e.example"\n'
           'requests.get(API + "443")\nrequests.get("%s/items/%%s" % HOME)\n')
    found = _found_in(tmp_path, {"s.py": 'API = "https://k8s.example:6443"\n'}, use)
    assert found == [(4, 20, "IRI801"), (5, 23, "IRI805")]


def test_a_join_after_a_port_an_authority_built_from_parts_spells_is_the_ports_syntax() -> None:
    """``f"postgresql://{HOST}:{PORT}" + "warehouse"`` makes the port ``5432warehouse``: IRI801 at the joined
    piece's first letter, the join's fault however host and port were built (issue #27: "the host or port changes";
    fixtures148 repro 02 and fixtures156 asked for it; nine earlier probes, 73 to 141, annotated IRI112, as the page
    then read); a digit goes on with the port (a number still), a ``/`` ends it, and after a hole the port may be
    anything (voila's ``f"{protocol}://{ip}:{port}{base_url}voila/query"``, ``base_url`` a path: outside15)."""
    src = ('import requests\nHOST = "db.internal"\nPORT = "5432"\n'
           'requests.get(f"postgresql://{HOST}:{PORT}" + "warehouse")\n'
           'requests.get("http://" + HOST + ":" + PORT + "x")\nrequests.get("http://" + HOST + ":" + PORT + "/x")\n'
           'requests.get("http://" + HOST + ":" + PORT + "0/x")\n'
           'def f(ip, port, base):\n    return requests.get(f"ws://{ip}:{port}{base}voila/query")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(4, 46, "IRI801"), (5, 46, "IRI801")]


def test_an_amqp_urls_path_of_two_slashes_is_its_virtual_host_and_aws_is_no_typo() -> None:
    """fixtures148: ``AMQP_ROOT + "/"`` makes ``amqp://host:5672//``, the virtual host ``/`` as kombu and Celery
    write it (no IRI802; another path's ``//`` is); Airflow's ``aws://`` connection URIs are no typo of ``ws:``."""
    src = ('BASE = "amqp://guest@rabbit:5672/"\nBROKER_URL = BASE + "/"\nOTHER_URL = BASE + "/x"\n'
           'WEB_URL = "https://h.example/" + "/"\nAIRFLOW_CONN_AWS_URL = "aws://?region_name=eu-west-1"\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(3, "IRI802"), (4, "IRI802")]


def test_a_problem_the_join_makes_in_this_modules_constant_is_reported_at_each_use() -> None:
    """The same with the constants in this module: not on the constant's literal, which is right (where one
    finding would stand for every use and a noqa at a use could not silence it: fixtures35, repro 01), but at
    the name bringing it, once per use."""
    src = ('import requests\nHEB = "http://example.com/\u05e9\u05dc\u05d5\u05dd"\nBASE = "https://h.example/api"\n'
           'requests.get(HEB + "abc")\nrequests.get(HEB + "def")\nrequests.get(BASE + "/../x")\n')
    got = lint_text(src, Config(extend_select=("IRI307",)))
    assert [(f.line, f.col, f.code) for f in got] == [(4, 13, "IRI204"), (5, 13, "IRI204"), (6, 13, "IRI307")]
    # what the use's API makes of the constant (urlopen sends ASCII only) is the constant's: on its literal
    idn = 'from urllib.request import urlopen\nIDN = "https://h.example/caf\u00e9"\nurlopen(IDN + "/x")\n'
    assert [(f.line, f.col, f.code) for f in lint_text(idn, Config())] == [(2, 28, "IRI404")]


def test_a_template_given_as_a_clients_base_url_reaches_a_url_api(tmp_path: Path) -> None:
    """httpx parses ``base_url`` where the client is made: a ``{port}`` template there is sent unfilled, whether
    or not a request goes through the client here (fixtures40, repro 02)."""
    use = ('import httpx\nfrom s import LOCAL\n\n\ndef client():\n    return httpx.Client(base_url=LOCAL)\n\n\n'
           'def filled(port):\n    return httpx.Client(base_url=LOCAL.format(port=port))\n')
    assert _found_in(tmp_path, {"s.py": 'LOCAL = "http://127.0.0.1:{port}/api"\n'}, use) == [(6, 33, "IRI805")]


def test_a_helper_of_a_module_with_a_star_import_that_does_not_bind_it_is_read(tmp_path: Path) -> None:
    """A star import made every helper of its module a hole (fixtures46, repro 01): only one that may bind the
    helper's name does (a module that cannot be read may bind any)."""
    siblings = {"consts.py": 'X = "https://x.example"\n', "broken.py": "def (:\n"}
    use = ('import requests\nfrom os.path import *\nfrom consts import *\n\n\ndef h(p):\n'
           '    return "https://d.example.com" + p\n\n\nrequests.get(h("docs"))\n')
    assert _found_in(tmp_path, siblings, use) == [(10, 16, "IRI801")]
    assert _found_in(tmp_path, siblings, use.replace("from consts import *", "from broken import *")) == []


def test_an_unknown_part_of_the_host_is_shown_as_such() -> None:
    """IRI801's message shows the host a join makes with an unknown part as ``…``, not as the character the
    value is checked with (fixtures47, repro 03)."""
    src = 'import requests\nCDN = "https://cdn.example.net"\n\n\ndef f(x):\n    requests.get(CDN + "img" + x)\n'
    (f,) = lint_text(src, Config())
    assert f.finding.message.endswith("the host becomes 'cdn.example.netimg\u2026'")


def test_a_lambdas_url_named_default_is_a_use() -> None:
    """``lambda url=CDN + "img": ...`` as ``def f(url=CDN + "img")`` (fixtures47, repro 01)."""
    src = ('CDN = "https://cdn.example.net"\nf = lambda url=CDN + "img": url\n'
           'g = lambda *, url=CDN + "kw": url\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(2, 22, "IRI801"), (3, 25, "IRI801")]


# ---------------------------------------------------------------------------------------- bad input
def _lint_project(tmp_path: Path, modules: dict[str, str], main_module: str) -> list[tuple[int, str]]:
    if not (tmp_path / "pyproject.toml").exists():
        (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for name, text in modules.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    path = tmp_path / main_module
    return [(f.line, f.code) for f in lint_text(modules[main_module], Config(), path=str(path), project=Project())]


@pytest.mark.parametrize(("where", "setting"), [
    ("manage.py", 'import os\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_settings")\n'),
    ("pytest.ini", "[pytest]\nDJANGO_SETTINGS_MODULE = site_settings\n"),
    ("pyproject.toml", '[tool.pytest.ini_options]\nDJANGO_SETTINGS_MODULE = "site_settings"\n'),
])
def test_django_s_settings_are_the_module_django_settings_module_names(tmp_path: Path, where: str,
                                                                      setting: str) -> None:
    """fixtures152 repro 02: ``from django.conf import settings`` is the module DJANGO_SETTINGS_MODULE names where
    the project sets it (manage.py, pytest-django's configuration); a test's ``override_settings`` keyword binds
    its own value (a hole); a project that sets no such module leaves ``settings`` an outside object."""
    modules = {
        "site_settings.py": 'CDN_URL = "https://cdn.example.net/"\nSITE_URL = "https://www.example.org"\n',
        "views.py": ('import requests\nfrom django.conf import settings\n\n\ndef image(name):\n'
                     '    return requests.get(settings.CDN_URL + "/img/" + name)\n'),
        "tests.py": ('import requests\nfrom django.conf import settings\n'
                     'from django.test import override_settings\n\n\n'
                     '@override_settings(SITE_URL="http://testserver/")\ndef test_home():\n'
                     '    requests.get(settings.SITE_URL + "blog/")\n    requests.get(settings.CDN_URL + "/x")\n'),
    }
    assert _lint_project(tmp_path, modules, "views.py") == []  # (no DJANGO_SETTINGS_MODULE yet)
    (tmp_path / where).write_text(setting, encoding="utf-8")
    assert _lint_project(tmp_path, modules, "views.py") == [(6, "IRI802")]
    assert _lint_project(tmp_path, modules, "tests.py") == [(9, "IRI802")]


def test_django_s_settings_are_manage_py_s_when_the_tests_name_their_own(tmp_path: Path) -> None:
    """fixtures159: manage.py names the production settings and pytest.ini the tests' own: the application's
    are manage.py's (two modules named elsewhere leave ``settings`` an outside object)."""
    modules = {
        "prod_settings.py": 'CDN_URL = "https://cdn.example.net/"\n',
        "test_settings.py": "from prod_settings import *\n",
        "views.py": ('import requests\nfrom django.conf import settings\n\n\ndef image(name):\n'
                     '    return requests.get(settings.CDN_URL + "/img/" + name)\n'),
    }
    (tmp_path / "pytest.ini").write_text("[pytest]\nDJANGO_SETTINGS_MODULE = test_settings\n", encoding="utf-8")
    (tmp_path / "tox.ini").write_text("[pytest]\nDJANGO_SETTINGS_MODULE = prod_settings\n", encoding="utf-8")
    assert _lint_project(tmp_path, modules, "views.py") == []  # (two, and no manage.py to decide)
    (tmp_path / "manage.py").write_text('import os\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", '
                                        '"prod_settings")\n', encoding="utf-8")
    assert _lint_project(tmp_path, modules, "views.py") == [(6, "IRI802")]


def test_a_module_whose_only_url_is_given_to_an_imported_helper_is_read(tmp_path: Path) -> None:
    """fixtures146, repros 01 and 02: a module with no URL-like text, no URL name and no URL API, whose only use of
    a URL is a join given to a helper of another module, is read all the same (the same with ``.format`` and a
    ``"/".join``); a word "URL" in a docstring changes nothing."""
    utils = "import requests\n\n\ndef get_json(url):\n    return requests.get(url).json()\n"
    settings = 'API_ROOT = "https://api.example.com/v2/"\n'
    reports = ('from settings import API_ROOT\nfrom utils import get_json\n\n\ndef orders():\n'
               '    return get_json(API_ROOT + "/orders")\n\n\ndef fmt():\n'
               '    return get_json("{}/orders".format(API_ROOT))\n\n\ndef joined():\n'
               '    return get_json("/".join([API_ROOT, "orders"]))\n')
    modules = {"utils.py": utils, "settings.py": settings, "reports.py": reports}
    assert _lint_project(tmp_path, modules, "reports.py") == [(6, "IRI802"), (10, "IRI802"), (14, "IRI802")]
    modules["reports.py"] = '"""The URL reports."""\n' + reports
    assert _lint_project(tmp_path, modules, "reports.py") == [(7, "IRI802"), (11, "IRI802"), (15, "IRI802")]


def test_helpers_are_followed_in_every_import_style(tmp_path: Path) -> None:
    """fixtures149: a helper reached through a plain dotted import (``pkg.utils.get_json(...)``, repro 01), imported
    inside a function (repro 02), given a URL-named helper's value (``get_json(item_url("a b"))``, repro 03), or
    bound by a star import (also a submodule it re-exports, repro 04) binds its URL-named parameter as by name."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from . import utils\nfrom .utils import CDN, get_json\n\n"
                                                  "__all__ = ['utils', 'get_json', 'CDN']\n", encoding="utf-8")
    utils = ('import requests\nCDN = "https://cdn.example.com"\n\n\ndef get_json(url):\n'
             '    return requests.get(url).json()\n\n\ndef item_url(name):\n    return CDN + "/items/" + name\n')
    use = ('import pkg.utils\n\n\ndef a():\n    return pkg.utils.get_json(pkg.utils.CDN + "img.png")\n\n\n'
           'def b():\n    from pkg.utils import get_json, CDN\n    return get_json(CDN + "img.png")\n\n\n'
           'def c():\n    from pkg.utils import get_json, item_url\n    return get_json(item_url("a b"))\n')
    star = 'from pkg import *\n\n\ndef d():\n    get_json(CDN + "b.png")\n    utils.get_json(CDN + "c.png")\n'
    modules = {"pkg/utils.py": utils, "use.py": use, "star.py": star}
    assert _lint_project(tmp_path, modules, "use.py") == [(5, "IRI801"), (10, "IRI801"), (15, "IRI101")]
    assert _lint_project(tmp_path, modules, "star.py") == [(5, "IRI801"), (6, "IRI801")]


def test_a_join_given_positionally_to_a_helper_of_the_project_is_checked(tmp_path: Path) -> None:
    """A one-return helper imported from the project (``get1(HOST + "b2")``, fixtures145 repro 01; or called on
    its module, ``helpers.get1(...)``) and an
    ``async def`` of this module (repro 04) bind the URL-named parameter as the keyword does, and so does a function
    of another module whatever its body (its ``def`` says what its parameters are); a decorated function is not
    followed (its decorator may change the signature), nor a base's method of another module (repro 03), nor a
    name given positionally (only an argument that builds a value: ``x`` is checked where it is bound when its
    name says URL)."""
    h = ('import requests\nHOST = "https://api.example"\n\n\ndef get1(url):\n    return requests.get(url)\n\n\n'
         'def fetch(url, n=3):\n    for _ in range(n):\n        return requests.get(url)\n\n\n'
         'class Client:\n    def _get_abs(self, url):\n        return requests.get(url)\n\n\n'
         'def show(text):\n    print(text)\n    return text\n\n\n'
         'async def aload(url):\n    r = await requests.get(url)\n    return r\n')
    use = ('import functools\nfrom h import HOST, Client, aload, fetch, get1\n\n\nclass Sub(Client):\n'
           '    def c(self):\n        return self._get_abs(HOST + "b3")\n\n\n'
           'async def aget(url):\n    return url\n\n\n'
           'def retry(f):\n    return functools.wraps(f)(lambda *a: f(*a))\n\n\n'
           '@retry\ndef download(url):\n    return url\n\n\n'
           'def main():\n    get1(HOST + "b2")\n    fetch(HOST + "b4")\n    aget(HOST + "b5")\n'
           '    download(HOST + "b6")\n    get1(\n        HOST + "b7")\n    x = HOST + "b8"; get1(x)\n'
           '    get1(HOST + "b9", timeout=(1, 2))\n    aload(HOST + "b10")\n')
    assert _lint_project(tmp_path, {"h.py": h, "use.py": use}, "use.py") == [
        (24, "IRI801"), (25, "IRI801"), (26, "IRI801"), (29, "IRI801"), (31, "IRI801"), (32, "IRI801")]
    modules = ('import requests\nfrom . import h\nimport pkg.h as hh\n\n\ndef main():\n    h.get1(h.HOST + "b1")\n'
               '    hh.get1(hh.HOST + "b2")\n    h.fetch(h.HOST + "b3")\n    h.show(h.HOST + "b4")\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    assert _lint_project(tmp_path, {"pkg/h.py": h, "pkg/use.py": modules}, "pkg/use.py") == [
        (7, "IRI801"), (8, "IRI801"), (9, "IRI801")]
    (tmp_path / "ns").mkdir()  # (a namespace package: no __init__.py, its relative imports all the same)
    relative = 'from . import h\nfrom .h import get1, HOST\n\n\ndef main():\n    h.get1(h.HOST + "b1")\n' \
               '    get1(HOST + "b2")\n'
    assert _lint_project(tmp_path, {"ns/h.py": h, "ns/use.py": relative}, "ns/use.py") == [
        (6, "IRI801"), (7, "IRI801")]


@pytest.mark.parametrize("constant", [
    'MINIO = "http://minio.internal:9000 "',  # whitespace at an end separates there: the join puts it inside
    'MINIO = " http://minio.internal:9000"',
    'MINIO = "http://minio.internal:9000\\n"',
    'MINIO_URL = "http://minio.internal:9000 "',  # URL-named: checked where bound, but the IRI there ends before
    'MINIO = "https://mirror.example/pub/the old files"',  # prose there; one URL at the API
])
def test_what_another_module_does_not_read_as_its_iri_is_reported_at_the_use(tmp_path: Path, constant: str) -> None:
    name = constant.split()[0]
    modules = {"settings.py": constant + "\n", "app.py": f"import requests\nfrom settings import {name}\n"
                                                         f'requests.get({name} + "/health")\n'}
    assert [code for line, code in _lint_project(tmp_path, modules, "app.py") if line == 3] in (["IRI101"], ["IRI104"])
    assert _lint_project(tmp_path, modules, "settings.py") == []


@pytest.mark.parametrize("binding", [
    'A_URL = BASE + "/0 "', 'A_URL = BASE + "/0\\t"', 'A_URL = " " + BASE',
    'def a_url():\n    return BASE + "/0 "\n\n\nA_URL = a_url()',
    'f(result_url=BASE + "/0 ")\nA_URL = BASE + "/0 "',
])
def test_whitespace_a_join_leaves_at_an_end_separates_at_a_url_named_target(binding: str, tmp_path: Path) -> None:
    """At a URL-named target whitespace at an end of the value separates it from the text around, as one literal's
    does there (fixtures123, repro 01: ``A_URL = BASE + "/0 "`` had IRI101 where ``"redis://h/0 "`` had none); a
    URL API takes it into the URL: reported at the use, at the piece that spells it."""
    module = f'import requests\n\nBASE = "redis://sentinel.internal:26379"\n{binding}\n'
    assert _lint_project(tmp_path, {"m.py": module}, "m.py") == []
    used = module + "requests.get(A_URL)\n"
    assert [code for _, code in _lint_project(tmp_path, {"m.py": used}, "m.py")] in (["IRI101"], ["IRI104"])
    inside = module.replace('"/0 "', '"/0 /x"')
    if inside != module:  # a join that puts it inside a URL
        assert {code for _, code in _lint_project(tmp_path, {"m.py": inside}, "m.py")} == {"IRI101"}
    relative = module.replace("BASE +", '"/a" +').replace("{BASE}", "{x}").replace("+ BASE", '+ "/a"')
    assert _lint_project(tmp_path, {"m.py": relative}, "m.py"), "a reference's whitespace is its own, as a literal's"


def test_a_finding_placed_at_a_name_covers_the_name(tmp_path: Path) -> None:
    """An editor underlines the name that brings another module's piece, not its first character."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "c.py").write_text('IMG_DIR = "/img dir"\n', encoding="utf-8")
    text = 'import requests\nfrom c import IMG_DIR\nrequests.get(\n    "https://h.example" + IMG_DIR)\n'
    (f,) = lint_text(text, Config(), path=str(tmp_path / "a.py"), project=Project())
    assert (f.code, f.start, f.end) == ("IRI101", SourcePos(4, 26), SourcePos(4, 33))


def test_a_url_named_helpers_f_string_is_reported_where_it_returns_only(tmp_path: Path) -> None:
    """The piece of an f-string is found in the helper's own check by its place in the f-string, not by its
    offset within one of the f-string's parts (fixtures68, repro 01: reported twice)."""
    modules = {"consts.py": 'ROOT = "https://partner.example.com/api/v1"\n\n\ndef bad_item_url(sku):\n'
                            '    return f"{ROOT}/items/{sku}/a b"\n',
               "m.py": "import requests\nfrom consts import bad_item_url\n\n\ndef get(sku):\n"
                       "    return requests.get(bad_item_url(sku))\n"}
    assert _lint_project(tmp_path, modules, "consts.py") == [(5, "IRI101")]
    assert _lint_project(tmp_path, modules, "m.py") == []


@pytest.mark.parametrize(("helper", "at_base", "at_use"), [
    ('def _url(self, *parts):\n        return "/".join([self.BASE_URL, *parts])', [], [(6, "IRI802")]),
    ('def _url(self, a, b):\n        return "/".join([self.BASE_URL, a, b])', [(5, "IRI802")], []),
])
def test_a_url_named_helper_leaves_to_the_use_what_its_module_cannot_see(
        tmp_path: Path, helper: str, at_base: list[tuple[int, str]], at_use: list[tuple[int, str]]) -> None:
    """``*parts`` may be empty in the helper's module, which cannot tell a '/' is inserted; the call with two
    parts inserts it after a base ending in '/' (fixtures68, repro 02). With fixed parameters the helper's
    module sees it and reports it there, once."""
    modules = {"base.py": f'class Base:\n    BASE_URL = "https://partner.example.com/"\n\n    {helper}\n',
               "m.py": "import requests\nfrom base import Base\n\nclass Partner(Base):\n"
                       "    def parts(self, oid):\n        return requests.get(self._url('orders', oid))\n"}
    assert _lint_project(tmp_path, modules, "base.py") == at_base
    assert _lint_project(tmp_path, modules, "m.py") == at_use


def test_a_hole_a_helper_returns_is_placed_at_the_helper_s_call() -> None:
    """``clean(term)`` returns ``v.lower()``, a hole spelled in the helper: the finding goes to the call that
    brings it, as ``term.lower()`` would be placed at itself, not at the whole URL (fixtures73, repro 01)."""
    src = ('import requests\n\n\ndef clean(v):\n    return v.lower()\n\n\ndef find(term):\n'
           '    return requests.get("https://h.example/search?q=" + clean(term))\n')
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.col, f.end.col, f.code) for f in found] == [(9, 56, 67, "IRI806")]


@pytest.mark.parametrize(("line", "found"), [
    ('    for page in range(1, 10):\n        requests.get(API + "?page=" + str(page))\n', []),  # digits only
    ('    for page in range(1, 10):\n        requests.get(f"{API}?page={page}")\n', []),
    ('    for i, name in enumerate(names):\n        requests.get(API + "?i=" + str(i) + "&n=" + name)\n',
     [(8, "IRI806")]),
    ('    requests.get(f"{API}?size={size}")\n', []),  # a parameter annotated int
    ('    requests.get(f"{API}?label={label}")\n', [(7, "IRI806")]),  # annotated str: any text
    ('    for page in pages:\n        requests.get(API + "?page=" + str(page))\n', [(8, "IRI806")]),
    ('    range = lambda *a: ["a&b"]\n    for page in range(3):\n        requests.get(API + "?p=" + str(page))\n',
     [(9, "IRI806")]),  # (range rebound: not the builtin)
    ('    requests.get(API + "?rows=" + str(rows) + "&o=" + str(offset))\n', []),  # integer defaults (fixtures92)
    ('    requests.get(f"{API}?flag={flag}&tag={tag}")\n', [(7, "IRI806")] * 2),  # a bool's, a str's default
])
def test_a_loop_counter_or_an_int_parameter_holds_no_delimiter(line: str, found: list[tuple[int, str]]) -> None:
    """IRI806 is a hint on values that may hold '&', '=', '#' or '+': a counter of ``range()``, ``enumerate()``'s
    index, a parameter annotated ``int`` or with an integer default hold digits (fixtures61, 66: pagination
    loops)."""
    src = ('import requests\n\nAPI = "https://api.example.com/items"\n\n\n'
           'def get(names, pages, size: int, label: str, rows=100, *, offset=0, flag=True, tag="a"):\n' + line)
    config = Config(extend_select=("IRI806",))
    assert [(f.line, f.code) for f in lint_text(src, config)] == found


def test_a_join_made_problem_in_a_plain_constant_of_this_module_is_each_uses() -> None:
    """``NUM = "42"`` is no IRI and has no problem alone: the digits ending a right-to-left segment are the
    join's, at ``NUM`` in each use (fixtures72, repro 01); the space of ``SEG = "a b"`` is the literal's own,
    reported in it once."""
    src = ('import requests\nCDN = "https://cdn.example.net"\nHEB = "\u05e9\u05dc\u05d5\u05dd"\n'
           'ARAB = "\u0645\u0631\u062d\u0628\u0627"\nNUM = "42"\nSEG = "/a b"\n'
           'requests.get(CDN + "/" + HEB + NUM)\nrequests.get(CDN + "/" + ARAB + NUM)\n'
           'requests.get(CDN + SEG)\nrequests.get(CDN + "/x" + SEG)\n')
    found = [(f.line, f.col, f.code) for f in lint_text(src, Config())]
    assert found == [(6, 9, "IRI101"), (7, 31, "IRI205"), (8, 32, "IRI205")]


def test_a_join_fault_through_a_plain_constant_of_this_module_is_in_its_literal() -> None:
    """``REL = "simple/"`` after two hosts: the literal piece that holds the character (every assembly rule's
    page, issue #27: "points at the literal piece"), once for the one cause (fixing the literal mends both uses;
    fixtures50 and 50b expect it there, fixtures81 and 83 read design.md's per-use sentence, which is about the
    other rules' join-made problems)."""
    src = ('import requests\nHOST = "https://pypi.org"\nTEST = "https://test.pypi.org"\nREL = "simple/"\n'
           'SLASH = "/"\nBASE = HOST + "docs"\n'
           'requests.get(HOST + REL)\nrequests.get(TEST + REL)\nrequests.get(HOST + "/" + SLASH + "x")\n'
           'requests.get(BASE + "/a")\nrequests.get(BASE + "/b")\n')
    found = [(f.line, f.col, f.code) for f in lint_text(src, Config())]
    assert found == [(4, 7, "IRI801"), (5, 9, "IRI802"), (6, 15, "IRI801")]


def test_a_problem_a_join_of_this_module_makes_is_placed_at_that_join_once(tmp_path: Path) -> None:
    """``API = HOST + V1`` (both from settings; ``HOST`` ends with ``/``) makes the ``//`` every
    ``requests.get(API + "/x")`` shows: one finding, at ``V1`` in that binding (fixtures87, repro 01); a join the use
    makes with another module's piece (``ROOT + V1`` at the use) is the use's, once per use."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text('HOST = "https://users.example/"\nV1 = "/v1"\n', encoding="utf-8")
    use = ('import requests\nfrom settings import HOST, V1\n\nAPI = HOST + V1\nROOT = HOST\n\n\n'
           'def users():\n    return requests.get(API + "/users")\n\n\ndef groups():\n'
           '    return requests.get(API + "/groups")\n\n\ndef roles():\n'
           '    return requests.get(ROOT + V1 + "/roles")\n\n\n'
           'def teams():\n    return requests.get(ROOT + V1 + "/teams")\n')
    (tmp_path / "use.py").write_text(use, encoding="utf-8")
    found = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in found] == [(4, 13, "IRI802"), (17, 31, "IRI802"), (21, 31, "IRI802")]


def test_a_piece_s_own_problem_stays_at_the_use_of_a_name_bound_to_a_join(tmp_path: Path) -> None:
    """``link = BASE + TROJAN`` then ``requests.get(link)``: the RLO is wrong in ``TROJAN`` alone, no join made it;
    it stays at ``link`` in the use, the name that brings it there (fixtures58)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text('TROJAN = "/\\u202etxt.exe"\n', encoding="utf-8")
    use = ('import requests\nfrom settings import TROJAN\n\n\ndef f():\n    link = "https://h.example" + TROJAN\n'
           '    return requests.get(link)\n')
    (tmp_path / "use.py").write_text(use, encoding="utf-8")
    found = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in found] == [(7, 24, "IRI201")]


def test_a_piece_a_mapping_brings_is_placed_at_the_mapping_s_name(tmp_path: Path) -> None:
    """``USER_URL.format(**DEFAULT_USER)`` with ``DEFAULT_USER = {"user_id": "me too"}`` in settings: the space
    comes in with ``DEFAULT_USER``, on its own line where a noqa comment can silence it (fixtures91, repro 01)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text('USER_URL = "https://u.example/users/{user_id}"\n'
                                          'DEFAULT_USER = {"user_id": "me too"}\n', encoding="utf-8")
    use = ('import requests\nfrom settings import DEFAULT_USER, USER_URL\n\n\ndef f():\n    return requests.get(\n'
           '        USER_URL.format(\n            **DEFAULT_USER\n        )\n    )\n')
    (tmp_path / "use.py").write_text(use, encoding="utf-8")
    found = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in found] == [(8, 14, "IRI101")]


def test_a_number_of_another_module_formatted_is_placed_at_the_use(tmp_path: Path) -> None:
    """``%d``, ``.format`` and ``{X:d}`` of another module's ``BIG_PORT = 70000``: the digits are made at the
    argument here, not at that module's line with this file's path (fixtures83, repro 04)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text('H = "redis.internal"\nBIG_PORT = 70000\n', encoding="utf-8")
    use = ('import requests\nfrom settings import H, BIG_PORT\n\n\nB_URL = "redis://%s:%d/0" % (H, BIG_PORT)\n'
           'C_URL = "redis://{}:{}/0".format(H, BIG_PORT)\nD_URL = f"redis://{H}:{BIG_PORT:d}/0"\n'
           'requests.get("http://h:" + str(BIG_PORT) + "/x")\n')
    (tmp_path / "use.py").write_text(use, encoding="utf-8")
    found = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in found] == [(5, 32, "IRI602"), (6, 36, "IRI602"), (7, 23, "IRI602"),
                                                         (8, 31, "IRI602")]  # (at BIG_PORT in each)


def test_a_password_joined_into_the_userinfo_is_reported_where_it_is_spelled() -> None:
    """Only the join makes "s3cr3t" a password, but the secret is written in its literal, where it must go:
    there, once, not at each DSN that names it (fixtures56)."""
    src = ('import os\nDB_USER = "shop"\nDB_PASSWORD = "s3cr3t-Pa55"\nDB_HOST = os.environ.get("H", "db")\n'
           'DEV_DATABASE_URL = f"postgres://{DB_USER}:{DB_PASSWORD}@{DB_HOST}:5432/shop"\n'
           'OTHER_DATABASE_URL = f"postgres://{DB_USER}:{DB_PASSWORD}@{DB_HOST}:5433/shop"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(3, 15, "IRI506")]


def test_a_problem_a_binding_s_join_makes_stays_at_its_literal_for_the_uses_naming_it() -> None:
    """``BAD_URL = TOTAL + "%C3"``: the join that makes '%C3' an IRI's non-UTF-8 octet is the binding's, which
    reports it at the literal; ``requests.get(BAD_URL)`` only names the value (hyperlink's test_parse.py)."""
    src = ('import requests\nTOTAL = "https://h.example/#fr\u00e9g"\nBAD_URL = TOTAL + "%C3"\n'
           'requests.get(BAD_URL)\nrequests.get(BAD_URL)\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(3, 19, "IRI401")]


def test_a_client_base_with_another_modules_piece_is_reported_once(tmp_path: Path) -> None:
    """The piece a client's base_url brings is placed at its name in the base, by the constructor's check and
    by each request's alike: one finding, not a second at the base's start (fixtures72, repro 02)."""
    modules = {"consts.py": 'SNOW = "\u2603"\nZW = "a\u200bb"\n',
               "app.py": 'import httpx\nfrom consts import SNOW, ZW\n'
                         'snow = httpx.Client(base_url=f"https://{SNOW}.example")\n'
                         'invis = httpx.Client(base_url="https://h.example/" + ZW)\n\n\n'
                         'def f():\n    snow.get("/x")\n    snow.get("/y")\n    invis.get("/b")\n'}
    assert _lint_project(tmp_path, modules, "app.py") == [(3, "IRI403"), (4, "IRI505")]


@pytest.mark.parametrize(("piece", "code", "quoted"), [
    ('"https://" + sub + AR + "abc.example/"', "IRI501", "'\u2026\u0645\u062a\u062c\u0631abc'"),
])
def test_a_component_quoted_in_a_message_shows_its_holes_as_ellipses(piece: str, code: str, quoted: str) -> None:
    """Holes are checked as '0', but a message quotes them as '…' (fixtures72, repro 03)."""
    src = f'import requests\nAR = "\u0645\u062a\u062c\u0631"\n\n\ndef f(sub):\n    requests.get({piece})\n'
    (f,) = [f for f in lint_text(src, Config()) if f.code == code]
    assert quoted in f.finding.message


def test_a_fragment_a_client_appends_is_checked_though_httpx_leaves_it_out() -> None:
    """httpx drops a request's fragment, but it is written there: a template in it, or a query joined after it
    (whose parameters are lost with it), is reported as through requests.get (fixtures74, repro 02)."""
    src = ('import httpx\nB = "http://testserver/api"\napi = httpx.Client(base_url=B)\n'
           'api.get("users#{x}")\napi.get("users#top" + "?page=2")\napi.get("users#top")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(4, 15, "IRI805"), (5, 23, "IRI803")]


@pytest.mark.parametrize(("call", "found"), [
    ('T_URL.replace("{owner}", owner)', [(2, 47, "IRI805")]),  # '{repo}' still unfilled (fixtures73, repro 02)
    ('T_URL.replace("{owner}", owner).replace("{repo}", repo)', []),
    ('T_URL.replace("{owner}", owner, 1).replace("{repo}", repo)', []),
    ('T_URL.replace("{owner}", owner, n)', []),  # (a count not known: a hole)
    ('"https://h.example/a b".replace(" ", "%20")', []),
])
def test_a_template_filled_by_replace_keeps_what_is_not_filled(call: str, found: list[tuple[int, int, str]]) -> None:
    src = f'import requests\nT_URL = "https://api.example.com/repos/{{owner}}/{{repo}}"\n\n\n' \
          f'def f(owner, repo, n):\n    return requests.get({call})\n'
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == found


def test_text_a_replace_deletes_inside_a_host_joins_nothing() -> None:
    """``HOOKS.replace("\\u200b", "")`` leaves one literal's text on both sides of what it deleted: no piece is
    joined to the host there (fixtures153's extra IRI801 at ``hooks.pay|ments.example``); a word joined after
    the cleaned host still is."""
    src = ('import requests\nHOOKS = "hooks.pay\\u200bments.example"\n'
           'requests.get("https://" + HOOKS.replace("\\u200b", "") + "/v2/status")\n'
           'requests.get("https://" + HOOKS.replace("\\u200b", "") + "v2/status")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(4, "IRI801")]


def test_a_relative_literal_at_an_api_only_values_resolve_is_checked() -> None:
    """``cls.selenium = WebDriver()`` in a classmethod, then ``self.selenium.get("/log in/")``: the literal scan
    does not resolve ``self.selenium`` and never took the literal for a URL; the value check, which finds the
    API, runs every rule on it (fixtures74), and a literal the scan did check is still reported once."""
    src = ('import requests\nfrom selenium.webdriver.firefox.webdriver import WebDriver\n\n\nclass T:\n'
           '    @classmethod\n    def setUpClass(cls):\n        cls.selenium = WebDriver()\n\n'
           '    def test_login(self, base):\n        self.selenium.get("/log in/")\n'
           '        self.selenium.get(f"{base}/log in/")\n        requests.get("/a b")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (11, 31, "IRI101"), (12, 38, "IRI101"), (13, 22, "IRI116"), (13, 24, "IRI101")]  # (requests: no base)


def test_import_cycles_star_imports_and_an_unparsable_sibling_are_holes(tmp_path: Path) -> None:
    modules = {
        "a.py": 'import requests\nfrom b import B\nA = "https://a.example"\nrequests.get(B + "x y")\n',
        "b.py": 'from a import A\nB = A + "/b"\n',
        "c.py": 'from broken import X\nfrom star import *\nimport requests\nrequests.get(X + "/a b")\n'
                'requests.get(Y + "img")\n',
        "broken.py": 'X = "https://x.example"\ndef (:\n',
        "star.py": 'from c import *\nY = "https://y.example"\n',
    }
    assert _lint_project(tmp_path, modules, "a.py") == [(4, "IRI101")]  # the cycle resolves: b reads a's tree
    # X is a hole (its module does not parse): a space after it is one wherever it lands; Y is star's,
    # read through the cycle
    assert _lint_project(tmp_path, modules, "c.py") == [(4, "IRI101"), (5, "IRI801")]


@pytest.mark.parametrize(("settings", "expected"), [
    # settings/__init__.py: the base's names, then a local file's overrides (Django's settings layout)
    ({"base.py": 'API = "https://a.example"\n', "local.py": 'DEBUG = True\n'}, [(4, "IRI801")]),
    ({"base.py": 'API = "https://a.example"\n', "local.py": 'API = "https://b.example/"\n'}, []),
    ({"base.py": 'API = "https://a.example"\n', "local.py": '__all__ = ["API"]\nAPI = "https://b.example/"\n'}, []),
    ({"base.py": 'API = "https://a.example"\n', "local.py": '__all__ = ["DEBUG"]\nAPI = "https://b.example/"\n'},
     [(4, "IRI801")]),
    ({"base.py": '_API = "https://a.example"\nAPI = _API\n', "local.py": '_API = "https://b.example/"\n'},
     [(4, "IRI801")]),  # a private name is not star-imported
    ({"base.py": 'API = "https://a.example"\n', "local.py": 'def (:\n'}, []),  # may bind anything
])
def test_star_imports_of_the_project_bind_the_names_their_modules_export(
        tmp_path: Path, settings: dict[str, str], expected: list[tuple[int, str]]) -> None:
    (tmp_path / "settings").mkdir()
    modules = {"settings/__init__.py": "from .base import *\nfrom .local import *\n",
               **{f"settings/{k}": v for k, v in settings.items()},
               "app.py": "import requests\nfrom os.path import *\nfrom settings import API\nrequests.get(API + 'v1')\n"}
    assert _lint_project(tmp_path, modules, "app.py") == expected


def test_a_star_import_of_a_module_with_an_all_it_cannot_read_makes_holes(tmp_path: Path) -> None:
    """``__all__ = ["A"] + ["B"]`` (no one list of strings): each public name may be exported or not, so the
    star import makes it a hole, the importer's own ``C`` too, never the module's value (fixtures28, repro 04);
    a readable ``__all__`` binds what it lists, as before."""
    exported = ('__all__ = ["A"] + ["B"]\nA = "https://a.example.com/"\nB = "https://b.example.com/"\n'
                'C = "https://c.example.com"\n')
    listed = '__all__ = ["C"]\nC = "https://c.example.com"\n'
    use = 'import requests\nC = "https://importer.example.com/"\nfrom exported import *\nrequests.get(C + "x")\n'
    assert _lint_project(tmp_path, {"exported.py": exported, "use.py": use}, "use.py") == []
    use2 = use.replace("from exported import *", "from listed import *")
    assert _lint_project(tmp_path, {"listed.py": listed, "use2.py": use2}, "use2.py") == [(4, "IRI801")]


def test_a_comprehension_in_a_class_body_does_not_see_the_class_s_names() -> None:
    """A comprehension's scope skips the class body it stands in (Python's name resolution): ``PREFIX`` inside
    it is the module's, beside it the class's (fixtures28, repro 02)."""
    src = ('import requests\nPREFIX = "https://m.example.com/"\n\n\nclass Api:\n    PREFIX = "https://cc.example.com"\n'
           '    PAGES = [requests.get(PREFIX + "p") for _ in range(3)]\n    FIRST = requests.get(PREFIX + "first")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(8, 35, "IRI801")]


def _chain_module(n: int) -> tuple[ast.Module, list[str]]:
    """``requests.get("https://h.example/" + 'a' + ... + "x y")`` with ``n`` terms of ``'a'``, as a tree
    built by hand (``ast.parse`` itself gives up near 3,000 terms, with a clear error of ours)."""
    line = 'requests.get("https://h.example/" + ' + " + ".join(["'a'"] * n) + ' + "x y")\n'
    pieces = [ast.Constant(value=m.group()[1:-1], lineno=2, col_offset=m.start(), end_lineno=2,
                           end_col_offset=m.end()) for m in re.finditer(r"\"[^\"]*\"|'a'", line)]
    chain: ast.expr = pieces[0]
    for right in pieces[1:]:
        chain = ast.BinOp(left=chain, op=ast.Add(), right=right, lineno=2, col_offset=pieces[0].col_offset,
                          end_lineno=2, end_col_offset=right.end_col_offset)
    func = ast.Attribute(value=ast.Name(id="requests", ctx=ast.Load(), lineno=2, col_offset=0, end_lineno=2,
                                        end_col_offset=8), attr="get", ctx=ast.Load(), lineno=2, col_offset=0,
                         end_lineno=2, end_col_offset=12)
    call = ast.Call(func=func, args=[chain], keywords=[], lineno=2, col_offset=0, end_lineno=2,
                    end_col_offset=len(line) - 1)
    tree = ast.Module(body=[ast.parse("import requests").body[0],
                            ast.Expr(value=call, lineno=2, col_offset=0, end_lineno=2, end_col_offset=len(line) - 1)],
                      type_ignores=[])
    return tree, ["import requests\n", line]


def test_ten_thousand_terms_and_a_huge_constant_degrade_to_holes() -> None:
    """No recursion error and no blow-up (the time is measured in benchmarks/values_bench.py): the chain
    of ``+`` is flattened, and a value past ``MAX_TEXT`` characters is a hole."""
    tree, lines = _chain_module(10_000)
    found = [(f.line, f.col, f.code) for f in lint_tree(tree, lines, Config())]
    assert found == [(2, len(lines[1]) - 5, "IRI101")]  # the space of "x y", past the 10,000 terms
    src = 'import requests\nHUGE = "https://h.example/' + "a" * 2_000_000 + '"\nrequests.get(HUGE + HUGE + "/b c")\n'
    found = [(f.line, f.col, f.code) for f in lint_text(src, Config())]
    assert found == [(3, 30, "IRI101")]  # HUGE is past the limit: a hole, and what is joined after it is known
    with pytest.raises(SourceError, match="cannot parse file"):  # Python's parser gives up first
        lint_text("url = " + " + ".join(["'a'"] * 10_000) + "\n", Config())


@pytest.mark.parametrize("n", [250, 300, 400, 1000, 2000])
def test_a_spent_budget_keeps_the_text_the_use_spells(n: int) -> None:
    """A run of ``url += "/a"``, each followed by a request, spends the module's budget; the last use still
    checks the text its own statement spells, whatever the run's length (fixtures24, repro 02: from 300 to
    1,000 the use was cut whole, and its ``" "`` went unreported)."""
    src = ('import requests\n\n\ndef f():\n    url = "https://x.example"\n'
           + '    url += "/a"\n    requests.get(url)\n' * n + '    requests.get(url + "/b c")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(2 * n + 6, 26, "IRI101")]


def test_values_that_are_no_url_or_built_on_purpose_are_quiet() -> None:
    """From the corpus: an IPv6 host put between brackets, a regex assembled with ``%`` into a URL-named
    name, a fragment that holds a '?' of its own, a sub-domain joined to its domain."""
    src = '''import requests
ipv6 = "2001:db8::1"
requests.get("https://[" + ipv6 + "]")
URI = r"^(?: %(scheme)s : %(rest)s (?: \\\\? %(query)s )? )$" % locals()
fragment = "/path" + "?" + "q=1"
requests.get("https://h.example/p?a=1#%s" % fragment)
requests.get("https://api." + "example.com/v1")
'''
    assert lint_text(src, Config()) == []


def test_a_name_that_says_template_holds_a_template() -> None:
    """Item 5 of issue #27: ``*_template``, ``*_tmpl``, ``*_fmt``, ``*_pattern`` name templates, whatever
    their placeholders look like; only the assembly rules read such a value."""
    src = '''import requests
ITEM_URL_TEMPLATE = "https://x.example/[org]/items/"
link_fmt = "https://x.example/[org]/a|b"
requests.get(ITEM_URL_TEMPLATE)
requests.get(ITEM_URL_TEMPLATE + "/3")
link_fmt = "https://x.example/a|b/%s"
requests.get(link_fmt % "x")
'''
    # once filled, what is left of the template's text is the URL's own: its '|' (fixtures12)
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(5, "IRI802"), (6, "IRI103")]


def test_pat_says_template_only_as_the_name_s_last_word() -> None:
    """fixtures215 A3: ``link_pat`` is a pattern, but ``PAT_URL`` a URL (a personal access token's, in GitHub's
    words): its space is checked (IRI101); ``URL_PAT``'s is not."""
    src = '''import requests
PAT_URL = "https://api.example.com/tokens/a b"
URL_PAT = "https://api.example.com/tokens/a b"
requests.get(PAT_URL)
requests.get(URL_PAT)
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(2, "IRI101")]


def test_a_known_string_quoted_or_padded_by_its_field_is_the_url_s_text() -> None:
    """fixtures215 A1: ``{name!r}``, ``{name:>6}``, ``"%-6s"``, ``%r`` and f-string fields print a known string with
    quotes or padding that the request sends: the space it then holds is IRI101 (at the argument that made it);
    a precision that cuts it off, and quotes or padding that add no space, are no fault."""
    src = '''import requests
API = "https://api.example.com"
NAME_URL = "https://api.example.com/names/{name!r}/card"
requests.get(NAME_URL.format(name="Ann Lee"))
requests.get("https://api.example.com/u/%-5s/y" % "ab")
requests.get(API + "/u/{name:>6}/x".format(name="ab"))
requests.get(API + "/u/%r/x" % "a b")
requests.get(f"{API}/u/{'a b'!r}/x")
requests.get(f"{API}/u/{'ab':>4}/x")
requests.get(f"{API}/u/{'ab'!r}/x")
requests.get("{}/u/{name:.2}/x".format(API, name="abc def"))
requests.get(f"{API}/u/{'ab':>{3}}/x")
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (4, 34, "IRI101"), (5, 50, "IRI101"), (6, 48, "IRI101"), (7, 31, "IRI101"), (8, 24, "IRI101"),
        (9, 24, "IRI101")]


def test_messages_give_only_the_cure_that_applies() -> None:
    """fixtures216's notes: IRI804 against a base whose path ends with '/' asks only to drop the leading '/' (its
    base keeps the path already); IRI404 on a bidi control asks to remove it, which its mapping would keep."""
    src = '''from urllib.parse import urljoin
from urllib.request import urlopen
import requests
requests.get(urljoin("https://h.example/v2/", "/x"))
requests.get(urljoin("https://h.example/v2", "/x"))
urlopen("https://h.example/files/\\u202etxt.exe")
'''
    got = {(f.line, f.code): f.finding.message for f in lint_text(src, Config())}
    assert got[(4, "IRI804")].endswith("drop the leading '/' to keep it")
    assert got[(5, "IRI804")].endswith("drop the leading '/' and end the base with '/' to keep it")
    assert "remove it" in got[(6, "IRI404")] and "mapped" not in got[(6, "IRI404")]


def test_two_conditional_expressions_in_one_join_are_checked_pair_by_pair() -> None:
    """fixtures213's documented limit: ``HOST + ("/v3" if a else "/v4") + ("?x=1" if new else "&y=2")`` is IRI809
    where the second takes its '&' branch; a module name that a branch binds to ``None`` keeps its text's way."""
    src = '''import requests
HOST = "https://h.example"
X = None
if HOST:
    X = "https://x.example"
def f(a, new):
    requests.get(HOST + ("/v3" if a else "/v4") + ("?x=1" if new else "&y=2"))
    requests.get(HOST + ("/v3" if a else "v4") + ("?x=1" if new else "?y=2"))
    requests.get(X + "docs")
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (7, 71, "IRI809"), (8, 42, "IRI801"), (9, 22, "IRI801")]


def test_a_url_named_lambda_s_body_and_a_field_s_default_are_the_target_s_value() -> None:
    """fixtures217 repros 1, 2: ``img_url = lambda: CDN + "img"`` is a URL-named function's return (IRI801), its
    parameters holes (one named as a module constant hides it); ``field(default=...)`` and
    ``field(default_factory=lambda: ...)`` are the field's value, as a plain default is."""
    src = '''from dataclasses import dataclass, field
CDN_HOST = "https://cdn.example.net"
img_url = lambda: CDN_HOST + "img"
logo_url = lambda name: CDN_HOST + "img/" + name
page_url = lambda CDN_HOST: CDN_HOST + "img"
@dataclass
class Site:
    docs_url: str = field(default=CDN_HOST + "docs")
    blog_url: str = field(default_factory=lambda: CDN_HOST + "blog")
    home_url: str = CDN_HOST + "home"
    count: int = field(default=0)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (3, 30, "IRI801"), (4, 36, "IRI801"), (8, 46, "IRI801"), (9, 62, "IRI801"), (10, 32, "IRI801")]


def test_quote_of_a_known_bidi_control_keeps_its_octets() -> None:
    """fixtures219 repro 1: ``quote(RLO_NAME)`` sends ``%E2%80%AE``, the encoded control IRI203 names (at the call
    that makes it); quoted spaces and letters are no fault."""
    src = '''import requests
from urllib.parse import quote, quote_plus
API = "https://api.example.com"
RLO_NAME = "\\u202egpj.exe"
requests.get(API + "/" + quote(RLO_NAME))
requests.get(API + "/" + quote("a b/\\u00fc"))
requests.get(API + "?q=" + quote_plus("a b&c"))
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(5, 25, "IRI203")]


def test_a_message_quotes_a_hole_as_an_ellipsis_not_as_what_it_is_checked_as() -> None:
    """outside55's side note: IRI802's network-path message quoted the host as '0', the character a hole is
    checked as; the code holds no '0'."""
    src = '''def get(api, path):
    url = '/'
    if api == 'public':
        url += 'v1'
    url += '/' + path
    return {'url': url}
'''
    (f,) = lint_text(src, Config())
    assert f.code == "IRI802" and "'\u2026' is now read as a host" in f.finding.message


def test_iri803_quotes_the_text_around_the_earlier_question_mark_or_hash() -> None:
    """fixtures228's note: IRI803 said only "a piece before it holds a '?'", even when that piece is another
    module's constant; it now quotes the text around it, up to the join (a hole as '…'), as IRI802 does."""
    src = ('import requests\nLISTING = "https://shop.example.com/items?sort=asc"\n'
           'DOCS = "https://docs.example.com/page#intro"\n'
           'def f(q, n):\n    requests.get(LISTING + "?page=2")\n    requests.get(DOCS + "?lang=en")\n'
           '    requests.get(f"https://h.example/search?q={q}?page={n}")\n')
    messages = [f.finding.message for f in lint_text(src, Config())]
    assert ["'…xample.com/items?sort=as…'" in messages[0], "'…example.com/page#intro'" in messages[1],
            "'…h.example/search?q=…'" in messages[2]] == [True] * 3


def test_iri802_names_the_two_texts_its_join_puts_together() -> None:
    """Three probes' note (fixtures214, fixtures217, fixtures220): IRI802's message explained joins in general; it
    now quotes what meets at the join, the text before it cut to its last 16 characters."""
    src = 'import requests\nCDN = "https://cdn.example.net/"\nrequests.get(CDN + "/img/a.png")\n'
    (f,) = lint_text(src, Config())
    assert "'…cdn.example.net/' + '/img/a.png'" in f.finding.message


def test_six_and_future_re_exports_of_urllib_are_its_functions() -> None:
    """fixtures228 #2: ``from six.moves.urllib.parse import urljoin as six_urljoin`` (and ``six.moves.urllib``,
    ``future.moves.urllib``, an attribute chain from ``import six``) was no URL API: its dropped 'v3' and a space
    sent through ``urlopen`` went unreported, while ``requests.compat.urljoin`` was followed."""
    src = ('import six\nfrom six.moves.urllib.parse import urljoin as six_urljoin\n'
           'from six.moves.urllib.request import urlopen\nfrom six.moves import urllib\n'
           'from future.moves.urllib.parse import urljoin as fut_urljoin\n'
           'API = "https://api.example.com"\n'
           'A = six_urljoin("https://api.example.com/v3", "orders")\n'
           'B = fut_urljoin("https://api.example.com/v3", "orders")\n'
           'C = urllib.parse.urljoin("https://api.example.com/v3", "orders")\n'
           'D = six.moves.urllib.parse.urljoin("https://api.example.com/v3", "orders")\n'
           'urlopen(API + "/a b")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (7, "IRI804"), (8, "IRI804"), (9, "IRI804"), (10, "IRI804"), (11, "IRI101")]


def test_a_star_over_a_display_gives_its_items_as_positional_arguments() -> None:
    """fixtures228 #1: ``"{}{}".format(*PARTS)`` with ``PARTS = ("https://billing.example.com", "v1/ping")`` was a
    hole, while ``"%s%s" % PARTS`` was followed: a ``*`` over a tuple or list display, or a name bound to one,
    gives its items (IRI801 in the display's piece); over anything else the call is a hole as before."""
    src = ('import requests\nfrom urllib.parse import urljoin\n'
           'PARTS = ("https://billing.example.com", "v1/ping")\n'
           'OK = ("https://billing.example.com", "/v1/ping")\n'
           'requests.get("{}{}".format(*PARTS))\n'
           'requests.get("{}{}".format(*OK))\n'
           'requests.get("{}{}".format(*["https://q.example.com", "v1"]))\n'
           'requests.get(urljoin(*("https://q.example.com/v3", "x")))\n'
           'def f(rest):\n'
           '    requests.get("{}{}{}".format(*PARTS, *rest))\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (3, 41, "IRI801"), (7, 55, "IRI801"), (8, 52, "IRI804")]


def test_an_attribute_of_a_class_of_several_bases_is_read_by_its_resolution_order(tmp_path: Path) -> None:
    """fixtures230 #1 (two false IRI801): ``CachedEU(CachingMixin, EUBase)``, both derived from ``BaseClient``, read
    ``BASE_URL`` up the first base's chain (``BaseClient``'s, no '/') where Python's C3 order reads ``EUBase``'s
    (one ending with '/'). ``self.x`` and ``Class.x`` of a class of several bases now follow that order; a class
    of one base still reads up its chain."""
    modules = {
        "p/__init__.py": "",
        "p/base.py": 'class BaseClient:\n    BASE_URL = "https://api.example.com"\n',
        "p/diamond.py": (
            'import requests\nfrom .base import BaseClient\n\n\nclass CachingMixin(BaseClient):\n    pass\n\n\n'
            'class EUBase(BaseClient):\n    BASE_URL = "https://eu.api.example.com/"\n\n\n'
            'class CachedEU(CachingMixin, EUBase):\n    def status(self):\n'
            '        return requests.get(self.BASE_URL + "status")\n\n\n'
            'def eu_status():\n    return requests.get(CachedEU.BASE_URL + "/health")\n\n\n'
            'class Plain(CachingMixin):\n    def status(self):\n'
            '        return requests.get(self.BASE_URL + "status")\n'),
    }
    (tmp_path / "p").mkdir()
    assert _lint_project(tmp_path, modules, "p/diamond.py") == [(19, "IRI802"), (24, "IRI801")]


def test_markup_around_a_url_is_no_url_set_off_by_brackets() -> None:
    """outside65 R1 (install-release): ``{"URL": f"[link={c.url}]{shown}[/link]"}``, Rich's console markup, was read
    as a URL set off by '[' and ']' (RFC 3986 appendix C) and its inner '[' reported (IRI114); brackets inside
    make markup, no URL set off whole. ``"[" + CDN + "/a b]"`` still sets one off."""
    src = ('CDN = "https://cdn.example.net"\n'
           'def g(c):\n    return {"URL": f"[link={c.url}]{c.url}[/link]"}\n'
           'spaced_url = "[" + CDN + "/a b]"\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(4, "IRI101")]


def test_a_url_named_argument_of_pytest_s_parametrize_holds_each_item() -> None:
    """fixtures233 limit 3: ``@pytest.mark.parametrize("url", [HOST + "/a", HOST + "b"])`` binds each item to the
    test's ``url``, as ``for url in [...]`` does: a join there is checked (IRI801), for several names at the URL
    name's place, through ``pytest.param`` too; a name that says no URL binds nothing checked."""
    src = ('import pytest\nHOST = "https://api.shop.example"\n'
           '@pytest.mark.parametrize("url", [HOST + "/a", HOST + "b"])\ndef test_one(url):\n    pass\n'
           '@pytest.mark.parametrize("base,path", [(HOST, "/x"), (HOST + "y", "z")])\ndef test_two(base, path):\n'
           '    pass\n'
           '@pytest.mark.parametrize(("name", "target_url"), [("a", HOST + "q"), pytest.param("b", HOST + "r")])\n'
           'def test_three(name, target_url):\n    pass\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (3, 54, "IRI801"), (9, 64, "IRI801"), (9, 95, "IRI801")]


def test_a_loop_s_extension_over_a_display_keeps_the_name_s_start() -> None:
    """fixtures235 #1 (a false IRI116, a missed IRI802): ``url = ROOT`` then ``for seg in ["users", "active"]:
    url += "/" + seg`` sent only ``"/" + seg`` per item, the start lost: the path's value is checked whole, the
    loop's variable a hole in it, as over an unknown list ('//' after a base ending with '/')."""
    src = '''import requests
ROOT = "https://api.example.com/v2/"
def f1():
    url = ROOT
    for seg in ["users", "active"]:
        url += "/" + seg
    requests.get(url)
def f2():
    url = ROOT
    for seg in ["users", "active"]:
        url += seg + "/"
    requests.get(url)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(6, 16, "IRI802")]


def test_command_line_options_defaults_at_url_names_are_checked_by_every_front_end_s_library() -> None:
    """fixtures235 #2: argparse's ``add_argument("--api-url", default=HOST + "v1")`` was checked (its dest a
    URL-named target) but click's ``@click.option("--api-url", default=...)`` and typer's
    ``api_url: str = typer.Option(HOST + "v3")`` were not; they are now, and an option whose name says no URL, or a
    ``.option(...)`` with no option string (Spark's reader), binds nothing checked."""
    src = '''import argparse
import click
import typer
HOST = "https://api.example.com"
ap = argparse.ArgumentParser()
ap.add_argument("--api-url", default=HOST + "v1")
ap.add_argument("--mirror", default=HOST + "v1")
@click.command()
@click.option("--api-url", default=HOST + "v2")
@click.option("--name", default=HOST + "v2")
def cli(api_url, name):
    pass
def main(api_url: str = typer.Option(HOST + "v3"), other: str = typer.Option(HOST + "v3")):
    pass
def spark(df):
    df.read.option("url", default=HOST + "v4")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(6, "IRI801"), (9, "IRI801"), (13, "IRI801")]


def test_a_string_template_s_substitute_fills_its_placeholders() -> None:
    """fixtures228 #3: ``Template("${root}/v1/ping").safe_substitute(root=STATUS_BASE)`` with a base ending in '/'
    sends '//' (IRI802 at the template's '/'); ``substitute`` with a dict display fills it too; a placeholder left
    by ``safe_substitute`` stays text ('?' after it still IRI803); the template object itself is no URL."""
    src = '''import requests
from string import Template
STATUS_BASE = "https://status.example.com/"
STATUS_T = Template("${root}/v1/ping")
SEARCH_T = Template("https://h.example.com/search?q=$term&page=${page}")
status_url = Template("${root}/v1")
def status_ping():
    return requests.get(STATUS_T.safe_substitute(root=STATUS_BASE))
def search(term):
    requests.get(SEARCH_T.substitute(term=term, page=2))
    requests.get(SEARCH_T.substitute({"term": term, "page": "a b"}))
    requests.get(SEARCH_T.safe_substitute(page=2) + "?x=1")
    requests.get(SEARCH_T.substitute(page=2))
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(4, "IRI802"), (11, "IRI101"), (12, "IRI803")]


def test_django_s_urlencode_filter_and_helper_encode_as_urllib_s_do() -> None:
    """outside68's side note (7 false IRI806 with the opt-in on, django-social-share): Django's ``urlencode``
    template filter (``django.template.defaultfilters``) is ``quote(value, safe="/")`` and
    ``django.utils.http.urlencode`` builds a query, as urllib's do: what they give is encoded."""
    src = ('from django.template.defaultfilters import urlencode\nfrom django.utils import http\n'
           'TWITTER_ENDPOINT = "https://twitter.com/intent/tweet?text=%s"\n'
           'def share(context, tweet, params):\n'
           '    context["tweet_url"] = TWITTER_ENDPOINT % urlencode(tweet)\n'
           '    context["query_url"] = "https://h.example/?" + http.urlencode(params)\n'
           '    context["raw_url"] = TWITTER_ENDPOINT % tweet\n')
    assert [(f.line, f.code) for f in lint_text(src, Config(extend_select=("IRI806",)))] == [(7, "IRI806")]


def test_a_nested_one_return_helper_is_read_at_its_call() -> None:
    """fixtures237 #1: ``def path_of(p): return API + p`` nested in ``sweep()`` and called there was a hole, while
    the same helper at the module's level was read: a local or enclosing function's one ``def`` whose body is one
    ``return`` is read at the call too (its defaults included); a name bound again there is not."""
    src = '''import requests
API = "https://api.example.com"
CDN = "https://cdn.example.net/"
def sweep():
    def path_of(p):
        return API + p
    return requests.get(path_of("health"))
def go():
    def local(p, q="/d"):
        return CDN + p + q
    def inner():
        requests.get(local("/n"))
    requests.get(local("n"))
def rebound():
    def f(p):
        return API + p
    f = lambda p: p
    requests.get(f("y"))
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(7, "IRI801"), (12, "IRI802")]


def test_urljoin_against_a_scheme_python_does_not_resolve_drops_the_whole_base() -> None:
    """fixtures232 limit 2: CPython's ``urljoin("gs://archive-bucket/", "exports/x.csv")`` is ``"exports/x.csv"``:
    a scheme ``urllib.parse.uses_relative`` lacks (gs, s3, redis, git+https) resolves nothing, the base is lost
    (IRI804 at the reference, once: the value sent has no other scheme to miss); a reference with its own scheme,
    and a base urllib resolves against, are as before."""
    src = ('import requests\nfrom urllib.parse import urljoin\nGS = "gs://archive-bucket/"\n'
           'a = urljoin(GS, "exports/x.csv")\nb = urljoin("redis://h:6379/", "2")\n'
           'c = urljoin("https://h.example/api/", "x")\nd = urljoin(GS, "gs://other/x")\n'
           'requests.get(urljoin("s3://b/k/", "y"))\n')
    found = [(f.line, f.code) for f in lint_text(src, Config())]
    assert found == [(4, "IRI804"), (5, "IRI804"), (8, "IRI804")]
    assert "'gs:' URL" in lint_text(src, Config())[0].finding.message


def test_click_s_parameter_name_pytest_s_keywords_and_typer_s_argument_bind_too() -> None:
    """fixtures238 #1-#3: click's declaration without dashes is the parameter's name (``("--mirror", "mirror_url")``
    says URL, ``("--proxy-url", "proxy")`` does not); ``parametrize(argnames=..., argvalues=...)`` binds as the
    positional form does; ``typer.Argument``'s first argument is a parameter's default as ``typer.Option``'s is."""
    src = '''import click
import pytest
import typer
API_HOST = "https://api.example.com"
API_ROOT = "https://api.example.com/v1/"
@click.command()
@click.option("--mirror", "mirror_url", default=API_ROOT + "/m")
@click.option("--cdn", "-c", "cdn_url", default=API_HOST + "cdn")
@click.option("--proxy-url", "proxy", default=API_HOST + "px")
def main(mirror_url, cdn_url, proxy):
    pass
@pytest.mark.parametrize(argnames="endpoint_url", argvalues=[pytest.param(API_HOST + "z")])
def test_five(endpoint_url):
    pass
def tmain(repo_url: str = typer.Argument(API_HOST + "v6")):
    pass
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (7, "IRI802"), (8, "IRI801"), (12, "IRI801"), (15, "IRI801")]


def test_http_mocks_are_url_apis() -> None:
    """fixtures233 limit 1: a mock's URL that is not the one the code requests never matches: responses', a
    RequestsMock's, respx's and aioresponses' verbs are URL APIs; responses' ``add(method, url)`` is checked by
    its ``url=`` keyword, and positionally with ``extra-url-apis`` (``add`` is set's method too: not by
    default). Connection URLs stay the recipe's (configuration.md), and kombu's and Celery's brokers may list
    failover URLs (';')."""
    src = ('import redis\nimport responses\nimport respx\nfrom aioresponses import aioresponses\n'
           'from celery import Celery\nfrom sqlalchemy import create_engine\n'
           'BASE = "https://api.shop.example/v2/"\nREDIS_ROOT = "redis://cache.example:6379"\n'
           'def test_a():\n'
           '    responses.add(responses.GET, BASE + "/stock", json={})\n'
           '    responses.get(BASE + "items")\n'
           '    respx.get(BASE + "/y")\n'
           '    with aioresponses() as m:\n        m.get(BASE + "/z")\n'
           '    responses.add(responses.GET, url=BASE + "/w")\n'
           'a = redis.from_url(REDIS_ROOT + "1")\n'
           'e = create_engine("postgresql://app@db.example:5432" + "orders")\n'
           'app = Celery("p", broker="amqp://h1:5672//;amqp://h2:5672//")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(12, "IRI802"), (14, "IRI802"), (15, "IRI802")]
    extra = Config(extra_url_apis=("responses.add:1",))
    assert [(f.line, f.code) for f in lint_text(src, extra)][:1] == [(10, "IRI802")]


def test_decouple_config_and_setdefault_defaults_are_the_values_where_unset(tmp_path: Path) -> None:
    """fixtures223's documented limit: python-decouple's ``config(name, default=..., cast=...)`` and
    ``os.environ.setdefault(name, default)`` give their default where the variable is unset, as ``os.getenv``
    does: ``PAYMENTS + "/charge"`` makes '//' then (IRI802), ``SETDEF + "s"`` joins to the host (IRI801); a read with
    no default is a hole."""
    modules = {
        "s/__init__.py": "",
        "s/settings.py": ('import os\nfrom decouple import config\n'
                          'PAYMENTS = config("PAYMENTS_URL", default="https://pay.example.com/")\n'
                          'TYPED = config("TYPED_URL", default="https://t.example.com/", cast=str)\n'
                          'SETDEF = os.environ.setdefault("SETDEF_URL", "https://sd.example.com")\n'
                          'PLAIN = config("PLAIN")\n'),
        "s/use.py": ('import requests\nfrom s.settings import PAYMENTS, TYPED, SETDEF, PLAIN\n\n\ndef f():\n'
                     '    requests.get(PAYMENTS + "/charge")\n    requests.get(TYPED + "/x")\n'
                     '    requests.get(SETDEF + "s")\n    requests.get(PLAIN + "/y")\n'),
    }
    (tmp_path / "s").mkdir()
    assert _lint_project(tmp_path, modules, "s/use.py") == [(6, "IRI802"), (7, "IRI802"), (8, "IRI801")]


def test_django_environ_env_defaults_are_the_values_where_unset(tmp_path: Path) -> None:
    """The documented limit named django-environ: ``env = environ.Env()`` then ``env(name, cast, default)`` (the
    default third, or by keyword) and ``env.str(name, default)`` give their default where the variable is unset,
    as ``decouple.config`` does; ``env(name, str)`` has no default (its second argument is the cast), a hole."""
    modules = {
        "s/__init__.py": "",
        "s/settings.py": ('import environ\nfrom environ import Env\nenv = environ.Env(DEBUG=(bool, False))\n'
                          'other = Env()\n'
                          'SITE = env("SITE_URL", default="https://site.example.com/")\n'
                          'CAST = env("CAST_URL", str, "https://cast.example.com/")\n'
                          'STR = env.str("STR_URL", "https://str.example.com")\n'
                          'NONE = env("NONE_URL", str)\n'
                          'OTHER = other.str("OTHER_URL", default="https://other.example.com/")\n'),
        "s/use.py": ('import requests\nfrom s.settings import SITE, CAST, STR, NONE, OTHER\n\n\ndef f():\n'
                     '    requests.get(SITE + "/a")\n    requests.get(CAST + "/b")\n'
                     '    requests.get(STR + "c")\n    requests.get(NONE + "/d")\n    requests.get(OTHER + "/e")\n'),
    }
    (tmp_path / "s").mkdir()
    assert _lint_project(tmp_path, modules, "s/use.py") == [(6, "IRI802"), (7, "IRI802"), (8, "IRI801"),
                                                              (10, "IRI802")]


def test_a_finding_over_several_pieces_ends_after_its_first_piece_s_last_character() -> None:
    """fixtures225 #1: IRI808 spans the joined scheme and the next piece's; its end was its start (an empty
    range in JSON and SARIF); it ends after ``"https://"``, the part of it the literal at its start spells."""
    src = 'import requests\nAPI_HOST = "https://api.example.com"\nrequests.get("https://" + API_HOST + "/x")\n'
    (f,) = lint_text(src, Config())
    assert f.code == "IRI808" and (f.start.line, f.start.col, f.end.line, f.end.col) == (3, 14, 3, 22)


def test_a_plural_url_name_s_value_joined_by_line_breaks_is_a_list() -> None:
    """outside57 #3 (changedetection.io): ``{"urls": "\\r\\n".join(urls)}`` is a list of URLs a line break
    separates, each checked alone, not one URL whose CR starts a header (IRI104); a join's own fault is still one."""
    src = '''ITEMS = ["https://a.example/x", "https://b.example/y"]
BASE = "https://h.example/"
data = {"urls": "\\r\\n".join(ITEMS)}
data2 = {"urls": BASE + "/a"}
data3 = {"urls": "\\n".join([BASE + "/a", "https://c.example/"])}
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(4, "IRI802"), (5, "IRI802")]


def test_a_configured_url_name_s_plural_holds_a_list_too() -> None:
    """The list reading of a plural URL name follows the configured names (``endpoint`` makes ``endpoints`` one):
    ``{"endpoints": "\\r\\n".join(ITEMS)}`` is a list, no header injection."""
    src = 'ITEMS = ["https://a.example/x", "https://b.example/y"]\ndata = {"endpoints": "\\r\\n".join(ITEMS)}\n'
    assert lint_text(src, Config(url_names=("url", "uri", "href", "endpoint"))) == []


def test_linting_a_module_leaves_no_cyclic_garbage() -> None:
    """A linted module's tree, scopes and values are freed by refcounting when its lint ends: a short run
    freezes the gc after reading project modules, and any garbage frozen then would never be freed."""
    import gc

    project = Project()
    files = sorted(PROJECT.rglob("*.py"))
    assert files
    module = PROJECT / "shop" / "clients.py"  # (written once: classes as values, bases, self attributes)
    files.append(module)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in files:
            lint_text(path.read_text(encoding="utf-8"), Config(), path=str(path), project=project)
        gc.collect()
        ours = [type(o).__name__ for o in gc.garbage
                if isinstance(o, ast.AST) or type(o).__module__.startswith("iri_lint")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert project.files_read and not ours, ours[:20]


def test_a_module_read_again_is_frozen_as_the_first_reads_are(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module the project dropped and read again is a new tree, as long-lived as the first: the freezes
    count the modules read, not the files (a process linting a tree again kept every tree it read after its
    first pass in the collector's reach)."""
    import gc

    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for name in "ab":
        (tmp_path / f"{name}.py").write_text(f'BASE = "https://{name}.example"\n', encoding="utf-8")
    use = tmp_path / "use.py"
    use.write_text('import requests\nfrom a import BASE as A\nfrom b import BASE as B\n'
                   'requests.get(A + "/x y")\nrequests.get(B + "/x y")\n', encoding="utf-8")
    project = Project(max_modules=1)  # (each lint reads a and b: each drops the other)
    freezes: list[int] = []
    # a language server made in this process before (tests/lsp) turned freezing off for the process
    monkeypatch.setattr(values_check, "_FREEZE_AFTER_READS", [True])
    monkeypatch.setattr(gc, "collect", lambda: 0)
    monkeypatch.setattr(gc, "freeze", lambda: freezes.append(1))
    for _ in range(8):
        found = lint_text(use.read_text(encoding="utf-8"), Config(), path=str(use), project=project)
        assert [(f.line, f.code) for f in found] == [(4, "IRI101"), (5, "IRI101")]
    assert project.files_read == 2 and project.read_twice == 2
    assert len(freezes) > 2  # (at 1, 2, 3, ... modules read; counting files, only at 1 and 2)


def test_reports_place_a_value_fixs_edits_in_its_literal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.py"
    path.write_text(CDN + '    return requests.get(CDN + "/a b" "/c d")\n', encoding="utf-8")
    main(["check", "--no-cache", "--isolated", "--output-format", "json", str(path)])
    (record,) = json.loads(capsys.readouterr().out)["findings"]
    assert record["value"] == "https://cdn.example.net/a b/c d"
    assert record["fix"]["value"] == "https://cdn.example.net/a%20b/c%20d"
    assert [e["file"]["start"] for e in record["fix"]["edits"]] == [{"line": 6, "column": 34},
                                                                   {"line": 6, "column": 41}]


@pytest.mark.parametrize(("line", "col"), [
    ('u = urljoin("https://h.example/api", "x")\nrequests.get(u)\n', 38),  # through a name
    ('requests.get(urljoin("https://h.example/api", "x") + "?a=1")\n', 47),  # with more joined to it
    ("requests.get(f\"{urljoin('https://h.example/api', 'x')}?a=1\")\n", 50),  # in an f-string
    ('requests.get(urljoin("https://h.example/api/v2", "./x"))\n', 50),  # at the reference as written
    ('requests.get(urljoin("https://h.example/api/v2", "../x"))\n', 50),
])
@pytest.mark.parametrize("module", ["urllib.parse", "requests.compat"])  # (the same function: fixtures191 repro 01)
def test_what_urljoin_drops_is_reported_wherever_its_result_goes(line: str, col: int, module: str) -> None:
    src = f"from {module} import urljoin\nimport requests\n" + line
    found = [(f.line, f.col, f.code) for f in lint_text(src, Config())]
    assert found == [(3, col, "IRI804")]


@pytest.mark.parametrize(("base", "found"), [
    ("https://h.example/v2", []),  # '/v2' or '/v2/' and '../items' both give /items: the '..' means to go up
    ("https://h.example/a/v2", [(3, "IRI804")]),  # /items, where "/a/v2/" would give /a/items
    ("https://h.example/v2/search", [(3, "IRI804")]),  # /items, where '/v2/search/' would give /v2/items
])
def test_urljoin_going_up_is_reported_only_when_a_slash_would_keep_a_segment(base: str,
                                                                           found: list[tuple[int, str]]) -> None:
    src = f'from urllib.parse import urljoin\nimport requests\nrequests.get(urljoin("{base}", "../items"))\n'
    assert [(f.line, f.code) for f in lint_text(src, Config())] == found


@pytest.mark.parametrize(("base", "ref", "found"), [
    ("https://h.example/api/v1", "v1/items", []),  # /api/v1/items: the base's segment spelled again, none lost
    ("https://h.example/api/v1", "v1", []),  # /api/v1
    ("https://h.example/api/v1", "/api/v1/items", []),  # an absolute path that holds the base's path whole
    ("https://h.example/api/v1", "v1x/items", [(3, "IRI804")]),  # /api/v1x/items: v1 is lost
    # another version in place of the last (fixtures171's note): a switch of versions, on purpose
    ("https://h.example/api/v1", "v10/items", []),
    ("https://h.example/api/1.0", "2.0/items", []),
    ("https://h.example/apis/v1beta1", "v1/pods", []),  # (fixtures173 repro 06: a pre-release's, and "./")
    ("https://h.example/api/v2", "./v3beta1/items", []),
    ("https://h.example/api/users", "v3/items", [(3, "IRI804")]),
    ("https://h.example/api/v1", "/api/v10", [(3, "IRI804")]),
    ("https://h.example/api/v1", "items", [(3, "IRI804")]),
    # a base ending in '/' whose path the absolute path spells again (fixtures156 repro 01: the Registry API)
    ("https://registry.example:5000/v2/", "/v2/team/app/tags/list", []),
    ("https://h.example/api/v2/", "/api/v2/items", []),
    ("https://h.example/api/v2/", "/api/v3/items", [(3, "IRI804")]),
])
def test_urljoin_that_spells_the_base_s_last_segment_again_drops_nothing(base: str, ref: str,
                                                                          found: list[tuple[int, str]]) -> None:
    """fixtures113 repro 01: ``urljoin(".../api/v1", "v1/items")`` gives ``.../api/v1/items``; the advice to end
    the base with ``/`` would make ``/api/v1/v1/items``. Whole segments only: ``v1x`` is another segment; another
    version (``v10``, ``2.0``) in place of a version is a switch of versions."""
    src = f'from urllib.parse import urljoin\nimport requests\nrequests.get(urljoin("{base}", "{ref}"))\n'
    assert [(f.line, f.code) for f in lint_text(src, Config())] == found


@pytest.mark.parametrize("ref", [".", "..", "./", "../"])
def test_a_reference_the_resolution_removes_whole_is_still_reported_at_it(ref: str) -> None:
    """``"."`` and ``".."`` are relative-path references (RFC 3986 sec. 4.2) that dot removal takes out
    whole: against ``/api/v2`` they give ``/api/`` and ``/``, not ``/api/v2/`` and ``/api/`` (fixtures69)."""
    src = f'from urllib.parse import urljoin\nimport requests\nrequests.get(urljoin("https://h.example/api/v2", ' \
          f'"{ref}"))\n'
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(3, 50, "IRI804")]

def test_what_urljoin_drops_is_reported_at_the_call_once(tmp_path: Path) -> None:
    """A ``urljoin`` call's drop is its own fault: at the call, whether its result goes to a URL API, to a name
    no use reads, or to another module's use (which leaves it to the module making the call)."""
    modules = {"settings.py": 'from urllib.parse import urljoin\nBASE = "https://h.example/api/v2"\n'
                              'API = urljoin(BASE, "items")\nAPI_URL = urljoin(BASE, "/x")\n',
               "app.py": 'import urllib.parse\nimport requests\nfrom settings import API, API_URL, BASE\n'
                         'requests.get(API)\nrequests.get(API_URL + "?a=1")\n'
                         'def endpoint():\n    return urllib.parse.urljoin(BASE, "/items")\n'
                         'u = urllib.parse.urljoin(BASE, "/items")\nrequests.get(u)\n'}
    assert _lint_project(tmp_path, modules, "settings.py") == [(3, "IRI804"), (4, "IRI804")]
    assert _lint_project(tmp_path, modules, "app.py") == [(7, "IRI804"), (8, "IRI804")]


@pytest.mark.parametrize("ref", ['"page-%d.html" % n', 'f"page-{n:d}.html"', 'f"page-{int(n)}.html"',
                                 'f"page-{len(n)}.html"'])
def test_a_next_page_reference_whose_hole_is_digits_is_resolved(ref: str) -> None:
    """A number's digits hold no ':' that could make 'page-' a scheme (RFC 3986 sec. 4.2): the reference is a
    relative path, and resolving it drops the base's 'books' (fixtures77, repro 02)."""
    src = ('from urllib.parse import urljoin\nimport requests\n'
           'SECTION = "https://books.example.com/catalogue/category/books"\n\n\n'
           f'def a(n):\n    return requests.get(urljoin(SECTION, {ref}))\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(7, "IRI804")]


def test_a_reference_reused_without_urljoin_is_not_what_urljoin_dropped(tmp_path: Path) -> None:
    modules = {"paths.py": 'REF = "items"\n',
               "app.py": 'from urllib.parse import urljoin\nimport requests\nfrom paths import REF\n'
                         'requests.get(urljoin("https://h.example/api/v2", REF))\n'
                         'requests.get("https://h.example/api/v2/" + REF)\n'}
    assert _lint_project(tmp_path, modules, "app.py") == [(4, "IRI804")]  # (at the use: REF is another file's)


@pytest.mark.parametrize(("piece", "col"), [
    ('"https://h.example:8080" + "x"', 41),  # the port becomes 8080x: one finding, not IRI112 too
    ('"http://[::1]" + "x"', 31),  # after an IP literal only ':' and a port may follow
    ('"https://api.example" + "x y"', 38),  # the space it brings into the host: no IRI101 "in host" too
    ('"https://h.example:80" + "80 80"', 39),  # nor into the port
])
def test_a_piece_joined_to_the_authority_is_one_finding(piece: str, col: int) -> None:
    found = lint_text(f"import requests\nrequests.get({piece})\n", Config())
    assert [(f.line, f.col, f.code) for f in found] == [(2, col, "IRI801")]


@pytest.mark.parametrize("indent", ["", "    "])
def test_a_long_run_of_augmented_assignments_is_followed_to_its_end(indent: str) -> None:
    """Each ``url += ...`` of a run is not checked on its own: the value at the run's end holds them all
    (checking every step cost the run's length squared, and the budget ran out after ~200 steps)."""
    head = "import requests\n" + ("def f():\n" if indent else "")
    body = [f'{indent}url = "https://h.example"\n', *[f'{indent}url += "/a"\n'] * 1000, f'{indent}url += "/z z"\n',
            f"{indent}requests.get(url)\n"]
    found = lint_text(head + "".join(body), Config())
    assert [(f.line, f.code) for f in found] == [(head.count("\n") + 1002, "IRI101")]


def test_a_url_named_constant_assembled_in_another_module_is_reported_there_only(tmp_path: Path) -> None:
    modules = {"conf.py": 'HOST = "https://h.example"\nAPI_URL = HOST + "docs"\n',
               "app.py": "import requests\nfrom conf import API_URL, HOST\nrequests.get(API_URL)\n"
                         "requests.get(HOST + 'v1')\nendpoint = API_URL\nrequests.get(endpoint)\n"
                         "joined = HOST + 'v2'\nrequests.get(joined)\n"}
    assert _lint_project(tmp_path, modules, "conf.py") == [(2, "IRI801")]
    # its own join is this file's, made at a name that says nothing of URLs too (checked at its use); a name bound
    # once to the URL-named one is that name (fixtures220: ``base = HOST_URL if flag else BASE_URL``, once)
    assert _lint_project(tmp_path, modules, "app.py") == [(4, "IRI801"), (7, "IRI801")]


def test_a_fault_another_module_reports_where_it_binds_a_url_name_is_not_reported_again(tmp_path: Path) -> None:
    """fixtures220 disagreement 1: what a module finds where it binds a URL-named name is not reported again at a
    use that reads it through a local name bound once (``base = HOST_URL if flag else BASE_URL``), nor where the
    name's value starts with an environment read with a URL default (``ENV_URL = os.getenv(..., "https://...")
    + "v2/"``: checked there with the default)."""
    modules = {
        "pkg/__init__.py": "",
        "pkg/consts.py": ('import os\nHOST_URL = "https://api.example" + "v2/"\nBASE_URL = "https://api.example/v2/"\n'
                          'ENV_ROOT = os.getenv("ROOT", "https://sandbox.example")\nENV_URL = ENV_ROOT + "v2/"\n'
                          'ROOT = "https://api.example/"\nGAP_URL = ROOT + "v2/a b/"\n'
                          'ENV_DOUBLE_URL = os.getenv("ROOT2", "https://api.example/") + "/v2/"\n'),
        "pkg/use.py": ('import requests\nfrom .consts import HOST_URL, BASE_URL, ENV_URL, GAP_URL, ENV_DOUBLE_URL\n'
                       'from . import consts\n\n\ndef a(flag):\n    base = HOST_URL if flag else BASE_URL\n'
                       '    requests.get(base + "users")\n    base2 = GAP_URL if flag else BASE_URL\n'
                       '    requests.get(base2 + "users")\n    requests.get(ENV_URL + "users")\n'
                       '    requests.get(consts.ENV_URL + "users")\n    requests.get(ENV_DOUBLE_URL + "users")\n'),
    }
    (tmp_path / "pkg").mkdir()
    assert _lint_project(tmp_path, modules, "pkg/consts.py") == [(2, "IRI801"), (5, "IRI801"), (7, "IRI101"),
                                                                  (8, "IRI802")]
    assert _lint_project(tmp_path, modules, "pkg/use.py") == []


def test_a_chain_of_re_exports_past_the_depth_limit_is_a_hole(tmp_path: Path) -> None:
    """200 modules re-exporting one name (by name, or by star imports) ran into Python's recursion limit
    and lost the file's other findings; past ``MAX_DEPTH`` the name is a hole."""
    for star in (False, True):
        modules = {"s0.py": 'HOST = "https://h.example"\n'}
        for i in range(1, 200):
            modules[f"s{i}.py"] = f"from s{i - 1} import *\n" if star else f"from s{i - 1} import HOST\n"
        modules["use.py"] = ("import requests\nfrom s199 import HOST\nfrom s5 import HOST as NEAR\n"
                             "requests.get(HOST + 'x')\nrequests.get(NEAR + 'x')\n"
                             "requests.get('https://h.example/a b')\n")
        assert _lint_project(tmp_path, modules, "use.py") == [(5, "IRI801"), (6, "IRI101")]


def test_a_recursion_error_in_the_values_keeps_the_literals_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    def too_deep(*args: object, **kwargs: object) -> None:
        raise RecursionError

    monkeypatch.setattr(lint, "value_findings", too_deep)
    src = "import requests\nrequests.get('https://h.example/a b')\n"
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(2, "IRI101")]


@pytest.mark.parametrize(("piece", "expected"), [
    ('GOOD + ".json"', [(3, 21, "IRI801")]),  # a dotted host goes on: not a dotless name's next label
    ('GOOD + ".cn"', []),  # a country's two-letter label (pyicloud's region suffix, RFC 1591)
    ('GOOD + "@evil.example/x"', [(3, 21, "IRI801")]),  # the host becomes evil.example (RFC 3986 sec. 7.6)
    ('GOOD + "x@evil.example/x"', [(3, 21, "IRI801")]),
    ('" ".join([GOOD, "x"])', [(3, 14, "IRI801")]),  # one cause: not IRI101 too (its fix would encode the host)
    ('GOOD + "\\u0645\\u0631\\u062d\\u0628\\u0627/"', [(3, 21, "IRI801")]),  # not the label's mixed scripts
    # and directions too (IRI501, IRI204): the join made that label (fixtures88, repro 01)
    ('GOOD + "\\u00a0a"', [(3, 21, "IRI504"), (3, 21, "IRI801")]),  # not IRI403 (IDNA refuses the label) on
    # GOOD's literal, which is right (fixtures39, repro 04); the look-alike is its own finding (fixtures45, 04)
    ('GOOD + "/app#" + "/route?x=1"', []),  # a page's own route in the fragment
    ('GOOD + "/app#top" + "?x=1"', [(3, 34, "IRI803")]),  # a query started after the fragment
    ('GOOD + "/#/orders" + "?tab=open"', []),  # the fragment is a route: its query (fixtures66, repro 01)
    ('GOOD + "/#!/orders" + "?tab=open"', []),
    ('GOOD + "/l?page=1" + "&next=/home?tab=1"', []),  # a '?' in a parameter's value (fixtures47, repro 02)
    ('GOOD + "/l?page=1" + "&r=" + "x" + "/y?z"', [(3, 51, "IRI803")]),  # (an earlier piece gave the value)
    # a path and its query joined after a value the base's literal ended (fixtures165 repro 01)
    ('"https://h.example/l?appid=demo" + "/alerts?lang=en"', [(3, 56, "IRI803")]),
    ('f"{GOOD}/l?k=v" + "/a?b=c"', [(3, 34, "IRI803")]),
    ('GOOD + "/l?k=" + GOOD + "/a?b=c"', []),  # (the value holds a URL: its own query)
    ('GOOD + "/l?k=" + "demo" + "/a?b=c"', [(3, 42, "IRI803")]),  # the key joined (fixtures167 repro 02)
    ('GOOD + "/l?k=" + input() + "/a?b=c"', [(3, 43, "IRI803")]),
    ('GOOD + "/l?page=1" + "&a=b" + "?c=d"', [(3, 44, "IRI803")]),  # a piece that starts a second query
    ('"urn:example:doc?+r" + "?=lang=en"', []),  # a URN's q-component after its r-component (RFC 8141 sec. 2)
    ('"urn:example:doc?=a" + "?=lang=en"', [(3, 37, "IRI803")]),  # (fixtures94, repro 02)
    # one literal writes both: its own business (a proxy's nested URL, yt-dlp's peloton.py)
    ('"https://h.example/p?lang=en&url={}?t={}".format(GOOD, 1)', []),
    ('f"https://h.example/p?url={input()}?t=1"', []),
    ('f"https://h.example/p#{GOOD}?t=1"', []),
    ('f"https://h.example/p?next={input()}?t=1"', []),
    ('f"https://h.example/p?a=1&redirect_uri={input()}?t=1"', []),
    # around another parameter's value the second '?' is a mistake, as in the '+' form (fixtures152, repro 01)
    ('f"https://h.example/p?q={input()}?page=2"', [(3, 46, "IRI803")]),
    ('"https://h.example/p?q={}?page={}".format(input(), 2)', [(3, 38, "IRI803")]),
    # but a number or an encoded value between them holds no URL: the second '?' is a mistake (fixtures97, 100)
    ('f"https://h.example/p?e={len(GOOD):d}?sig=x"', [(3, 50, "IRI803")]),
    ('"https://h.example/p?url=" + GOOD + "?t=1"', [(3, 50, "IRI803")]),  # two literals: a join made it
])
def test_what_a_join_does_to_the_authority_and_the_fragment(piece: str, expected: list[tuple[int, int, str]]) -> None:
    src = f'import requests\nGOOD = "https://good.example"\nrequests.get({piece})\n'
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


def test_an_httpx_base_with_a_query_takes_the_request_into_it() -> None:
    """fixtures165 repro 02: httpx appends a relative request to the base's raw path, its query too (httpx 0.28
    sends ``/v1?appid=demo/alerts?lang=en``): the request's '?' is a second one."""
    src = ('import httpx\napi = httpx.Client(base_url="https://h.example/v1?appid=demo")\n'
           'api.get("alerts?lang=en")\napi.get("alerts")\napi.get("?page=2")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (2, 49, "IRI810"), (3, 15, "IRI803"), (5, 9, "IRI803")]  # (the base's query itself: IRI810)


@pytest.mark.parametrize(("piece", "expected"), [
    ('LISTING + "&sort=desc"', [(8, 44, "IRI809")]),  # the parameter becomes part of the path
    ('f"{LISTING}&page={n}"', [(8, 44, "IRI809")]),
    ('LISTING + "&" + urlencode(p)', [(8, 44, "IRI809")]),
    ('LISTING + "/" + str(len(p)) + "&x=1"', [(8, 64, "IRI809")]),  # a number holds no '?'
    ('LISTING + "/" + str(n) + "&x=1"', []),  # what it holds may have begun a query
    ('SEARCH + "&page=2"', []),  # a query already
    ('n + "&page=2"', []),
    ('LISTING + "#/list" + "&x=1"', []),
    ('LISTING + "&"', []),  # no parameter
    # (a path segment's hole holds no '?': fixtures193 repro 02; not one the '&' follows, an endpoint maybe)
    ('LISTING + "/" + n + "/items" + "&x=1"', [(8, 65, "IRI809")]),
    ('f"{LISTING}/{n}/items" + "&x=1"', [(8, 59, "IRI809")]),
    ('LISTING + "/" + n + "&x=1"', []),
])
def test_a_parameter_joined_where_there_is_no_query(piece: str, expected: list[tuple[int, int, str]]) -> None:
    src = ('from urllib.parse import urlencode\nimport requests\n\nLISTING = "https://shop.example/list"\n'
           'SEARCH = "https://shop.example/search?q=x"\n\n\ndef f(n, p): return requests.get(' + piece + ')\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("piece", "col"), [
    ('f"{STATIC}?size={w}x{h}" + "?markers=" + m', 45),
    ('f"{STATIC}?q=tag:{w}?page={h}"', 37),
    ('f"{STATIC}?{w}=1" + "?x=" + m', None),  # (a hole in a name's place may end the query)
])
def test_a_hole_inside_a_parameter_s_value_ends_no_query(piece: str, col: int | None) -> None:
    """fixtures193 repro 01: ``size={w}x{h}``, ``q=tag:{q}``: a hole anywhere in a parameter's value, past its
    ``=``, is data (RFC 3986 sec. 3.4), as one right after the ``=`` is: a later piece's ``?`` is a second one."""
    src = f'import requests\nSTATIC = "https://maps.example/static"\n\n\ndef f(w, h, m):\n    requests.get({piece})\n'
    found = [(f.line, f.col) for f in lint_text(src, Config()) if f.code == "IRI803"]
    assert found == ([] if col is None else [(6, col)])


def test_a_url_named_key_of_a_subscript_assignment_is_a_url_context() -> None:
    """fixtures155 repro 01: scrapy items are filled by subscript (``item["image_urls"] = [...]``, read by its
    ImagesPipeline): a URL-named string key makes a URL context there as in a dict display; a template's name
    stays a template's, and a key that names nothing (``d[k]``) nothing."""
    src = ('CDN = "https://cdn.example/"\nROOT = "https://h.example"\n\n\ndef fill(item, meta, name, k):\n'
           '    item["image_urls"] = [CDN + "/covers/" + name]\n    item["detail_url"] = "catalogue/a b.html"\n'
           '    meta["next_url"] = ROOT + "next"\n    item["url_template"] = "/x/{id}"\n    item[k] = "a b"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (6, 33, "IRI802"), (7, 37, "IRI101"), (8, 31, "IRI801")]


@pytest.mark.parametrize(("use", "expected"), [
    ('CDN if "://" in CDN else "https://" + CDN', []),  # (fixtures159 repro 03: the guard, not IRI808)
    ('CDN if CDN.startswith("http") else "https://" + CDN', []),
    ('"https://" + CDN if "://" not in CDN else CDN', []),
    ('HOST if "://" in HOST else "https://" + HOST + "x"', [(7, 65, "IRI801")]),  # the branch taken
    ('CDN if flag else "https://" + CDN', [(7, 35, "IRI808")]),  # undecided: both branches
])
def test_a_branch_known_texts_decide_is_the_one_checked(use: str, expected: list[tuple[int, int, str]]) -> None:
    src = ('import requests\nCDN = "https://cdn.example.net"\nHOST = "cdn.example.net"\n\n\n'
           f'def f(flag):\n    requests.get({use})\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("use", "expected"), [
    ('PAGE + "#" + section', [(7, 37, "IRI114")]),  # a second '#' whatever follows it (RFC 3986 sec. 3.5)
    ('urlunsplit(("https", "h.example", "/faq", "", "#" + section))', [(7, 76, "IRI114")]),  # (its own '#' too)
    ('ROOT + "#" + section', []),  # the first
])
def test_a_second_hash_before_a_hole_is_reported(use: str, expected: list[tuple[int, int, str]]) -> None:
    """fixtures159 repro 02: the '#' is known text; the hole after it cannot make it part of a fragment."""
    src = ('from urllib.parse import urlunsplit\nimport requests\nPAGE = "https://h.example/faq#intro"\n'
           'ROOT = "https://h.example/faq"\n\n\ndef f(section): requests.get(' + use + ')\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


def test_urlunsplit_s_parts_are_checked_in_the_literal_that_spells_them() -> None:
    src = ('from urllib.parse import urlunsplit\nimport requests\n\n\ndef f(host):\n'
           '    return requests.get(urlunsplit(("https", host, "/a b", "", "")))\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(6, 54, "IRI101")]


@pytest.mark.parametrize(("piece", "expected"), [
    ('"https://" + GOOD + "/a"', [(3, 14, "IRI808")]),  # the host becomes "https" (fixtures151)
    ('f"https://{GOOD}/a"', [(3, 15, "IRI808")]),
    ('"http://" + GOOD', [(3, 14, "IRI808")]),
    ('scheme + "://" + GOOD', [(3, 23, "IRI808")]),  # the scheme a hole: the '://'
    ('"https://" + HOST + "/a"', []),  # a host joined: right
    ('"https://" + scheme + "/a"', []),  # unknown: a host, most likely
    ('"https://web.archive.org/web/" + GOOD', []),  # a URL in the path: data of the outer one
    ('"https://h.example/?next=" + GOOD', []),
])
def test_a_url_joined_after_a_scheme_s_slashes(piece: str, expected: list[tuple[int, int, str]]) -> None:
    src = (f'import requests\nGOOD = "https://good.example"\nrequests.get({piece})\n'
           'HOST = "good.example"\nscheme = input()\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("piece", "expected"), [
    ('"s3://" + BUCKET + "builds/x.json"', [(7, 43, "IRI801")]),  # a dotless bucket (fixtures156 repro 03)
    ('"http://" + SERVICE + "healthz"', [(7, 46, "IRI801")]),  # a Kubernetes service's short name
    ('"http://" + SERVICE + ".payments.svc/x"', []),  # its next label
    ('"https://" + "api" + "gateway.example.com/"', []),  # a host spelled in parts
    ('"youlmk://" + "ylk_" + "a1b2c3"', []),  # a token in two pieces: no host ends with '_' (outside4 repro 07)
    ('"http://" + IP + ":" + str(PORT) + "healthz"', [(7, 59, "IRI801")]),  # the port's '/' missing, not IRI112
    ('f"http://{IP}:{PORT}{READY}"', [(6, 9, "IRI801")]),  # (in READY's own literal)
    ('f"http://{h}:{PORT}/x"', []),
])
def test_a_word_joined_to_a_dotless_host_or_after_a_port(piece: str, expected: list[tuple[int, int, str]]) -> None:
    src = ('import requests\nBUCKET = "deploy-artifacts"\nSERVICE = "payments-api"\nIP = "10.0.12.7"\nPORT = 9100\n'
           'READY = "readyz"\ndef f(h): requests.get(' + piece + ')\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


def test_a_port_joined_after_a_host_and_port_is_the_join_s_fault() -> None:
    """fixtures117, repro 01: ``"https://" + REG + ":5000/v2/"`` with ``REG = "registry.example.com:5000"``: the
    port becomes ``5000:5000`` by the join (IRI801), as after a whole ``HOST`` with its scheme; not IRI112."""
    src = ('import requests\nREG = "registry.example.com:5000"\nHOST = "https://h.example:8443"\n'
           'requests.get("https://" + REG + ":5000/v2/")\nrequests.get(f"https://{REG}:5000/v2/")\n'
           'requests.get(HOST + ":9443/x")\nrequests.get("https://[" + "::1" + "]:" + "8080/")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (4, 33, "IRI801"), (5, 28, "IRI801"), (6, 21, "IRI801")]


def test_an_at_sign_joined_after_a_port_makes_no_password_of_it() -> None:
    """``REGISTRY + "@mirror.acme.io/v2/"``: the join makes ``registry.acme.io:5000`` the userinfo, so the port is
    a "password" only as a consequence: IRI801 alone (fixtures83, repro 02); a real password stays reported."""
    src = ('import requests\nREGISTRY = "https://registry.acme.io:5000"\nSECRET = "https://u:s3cr3tX@r.acme.io"\n'
           'requests.get(REGISTRY + "@mirror.acme.io/v2/")\nrequests.get(SECRET + "x/")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (3, 20, "IRI506"), (4, 25, "IRI801"), (5, 23, "IRI801")]


@pytest.mark.parametrize(("between", "expected"), [
    ('urlencode(p)', [(7, 56, "IRI803")]),  # percent-encoded: it holds no '#' to end the query (fixtures80, 01)
    ('quote(p)', [(7, 52, "IRI803")]),
    ('str(len(p))', [(7, 55, "IRI803")]),  # a number's digits
    ('quote(p, safe="#")', []),  # it may hold a '#' that ends the query
    ('p', []),
])
def test_a_second_query_after_an_unknown_part_that_cannot_end_the_query(
        between: str, expected: list[tuple[int, int, str]]) -> None:
    src = ('from urllib.parse import quote, urlencode\nimport requests\n'
           'LISTING = "https://api.example/v1/charges?limit=10"\n\n\n'
           f'def f(p):\n    return requests.get(LISTING + "&" + {between} + "?expand=data")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("piece", "expected"), [
    ('"https://" + HOST + "docs"', [(4, 34, "IRI801")]),  # a whole dotted host from one piece (fixtures36, 03)
    ('"https://" + HOST + "@corp.example.com/"', [(4, 34, "IRI801")]),  # ... made the userinfo (fixtures77)
    ('f"https://{HOST}@corp.example.com/"', [(4, 29, "IRI801")]),
    ('"https://" + USER + "@" + HOST + "/"', []),  # a userinfo built on purpose
    ('f"https://{HOST}docs"', [(4, 29, "IRI801")]),
    ('"http://" + "10.0.0.1" + "8080/"', [(4, 39, "IRI801")]),
    ('"https://" + HOST + "/docs"', []),
    ('"https://" + SUB + ".example.com/x"', []),  # a host built from parts on purpose
    ('"https://" + SUB + "1.example.com/"', []),
    ('"https://" + "www.example" + ".com/"', []),
    ('"https://" + HOST + "-eu.example/x"', []),
    ('"https://example" + ".com/"', []),  # a dotless name and its next label (fixtures52)
    ('"https://secure-p" + "aypal.com/"', []),  # ... that the joined word goes on with (fixtures246 #2)
    ('"https://cdn" + "-.example.com/"', [(4, 30, "IRI403")]),  # (the label's own fault)
    ('"https://\u4f8b\u3048" + "\u3002\u30c6\u30b9\u30c8/"', []),  # (an ideographic full stop: a label separator)
    ('f"https://p{A}ypal.com/"', [(4, 25, "IRI502")]),  # a host spelled in parts around a known piece: only
    ('"https://r" + "\u00e9" + "sum.example.org/"', []),  # its look-alike is at fault (fixtures45, repro 01)
])
def test_a_join_after_a_whole_host_spelled_apart_from_its_scheme(piece: str,
                                                                 expected: list[tuple[int, int, str]]) -> None:
    src = (f'import requests\nHOST = "export.example.io"\nSUB = "api"; A = "\u0430"; USER = "bot"\n'
           f"requests.get({piece})\n")
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("piece", "joined"), [
    ('f"https://{x}.example.com" + "img"', True),  # whole labels after a part (fixtures47, repro 04)
    ('"https://" + x + ".example.com" + "img/"', True),
    ('f"https://{x}.com" + "img"', True),
    ('f"https://{x}.s3" + "-eu.example.com/"', False),
    ('f"https://{x}.s3" + ".example.com/"', False),
    ('f"https://{x}.{y}" + "img"', False),
    ('f"https://{x}.example.com" + ":8443/"', False),
    ('"https://example" + ".com/"', False),  # a dotless name and its next label (fixtures52)
    ('"https://api." + x + "img"', False),
    ('"https://s3." + x + "." + "amazonaws.com" + "img"', True),  # whole labels in a piece of their own
    ('"https://s3." + "eu-west-1" + "." + "amazonaws.com" + "img"', True),  # (fixtures83, repro 03)
    ('"https://s3." + x + "." + "amazonaws." + "img"', False),  # the piece ends a label: the next one starts
    ('"https://" + "api.v" + "img"', True),
])
def test_a_join_after_a_host_that_ends_in_whole_labels_after_a_part(piece: str, joined: bool) -> None:
    """The host's last label goes on with the joined text (at its first character) whatever the part before."""
    call = f"def f(x, y): return requests.get({piece})\n"
    src = f"import requests\n\n{call}"
    expected = [(3, call.index('"img') + 1, "IRI801")] if joined else []  # (0-based, as flake8 takes it)
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


def test_a_piece_from_another_module_is_placed_at_the_name_that_brings_it(tmp_path: Path) -> None:
    """Its character at fault is in another file: the nearest place in this one is the name that reads it
    (on its own line in a multi-line argument, where a noqa comment can silence it)."""
    modules = {"c.py": 'SPACE = "/a b"\n',
               "m.py": 'import requests\nfrom c import SPACE\nrequests.get("https://t.example" + SPACE)\n'
                       'requests.get(\n    "https://t.example"\n    + SPACE  # noqa: IRI101\n)\n'}
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for name, text in modules.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = lint_text(modules["m.py"], Config(), path=str(tmp_path / "m.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in found] == [(3, 35, "IRI101")]


def test_an_object_of_a_project_class_derived_from_a_client_is_a_client() -> None:
    """``class Api(requests.Session)`` that changes no method a request goes through: its ``get`` is
    ``requests.Session().get``; one that overrides ``request`` (to prefix a base URL, as requests-toolbelt's
    BaseUrlSession does) changes what its URLs mean, and is not followed."""
    src = '''import requests
HOST = "https://h.example"


class Api(requests.Session):
    def __init__(self):
        super().__init__()


class Prefixed(requests.Session):
    def request(self, method, url, *args, **kwargs):
        return super().request(method, HOST + url, *args, **kwargs)


Api().get(HOST + "/a b")
Prefixed().get("/c d")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(15, "IRI101")]


def test_a_client_base_from_another_module_is_placed_where_the_client_is_made(tmp_path: Path) -> None:
    modules = {"conf.py": 'TENANT_BASE = "https://mi.example.com/{tenant}/"\n',
               "m.py": "import httpx\nfrom conf import TENANT_BASE\n\n\ndef f():\n"
                       "    c = httpx.Client(base_url=TENANT_BASE)\n    return c.get('items')\n"}
    assert _lint_project(tmp_path, modules, "m.py") == [(6, "IRI805")]


@pytest.mark.parametrize("src", [
    # a page's URL as the base: its links resolve against it (RFC 3986 sec. 5.1)
    'from urllib.parse import urljoin\nimport requests\nPAGE = "https://d.example/guide/install.html"\n'
    'requests.get(urljoin(PAGE, "../api/index.html"))\n',
    # a playlist's segments resolve against it, whatever digits its extension has (fixtures97, repro 01)
    'from urllib.parse import urljoin\nimport requests\nHLS = "https://v.example/s/abc/master.m3u8"\n'
    'requests.get(urljoin(HLS, "seg_1.ts"))\nrequests.get(urljoin(HLS, "/keys/k.key"))\n'
    'requests.get(urljoin("https://v.example/s/playlist.f4m", "seg_1.ts"))\n',
    # '//' that starts the path after an empty authority: SQLAlchemy's absolute path, RFC 8089's UNC form
    'DB_PATH = "/srv/app/app.db"\nDATABASE_URL = "sqlite:///" + DB_PATH\nUNC_URL = "file:///" + "/srv/share/r.txt"\n',
    # a nested function may rebind a local at any call
    'import sys\nimport requests\n\n\ndef f():\n    base = "https://c.example/"\n\n    def inner():\n'
    '        nonlocal base\n        base = sys.argv[1]\n\n    inner()\n    return requests.get(base + "/x")\n',
])
def test_values_built_on_purpose_in_application_code_are_quiet(src: str) -> None:
    assert lint_text(src, Config()) == []


def test_a_number_in_the_query_is_no_unencoded_value() -> None:
    """IRI806 (opt-in): a format that prints a number prints no delimiter; a '+' flag prints a sign."""
    src = ('import requests\nAPI = "https://a.example"\n\n\ndef f(page, x, n):\n'
           '    requests.get(API + "/i?p=%d" % page)\n'
           '    requests.get(f"{API}/i?p={page:d}&r={x:.2f}&l={len(n)}&i={int(x)}")\n'
           '    requests.get(API + "/i?p={:+d}&q={}&s=%s".format(page, x) % n)\n'
           '    requests.get(f"{API}/i?p={page:&>4d}")\n'  # ('&' fills it)
           '    requests.get(API + "/i?p=" + str(int(page)) + "&q=" + str(x))\n'  # (fixtures53)
           '    requests.get(f"{API}/i?p={x:e}&q={x:.3g}&r={x:E}")\n')  # (an exponent's sign: 1e+20)
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.code) for f in found] == [(8, "IRI806")] * 3 + [(9, "IRI806"), (10, "IRI806")] + \
        [(11, "IRI806")] * 3


def test_a_nonlocal_elsewhere_in_the_module_leaves_other_functions_locals_alone() -> None:
    src = ('import sys\nimport requests\n\n\ndef f():\n    base = "https://c.example/"\n\n    def inner():\n'
           '        nonlocal base\n        base = sys.argv[1]\n\n    inner()\n'
           '    return requests.get(base + "/x")\n\n\n'
           'def g():\n    base = "https://d.example/"\n    return requests.get(base + "/y")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(18, "IRI802")]


@pytest.mark.parametrize(("again", "expected"), [
    ('"https://same.example/"', [(8, "IRI802")]),  # every binding agrees: the value is known
    ('"https://other.example/"', [(8, "IRI802")]),  # they differ: each path's value (fixtures200 repro 08)
    ('w + "v2/"', [(8, "IRI802")]),  # a binding of its own in a branch: each path too
    ('"https://other.example/v2"', [(8, "IRI802")]),  # one path doubles the '/': reported on it
    ('sys.argv[1]', [(8, "IRI802")]),  # a path unknown: the known one still is checked
])
def test_a_name_bound_again_in_a_branch_is_known_when_the_bindings_agree(
        again: str, expected: list[tuple[int, str]]) -> None:
    src = (f'import requests, sys\n\n\ndef f(flag):\n    w = "https://same.example/"\n    if flag:\n'
           f'        w = {again}\n    requests.get(w + "/w")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("fallback", "expected"), [
    ('BASE = "https://a.example/"\n', [(6, "IRI802")]),  # the two imports agree
    ('BASE = "https://b.example"\n', []),  # they differ: which one runs is not known
])
def test_a_constant_imported_in_try_and_except_is_known_when_both_agree(
        tmp_path: Path, fallback: str, expected: list[tuple[int, str]]) -> None:
    modules = {"primary.py": 'BASE = "https://a.example/"\n', "fallback.py": fallback,
               "use.py": "import requests\ntry:\n    from primary import BASE\nexcept ImportError:\n"
                         "    from fallback import BASE\nrequests.get(BASE + '/x')\n"}
    assert _lint_project(tmp_path, modules, "use.py") == expected


@pytest.mark.parametrize(("piece", "code"), [
    ('f"{API}/\\u202e{x}"', "IRI201"),  # a Trojan Source override right before a hole
    ('API + "/\\u202e" + x', "IRI201"),
    ('f"https://api.example.com/\\u202e{x}"', "IRI201"),  # (a literal's own check)
    ('f"{API}/a\\u2066{x}"', "IRI202"),
    ('f"{API}/a\\u200b{x}"', "IRI505"),
])
def test_a_bidi_or_invisible_character_beside_a_hole_is_reported(piece: str, code: str) -> None:
    """A hole stands for valid content, and none beside such a character makes it valid (RFC 3987
    sec. 4.1, 8): fixtures13 found them dropped at a hole's edge."""
    src = f'import requests\nAPI = "https://api.example.com"\n\n\ndef f(x):\n    requests.get({piece})\n'
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(6, code)]


def test_a_question_mark_in_a_parameters_value_is_data() -> None:
    """RFC 3986 sec. 3.4: a '?' in a query is data; a piece joined right after '=' is a parameter's value
    (a URL passed as one), not a second query (fixtures13)."""
    src = ('from urllib.parse import quote\nimport requests\nAPI = "https://api.example.com"\n'
           'NEXT = "https://app.example.com/home?tab=1"\n'
           'requests.get(API + "/login?next=" + "/home?tab=1")\n'
           'requests.get(API + "/login?next=" + quote(NEXT, safe=":/?="))\n'
           'requests.get(API + "/list?page=1" + "?sort=desc")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(7, "IRI803")]


def test_one_huge_constant_is_a_hole_and_the_uses_after_it_are_followed() -> None:
    """A chain of doublings (16,384 pieces) spent the module's evaluation budget, and every value after it
    became a hole: a Trojan Source override two lines later went unreported. The constant is a hole now;
    each later use still has ``USE_ALLOWANCE`` to spend (fixtures15)."""
    chain = "".join(f"A{k} = A{k - 1} + A{k - 1}\n" for k in range(1, 15))
    text = ("import requests\nCDN = 'https://cdn.example.net'\nA0 = 'x'\n" + chain + "requests.get(A14 + ' x')\n"
            "link = CDN + '/\\u202etxt.exe'\nrequests.get(link)\nrequests.get(CDN + '/ok y')\n")
    found = [(f.line, f.code) for f in lint_text(text, Config())]
    assert (19, "IRI201") in found and (21, "IRI101") in found


def test_an_attribute_a_str_has_not_is_a_hole() -> None:
    """``Api.BASE.value`` (an Enum member's value): the class body's text has no ``value``, so the owner is
    something else and the attribute is unknown, not a reason to drop the whole sum (fixtures15)."""
    text = ('import requests\nfrom enum import Enum\nclass Api(Enum):\n    BASE = "https://enum.example"\n'
            'requests.get(Api.BASE.value + "/a b")\nrequests.get(Api.BASE.upper() + "/c d")\n')
    found = [(f.line, f.col, f.code) for f in lint_text(text, Config())]
    assert found == [(5, 33, "IRI101"), (6, 35, "IRI101")]


@pytest.mark.parametrize(("bases", "joined"), [("Enum", False), ("str, Enum", True), ("enum.IntFlag", False),
                                                ("Base", True)])
def test_an_enum_member_is_text_only_with_str_among_the_bases(bases: str, joined: bool) -> None:
    """``Ep.API`` of ``class Ep(Enum)`` is a member, not its value: ``Ep.API + "v1"`` raises, ``f"{Ep.API}"`` is
    ``"Ep.API"`` (fixtures26, repro 02); a member of ``class Ep(str, Enum)`` is a ``str``, and a class of
    another base reads its body as before."""
    text = ('import requests, enum\nfrom enum import Enum\nfrom base import Base\n'
            f'class Ep({bases}):\n    API = "https://api.example.com"\nrequests.get(Ep.API + "v1")\n')
    found = [(f.line, f.col, f.code) for f in lint_text(text, Config())]
    assert found == ([(6, 23, "IRI801")] if joined else [])


@pytest.mark.parametrize(("use", "joined"), [
    ('Ep.API + "v1"', True), ('Ep.API.value + "v1"', True), ('Ep.API.rstrip("/") + "v1"', True),
    ('"".join([Ep.API, "v1"])', True), ('ROOT + "v1"', True), ('GROWN', True),
    ('f"{Ep.API}v1"', False), ('"{}v1".format(Ep.API)', False), ('"%sv1" % Ep.API', False),
    ('str(Ep.API) + "v1"', False), ('f"{ROOT}v1"', False), ('f"{Ep.API.value}v1"', True),
    ('f"{Str.API}v1"', True), ('"{}v1".format(Str.API)', True),
])
def test_a_str_enum_member_formatted_is_its_name_not_its_value(use: str, joined: bool) -> None:
    """A member of ``class Ep(str, Enum)`` is its value to str operations (``+``, ``join``, ``.value``,
    methods), but formatted (f-string, ``format``, ``%``, ``str()``) it is ``Ep.API`` since Python 3.11: a
    hole there, not a URL joined without a ``/`` (fixtures107, repro 01); a StrEnum's member formats as its value."""
    text = ('import requests\nfrom enum import Enum, StrEnum\nclass Ep(str, Enum):\n    API = "https://api.example.com"\n'
            'class Str(StrEnum):\n    API = "https://api.example.com"\nROOT = Ep.API\nGROWN = Ep.API\nGROWN += "v1"\n'
            f'requests.get({use})\n')
    found = [f.code for f in lint_text(text, Config())]
    assert found == (["IRI801"] if joined else [])


@pytest.mark.parametrize("bases", ["Enum", "StrEnum", "str, Enum", "enum.Enum"])
@pytest.mark.parametrize("use", ['Ep.API.value + "v1"', 'f"{Ep.API.value}v1"', '"/".join([Ep.ITEM.value, "v1"])'])
def test_an_enum_member_s_value_is_what_the_class_binds_it_to(bases: str, use: str) -> None:
    """``Ep.API.value`` is the member's value whatever the enum's bases (fixtures240: a StrEnum's ``.value`` was a
    hole while its member and a ``(str, Enum)``'s ``.value`` were followed)."""
    text = ('import enum, requests\nfrom enum import Enum, StrEnum\n'
            f'class Ep({bases}):\n    API = "https://api.example.com"\n    ITEM = "https://api.example.com/items/"\n'
            f'requests.get({use})\n')
    found = [f.code for f in lint_text(text, Config())]
    assert found == (["IRI802"] if "ITEM" in use else ["IRI801"])


def test_an_enum_member_s_value_from_another_module_or_rebound(tmp_path: Path) -> None:
    """Read from the enum's own module; a member the module binds again from outside the class is a hole."""
    files = {"defs.py": 'import enum\nclass Route(enum.StrEnum):\n    ITEM = "https://api.example.com/{item_id}"\n'
                        '    ROOT = "https://api.example.com"\nRoute.ROOT = "https://other.example/"\n',
             "use.py": 'import requests\nfrom defs import Route\nrequests.get(Route.ITEM.value)\n'
                       'requests.get(Route.ROOT.value + "v1")\n'}
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    use = str(tmp_path / "use.py")
    found = [(f.line, f.code) for f in lint_text(files["use.py"], Config(), path=use, project=Project())]
    assert found == [(3, "IRI805")]


@pytest.mark.parametrize("declaration", [
    'target: AnyHttpUrl = HOST + "uploads"', 'endpoint: Optional[HttpUrl] = HOST + "uploads"',
    'sink: pydantic.AnyUrl = Field(default=HOST + "uploads")', 'hooks: list[HttpUrl] = [HOST + "uploads"]',
    'feed_url = attr.ib(factory=lambda: HOST + "uploads")', 'fwd: "Optional[HttpUrl]" = HOST + "uploads"',
])
def test_a_target_typed_as_a_url_or_an_attrs_factory_is_a_use(declaration: str) -> None:
    """fixtures240: a field annotated with pydantic's URL types holds a URL whatever its name, as a URL-named one
    does; attrs' ``factory=`` is its ``default_factory=``."""
    text = ('import attr, pydantic\nfrom typing import Optional\nfrom pydantic import AnyHttpUrl, BaseModel, Field, '
            f'HttpUrl\nHOST = "https://h.example.com"\nclass Settings(BaseModel):\n    {declaration}\n'
            'def hook(callback: HttpUrl = HOST + "uploads"):\n    pass\n')
    found = [(f.line, f.code) for f in lint_text(text, Config())]
    assert found == [(6, "IRI801"), (7, "IRI801")]


def test_a_pydantic_settings_str_field_default_is_its_value_where_the_environment_sets_none() -> None:
    """fixtures245: a FastAPI service keeps its URLs in ``BaseSettings``, whose object was a hole; its ``str``
    fields' defaults are what ``os.getenv``'s default is (also ``Field(...)``'s, and through a getter cached by
    ``functools.lru_cache``); a URL type's field is another text (``AnyHttpUrl`` adds a '/'), a required one none."""
    text = ('import requests\nfrom functools import lru_cache\nfrom pydantic import AnyHttpUrl, Field\n'
            'from pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n'
            '    api_root: str = "https://api.example.com"\n    hook_root: str = Field(default="https://hooks.example")\n'
            '    docs_root: AnyHttpUrl = "https://docs.example.com"\n    need: str = Field(...)\n\n\n'
            '@lru_cache\ndef get_settings() -> Settings:\n    return Settings()\n\n\nsettings = Settings()\n'
            'requests.get(settings.api_root + "items")\nrequests.get(get_settings().hook_root + "x")\n'
            'requests.get(f"{settings.docs_root}/y")\nrequests.get(settings.need + "z")\n'
            'custom = Settings(api_root="https://api2.example.com/")\nrequests.get(custom.api_root + "w")\n')
    # (an object made with its fields given has its own: fixtures246 #3)
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(20, "IRI801"), (21, "IRI801")]


def test_a_partial_of_a_url_api_is_the_url_api() -> None:
    """``fetch = functools.partial(requests.get, timeout=5)`` calls ``requests.get`` with the same URL; a partial
    that fixes a positional argument moves the URL (a hole)."""
    text = ('import functools, requests\nfrom functools import partial\nBASE = "https://api.example.com"\n'
            'fetch = functools.partial(requests.get, timeout=5)\npost = partial(requests.post, headers={"A": "b"})\n'
            'session = requests.Session()\nsget = partial(session.get, timeout=3)\n'
            'fixed = partial(requests.request, "GET")\n'
            'fetch(BASE + "items")\npost(BASE + "/a b")\nsget(BASE + "x")\nfixed(BASE + "y")\n'
            'from functools import partial as bind\naliased = bind(requests.get, timeout=2)\naliased(BASE + "z")\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(9, "IRI801"), (10, "IRI101"), (11, "IRI801"),
                                                                   (15, "IRI801")]


@pytest.mark.parametrize("value", ['HOST + "/next page"', '"/next page"'])
def test_a_url_named_walrus_target_is_a_use(value: str) -> None:
    """``(next_url := ...)`` binds a URL-named name as ``next_url = ...`` does (issue #27 item 3)."""
    text = f'import requests\nHOST = "https://h.example"\nif (next_url := {value}):\n    pass\n'
    found = [(f.line, f.code) for f in lint_text(text, Config())]
    assert found == [(3, "IRI101")]


def test_a_module_constant_bound_again_to_the_same_text_in_a_branch_is_known_everywhere(tmp_path: Path) -> None:
    """``HOST = X`` then ``if flag: HOST = X``: every binding agrees, so the name is known where the module
    has run too (from a function, from another module), as it is at module level (fixtures16)."""
    modules = {"a.py": ('import os\nimport requests\nHOST = "https://h.example"\nif os.environ.get("X"):\n'
                        '    HOST = "https://h.example"\ndef f():\n    requests.get(HOST + "docs")\n'
                        'requests.get(HOST + "docs")\n'),
               "b.py": "import requests\nfrom a import HOST\nrequests.get(HOST + 'docs')\n"}
    assert _lint_project(tmp_path, modules, "a.py") == [(7, "IRI801"), (8, "IRI801")]
    assert _lint_project(tmp_path, modules, "b.py") == [(3, "IRI801")]
    differ = dict(modules, **{"a.py": modules["a.py"].replace('    HOST = "https://h.example"', '    HOST = "https://o.example"')})
    # (they differ: a hole that keeps each value, checked in turn: fixtures206 repro 06)
    assert _lint_project(tmp_path, differ, "b.py") == [(3, "IRI801")]


@pytest.mark.parametrize("expr", ['"https://h.example/u/%s|y" % user', 'f"https://h.example/u/{user}^y"',
                                  '"https://h.example/u/" + user + "|y"', '"https://h.example/x|%s" % user'])
def test_an_unwise_character_beside_a_hole_is_reported(expr: str) -> None:
    """'|' or '^' is wrong in every IRI whatever a hole beside it holds (RFC 3987 sec. 2.2's ucschar and
    RFC 3986's unreserved leave them out): a hole cannot make it right (fixtures16)."""
    text = f"import requests\ndef f(user):\n    requests.get({expr})\n"
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(3, "IRI103")]


def test_a_template_named_constant_of_another_module_is_checked_where_it_is_filled(tmp_path: Path) -> None:
    """``LINK_FMT`` is not checked in its own module (a template, by its name); filled in another, what is left
    of its text is the URL's own there, so its '|' is reported at the name that brings it in (fixtures16)."""
    modules = {"settings.py": 'LINK_FMT = "https://h.example/u/%s/a|x"\n',
               "app.py": "import requests\nfrom settings import LINK_FMT\ndef f(user):\n"
                         "    requests.get(LINK_FMT % user)\n"}
    assert _lint_project(tmp_path, modules, "settings.py") == []
    assert _lint_project(tmp_path, modules, "app.py") == [(4, "IRI103")]


def test_star_imports_past_the_project_s_cache_read_each_module_at_most_twice(tmp_path: Path) -> None:
    """200 star imports (more than the 128 parsed modules a project keeps), a name of each used: each module
    is read for its exports (once a file, indexed by name), then for its value. Every lookup read every
    star-imported module again once the project had dropped it: 40,144 reads, 17 s (fixtures16)."""
    n = 200
    modules = {f"s{i}.py": "".join(f'C{i}_{j} = "https://h{j}.example"\n' for j in range(10)) for i in range(n)}
    modules["app.py"] = ("".join(f"from s{i} import *\n" for i in range(n)) + "import requests\n"
                         + "".join(f"requests.get(C{i}_1 + 'x')\n" for i in range(n)))
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for name, text in modules.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    project = Project()
    found = lint_text(modules["app.py"], Config(), path=str(tmp_path / "app.py"), project=project)
    assert [f.code for f in found] == ["IRI801"] * n
    assert project.files_read == n and project.loads <= 2 * n  # (its exports, then its value: linear)


def test_self_attributes_inherited_from_a_class_of_another_module(tmp_path: Path) -> None:
    """``class Users(Base)`` with ``Base`` imported: ``self._client`` is the base's client. Where the subclass
    binds a name the base binds too (``BASE_URL``), the base's methods may have read the subclass's: the
    client's base URL is then unknown, and only what the request's own literal gets wrong is reported
    (fixtures17)."""
    modules = {"base.py": ('import httpx\nclass Base:\n    BASE_URL = "https://api.example/v1/"\n'
                           '    def __init__(self):\n        self._client = httpx.Client(base_url=self.BASE_URL)\n'),
               "users.py": ("from base import Base\nclass Users(Base):\n    def list(self):\n"
                            '        return self._client.get("/users/a b")\n'),
               "sub.py": ('from base import Base\nclass Sub(Base):\n    BASE_URL = "https://sub.example"\n'
                          '    def list(self):\n        return self._client.get("/users/a b")\n')}
    # the base ends with '/', the request starts with one: httpx strips it (no IRI802); the space is found
    assert _lint_project(tmp_path, modules, "users.py") == [(4, "IRI101")]
    assert _lint_project(tmp_path, modules, "sub.py") == [(5, "IRI101")]
    modules["users.py"] = modules["users.py"].replace('"/users/a b"', '"users/ab"')
    assert _lint_project(tmp_path, modules, "users.py") == []


def test_inherited_text_that_read_an_overridden_name_is_a_hole(tmp_path: Path) -> None:
    modules = {"base.py": ('class Base:\n    BASE_URL = "https://api.example"\n'
                           "    def __init__(self):\n        self.root = self.BASE_URL\n"),
               "same.py": ("import requests\nfrom base import Base\nclass Same(Base):\n    def go(self):\n"
                           '        return requests.get(self.root + "docs")\n'),
               "other.py": ('import requests\nfrom base import Base\nclass Other(Base):\n    BASE_URL = "https://o.example/"\n'
                            '    def go(self):\n        return requests.get(self.root + "docs")\n')}
    assert _lint_project(tmp_path, modules, "same.py") == [(5, "IRI801")]
    assert _lint_project(tmp_path, modules, "other.py") == []  # (its BASE_URL ends with '/': no join fault)


def test_a_class_body_constant_inherited_from_another_module_survives_an_unrelated_override(
        tmp_path: Path) -> None:
    """``class Rebinds(PlainApi): BASE = ...``: ``self.HOST``, bound in PlainApi's class body alone, was read when
    PlainApi was made, whatever Rebinds overrides (fixtures50b, repro 01: every inherited name was a hole)."""
    modules = {"base.py": 'class PlainApi:\n    BASE = "https://plain.example/"\n    HOST = "https://h.example"\n',
               "b.py": ('import requests\nfrom base import PlainApi\nclass Rebinds(PlainApi):\n'
                        '    BASE = "https://other.example/"\n    def go(self):\n'
                        '        return requests.get(self.HOST + "y")\n'
                        'requests.get(Rebinds().HOST + "w")\n')}
    assert _lint_project(tmp_path, modules, "b.py") == [(6, "IRI801"), (7, "IRI801")]


def test_a_client_class_of_the_project_takes_the_base_its_init_gives() -> None:
    """``class Api(httpx.Client)`` passing ``base_url`` to ``super().__init__``: ``Api().get(...)`` and
    ``self.get(...)`` are requests through a client with that base; without an ``__init__``, the call's own
    ``base_url=`` is the base (fixtures17)."""
    text = ('import httpx\nclass Api(httpx.Client):\n    def __init__(self):\n'
            '        super().__init__(base_url="https://sub.example/v1")\n'
            '    def me(self):\n        return self.get("me/a b")\n'
            'Api().get("you/a b")\n'
            'class Plain(httpx.Client):\n    pass\n'
            'Plain(base_url="https://p.example/v1/").get("x y")\n'
            'class Own(httpx.Client):\n    def get(self, url):\n        return url\n'
            'Own().get("not a request")\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(6, "IRI101"), (7, "IRI101"), (10, "IRI101")]


def test_an_unwise_character_after_a_hole_of_an_iri_found_by_its_shape_alone_ends_it() -> None:
    """A literal that starts with a scheme and is used as nothing (a record, a cache key, a log line) may end
    where a hole's neighbour stands: ``f"https://h/{repo}|{title}"`` is a record whose separator is '|'
    (RFC 3986 appendix C). Used as a URL, the same text is a fault (fixtures18)."""
    text = ('import logging\nimport requests\ndef f(out, repo, n, title, cache):\n'
            '    out.write(f"https://github.com/{repo}/pull/{n}|{title}\\n")\n'
            '    cache.get(f"https://api.github.com/repos/{repo}/pulls|{n}")\n'
            '    logging.info("https://h.example/%s|%s", repo, n)\n'
            '    requests.get(f"https://api.github.com/repos/{repo}/pulls|{n}")\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(7, "IRI103")]


def test_an_aiohttp_base_url_resolution_that_drops_the_base_path_is_iri804() -> None:
    """aiohttp resolves a request's URL against ``base_url`` as ``urljoin`` does (RFC 3986 sec. 5.2): an
    absolute path replaces ``/api/``; httpx appends instead, and a relative reference keeps it
    (fixtures17, fixtures18)."""
    text = ('import aiohttp\nimport httpx\nasync def f():\n'
            '    async with aiohttp.ClientSession(base_url="http://localhost:8080/api/") as s:\n'
            '        await s.get("/items")\n        await s.get("items")\n'
            '    httpx.Client(base_url="http://localhost:8080/api/").get("/items")\n')
    found = lint_text(text, Config())
    assert [(f.line, f.col, f.code) for f in found] == [(5, 21, "IRI804")]
    assert "base_url resolution replaces the base's path '/api/'" in found[0].finding.message


def test_a_client_class_of_another_module_gives_its_subclasses_its_base(tmp_path: Path) -> None:
    """``class Acme(Base)``, ``Base(httpx.Client)`` in another module passing ``base_url`` to
    ``super().__init__``: the project read ``Base`` without its ``__init__``'s body (it binds no attribute),
    so ``self.get(...)`` in ``Acme`` had no base (fixtures19)."""
    modules = {"base.py": ('import httpx\nclass Base(httpx.Client):\n    def __init__(self):\n'
                           '        super().__init__(base_url="https://api.acme.example/v1")\n'),
               "m.py": ('from base import Base\nclass Acme(Base):\n    def spaced(self):\n'
                        '        return self.get("/items/all items")\n')}
    assert _lint_project(tmp_path, modules, "m.py") == [(4, "IRI101")]


def test_a_client_subclass_of_another_module_overriding_the_base_s_name_keeps_its_requests_checked(
        tmp_path: Path) -> None:
    """``class TenantApi(ApiClient): BASE = ...`` where ``ApiClient.__init__`` gives ``base_url=self.BASE``: the
    base URL is a hole (it may be the subclass's), the requests are still checked (fixtures116, repro 01: the
    whole client was a hole, so ``self.get("konto x")`` went unchecked)."""
    modules = {"base.py": ('import httpx\nclass ApiClient(httpx.Client):\n    BASE = "https://login.example/acme/"\n'
                           '    def __init__(self):\n        super().__init__(base_url=self.BASE)\n'),
               "sub.py": ('from base import ApiClient\nclass TenantApi(ApiClient):\n'
                          '    BASE = "https://anmeldung.example/mandant/"\n'
                          '    def konto(self):\n        return self.get("konto x")\n'
                          '    def joined(self):\n        return self.get("/konto")\n')}
    assert _lint_project(tmp_path, modules, "sub.py") == [(5, "IRI101")]  # (no IRI802: the base is unknown)


def test_a_constant_met_past_the_depth_limit_is_known_at_the_next_use() -> None:
    """50 nested ``urljoin`` over ``CDN``: past ``MAX_DEPTH`` it is a hole there, and that hole was kept as
    ``CDN``'s value for the rest of the file (fixtures19)."""
    deep = "CDN"
    for _ in range(50):
        deep = f"urljoin({deep}, 'a/')"
    text = (f"import requests\nfrom urllib.parse import urljoin\nCDN = 'https://cdn.example.net'\n"
            f"requests.get({deep})\nrequests.get(CDN + 'img')\n")
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(5, "IRI801")]


def test_posixpath_join_keeps_the_known_text_after_a_hole() -> None:
    """``posixpath.join(BASE, "clips", slug + " hd.mp4")``: whatever ``slug`` holds (a leading '/' would
    start afresh), the URL ends with " hd.mp4" (fixtures20)."""
    text = ('import posixpath\nimport requests\nBASE = "https://cdn.example.net/"\ndef f(slug):\n'
            '    requests.get(posixpath.join(BASE, "clips", slug + " hd.mp4"))\n'
            '    requests.get(posixpath.join(BASE, "clips", slug + "/ok.mp4"))\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(5, "IRI101")]


def test_a_class_attribute_rebound_outside_its_class_is_a_hole() -> None:
    """``K.ROOT = ...`` at module level or ``setattr(K, ...)`` rebinds what the class body bound: ``K.ROOT``
    and ``self.ROOT`` are holes, not the body's text (a confident wrong IRI801, fixtures21)."""
    text = ('import requests\nclass K:\n    ROOT = "https://k.example"\n    def go(self):\n'
            '        return requests.get(self.ROOT + "docs")\nK.ROOT = "https://other.example/"\n'
            'requests.get(K.ROOT + "docs")\n'
            'class S:\n    ROOT = "https://s.example"\nsetattr(S, "ROOT", "https://other.example/")\n'
            'requests.get(S.ROOT + "docs")\n'
            'class T:\n    ROOT = "https://t.example"\nif T.ROOT == "x":\n    pass\nrequests.get(T.ROOT + "docs")\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(16, "IRI801")]


@pytest.mark.parametrize(("rebinding", "silent"), [
    ('def rebase(cls):\n    cls.ROOT = "https://r.example/"\n    return cls\n\n\n@rebase\n', True),
    ('def rebase(kls):\n    setattr(kls, "ROOT", "https://r.example/")\n    return kls\n\n\n@rebase\n', True),
    ('def mark(cls):\n    cls.SEEN = True\n    return cls\n\n\n@mark\n', False),  # another attribute
    ("import functools\n\n\n@functools.total_ordering\n", False),  # (a decorator this module does not define)
])
def test_a_class_attribute_rebound_by_a_decorator_of_this_module_is_a_hole(rebinding: str, silent: bool) -> None:
    """A decorator that binds the attribute on its class (fixtures85, repro 01) rebinds what the body bound."""
    text = (f'import requests\n{rebinding}class K:\n    ROOT = "https://k.example"\n\n'
            '    def go(self):\n        return requests.get(self.ROOT + "docs")\n')
    assert [f.code for f in lint_text(text, Config())] == ([] if silent else ["IRI801"])


def test_a_class_attribute_rebound_through_an_alias_of_the_class_is_a_hole() -> None:
    """``K = Aliased`` then ``K.BASE = ...`` rebinds ``Aliased.BASE`` (fixtures85, repro 01)."""
    text = ('import requests\n\n\nclass Aliased:\n    BASE = "https://a.example"\n\n    def get(self):\n'
            '        return requests.get(self.BASE + "x")\n\n\nK = Aliased\nK.BASE = "https://a.example/"\n')
    assert lint_text(text, Config()) == []


def test_a_rebinding_is_read_by_the_whole_class_name() -> None:
    """``K.ROOT += ...`` is a rebinding of K's attribute; ``MyK.ROOT = ...`` and ``setattr(MyK, ...)`` are not."""
    text = ('import requests\nclass K:\n    ROOT = "https://k.example"\nK . ROOT += "/v1"\n'
            'requests.get(K.ROOT + "docs")\n'
            'class J:\n    ROOT = "https://j.example"\nclass MyJ:\n    ROOT = ""\nMyJ.ROOT = "x"\n'
            'setattr(MyJ, "ROOT", "y")\nrequests.get(J.ROOT + "docs")\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(12, "IRI801")]


def test_a_joined_path_is_one_url_whatever_its_known_text_holds() -> None:
    """``posixpath.join`` and ``urljoin`` give one path or URL: a URL-named function returning one, with a
    hole before a piece with a space, is not prose (fixtures20); a URL-named value of text around a hole is."""
    text = ('import posixpath\nfrom urllib.parse import urljoin\nBASE = "https://cdn.example.com/"\n'
            'def clip_url(slug):\n    return posixpath.join(BASE, "clips", slug + " hd.mp4")\n'
            'def page_url(slug):\n    return urljoin(BASE, slug + "/a b")\n'
            'def help_url(topic):\n    return topic + " is documented elsewhere"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(text, Config())] == [(5, 49, "IRI101"), (7, 35, "IRI101")]


def test_a_parameters_value_between_two_question_marks_ends_no_query() -> None:
    """``?lang={lang}`` then ``?fmt=vtt``: a hole right after ``=`` in the query is data, so the second ``?`` is
    joined after the query whatever it holds (IRI803, fixtures20); a hole elsewhere may end it (no finding)."""
    text = ('import requests\nCDN = "https://cdn.example.net"\ndef subtitles(vid, lang, x):\n    url = CDN\n'
            '    url += f"/subs/{vid}"\n    url += f"?lang={lang}"\n    url += "?fmt=vtt"\n    requests.get(url)\n'
            '    requests.get(CDN + "/a?b" + x + "?c=1")\n    requests.get(CDN + "/a#" + x + "?c=1")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(text, Config())] == [(7, 12, "IRI803")]


def test_an_encoded_hole_stays_encoded_when_a_format_places_it() -> None:
    """``quote(term)`` is a hole known to be percent-encoded wherever it is placed: by an f-string, ``+``,
    ``.format`` or ``%`` (IRI806 is silent); an unencoded term placed the same way is the hint (fixtures22)."""
    text = ('from urllib.parse import quote\nimport requests\ndef f(term):\n'
            '    requests.get("https://svc.example/find?q={q}".format(q=quote(term)))\n'
            '    requests.get("https://svc.example/find?q=%s" % quote(term))\n'
            '    requests.get("https://svc.example/find?q={}".format(quote(term)))\n'
            '    requests.get("https://svc.example/find?q={q}".format(q=term))\n'
            '    requests.get("https://svc.example/find?q=%s" % term)\n')
    got = lint_text(text, Config(extend_select=("IRI806",)))
    assert [(f.line, f.code) for f in got] == [(7, "IRI806"), (8, "IRI806")]


def test_a_client_class_may_derive_through_project_classes(tmp_path: Path) -> None:
    """``class Mid(Base)``, ``class Base(httpx.Client): pass`` (here, or in another module with its own
    ``__init__``): ``self.get(...)`` in Mid is a request through the client with the base one ``__init__`` of
    the chain gives, through any that only forward their arguments (fixtures23); an ``__init__`` above it
    that changes them, or one above a class that binds a name it binds, a client whose base is a hole (its
    requests still checked: fixtures116, repro 01; fixtures160, repro 01)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "p" / "base.py").write_text(
        'import httpx\n\n\nclass Rooted(httpx.Client):\n    ROOT = "https://api.example/v1"\n\n'
        '    def __init__(self):\n        super().__init__(base_url=self.ROOT)\n\n\n'
        'class Passing(httpx.Client):\n    def __init__(self, base_url):\n'
        '        super().__init__(base_url=base_url)\n\n\n'
        'class Changing(httpx.Client):\n    def __init__(self, base_url):\n'
        '        super().__init__(base_url=base_url + "/v2")\n',
        encoding="utf-8")
    mid = tmp_path / "p" / "mid.py"
    text = ('import httpx\nfrom .base import Changing, Passing, Rooted\n\n\nclass Base(httpx.Client):\n    pass\n\n\n'
            'class Mid(Base):\n    def __init__(self):\n        super().__init__(base_url="https://api.example/v1")\n\n'
            '    def go(self):\n        return self.get("items/all of them")\n\n\n'
            'class Same(Rooted):\n    def go(self):\n        return self.get("a b")\n\n\n'
            'class Other(Rooted):\n    ROOT = "https://other.example/"\n\n    def go(self):\n'
            '        return self.get("c d")\n\n\n'
            'class Twice(Passing):\n    def __init__(self):\n        super().__init__(base_url="https://x.example")\n\n'
            '    def go(self):\n        return self.get("e f")\n\n\n'
            'class Changed(Changing):\n    def __init__(self):\n        super().__init__(base_url="https://x.example")\n\n'
            '    def go(self):\n        return self.get("g h")\n')
    mid.write_text(text, encoding="utf-8")
    found = lint_text(text, Config(), path=str(mid), project=Project(), file=str(mid))
    assert [(f.line, f.col, f.code) for f in found] == [
        (14, 34, "IRI101"), (19, 26, "IRI101"), (26, 26, "IRI101"), (34, 26, "IRI101"), (42, 26, "IRI101")]


def test_an_init_adding_to_what_it_hands_on_keeps_the_base_below(tmp_path: Path) -> None:
    """The usual SDK (fixtures160 repro 01): a base class's ``__init__(self, base_url, token)`` gives
    ``super().__init__(base_url=base_url, headers=...)``; a resource client below passes its base by name. The
    base is the one below (aiohttp refuses ``.../v2``, which ``items`` would replace: IRI812 at it), and requests
    through the class, in its methods or through an object of it, are checked; one that rebinds ``base_url`` first gives
    a client with a hole for its base, its requests checked all the same."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "p" / "base.py").write_text(
        'import aiohttp\n\n\nclass Auth(aiohttp.ClientSession):\n    def __init__(self, base_url, token):\n'
        '        self.token = token\n        super().__init__(base_url=base_url, headers={"A": token})\n\n\n'
        'class Trimmed(aiohttp.ClientSession):\n    def __init__(self, base_url, token):\n'
        '        base_url = base_url.rstrip("/")\n        super().__init__(base_url=base_url, headers={"A": token})\n',
        encoding="utf-8")
    orders = tmp_path / "p" / "orders.py"
    text = ('from .base import Auth, Trimmed\n\n\nclass Orders(Auth):\n    def __init__(self, token):\n'
            '        super().__init__(base_url="https://h.example/api/v2", token=token)\n\n'
            '    async def items(self):\n        return await self.get("items")\n\n\n'
            'class Trim(Trimmed):\n    def __init__(self, token):\n'
            '        super().__init__(base_url="https://h.example/api/v2", token=token)\n\n'
            '    async def items(self):\n        return await self.get("items")\n\n\n'
            'async def report(token):\n    return await Trim(token).get("q3 summary.csv")\n')
    orders.write_text(text, encoding="utf-8")
    found = lint_text(text, Config(), path=str(orders), project=Project(), file=str(orders))
    assert [(f.line, f.code) for f in found] == [(6, "IRI812"), (21, "IRI101")]


def test_a_url_object_s_join_drops_what_urljoin_drops() -> None:
    """``yarl.URL(base).join(URL(ref))`` and ``httpx.URL(base).join(ref)`` resolve as ``urljoin`` does (RFC 3986
    sec. 5.2.3): ``v2`` of ``.../api/v2`` is dropped by a relative reference (fixtures27, repro 01)."""
    text = ('import httpx, requests\nfrom yarl import URL\nV2 = "https://h.example/api/v2"\n'
            'requests.get(str(URL(V2).join(URL("items"))))\nrequests.get(str(httpx.URL(V2).join("items")))\n'
            'requests.get(str(URL(V2 + "/").join(URL("items"))))\n')
    found = lint_text(text, Config())
    assert [(f.line, f.col, f.code) for f in found] == [(4, 35, "IRI804"), (5, 37, "IRI804")]
    assert all(f.finding.message.startswith("the URL's join() replaces") for f in found)  # (no urljoin: fixtures117)


@pytest.mark.parametrize(("settings", "use", "there", "here"), [
    # GAP_URL and a URL-named helper's return: their module checks the values (fixtures51, repro 01); what the
    # use's API makes of one (``urlopen`` sends ASCII only) stays at the use
    ('CDN = "https://cdn.example.net"\nGAP_URL = CDN + "/a b"\nCAFE_URL = CDN + "/caf\u00e9"\n'
     '\n\ndef status_url():\n    return CDN + "/status page"\n',
     'from urllib.request import urlopen\nfrom settings import CAFE_URL, GAP_URL, status_url\n'
     'requests.get(GAP_URL)\nrequests.get(status_url())\nurlopen(CAFE_URL)\nrequests.get(CAFE_URL)\n',
     [(2, "IRI101"), (7, "IRI101")], [(6, "IRI404")]),
    # an assembly finding too (fixtures57, repro 01), but not the use's own join
    ('HOST = "https://cdn.example.net"\nAPI_URL = HOST + "docs"\nLIST = "https://h.example/l?a=1"\n'
     'NEXT_URL = LIST + "?page=2"\n',
     'from settings import API_URL, NEXT_URL\nrequests.get(API_URL + "/x")\nrequests.get(NEXT_URL + "&r=3")\n'
     'requests.get(API_URL + "/x?a=1" + "?b=2")\n',
     [(2, "IRI801"), (4, "IRI803")], [(5, "IRI803")]),
])
def test_a_url_named_value_of_another_module_is_reported_where_it_is_bound_only(
        tmp_path: Path, settings: str, use: str, there: list[tuple[int, str]], here: list[tuple[int, str]]) -> None:
    """One finding per literal for one cause: what the module binding a URL-named name finds in its value is
    not reported again where another module uses it."""
    modules = {"settings.py": settings, "use.py": "import requests\n" + use}
    assert _lint_project(tmp_path, modules, "settings.py") == there
    assert _lint_project(tmp_path, modules, "use.py") == here


@pytest.mark.parametrize("use", [
    'GAP_URL + "/x"', 'f"{GAP_URL}/x"', '"{}/x".format(GAP_URL)', 'status_url() + "/x"', 'links.GAP_URL + "/x"',
])
def test_a_url_named_value_of_another_module_is_not_reported_again_where_a_use_extends_it(tmp_path: Path,
                                                                                          use: str) -> None:
    """``requests.get(GAP_URL + "/x")``: the join adds no problem to what ``links.py`` reports of ``GAP_URL``
    (fixtures52, repro 01); a problem the join makes, or the use's own piece, is still the use's."""
    modules = {"links.py": 'CDN = "https://cdn.example.net"\nGAP_URL = CDN + "/a b"\n\n\n'
                           'def status_url():\n    return CDN + "/a b"\n',
               "use.py": f'import requests\nimport links\nfrom links import GAP_URL, status_url\n'
                         f'requests.get({use})\nrequests.get({use} + "/c d")\nrequests.get(GAP_URL + "img")\n'}
    assert _lint_project(tmp_path, modules, "use.py") == [(5, "IRI101")]


@pytest.mark.parametrize(("call", "shown"), [
    ('urlopen(f"{CDN}/caf\u00e9")', "\u2026/caf%C3%A9"),
    ('urlopen(f"{CDN}/{{x}}/caf\u00e9")', "\u2026/\u2026/caf%C3%A9"),
    ('urlopen("https://h.example/caf\u00e9")', "https://h.example/caf%C3%A9"),
])
def test_the_mapped_uri_iri404_names_shows_unknown_parts_as_an_ellipsis(call: str, shown: str) -> None:
    """Not as the ``0`` a hole is checked as (fixtures51, repro 03): ``'0/caf%C3%A9'`` named no URI to pass."""
    src = f'from urllib.request import urlopen\nCDN = "https://cdn.example.net"\n{call}\n'
    found = [f for f in lint_text(src, Config()) if f.code == "IRI404"]
    assert len(found) == 1 and f"pass the mapped URI '{shown}'" in found[0].finding.message


def test_a_finding_at_the_name_bringing_a_piece_says_where_the_piece_is_spelled(tmp_path: Path) -> None:
    """The reader at ``requests.get(CDN + RLO_SEG)`` sees only the name (fixtures52): the message names the file,
    from the project root as a run there names files (not ``../conf/paths.py`` from ``app/``), and the line and
    column of the character in it."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    for package in ("conf", "app"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "conf" / "paths.py").write_text('X = 1\nRLO_SEG = "/a\\u202eb"\n', encoding="utf-8")
    use = 'import requests\nfrom conf.paths import RLO_SEG\nrequests.get("https://h.example" + RLO_SEG)\n'
    for where in ("use.py", os.path.join("app", "use.py")):
        (tmp_path / where).write_text(use, encoding="utf-8")
        (found,) = lint_text(use, Config(), path=str(tmp_path / where), project=Project())
        assert (found.code, found.line) == ("IRI201", 3)  # (2:14: the escape's backslash)
        assert found.finding.message.endswith(f" (spelled in {os.path.join('conf', 'paths.py')}:2:14)")
        assert found.spelled == Spelled(str(tmp_path / "conf" / "paths.py"), 2, 13)  # (the reports' data)


def test_a_finding_past_the_piece_s_end_is_spelled_where_the_finding_at_the_literal_is(tmp_path: Path) -> None:
    """outside38: an empty path (IRI310, after the host's last character) spelled in another module says the column
    of the finding at the literal itself, past the last character, not that character's."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "cb").mkdir()
    (tmp_path / "cb" / "__init__.py").write_text("", encoding="utf-8")
    const = 'WS_BASE_URL = "wss://ws.example.com"\n'
    (tmp_path / "cb" / "constants.py").write_text(const, encoding="utf-8")
    use = 'import websockets\nfrom cb.constants import WS_BASE_URL\nwebsockets.connect(WS_BASE_URL)\n'
    (tmp_path / "cb" / "ws.py").write_text(use, encoding="utf-8")
    config = Config(select=("IRI310",))
    (at_literal,) = lint_text(const, config, path=str(tmp_path / "cb" / "constants.py"), project=Project())
    (at_use,) = lint_text(use, config, path=str(tmp_path / "cb" / "ws.py"), project=Project())
    assert at_use.finding.message.endswith(f"{os.path.join('cb', 'constants.py')}:1:{at_literal.col + 1})")
    assert at_literal.col == const.index('"', 15)


@pytest.mark.parametrize(("call", "expected"), [
    ('requests.get("https://cdn.example/a b.png".replace(" ", "%20"))', []),  # the space is not sent
    ('LOGO_URL = "https://cdn.example/a|b.png".replace("|", "%7C")', []),
    ('requests.get("https://cdn.example/a b/ID".replace("ID", x))', ["IRI101"]),  # what it does not replace
    ('requests.get("https://cdn.example/ID?q={q}".replace("ID", x).format(q=x))', []),
])
def test_what_a_literals_own_replace_removes_is_no_finding(call: str, expected: list[str]) -> None:
    """``"…/a b.png".replace(" ", "%20")`` sends ``a%20b.png``, valid (RFC 3986 sec. 2.1): the search string of a
    ``.replace`` applied to the literal itself is a hole, as it is for a name replaced later (fixtures53, 01)."""
    src = f"import requests\nx = input()\n{call}\n"
    assert [f.code for f in lint_text(src, Config())] == expected


def test_a_star_import_of_a_module_that_does_not_parse_leaves_modules_and_later_bindings_alone(
        tmp_path: Path) -> None:
    """``import requests``, then ``from broken import *``: ``requests`` still names requests (what a star import
    re-exports under a module's name is that module), and what is bound after it is known (fixtures50b, 02);
    a name only the broken module may bind is a hole."""
    modules = {
        "broken.py": 'X = "https://x.example"\ndef (:\n',
        "sd.py": 'SD_HOST = "https://sd.example.com"\n',
        "use.py": 'import requests\n\nfrom broken import *\nfrom sd import *\nfrom sd import SD_HOST as EXPLICIT\n'
                  'LOCAL = "https://local.example.com"\nrequests.get(SD_HOST + "sd")\nrequests.get(EXPLICIT + "ex")\n'
                  'requests.get(LOCAL + "lo")\nrequests.get(X + "x")\n',
    }
    assert _lint_project(tmp_path, modules, "use.py") == [(7, "IRI801"), (8, "IRI801"), (9, "IRI801")]


@pytest.mark.parametrize(("code", "expected"), [
    ('requests.get(day.strftime("https://archive.example.org/%Y/%m/%d.json"))', []),
    ('DAILY = "https://archive.example.org/%Y/%-m/%d.json"\nrequests.get(day.strftime(DAILY))', []),
    ('DAILY_URL = "https://archive.example.org/%Y/%m/%d.json"\nrequests.get(time.strftime(DAILY_URL))', []),
    ('requests.get(day.strftime("https://archive.example.org/%Y/a b.json"))', ["IRI101"]),  # not a directive
    # a date's format by its grammar: two conversions and no other malformed '%' (another module may fill it:
    # fixtures121, repro 02); one conversion alone may be a broken percent-encoding
    ('DAILY_URL = "https://archive.example.org/%Y/%m/%d.json"', []),
    ('SALE_URL = "https://shop.example.org/100%Sale"', ["IRI110"]),
    ('requests.get("https://archive.example.org/%Y/%m/%d.json")', ["IRI805"]),  # (a date's template unfilled)
    ('CDN = "https://a.example"\nSTRF_URL = CDN + "/archive/%Y/%m/"\nday.strftime(STRF_URL)', []),  # (fixtures57, 05)
])
def test_a_strftime_format_is_a_template_of_dates(code: str, expected: list[str]) -> None:
    """``day.strftime("https://…/%Y/%m/%d.json")``: what reaches the API is the date's text, so a directive is no
    malformed percent-encoding (IRI110) but a placeholder, by strftime's grammar (fixtures54, repro 02)."""
    src = f"import time\nimport requests\nday = input()\n{code}\n"
    assert [f.code for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("body", "expected"), [
    ('    monkeypatch.setattr(settings, "API_ROOT", "http://localhost:8000/")\n', []),
    ('    monkeypatch.setattr("pkg.settings.API_ROOT", "http://localhost:8000/")\n', []),
    ('    settings.API_ROOT = "http://localhost:8000/"\n', []),
    ('    mock.patch("settings.API_ROOT", "http://localhost:8000/").start()\n', []),  # (fixtures59, repro 01)
    ('    mock.patch.object(settings, "API_ROOT", "http://localhost:8000/").start()\n', []),
    ('    setattr(obj, "other", 1)\n', [(8, "IRI801")]),  # another attribute
    ('    pass\n', [(8, "IRI801")]),
])
def test_a_module_attribute_this_module_may_rebind_is_a_hole(tmp_path: Path, body: str,
                                                             expected: list[tuple[int, str]]) -> None:
    """A test pointing the code at a live server (``settings.API_ROOT = ...``, ``monkeypatch.setattr``): what
    ``settings.API_ROOT`` holds then is not settings.py's text (fixtures54, repro 03)."""
    modules = {"settings.py": 'API_ROOT = "https://api.example.com"\n',
               "test_mp.py": ('import requests\nimport settings\nobj = mock = object()\n\n\ndef test_it(monkeypatch):\n'
                              f'{body}    requests.get(settings.API_ROOT + "items")\n')}
    assert _lint_project(tmp_path, modules, "test_mp.py") == expected


def test_the_values_of_a_dict_given_to_a_url_named_name_are_urls() -> None:
    """``setup(project_urls={"Docs": DOCS + "/api"})``: packaging code writes its URLs so (fixtures54); a
    dict's values are checked as a list's elements are, its keys are not."""
    src = ('from setuptools import setup\nDOCS = "https://docs.example.org/"\n'
           'setup(project_urls={"Docs": DOCS + "/api", "Home": DOCS})\nlinks = {"a b": DOCS + "/c"}\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(3, "IRI802")]


@pytest.mark.parametrize("star", ["from .local_settings import *", "from pkg.local_settings import *"])
def test_a_star_import_of_a_missing_project_module_may_bind_any_name(tmp_path: Path, star: str) -> None:
    """``try: from .local_settings import *`` of a git-ignored file that is not there: on a server it binds
    ``FRONTEND_URL`` as likely as not (fixtures56, repro 01); a hole, as a module that cannot be read."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "base.py").write_text('FRONTEND_URL = "https://app.example.com"\n', encoding="utf-8")
    text = (f"import requests\nfrom .base import *\ntry:\n    {star}\nexcept ImportError:\n    pass\n"
            'CHECKOUT_URL = FRONTEND_URL + "checkout"\nrequests.get(FRONTEND_URL + "x")\n')
    (pkg / "dev.py").write_text(text, encoding="utf-8")
    assert lint_text(text, Config(), path=str(pkg / "dev.py"), project=Project()) == []
    (pkg / "local_settings.py").write_text("DEBUG = True\n", encoding="utf-8")  # there, and binding no URL
    found = lint_text(text, Config(), path=str(pkg / "dev.py"), project=Project())
    assert [(f.line, f.code) for f in found] == [(7, "IRI801"), (8, "IRI801")]


def test_a_hole_bound_elsewhere_is_reported_at_the_name_each_use_reads_it_by() -> None:
    """``code = request.GET["coupon"]`` then two redirects joining ``code`` unencoded: IRI806 at ``code`` in each
    (where a noqa silences it), not once at the binding (fixtures56, repro 02)."""
    src = ('from django.shortcuts import redirect\n\n\ndef cart(request):\n    code = request.GET["coupon"]\n'
           '    a = redirect("/cart/?coupon=" + code)\n    b = redirect("/basket/?coupon=" + code)  # noqa: IRI806\n'
           '    c = redirect(f"/c/?coupon={code}")\n    next_url = "/d/?coupon=" + code\n'
           '    return a, b, c, redirect(next_url)\n')
    found = lint_text(src, Config(extend_select=("IRI806",)))
    # (next_url's binding is checked itself, at the hole: once, not again at redirect(next_url))
    assert [(f.line, f.col, f.code) for f in found] == [(6, 36, "IRI806"), (8, 31, "IRI806"), (9, 31, "IRI806")]


def test_a_class_body_reads_a_module_name_where_the_class_statement_stands() -> None:
    """``class Early: ROOT = BASE`` runs before a later ``BASE = ...``: ``self.ROOT`` is the first value, not the
    module's final one (fixtures58, repro 01); a method's body runs later and reads the final one."""
    src = ('import requests\nBASE = "https://first.example.com"\n\n\nclass Early:\n    ROOT = BASE\n\n'
           '    def go(self):\n        requests.get(self.ROOT + "x")\n        requests.get(BASE + "/y")\n\n\n'
           'BASE = "https://second.example.com/"\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(9, "IRI801"), (10, "IRI802")]


@pytest.mark.parametrize("rebind", ["type(self).BASE", "self.__class__.BASE", "Api.BASE"])
def test_a_class_attribute_a_method_rebinds_through_the_objects_class_is_a_hole(rebind: str) -> None:
    """``type(self).BASE = ...`` in a method binds the class's attribute as ``Api.BASE = ...`` does (fixtures58,
    repro 02)."""
    src = ('import requests\n\n\nclass Api:\n    BASE = "https://a.example.com"\n\n    def configure(self):\n'
           f'        {rebind} = "https://b.example.com/"\n\n    def go(self):\n        requests.get(self.BASE + "x")\n')
    assert lint_text(src, Config()) == []


def test_the_uses_after_an_exploding_constant_of_another_module_are_still_followed(tmp_path: Path) -> None:
    """``requests.get(A39 + "x")`` with ``A39`` doubling 39 times in big.py is a hole; the next use's ``A1`` of the
    same module (``A0 + A0``: a join, which costs) is followed (fixtures59, repro 02): each use may cost an
    allowance there too."""
    big = 'A0 = "https://h.example/"\n' + "".join(f"A{i + 1} = A{i} + A{i}\n" for i in range(39))
    modules = {"big.py": big,
               "use.py": 'import requests\nfrom big import A1, A39\nrequests.get(A39 + "x")\nrequests.get(A1 + "/x")\n'}
    assert _lint_project(tmp_path, modules, "use.py") == [(4, "IRI802")]


@pytest.mark.parametrize(("line", "expected"), [
    ('requests.get(HOST + "v1" if sys.argv else HOST + "/ok")', [(7, 21, "IRI801")]),  # a branch reaching the API
    ('requests.get(sys.argv[1] or HOST + "v2")', [(7, 36, "IRI801")]),  # the fallback of ``or``
    ('API_URL = os.getenv("API_URL", HOST + "v3")', [(7, 39, "IRI801")]),  # the default used when it is unset
    ('API_URL = os.environ.get("API_URL", default=HOST + "v4")', [(7, 52, "IRI801")]),
    ('API_URL = os.environ.get("A") or os.getenv("B") or HOST + "v5"', [(7, 59, "IRI801")]),
    # a relative literal at the API: every rule (requests has no base: IRI116)
    ('requests.get(sys.argv[1] or "/a b")', [(7, 29, "IRI116"), (7, 31, "IRI101")]),
    ('requests.get(sys.argv and HOST + "v7")', [(7, 34, "IRI801")]),  # ``and``: its last operand (fixtures141)
    ('requests.get(sys.argv and HOST + "v8" and sys.path)', []),  # (the others: only when false)
    ('requests.get(HOST + "/v1" if sys.argv else HOST)', []),
    ('API_URL = os.getenv("API_URL") or None', []),
    ('API_URL = settings.get("API_URL", HOST + "v6")', []),  # (a mapping's own default: not followed)
])
def test_each_value_a_choice_may_take_is_checked_where_it_is_used(
        line: str, expected: list[tuple[int, int, str]]) -> None:
    """``a if c else b``, ``a or b`` and an environment variable's default: any of them may be the URL the
    use gets, and the one that is wrong is wrong whenever it is taken (fixtures78 notes)."""
    src = f'import os\nimport sys\n\nimport requests\n\nHOST = "https://api.example.com"\n{line}\n'
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


def test_a_clark_name_whose_namespace_is_a_hole_is_no_iri() -> None:
    """fixtures94 repro 01: ``"{%s}href" % XLINK_NS`` is ElementTree's Clark notation ``{ns}local`` however its
    namespace is filled (design.md: not IRIs); a template that is no Clark name still reports."""
    src = (
        'XLINK_NS = "http://www.w3.org/1999/xlink"\n'
        'XLINK_HREF = "{%s}href" % XLINK_NS\n'
        'ns_href = "{%(ns)s}href" % {"ns": XLINK_NS}\n'
        "\n\n"
        "def f(ns):\n"
        '    fmt_href = "{{{}}}href".format(ns)\n'
        '    pct_href = "{%s}href" % ns\n'
        '    bad_href = "%s/a b" % ns\n'
        "    return fmt_href, pct_href, bad_href\n"
    )
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(9, "IRI101")]


@pytest.mark.parametrize("base", ["https://a.example/api/v2.0", "https://a.example/sdk/1.0rc1"])
def test_urljoin_after_a_version_drops_it(base: str) -> None:
    """A version's dot is followed by a digit: no document's extension, so urljoin drops it (IRI804)."""
    src = f'from urllib.parse import urljoin\nimport requests\nrequests.get(urljoin("{base}", "items"))\n'
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(3, "IRI804")]


def test_arithmetic_on_integers_prints_digits() -> None:
    """IRI806 (opt-in): a signed URL's expiry ``int(time.time()) + 3600`` is an integer's digits, as is
    ``round(t)``; a float, a string or ``round(t, 2)`` may print anything (fixtures97, repro 03)."""
    src = ('import time\nimport requests\nAPI = "https://a.example"\n\n\ndef f(key, ttl: int, s):\n'
           '    expires = int(time.time()) + 3600\n'
           '    requests.get(f"{API}/{key}?e={expires}&t={(ttl - 5) * 2 // 3}&r={round(time.time())}&m={ttl % 7}")\n'
           '    requests.get(f"{API}/{key}?e={time.time() + 3600}")\n'
           '    requests.get(f"{API}/{key}?e={round(time.time(), 2)}&s={s % 7}&u={s + 1}")\n')
    found = lint_text(src, Config(extend_select=("IRI806",)))
    assert [(f.line, f.code) for f in found] == [(9, "IRI806")] + [(10, "IRI806")] * 3


@pytest.mark.parametrize(("rebinding", "silent"), [
    ('globals()["HOST"] = os.environ["HOST"]', True),
    ("globals().update(json.loads(os.environ['OVERRIDES']))", True),
    ('exec(open("local.py").read())', True),
    ('setattr(sys.modules[__name__], "HOST", os.environ["HOST"])', True),
    ('globals()[os.environ["NAME"]] = "x"', True),
    ('globals()["OTHER"] = os.environ["OTHER"]', False),  # another name
    ('x = globals()["HOST"]', False),  # a read
    ("app.exec()", False),  # Qt's event loop, no exec()
])
def test_a_module_name_bound_by_name_at_run_time_is_a_hole(tmp_path: Path, rebinding: str, silent: bool) -> None:
    """fixtures98 repro 01: a module's own namespace rebound through ``globals()``, ``exec`` or ``sys.modules``
    (settings overridden from the environment) holds any value, here and where another module imports it."""
    settings = f'import json, os, sys\nHOST = "https://item.example"\n{rebinding}\n'
    use = "import requests\nfrom settings import HOST\nrequests.get(HOST + 'x')\n"
    modules = {"settings.py": settings, "m.py": use}
    expected = [] if silent else [(3, "IRI801")]
    assert _lint_project(tmp_path, modules, "m.py") == expected
    assert [f.code for f in lint_text(settings + "import requests\nrequests.get(HOST + 'x')\n", Config())] == \
        [c for _, c in expected]


def test_a_client_base_from_another_module_is_checked_where_that_module_gives_it(tmp_path: Path) -> None:
    """fixtures95 repro 02: a client made in another module with a faulty base is reported there, at its
    ``base_url``, not again at every request of every module using it; a request's own piece still is."""
    modules = {"clients.py": 'import httpx\nROOT = "https://pay.example.com/"\n'
                             'api = httpx.Client(base_url=ROOT + "/v1/")\n',
               "use.py": "from clients import api\n\n\ndef a():\n    return api.get('orders')\n\n\n"
                         "def b():\n    return api.get('x y')\n"}
    assert _lint_project(tmp_path, modules, "use.py") == [(9, "IRI101")]
    assert _lint_project(tmp_path, modules, "clients.py") == [(3, "IRI802")]


def test_a_dotted_configuration_key_names_a_url() -> None:
    """fixtures93 repro 02: confluent-kafka's and Spring's keys are dotted (``"schema.registry.url"``); a key
    with other characters (a header's, a sentence) names nothing."""
    src = ('REGISTRY = "http://schema-registry.example:8081"\n'
           'conf = {"schema.registry.url": REGISTRY + "subjects", "Content-Location url": REGISTRY + "x"}\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(2, 43, "IRI801")]


def test_a_kebab_case_configuration_key_names_a_url() -> None:
    """fixtures115 repro 01: kubeconfig's ``"proxy-url"``, ``"server-url"`` name URLs as ``proxy_url`` does, for the
    literal given (a relative reference, ``http//``) and for a joined value; a header's ``"Content-Location"``
    names none."""
    src = ('REGISTRY = "http://registry.example:8081"\n'
           'conf = {"proxy-url": "http//proxy.example:3128", "server-url": REGISTRY + "v2",\n'
           '        "Content-Location": "http//h.example", "x-curl": "http//h.example"}\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(2, 22, "IRI603"), (2, 75, "IRI801")]


@pytest.mark.parametrize(("decorator", "found"), [("@dataclass(slots=True)\n", []), ("", [(9, "IRI802")])])
def test_a_dataclass_final_is_a_field(decorator: str, found: list[tuple[int, str]]) -> None:
    """fixtures96 repro 02: in a dataclass ``ROOT: Final = ...`` is a field its ``__init__`` sets (only ``ClassVar``
    is not one): a hole; in a plain class, a constant."""
    src = ('from dataclasses import dataclass\nfrom typing import Final\n\n\n'
           f'{decorator}class Svc:\n    ROOT: Final = "https://svc.example/api/"\n\n    def health_url(self):\n'
           '        return self.ROOT + "/health"\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == found


def test_a_join_keeps_the_items_before_an_unknown_star() -> None:
    """fixtures96 repro 03: ``"/".join([ROOT, "a", *rest])`` is ROOT, "/a", then an unknown rest: the '//' after
    ROOT is certain. What follows an unknown star is unknown, and so is a printf tuple holding one."""
    src = ('import requests\nROOT = "https://api.example/v2/"\n\n\ndef f(rest):\n'
           '    requests.get("/".join([ROOT, "a", *rest]))\n'
           '    requests.get("/".join([*rest, "/b"]))\n'
           '    requests.get("%s/%s" % (ROOT, *rest))\n'
           '    requests.get("/".join([ROOT.rstrip("/"), *rest, "c d"]))\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(6, "IRI802")]


def test_a_library_module_a_deep_star_chain_reexports_is_that_module(tmp_path: Path) -> None:
    """fixtures104 repro 01: ``import requests`` then ``from h.m49 import *``, each of 50 modules importing
    requests and star-importing the one before: past the depth limit the star was taken to rebind
    ``requests`` to anything, and every request of the module went unchecked (design.md: what a star import
    re-exports under a module's name is that module, however deep the star imports nest)."""
    modules = {"m0.py": "import requests\nM0 = 'x'\n"}
    modules.update({f"m{i}.py": f"import requests\nfrom m{i - 1} import *\nM{i} = 'x'\n" for i in range(1, 50)})
    modules["use.py"] = ('import requests\nfrom m49 import *\n\nLOCAL = "https://local.example/"\n'
                         'requests.get(LOCAL + "/x")\n')
    assert _lint_project(tmp_path, modules, "use.py") == [(5, "IRI802")]


def test_a_client_request_that_starts_unknown_ends_with_its_text() -> None:
    """fixtures102 repro 01: ``api.get(title + " 城")``: whether the unknown start makes the reference absolute
    or not, the URL requested ends with the request's text, whose space is wrong whatever fills the hole."""
    src = ('import aiohttp, httpx\napi = httpx.Client(base_url="https://ja.example/wiki/")\n\n\n'
           'async def f(title):\n    api.get(title + "/\\u202etxt.exe")\n    api.get(title + "/ok")\n'
           '    async with aiohttp.ClientSession(base_url="https://ja.example/wiki/") as s:\n'
           '        await s.get(title + " x")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(6, "IRI201"), (9, "IRI101")]


def test_a_joiner_beside_a_hole_is_left_to_what_fills_it() -> None:
    """fixtures102 repro 02: ZWJ/ZWNJ are allowed or not by the characters beside them (IDNA's CONTEXTJ): after
    a hole (a word that may end in a virama, a dual-joining letter) nothing decides it; beside known text it
    is decided there."""
    src = ('import requests\nCDN = "https://cdn.example.net"\n\n\ndef f(word, prefix):\n'
           '    requests.get(CDN + "/" + word + "\\u200d")\n'
           '    requests.get(CDN + "/fa/" + prefix + "\\u200c\\u062e\\u0648\\u0627\\u0647\\u0645")\n'
           '    requests.get(CDN + "/" + "a\\u200db")\n'
           '    requests.get(f"{CDN}/{word}\\u200b")\n')  # (a zero width space is invisible beside anything)
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(8, "IRI505"), (9, "IRI505")]


def test_a_literal_its_module_percent_formats_is_a_printf_template_unfilled_too() -> None:
    """fixtures97 repro 02: ``SEGMENT_FMT = "seg_%05d.ts"`` is %-formatted in its module, so ``%05d`` is CPython's
    ``%d`` with flag and width, not the escape ``%05`` then ``d``: reaching a URL API unfilled, it is IRI805. A
    literal never %-formatted keeps ``%05`` an escape."""
    src = ('import requests\nCDN = "https://media.example.net/abc/"\nSEGMENT_FMT = "seg_%05d.ts"\n'
           'PLAIN = "seg_%05d.ts"\n\n\ndef f(n):\n    requests.get(CDN + SEGMENT_FMT % n)\n'
           '    requests.get(CDN + SEGMENT_FMT)\n    requests.get(CDN + PLAIN)\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(3, 19, "IRI805")]


def test_a_function_s_local_another_function_percent_formats_is_no_printf_template() -> None:
    """outside48 repro 01 (yarl's tests): ``url = URL("http://h/?%F0%9D%95%A6=1")`` in one function and another
    function's own ``url % {...}``: the escapes are no conversions (no IRI805), nor are a call's arguments the
    name's text; a local the same function %-formats is a template (IRI805 where it reaches an API unfilled)."""
    src = ('import requests\nfrom yarl import URL\n\n\ndef a():\n    url = URL("http://example.com/?%F0%9D%95%A6=1")\n'
           '    requests.get(url)\n    page = "http://example.com/caf%E9"\n    requests.get(page)\n\n\n'
           'def b():\n    url = "http://example.com/?id=%d"\n    page = url % 3\n    return url % 3, page % 1\n\n\n'
           'def c():\n    url = "http://example.com/?id=%d"\n    requests.get(url)\n    return url % 3\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(19, "IRI805")]


def test_a_literal_a_template_name_holds_is_a_printf_template_wherever_it_is_filled(tmp_path: Path) -> None:
    """fixtures180 repro 02: a name that says it holds a template (``SEGMENT_FMT``) holds one whatever its
    placeholders look like: ``%05d`` is a conversion when another module %-formats it, or none does, and
    reaching a URL API unfilled it is IRI805 (at the name that brings it in from another module)."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "base.py").write_text('SEGMENT_FMT = "seg_%05d.ts"\nPLAIN = "seg_%05d.ts"\n', encoding="utf-8")
    src = ('import requests\nfrom base import PLAIN, SEGMENT_FMT\nCDN = "https://media.example.net/abc/"\n'
           'LOCAL_FMT = "seg_%05d.ts"\n\n\ndef f(n):\n    requests.get(CDN + SEGMENT_FMT % n)\n'
           '    requests.get(CDN + SEGMENT_FMT)\n    requests.get(CDN + LOCAL_FMT)\n    requests.get(CDN + PLAIN)\n')
    got = lint_text(src, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in got] == [(4, 17, "IRI805"), (9, 23, "IRI805")]


def test_a_join_a_template_name_holds_keeps_its_printf_conversions() -> None:
    """fixtures182 repro 01: ``PART_URL_TMPL = CDN + "/ll/part_%05d.m4s"``, a join %-formatted in its module, and
    local template names hold printf templates as a whole literal does: unfilled at a URL API, IRI805."""
    src = ('import requests\nCDN = "https://media.example.tv"\nPART_URL_TMPL = CDN + "/ll/part_%05d.m4s"\n'
           'CHUNK = CDN + "/dash/chunk_%05d.m4s"\n\n\ndef c(n, channel):\n'
           '    url_tmpl = CDN + "/live/" + channel + "/part_%05d.m4s"\n'
           '    return requests.get(PART_URL_TMPL), requests.get(CHUNK % n), requests.get(CHUNK), '
           'requests.head(url_tmpl)\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (3, 32, "IRI805"), (4, 27, "IRI805"), (8, 49, "IRI805")]


def test_a_template_name_its_module_formats_otherwise_reads_no_printf() -> None:
    """fixtures185 repro 04: ``CPU_ALERT_FMT.format(host)`` reads no ``%``: its ``cpu%high`` is a bare '%'
    (IRI110), not the conversion ``%hi`` unfilled (IRI805)."""
    src = ('import requests\nCPU_ALERT_FMT = "https://g.example/d/cpu?var-alert=cpu%high&var-host={}"\n\n\n'
           'def cpu_alert(host):\n    return requests.get(CPU_ALERT_FMT.format(host))\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(2, "IRI110")]


def test_a_known_number_s_width_pads_it_with_spaces() -> None:
    """fixtures186 repro 01: ``f"{CDN}/season/{SEASON:3d}/feed.xml"`` with ``SEASON = 7`` sends ``/season/  7/``, so
    does ``"%3d"``; a zero fill (``{SEASON:03d}``) or an unknown number is no finding."""
    src = ('import requests\nCDN = "https://cdn.podhub.fm"\nSEASON = 7\n\n\ndef feeds(n):\n'
           '    requests.get(f"{CDN}/season/{SEASON:3d}/feed.xml")\n'
           '    requests.get("%s/season/%3d/feed.xml" % (CDN, SEASON))\n'
           '    requests.get(f"{CDN}/season/{SEASON:03d}/feed.xml")\n    requests.get(f"{CDN}/episodes/{n:4d}.mp3")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(7, "IRI101"), (8, "IRI101")]


def test_the_percent_type_ends_an_unknown_number_with_a_bare_percent() -> None:
    """fixtures189 repro 02: ``{share:.0%}`` prints ``50%`` whatever the number (the format-spec mini-language's
    percent type), so the query holds a bare '%' (IRI110, at the field's expression), as ``"=%d%%"`` does; a
    width (``{n:>4}``, spaces only when the number is short), ``.2f`` or a width too large to print make none."""
    src = ('import requests\nAPI = "https://stats.example.com/v1"\n\n\ndef f(share, n):\n'
           '    requests.get(f"{API}/items?min_share={share:.0%}")\n'
           '    requests.get("{}/items?min_share={:.1%}&x=1".format(API, share))\n'
           '    requests.get(f"{API}/items?rank={n:>4}&r={share:.2f}")\n'
           '    requests.get(f"{API}/items?min_share={share:999999999999%}")\n'
           '    requests.get(f"{API}/items?min_share={share!r:.0%}")\n'
           '    requests.get(f"{API}/items?min_share={share:.{n}%}")\n')  # (a nested precision: fixtures190 repro 04)
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (6, 42, "IRI110"), (7, 61, "IRI110"), (11, 42, "IRI110")]


def test_a_url_named_command_line_option_s_default_is_its_value() -> None:
    """fixtures189 repro 03: ``add_argument("--mirror-url", default=...)`` stores its default as
    ``args.mirror_url`` (argparse's dest: ``dest=``, else the first long option string, else the first), a
    URL-named attribute: a literal or a join there is checked as one bound to that name; not another option's."""
    src = ('import argparse\nHOST = "https://mirror.example.net"\np = argparse.ArgumentParser()\n'
           'p.add_argument("-m", "--mirror-url", default="https//mirror.example.net/feeds/")\n'
           'p.add_argument("--base", dest="base_url", default=HOST + "v1/")\n'
           'p.add_argument("url", nargs="?", default="https://h.example/a b")\n'
           'p.add_argument("--mirror", default="https//mirror.example.net/")\n'
           'p.add_argument("--feed-url", type=str, default=None)\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(4, "IRI603"), (5, "IRI801"), (6, "IRI101")]


def test_a_template_name_s_password_is_reported_where_it_is_filled(tmp_path: Path) -> None:
    """fixtures187 repro 01: a template name's literal is not checked alone, so its password is reported where a
    value fills it (once), not dropped as the template's own; a ``.format`` template's ``%`` under a template
    name filled in another module is a bare '%' (fixtures187 repro 02), not ``%hi``."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text(
        'REPORTING_DSN_TEMPLATE = "postgresql://orders:Hunter2@pg-{env}.internal/orders"\n'
        'REPORTING_DB_URL = REPORTING_DSN_TEMPLATE.format(env="reporting")\n'
        'CPU_ALERT_FMT = "https://g.example/d/cpu?var-alert=cpu%high&var-host={}"\n', encoding="utf-8")
    src = 'import requests\nfrom settings import CPU_ALERT_FMT\nrequests.get(CPU_ALERT_FMT.format("h1"))\n'
    project = Project()
    got = lint_text((tmp_path / "settings.py").read_text(encoding="utf-8"), Config(),
                    path=str(tmp_path / "settings.py"), project=project)
    assert [(f.line, f.code) for f in got] == [(1, "IRI506")]  # (at the literal that spells it)
    got = lint_text(src, Config(), path=str(tmp_path / "use.py"), project=project)
    assert [(f.line, f.code) for f in got] == [(3, "IRI110")]


def test_a_template_s_password_filled_twice_is_one_finding_at_the_template() -> None:
    """fixtures187: ``PG_DSN_TMPL = "...:{env}-Secr3t@..."`` filled twice in its module is one IRI506, in the
    literal that spells the password's ``@`` (its first character there), not at each field's argument."""
    src = ('ENV = "prod"\nPG_DSN_TMPL = "postgresql://orders:{env}-Secr3t@pg-{env}.internal/orders"\n'
           'PRIMARY_DB_URL = PG_DSN_TMPL.format(env=ENV)\nREPORTING_DB_URL = PG_DSN_TMPL.format(env="reporting")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(2, 40, "IRI506")]


def test_a_field_a_framework_renders_is_a_hole() -> None:
    """fixtures106 repro 02: Airflow renders the attributes an operator lists in ``template_fields`` (Jinja
    filled, then set on the object) before ``execute`` runs: there ``self.report_url`` holds any value. An
    attribute not listed is still known."""
    src = ('import requests\nfrom airflow.models import BaseOperator\n\n\nclass Daily(BaseOperator):\n'
           '    template_fields = ("report_url",)\n    report_url = "https://r.example.org/daily/{{ ds }}.csv"\n'
           '    other_url = "https://r.example.org/{{ ds }}"\n\n    def execute(self, context):\n'
           '        requests.get(self.report_url)\n        requests.get(self.other_url)\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(8, "IRI805")]


def test_a_url_cut_to_a_length_is_display_text_but_a_url_api_takes_it_whole() -> None:
    """``uri[:256] + "...[truncated]"`` (django-oauth-toolkit's log lines): where a count cuts the text, what is
    joined after it is no path; a cut by the URL's own grammar (``[:-1]``, ``rfind``) and a URL API are checked."""
    src = ('import requests\n_MAX = 256\n\ndef loggable(uri, url):\n'
           '    uri = uri[:_MAX] + "...[truncated]"\n'
           '    short_url = url[3:80] + "[cut]"\n'
           '    base_url = url[:-1] + "/a b"\n'
           '    parent_url = url[: url.rfind("/")] + "/x y"\n'
           '    requests.get(url[:80] + "/a b")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (7, 29, "IRI101"), (8, 44, "IRI101"), (9, 31, "IRI101")]


def test_a_url_set_off_in_text_is_no_url_but_a_url_api_takes_it_whole() -> None:
    """``uri = " [%(uri)s]" % {"uri": uri}`` (Sphinx's EPUB link targets): one hole inside delimiters that no
    URI reference starts with (RFC 3986 appendix C: ``<>``, ``""``; and ``[]``) is a URL shown in text."""
    src = ('import requests\n\ndef show(uri, page_url):\n'
           '    uri = " [%(uri)s]" % {"uri": uri}\n'
           '    link_url = \'"%s"\' % page_url\n'
           '    bad_url = " %s/a b" % page_url\n'
           '    requests.get(" [%s]" % page_url)\n')
    # (the leading space separates a value the hole begins from text at a URL-named target: the inner one is the fault)
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(6, 20, "IRI101"), (7, 18, "IRI101")]


def test_a_known_url_set_off_in_text_is_checked_between_its_delimiters() -> None:
    """fixtures119, repro 01: ``'"%s"' % CDN``, ``'"' + CDN + '/img"'``, ``"[" + CDN + "/img]"`` at URL-named
    targets: the delimiters are no faults; the URL between them is one URL, its faults found (a join's too)."""
    src = ('CDN = "https://cdn.example.net"\n'
           'quoted_url = \'"%s"\' % CDN\n'
           'label_url = " [%(uri)s]" % {"uri": CDN}\n'
           'shown_url = \'"\' + CDN + \'/img"\'\n'
           'boxed_url = "[" + CDN + "/img]"\n'
           'joined_url = "`" + CDN + "img`"\n'
           'spaced_url = "[" + CDN + "/a b]"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(6, 26, "IRI801"), (7, 28, "IRI101")]


def test_a_markdown_link_or_code_span_in_a_url_context_checks_only_the_url() -> None:
    """A Markdown link held by a URL-named name (tensorflow-datasets' ``expected_code_url``) is no IRI; its
    destination is one, at its own columns. A URL value in a code span (mlflow's ``f"`{tracking_uri}`"``)
    is a URL shown in text."""
    src = ('def links(tracking_uri, client):\n'
           '    code_url = "[Code](github://huggingface/datasets/tree/master/datasets/ds1)"\n'
           '    docs_url = "[Docs](https://example.com/a b)"\n'
           '    return client.render(tracking_uri=f"`{tracking_uri}`")\n'
           '\n\ndef badge_url(alt, img, page):\n'  # (fixtures121, repro 01: CommonMark's other forms, assembled)
           '    return f"[![{alt}](https://ci.example/{img} x.svg)](https://ci.example/{page}/)"\n'
           'titled_href = \'[Docs](https://blog.example.org/docs "Documentation")\'\n'
           'wiki_href = "[Foo](https://en.wikipedia.org/wiki/Foo_(bar))"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(3, 44, "IRI101"), (8, 47, "IRI101")]


def test_a_date_format_another_module_fills_is_no_broken_url(tmp_path: Path) -> None:
    """fixtures121, repro 02: the format is kept in settings.py, strftime fills it in archive.py."""
    modules = {"settings.py": 'DAILY_URL = "https://blog.example.org/%Y/%m/%d/"\n',
               "archive.py": ('import requests\nfrom settings import DAILY_URL\n\n\ndef daily(day):\n'
                              '    return requests.get(day.strftime(DAILY_URL))\n')}
    assert _lint_project(tmp_path, modules, "settings.py") == []
    assert _lint_project(tmp_path, modules, "archive.py") == []


def test_a_relative_literal_a_url_named_function_returns_is_checked() -> None:
    """``def next_url(): return "/a b"``: a return of a URL-named function is a URL use (issue #27), and the
    literal scan, which takes no return for a URL context, checked only absolute literals there: the relative
    ones were checked by neither (found while reading fixtures121, repro 01)."""
    src = ('def next_url():\n    return "/a b"\n\n\ndef other_url(x):\n    return f"/c d/{x}"\n\n\n'
           'def home_url():\n    return "https://h.example/e f"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (2, 14, "IRI101"), (6, 15, "IRI101"), (10, 31, "IRI101")]


def test_a_tuple_of_another_module_formatted_in_brings_its_piece_at_its_name(tmp_path: Path) -> None:
    """fixtures120, repro 01: ``"http://%s:%d/health" % registry.DB_ADDR_BAD``, a tuple whose first item holds a
    space: placed at the attribute that brings it, as for a string constant, not at the use's start."""
    modules = {"registry.py": 'DB_HOST_BAD = "patroni.internal "\nDB_ADDR_BAD = ("patroni.internal ", 8008)\n',
               "check.py": ('import requests\nimport registry\n\n\ndef by_name():\n'
                            '    return requests.get("http://%s/health" % registry.DB_HOST_BAD)\n\n\n'
                            'def by_tuple():\n    return requests.get("http://%s:%d/health" % registry.DB_ADDR_BAD)\n')}
    _lint_project(tmp_path, modules, "check.py")  # (writes the files)
    found = lint_text(modules["check.py"], Config(), path=str(tmp_path / "check.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in found] == [(6, 45, "IRI101"), (10, 48, "IRI101")]


def test_a_template_joined_by_urljoin_is_filled_where_the_join_goes() -> None:
    """django-cms's ``URL_CMS_PAGE_MOVE = urljoin(URL_CMS_PAGE, "%d/move-page/")``, filled by its tests'
    ``URL_CMS_PAGE_MOVE % page.pk``: a join's argument is one URL, but no URL API uses it there, so a template
    in it is not yet unfilled (IRI805); where the join's value reaches one, it is."""
    src = ('from urllib.parse import urljoin\nimport posixpath\nimport requests\n\nROOT = "https://h.example/cms/"\n'
           'URL_MOVE = urljoin(ROOT, "%d/move-page/")\nURL_COPY = posixpath.join(ROOT, "{id}/copy/")\n\n\n'
           'def f(pk):\n    requests.get(URL_MOVE % pk)\n    requests.get(URL_COPY.format(id=pk))\n'
           '    requests.get(urljoin(ROOT, "%d/delete/"))\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(13, 32, "IRI805")]


def test_urljoin_against_an_absolute_path_drops_what_rfc_3986_drops() -> None:
    """``STATIC_URL = "/static"`` (no '/' at its end) joined to ``"img/logo.png"`` gives ``/img/logo.png``: IRI804, as
    against an absolute base; a relative-path base (``"en/admin"``) is not resolved (urllib does otherwise)."""
    src = ('from urllib.parse import urljoin\nimport requests\n\nSTATIC_URL = "/static"\nMEDIA_URL = "/media/"\n'
           'LANG = "en/admin"\n\n\ndef f(name):\n    requests.get(urljoin(STATIC_URL, "img/logo.png"))\n'
           '    requests.get(urljoin(MEDIA_URL, "img/logo.png"))\n    requests.get(urljoin(LANG, "img/logo.png"))\n'
           '    requests.get(urljoin(MEDIA_URL, name) + "/x")\n')
    # (and a path alone at requests.get, which has no base to resolve it: IRI116)
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (10, 25, "IRI116"), (10, 38, "IRI804"), (11, 25, "IRI116")]


def test_urljoin_in_a_helper_of_another_module_is_the_callers(tmp_path: Path) -> None:
    """fixtures127 (repro 01): ``def api_path(path): return urljoin(API_V2, path)`` in a helpers module, called as
    ``requests.get(api_path("items"))``: the helper's module cannot know what it drops (``path`` is a hole
    there), the caller's value can: IRI804 at the reference, in the caller, as for a helper of its own."""
    modules = {"helpers.py": 'from urllib.parse import urljoin\n\nAPI_V2 = "https://api.example.com/api/v2"\n\n\n'
                             'def api_path(path):\n    return urljoin(API_V2, path)\n\n\n'
                             'def docs():\n    return urljoin(API_V2, "docs")\n',
               "use.py": 'import requests\nfrom helpers import api_path, docs\n\n\ndef f():\n'
                         '    requests.get(api_path("items"))\n    requests.get(docs())\n'}
    assert _lint_project(tmp_path, modules, "use.py") == [(6, "IRI804")]
    assert _lint_project(tmp_path, modules, "helpers.py") == [(11, "IRI804")]  # (its own, once, where it is)


def test_posixpath_join_with_an_absolute_part_drops_the_url_before_it() -> None:
    """fixtures127's note: ``posixpath.join(CDN, "/assets/x.png")`` is ``/assets/x.png``: a part that starts with '/'
    throws away the parts before it, the URL's scheme and host too (IRI804, at that part's '/'); not when no part
    before it is a URL, nor when the part is relative."""
    src = ('import posixpath\nimport requests\n\nCDN = "https://cdn.example.net/static"\n\n\ndef f(p):\n'
           '    requests.get(posixpath.join(CDN, "/assets/x.png"))\n'
           '    requests.get(posixpath.join(CDN, "img", "a.png"))\n'
           '    requests.get(posixpath.join("/srv", "/x"))\n    requests.get(posixpath.join(CDN, p, "/z"))\n'
           '    requests.get(posixpath.join(CDN, "/themes", str(p), "a.json"))\n')  # (fixtures204 repro 02)
    found = [(f.line, f.col, f.code) for f in lint_text(src, Config())]
    # (and "/x" alone at requests.get has no scheme, IRI116; "/assets/x.png" has none because of the join: one cause)
    assert found == [(8, 38, "IRI804"), (10, 41, "IRI116"), (11, 41, "IRI804"), (12, 38, "IRI804")]
    assert "scheme and host" in lint_text(src, Config())[0].finding.message


def test_a_join_that_starts_a_reference_with_two_slashes_makes_a_host() -> None:
    """fixtures131's note: Django's ``LOGOUT_REDIRECT_URL = "/"`` joined to ``"/goodbye/"`` is ``//goodbye/``, a
    network-path reference to the host ``goodbye`` (RFC 3986 sec. 4.2): IRI802 at the joined '/'. Not a
    protocol-relative URL spelled so (``"//" + CDN_HOST``), nor a join without the second '/'."""
    src = ('from django.shortcuts import redirect\nLOGOUT_REDIRECT_URL = "/"\nCDN_HOST = "cdn.example.net"\n\n\n'
           'def f():\n    redirect(LOGOUT_REDIRECT_URL + "/goodbye/")\n    redirect("//" + CDN_HOST + "/x")\n'
           '    redirect(LOGOUT_REDIRECT_URL + "goodbye/")\n')
    (f,) = lint_text(src, Config())
    assert (f.line, f.col, f.code) == (7, 36, "IRI802") and "'goodbye' is now read as a host" in f.finding.message


def test_a_with_statements_later_item_sees_the_names_its_earlier_items_bind() -> None:
    """fixtures133 (repro 01): ``async with aiohttp.ClientSession() as s, s.get(CDN + "img") as r:`` runs as two nested
    ``with`` statements, so ``s`` is the session when the second item is entered; an item before the binding one does
    not see it."""
    src = ('import aiohttp\nimport httpx\nCDN = "https://cdn.example.net"\n\n\nasync def f():\n'
           '    async with aiohttp.ClientSession() as s, s.get(CDN + "img") as r:\n        return r\n\n\n'
           'def g(c):\n    with c.stream("GET", CDN + "img") as r, httpx.Client() as c:\n        return r\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(7, 58, "IRI801")]


def test_a_star_imported_name_bound_again_to_the_same_text_keeps_it(tmp_path: Path) -> None:
    """fixtures136 (repro 01): ``from base import *`` then ``if DEBUG: SITE_URL = <the same text>``: every binding
    that can have run agrees, so the name has that value (design.md, "Names"); a different text is a hole."""
    modules = {"base.py": 'SITE_URL = "https://www.example.org"\n',
               "star.py": 'from base import *\n\nif DEBUG:\n    SITE_URL = "https://www.example.org"\n',
               "other.py": 'from base import *\n\nif DEBUG:\n    SITE_URL = "https://dev.example.org"\n',
               "use.py": 'import requests\nimport star\nimport other\n\n\ndef f():\n'
                         '    requests.get(star.SITE_URL + "about")\n    requests.get(other.SITE_URL + "about")\n'}
    assert _lint_project(tmp_path, modules, "use.py") == [(7, "IRI801")]


def test_a_package_importing_its_own_submodules_by_absolute_name_is_read(tmp_path: Path) -> None:
    """``from pkg import utils`` inside pkg/__init__.py imports the submodule (the package's own name is not bound
    yet): a module importing ``utils`` or ``settings`` from the package reads them, as with ``from . import``."""
    (tmp_path / "pkg").mkdir()
    modules = {
        "pkg/__init__.py": "from pkg import settings, utils\nfrom pkg.settings import API\n",
        "pkg/settings.py": 'API = "https://api.example"\n',
        "pkg/utils.py": "import requests\n\n\ndef fetch(url):\n    r = requests.get(url)\n    return r.json()\n",
        "app.py": ('import requests\nimport pkg\nfrom pkg import settings, utils\n\n\ndef main():\n'
                   '    utils.fetch(settings.API + "b1")\n    pkg.utils.fetch(pkg.API + "b2")\n'
                   '    requests.get(settings.API + "b3")\n'),
    }
    assert _lint_project(tmp_path, modules, "app.py") == [(7, "IRI801"), (8, "IRI801"), (9, "IRI801")]


def test_the_database_and_broker_recipe_of_extra_url_apis_finds_joins_into_the_port() -> None:
    """docs/configuration.md's recipe (fixtures148): with ``sqlalchemy.create_engine`` and ``redis.from_url`` as URL
    APIs and ``broker``/``dsn`` as URL names, a name joined to a port without its ``/`` is found where it reaches
    them; without the recipe they are no URL APIs (they take local paths and other schemes as often)."""
    text = ('import redis\nfrom celery import Celery\nfrom sqlalchemy import create_engine\n\n'
            'PORT = ":5432"\nengine = create_engine("postgresql://app@db.internal" + PORT + "warehouse")\n'
            'cache = redis.from_url("redis://cache.internal:6379" + "0")\n'
            'app = Celery("tasks", broker="amqp://guest@rabbit.internal:5672" + "vhost")\n')
    recipe = Config(extra_url_apis=("sqlalchemy.create_engine", "redis.from_url", "redis.Redis.from_url"),
                    url_names=("url", "uri", "href", "broker", "dsn"))
    assert [(f.line, f.code) for f in lint_text(text, recipe)] == [(6, "IRI801"), (7, "IRI801"), (8, "IRI801")]
    assert [(f.line, f.code) for f in lint_text(text, Config())] == []


def test_the_data_recipe_of_extra_url_apis_checks_urls_and_leaves_local_paths() -> None:
    """docs/configuration.md's recipe (fixtures151 repro 02): ``:url-or-path`` APIs read local paths as often, so
    their argument is a URL only when it starts with ``scheme://`` (or a hole for the scheme); a keyword named
    in the spec is read as the positional is."""
    text = ('import fsspec\nimport pandas as pd\n\nCDN = "https://cdn.example.com"\n\n\ndef load(proto, host):\n'
            '    pd.read_csv("data/Q1 results.csv")\n    pd.read_csv("/mnt/Sales Report.csv")\n'
            '    pd.read_csv("C:/data/a b.csv")\n'
            '    pd.read_csv(CDN + "exports/daily.csv")\n    pd.read_csv(filepath_or_buffer=CDN + "x/a b.csv")\n'
            '    fsspec.open("s3://bucket/a b.csv")\n    fsspec.open(f"{proto}://{host}/a b.csv")\n'
            '    pd.read_csv(root + "/a b.csv")\n')
    recipe = Config(extra_url_apis=("pandas.read_csv:filepath_or_buffer:url-or-path", "fsspec.open:url-or-path"))
    assert [(f.line, f.code) for f in lint_text(text, recipe)] == [
        (11, "IRI801"), (12, "IRI801"), (12, "IRI101"), (13, "IRI101"), (14, "IRI101")]
    # as plain URL APIs the paths are URLs with spaces
    plain = Config(extra_url_apis=("pandas.read_csv", "fsspec.open"))
    assert {f.line for f in lint_text(text, plain)} >= {8, 9}


@pytest.mark.parametrize(("spec", "args", "keywords", "or_path"), [
    ("mylib.fetch", (0,), ("url",), False),
    ("mylib.fetch:1", (1,), ("url",), False),
    ("mylib.fetch:0+2", (0, 2), ("url",), False),
    ("mylib.fetch:target", (0,), ("url", "target"), False),
    ("pandas.read_csv:filepath_or_buffer:url-or-path", (0,), ("url", "filepath_or_buffer"), True),
    ("fsspec.open:url-or-path", (0,), ("url",), True),
])
def test_an_extra_api_spec_names_positions_keywords_and_the_path_kind(
        spec: str, args: tuple[int, ...], keywords: tuple[str, ...], or_path: bool) -> None:
    api = parse_extra_api(spec)
    assert (api.name, api.args, api.keywords, api.or_path) == (spec.split(":")[0], args, keywords, or_path)


def test_a_parameter_annotated_with_a_client_class_is_that_client() -> None:
    """fixtures154 repro 01: ``session: aiohttp.ClientSession``, ``client: httpx.AsyncClient | None`` and
    ``s: requests.Session`` are objects of those classes (their base URL unknown), so their requests are URL API
    calls; a parameter annotated with any other class, or not at all, stays a hole."""
    src = ('import aiohttp\nimport httpx\nimport requests\n\nCDN = "https://cdn.example.net"\n\n\n'
           'async def emoji(session: aiohttp.ClientSession):\n    return await session.get(CDN + "emoji/x.json")\n\n\n'
           'async def users(client: httpx.AsyncClient | None):\n    return await client.get("/users/a b")\n\n\n'
           'def plain(s: requests.Session, d: dict, e):\n    s.get(CDN + "/x y")\n    d.get(CDN + "/x y")\n'
           '    e.get(CDN + "/x y")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(9, "IRI801"), (13, "IRI101"), (17, "IRI101")]


def test_a_literal_given_to_an_annotated_client_parameter_is_one_url() -> None:
    """fixtures221 repro 1: ``s.get("https://example.com/a\\\\d")`` with ``s: requests.Session`` (or a forward
    reference, ``c: "httpx.Client"``) is a URL API's argument, one URL whatever it holds: not a regex's escape
    (IRI103) nor prose (IRI101), as with ``requests.get``; an unannotated parameter's is read by its shape."""
    src = '''import requests
import httpx
def literals(s: requests.Session, c: "httpx.Client", e):
    s.get("https://example.com/a\\\\b")
    s.get(url="https://example.com/a\\\\d")
    s.get("https://example.com/a b c d")
    c.get("https://example.com/a b c d")
    e.get("https://example.com/a b c d")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (4, "IRI103"), (5, "IRI103"), (6, "IRI101"), (7, "IRI101")]


def test_a_parameter_annotated_with_another_class_keeps_the_module_s_client() -> None:
    """Only a URL API's class binds an annotated parameter for the literal scan, whose names are the module's: a
    ``Path`` parameter named as the module's session does not make ``s.get(...)`` after it no URL API's."""
    src = '''import requests
from pathlib import Path
s = requests.Session()
def f(s: Path):
    return s
s.get("https://example.com/a\\\\d")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(6, "IRI103")]


def test_robotparser_and_a_named_browser_are_url_apis() -> None:
    """fixtures155 repro 03: ``RobotFileParser(url)``, its ``set_url`` (read with urlopen: ASCII only) and
    ``webbrowser.get(name).open`` take URLs as ``webbrowser.open`` does."""
    src = ('import webbrowser\nfrom urllib.robotparser import RobotFileParser\n\nSITE = "https://books.example.com"\n'
           'rp = RobotFileParser(SITE + "robots.txt")\nrp2 = RobotFileParser()\nrp2.set_url(SITE + "robots.txt")\n'
           'webbrowser.get("firefox").open(SITE + "catalogue")\nRobotFileParser("https://h.example/caf\\u00e9")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (5, "IRI801"), (7, "IRI801"), (8, "IRI801"), (9, "IRI404")]


@pytest.mark.parametrize(("piece", "expected"), [
    ('"http//" + h + "/x"', [(3, 14, "IRI603")]),
    ('"https;//" + h + "/x"', [(3, 14, "IRI603")]),
    ('f"ws//{h}/x"', [(3, 15, "IRI603")]),
    ('"https:\\\\\\\\" + h + "/x"', [(3, 14, "IRI603")]),  # (not IRI103 alone: its consequence)
    ('"https://" + h', []),
])
def test_a_scheme_typo_before_an_unknown_host(piece: str, expected: list[tuple[int, int, str]]) -> None:
    """fixtures167 repro 03: the typo is all in the known text before the hole, whatever host fills it."""
    src = f'import requests\nh = input()\nrequests.get({piece})\n'
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("base", "expected"), [
    ('"https://h.example/v1?appid=demo"', [(3, 49, "IRI810")]),
    ('f"https://h.example/v1?appid={KEY}"', [(3, 50, "IRI810")]),
    ('"https://h.example/v1?appid=" + KEY', [(3, 49, "IRI810")]),
    ('"https://h.example/v1/"', []),
    ('KEY', []),  # (a hole: it may hold a query, or not)
])
def test_an_httpx_base_with_a_query(base: str, expected: list[tuple[int, int, str]]) -> None:
    """fixtures167 repro 01, fixtures169 repro 03: httpx appends each relative request after the base's query
    (``/v1?appid=KEY/alerts``): reported at the base's '?', however the key is spelled; so is aiohttp's, whose
    resolution drops the base's query from each request with a path (RFC 3986 sec. 5.2.2; fixtures190 repro 03)."""
    src = f'import httpx, os\nKEY = os.environ["KEY"]\napi = httpx.Client(base_url={base})\n'
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected
    aio = src.replace("import httpx, os", "import aiohttp, os").replace("httpx.Client", "aiohttp.ClientSession")
    shift = len("aiohttp.ClientSession") - len("httpx.Client")
    assert [(f.line, f.col - shift, f.code) for f in lint_text(aio, Config()) if f.code == "IRI810"] == expected


@pytest.mark.parametrize(("base", "expected"), [
    ('"https://h.example/v2"', [(4, 61, "IRI812")]),
    ('HOST + "/v2"', [(4, 51, "IRI812")]),
    ('f"https://{REGION}.h.example/v2?key=1"', [(4, 71, "IRI812"), (4, 72, "IRI810")]),  # (yarl's path ends at '?')
    ('"https://h.example/v2/"', []),
    ('"https://h.example"', []),  # (yarl reads an empty path as '/')
    ('f"{HOST}/{REGION}"', []),  # (a hole may end with '/')
    ('REGION + "/v2"', []),  # (what the hole holds decides where the path starts)
])
def test_an_aiohttp_base_whose_path_lacks_a_trailing_slash(base: str, expected: list[tuple[int, int, str]]) -> None:
    """fixtures186 repro 02: aiohttp raises ``ValueError("base_url must have a trailing '/'")`` when the
    session is made (3.14's ``ClientSession.__init__``): IRI812 at the path's last character, requests or none;
    a relative request through it is not IRI804 too (no request is ever resolved against it)."""
    src = ('import aiohttp, os\nREGION = os.environ["REGION"]\nHOST = "https://h.example"\n'
           f'session = aiohttp.ClientSession(base_url={base})\nsession.get("items")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected
    httpx = src.replace("import aiohttp", "import httpx").replace("aiohttp.ClientSession", "httpx.Client")
    assert [f.code for f in lint_text(httpx, Config()) if f.code == "IRI812"] == []


def test_an_aiohttp_subclass_given_a_base_without_a_trailing_slash() -> None:
    """``super().__init__(base_url=...)`` in a class derived from ``aiohttp.ClientSession`` makes the session:
    its base is IRI812's there, once, however many requests go through it."""
    src = ('import aiohttp\n\n\nclass Api(aiohttp.ClientSession):\n    def __init__(self):\n'
           '        super().__init__(base_url="https://h.example/api/v2")\n\n'
           '    async def items(self):\n        return await self.get("items")\n\n'
           '    async def orders(self):\n        return await self.get("orders")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(6, 58, "IRI812")]


def test_a_session_made_through_a_class_that_hands_its_base_on() -> None:
    """fixtures190 repro 01: an SDK's ``ApiSession(aiohttp.ClientSession)`` whose ``__init__(self, base_url, **kw)``
    hands ``base_url`` on as it is makes the session with the call's own base: IRI812 at ``ApiSession(base_url=...)``,
    at a class below it without an ``__init__``, at a subclass's ``super().__init__(base_url=...)``; its requests
    resolve against that base (IRI804); an httpx one's base query is IRI810 the same way."""
    src = ('import aiohttp, httpx\n\n\nclass ApiSession(aiohttp.ClientSession):\n'
           '    def __init__(self, base_url, **kwargs):\n        super().__init__(base_url=base_url, **kwargs)\n\n\n'
           'class MirrorSession(ApiSession):\n    pass\n\n\n'
           'class CatalogSession(ApiSession):\n    def __init__(self):\n'
           '        super().__init__(base_url="https://c.example/api/v3")\n\n\n'
           'class Api(httpx.Client):\n    def __init__(self, token, base_url):\n'
           '        super().__init__(base_url=base_url, headers={"A": token})\n\n\n'
           'async def f(token):\n    a = ApiSession(base_url="https://a.example/v1")\n'
           '    b = MirrorSession(base_url="https://m.example/pub")\n'
           '    s = ApiSession(base_url="https://a.example/v1/")\n    await s.get("/status")\n'
           '    Api(token, base_url="https://h.example/v1?k=1").get("x")\n    return a, b\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (15, "IRI812"), (24, "IRI812"), (25, "IRI812"), (27, "IRI804"), (28, "IRI810")]


def test_a_base_given_first_to_a_class_that_hands_it_on() -> None:
    """fixtures192 repro 01: ``ApiSession("https://h/v1")``, its ``__init__(self, base_url, **kw)`` handing it on,
    is the keyword form's session (IRI812), an httpx one's too: its base's query is IRI810, and its requests are
    appended to it (IRI803); not where ``base_url`` is no first parameter."""
    src = ('import aiohttp, httpx\n\n\nclass ApiSession(aiohttp.ClientSession):\n'
           '    def __init__(self, base_url, **kwargs):\n        super().__init__(base_url=base_url, **kwargs)\n\n\n'
           'class ApiClient(httpx.Client):\n    def __init__(self, base_url, token):\n'
           '        super().__init__(base_url=base_url, headers={"A": token})\n\n\n'
           'class Tenant(httpx.Client):\n    def __init__(self, tenant, base_url):\n'
           '        super().__init__(base_url=base_url, headers={"T": tenant})\n\n\n'
           'def f():\n    s = ApiSession("https://search.example/v1")\n'
           '    c = ApiClient("https://w.example/v1?appid=demo", "t")\n    c.get("alerts?lang=en")\n'
           '    t = Tenant("https://w.example/v1?appid=demo", "https://h.example/")\n    return s, t\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(20, "IRI812"), (21, "IRI810"), (22, "IRI803")]


def test_a_constant_given_first_to_a_client_class_on_a_line_without_url_text() -> None:
    """fixtures194 repro 01: ``TileSession(TILES)``, ``BaseClient(PLACES, "k")`` hold no URL text on their line: the
    call of a name ending ``Session`` or ``Client`` with arguments is read, and the class decides (IRI812 and IRI810
    at the constants); another class's call is not a client's."""
    src = ('import aiohttp, httpx\nTILES = "https://tiles.example.com/v3"\nPLACES = "https://p.example/v1?key=abc"\n\n\n'
           'class TileSession(aiohttp.ClientSession):\n    def __init__(self, base_url, **kw):\n'
           '        super().__init__(base_url=base_url, **kw)\n\n\n'
           'class BaseClient(httpx.Client):\n    def __init__(self, base_url, api_key):\n'
           '        super().__init__(base_url=base_url, headers={"K": api_key})\n\n\n'
           'class Report:\n    def __init__(self, base_url):\n        self.base_url = base_url\n\n\n'
           'a = TileSession(TILES)\nc = BaseClient(PLACES, "k")\nr = Report(PLACES)\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(2, "IRI812"), (3, "IRI810")]


def test_a_base_a_client_class_hands_its_parent_first_on_a_line_without_url_text() -> None:
    """``super().__init__(TILES, **kw)`` in a client class gives aiohttp its base positionally on a line without URL
    text (last stop's Left): IRI812 at the constant, as with ``base_url=TILES``; another
    class's is not read."""
    src = ('import aiohttp\nTILES = "https://tiles.example.com/v1"\n\n\n'
           'class TileSession(aiohttp.ClientSession):\n    def __init__(self, **kw):\n'
           '        super().__init__(TILES, **kw)\n\n\n'
           'class Tiles(dict):\n    def __init__(self, **kw):\n        super().__init__(TILES, **kw)\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(2, 36, "IRI812")]


def test_each_item_of_a_loop_is_a_use_of_its_own() -> None:
    """fixtures192 repro 02: ``for target in ("elasticsearch:9200", "kibana:5601")`` sends two URLs without a
    scheme: IRI116 at each item, as IRI801 is, not once at the variable for the first."""
    src = ('import requests\n\n\ndef probe():\n    for target in ("elasticsearch:9200", "kibana:5601"):\n'
           '        requests.get(target + "/api/status")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(5, 20, "IRI116"), (5, 42, "IRI116")]


@pytest.mark.parametrize("client", ["httpx.Client(base_url={})", "aiohttp.ClientSession(base_url={})"])
def test_a_client_s_base_is_an_absolute_url(client: str) -> None:
    """fixtures192 repro 03: a client's base has nothing to be resolved against (RFC 3986 sec. 5.1): httpx raises
    UnsupportedProtocol, aiohttp "Only absolute URLs are supported"; a base whose start is unknown may hold one."""
    made = [client.format(b) for b in ('"localhost:8080/"', '"api.example.com/v1/"', 'HOST + "/v1/"')]
    src = "import aiohttp, httpx, os\nHOST = os.environ['HOST']\n" + "".join(f"c = {m}\n" for m in made)
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(3, "IRI116"), (4, "IRI116")]


def test_no_request_through_a_refused_base_is_iri804(tmp_path: Path) -> None:
    """fixtures190 repro 02: a session whose base aiohttp refuses resolves no request, relative or absolute: IRI812
    once, where the session is made, whether its base is spelled there or in a settings module; only a module
    that neither makes the session nor spells its base reports the request's IRI804, saying the base is refused."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "conf.py").write_text('API = "https://h.example/api/v3"\n', encoding="utf-8")
    (tmp_path / "clients.py").write_text('import aiohttp\nfrom conf import API\nsession = aiohttp.ClientSession(API)\n',
                                         encoding="utf-8")
    app = ('import aiohttp\nfrom conf import API\n\n\nasync def f():\n'
           '    async with aiohttp.ClientSession(base_url="https://h.example/api/v1") as s:\n'
           '        await s.get("/status")\n        await s.get("items")\n'
           '    async with aiohttp.ClientSession(base_url=API) as t:\n        await t.get("items")\n')
    use = 'from clients import session\nsession.get("/items")\n'
    project = Project()
    found = [(f.line, f.code) for f in lint_text(app, Config(), path=str(tmp_path / "app.py"), project=project)]
    assert found == [(6, "IRI812"), (9, "IRI812")]
    used = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=project)
    assert [(f.line, f.code) for f in used] == [(2, "IRI804")] and "refuses" in used[0].finding.message


@pytest.mark.parametrize(("url", "found"), [
    ('"localhost:8080/healthz"', [(2, 14, "IRI116")]), ('"db.internal:5432"', [(2, 14, "IRI116")]),
    ('"localhost:8080?x=1"', [(2, 14, "IRI116")]), ('"tel:5551234"', []),  # (a registered scheme's)
    ('"localhost:808000/x"', []),  # (no port: six digits)
])
def test_a_host_and_port_without_a_scheme_at_an_http_api(url: str, found: list[tuple[int, int, str]]) -> None:
    """fixtures191 repro 02: ``requests.get("localhost:8080/healthz")`` reads ``localhost`` as a scheme (RFC 3986
    sec. 3.1) and raises ``InvalidSchema``: IRI116, not a route name (``admin:index``); an identifier's
    ``URIRef("store:1")`` is a URI of the scheme ``store``, and a URL-named target's value no HTTP request."""
    src = f"import requests\nrequests.get({url})\n"
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == found
    other = f"from rdflib import URIRef\nURIRef({url})\nLOCAL_URL = {url}\n"
    assert [f.code for f in lint_text(other, Config()) if f.code == "IRI116"] == []


def test_a_loop_over_a_display_checks_each_item_as_its_target_s_value() -> None:
    """fixtures169 repro 05: ``for url in [HOST + "robots.txt"]`` binds each item to ``url``, a URL-named
    target, as ``url = HOST + "robots.txt"`` would (IRI801); a pattern-named target binds no URL values."""
    src = ('import requests\nHOST = "https://probe.example"\nfor url in [HOST + "robots.txt", HOST + "/x"]:\n'
           '    requests.get(url)\nfor pattern in [HOST + "x y"]:\n    print(pattern)\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(3, 20, "IRI801")]


def test_an_httpx_subclass_base_with_a_query() -> None:
    """fixtures170's note (Azure Translator's shape): ``super().__init__(base_url=...)`` in a class derived from
    ``httpx.Client`` makes that client: its base's query is IRI810's, once, beside what else the base holds."""
    src = ('import httpx\n\n\nclass Translator(httpx.Client):\n    def __init__(self, key):\n'
           '        super().__init__(base_url="https://api.example/t?api-version=3.0", headers={"k": key})\n\n'
           '    def translate(self):\n        return self.post("translate?to=de")\n\n\n'
           'class Plain:\n    def __init__(self):\n        super().__init__()\n        self.base_url = "https://h/?a=1"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(6, 56, "IRI810"), (9, 35, "IRI803")]


@pytest.mark.parametrize(("use", "expected"), [
    ('KEYED + "/alerts"', [(6, 26, "IRI811")]),
    ('f"{KEYED}/alerts/{name}"', [(6, 26, "IRI811")]),
    ('"/".join([KEYED, "alerts"])', [(6, 18, "IRI811")]),
    ('PAGE + "/linux"', [(6, 25, "IRI811")]),
    ('KEYED + "/alerts?lang=en"', [(6, 33, "IRI803")]),  # (the '?' it brings: IRI803's, one finding)
    ('ROUTE + "/42"', []),  # (a page's route: "#/orders/42")
    ('"https://s3.example/list?prefix=" + BUCKET + "/2024"', []),  # (a value joined on its own: a path, maybe)
    ('"https://s3.example/list?path=" + name + "/" + name', []),
    ('"https://s3.example/list?prefix=logs" + "/2024"', []),  # (a parameter named for a path)
    ('NEXT + "/settings"', []),  # (a parameter named for a URL)
    ('"https://h.example/?q=a/b" + "/c"', []),  # (a value that holds a path)
    ('KEYED + "&units=metric"', []),
])
def test_a_path_joined_after_a_query_one_piece_wrote_whole(use: str, expected: list[tuple[int, int, str]]) -> None:
    """IRI811 (last stop's Left, fixtures165): ``?appid=demo`` + ``/alerts`` sends ``appid=demo/alerts`` to the
    base's path; a value joined as a piece of its own may be a path, and is left alone."""
    src = ('import requests\nKEYED = "https://w.example/v1?appid=demo"\nPAGE = "https://d.example/guide#install"\n'
           'ROUTE, BUCKET, NEXT = "https://a.example/#/orders", "logs", "https://x.example/login?next=home"\n'
           f'def f(name):\n    requests.get({use})\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


def test_a_finding_at_this_module_s_literal_names_no_other_module(tmp_path: Path) -> None:
    """fixtures171 repro 02: ``urljoin(settings.API, ".")`` resolves the ``.`` away, and the offset IRI804 gives
    lands on the base's text; the finding stands at this module's ``"."``, so it says "spelled in" nowhere."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text('API = "https://h.example/api/v2"\n', encoding="utf-8")
    use = ('from urllib.parse import urljoin\nimport requests\nimport settings\n'
           'requests.get(urljoin(settings.API, "."))\n')
    found = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code, f.spelled) for f in found] == [(4, 36, "IRI804", None)]
    assert "spelled in" not in found[0].finding.message


@pytest.mark.parametrize(("use", "expected"), [
    ('SEARCH + "#results" + "&page=2"', [(6, 40, "IRI809")]),
    ('"https://shop.example/list#top" + "&sort=asc"', [(6, 52, "IRI809")]),
    ('ROUTE + "&page=2"', []),  # (a page's route: its own query)
    ('OAUTH + "&state=1"', []),  # (a fragment with parameters of its own: OAuth's implicit grant)
    ('"https://app.example/cb#token=" + t + "&state=1"', []),
    ('f"https://app.example/p#{t}&page=2"', []),  # (a hole in the fragment: it may be anything)
])
def test_a_parameter_joined_after_a_fragment(use: str, expected: list[tuple[int, int, str]]) -> None:
    """fixtures171's note: ``SEARCH + "#results" + "&page=2"`` puts the parameter in the fragment, never sent,
    the loss IRI803 reports for a '?' after a '#'."""
    src = ('import requests\nSEARCH = "https://shop.example/search?q=x"\nROUTE = "https://app.example/#/search?q=x"\n'
           'OAUTH = "https://app.example/cb#access_token=abc"\ndef f(t):\n'
           f'    requests.get({use})\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


@pytest.mark.parametrize(("use", "expected"), [
    ('requests.get("api.example.com/v1/users")', [(5, 18, "IRI116")]),
    ('requests.get(url="/v1/users")', [(5, 22, "IRI116")]),
    ('requests.Session().get("/v1/me")', [(5, 28, "IRI116")]),
    ('requests.get("/v1/users/" + uid)', [(5, 18, "IRI116")]),
    ('requests.get(PATH)', [(3, 8, "IRI116")]),  # (at the constant's literal, which reaches the API)
    ('urllib.request.urlopen("index.html")', [(5, 28, "IRI116")]),
    ('httpx.get("/health")', [(5, 15, "IRI116")]),
    ('requests.get(f"{host}/v1")', []),  # (its start unknown: a host, maybe)
    ('requests.get(host + "/v1")', []),
    ('requests.get("{}/v1".format(host))', []),
    ('httpx.Client(base_url=BASE).get("/health")', []),  # (a client that may have a base)
    ('httpx.Client().get("/health")', []),
    ('requests.Request("GET", "/v1")', []),  # (a session with a base may prepare it)
    ('requests.get(BASE + "/v1")', []),
])
def test_a_reference_without_a_scheme_at_an_api_with_no_base(use: str, expected: list[tuple[int, int, str]]) -> None:
    """fixtures172 repro 03: requests raises MissingSchema, urllib.request "unknown url type": IRI116 at a URL API
    that has no base URL to resolve a relative reference against."""
    src = ('import urllib.request, requests, httpx\nBASE = "https://api.example.com"\nPATH = "/v1/users"\n'
           f'def f(uid, host):\n    {use}\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == expected


def test_a_client_base_with_a_query_from_another_module_is_reported_at_the_use(tmp_path: Path) -> None:
    """fixtures179 repro 02: the module that spells a base with a '?' cannot know a client appends requests to it
    (a '?' is fine in a URL-named constant): IRI810 is the use's, at the name that brings the base in."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "conf.py").write_text('PAY_API_URL = "https://pay.example.com/v1?version=2024-06"\n', encoding="utf-8")
    use = ('import httpx\nimport conf\nfrom conf import PAY_API_URL\n\nc1 = httpx.Client(base_url=PAY_API_URL)\n'
           'c2 = httpx.Client(base_url=conf.PAY_API_URL)\n')
    project = Project()
    got = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=project)
    assert [(f.line, f.col, f.code) for f in got] == [(5, 27, "IRI810"), (6, 27, "IRI810")]
    assert lint_text((tmp_path / "conf.py").read_text("utf-8"), Config(), path=str(tmp_path / "conf.py"),
                     project=project) == []


def test_strings_implicitly_joined_over_lines_are_joined_as_plus_joins_them() -> None:
    """fixtures195 repro 01: a URL wrapped over lines as an implicit concatenation is a join of its strings
    (Python's grammar, as ``+``): a host the next line goes on with (IRI801), '//' (IRI802), a second '?' (IRI803);
    a wrap at a '/' or an '&', or one string of several lines, is no fault."""
    src = ('import requests\nCATEGORY_URL = ("https://books.example.com"\n                "catalogue/index.html")\n'
           'EXPORT_URL = (\n    "https://exports.example.com/v2/"\n    "/payouts/daily.csv"\n)\n'
           'def search():\n    requests.get("https://books.example.com/search?q=python"\n'
           '                 "?page=2")\n'
           '    requests.get("https://books.example.com/search?q=python"\n                 "&page=2")\n'
           '    requests.get("https://books.example.com/api/v2/"\n                 "search/items")\n'
           '    requests.get("""https://books.example.com/a\nb""")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (3, 17, "IRI801"), (6, 5, "IRI802"), (10, 18, "IRI803"), (15, 47, "IRI104")]


def test_f_strings_implicitly_joined_over_lines_are_joined_as_plus_joins_them() -> None:
    """fixtures214 repro 1: Python joins the text of strings on several lines into one constant of an f-string
    (``f"{ROOT}v1/"`` newline ``"/items"``); each string is a piece all the same, as in plain strings (IRI802,
    IRI803, IRI801, IRI809, IRI813 at the next line's character); strings on one line stay one literal."""
    src = '''import requests
ROOT = "https://api.example.com/"
HOST = "https://api.example.com"
def r5_url(year):
    return (f"{ROOT}reports/?fmt=csv"
            "?tz=UTC")
def t802(v):
    return requests.get(f"{ROOT}v1/"
                        "/items")
def t801(sub):
    return requests.get(f"https://{sub}.example.com"
                        "docs")
def t809():
    return requests.get(f"{HOST}/list"
                        f"&sort={'desc'}")
def t813(v):
    MIRROR_URLS = [
        f"https://a.example/pub/{v}/x.tar.gz"
        "https://b.example/pub/x.tar.gz",
    ]
def one_line(v):
    return requests.get(f"{ROOT}v1/" "/items")
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (6, 13, "IRI803"), (9, 25, "IRI802"), (12, 25, "IRI801"), (15, 26, "IRI809"), (19, 9, "IRI813")]


def test_a_second_port_joined_after_a_port_is_the_join_s_fault_whatever_the_userinfo() -> None:
    """fixtures196 repro 01, fixtures195 repro 04: ``":9443/x"`` after ``host:port`` makes the port ``5432:9443``
    (IRI801, not IRI112) with a userinfo in the scheme's piece too, and after a port built from parts."""
    src = ('import requests\nREPLICA = "replica.internal:5432"\nPORT = 5432\nHOST = "h.example"\n'
           'A_URL = f"postgresql://{REPLICA}:{PORT}/reports"\n'
           'B_URL = f"postgresql://reporting@{REPLICA}:{PORT}/reports"\n'
           'requests.get("https://svc@" + REPLICA + ":9443/x")\n'
           'requests.get("https://" + HOST + ":8443" + ":9443/x")\n'
           'requests.get(f"https://{HOST}:{PORT}" + ":9443/x")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (5, "IRI801"), (6, "IRI801"), (7, "IRI801"), (8, "IRI801"), (9, "IRI801")]


def test_a_name_a_branch_extends_is_checked_on_each_path_at_the_api() -> None:
    """fixtures195 repro 03: ``target += "?page=" + ...`` in an ``if`` leaves the name a hole at the request, but
    on the path through the branch the API is given what the ``+=`` made (IRI803 at the second '?', IRI809 at an
    '&' joined to a path); not after a binding of another kind, nor where the name is set afresh after it."""
    src = '''import requests
from urllib.parse import quote_plus
SEARCH = "https://books.example.com/search?q="
API = "https://api.books.example.com/v1"
def search(term, page):
    target = SEARCH + quote_plus(term)
    if page > 1:
        target += "?page=" + str(page)
    return requests.get(target)
def books(sort):
    endpoint = API + "/books"
    if sort:
        endpoint += "&sort=" + sort
    return requests.get(endpoint)
def fine(term, page):
    target = SEARCH + quote_plus(term)
    if page > 1:
        target += "&page=" + str(page)
    return requests.get(target)
def afresh(term, page):
    target = SEARCH + quote_plus(term)
    if page > 1:
        target += "?page=" + str(page)
    target = API + "/x" if term else API
    return requests.get(target)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(8, 19, "IRI803"), (13, 21, "IRI809")]


def test_two_urls_of_a_list_without_their_comma_are_one_host() -> None:
    """outside5 (cloudinary's tests): ``["cloudinary://k:s@test"`` newline ``"CLouDiNaRY://k:s@test"]`` lost its
    ',': Python joins the strings, the host becomes ``testCLouDiNaRY`` (IRI801), and the message asks about the
    comma; a join of ``+`` or a string that starts no URL is not asked about."""
    src = ('import requests\nfor url in [\n    "https://a.example"\n    "https://b.example/y",\n'
           '    "https://c.example"\n    "docs",\n]:\n    requests.get(url)\n'
           'requests.get("https://d.example" + "https://e.example/")\n')
    found = [(f.line, f.code, f.finding.message.endswith("is a ',' missing between them?)"))
             for f in lint_text(src, Config())]
    assert found == [(4, "IRI801", True), (6, "IRI801", False), (9, "IRI801", False)]


def test_the_slash_posixpath_join_puts_after_a_query_is_iri811() -> None:
    """fixtures195 repro 02: ``posixpath.join(SAS, "daily", "x.csv")`` onto a URL ending ``&sig=abc123`` puts the
    path into the parameter, as ``"/".join`` does (IRI811 at the call, which makes the '/'); a last part that may
    start with '/' makes all before it a hole (it may start afresh)."""
    src = ('import posixpath\nimport requests\nSAS = "https://a.example/landing?sv=2022-11-02&sr=c&sig=abc123"\n'
           'def f(blob):\n    requests.get(posixpath.join(SAS, "daily", "x.csv"))\n'
           '    requests.get(posixpath.join(SAS, "daily", blob))\n    requests.get("/".join([SAS, "daily", blob]))\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(5, 17, "IRI811"), (7, 18, "IRI811")]


def test_each_path_through_several_branches_that_extend_a_name() -> None:
    """fixtures197 repros 01, 03: optional filters, each ``if x: q += ...``: a path's value holds the earlier ones
    that always run, or every earlier one that may run with it (not one in another branch of the same ``if``),
    and the later ones that always run; through a client's base too."""
    src = '''import httpx
import requests
BASE = "https://search.example.com/api"
api = httpx.Client(base_url="https://search.example.com/api/v3/")
def firstless(a, b):
    q = BASE
    if a:
        q += "?x=1"
    if b:
        q += "&y=2"
    return requests.get(q)
def exclusive(a, b):
    q = BASE
    if a:
        q += "?x=1"
    elif b:
        q += "?y=2"
    else:
        q += "?z=3"
    return requests.get(q)
def always_after(c):
    q = BASE + "?q=1"
    if c:
        q += "&c=" + c
    q += "?page=1"
    return requests.get(q)
def guarded(a, lock):
    q = BASE
    with lock:
        q += "?x=1"
    if a:
        q += "&y=2"
    return requests.get(q)
def through_client(field, page):
    path = "tags/" + field + "/"
    if page:
        path += "&page=%d" % page
    return api.get(path)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (10, 14, "IRI809"), (25, 10, "IRI803"), (37, 17, "IRI809")]


def test_strings_joined_over_lines_stay_apart_when_the_value_is_joined_on() -> None:
    """fixtures197 repro 02: a wrapped literal that is an operand of ``+``, a constant joined later, or a loop's
    item joined to a file name keeps its strings apart (IRI801, IRI802 at the later string)."""
    src = ('import requests\nROOT = (\n    "https://rc.example.org"\n    "builds/"\n)\n'
           'def f(build_id):\n    requests.get("https://b.example.org"\n                 "builds/" + build_id)\n'
           '    requests.get("https://d.example.org/builds/"\n                 "/" + build_id)\n'
           '    requests.get(ROOT + build_id)\n'
           '    for base in ("https://m.example.net/pub/",\n                 "https://m.example.info"\n'
           '                 "https://m.example.com/pub/"):\n        requests.head(base + "SHA256SUMS")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (4, 5, "IRI801"), (8, 18, "IRI801"), (10, 18, "IRI802"), (14, 18, "IRI801")]


def test_a_wrapped_literal_s_port_the_join_makes_is_the_join_s_fault_alone() -> None:
    """fixtures197 repro 04: a DSN wrapped after ``:5432`` without its '/' is IRI801 alone, as with ``+``: the
    literal's own IRI112 at the same character only follows from the join (in the editor's assembly too)."""
    src = ('AUDIT_DATABASE_URL = (\n    "postgresql://auditor@db.internal.example.com:5432"\n'
           '    "audit?sslmode=require"\n)\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(3, 5, "IRI801")]


def test_a_client_class_s_other_methods_and_overrides_keep_its_constructor_checked() -> None:
    """fixtures198 repros 01, 02: an aiohttp session class that overrides ``post`` still makes the session its call
    gives the base of (IRI812 there); a ``send`` method overrides nothing of aiohttp's, so its requests are
    requests through the session (IRI804, IRI101); an httpx client's ``send`` is its own request method."""
    src = '''import aiohttp
import httpx
class Mattermost(aiohttp.ClientSession):
    def __init__(self, base_url, token, **kw):
        super().__init__(base_url=base_url, **kw)
    async def post(self, url, **kw):
        return await super().post(url, timeout=10, **kw)
class Discord(aiohttp.ClientSession):
    def __init__(self):
        super().__init__(base_url="https://discord.com/api/v10/")
    async def send(self, channel, content):
        return await self.post(f"channels/{channel}/messages", json={"content": content})
    async def me(self, gid):
        await self.get(f"guilds/{gid}/audit logs")
        return await self.get("/users/@me")
class Api(httpx.Client):
    def __init__(self):
        super().__init__(base_url="https://api.example.com/v1/")
    def send(self, request, **kw):
        return super().send(request, **kw)
    def me(self):
        return self.get("/me")
m = Mattermost("https://chat.example.com/api/v4", "t")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(14, "IRI101"), (15, "IRI804"), (23, "IRI812")]


def test_an_attribute_bound_from_itself_reads_the_value_before() -> None:
    """outside42 repro 01 (python3-openid's tests): ``self.id_url = self.id_url + "#fragment"`` in a subclass reads
    the base class's value on the right, not its own binding's: one '#'; a second '?' joined so is still found,
    and a later read holds the binding."""
    src = '''import requests
class Base:
    id_url = "http://someuser.example/"
    api_url = "https://api.example/v1?key=k"
class T(Base):
    def test(self):
        self.id_url = self.id_url + "#fragment"
        self.api_url = self.api_url + "?page=2"
        return requests.get(self.id_url + "?x=1")
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(8, 39, "IRI803"), (9, 43, "IRI803")]


def test_a_url_named_name_branches_extend_is_checked_on_each_path_too() -> None:
    """fixtures200 repro 01, fixtures199 repro 01: ``url = API``, ``if a: url += "?x=1"``, ``if b: url += "&y=2"``
    is IRI809 on the path without ``a``, as with any other name (its ``+=`` alone read the earlier one as a hole);
    ``url += "?sort="`` after ``url += "&page="`` in a branch onto a URL with a query is IRI803."""
    src = '''import requests
API = "https://search.example/v2/search"
LISTING = "https://search.example/v2/search?q=shoes"
def with_url(a, b):
    url = API
    if a:
        url += "?x=1"
    if b:
        url += "&y=2"
    return requests.get(url)
def with_url_803(sort, page):
    url = LISTING
    if page:
        url += "&page=" + str(page)
    if sort:
        url += "?sort=" + sort
    return requests.get(url)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(9, 16, "IRI809"), (16, 16, "IRI803")]


def test_session_classes_give_their_base_however_the_chain_takes_it() -> None:
    """fixtures200 repros 02-05, fixtures199 repro 02: a class below the client without an ``__init__`` (the call
    is the client's own: IRI812, IRI810 there), one that hands its ``base_url`` on first
    (``super().__init__(base_url, headers=...)``: IRI812 at its call, IRI804 through it), an ``__init__`` whose
    ``base_url`` default is the base where a call gives none (IRI810, IRI812 at the default), and an
    environment read's default handed on (IRI804, as through the client itself)."""
    src = '''import os
import aiohttp
import httpx
DEFAULT_BASE = "https://api.og.example/v2/?apiKey=k"
MM_BASE = os.environ.get("MM_URL", "https://chat.example/api/v4/")
class ChatSession(aiohttp.ClientSession):
    async def notify(self, text):
        return await self.post("hooks/x", json={"text": text})
class StatusClient(httpx.Client):
    pass
class PosSession(aiohttp.ClientSession):
    def __init__(self, base_url, token, **kw):
        super().__init__(base_url, headers={"Authorization": token}, **kw)
class OgClient(httpx.AsyncClient):
    def __init__(self, base_url=DEFAULT_BASE, **kw):
        super().__init__(base_url=base_url, **kw)
class OgSession(aiohttp.ClientSession):
    def __init__(self, base_url="https://api.og.example/v2", **kw):
        super().__init__(base_url=base_url, **kw)
async def run(token):
    ChatSession("https://chat.example/api/v4")
    StatusClient(base_url="https://status.example/v1?key=k1")
    PosSession("https://chat.example/api/v6", token)
    async with PosSession(MM_BASE, token) as mm:
        await mm.post("/posts")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (4, "IRI810"), (18, "IRI812"), (21, "IRI812"), (22, "IRI810"), (23, "IRI812"), (25, "IRI804")]


def test_a_client_class_called_without_a_base_sends_its_requests_to_the_init_default() -> None:
    """fixtures204 repro 01: ``def __init__(self, base_url=DEFAULT, **kw)`` handing it on; ``ChatSession(timeout=None)``
    or ``WeatherClient()`` gives none, so each request is resolved against (aiohttp: IRI804 for an absolute path) or
    appended to (httpx: IRI803 after the base's query) the default; not where the call gives a base, by keyword,
    first, or maybe in ``**options``; an environment read's default as where the variable is unset (fixtures205
    repro 01: no '//' where httpx strips the request's leading '/')."""
    src = '''import aiohttp
import httpx
class ChatSession(aiohttp.ClientSession):
    def __init__(self, base_url="https://chat.example/api/v4/", **kwargs):
        super().__init__(base_url=base_url, **kwargs)
class WeatherClient(httpx.Client):
    def __init__(self, base_url="https://weather.example/v1/?appid=demo", **kwargs):
        super().__init__(base_url=base_url, **kwargs)
async def rooms(options):
    async with ChatSession(timeout=None) as s:
        await s.get("/rooms")
    async with ChatSession("https://chat.example/") as s:
        await s.get("/rooms")
    async with ChatSession(**options) as s:
        await s.get("/rooms")
def alerts():
    WeatherClient(timeout=5).get("alerts?lang=en")
    WeatherClient().get("alerts?lang=en")
    WeatherClient(base_url="https://weather.example/v1/").get("alerts?lang=en")
class GiteaClient(httpx.Client):
    def __init__(self, base_url=os.getenv("GITEA_URL", "https://gitea.example.org/api/v1/"), **kw):
        super().__init__(base_url=base_url, **kw)
class BitbucketSession(aiohttp.ClientSession):
    def __init__(self, base_url=os.getenv("BB_URL", "https://api.bitbucket.org/2.0/"), **kw):
        super().__init__(base_url=base_url, **kw)
async def env(owner):
    GiteaClient().get(f"/repos/{owner}/releases")
    GiteaClient().get(f"repos/{owner}/tags")
    async with BitbucketSession() as session:
        await session.get(f"/repositories/{owner}/refs")
'''
    assert [(f.line, f.col, f.code) for f in lint_text("import os\n" + src, Config())] == [
        (8, 60, "IRI810"), (12, 21, "IRI804"), (18, 40, "IRI803"), (19, 31, "IRI803"), (31, 28, "IRI804")]


def test_two_urls_on_separate_lines_run_together_past_the_host_are_iri813() -> None:
    """fixtures197 repro 05, fixtures200 repro 06: a list's two URLs without their ',' make one URL whose path or
    query holds the second (IRI813 at the second string); at the host it is IRI801 alone (with its comma
    question); after '=' or '/' a wrapped nested URL is a parameter's value or an archived page's address (the
    wide outside set's waybackpy), so a list item ending with '/' is not reported; '+' is no implicit
    concatenation."""
    src = '''import requests
TRACKER_URLS = [
    "https://tracker.example.org/announce/",
    "https://tracker.example.net/announce/"
    "https://tracker.example.com/announce/",
]
SEARCH_URLS = [
    "https://a.example/search?q=boots"
    "https://b.example/search?q=boots",
    "https://c.example"
    "https://d.example/x",
]
LOGIN_URL = ("https://sso.example/login?next="
             "https://app.example/home")
requests.get("https://a.example/x/" + "https://b.example/y")
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(9, 5, "IRI813"), (11, 5, "IRI801")]


def test_branches_that_exclude_each_other_are_never_one_path() -> None:
    """fixtures201 repros 01-03: the branches of one if/elif/else, a match's cases, a try's body and its handler
    are never taken in one run (no IRI803 for '?lang=fr' then '?lang=de'); a path through no branch exists only
    where no earlier alternatives cover every run (if/elif without else: IRI809 at '&q='); a '+=' in a loop, a
    with block or a try body is checked on the path from the fresh value (IRI802, IRI809)."""
    src = '''import requests
API = "https://api.example.org/v1/search"
CAT = "https://books.example.org/catalogue/"
def by_elif(lang, q):
    endpoint = API
    if lang == "fr":
        endpoint += "?lang=fr"
    elif lang == "de":
        endpoint += "?lang=de"
    endpoint += "&q=" + q
    return requests.get(endpoint)
def by_else(lang, q):
    endpoint = API
    if lang == "fr":
        endpoint += "?lang=fr"
    else:
        endpoint += "?lang=en"
    endpoint += "&q=" + q
    return requests.get(endpoint)
def by_match(lang):
    endpoint = API
    match lang:
        case "fr":
            endpoint += "?lang=fr"
        case _:
            endpoint += "?lang=en"
    return requests.get(endpoint)
def localized(lang):
    endpoint = API
    try:
        endpoint += "?lang=" + lang.lower()
    except AttributeError:
        endpoint += "?lang=en"
    return requests.get(endpoint)
def breadcrumb(segments, lock):
    url = CAT
    for seg in segments:
        url += "/" + seg
    return requests.get(url)
def locked(lock):
    endpoint = CAT
    with lock:
        endpoint += "/new"
    return requests.get(endpoint)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (10, 17, "IRI809"), (38, 16, "IRI802"), (43, 21, "IRI802")]


def test_a_loop_s_item_given_to_urljoin_as_its_base_is_checked_with_each_item() -> None:
    """fixtures203 repro 03: ``for m in MIRRORS: requests.get(urljoin(m, "index.html"))`` with a mirror ending
    ``/docs``: IRI804 at the reference (relative or absolute), as through ``posixpath.join`` and ``+``; not for
    the mirrors that end with '/'."""
    src = (
        'from urllib.parse import urljoin\nimport requests\n'
        'MIRRORS = ("https://mirror.example.org/docs", "https://docs-mirror.example.net/latest/")\n'
        'OK = ("https://a.example/docs/", "https://b.example/")\n'
        'def f():\n    for m in MIRRORS:\n        requests.get(urljoin(m, "index.html"))\n'
        '    for m in MIRRORS:\n        requests.get(urljoin(m, "/index.html"))\n'
        '    for m in OK:\n        requests.get(urljoin(m, "index.html"))\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(7, 33, "IRI804"), (9, 33, "IRI804")]


def test_a_helper_s_urljoin_that_its_own_text_decides_is_reported_once(tmp_path: Path) -> None:
    """fixtures202 repro 01: ``def cdn_url(name): return urljoin(CDN, "files/" + name)`` drops ``exports`` whatever
    the caller gives: IRI804 at the helper's call of urljoin only, not again at each caller's request in other
    modules; a helper whose reference starts with the caller's value is reported at the caller."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    storage = ('from urllib.parse import urljoin\nCDN = "https://data.example/exports"\n\n\n'
               'def cdn_url(name):\n    return urljoin(CDN, "files/" + name)\n\n\n'
               'def any_url(ref):\n    return urljoin(CDN, ref)\n')
    use = ('import requests\nfrom .storage import any_url, cdn_url\nrequests.get(cdn_url("latest.json"))\n'
           'requests.get(any_url("latest.json"))\n')
    (pkg / "storage.py").write_text(storage, encoding="utf-8")
    (pkg / "use.py").write_text(use, encoding="utf-8")
    project = Project()
    own = lint_text(storage, Config(), path=str(pkg / "storage.py"), project=project)
    used = lint_text(use, Config(), path=str(pkg / "use.py"), project=project)
    assert [(f.line, f.code) for f in own] == [(6, "IRI804")]
    assert [(f.line, f.code) for f in used] == [(4, "IRI804")]


def test_a_url_named_helper_s_posixpath_join_is_reported_where_it_returns(tmp_path: Path) -> None:
    """fixtures202 repro 01's second half: ``def index_url(name): return posixpath.join(CDN, "/idx/" + name)``
    drops the CDN whatever the caller gives: IRI804 once, where the helper returns it; a helper not named for a
    URL (its returns are not checked there) and one whose base is the caller's are reported at the caller."""
    (tmp_path / "pkg").mkdir()
    modules = {
        "pkg/__init__.py": "",
        "pkg/storage.py": ('import posixpath\nCDN = "https://data.example/exports"\n\n\n'
                           'def index_url(name):\n    return posixpath.join(CDN, "/idx/" + name)\n\n\n'
                           'def index(name):\n    return posixpath.join(CDN, "/idx/" + name)\n\n\n'
                           'def file_url(base, name):\n    return posixpath.join(base, "/f/" + name)\n'),
        "pkg/use.py": ('import requests\nfrom .storage import file_url, index, index_url\n'
                       'requests.get(index_url("a.json"))\nrequests.get(index("a.json"))\n'
                       'requests.get(file_url("https://h.example/x", "a.json"))\n'),
    }
    assert _lint_project(tmp_path, modules, "pkg/storage.py") == [(6, "IRI804")]
    assert _lint_project(tmp_path, modules, "pkg/use.py") == [(4, "IRI804"), (5, "IRI804")]
    # (a configured URL name counts as the defaults do: ``index`` is then checked where it returns, not at callers)
    config = Config(url_names=("url", "uri", "href", "index"))
    found = {path: [(f.line, f.code) for f in lint_text(modules[path], config, path=str(tmp_path / path),
                                                         project=Project())]
             for path in ("pkg/storage.py", "pkg/use.py")}
    assert found == {"pkg/storage.py": [(6, "IRI804"), (10, "IRI804")], "pkg/use.py": [(5, "IRI804")]}


def test_each_binding_in_a_branch_that_may_reach_the_use_starts_a_path() -> None:
    """fixtures203 repro 01, fixtures200 repro 08: a name bound with ``=`` in an if/else (or an if after a default)
    is read at a URL API on each binding's path, then through the ``+=`` after, or a join at the use; the order of
    the branches does not matter. A binding whose block returns before the use is no such path."""
    src = '''import requests
AM = "http://am.example:9093/"
LIST = "https://shop.example/list"
def first_has_query(active, receiver):
    if active:
        url = AM + "api/v2/alerts?active=true"
    else:
        url = AM + "api/v2/alerts"
    url += "?receiver=" + receiver
    return requests.get(url)
def joined_at_use(active, receiver):
    if active:
        url = AM + "api/v2/alerts?active=true"
    else:
        url = AM + "api/v2/alerts"
    return requests.get(url + "?receiver=" + receiver)
def three_ways(kind, page):
    if kind == "sku":
        path = LIST + "/items"
    elif kind == "brand":
        path = LIST + "/brands"
    else:
        path = LIST + "?q=all"
    if page:
        path += "&page=" + str(page)
    return requests.get(path)
def default_then_branch(flag):
    target = LIST + "?page=1"
    if flag:
        target = LIST + "?sort=asc" + "?page=2"
    return requests.get(target)
def returns_first(active, receiver):
    if active:
        url = AM + "api/v2/alerts?active=true"
        return requests.get(url)
    else:
        url = AM + "api/v2/alerts"
    url += "?receiver=" + receiver
    return requests.get(url)
def every_way_right(flag):
    if flag:
        base = AM + "api/v2"
    else:
        base = AM + "api/v1"
    base += "/alerts"
    return requests.get(base)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (9, 12, "IRI803"), (16, 31, "IRI803"), (25, 17, "IRI809"), (30, 39, "IRI803")]


def test_a_binding_every_way_of_an_if_else_replaces_starts_no_path() -> None:
    """outside55 FP2 (ccxt's bitfinex): ``request = "/" + path``, then ``request = "v1" + request`` in the ``if`` and
    ``"v2" + request`` in the ``else``: no run reaches the use with the first value, so its '//' against a base
    ending with '/' is no path's (no IRI802); the branches' values are still checked ('//' where one makes it)."""
    src = '''import requests
def get(path, flag):
    request = '/' + path
    if flag:
        request = 'v1' + request
    else:
        request = 'v2' + request
    requests.get('https://api.example.com/' + request)
def get2(path, flag):
    request = 'x' + path
    if flag:
        request = '/v1' + request
    else:
        request = 'v2/' + request
    requests.get('https://api.example.com/' + request)
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(12, "IRI802")]



def test_a_try_body_s_binding_does_not_reach_past_an_else_that_leaves() -> None:
    """fixtures229 #2: ``try: base = HOST + "/v2/"`` / ``except KeyError: base = HOST`` / ``else: return ...`` then
    ``requests.get(base + "/health")``: a run that finishes the body leaves in ``else:``, so only the handler's
    value reaches the use (no IRI802). A handler that binds nothing, or a body with no ``else:``, still lets it."""
    src = '''import requests
HOST = "https://api.example.com"
def probe():
    try:
        base = HOST + "/v2/"
    except KeyError:
        base = HOST
    else:
        return requests.get(base + "health")
    return requests.get(base + "/health")
def probe2():
    try:
        base = HOST + "/v2/"
    except KeyError:
        pass
    else:
        return None
    return requests.get(base + "/health")
def probe3():
    try:
        base = HOST + "/v2/"
    except KeyError:
        return None
    return requests.get(base + "/health")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(18, "IRI802"), (24, "IRI802")]


def test_every_binding_of_a_longer_elif_chain_or_match_starts_a_path() -> None:
    """fixtures227 #1: only the last two bindings of an ``if``/``elif``/``elif``/``else`` (or a ``match`` of three
    cases) were checked: the last ``elif``/``else`` pair was read as covering every run, though the chain's
    earlier ways bind too. Each of up to 4 reaches the use; a binding before a chain whose every way binds
    reaches none (its '/'-less piece is no finding); one before a chain with a way that binds nothing does."""
    src = '''import requests
API = "https://api.example.com"
def four(kind):
    path = "z/before"
    if kind == 1:
        path = "a/me"
    elif kind == 2:
        path = "b/me"
    elif kind == 3:
        path = "c/me"
    else:
        path = "d/me"
    return requests.get(API + path)
def pick(kind):
    match kind:
        case "user":
            path = "users/me"
        case "order":
            path = "/orders"
        case _:
            path = "/status"
    return requests.get(API + path)
def gap(kind):
    path = "y/before"
    if kind == 1:
        path = "/a"
    elif kind == 2:
        pass
    else:
        path = "/d"
    return requests.get(API + path)
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (6, "IRI801"), (8, "IRI801"), (10, "IRI801"), (12, "IRI801"), (17, "IRI801"), (24, "IRI801")]

def test_a_name_branches_extend_joined_at_the_use_is_checked_on_each_path() -> None:
    """fixtures202 repro 02: ``if labels: url += "&labels=..."`` then ``requests.get(url + "?page=%d" % page)``
    on a URL with a query is IRI803 at the use's '?' on either path, as ``url += "?page=..."`` is."""
    src = '''import requests
ISSUES = "https://api.example.com/repos/acme/infra/issues?state=open"
def issues(labels="", page=1):
    url = ISSUES
    if labels:
        url += "&labels=" + labels
    return requests.get(url + "?page=%d" % page)
def fine(labels="", page=1):
    url = ISSUES
    if labels:
        url += "&labels=" + labels
    return requests.get(url + "&page=%d" % page)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(7, 31, "IRI803")]


def test_a_template_s_query_after_its_own_fragment_with_a_field_between_is_iri803() -> None:
    """fixtures203 repro 02: ``f"{LIST}#L{line}?plain=1"`` (and its ``%`` and ``.format`` forms) sends no query, as
    ``LIST + "#L" + str(line) + "?plain=1"`` does not; not a route after the '#' (``#/items/{i}?tab=2``), a field
    right after it, a literal's own ``#faq?``, nor a nested URL's query (``?url={u}?sig={s}``)."""
    src = '''import requests
LIST = "https://shop.example/list"
def f(line, i, anchor, u, s):
    requests.get(f"{LIST}#L{line}?plain=1")
    requests.get(LIST + f"#L{line}?plain=1")
    requests.get("%s#L%d?plain=1" % (LIST, line))
    requests.get("{}#L{}?plain=1".format(LIST, line))
    requests.get(f"{LIST}#/items/{i}?tab=2")
    requests.get(f"{LIST}#{anchor}?tab=2")
    requests.get(LIST + "#faq?")
    requests.get(f"{LIST}?url={u}?sig={s}")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (4, "IRI803"), (5, "IRI803"), (6, "IRI803"), (7, "IRI803")]


def test_a_plus_equals_an_if_on_the_name_s_own_text_guards_is_no_path() -> None:
    """fixtures206 repros 01, 02: ``if not base.endswith("/"): base += "/"`` then ``base + "dists/"`` never makes
    '//', and ``if "?" in url: url += "&theme=dark"`` / ``else: url += "?theme=dark"`` never a second '?': the test
    decides by the name's text, which the paths do not know; a test on something else is still a branch. So for a
    URL-named name's own ``+=`` or ``url = url + ...`` under such a test."""
    src = '''import os
import requests
import urllib.request
from flask import redirect
MIRROR = os.environ.get("MIRROR", "https://deb.example.org/debian/")
STATUS = "https://status.example.com/?embed=1"
def release(suite, force):
    base = MIRROR
    if not base.endswith("/"):
        base += "/"
    urllib.request.urlopen(base + "dists/" + suite)
    other = MIRROR
    if force:
        other += "/"
    urllib.request.urlopen(other + "dists/" + suite)
def status():
    url = STATUS
    if "?" in url:
        url += "&theme=dark"
    else:
        url += "?theme=dark"
    return redirect(url)
def named(flag):
    base_url = MIRROR
    if not base_url.endswith("/"):
        base_url += "/"
    url = STATUS
    if "?" not in url:
        url = url + "?x=1"
    url += "&y=2"
    return requests.get(url)
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(14, "IRI802")]


def test_two_urls_run_together_in_a_list_whatever_its_name_are_reported() -> None:
    """fixtures201 repro 04, fixtures205 repro 03, fixtures206 repro 04: ``MIRRORS = [...]`` or ``PYTHON_BLOGS``
    lost the ',' between two URLs as ``MIRROR_URLS`` did: IRI813 past the first URL's host, IRI801 at it; the
    item alone (no other rule runs on a display a name does not call URLs: its literals are checked as ever)."""
    src = '''MIRRORS = [
    "https://a.example/debian"
    "https://b.example/debian/",
    "https://c.example/debian/",
]
PYTHON_BLOGS = (
    "https://blog.example.org/feed.xml", "https://eu.example.com"
    "https://us.example.com/",
)
PAIRS = [("https://a.example/x", "https://b.example/y"), "https://c.example/?next=" "https://d.example/"]
WORDS = ["mirror list", "https://a.example/p q"]
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (3, 5, "IRI813"), (8, 5, "IRI801"), (11, 44, "IRI101")]


def test_a_module_name_bound_in_branches_is_checked_with_each_value_it_may_hold(tmp_path: Path) -> None:
    """fixtures206 repro 06: ``BILLING_BASE = ".../api/v1"`` then ``if ENV == "staging": BILLING_BASE = ...``:
    another module's ``urljoin(settings.BILLING_BASE, "invoices/x")`` drops ``v1`` whichever runs (IRI804), and a
    function's ``BASE + "health"`` joins to the host on each (IRI801); where an if/else binds it on every run the
    top-level value never stays (no IRI801 from it)."""
    modules = {
        "pkg/__init__.py": "",
        "pkg/settings.py": ('import os\nENV = os.environ.get("ENV", "prod")\n'
                            'BILLING_BASE = "https://billing.example.com/api/v1"\n'
                            'if ENV == "staging":\n    BILLING_BASE = "https://billing.staging.example.com/api/v1"\n'
                            'HOST = "https://h.example"\nif ENV == "staging":\n    HOST = "https://s.example/"\n'
                            'else:\n    HOST = "https://p.example/"\n'),
        "pkg/billing.py": ('from urllib.parse import urljoin\nimport requests\nfrom pkg import settings\n\n\n'
                           'def invoice(i):\n    requests.get(urljoin(settings.BILLING_BASE, "invoices/%s" % i))\n'
                           '    requests.get(settings.HOST + "health")\n'),
    }
    (tmp_path / "pkg").mkdir()
    assert _lint_project(tmp_path, modules, "pkg/billing.py") == [(7, "IRI804")]
    # (fixtures208 repro 02: an aiohttp session's base so chosen resolves each request against each value)
    modules["pkg/weather.py"] = ('import aiohttp\nfrom pkg import settings\n\n\nasync def f():\n'
                                 '    async with aiohttp.ClientSession(base_url=settings.BILLING_BASE + "/") as s:\n'
                                 '        await s.get("/onecall")\n')
    assert _lint_project(tmp_path, modules, "pkg/weather.py") == [(7, "IRI804")]


def test_a_module_name_some_ways_leave_unknown_or_none_is_checked_with_the_known_ones(tmp_path: Path) -> None:
    """A way that binds ``None`` or a hole (``os.environ["HOST"]``) gives a use no text, the others still reach it:
    ``B + "b"`` joins to the host where ``B = "https://h.example"`` ran (IRI801), as does ``C + "b"``; an
    if/elif/else with no top-level binding keeps all three ways (its first is no value the others replace)."""
    modules = {
        "pkg/__init__.py": "",
        "pkg/settings.py": ('import os\nX = os.environ.get("X")\n'
                            'if X:\n    B = "https://h.example"\nelse:\n    B = None\n'
                            'if X:\n    C = "https://h.example"\nelse:\n    C = os.environ["HOST"]\n'
                            'if X:\n    D = "https://h.example"\nelif X is None:\n    D = "https://d.example/"\n'
                            'else:\n    D = "https://e.example/"\n'
                            'if X:\n    E = None\nelse:\n    E = os.environ["HOST"]\n'),
        "pkg/use.py": ('import requests\nfrom pkg.settings import B, C, D, E\n\n\ndef f():\n'
                       '    requests.get(B + "b")\n    requests.get(C + "b")\n    requests.get(D + "b")\n'
                       '    requests.get(E + "b")\n    requests.get(D + "/b")\n'),
    }
    (tmp_path / "pkg").mkdir()
    assert _lint_project(tmp_path, modules, "pkg/use.py") == [(6, "IRI801"), (7, "IRI801"), (8, "IRI801"),
                                                               (10, "IRI802")]


def test_a_guard_that_ensures_a_trailing_slash_is_read_as_one() -> None:
    """fixtures207 repros 01, 03: after ``if not base.endswith("/"): base += "/"`` the value ends with '/' on every
    run: ``base += "v2/x"`` is no join to the host (no IRI801), ``base + "/uploads"`` is '//' whichever ran
    (IRI802); after ``base = base + "/"`` under the same test nothing is known of the paths (no finding)."""
    src = '''import httpx
import requests
HOST = "https://upload.example"
SLASHED = "https://upload.example/"
def manifest(i):
    url = HOST
    if not url.endswith("/"):
        url += "/"
    url += "v2/manifests/" + i
    return httpx.get(url)
def index():
    base = HOST
    if not base.endswith("/"):
        base = base + "/"
    return httpx.get(base + "v2/index")
def part(uid):
    base = HOST
    if not base.endswith("/"):
        base += "/"
    return requests.put(base + "/uploads/" + uid)
def part2(uid):
    base = SLASHED
    if not base.endswith("/"):
        base += "/"
    return requests.put(base + "/uploads/" + uid)
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(20, "IRI802"), (25, "IRI802")]


def test_urljoin_to_a_resource_of_the_site_s_root_is_meant_to_drop_the_path() -> None:
    """fixtures207 repro 04: ``urljoin(page, "/robots.txt")`` (RFC 9309 sec. 2.3), ``/favicon.ico``, ``/sitemap.xml``
    replace the page's path on purpose, as do well-known URIs (RFC 8615: ``security.txt``) and ``/ads.txt``
    (fixtures208 repro 01); an issuer's metadata does not (OpenID's path comes first, RFC 8414's after)."""
    src = '''from urllib.parse import urljoin
import requests
DOCS = "https://docs.python.org/3/"
ISSUER = "https://kc.example/realms/main"
requests.get(urljoin(DOCS, "/robots.txt"))
requests.get(urljoin(DOCS, "/sitemap.xml"))
requests.get(urljoin(DOCS, "/favicon.ico"))
requests.get(urljoin(ISSUER, "/.well-known/openid-configuration"))
requests.get(urljoin(DOCS, "/robots.txt.bak"))
requests.get(urljoin(DOCS, "/.well-known/security.txt"))
requests.get(urljoin(DOCS, "/ads.txt"))
requests.get(urljoin(ISSUER, "/.well-known/oauth-authorization-server"))
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(8, "IRI804"), (9, "IRI804"), (12, "IRI804")]


def test_a_conditional_expression_inside_a_join_is_checked_with_each_branch() -> None:
    """fixtures199's and fixtures203's documented limit: ``q = "?" + x if p else ""`` then ``BASE + q + "&fmt=json"``
    sends '&' without a query when ``p`` is false (IRI809); ``"#" + ("de" if g else "en") + "?lang="`` puts the query
    in the fragment (IRI803); a branch that doubles '/' (IRI802). Not a test on text (``"&" if "?" in url else
    "?"``: which branch runs is what the value decides)."""
    src = '''import requests
BASE = "https://h.example/list"
QBASE = "https://h.example/list?x=1"
def f(p, x, lang, new, url):
    q = "?" + x if p else ""
    requests.get(BASE + q + "&fmt=json")
    requests.get(BASE + "#" + ("de" if lang == "de" else "en") + "?lang=" + lang)
    requests.get(BASE + ("/v2" if new else "/v1") + "/items")
    requests.get(BASE + ("/v2/" if new else "/v1") + "/items")
    sep = "&" if "?" in url else "?"
    requests.get(QBASE + sep + "y=2")
    requests.get(url + sep + "y=2")
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(6, "IRI809"), (7, "IRI803"), (9, "IRI802")]


def test_a_conditional_expression_formatted_or_joined_by_a_call_is_checked_with_each_branch() -> None:
    """fixtures213 repros 1-3: a conditional given to ``.format`` (by position or keyword) or to ``%`` is checked
    with each branch as in ``+`` ('//' on the CDN's, IRI802; the host's run-on, IRI801); a conditional reference
    of ``urljoin`` that drops the base's last segment (IRI804 at its literal); a conditional base of
    ``posixpath.join`` before an absolute part is a URL dropped whole (IRI804, not a missing scheme)."""
    src = '''import posixpath
from urllib.parse import urljoin
import requests
CDN = "https://cdn.example.net/"
HOST = "https://files.example.org"
API = "https://api.example.com/v1"
def f(x):
    requests.get("{}/x".format(CDN if x else HOST))
    requests.get("{}{}".format(HOST, "docs" if x else "/docs"))
    requests.get("%s/x" % (CDN if x else HOST))
    requests.get("{b}/x".format(b=CDN if x else HOST))
    requests.get(urljoin(API, "users" if x else "/users"))
    requests.get(posixpath.join(CDN if x else API, "/img"))
    requests.get(urljoin(API + "/", "users" if x else "items"))
    requests.get("{}/x".format(HOST if x else API))
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (8, 20, "IRI802"), (9, 38, "IRI801"), (10, 20, "IRI802"), (11, 21, "IRI802"), (12, 31, "IRI804"),
        (13, 52, "IRI804")]


def test_a_loop_over_a_dict_s_values_tuples_or_enumerate_is_checked_with_each_item() -> None:
    """A loop's variable unpacked from each item (``for name, m in PAIRS``), a dict display's values (``.values()``,
    ``.items()``) and ``enumerate``'s items hold each item in turn, as a plain loop's does ('//' of the items that
    end with '/', IRI802); a dict's keys and a tuple item of another length do not."""
    src = '''import requests
ENDPOINTS = {"users": "https://api.example.com/users/", "items": "https://api.example.com/items"}
MIRRORS = ["https://a.example/pub/", "https://b.example/pub"]
PAIRS = [("a", "https://a.example/pub/"), ("b", "https://b.example/pub")]
ODD = [("a", "https://a.example/pub/"), ("b",)]
def f():
    for name, url in ENDPOINTS.items():
        requests.get(url + "/list")
    for url in ENDPOINTS.values():
        requests.get(url + "/list")
    for i, m in enumerate(MIRRORS):
        requests.get(m + "/x")
    for name, m in PAIRS:
        requests.get(m + "/y")
    for name, m in ODD:
        requests.get(m + "/y")
    for key in ENDPOINTS:
        requests.get("https://h.example/" + key)
    for key, url in ENDPOINTS.items():
        requests.get("https://h.example/" + key + "/" + url)
'''
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (8, 28, "IRI802"), (10, 28, "IRI802"), (12, 26, "IRI802"), (14, 26, "IRI802")]


def test_a_loop_over_another_module_s_display_is_checked_with_each_item(tmp_path: Path) -> None:
    """fixtures207's documented limit: ``for page in START_PAGES`` (imported, or ``seeds.START_PAGES``) over a
    tuple another module binds: each item is checked as the loop's value, as with the module's own display."""
    (tmp_path / "pkg").mkdir()
    modules = {
        "pkg/__init__.py": "",
        "pkg/seeds.py": 'START_PAGES = ("https://fastapi.tiangolo.com/tutorial", "https://docs.python.org/3/")\n',
        "pkg/crawl.py": ('from urllib.parse import urljoin\nimport requests\nfrom pkg import seeds\n'
                         'from pkg.seeds import START_PAGES\n\n\ndef crawl():\n    for page in START_PAGES:\n'
                         '        requests.get(urljoin(page, "genindex.html"))\n    for page in seeds.START_PAGES:\n'
                         '        requests.get(page + "/x")\n'),
    }
    assert _lint_project(tmp_path, modules, "pkg/crawl.py") == [(9, "IRI804"), (11, "IRI802")]


def test_a_loop_over_a_star_imported_display_and_a_field_s_first_argument(tmp_path: Path) -> None:
    """fixtures223 disagreements 1, 2: a display the module binds by its own star import is looped over as an
    imported one is (IRI801 on each item's join); pydantic's ``Field(HOST + "b")`` and attrs' ``attr.ib(...)``
    take the default first, as ``default=`` (``dataclasses.field`` takes none so)."""
    modules = {
        "p/__init__.py": "",
        "p/base.py": ('ENDPOINTS = {"billing": "https://billing.example.com", "search": "https://s.example.com/"}\n'
                      'SEEDS = ["https://billing.example.com", "https://s.example.com/"]\n'),
        "p/star.py": ('import requests\nfrom p.base import *\n\n\ndef e1():\n    for name, url in ENDPOINTS.items():\n'
                      '        requests.get(url + "health")\n\n\ndef e3():\n    for url in SEEDS:\n'
                      '        requests.get(url + "health")\n'),
        "p/conf.py": ('import attr\nfrom pydantic import Field\nHOST = "https://cfg.example.com"\n\n\nclass S:\n'
                      '    b_url: str = Field(HOST + "b")\n    f_url: str = Field(HOST + "f", description="x")\n'
                      '    g_url = attr.ib(HOST + "g")\n'),
    }
    (tmp_path / "p").mkdir()
    assert _lint_project(tmp_path, modules, "p/star.py") == [(7, "IRI801"), (12, "IRI801")]
    assert _lint_project(tmp_path, modules, "p/conf.py") == [(7, "IRI801"), (8, "IRI801"), (9, "IRI801")]


def test_values_a_branch_chosen_base_or_a_third_module_reach_are_checked_once(tmp_path: Path) -> None:
    """fixtures209 repros 01-04: a name whose value holds a module name bound in branches (``url = ROOT +
    "/list"``) is checked with each value (IRI809); a URL-named helper's ``+=`` paths at its return (IRI802); a
    helper's urljoin whose base is a third module's constant reported at the helper only; a display's IRI813 in
    another module reported there, not again at a loop over it."""
    (tmp_path / "pkg").mkdir()
    modules = {
        "pkg/__init__.py": "",
        "pkg/settings.py": ('import os\nif os.environ.get("ENV") == "staging":\n    ROOT = "https://s.example"\n'
                            'else:\n    ROOT = "https://p.example"\nBASE = "https://geo.example/v1"\n'
                            'FEEDS = (\n    "https://a.example/feed"\n    "https://b.example/feed",\n)\n'),
        "pkg/urls.py": ('from urllib.parse import urljoin\nfrom pkg.settings import BASE\n\n\n'
                        'def route_url(c):\n    return urljoin(BASE, "driving/" + c)\n\n\n'
                        'def docs_url(page, lang=None):\n    base = "https://docs.example.com/"\n    if lang:\n'
                        '        base += lang + "/"\n    return base + "/" + page\n'),
        "pkg/use.py": ('import requests\nfrom pkg import settings, urls\nfrom pkg.settings import FEEDS\n\n\n'
                       'def f(c):\n    url = settings.ROOT + "/list"\n    requests.get(url + "&page=2")\n'
                       '    requests.get(urls.route_url(c))\n    for feed in FEEDS:\n        requests.get(feed)\n'),
    }
    assert _lint_project(tmp_path, modules, "pkg/use.py") == [(8, "IRI809")]
    assert _lint_project(tmp_path, modules, "pkg/urls.py") == [(6, "IRI804"), (13, "IRI802")]
    assert _lint_project(tmp_path, modules, "pkg/settings.py") == [(9, "IRI813")]


def test_paths_take_neither_a_way_the_use_is_not_on_nor_one_pass_of_a_loop_alone() -> None:
    """The wide outside sets: meilisearch's ``url = f"{url}?show..."`` in an ``if`` is no start of the ``elif``'s
    ``url = f"{url}?sizeFormat=..."`` (no IRI803); robin_stocks' ``for i, v in enumerate(q): if i == 0: url += "?" +
    v`` / ``else: url += "&" + v`` takes both ways in passes of its own (no IRI809)."""
    src = '''import requests
def stats(show, size):
    url = "https://h.example/stats"
    if show:
        url = f"{url}?showSizes=true"
        if size:
            url = f"{url}&sizeFormat={size}"
    elif not show and size:
        url = f"{url}?sizeFormat={size}"
    return requests.get(url)
def orders_url(q):
    url = "https://api.example.com/options/orders/"
    if q:
        for index, value in enumerate(q):
            if index == 0:
                url += "?" + value
            else:
                url += "&" + value
    return url
'''
    assert [(f.line, f.code) for f in lint_text(src, Config())] == []
