"""The server's pure parts: position conversion, noqa edits, fix-all, hover text."""

from __future__ import annotations

import pytest
from lsprotocol import types

from iri_lint.config import Config
from iri_lint.lint import lint_text
from iri_lint.lsp.actions import fix_all, fix_all_safe, fix_edits, minimal_edit, noqa_edit
from iri_lint.lsp.hover import hover_markdown, literal_at
from iri_lint.lsp.positions import UTF8, UTF16, UTF32, LineIndex, finding_offsets, units
from iri_lint.rules.model import DOCS_URL as RULE_DOCS
from iri_lint.rules.model import rule_url
from iri_lint.source.edits import apply_edits


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


@pytest.mark.parametrize(("encoding", "expected"), [(UTF16, 6), (UTF8, 8), (UTF32, 5)])
def test_non_bmp_columns(encoding: str, expected: int) -> None:
    text = 'a\nx="😀"%\n'
    index = LineIndex(text, encoding)
    at = text.index("%")
    assert index.position(at) == pos(1, expected)
    assert index.offset(pos(1, expected)) == at
    assert units("😀", encoding) == {UTF16: 2, UTF8: 4, UTF32: 1}[encoding]


def test_lsp_lines_end_only_at_cr_lf() -> None:
    text = "a\r\nb\rc\x0cd\u2028e\nf"  # form feed and U+2028 do not end LSP lines
    index = LineIndex(text)
    assert index.position(text.index("b")) == pos(1, 0)
    assert index.position(text.index("e")) == pos(2, 4)
    assert index.position(len(text)) == pos(3, 1)
    assert index.offset(pos(0, 99)) == 1  # clamped to the line, before its line break
    assert index.offset(pos(99, 0)) == len(text)
    assert index.offset(pos(2, 1)) == text.index("\x0c")


def test_lone_surrogate_counts_one_unit() -> None:
    assert units("\ud800x", UTF16) == 2


def test_rule_docs_url() -> None:
    assert rule_url("IRI201") == RULE_DOCS.format(code="IRI201")
    assert rule_url("IRI201").startswith("https://iri-lint.readthedocs.io/")


def noqa(text: str, needle: str, code: str = "IRI110") -> str | None:
    edit = noqa_edit(text, text.index(needle), code)
    return None if edit is None else apply_edits(text, [edit])


def test_noqa_added_at_end_of_line() -> None:
    assert noqa('x = "http://a/%zz"   \n', "%zz") == 'x = "http://a/%zz"  # noqa: IRI110   \n'
    assert noqa('x = "http://a/%zz"', "%zz") == 'x = "http://a/%zz"  # noqa: IRI110'


def test_noqa_after_other_comment() -> None:
    assert noqa('x = "http://a/%zz"  # type: ignore  \n', "%zz") == \
        'x = "http://a/%zz"  # type: ignore  # noqa: IRI110  \n'


@pytest.mark.parametrize(("comment", "merged"), [
    ("# noqa: E501", "# noqa: E501, IRI110"),
    ("# noqa:E501,W291", "# noqa:E501,W291, IRI110"),
    ("# NOQA: E501 because", "# NOQA: E501, IRI110 because"),
])
def test_noqa_merged(comment: str, merged: str) -> None:
    assert noqa(f'x = "http://a/%zz"  {comment}\n', "%zz") == f'x = "http://a/%zz"  {merged}\n'


def test_noqa_already_silenced() -> None:
    assert noqa('x = "http://a/%zz"  # noqa\n', "%zz") is None
    assert noqa('x = "http://a/%zz"  # noqa: IRI110\n', "%zz") is None


def test_noqa_goes_where_flake8_reads_it_never_into_a_string() -> None:
    # flake8 joins the lines of a multi-line string token, but an NL inside brackets ends the group
    text = 'x = f("""http://a/%zz\nmore""",\n      1)\ny = 2\n'
    assert noqa(text, "%zz") == 'x = f("""http://a/%zz\nmore""",  # noqa: IRI110\n      1)\ny = 2\n'


def test_noqa_on_untokenizable_text() -> None:
    assert noqa('x = "http://a/%zz\n', "%zz") is None


def test_minimal_edit() -> None:
    assert minimal_edit("abc", "abc") is None
    e = minimal_edit("http://a/%e2x%ac", "http://a/%E2x%AC")
    assert e is not None and (e.start, e.end, e.new) == (10, 16, "E2x%AC")
    e = minimal_edit("aa", "aaa")
    assert e is not None and apply_edits("aa", [e]) == "aaa"


SAMPLE = 'import requests\n\nrequests.get("http://example.com/%e2%82%ac")\nX = "http://example.com/a\\u202eb%zz"\n'
CONFIG = Config(extend_select=("IRI305",))


def test_fix_all_safe_applies_only_safe_fixes_in_passes() -> None:
    fixed = fix_all_safe(SAMPLE, CONFIG)
    assert fixed == SAMPLE.replace("%e2%82%ac", "%E2%82%AC")  # two fixes in one literal: two passes
    assert {f.code for f in lint_text(fixed, CONFIG)} == {"IRI201", "IRI110"}


def test_fix_all_with_unsafe_fixes() -> None:
    fixed = fix_all(SAMPLE, lambda t: lint_text(t, CONFIG), unsafe=True)
    assert 'X = "http://example.com/ab%25zz"' in fixed
    assert lint_text(fixed, CONFIG) == []


def test_fix_edits_are_source_edits_through_escapes() -> None:
    bidi = next(f for f in lint_text(SAMPLE, CONFIG) if f.code == "IRI201")
    start, end = finding_offsets(SAMPLE, bidi)
    assert SAMPLE[start:end] == "\\u202e"
    edits = fix_edits(SAMPLE, bidi)
    assert edits is not None and [(SAMPLE[e.start : e.end], e.new) for e in edits] == [("\\u202e", "")]


def test_hover_markdown() -> None:
    text = 'u = "HTTP://example.com/שלום/a"\n'
    lit = literal_at(text, text.index("example"), Config())
    assert lit is not None
    md = hover_markdown(lit)
    assert "URI form" in md and "HTTP://example.com/%D7%A9" in md
    assert "Normalized" in md and "`http://example.com/שלום/a`" in md
    assert "Displayed as" in md
    assert literal_at(text, 0, Config()) is None


def test_hover_hides_invisible_characters() -> None:
    text = 'u = "http://example.com/a\u202eb"\n'
    lit = literal_at(text, text.index("example"), Config())
    assert lit is not None
    md = hover_markdown(lit)
    assert "\u202e" not in md and "⟨U+202E⟩" in md


def test_serve_without_the_lsp_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from iri_lint.lsp import serve

    monkeypatch.delitem(sys.modules, "iri_lint.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # as if pygls were not installed
    assert serve([]) == 2
    assert "pip install 'iri-lint[lsp]'" in capsys.readouterr().err
