"""Positions: every value character maps to the source character that spells it."""

from __future__ import annotations

import ast
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.source.decode import decode_string
from iri_lint.source.locate import Locator, SourceFile, expected_value, locate, split_lines
from iri_lint.source.model import HOLE

CASES = [
    'x = "http://example.com/a"\n',
    'x = "a\\tb\\x41\\u00e9\\U0001F600\\N{DIGIT ONE}\\101\\q/p"\n',
    "x = r'http://x/\\d\\'q'\n",
    'x = """http://x/\r\nline2"""\r\n',
    '\ufeffx = "http://bom.example/é"\n',
    "if 1:\n\tx = ('http://tab.example/'\n\t     'p\\\\q'  # comment\n\t     \"r\")\n",
    'z = "😀𝔸"; y = "http://after-emoji.example/𝔸"\n',
    'x = f"http://{host}:{port!r:>{w}}/p{{q}}{a=}z"\n',
    "x = 'a\\\nb' 'c'\n",
    "x = rb'\\x00http://b/'\n",
    'x = ("http://a/" f"{b}" \\\n     "\\u202ec")\n',
]


def _literal_nodes(tree: ast.AST) -> list[ast.expr]:
    out: list[ast.expr] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Constant | ast.JoinedStr):
            if isinstance(node, ast.JoinedStr) or isinstance(node.value, str | bytes):
                out.append(node)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _check_source(src: str) -> int:
    lines = split_lines(src)
    tree = ast.parse(src.encode("utf-8") if src.startswith("\ufeff") else src)
    source = SourceFile(lines)
    checked = 0
    for node in _literal_nodes(tree):
        sm = locate(node, source)
        assert sm.value == expected_value(node)
        loc = Locator(node, source)
        holes = {a for a, _ in sm.holes}
        for i, ch in enumerate(sm.value):
            pos = loc.position(i)
            assert pos.line >= 1
            line = lines[pos.line - 1]
            if pos.line == 1 and line.startswith("\ufeff"):
                line = line[1:]
            src_ch = line[pos.col]
            if i in holes:
                assert src_ch == "{"
            elif src_ch == "\\":
                pass  # an escape sequence spells this character
            elif ch == "\n":
                assert src_ch in "\r\n"
            else:
                assert src_ch == ch, (src, i, pos)
            checked += 1
        end = loc.position(len(sm.value))
        assert end.line >= 1
    return checked


@pytest.mark.filterwarnings("ignore:invalid escape sequence:DeprecationWarning")  # '\\q' is a case
@pytest.mark.parametrize("src", CASES)
def test_positions_table(src: str) -> None:
    assert _check_source(src) > 0


def test_multiline_reports_line_of_character() -> None:
    src = 'x = 1\ny = ("http://a/"\n     "bc")\n'
    tree = ast.parse(src)
    node = tree.body[1].value  # type: ignore[attr-defined]
    loc = Locator(node, SourceFile(split_lines(src)))
    assert (loc.position(0).line, loc.position(0).col) == (2, 6)
    assert (loc.position(9).line, loc.position(9).col) == (3, 6)
    assert (loc.position(11).line, loc.position(11).col) == (3, 8)


def test_crlf_and_tab_columns() -> None:
    src = 'if 1:\r\n\tx = """a\r\n\tb"""\r\n'
    tree = ast.parse(src)
    node = tree.body[0].body[0].value  # type: ignore[attr-defined]
    loc = Locator(node, SourceFile(split_lines(src)))
    assert node.value == "a\n\tb"
    assert (loc.position(0).line, loc.position(0).col) == (2, 8)
    assert (loc.position(2).line, loc.position(2).col) == (3, 0)
    assert (loc.position(3).line, loc.position(3).col) == (3, 1)


def test_fstring_hole_maps_to_brace() -> None:
    src = 'u = f"http://h:{port}/x"\n'
    node = ast.parse(src).body[0].value  # type: ignore[attr-defined]
    sm = locate(node, SourceFile(split_lines(src)))
    assert sm.value == f"http://h:{HOLE}/x"
    assert sm.holes == [(9, 10)]
    assert src[sm.starts[9]] == "{"


def test_decode_matches_python_for_prefixes() -> None:
    for prefix in ("", "r", "u", "R", "b", "rb", "Br", "f", "rf", "FR"):
        for quote in ("'", '"', "'''", '"""'):
            body = "a{{b}}\\\\c" if "f" in prefix.lower() else "a\\\\c\\x41"
            tok = f"{prefix}{quote}{body}{quote}"
            node = ast.parse(tok, mode="eval").body
            d = decode_string(tok)
            assert d.value == expected_value(node), tok
            assert d.end == len(tok)


_ESCAPES = st.sampled_from(["repr", "x", "u", "U", "octal", "N", "plain"])


def _render(s: str, choices: list[str]) -> str:
    parts = []
    for ch, how in zip(s, choices, strict=False):
        o = ord(ch)
        if ch in "\\\"\r\n" or not ch.isprintable() or 0xD800 <= o <= 0xDFFF:
            how = "U"
        if how == "x" and o < 0x100:
            parts.append(f"\\x{o:02x}")
        elif how == "u" and o < 0x10000:
            parts.append(f"\\u{o:04x}")
        elif how == "octal" and o < 0o400:
            parts.append(f"\\{o:03o}")  # three digits: a following digit is not absorbed
        elif how == "U" or how in ("x", "u", "octal"):
            parts.append(f"\\U{o:08x}")
        else:
            parts.append(ch)
    return '"' + "".join(parts) + '"'


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=40),
    st.lists(_ESCAPES, max_size=40),
    st.sampled_from(["", 'z = "😀𝔸é"; ', "if 1:\n\t"]),
)
def test_hypothesis_rendered_literals(value: str, choices: list[str], before: str) -> None:
    choices = (choices + ["plain"] * len(value))[: len(value)]
    for literal in (repr(value), _render(value, choices)):
        src = f"{before}x = {literal}\n"
        tree = ast.parse(src)
        node = tree.body[-1]
        while not isinstance(node, ast.Assign):
            node = node.body[-1]  # type: ignore[attr-defined]
        assert node.value.value == value  # type: ignore[attr-defined]
        lines = split_lines(src)
        source = SourceFile(lines)
        sm = locate(node.value, source)
        assert sm.value == value
        loc = Locator(node.value, source)
        for i, ch in enumerate(value):
            pos = loc.position(i)
            src_ch = lines[pos.line - 1][pos.col]
            if src_ch == "\\":  # the escape decodes to exactly this character
                assert ast.literal_eval('"' + src[sm.starts[i] : sm.ends[i]] + '"') == ch
            else:
                assert src_ch == ch


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="aé😀\u00a0𝔸 \"'", max_size=30), st.lists(st.integers(0, 130), max_size=12))
def test_char_col_agrees_with_decoding_the_line_prefix(line: str, cols: list[int]) -> None:
    source = SourceFile([line + "\n"])
    data = (line + "\n").encode("utf-8")
    for col in (min(c, len(data)) for c in cols):  # any order, repeats, inside a character
        assert source.char_col(1, col) == len(data[:col].decode("utf-8", errors="ignore"))


@pytest.mark.slow  # stress: a long line
def test_char_col_on_a_long_non_ascii_line_decodes_it_once() -> None:
    line = "x = [" + ", ".join(f'"é{i}"' for i in range(20_000)) + "]\n"
    source = SourceFile([line])
    data = line.encode("utf-8")
    cols = [i for i, b in enumerate(data) if b == 0x22]
    for c in cols:
        assert source.char_col(1, c) == len(data[:c].decode("utf-8"))
    assert len(source._cols[1][1]) == len(cols) + 1  # one checkpoint per column asked


_PYTHON_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # what Python's tokenizer ends a line at


@given(st.lists(st.sampled_from(["a", " ", "é", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
                                 "\x85", "\u2028", "\u2029", "#"]), max_size=30))
def test_split_lines_ends_lines_where_python_does(pieces: list[str]) -> None:
    """Only at \\n, \\r\\n and \\r (str.splitlines also ends them at a form feed, U+2028, ...)."""
    text = "".join(pieces)
    assert split_lines(text) == _PYTHON_LINES.findall(text)
    assert "".join(split_lines(text)) == text
