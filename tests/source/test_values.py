"""The value model: pieces of known text that keep their literal, holes, and exact source positions."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.source.locate import expected_value, split_lines
from iri_lint.source.model import SourcePos
from iri_lint.source.urlvalues import ModuleValues
from iri_lint.source.values import MAX_PIECES, MAX_TEXT, Hole, HoleKind, Text, Value, concat, hole, made


def module(src: str) -> ModuleValues:
    return ModuleValues(ast.parse(src), split_lines(src))


def value_of(src: str, name: str = "x") -> Value:
    """The value module-level ``name`` holds once ``src`` has run."""
    r = module(src).name(name)
    assert type(r) is Value, r
    return r


def positions(src: str, v: Value) -> list[SourcePos | None]:
    out = []
    for i in range(len(v)):
        found = v.position(i)
        out.append(found[1] if found is not None else None)
    return out


def spelled_at(src: str, v: Value) -> None:
    """Every known character a literal spells maps to the source character that starts its spelling:
    the character itself, or the backslash of its escape."""
    lines = split_lines(src)
    for i in range(len(v)):
        piece, k = v.origin(i)  # type: ignore[misc]
        if type(piece) is not Text or not piece.spelled:
            continue
        assert (expected_value(piece.node) or "")[piece.start + k] == piece.text[k]  # type: ignore[arg-type]
        pos = piece.position(k)
        assert pos is not None
        ch = lines[pos.line - 1][pos.col]
        assert ch == piece.text[k] or ch == "\\", (i, piece.text[k], ch, pos)


def col_of(src: str, needle: str, nth: int = 0) -> SourcePos:
    """(line, column) of the ``nth`` occurrence of ``needle`` in ``src``."""
    i = -1
    for _ in range(nth + 1):
        i = src.index(needle, i + 1)
    line = src.count("\n", 0, i) + 1
    return SourcePos(line, i - (src.rfind("\n", 0, i) + 1))


# -- the model ---------------------------------------------------------------------------------


def test_concatenation_keeps_pieces_and_rejoins_runs_of_one_literal() -> None:
    src = 'x = "abcdef"\n'
    v = value_of(src)
    parts = [v.slice(0, 2), v.slice(2, 4), v.slice(4, 6)]
    again = concat(parts)
    assert again.text == "abcdef"
    assert len(again.pieces) == 1  # one run of one literal again
    assert positions(src, again) == [SourcePos(1, 5 + k) for k in range(6)]


def test_flat_offsets_count_a_hole_as_one_character() -> None:
    v = concat([made("ab", ast.Constant("x"), None), hole(None, None, name="h"), made("cd", ast.Constant("y"), None)])
    assert v.flat() == "ab0cd" and len(v) == 5
    assert v.text is None and not v.known
    assert [i for i, _ in v.holes()] == [2]
    assert v.is_hole(2) and not v.is_hole(1)
    assert v.prefix() == "ab"
    assert v.slice(1, 4).flat() == "b0c"
    assert v.slice(3, 5).text == "cd"


def test_a_value_past_the_limits_becomes_one_hole() -> None:
    """What is joined up to the part that makes it too big becomes one hole, a part too big alone too; what
    is joined after it stays known (fixtures27, repro 02: ``BIG + "/x y"`` still has its space)."""
    node = ast.Constant("x")
    big = made("a" * (MAX_TEXT // 2 + 1), node, None)
    assert concat([big, big], node).opaque
    tail, head = made("/b c", node, None), made("https://h.example", node, None)
    after = concat([big, big, tail], node).pieces
    assert [type(p).__name__ for p in after] == ["Hole", "Text"] and after[1].text == "/b c"  # type: ignore[union-attr]
    huge = made("a" * (MAX_TEXT + 1), node, None)
    assert [getattr(p, "text", None) for p in concat([head, huge, tail], node).pieces] == [
        "https://h.example", None, "/b c"]
    many = [hole(node, None), made("a", node, None)] * (MAX_PIECES // 2 + 1)
    joined = concat(many, node).pieces
    assert type(joined[0]).__name__ == "Hole" and len(joined) <= 3
    assert concat([big], node).text == big.text  # under the limit: kept


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), st.integers(0, 3)), max_size=12), max_size=6))
def test_law_concat_is_the_flat_join_and_keeps_every_origin(shapes: list[list[int | None]]) -> None:
    """Pieces from a few literals (runs of one literal may rejoin) and holes, in values long and short."""
    literals = [ast.Constant("abcdefghijklmnopqrstuvwxyz") for _ in range(4)]
    values = []
    for shape in shapes:
        pieces = []
        for k, lit in enumerate(shape):
            if lit is None:
                pieces.append(hole(None, None))
            else:
                pieces.append(Value((Text("abcdefghijklmnopqrstuvwxyz"[k], literals[lit], k, None),)))
        values.append(concat(pieces))
    joined = concat(values)
    assert joined.flat() == "".join(v.flat() for v in values)
    origins = [v.origin(i) for v in values for i in range(len(v))]
    again = [joined.origin(i) for i in range(len(joined))]
    for (p, k), (q, m) in zip(origins, again, strict=True):  # type: ignore[misc]
        if type(p) is Text:
            assert type(q) is Text and q.node is p.node and q.start + m == p.start + k
        else:
            assert q is p


def test_same_is_agreement_of_known_text() -> None:
    a, b = value_of('x = "u"\ny = "u"\n'), value_of('y = "u"\nx = "u"\n')
    assert a.same(b)
    assert not hole(None, None).same(hole(None, None))


def test_hole_kinds_carry_what_is_known() -> None:
    h = hole(None, None, kind=HoleKind.ENCODED, name="q", safe="/").pieces[0]
    assert isinstance(h, Hole) and h.kind is HoleKind.ENCODED and h.name == "q" and h.safe == "/"


# -- positions: every known character at its source line and column --------------------------------


def test_single_line_literal() -> None:
    src = 'x = "https://h.example/a b"\n'
    v = value_of(src)
    assert v.position(v.flat().index(" "))[1] == col_of(src, " b")  # type: ignore[index]
    spelled_at(src, v)


def test_concatenation_across_lines_and_names() -> None:
    src = 'BASE = "https://h.example"\n\nx = (BASE\n     + "/team photo.jpg")\n'
    v = value_of(src)
    assert v.text == "https://h.example/team photo.jpg"
    assert v.position(0)[1] == SourcePos(1, 8)  # type: ignore[index]
    assert v.position(v.flat().index(" "))[1] == col_of(src, " photo")  # type: ignore[index]
    spelled_at(src, v)


def test_implicit_concatenation_multiline_with_comments() -> None:
    src = 'x = ("https://h.example/"  # base\n     "a b"\n     \'/c\')\n'
    v = value_of(src)
    assert v.text == "https://h.example/a b/c"
    assert v.position(v.flat().index(" "))[1] == SourcePos(2, 7)  # type: ignore[index]
    assert v.position(len(v) - 1)[1] == col_of(src, "c'")  # type: ignore[index]
    spelled_at(src, v)


def test_escapes_point_at_their_backslash() -> None:
    src = 'x = "https://h.example/\\u202etxt\\x20exe\\N{SPACE}"\n'
    v = value_of(src)
    assert v.text == "https://h.example/\u202etxt exe "
    assert v.position(v.flat().index("\u202e"))[1] == col_of(src, "\\u202e")  # type: ignore[index]
    assert v.position(v.flat().index(" "))[1] == col_of(src, "\\x20")  # type: ignore[index]
    assert v.position(len(v) - 1)[1] == col_of(src, "\\N{")  # type: ignore[index]
    spelled_at(src, v)


def test_fstring_pieces_and_fields() -> None:
    src = 'HOST = "h.example"\nx = f"https://{HOST}/a b/{id!r}?q={{1}}"\n'
    v = value_of(src)
    assert v.flat() == "https://h.example/a b/0?q={1}"
    assert v.position(v.flat().index("h.example"))[1] == SourcePos(1, 8)  # type: ignore[index]
    assert v.position(v.flat().index(" "))[1] == col_of(src, " b/")  # type: ignore[index]
    assert v.position(v.flat().index("{"))[1] == col_of(src, "{{1")  # type: ignore[index]
    field = next(h for _, h in v.holes())
    assert field.kind is HoleKind.FIELD and field.name == "id" and field.spec == "!r"
    spelled_at(src, v)


def test_triple_quoted_and_raw_literals() -> None:
    src = 'x = r"""https://h.example/\\d\n/x y"""\n'
    v = value_of(src)
    assert v.text == "https://h.example/\\d\n/x y"
    assert v.position(v.flat().index(" "))[1] == SourcePos(2, 2)  # type: ignore[index]
    spelled_at(src, v)


def test_non_ascii_columns_are_code_points() -> None:
    src = 'é = "ü"; x = "https://ü.example/a b"\n'
    v = value_of(src)
    assert v.position(v.flat().index(" "))[1] == col_of(src, " b")  # type: ignore[index]
    spelled_at(src, v)


def test_made_text_points_at_the_expression_that_made_it() -> None:
    src = 'PORT = 8080\nx = "http://h:%d/" % PORT\n'
    v = value_of(src)
    assert v.text == "http://h:8080/"
    piece, _ = v.origin(v.flat().index("8"))  # type: ignore[misc]
    assert type(piece) is Text and not piece.spelled
    # (the argument that brings it: the constant may be another module's, fixtures83 repro 04)
    assert v.position(v.flat().index("8"))[1] == SourcePos(2, 21)  # type: ignore[index]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8), min_size=1, max_size=5),
       st.lists(st.sampled_from([" ", "\n     ", "  # c\n     "]), min_size=5, max_size=5))
def test_law_concatenating_literals_gives_their_joined_value(parts: list[str], gaps: list[str]) -> None:
    implicit = "x = (" + "".join(repr(p) + gaps[k] for k, p in enumerate(parts)) + ")\n"
    plus = "x = (" + ("\n + ").join(repr(p) for p in parts) + ")\n"
    for src in (implicit, plus):
        v = value_of(src)
        assert v.text == "".join(parts)
        spelled_at(src, v)


@pytest.mark.parametrize("src", [
    'x = "a" "b"\n',
    'x = f"a{1}b" "c"\n',
    "x = ('a'\n     f'{2.5}'\n     \"\\tc\")\n",
])
def test_every_spelled_character_maps_to_its_source(src: str) -> None:
    spelled_at(src, value_of(src))
