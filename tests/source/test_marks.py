"""The text pre-check: the flake8 entry point's ``marked_lines_of`` marks what ``marked_lines`` marks."""

from __future__ import annotations

import re
from itertools import accumulate

from hypothesis import example, given, settings
from hypothesis import strategies as st

from iri_lint.source.locate import SourceFile, split_lines
from iri_lint.source.marks import (
    DEFAULT_OPTIONS,
    ScanOptions,
    api_call_lines,
    api_call_lines_of,
    call_lines,
    imported_names,
    marked_lines,
    marked_lines_of,
    may_join,
    word_starts,
)

# what marks a line (an authority, a quoted registered scheme, a URL name, a URL API's import), what
# nearly does, and what moves offsets: line ends of each kind, a BOM, a character whose lowercase is longer
PIECES = ['"http://e.com/"', "'mailto:a@b'", "'Label: x'", "api_url", "HREF", "import requests", "from httpx",
          "import os", "x = 1", "://", "\n", "\r\n", "\r", "\ufeff", "İ", " ", "#"]
OPTIONS = st.sampled_from([DEFAULT_OPTIONS, ScanOptions(url_names=("endpoint",)),
                           ScanOptions(url_names=(), extra_url_apis=("mylib.fetch",))])


@given(st.lists(st.sampled_from(PIECES), max_size=40), OPTIONS)
def test_the_pre_check_marks_the_lines_marked_lines_marks(pieces: list[str], options: ScanOptions) -> None:
    lines = split_lines("".join(pieces))
    assert marked_lines_of(lines, options) == marked_lines(SourceFile(lines), options)


def test_a_module_without_iri_text_has_no_marked_line() -> None:
    assert marked_lines_of(["import os\n", "X = {'a': 1}\n"], DEFAULT_OPTIONS) == []
    assert marked_lines_of(["import os\n", 'U = "https://example.com/"\n'], DEFAULT_OPTIONS) == [2]


def test_call_lines_mark_a_url_api_s_name_only_where_it_is_called() -> None:
    """URL values mark a URL API's name where it is called: ``get (`` and ``get(``, not ``d.get`` alone,
    ``forget(`` or ``get_x(``; spaces before the ``(`` are read once (linear)."""
    text = "f = d.get\ny = s.get (1)\nforget(2)\nget_x(3)\nget(4)\n"
    offsets = [0, *accumulate(len(line) for line in text.splitlines(keepends=True))]
    assert call_lines(text, offsets, frozenset({"get"}), frozenset(), frozenset()) == [2, 5]
    assert len(word_starts(text, ["get"])) == 3
    hostile = ("get" + " " * 1000) * 200
    assert call_lines(hostile, [0, len(hostile)], frozenset({"get"}), frozenset(), frozenset()) == []


def _stands(text: str, i: int, word: str) -> bool:
    """``word`` stands at ``i`` as a whole word."""
    if not text.startswith(word, i) or (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
        return False
    j = i + len(word)
    return j == len(text) or not (text[j].isalnum() or text[j] == "_")


WORDS = ["url", "urljoin", "urlopen", "url_parse", "open", "open_new", "open_new_tab", "get", "ge", "g", "request",
         "Request", "re"]


@given(st.lists(st.sampled_from([*WORDS, "_", "x", " ", "\t", "(", ".", "\n", "é"]), max_size=30),
       st.lists(st.sampled_from(WORDS), min_size=1, max_size=8, unique=True))
def test_word_starts_finds_every_word_where_it_stands(pieces: list[str], words: list[str]) -> None:
    """Words that share their first letters are searched for together: every start of every word is found,
    a shorter word inside a longer one's match included."""
    text = "".join(pieces)
    expected = sorted(i for word in words for i in range(len(text)) if _stands(text, i, word))
    assert sorted(word_starts(text, words)) == expected


def test_api_call_lines_are_the_calls_of_a_url_api_s_name_in_a_module_that_imports() -> None:
    """What a file with no other mark is parsed for: a URL API's name called (``API.get(``, ``urlopen (``),
    not the name alone, a longer identifier, or a file that imports nothing (it can reach no URL API)."""
    text = ("from clients import API\nAPI.get('items/a b')\nx = d.get\nurlopen ('x')\nbudget(1)\n"
            "API.post(\n  'a')\n")
    assert api_call_lines(SourceFile(split_lines(text), text), DEFAULT_OPTIONS) == [2, 4, 6]
    alone = "API.get('items/a b')\n"
    assert api_call_lines(SourceFile(split_lines(alone), alone), DEFAULT_OPTIONS) == []
    extra = DEFAULT_OPTIONS._replace(extra_url_apis=("mylib.fetch_page",))
    text = "import mylib\nmylib.fetch_page('x')\n"
    assert api_call_lines(SourceFile(split_lines(text), text), extra) == [2]
    assert api_call_lines_of(split_lines(text), extra) == [2]


def test_imported_names_are_read_from_the_import_statements_but_the_standard_librarys() -> None:
    text = ("import os, json as j\nimport app.helpers\nimport app.http as h\nfrom re import match\n"
            "from . import utils\nfrom .settings import API as A, ROOT\nfrom pkg.x import (\n    a,\n    b as c,\n)\n"
            "from __future__ import annotations\nfrom x import *\n  # import nothing\n")
    assert imported_names(text) == {"app", "h", "utils", "A", "ROOT", "a", "c", "*"}


def test_a_helper_of_the_project_given_a_join_marks_its_call() -> None:
    """A module with no other mark is parsed where it gives a join to an imported function (``get_json(API +
    "/x")``, ``helpers.get_json(f"...")``, ``"{}".format(...)``, on the call's line or the next), not where the
    function is the standard library's, the call closes with no join, or it makes an exception to raise."""
    text = ('from .utils import get_json\nfrom . import helpers\nimport re\nfrom .errors import Invalid\n'
            'get_json(API + "/x")\nget_json(a)\nhelpers.get_json(f"{API}/x")\nre.match(a + b, c)\n'
            'get_json("{}/x".format(API))\nget_json(\n    API + "/x")\nget_json(\n    a)\n'
            'raise Invalid(f"bad {a}")\nget_json(a) + "x"\nget_json(mk(a))\n')
    assert api_call_lines(SourceFile(split_lines(text), text), DEFAULT_OPTIONS) == [5, 7, 9, 10]
    assert api_call_lines_of(split_lines(text), DEFAULT_OPTIONS) == [5, 7, 9, 10]


def test_a_method_of_an_object_an_imported_class_makes_marks_its_call() -> None:
    """fixtures183 repro 02: ``StatusPoster(t).send(DASH + "x")`` and ``poster = StatusPoster(t)`` then
    ``poster.send(...)`` may give a join to a URL-named parameter of another module's method."""
    text = ('from .status import DASH, StatusPoster, make_poster\nStatusPoster("t").send(DASH + "x", "ok")\n'
            'poster = StatusPoster("t")\nposter.send(DASH + "x")\nposter.send(a)\nother.send(DASH + "x")\n'
            'str(a).send(DASH + "x")\nself.poster = StatusPoster("t")\nself.poster.send(DASH + "x")\n'
            'self.other.send(DASH + "x")\nmade = make_poster()\nmade.send(DASH + "x")\n'
            'make_poster().send(DASH + "x")\n')
    assert api_call_lines(SourceFile(split_lines(text), text), DEFAULT_OPTIONS) == [2, 4, 9]  # (no class: 12, 13)


def test_reading_a_calls_arguments_reads_a_bounded_stretch() -> None:
    """100,000 unclosed calls of an imported helper: each reads at most a bounded stretch after it (linear)."""
    text = "from .u import f\n" + "f(" * 100_000 + "\n"
    assert api_call_lines(SourceFile(split_lines(text), text), DEFAULT_OPTIONS) == [2]
    text = "from .u import f\n" + "f(a)" * 100_000 + "\n"  # (the line is read once, not once per call)
    assert api_call_lines(SourceFile(split_lines(text), text), DEFAULT_OPTIONS) == []


CALL_PIECES = ["get", "get_json", "helpers", "x", ".", "(", ")", " ", "\t", "\n", "+", "raise ", "f'", "'", "%",
               ".format", ",", "_", " = ", "Api"]
API, OWN, IMPORTED = frozenset({"get"}), frozenset({"x"}), frozenset({"get_json", "helpers", "Api"})


def _forward_call_lines(text: str) -> list[int]:
    """``call_lines`` read forwards: each ``(``, the word before it (blanks between) and the word before that
    one's dot, the same rules."""
    lines: set[int] = set()
    starts = [0, *accumulate(len(line) for line in text.splitlines(keepends=True))]
    calls = []
    for paren in (i for i, c in enumerate(text) if c == "("):
        m = re.search(r"((?:\w+[ \t]*\.[ \t]*)*)(\w+)[ \t]*\Z", text[:paren])
        if m is None or (m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")):
            continue
        line = next(n for n in range(len(starts) - 1, 0, -1) if starts[n - 1] <= m.start(2))
        calls.append((paren, m, line))
    made = set()  # (names bound on their line to a call of an imported name: ``p = helpers.P(...)``, ``self.p = ``)
    for _, m, line in calls:
        if (m[1].split(".", 1)[0].strip(" \t") or m[2]) in IMPORTED and m[2][0].isupper() and (bound := re.fullmatch(
                r"[ \t]*((?:self[ \t]*\.[ \t]*)?\w+)[ \t]*=[ \t]*", text[starts[line - 1] : m.start()])):
            made.add("".join(bound[1].split()))
    for paren, m, line in calls:
        word, qualifier = m[2], m[1].split(".", 1)[0].strip(" \t") or None
        if qualifier == "self" and made:
            qualifier = ".".join("".join(m[1].split()).split(".")[:2])
        helper = word in IMPORTED or qualifier in IMPORTED or qualifier in made or \
            (qualifier is None and _made_in_place(text, m.start()))
        if word in API:
            lines.add(line)
        elif (helper or word in OWN) and not text[starts[line - 1]:].lstrip(" \t").startswith("raise") and \
                may_join(text, paren + 1, *([re.compile(r"[+%]|\b[rR]?[fF][rR]?[\"']|\.\s*+(?:format|format_map|"
                                                      r"join)\s*+\(|\burljoin\s*+\(")] if helper else [])):
            lines.add(line)
    return sorted(lines)


def _made_in_place(text: str, start: int) -> bool:
    """Whether a method is called on the value of a call of an imported class (``helpers.Api(a).x(``: the first
    name imported, the last a class's), its parentheses read back at most 400 characters."""
    r = re.search(r"\)[ \t]*\.[ \t]*\Z", text[:start])
    if r is None:
        return False
    depth, close = 0, r.start()
    for i in range(close, max(-1, close - 400), -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if text[i] == "(" and not depth:
            m = re.search(r"(\w+(?:[ \t]*\.[ \t]*\w+)*)[ \t]*\Z", text[max(0, i - 100) : i])
            chain = "".join(m[1].split()).split(".") if m else [""]
            return chain[0] in IMPORTED and chain[-1][:1].isupper()
    return False


@settings(max_examples=400)
@given(st.lists(st.sampled_from(CALL_PIECES), max_size=30))
@example(["x", " = ", "Api", "(", ")", "\n", "x", ".", "_", "(", "+", ")"])  # (an object an imported class made)
@example(["x", " = ", "get_json", "(", ")", "\n", "x", ".", "_", "(", "+", ")"])  # (a function's value: no class's)
@example(["helpers", ".", "Api", "(", ")", ".", "_", "(", "f'", "'", ")"])  # (its method called in place)
@example(["helpers", ".", "x", "(", ")", ".", "_", "(", "f'", "'", ")"])  # (a function's value: no object)
def test_the_backward_search_finds_the_calls_a_forward_reading_finds(pieces: list[str]) -> None:
    text = "".join(pieces)
    offsets = [0, *accumulate(len(line) for line in text.splitlines(keepends=True))]
    assert call_lines(text, offsets, API, OWN, IMPORTED) == _forward_call_lines(text)
