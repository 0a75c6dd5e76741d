"""``iri-lint check`` on Jupyter notebooks: findings in cells, regions in the file, fixes written back
without touching anything else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import RunMain

DATA = Path(__file__).parent / "data"

def col(line: str, sub: str) -> int:
    """The 1-based column of ``sub`` in ``line``."""
    return line.index(sub) + 1


CELLS: list[Any] = [
    ["import urllib.request\n", "%matplotlib inline\n", "!pip install requests\n",
     "URL = \"https://example.com/a b\"\n",  # IRI101, an unsafe fix only
     "page = urllib.request.urlopen(\"https://example.com/caf\u00e9\")"],  # IRI404, a safe fix
    "%%bash\ncurl 'https://example.com/a b'\n",  # not Python
    ["for i in range(2):\n", "    %time urllib.request.urlopen(\"https://example.com/\u00e9\")\n",
      "    data_url = \"https://example.com/\u00e9t\u00e9/%e9\"\n"],  # IRI401 (used as an IRI), no fix
]
C101, C404, C401 = col(CELLS[0][3], " b"), col(CELLS[0][4], "\u00e9"), col(CELLS[2][2], "%e9")


def make_notebook(cells: list[Any] = CELLS, *, indent: int = 1, ensure_ascii: bool = False) -> str:
    doc = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["See https://example.com/a b\n"]}]
           + [{"cell_type": "code", "execution_count": i, "metadata": {"scrolled": True}, "source": src,
               "outputs": [{"output_type": "execute_result", "execution_count": i, "metadata": {},
                            "data": {"text/plain": ["'https://example.com/a b'"]}}]}
              for i, src in enumerate(cells, start=1)],
           "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                        "language_info": {"name": "python", "version": "3.12.1"}},
           "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(doc, indent=indent, ensure_ascii=ensure_ascii, sort_keys=True) + "\n"


@pytest.fixture
def nb(tmp_path: Path) -> Path:
    path = tmp_path / "analysis.ipynb"
    path.write_text(make_notebook(), encoding="utf-8")
    return path


def test_text_output_names_the_cell(cli, nb: Path) -> None:  # type: ignore[no-untyped-def]
    r = cli("check", "--isolated", str(nb))
    assert r.code == 1 and r.err == ""
    assert [line.split(" ")[:2] for line in r.out.splitlines()] == [
        [f"{nb}:cell", f"2:4:{C101}:"], [f"{nb}:cell", f"2:5:{C404}:"], [f"{nb}:cell", f"4:3:{C401}:"]]
    assert [line.split(": ")[1].split(" ")[0] for line in r.out.splitlines()] == ["IRI101", "IRI404", "IRI401"]


def test_json_carries_the_cell_and_sarif_the_region_in_the_file(cli, nb: Path) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(cli("check", "--isolated", "--format", "json", str(nb)).out)
    assert [(f["cell"], f["start"]["line"], f["start"]["column"]) for f in doc["findings"]] == [
        (2, 4, C101), (2, 5, C404), (4, 3, C401)]
    sarif = json.loads(cli("check", "--isolated", "--format", "sarif", str(nb)).out)
    raw_lines = nb.read_text(encoding="utf-8").split("\n")
    results = sarif["runs"][0]["results"]
    assert len(results) == 3
    for res, finding in zip(results, doc["findings"], strict=True):
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["properties"]["cell"] == finding["cell"]
        row = raw_lines[region["startLine"] - 1]
        raw = row[region["startColumn"] - 1 : region["endColumn"] - 1]
        cell_src = json.loads(nb.read_text(encoding="utf-8"))["cells"][finding["cell"] - 1]["source"]
        line = "".join(cell_src).split("\n")[finding["start"]["line"] - 1]
        want = line[finding["start"]["column"] - 1 : finding["end"]["column"] - 1]
        assert json.loads(f'"{raw}"') == want  # the region holds exactly the finding's characters


def test_sarif_with_a_notebook_validates(cli, nb: Path) -> None:  # type: ignore[no-untyped-def]
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    doc = json.loads(cli("check", "--isolated", "--format", "sarif", str(nb)).out)
    cls = jsonschema.validators.validator_for(schema)
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(doc)


def test_github_annotations_point_into_the_file(cli, nb: Path) -> None:  # type: ignore[no-untyped-def]
    out = cli("check", "--isolated", "--format", "github", str(nb)).out
    rows = nb.read_text(encoding="utf-8").split("\n")
    first = out.splitlines()[0]
    line = int(first.split(",line=")[1].split(",")[0])
    assert '"URL = \\"https://example.com/a b\\"\\n",' in rows[line - 1]


def test_unfixed_notebook_is_untouched_byte_for_byte(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "n.ipynb"
    cells = [CELLS[0][:4], CELLS[1]]  # only an unsafe fix
    path.write_text(make_notebook(cells, indent=2, ensure_ascii=True), encoding="utf-8")
    before = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    r = cli("check", "--isolated", "--fix", str(path))
    assert r.code == 1 and path.read_bytes() == before and path.stat().st_mtime_ns == mtime


@pytest.mark.parametrize(("indent", "ensure_ascii"), [(1, False), (2, True), (4, False)])
def test_fix_changes_only_the_changed_cell_source(cli, tmp_path: Path, indent: int,  # type: ignore[no-untyped-def]
                                                  ensure_ascii: bool) -> None:
    path = tmp_path / "n.ipynb"
    path.write_text(make_notebook(indent=indent, ensure_ascii=ensure_ascii), encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    r = cli("check", "--isolated", "--fix", str(path))
    assert r.code == 1  # IRI101 (unsafe) and IRI401 (no fix) remain
    assert f"{path}:cell 2:5:{C404}: IRI404 fixed (safe)" in r.out
    after = path.read_text(encoding="utf-8")
    old_item = json.dumps("page = urllib.request.urlopen(\"https://example.com/caf\u00e9\")", ensure_ascii=ensure_ascii)
    new_item = json.dumps("page = urllib.request.urlopen(\"https://example.com/caf%C3%A9\")")
    assert before.count(old_item) == 1 and after == before.replace(old_item, new_item)
    # the %time line is IPython: left alone although its IRI has the same problem
    assert "%time urllib.request.urlopen(\\\"https://example.com/" in after
    again = cli("check", "--isolated", "--fix", str(path))
    assert "fixed" not in again.out and path.read_text(encoding="utf-8") == after


def test_diff_shows_what_fix_writes(cli, nb: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    before = nb.read_text(encoding="utf-8")
    diff = cli("check", "--isolated", "--diff", "--unsafe-fixes", str(nb)).out
    assert nb.read_text(encoding="utf-8") == before
    cli("check", "--isolated", "--fix", "--unsafe-fixes", str(nb))
    after = nb.read_text(encoding="utf-8")
    removed = [x[1:] for x in diff.splitlines() if x.startswith("-") and not x.startswith("---")]
    added = [x[1:] for x in diff.splitlines() if x.startswith("+") and not x.startswith("+++")]
    assert removed == [x for x in before.splitlines() if x not in after.splitlines()]
    assert added == [x for x in after.splitlines() if x not in before.splitlines()]
    assert len(added) == 2  # the two fixed strings, nothing else


def test_stdin_notebook_with_fix_prints_the_notebook(run_main: RunMain, tmp_path: Path) -> None:
    data = make_notebook().encode()
    p = run_main("check", "--isolated", "--fix", "--stdin-filename", "x.ipynb", "-", stdin=data)
    out = json.loads(p.stdout)
    assert "caf%C3%A9" in "".join(out["cells"][1]["source"])
    assert p.stdout == data.replace("caf\u00e9\\\"".encode(), b"caf%C3%A9\\\"", 1)


def test_stdin_notebook_with_fix_and_nothing_to_fix_prints_it_back(run_main: RunMain) -> None:
    """As for a .py file (one fix flow): standard input with --fix gives the source back, changed or not,
    and the report goes to stderr, so ``iri-lint check --fix - < in > out`` never leaves ``out`` empty."""
    data = make_notebook([["URL = \"https://example.com/a b\"\n"]]).encode()  # an unsafe fix only
    p = run_main("check", "--isolated", "--fix", "--stdin-filename", "x.ipynb", "-", stdin=data)
    assert p.stdout == data
    assert b"IRI101" in p.stderr and p.returncode == 1


def test_a_cell_that_does_not_parse_is_named_and_others_still_checked(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "n.ipynb"
    path.write_text(make_notebook([CELLS[0], ["def f(:\n", "    pass\n"], CELLS[2]]), encoding="utf-8")
    r = cli("check", "--isolated", str(path))
    assert r.code == 1
    errors = r.err.splitlines()
    assert len(errors) == 1 and errors[0].endswith(
        "error: cell 3, line 1, column 7: syntax error: invalid syntax; the cell is not checked")
    assert [x.split(": ")[0] for x in r.out.splitlines()] == [
        f"{path}:cell 2:4:{C101}", f"{path}:cell 2:5:{C404}", f"{path}:cell 4:3:{C401}"]
    before = path.read_bytes()
    cli("check", "--isolated", "--fix", str(path))  # the broken cell is kept as it is
    after = path.read_bytes()
    assert after != before and b'"def f(:\\n"' in after


@pytest.mark.parametrize(("content", "message"), [
    ("import os\nURL = 'https://example.com/a b'\n", "not a notebook: invalid JSON (line 1, column 1)"),
    ('{"cells": [], "nbformat": 3}', "nbformat 3 notebooks are not supported (convert with nbconvert)"),
    ('{"cells": [{"cell_type": "code", "source": "x = 1"}, 7], "nbformat": 4}',
     "not a notebook: cell 2 is not an object"),
    ('{"cells": ["import os"], "nbformat": 4}', "not a notebook: cell 1 is not an object"),
])
def test_a_bad_notebook_is_one_line(cli, tmp_path: Path, content: str, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "n.ipynb"
    path.write_text(content, encoding="utf-8")
    r = cli("check", "--isolated", "--fix", str(path))
    assert r.code == 1 and r.err.splitlines() == [f"{path}:1:1: error: {message}"]
    assert path.read_text(encoding="utf-8") == content


def test_other_kernels_are_skipped(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "r.ipynb"
    path.write_text(make_notebook().replace('"language": "python"', '"language": "R"')
                    .replace('"name": "python"', '"name": "R"'), encoding="utf-8")
    r = cli("check", "--isolated", str(path))
    assert r.code == 0 and r.out == ""


def test_add_noqa_in_a_notebook(cli, nb: Path) -> None:  # type: ignore[no-untyped-def]
    cli("check", "--isolated", "--add-noqa", str(nb))
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    assert cells[1]["source"][3] == "URL = \"https://example.com/a b\"  # noqa: IRI101\n"
    assert cells[1]["outputs"] and cells[0]["source"] == ["See https://example.com/a b\n"]
    assert cli("check", "--isolated", str(nb)).code == 0


def test_folders_are_walked_for_notebooks(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "nbs").mkdir()
    (tmp_path / "nbs" / "a.ipynb").write_text(make_notebook(), encoding="utf-8")
    (tmp_path / ".ipynb_checkpoints").mkdir()  # Jupyter's copies
    (tmp_path / ".ipynb_checkpoints" / "a-checkpoint.ipynb").write_text(make_notebook(), encoding="utf-8")
    r = cli("check", "--isolated", str(tmp_path))
    assert {x.split(":cell")[0] for x in r.out.splitlines()} == {str(tmp_path / "nbs" / "a.ipynb")}
