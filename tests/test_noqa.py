"""Which lines flake8's noqa mapping may join: ``lines_around`` holds every line a token joins with a line."""

from __future__ import annotations

import ast
import io
import sysconfig
import tokenize
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.config import Config
from iri_lint.lint import lint_text
from iri_lint.lsp.actions import noqa_edit
from iri_lint.noqa import lines_around, may_silence
from iri_lint.source.locate import split_lines

# statements that share lines with others, strings over lines, backslashes, decorators, blocks
PIECES = (
    'a = 1\n',
    'a = 1; b = "http://h/a b"\n',
    'a = """x\ny"""; b = "http://h/a b"\n',
    'b = "http://h/a b"; a = """x\ny"""\n',
    'if a: b = "http://h/a b"\n',
    'if a: \\\n    b = "http://h/a b"\n',
    'x = 1 + \\\n    2\n',
    'x = f(\n    "http://h/a b",  # noqa\n    """p\nq""",\n)\n',
    '@dec\ndef f():\n    return "http://h/a b"\n',
    '@ dec(\n    "u"\n)\nclass C:\n    x = "http://h/a b"  # comment\n',
    'try:\n    a = 1\nexcept E as e:  # noqa\n    b = "http://h/a b"\nelse: c = 2\n',
    'match m:\n    case 1: a = "http://h/a b"\n    case _:\n        b = 2\n',
    'def g():\n    """doc\n    noqa"""\n    return 1\n',
    's = "é"; t = "http://h/é b"\n',
    '# noqa\n',
    'for x in """a\nb""": pass\n',
    'with a as b, \\\n     c: d = 1\n',
)


def _groups(text: str) -> dict[int, tuple[int, int]]:
    """Each line -> the first and last lines of its group, as ``noqa.noqa_lines`` forms them (flake8's)."""
    out: dict[int, tuple[int, int]] = {}
    lo, hi = 1 << 30, -1
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
        if tok.type in (tokenize.NL, tokenize.NEWLINE):
            out.update(dict.fromkeys(range(lo, hi + 1), (lo, hi)))
            lo, hi = 1 << 30, -1
    return out


def _holds_every_group(text: str) -> None:
    tree, lines = ast.parse(text), split_lines(text)
    for line, (lo, hi) in _groups(text).items():
        if line <= len(lines):
            first, last = lines_around(tree, lines, line)
            assert first <= lo and hi <= last, (line, (lo, hi), (first, last))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8), st.booleans())
def test_lines_around_hold_the_group_of_every_line(pieces: list[str], nested: bool) -> None:
    body = "".join(pieces)
    if nested:  # the same inside a function and a class
        body = "class K:\n    def m(self):\n        pass\n" + "".join("        " + ln for ln in body.splitlines(True))
    _holds_every_group(body)


@pytest.mark.parametrize("name", ["argparse.py", "tokenize.py", "dataclasses.py", "email/_header_value_parser.py"])
def test_lines_around_hold_every_group_of_a_real_module(name: str) -> None:
    _holds_every_group(Path(sysconfig.get_paths()["stdlib"], name).read_text(encoding="utf-8"))


def test_a_statement_alone_on_its_lines_is_all_there_is() -> None:
    text = 'class C:\n    def f(self):\n        x = 1  # noqa\n\n    def g(self):\n        return "a"\n'
    tree, lines = ast.parse(text), split_lines(text)
    assert lines_around(tree, lines, 6) == (6, 6)
    assert not may_silence(tree, lines, [6])
    assert may_silence(tree, lines, [3])


def test_a_shared_line_gives_way_to_the_statement_around() -> None:
    text = 'def f():\n    a = """x\n    y"""; b = 2\n    c = 3  # noqa\n'
    tree, lines = ast.parse(text), split_lines(text)
    assert lines_around(tree, lines, 3) == (1, 4)  # b shares line 3 with a's string: f holds both
    assert may_silence(tree, lines, [3])


NOQA_ELSEWHERE = 'import os  # noqa: F401\n\n\ndef f():\n    return "http://h/a b"\n'


@pytest.mark.parametrize(("text", "codes"), [
    (NOQA_ELSEWHERE, ["IRI101"]),
    (NOQA_ELSEWHERE.replace('"\n', '"  # noqa\n'), []),
    ('x = """http://h/a\\\nb c"""  # noqa\n', []),  # a string over two lines: its comment covers both
    ('x = 1; y = """a\nb"""; u = "http://h/a b"  # NOQA: IRI101\n', []),
])
def test_noqa_silences_what_flake8_silences(text: str, codes: list[str]) -> None:
    assert [f.code for f in lint_text(text, Config())] == codes


def test_a_file_the_tokenize_module_rejects_keeps_its_noqa_comments_per_statement() -> None:
    """CPython parses a backslash before a comment line that Python's tokenize module rejects; the lint then
    reads each finding's noqa from the statement around it, and the editor's quick fix adds one there too
    (the editor's incremental fuzz, urllib.parse with text mode)."""
    text = ('def f():\n    try:\n        x = 1\n \\\n        # a comment\n        y = 2\n    except E:\n'
            '        pass\n\n\nA = "http://h/a b"  # noqa: IRI101\nB = "http://h/c d"\n')
    ast.parse(text)  # the parser takes it
    with pytest.raises((tokenize.TokenError, SyntaxError)):
        list(tokenize.generate_tokens(io.StringIO(text).readline))
    found = lint_text(text, Config())
    assert [(f.line, f.code) for f in found] == [(12, "IRI101")]
    edit = noqa_edit(text, text.index("c d"), "IRI101")
    assert edit is not None and text[: edit.start].endswith('"http://h/c d"') and edit.new == "  # noqa: IRI101"
