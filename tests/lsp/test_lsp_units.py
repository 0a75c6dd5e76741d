"""The server's pure parts: position conversion, noqa edits, fix-all, hover text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lsprotocol import types

from iri_lint.config import Config
from iri_lint.lint import lint_text
from iri_lint.lsp.actions import fix_all, fix_edits, minimal_edit, noqa_edit
from iri_lint.lsp.document import Document
from iri_lint.lsp.hover import hover_markdown, literal_at
from iri_lint.lsp.positions import UTF8, UTF16, UTF32, LineIndex, finding_offsets, units
from iri_lint.lsp.settings import EditorSettings, kebab, looks_like_settings, parse
from iri_lint.rules.model import DOCS_URL as RULE_DOCS
from iri_lint.rules.model import rule_url
from iri_lint.source.edits import apply_edits
from iri_lint.source.model import SourcePos


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


def test_fix_all_applies_only_safe_fixes_in_passes() -> None:
    fixed = fix_all(SAMPLE, lambda t: lint_text(t, CONFIG))
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


def test_parse_settings() -> None:
    assert kebab("extendSelect") == "extend-select" and kebab("per_file_ignores") == "per-file-ignores"
    got, problems = parse({"extendSelect": ["IRI3"], "debounce": 50, "reportUnparsable": False,
                           "configPath": "a/b.toml", "select": None})
    assert got == EditorSettings({"extend-select": ["IRI3"]}, "a/b.toml", 50.0, False) and problems == []
    _, problems = parse({"debounce": "soon", "reportUnparsable": 1, "ignore": 3})
    assert len(problems) == 3
    assert parse(None) == (EditorSettings(), [])
    assert looks_like_settings({"select": ["IRI1"], "configPath": "x"})
    assert not looks_like_settings({"python": {}}) and not looks_like_settings({})
    merged = EditorSettings({"ignore": ["A"]}, debounce_ms=10).merged(EditorSettings({"select": ["B"]}))
    assert merged == EditorSettings({"ignore": ["A"], "select": ["B"]}, None, 10, None)
    base = Config(select=("IRI1",), ignore=("IRI101",), extend_select=("IRI305",), profile="uri")
    assert EditorSettings({"ignore": ["IRI110"], "extend-select": ["IRI306"]}).apply(base) == Config(
        select=("IRI1",), ignore=("IRI101", "IRI110"), extend_select=("IRI305", "IRI306"), profile="uri")
    assert EditorSettings({"select": ["IRI2"], "profile": "iri"}).apply(base) == Config(
        select=("IRI2",), extend_select=("IRI305",))  # a new selection drops the file's ignores


@pytest.mark.parametrize(("encoding", "expected"), [(UTF16, 6), (UTF8, 8), (UTF32, 5)])
def test_lint_positions_to_client_units(encoding: str, expected: int) -> None:
    text = 'a\nx="😀"%\n'
    index = LineIndex(text, encoding)
    assert index.at(SourcePos(2, text.split("\n")[1].index("%"))) == pos(1, expected)
    assert index.at(SourcePos(9, 0)) == pos(2, 0)  # past the end: the end
    bom = LineIndex("\ufeffx = 1\n", encoding)
    assert bom.at(SourcePos(1, 4)) == pos(0, 5 if encoding != UTF8 else 7)  # lint columns leave the BOM out


def test_offset_past_the_end_of_a_line_without_a_break() -> None:
    index = LineIndex("ab\n😀c")  # pygls would clamp to one before the end of the last line
    assert index.offset(pos(1, 99)) == len("ab\n😀c")
    assert index.offset(pos(1, 2)) == len("ab\n😀")
    assert index.offset(pos(1, 1)) == len("ab\n😀")  # inside the surrogate pair: after it


@pytest.mark.parametrize("odd", ["\x0c", "\x0b", "\u2028", "\x1c", "\x85"])
def test_incremental_changes_after_characters_splitlines_would_break_at(odd: str) -> None:
    # pygls' TextDocument splits lines with str.splitlines: these would put the change on the wrong line
    doc = Document("file:///m.py", f"a = 1{odd}2\nb = 3\n", 1)
    change = types.TextDocumentContentChangePartial(range=types.Range(start=pos(1, 4), end=pos(1, 5)), text="4")
    doc.apply([change], 2)
    assert doc.text == f"a = 1{odd}2\nb = 4\n" and doc.version == 2
    doc.apply([types.TextDocumentContentChangeWholeDocument(text="new")], 3)
    assert doc.text == "new"


def test_noqa_edit_within_the_statement_equals_the_whole_file() -> None:
    from pathlib import Path

    from iri_lint.lsp.incremental import IncrementalLinter

    text = (Path(__file__).parent / "fixtures" / "incremental_module.py.txt").read_text(encoding="utf-8")
    text += 'x = ("http://a/%zz"  # first\n     "b")\ny = "http://a/%zz" \\\n\nz = 1\n'
    linter = IncrementalLinter(Config(select=("ALL",), ignore=("IRI901",)))  # (IRI901 lints whole files)
    found = linter.lint(text)
    assert len(found) > 10
    for sf in found:
        start, _ = finding_offsets(text, sf)
        view = linter.view(text, sf.start.line, sf.start.line)
        assert view is not None
        statement = view.statement_of(sf.start.line - view.line_delta)
        assert statement is not None
        got = noqa_edit(view.text, start - view.offset, sf.code, statement)
        want = noqa_edit(text, start, sf.code)
        assert (got and (got.start + view.offset, got.end + view.offset, got.new)) == \
            (want and (want.start, want.end, want.new)), sf


@pytest.mark.parametrize("value", [
    "https://bücher.example/straße",  # a DNS host: IDNA (3987bis sec. 3.4.2)
    "https://BÜCHER.example:8080/a?q=日本#f",
    "https://a_ü.example/ü",  # IDNA rejects the label: percent-encoded (3.4.1)
    "ftp://bücher.example/ü",
    "https://bücher。example/ü",  # an ideographic full stop: a label separator to IDNA
    "https://[::1]/ü",
])
def test_hover_suggests_the_uri_the_diagnostic_suggests(value: str) -> None:
    """The URI form of the hover and IRI404's fix are one suggestion (issue #31 item 12)."""
    text = f'from urllib.request import urlopen\n\nurlopen("{value}")\n'
    [sf] = [f for f in lint_text(text, Config()) if f.code == "IRI404"]
    assert sf.finding.fix is not None
    lit = literal_at(text, text.index(value), Config())
    assert lit is not None
    md = hover_markdown(lit, [sf])
    assert f"URI form (RFC 3987 sec. 3.1): `{sf.finding.fix.value}`" in md
    assert md.count(sf.finding.fix.value) == 2  # (and in the finding's message)


@given(st.text(alphabet="ab\n\r\x0c\u2028é😀", max_size=40))
def test_lines_are_counted_at_lsp_line_breaks(text: str) -> None:
    """Line ``k`` starts after the ``k``-th ``\\r\\n``, ``\\r`` or ``\\n`` (with or without a CR in the text)."""
    index = LineIndex(text, UTF32)
    breaks = [m.span() for m in re.finditer(r"\r\n|\r|\n", text)]
    for offset in range(len(text) + 1):
        line = sum(1 for _, end in breaks if end <= offset)
        start = breaks[line - 1][1] if line else 0
        stop = breaks[line][0] if line < len(breaks) else len(text)  # (inside a CR LF: the end of the line)
        assert index.position(offset) == pos(line, min(offset, stop) - start)


def test_the_server_process_never_freezes_the_gc(tmp_path: Path) -> None:
    """Reading another project module freezes the gc in a short run (its parsed modules leave the
    cyclic gc's passes); a server lives for days, and what is frozen is never collected."""
    import gc

    from iri_lint import values_check
    from iri_lint.lint import lint_text
    from iri_lint.lsp.server import create_server
    from iri_lint.source.project import Project

    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "config.py").write_text('CDN = "https://cdn.example.net"\n', encoding="utf-8")
    app = tmp_path / "app.py"
    text = 'import requests\nfrom config import CDN\nrequests.get(CDN + "/a b")\n'
    app.write_text(text, encoding="utf-8")
    values_check._FREEZE_AFTER_READS[0] = True  # (a server made in this process before made it False)
    frozen = gc.get_freeze_count()
    try:
        assert [f.code for f in lint_text(text, Config(), path=str(app), project=Project())] == ["IRI101"]
        assert gc.get_freeze_count() > frozen  # a short run: frozen
        gc.unfreeze()
        create_server()
        assert [f.code for f in lint_text(text, Config(), path=str(app), project=Project())] == ["IRI101"]
        assert gc.get_freeze_count() == 0
    finally:
        values_check._FREEZE_AFTER_READS[0] = True  # (this process goes on with other tests)


def test_a_lint_runs_with_the_gc_paused_and_the_gc_runs_again_after() -> None:
    """The server lints with the cyclic gc paused (full passes over the tree a lint holds cost more than the
    lint), and enables it again after, an error or not."""
    import gc

    from iri_lint.lsp.gc_pause import without_gc_passes

    seen = []

    def lint(text: str, check: object) -> int:
        seen.append(gc.isenabled())
        if text == "boom":
            raise ValueError(text)
        return len(text)

    assert gc.isenabled()
    assert without_gc_passes(lint, "abc", lambda: None) == 3
    with pytest.raises(ValueError):
        without_gc_passes(lint, "boom", lambda: None)
    assert seen == [False, False] and gc.isenabled()
