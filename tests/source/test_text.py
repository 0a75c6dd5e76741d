"""Text mode: IRIs inside docstrings and prose (RFC 3987 sec. 7.3; RFC 3986 appendix C)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from iri_lint.config import Config
from iri_lint.lint import lint_text
from iri_lint.source import text as text_mod
from iri_lint.source.candidates import is_absolute_candidate, is_bare_prefix
from iri_lint.source.literals import ScanOptions, find_literals
from iri_lint.source.locate import split_lines
from iri_lint.source.text import extract, is_embedded

TEXT = Config(extend_select=("IRI7",))


def found(text: str) -> list[str]:
    return [text[s.start:s.end] for s in extract(text)]


@pytest.mark.parametrize(("text", "iris"), [
    ("See <https://example.com/a b> now.", ["https://example.com/a b"]),
    ("See <urn:isbn:0451450523>.", ["urn:isbn:0451450523"]),
    ('Use "https://example.com/x." here', ["https://example.com/x."]),
    ("Go to https://example.com/a.", ["https://example.com/a"]),
    ("Go to https://example.com/a?!;:,", ["https://example.com/a"]),
    ("(see https://example.com/a)", ["https://example.com/a"]),
    ("(see http://x/a_(b))", ["http://x/a_(b)"]),
    ("[http://x/y]", ["http://x/y"]),
    ("'http://x/y'", ["http://x/y"]),
    ("{'https': 'http://1.2.3.4:8080'}", ["http://1.2.3.4:8080"]),  # (outside38 repro 01: a dict shown in text)
    ("{'a': 'http://x/{id}'}", ["http://x/{id}"]),
    ("Mail mailto:ops@example.com, or urn:isbn:0451450523.", ["mailto:ops@example.com", "urn:isbn:0451450523"]),
    ("one http://a.example/ two ftp://b.example/x three", ["http://a.example/", "ftp://b.example/x"]),
    ("Paris: https://例え.jp/パス and more", ["https://例え.jp/パス"]),
    ("``https://example.com/x``", ["https://example.com/x"]),
    ("`Link <https://example.com/>`_", ["https://example.com/"]),
    ("custom://host/path", ["custom://host/path"]),
    ("<custom://host/a b>", ["custom://host/a b"]),
    ("[http://x.example/a#b](dct:Standard) entities", ["http://x.example/a#b"]),
])
def test_extraction(text: str, iris: list[str]) -> None:
    assert found(text) == iris


@pytest.mark.parametrize("text", [
    "Example: a thing", "Note: see below", "std::string", "C:\\dir", "module:attr", "rdf:type",
    "starts with http://", "a http: prefix", "time 12:30", "<std::vector>", "e.g. foo:bar",
    'class="x"', "<int:id>x", "<foaf:name>Some Body</foaf:name>", "<prefix:element>", "<bnode:b0001>",
])
def test_not_iris(text: str) -> None:
    assert found(text) == []


def test_extraction_is_linear_on_hostile_text() -> None:
    text = "a:" * 20000 + "(" * 20000 + "http://x/" + ")" * 20000 + "." * 20000
    assert found(text) == ["http://x/" + ")" * 0]


def cols(src: str, cfg: Config = TEXT) -> list[tuple[int, int, str]]:
    return [(f.line, f.col, f.code) for f in lint_text(src, cfg)]


def test_multiline_docstring_reports_on_the_line_of_the_character() -> None:
    src = 'def f():\n    """Summary.\n\n    See <https://example.com/a b>.\n    """\n'
    assert cols(src) == [(4, 30, "IRI710")]


def test_columns_through_escapes() -> None:
    # \t and \u00e9 are escapes in the source: the finding points at the source character
    src = '"""x\\u00e9\\t See https://example.com/a\\x7cb."""\n'
    got = lint_text(src, TEXT)
    assert [(f.line, f.col, f.code) for f in got] == [(1, src.index("\\x7c"), "IRI710")]
    assert "IRI103" in got[0].finding.message


def test_message_names_the_underlying_rule() -> None:
    (f,) = lint_text('"""See <https://example.com/a b>."""\n', TEXT)
    assert f.finding.message.startswith("in text: IRI101 space-in-iri: ")
    assert f.finding.fix is None


def test_several_iris_and_non_ascii() -> None:
    src = '"""A https://例え.jp/a b c, then <http://x.example/é|z> and htps://example.com/."""\n'
    assert cols(src) == [(1, src.index("|"), "IRI710"), (1, src.index("htps"), "IRI760")]


def test_placeholders_become_holes() -> None:
    src = 'def f():\n    """Fetch http://{host}:%s/a%zz and http://x/{name}/a|y."""\n'
    got = cols(src)
    assert got == [(2, src.splitlines()[1].index("%zz"), "IRI710"), (2, src.splitlines()[1].index("|"), "IRI710")]


def test_prose_string_literal() -> None:
    src = 'msg = "http://example.com/ is down, see <http://example.com/st atus> now"\n'
    assert cols(src) == [(1, src.index("st atus") + 2, "IRI710")]


def test_regexes_stay_out() -> None:
    src = 'import re\nP = re.compile(r"http://(\\w+) is a (.*) thing https://a b")\n'
    assert cols(src) == []


def test_underlying_selection_applies() -> None:
    src = '"""See <https://example.com/a b> and <https://exa mple.com/%zz>."""\n'
    assert {c for _, _, c in cols(src)} == {"IRI710"}
    assert cols(src, Config(extend_select=("IRI7",), ignore=("IRI101",))) == [(1, src.index("%zz"), "IRI710")]
    # a text family selected on its own brings its family's default rules
    assert {c for _, _, c in cols(src, Config(select=("IRI710",)))} == {"IRI710"}
    assert cols(src, Config(select=("IRI720",))) == []  # the bidi family has nothing to say here
    assert cols(src, Config(text_mode=True)) == cols(src)
    assert cols(src, Config(extend_select=("IRI7",), ignore=("IRI7",))) == []


def test_default_config_finds_nothing_in_prose() -> None:
    src = ('"""See <https://example.com/a b> and htps://x.example/."""\n'
           'def f():\n    """http://x/a b c d e."""\n'
           'msg = "http://example.com/ is down, see <http://example.com/st atus> now"\n')
    assert cols(src, Config()) == []
    assert cols(src, Config(extend_select=("IRI3",))) == []


def test_code_literals_keep_their_own_codes_in_text_mode() -> None:
    src = '"""Doc: <http://x/a b>."""\nURL = "https://example.com/a b"\n'
    assert cols(src) == [(1, 19, "IRI710"), (2, 28, "IRI101")]


def _stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(root.glob("*.py"))[:120]


@pytest.mark.slow  # stress: the standard library sample
def test_text_mode_off_changes_nothing_on_the_stdlib_sample() -> None:
    """With text mode off, find_literals gives what it gave before (no IRI7 code: no extraction)."""
    from iri_lint.lint import scan_options

    opts = scan_options(Config())
    assert opts == ScanOptions() and not opts.include_docstrings
    on = scan_options(TEXT)
    assert on.include_docstrings
    for path in _stdlib_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        lines = split_lines(text)
        off = [(lit.value, lit.start, lit.end) for lit in find_literals(tree, lines, options=opts)]
        with_text = [lit for lit in find_literals(tree, lines, options=on)]
        assert [(lit.value, lit.start, lit.end) for lit in with_text if not is_embedded(lit)] == off, path
        assert not any(is_embedded(lit) for lit in find_literals(tree, lines, options=opts))


FIXTURE = '''"""Module docs.

See <https://example.com/a b> for details.
"""


def f() -> None:
    """Mirror at htps://example.com/files."""
'''


@pytest.mark.slow
def test_flake8_end_to_end(tmp_path: Path) -> None:
    (tmp_path / "fx.py").write_text(FIXTURE, encoding="utf-8")

    def run(*args: str) -> str:
        res = subprocess.run([sys.executable, "-m", "flake8", "--isolated", *args, "fx.py"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120)
        assert "Traceback" not in res.stderr, res.stderr
        return res.stdout

    assert run() == ""
    space = "fx.py:3:27: IRI710 in text: IRI101 space-in-iri: "
    typo = "fx.py:8:18: IRI760 in text: IRI603 scheme-typo: "
    for args in (("--extend-select", "IRI7"), ("--iri-text-mode",), ("--extend-select", "IRI7", "--jobs=2")):
        out = run(*args).splitlines()
        assert len(out) == 2 and out[0].startswith(space) and out[1].startswith(typo), (args, out)
    out = run("--extend-select", "IRI710").splitlines()
    assert len(out) == 1 and out[0].startswith(space)
    assert run("--extend-select", "IRI7", "--extend-ignore", "IRI101").splitlines()[0].startswith(typo)


def test_a_text_family_selected_alone_brings_its_default_rules() -> None:
    from iri_lint.config import Config
    from iri_lint.lint import lint_text

    src = 'def f():\n    """See <http://example.com/a b/c> for details."""\n'
    assert [f.code for f in lint_text(src, Config(select=("IRI710",)))] == ["IRI710"]
    assert lint_text(src, Config(select=("IRI710",), ignore=("IRI101",))) == []
    assert lint_text(src, Config()) == []


# -- extract against the plain reference (a search and a copy per scheme), and linear --------------

_REF_SCHEME = re.compile(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]*+:")


def ref_extract(text: str) -> list[tuple[int, int, str]]:
    """extract as first written: every scheme searches ahead and copies its value."""
    out, pos = [], 0
    while (m := _REF_SCHEME.search(text, pos)) is not None:
        a, e = m.start(), m.end()
        before = text[a - 1] if a else ""
        span = _ref_angle(text, a, e) if before == "<" else None
        span = span or _ref_bare(text, a, e, quoted=before == '"')
        if span is None:
            pos = e
            continue
        out.append(span)
        pos = max(span[1], e)
    return out


def _ref_angle(text: str, a: int, e: int) -> tuple[int, int, str] | None:
    m = re.compile(r"[<>\"\r\n]").search(text, e)
    if m is None or text[m.start()] != ">":
        return None
    value = text[a : m.start()]
    ok = is_absolute_candidate(value) and not is_bare_prefix(value)
    return (a, m.start(), "<") if ok else None


def _ref_bare(text: str, a: int, e: int, *, quoted: bool) -> tuple[int, int, str] | None:
    m = re.compile(r"[\s<>\"]" if quoted else r"[\s<>\"`]").search(text, e)
    end = m.start() if m is not None else len(text)
    closed = quoted and end < len(text) and text[end] == '"'
    link = text.find("](", e, end)
    if link >= 0:
        end, closed = link, False
    if not closed:
        counts: dict[str, int] | None = None
        while end > a:
            c = text[end - 1]
            if c in ".,;:!?":
                end -= 1
                continue
            if c in ")]}'":
                if counts is None:
                    piece = text[a:end]
                    counts = {ch: piece.count(ch) for ch in "()[]{}'"}
                opener = {")": "(", "]": "[", "}": "{"}.get(c)
                if (counts[c] % 2 == 1) if opener is None else counts[c] > counts[opener]:
                    counts[c] -= 1
                    end -= 1
                    continue
            break
    value = text[a:end]
    if not is_absolute_candidate(value) or is_bare_prefix(value):
        return None
    return a, end, '"' if closed else ""


_BITS = ["http", "a", "mailto", "urn", ":", "//", "/", "x", ".", ",", ";", "!", "?", ")", "(", "]", "[", "}", "{",
         "'", '"', "<", ">", " ", "\n", "`", "](", "http://e.com/p", "a:b", "tel:1", "data:", "%"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_BITS), max_size=30).map("".join))
@example("http:http//")  # (a '/' past the scheme's first 2 characters: no QName, once missed)
@example("http:Name")
def test_extract_agrees_with_the_reference(text: str) -> None:
    assert [(s.start, s.end, s.delimiter) for s in extract(text)] == ref_extract(text)


@pytest.mark.parametrize("unit", ["a:", "ab:/", "a:)", "<a:", '"a:', "a:](", "x.", "http://x/ ", "http:ab"])
@pytest.mark.slow  # linear time: long inputs
def test_extract_reads_each_character_a_few_times(monkeypatch: pytest.MonkeyPatch, unit: str) -> None:
    scanned = [0]
    real = text_mod._Ahead

    class Counting(real):  # type: ignore[misc, valid-type]
        def next(self, what: re.Pattern[str] | str, pos: int) -> int:
            hit = self.found.get(what)
            at: int = super().next(what, pos)
            if hit is None or not hit[0] <= pos <= hit[1]:
                scanned[0] += at - pos
            return at

    stripped = [0]
    real_strip = text_mod._strip_trailing

    def counting_strip(text: str, a: int, end: int) -> int:
        stripped[0] += end - a
        return real_strip(text, a, end)

    monkeypatch.setattr(text_mod, "_Ahead", Counting)
    monkeypatch.setattr(text_mod, "_strip_trailing", counting_strip)
    value = unit * (30_000 // len(unit))
    list(extract(value))
    assert scanned[0] <= 3 * len(value)
    assert stripped[0] <= 3 * len(value)
    short = unit * (3_000 // len(unit))
    assert [(s.start, s.end, s.delimiter) for s in extract(short)] == ref_extract(short)
