"""Rule IRI901: noqa codes that silence nothing, read as flake8 reads noqa, and their fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from iri_lint.config import Config
from iri_lint.fix import fix_text
from iri_lint.lint import SourceFinding, lint_text
from iri_lint.noqa import noqa_comments, without_codes

ON = Config(extend_select=("IRI901",))


def unused(text: str, config: Config = ON) -> list[tuple[int, int, str]]:
    return [(f.line, f.col, f.finding.message) for f in lint_text(text, config) if f.code == "IRI901"]


def lint(text: str) -> list[SourceFinding]:
    return lint_text(text, ON)


@pytest.mark.parametrize("text", [
    'u = "https://example.com/a b"  # noqa: IRI101\n',  # used
    'u = "https://example.com/a b"  # noqa: IRI1\n',  # a prefix, used (flake8: startswith)
    'u = "https://example.com/"  # noqa\n',  # bare: may silence another tool
    'u = "https://example.com/"  # noqa: E501\n',  # another tool's code
    'u = "https://example.com/"  # noqa: IRI206\n',  # an opt-in rule that is off: another run may enable it
    'u = "https://example.com/"  # noqa: IRI901\n',  # this rule itself
    'url = """https://example.com/\na b"""  # noqa: IRI101\n',  # the finding on another line of the statement
    "# iri-lint: noqa\nu = 'https://example.com/'  # noqa: IRI101\n",  # the whole file silenced
])
def test_used_or_unjudgeable_codes_are_quiet(text: str) -> None:
    assert unused(text) == []


def test_unused_and_unknown_codes_are_one_finding_per_comment() -> None:
    text = 'u = "https://example.com/"  # noqa: IRI101, E501, IRI999\n'
    [(line, col, message)] = unused(text)
    assert (line, col) == (1, text.index("IRI101"))
    assert "IRI101 (nothing to silence)" in message and "IRI999 (no iri-lint rule)" in message
    assert "E501" not in message


def test_opt_in_and_quiet_in_the_default_set() -> None:
    text = 'u = "https://example.com/"  # noqa: IRI101\n'
    assert unused(text, Config()) == []
    assert unused("x = 1  # noqa: IRI101\n") == [(1, 15, "unused noqa: IRI101 (nothing to silence); a suppression "
                                                        "that silences nothing hides the next finding on this line")]


def test_a_parenthesised_line_needs_its_own_comment_as_in_flake8() -> None:
    text = 'f(\n    "https://example.com/a b",\n)  # noqa: IRI101\n'
    assert [f.code for f in lint(text)] == ["IRI101", "IRI901"]


@pytest.mark.parametrize(("before", "after"), [
    ('u = "https://e.example/"  # noqa: IRI101, E501\n', 'u = "https://e.example/"  # noqa: E501\n'),
    ('u = "https://e.example/"  # noqa: E501,IRI101\n', 'u = "https://e.example/"  # noqa: E501\n'),
    ('u = "https://e.example/"  # noqa: IRI101\n', 'u = "https://e.example/"\n'),
    ('u = "https://e.example/"\t# noqa:IRI101\r\nx = 1\r\n', 'u = "https://e.example/"\r\nx = 1\r\n'),
    ('u = "https://e.example/"  # noqa: IRI101 -- a reason\n', 'u = "https://e.example/"  # -- a reason\n'),
    ('u = "https://e.example/"  # type: ignore  # noqa: IRI101\n', 'u = "https://e.example/"  # type: ignore\n'),
    ('if x:\n    # noqa: IRI101\n    pass\n', "if x:\n\n    pass\n"),
])
def test_the_fix_removes_only_what_is_unused(before: str, after: str) -> None:
    run = fix_text(before, lint)
    assert run.text == after
    assert [a.finding.code for a in run.applied] == ["IRI901"] and run.remaining == []


def test_a_literal_fix_that_uses_up_a_code_removes_it_in_the_same_run() -> None:
    """IRI306's fix decodes '%7e' to '~', so the IRI305 (lowercase hex) it silenced is gone: its
    code goes too, once the literals settle; a code still in use stays."""
    config = Config(extend_select=("IRI901", "IRI305", "IRI306"))
    text = ('import requests\nrequests.get("https://e.example/%7e")  # noqa: IRI305\n'
            'requests.get("https://e.example/%7e")  # noqa: IRI305, IRI306\n')
    run = fix_text(text, lambda t: lint_text(t, config))
    assert run.text == ('import requests\nrequests.get("https://e.example/~")\n'
                        'requests.get("https://e.example/%7e")  # noqa: IRI305, IRI306\n')
    assert [a.finding.code for a in run.applied] == ["IRI306", "IRI901"]


def test_comments_are_read_as_tokens_not_as_text() -> None:
    text = 's = "# noqa: IRI101"\nt = 1  # noqa: IRI101, IRI102 \n'
    [c] = noqa_comments(text)
    assert (c.line, c.col, c.comment, [code for code, _, _ in c.codes]) == (2, 7, "# noqa: IRI101, IRI102",
                                                                            ["IRI101", "IRI102"])
    assert without_codes(c, ["IRI101"]) == "  # noqa: IRI102"
    assert noqa_comments("x = (\n") == []  # (a file that does not tokenize has none)


@pytest.mark.slow
def test_flake8_reports_what_the_cli_reports(tmp_path: Path) -> None:
    """flake8 gives the plugin every file (with IRI901 selected, also one holding no URL)."""
    (tmp_path / "a.py").write_text('u = "https://e.example/"  # noqa: IRI101\nx = 1  # noqa: IRI102\n')
    res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--extend-select", "IRI901", "a.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert [line.split(" ")[:2] for line in res.stdout.splitlines()] == [["a.py:1:35:", "IRI901"],
                                                                         ["a.py:2:16:", "IRI901"]]
    (tmp_path / "b.py").write_text("x = 1  # noqa: IRI102\n")  # no URL: the engine is needed all the same
    res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--extend-select", "IRI901", "b.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.stdout.split(" ")[:2] == ["b.py:1:16:", "IRI901"]
    res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "b.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.stdout == ""


@pytest.mark.parametrize(("args", "unused"), [
    (["--select", "IRI1,IRI901"], False),  # IRI802 not selected: flake8 would drop it, so no noqa of it is unused
    (["--extend-select", "IRI901", "--ignore", "IRI802"], False),
    (["--extend-select", "IRI901", "--extend-ignore", "IRI8"], False),
    (["--extend-select", "IRI901,IRI802", "--ignore", "IRI8"], True),  # the longer prefix decides, as in flake8
    (["--extend-select", "IRI901"], True),
])
def test_flake8_reads_a_noqa_of_a_rule_it_drops_as_the_cli_does(tmp_path: Path, args: list[str],
                                                                  unused: bool) -> None:
    """IRI901 never reports a code of a rule that is not enabled; under flake8 what flake8's own selection
    drops is not enabled (fixtures37, repro 01)."""
    text = 'import requests\nHOST = "https://h.example"\nrequests.get(HOST + "/single")  # noqa: IRI802\n'
    (tmp_path / "m.py").write_text(text)
    res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", *args, "m.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ("IRI901" in res.stdout) is unused, res.stdout + res.stderr
