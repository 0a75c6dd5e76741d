"""The token decoder on long and hostile tokens: Python's own value, exact spans, few runs."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.source import decode
from iri_lint.source.decode import Decoded, DecodeError, Offsets, decode_string
from iri_lint.source.edits import escape_for
from iri_lint.source.locate import _skip_gap
from iri_lint.source.model import HOLE

PREFIXES = ["", "r", "b", "rb", "Br", "u", "R", "f", "rf", "FR"]
QUOTES = ["'", '"', "'''", '"""']
PIECES = [
    "a", "é", "😀", " ", "%", "\\n", "\\t", "\\\\", "\\'", '\\"', "\\x41", "\\xff", "\\u00e9", "\\ud800",
    "\\U0001F600", "\\101", "\\1", "\\12", "\\N{DIGIT ONE}", "\\q", "\\\n", "\\\r\n", "\n", "\r\n", "\r",
    "{{", "}}", "{x}", "{x!r}", "{x:>{w}}", "{a=}", "{ a = }", "{'s'}", '{"t"}', "{f(x, 'y')}",
    "{d['k']}", "{x!=y}", "{a==b}", "'", '"', "{'''a'''}", "{a.b}",
]  # fmt: skip
tokens = st.tuples(
    st.sampled_from(PREFIXES),
    st.sampled_from(QUOTES),
    st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from([1, 1, 2, 7])), max_size=10),
)


def _python_value(token: str) -> str | None:
    """What Python makes of the token (fields as HOLE), or None if it is not one valid token."""
    try:
        first = next(tokenize.generate_tokens(io.StringIO(token).readline))
        if first.type != tokenize.STRING or first.string != token:  # e.g.  'a' joined
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences stay text
            node = ast.parse(token, mode="eval").body
    except (SyntaxError, ValueError, tokenize.TokenError):
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
        v = node.value
        return v.decode("latin-1") if isinstance(v, bytes) else v
    if isinstance(node, ast.JoinedStr):
        parts = [p.value if isinstance(p, ast.Constant) else HOLE for p in node.values]
        return "".join(str(p) for p in parts)
    return None


def _spells(d: Decoded, src: str, i: int) -> bool:
    """Whether ``src[starts[i]:ends[i]]`` spells value character ``i`` in this token."""
    ch, piece = d.value[i], src[d.starts[i] : d.ends[i]]
    if any(a == i for a, _ in d.holes):
        return piece.startswith("{") and piece.endswith("}")
    if piece == ch or (ch in "{}" and piece == ch * 2 and d.is_fstring):
        return True
    if ch == "\n" and piece in ("\r\n", "\r"):
        return True
    if not piece.startswith("\\") or d.is_raw:
        return False
    quoted = ("b" if d.is_bytes else "") + '"' + piece + '"'
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ast.literal_eval(quoted)
    return (got.decode("latin-1") if isinstance(got, bytes) else got) == ch


@settings(max_examples=500, deadline=None)
@given(tokens)
def test_decodes_like_python_with_exact_spans(parts: tuple[str, str, list[tuple[str, int]]]) -> None:
    prefix, quote, body = parts
    token = prefix + quote + "".join(p * k for p, k in body) + quote
    expected = _python_value(token)
    if expected is None:
        return
    src = "x = " + token + "\n"
    d = decode_string(src, 4)
    assert d.value == expected
    assert d.end == 4 + len(token)
    assert len(d.starts) == len(d.ends) == len(d.value)
    assert list(d.starts) == [d.starts[i] for i in range(len(d.value))]
    assert list(d.ends) == [d.ends[i] for i in range(len(d.value))]
    holes = {a for a, _ in d.holes}
    for i in range(len(d.value)):
        assert d.starts[i] < d.ends[i]
        if i not in holes:  # (a {x=} field's hole spans the "x=" text kept before it)
            assert i == 0 or d.ends[i - 1] <= d.starts[i]
        assert _spells(d, src, i), (token, i)


@pytest.mark.parametrize(
    ("body", "runs"),
    [
        ("a" * 50_000, 1),
        ("\\u00e9" * 20_000, 1),
        ("\\\\" * 50_000, 1),
        ("\\x41" * 25_000, 1),
        ("\\t" * 50_000, 1),
        ("\\101" * 25_000, 1),
        ("a\n" * 50_000, 1),
        ('"a' * 50_000, 1),
    ],
)
def test_long_runs_are_a_few_runs(body: str, runs: int) -> None:
    for quote in ('"', '"""'):
        if quote == '"' and ("\n" in body or '"' in body):
            continue
        src = quote + body + quote
        d = decode_string(src)
        assert d.value == ast.literal_eval(src)
        assert len(d.starts._at) <= runs  # no per-character work building the map


def test_raw_and_fstring_runs() -> None:
    d = decode_string('r"' + "\\a" * 50_000 + '"')
    assert d.value == "\\a" * 50_000 and len(d.starts._at) == 1
    d = decode_string('f"' + "{{" * 30_000 + "}}" * 30_000 + '"')
    assert d.value == "{" * 30_000 + "}" * 30_000 and len(d.starts._at) == 2
    assert (d.starts[30_000], d.ends[-1]) == (2 + 60_000, 2 + 120_000)
    d = decode_string('f"{f(x' + ",x" * 50_000 + ')}"')
    assert d.value == HOLE and d.holes == [(0, 1)]


def test_mixed_escapes_one_offset_each() -> None:
    body = "\\n\\x41\\u00e9\\101\\N{DIGIT ONE}" * 3_000
    src = '"' + body + '"'
    d = decode_string(src)
    assert d.value == ast.literal_eval(src)
    starts = [m.start() for m in re.finditer(r"\\(?:n|x41|u00e9|101|N\{DIGIT ONE\})", src)]
    assert list(d.starts) == starts
    assert list(d.ends) == [*starts[1:], len(src) - 1]


def test_errors_stay_errors() -> None:
    for bad in ('"abc', '"a\nb"', '"\\U00110000"', '"\\N{NOT A NAME}"', 'f"{a', 'f"{a:{b"'):
        with pytest.raises(ValueError):
            decode_string(bad)
    with pytest.raises(DecodeError):
        decode_string("x")


def test_offsets_sequence() -> None:
    o = Offsets([0, 3], [10, 20], [1, 4], 5)
    assert list(o) == [10, 11, 12, 20, 24] == [o[i] for i in range(5)]
    assert (o[-1], o[1:3], len(o)) == (24, [11, 12], 5)
    ends = Offsets([0, 3], [10, 20], [1, 4], 5, 1)
    assert list(ends) == [11, 12, 13, 24, 28]
    assert list(Offsets.join([o, o])) == [10, 11, 12, 20, 24] * 2
    with pytest.raises(IndexError):
        o[5]


def _ref_skip_gap(text: str, i: int, end: int) -> int:
    """The gap between implicitly joined pieces, a character at a time."""
    while i < end:
        c = text[i]
        if c in " \t\f\r\n\\()":
            i += 1
        elif c == "#":
            stops = [p for p in (text.find("\n", i, end), text.find("\r", i, end)) if p >= 0]
            i = min(stops) if stops else end
        else:
            break
    return i


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\f\r\n\\()#ab'\"", max_size=40), st.integers(0, 40), st.integers(0, 40))
def test_skip_gap_agrees_with_the_character_loop(text: str, i: int, end: int) -> None:
    end = min(end, len(text))
    assert _skip_gap(text, i, end) == _ref_skip_gap(text, i, end)


def _ref_escape(d: Decoded, text: str) -> str | None:
    """escape_for as a loop over characters (None: refused)."""
    q = d.quote[0]
    if d.is_raw:
        if any(c == q or c == "\\" or not c.isprintable() or (d.is_bytes and ord(c) > 0x7F) for c in text):
            return None
        out = text
    else:
        out = ""
        for c in text:
            if c in "\\\n\r\t" or c == q or not c.isprintable() or (d.is_bytes and ord(c) > 0x7F):
                return "escaped"
            out += c
    return out.replace("{", "{{").replace("}", "}}") if d.is_fstring else out


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PREFIXES), st.sampled_from(QUOTES), st.text(max_size=20))
def test_escape_for_fast_path_keeps_plain_text(prefix: str, quote: str, text: str) -> None:
    d = decode_string(prefix + quote + quote)
    got = escape_for(d, text)
    ref = _ref_escape(d, text)
    if ref is None:
        assert not isinstance(got, str)
    elif ref != "escaped":
        assert got == ref
    if isinstance(got, str) and not d.is_fstring:  # whatever it writes reads back as the text
        assert decode_string(prefix + quote + got + quote).value == text


ESCAPES = [
    "\\n", "\\t", "\\\\", "\\'", '\\"', "\\a", "\\x41", "\\xff", "\\x4", "\\u00e9", "\\u202e", "\\u200b",
    "\\ud800", "\\U0001F600", "\\U00110000", "\\101", "\\1", "\\12", "\\777", "\\N{DIGIT ONE}",
    "\\N{NOT A NAME}", "\\q", "\\8", "\\\n", "{{", "}}", "{x}",
]  # fmt: skip
PLAINS = [
    "a", "7", "1", "f", "é", "ÿ", "Ā", "\u202e", "\u200b", "😀", "\ud800", " ", "\x00", "\t", "'", '"',
    "\n", "\r\n", "N", "{", "}", "x", "u", "\\",
]  # fmt: skip


def _assert_tiles(d: Decoded, src: str) -> None:
    """Without line continuations, the spans cover the body exactly, one after the other."""
    assert len(d.starts) == len(d.ends) == len(d.value)
    if not d.value:
        return
    assert d.starts[0] == d.body_start and d.ends[-1] == d.body_end
    assert list(d.starts)[1:] == list(d.ends)[:-1]
    assert list(d.starts) == [d.starts[i] for i in range(len(d.value))]
    assert list(d.ends) == [d.ends[i] for i in range(len(d.value))]
    for i in range(len(d.value)):
        assert _spells(d, src, i), (src, i)


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(["", "b", "B", "u", "f", "rb", "r"]),
    st.sampled_from(QUOTES),
    st.lists(st.tuples(st.sampled_from(ESCAPES), st.sampled_from(PLAINS), st.sampled_from([1, 1, 2, 3])), max_size=12),
    st.booleans(),
    st.sampled_from([0, decode.MIXED_MIN]),
)
def test_alternating_escapes_and_plain_decode_like_python(
    prefix: str, quote: str, body: list[tuple[str, str, int]], plain_first: bool, mixed_min: int
) -> None:
    saved, decode.MIXED_MIN = decode.MIXED_MIN, mixed_min  # 0: every stretch through the codec
    try:
        _check_alternating(prefix, quote, body, plain_first)
    finally:
        decode.MIXED_MIN = saved


def _check_alternating(prefix: str, quote: str, body: list[tuple[str, str, int]], plain_first: bool) -> None:
    text = "".join((p + e if plain_first else e + p) * k for e, p, k in body)
    token = prefix + quote + text + quote
    expected = _python_value(token)
    if expected is None:
        try:  # not a token Python takes: an error here, never a hang or a wrong type
            decode_string(token)
        except ValueError:
            pass
        return
    src = "x = " + token + "\n"
    d = decode_string(src, 4)
    assert d.value == expected
    assert d.end == 4 + len(token)
    if ("\\\n" in text or "\\\r" in text) and "r" not in prefix:  # a line continuation (LF, CRLF, CR)
        assert len(d.starts) == len(d.ends) == len(d.value)
        assert all(_spells(d, src, i) for i in range(len(d.value)))
    elif not d.holes:
        _assert_tiles(d, src)


@pytest.mark.parametrize(
    "piece",
    ["\\u202ea", "\\u200ba", "\\ta", "\\u00e9a", "\\x41é", "\\U0001F600\u202e", "a\\n\\u00e9bc", "\\\\\\'\\x00x"],
)
@pytest.mark.slow  # stress: long inputs
def test_long_alternating_escapes_and_plain(piece: str) -> None:
    for prefix, quote in (("", "'"), ("", '"""'), ("f", "'"), ("b", "'")):
        if prefix == "b" and any(ord(c) > 0x7F for c in piece):
            continue
        body = piece * (100_000 // len(piece))
        src = prefix + quote + body + quote
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = ast.literal_eval(src) if prefix != "f" else ast.literal_eval(src[1:])
        d = decode_string(src)
        assert d.value == (v.decode("latin-1") if isinstance(v, bytes) else v)
        _assert_tiles(d, src)
        escapes = [m.start() for m in re.finditer(r"\\(?:[tn\\']|x..|u....|U........)", src)]
        assert set(escapes) <= set(d.starts)
