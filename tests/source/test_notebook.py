"""Notebooks: IPython lines blanked cleanly, positions mapped to cells and to the raw file, write-back
that changes nothing but the changed source strings."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.source.locate import split_lines
from iri_lint.source.notebook import NotebookError, python_lines, read_notebook


def notebook(*sources: Any, indent: int | None = 1, ensure_ascii: bool = False, kernel: str = "python",
             markdown: bool = True) -> str:
    cells: list[dict[str, Any]] = []
    if markdown:
        cells.append({"cell_type": "markdown", "metadata": {}, "source": ["# Notes: https://example.com/a b\n"]})
    for s in sources:
        cells.append({"cell_type": "code", "execution_count": 3, "metadata": {"tags": ["x"]},
                      "outputs": [{"output_type": "stream", "name": "stdout", "text": ["https://example.com/a b\n"]}],
                      "source": s})
    doc = {"cells": cells, "metadata": {"kernelspec": {"language": kernel, "name": "k"}},
           "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(doc, indent=indent, ensure_ascii=ensure_ascii, sort_keys=True) + "\n"


@pytest.mark.parametrize(("source", "masked"), [
    ("%matplotlib inline\nx = 1\n", {0}),
    ("!pip install requests\n", {0}),
    ("files = !ls\nout, err = %sx ls\n", {0, 1}),
    ("requests.get?\n??os.path\n", {0, 1}),
    ("for i in x:\n    %time f(i)\n    !echo\n", {1, 2}),
    ("s = '''\n%not a magic\n!nor this\n'''\n", set()),
    ("s = f'''\n%not {x} a magic\n'''\n%magic\n", {3}),
    ("x = 5 % 3\ny = a != b\nz = {'?': 1}\n", set()),
    ("%%time\nx = 1\n%lsmagic\n", {0, 2}),
])
def test_ipython_lines_become_pass_at_their_indentation(source: str, masked: set[int]) -> None:
    lines, got = python_lines(source)
    assert got == masked
    assert len(lines) == len(split_lines(source))
    for i, (new, old) in enumerate(zip(lines, split_lines(source), strict=True)):
        if i in masked:
            assert new.strip() == "pass" and new[: len(new) - len(new.lstrip())] == old[: len(old) - len(old.lstrip())]
        else:
            assert new == old
    compile("".join(lines), "<cell>", "exec")  # what is left is Python


def test_a_cell_magic_blanks_its_cell() -> None:
    lines, masked = python_lines("%%bash\necho https://example.com/a b\n")
    assert lines == ["\n", "\n"] and masked == {0, 1}


def test_cells_make_one_text_and_lines_map_back() -> None:
    raw = notebook(["import requests\n", "%matplotlib inline"], "", "requests.get('https://example.com/a b')")
    nb = read_notebook(raw.encode())
    assert [c.index for c in nb.cells] == [2, 3, 4]  # the markdown cell is counted, not checked
    assert nb.text == "import requests\npass\nrequests.get('https://example.com/a b')\n"
    assert nb.cell_at(3)[0].index == 4 and nb.cell_at(3)[1] == 1
    assert nb.cell_at(2)[0].index == 2 and nb.cell_at(2)[1] == 2


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.text(st.characters(exclude_categories=["Cs"]), max_size=12), min_size=1, max_size=4),
       indent=st.sampled_from([None, 1, 2, 4]), ensure_ascii=st.booleans(), as_list=st.booleans())
def test_file_position_points_at_the_character_in_the_raw_json(lines: list[str], indent: int | None,
                                                               ensure_ascii: bool, as_list: bool) -> None:
    """Every character of a cell maps to the raw text whose JSON decoding is that character."""
    source_lines = [x.replace("\r", "").replace("\n", "") + "\n" for x in lines]
    source = "".join(source_lines)
    raw = notebook(source_lines if as_list else source, indent=indent, ensure_ascii=ensure_ascii)
    nb = read_notebook(raw.encode())
    cell = nb.cells[0]
    rows = raw.split("\n")
    for li, text in enumerate(source_lines, start=1):
        for col, char in enumerate(text[:-1]):
            row, rcol = nb.file_position(cell, li, col)
            row2, rcol2 = nb.file_position(cell, li, col + 1, end=True)
            assert row2 == row
            assert json.loads('"' + rows[row - 1][rcol:rcol2] + '"') == char


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"), max_size=10),
                      min_size=1, max_size=5),
       which=st.integers(0, 4), new=st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"),
                                            min_size=1, max_size=5),
       indent=st.sampled_from([None, 1, 2]), ensure_ascii=st.booleans(), as_list=st.booleans(),
       last_newline=st.booleans())
def test_write_changes_only_the_changed_string(lines: list[str], which: int, new: str, indent: int | None,
                                               ensure_ascii: bool, as_list: bool, last_newline: bool) -> None:
    source_lines = [x + "\n" for x in lines]
    if not last_newline:
        source_lines[-1] = source_lines[-1][:-1]
    source = "".join(source_lines)
    raw = notebook(source_lines if as_list else source, "x = 1\n", indent=indent, ensure_ascii=ensure_ascii)
    nb = read_notebook(raw.encode())
    assert nb.write(nb.text) == raw.encode()  # nothing changed: byte for byte
    # change one line of the first cell (IPython lines are kept as they were)
    cell = nb.cells[0]
    if not cell.lines:
        return
    i = which % len(cell.lines)
    if i in cell.masked:
        return
    text_lines = split_lines(nb.text)
    text_lines[cell.first_line - 1 + i] = new + "\n"
    out = nb.write("".join(text_lines))
    assert isinstance(out, bytes)
    doc, before = json.loads(out), json.loads(raw)
    expected_lines = split_lines(source)
    expected_lines[i] = new + ("\n" if expected_lines[i].endswith("\n") else "")
    got = doc["cells"][1]["source"]
    assert ("".join(got) if isinstance(got, list) else got) == "".join(expected_lines)
    before["cells"][1]["source"] = got
    assert doc == before  # outputs, metadata, other cells: the same
    # and byte for byte outside the cell's source value
    start, end = cell.value_span
    text = out.decode()
    assert text[:start] == raw[:start]
    assert text[len(text) - (len(raw) - end):] == raw[end:]


def test_a_bom_and_crlf_between_tokens_survive() -> None:
    raw = notebook(["u = 'https://example.com/a b'\n"]).replace("\n", "\r\n")
    data = "\ufeff".encode() + raw.encode()
    nb = read_notebook(data)
    out = nb.write(nb.text.replace("a b", "a%20b"))
    assert isinstance(out, bytes) and out.startswith("\ufeff".encode())
    assert out == data.replace(b"u = 'https://example.com/a b'", b"u = 'https://example.com/a%20b'")


def test_changing_an_ipython_line_or_the_line_count_is_refused() -> None:
    nb = read_notebook(notebook(["%time x\n", "y = 1\n"]).encode())
    assert isinstance(nb.write(nb.text.replace("pass", "pas2")), str)
    assert isinstance(nb.write(nb.text + "z = 2\n"), str)


def test_duplicate_cells_key_follows_json_loads() -> None:
    raw = notebook(["a = 1\n"])
    raw = raw.replace('{\n "cells"', '{\n "cells": [],\n "cells"', 1)
    nb = read_notebook(raw.encode())
    assert nb.text == "a = 1\n"


def test_other_kernels_have_nothing_to_check() -> None:
    assert read_notebook(notebook(["library(x)\n"], kernel="R").encode()).cells == ()


@pytest.mark.parametrize(("data", "message"), [
    (b"import os\n", "invalid JSON (line 1, column 1)"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b'{"cells": 3}', "no list of cells"),
    (b'{"worksheets": [], "nbformat": 3}', "no list of cells"),
    (b'{"cells": [], "nbformat": 3}', "nbformat 3 notebooks are not supported"),
    (b'{"cells": [{"cell_type": "code", "source": [1]}], "nbformat": 4}', "source is not text"),
])
def test_bad_notebooks_say_why(data: bytes, message: str) -> None:
    with pytest.raises(NotebookError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_notebook(data)
