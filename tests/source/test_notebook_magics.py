"""Notebook cells with IPython escapes: an escape counts only where a logical line starts (a ``%`` line
inside a string or brackets is Python), a magic's backslash continuations go with it, and each cell that
does not parse is named (docs/notebooks.md, "What is checked")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from iri_lint.cli import main
from iri_lint.source.notebook import python_lines


def notebook(*sources: str) -> str:
    cells: list[dict[str, Any]] = [
        {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": s} for s in sources]
    return json.dumps({"cells": cells, "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
                       "nbformat": 4, "nbformat_minor": 5}, indent=1)


def check(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str, **files: str) -> tuple[str, str]:
    """``iri-lint check`` on the files (name -> text) in a folder of their own: stdout and stderr."""
    for name, text in files.items():
        (tmp_path / name.replace("_", ".")).write_text(text, encoding="utf-8")
    main(["check", "--isolated", "--no-cache", *args, str(tmp_path)])
    cap = capsys.readouterr()
    return cap.out.replace(str(tmp_path) + "/", ""), cap.err.replace(str(tmp_path) + "/", "")


@pytest.mark.parametrize(("source", "masked"), [
    ('x = """https://h/\n%zz.png"""\n', set()),  # repro 01: the string ends on the % line
    ('x = """a\n%zz.png"""\n%matplotlib inline\n', {2}),
    ("x = f'''{a}\n%zz'''\n!ls\n", {2}),
    ("requests.get(\n    CDN + '/page/%d'\n    % 3 + '/a b')\n", set()),  # repro 02: modulo in brackets
    ("y = {1:\n  2}\nobj?\n", {2}),
    ("z = 10 \\\n% 3\n", set()),  # a backslash continues the logical line
    ("if x:\n    y = (1\n  %2)\n    %time f()\n", {3}),
])
def test_an_escape_counts_only_where_a_logical_line_starts(source: str, masked: set[int]) -> None:
    lines, got = python_lines(source)
    assert got == masked
    assert [s for i, s in enumerate(lines) if i not in masked] == [
        s for i, s in enumerate(source.splitlines(True)) if i not in masked]
    compile("".join(lines), "<cell>", "exec")


@pytest.mark.parametrize("source", [
    "%time f(a, \\\n        b)\nx = 1\n",
    "for i in x:\n    %time f(a, \\\n  b, \\\n c)\n    y = 2\n",
    "files = !ls \\\n   -l\nx = 1\n",
    "%%time\nx = 1\n%time f(a, \\\n      b)\n",
])
def test_a_magic_leaves_out_its_backslash_continuations(source: str) -> None:
    lines, masked = python_lines(source)
    joined = {i for i, s in enumerate(source.splitlines(True)) if s.startswith(" ") and i - 1 in masked
              and source.splitlines()[i - 1].endswith("\\")}
    assert joined and joined <= masked
    assert all(lines[i] == "\n" for i in joined)  # blank: no indentation of its own
    compile("".join(lines), "<cell>", "exec")


def test_a_cell_that_does_not_tokenize_falls_back_line_by_line() -> None:
    lines, masked = python_lines("if x:\n    a\n  b\n%matplotlib inline\nc = '''\n%not\n")
    assert masked == {3}  # after the bad dedent the next line starts afresh
    assert lines[5] == "%not\n"


def test_a_long_cell_is_read_in_one_pass() -> None:
    """Pathological input, not a timing: 64,000 lines of escapes inside strings and brackets are each read once
    (a scan that re-read the cell per line would not finish), and so is a cell that stops tokenizing."""
    unit = "x = f(1,\n  % 2)\n%time g()\ns = \'\'\'\n%s\n\'\'\'\nif y:\n    a\n"
    lines, masked = python_lines(unit * 8000)
    assert len(lines) == 8 * 8000 and masked == set(range(2, 8 * 8000, 8))  # each '%time' starts a logical line
    lines, masked = python_lines("if x:\n    a\n  b\n%time g()\n" * 8000)  # (a bad dedent: afresh after it)
    assert len(lines) == 4 * 8000 and masked == set(range(3, 4 * 8000, 4))


def test_a_notebook_reads_like_the_same_python(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = ("import requests\nCDN = 'https://cdn.example.net'\nrequests.get(\n    CDN + '/page/%d'\n"
            "    % 3 + '/a b')\nx = requests.get('''https://h/\n%zz.png''')\n")
    out, err = check(tmp_path, capsys, "--output-format", "concise",
                     nb_ipynb=notebook(code), same_py=code)
    assert err == ""
    found = [(where, rest.split()[0]) for where, rest in (line.split(": ", 1) for line in out.splitlines())]
    nb = [(where.replace("nb.ipynb:cell 1:", ""), rule) for where, rule in found if where.startswith("nb.")]
    py = [(where.replace("same.py:", ""), rule) for where, rule in found if where.startswith("same.")]
    assert nb == py and ("5:14", "IRI101") in nb and ("7:1", "IRI110") in nb


def test_each_cell_that_does_not_parse_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = "import requests\nrequests.get('https://h.example/a'"
    nb = notebook("import requests\n", broken, "x = 1\n", broken, "requests.get('https://h.example/a b')\n")
    _, err = check(tmp_path, capsys, nb_ipynb=nb)
    named = [line.split("error: ")[1].split(",")[0] for line in err.splitlines() if "error: cell" in line]
    assert named == ["cell 2", "cell 4"]
    assert "more cell" not in err
    out, _ = check(tmp_path, capsys, "--output-format", "json")
    doc: dict[str, Any] = json.loads(out)
    assert [e["message"].split(",")[0] for e in doc["errors"]] == ["cell 2", "cell 4"]
    assert [f["cell"] for f in doc["findings"]] == [5]


@pytest.mark.parametrize("fmt", ["junit", "sarif", "github"])
def test_every_report_names_each_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    broken = "f('https://h.example/a'"
    out, err = check(tmp_path, capsys, "--output-format", fmt, nb_ipynb=notebook(broken, "x = 1\n", broken))
    text = out + err
    assert "cell 1, line 1" in text and "cell 3, line 1" in text


def test_a_cached_result_keeps_each_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = "f('https://h.example/a'"
    folder = tmp_path / "nb"
    folder.mkdir()
    (folder / "nb.ipynb").write_text(notebook(broken, broken), encoding="utf-8")
    errs = []
    for _ in range(2):  # the second run reads the cache
        main(["check", "--isolated", "--cache-dir", str(tmp_path / "cache"), str(folder)])
        errs.append(capsys.readouterr().err)
    assert errs[0] == errs[1] and "cell 1, line 1" in errs[1] and "cell 2, line 1" in errs[1]
