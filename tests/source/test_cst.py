"""libcst as a second, independent parser: an oracle for our decoder and a cross-check of fixes."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import sysconfig
import tokenize
import unicodedata
import warnings
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from iri_lint import fix as fixmod
from iri_lint.config import Config
from iri_lint.lint import SourceFinding, lint_text
from iri_lint.source import cst as cstmod
from iri_lint.source.cst import CstUnavailable, cst_strings, ftext_value, literal_at, verify_with_cst
from iri_lint.source.edits import Refusal, apply_edits, edit_literal, verify_edit
from iri_lint.source.literals import ScanOptions, find_literals
from iri_lint.source.locate import Locator, PartLocator, SourceFile, locate, split_lines
from iri_lint.source.model import Literal, Reason, SourcePos, UseContext
from iri_lint.source.templates import apply_templates
from iri_lint.source.text import is_embedded

ROOT = Path(__file__).resolve().parents[2]
OWN_FILES = sorted([*(ROOT / "tests" / "flake8" / "fixtures").glob("*.py"), *(ROOT / "examples").rglob("*.py")])
STDLIB = Path(sysconfig.get_paths()["stdlib"])
ALL_OPTIONS = ScanOptions(include_bytes=True, include_docstrings=True)


def _read(path: Path) -> str | None:
    """The file's text (PEP 263 / BOM), or None if it is not valid Python here."""
    data = path.read_bytes()
    try:
        enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(enc)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, UnicodeDecodeError, ValueError, LookupError):
        return None
    return text


def _parse(text: str) -> ast.Module:
    """ast of a module's text (a leading BOM is only accepted in bytes)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text.encode("utf-8") if text.startswith("\ufeff") else text)


def _string_nodes(tree: ast.AST) -> list[ast.expr]:
    """Every str/bytes Constant and JoinedStr, not descending into f-strings (ast has no reliable
    positions inside replacement fields on 3.11)."""
    out: list[ast.expr] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)):
            out.append(node)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def _cst_checked(c: cstmod.CstString) -> str | None:
    """libcst's value in our convention: fields as HOLE, bytes as latin-1."""
    return c.data.decode("latin-1") if c.data is not None else c.template


def oracle(text: str) -> tuple[int, int, list[str]]:
    """Compare ast+decoder with libcst on one module: (literals compared, candidates compared, disagreements)."""
    tree = _parse(text)
    strings = cst_strings(text)
    source = SourceFile(split_lines(text))
    bad: list[str] = []
    compared = 0
    for node in _string_nodes(tree):
        sm = locate(node, source)
        c = literal_at(strings, sm.start, sm.end)
        if c is None:
            bad.append(f"line {node.lineno}: no libcst literal spans {text[sm.start:sm.end]!r}")
        elif (got := _cst_checked(c)) is not None:
            compared += 1
            if got != sm.value:
                bad.append(f"line {node.lineno}: libcst {got!r} != decoder {sm.value!r}")
    candidates = 0
    for lit in find_literals(tree, split_lines(text), options=ALL_OPTIONS):
        if is_embedded(lit):  # an IRI inside prose (text mode): never edited, no literal of its own
            continue
        loc = lit.locator
        assert loc is not None
        base = 0
        if isinstance(loc, PartLocator):  # one IRI of a list of them: its literal is the parent's
            base, loc = loc.base, loc.parent
        lsm = loc.source_map()
        assert lsm is not None
        c = literal_at(strings, lsm.start, lsm.end)
        if c is None:
            bad.append(f"{lit.start}: no libcst literal at the candidate's span")
            continue
        got = _cst_checked(c)
        if got is None:
            continue
        candidates += 1
        checked = apply_templates(got, c.holes, percent_template=loc.percent_template,
                                  format_template=loc.format_template)
        if checked.value[base : base + len(lit.value)] != lit.value:
            bad.append(f"{lit.start}: libcst {checked.value!r} != candidate {lit.value!r}")
    return compared, candidates, bad


# ------------------------------------------------------------------ (a) the oracle


@pytest.mark.parametrize("path", OWN_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_oracle_on_own_fixtures(path: Path) -> None:
    text = _read(path)
    if text is None:
        pytest.skip("deliberately broken fixture")
    _, _, bad = oracle(text)
    assert bad == []


# URL-heavy modules, so that every Python version's sample has IRI candidates to compare
URL_HEAVY = ("urllib/parse.py", "urllib/request.py", "http/cookiejar.py", "test/test_urlparse.py",
             "test/test_urllib.py", "test/test_urllib2.py", "test/test_http_cookiejar.py")


def _stdlib_sample(n: int = 200) -> list[Path]:
    files = sorted(p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts)
    step = max(1, len(files) // n)
    sample = files[::step][:n]
    return sample + [p for p in (STDLIB / f for f in URL_HEAVY) if p.exists() and p not in sample]


# From Python 3.12 the interpreter bounds C recursion apart from sys.setrecursionlimit, and walking
# a libcst tree recurses through C: very deep modules are then CstUnavailable (fixes keep the ast
# check alone, see fix.py). Newer stdlibs may also use grammar libcst does not know yet (3.13's
# type parameter defaults). On 3.11 every file of the sample is compared.
C_RECURSION_BOUNDED = sys.version_info >= (3, 12)


@pytest.mark.slow
def test_oracle_on_stdlib_sample() -> None:
    files = _stdlib_sample()
    assert len(files) >= 150
    compared = candidates = 0
    bad: list[str] = []
    too_deep: list[str] = []
    for path in files:
        text = _read(path)
        if text is None:
            continue  # deliberately broken test inputs
        try:
            c, k, b = oracle(text)
        except CstUnavailable as exc:
            if not (C_RECURSION_BOUNDED and ("recursion" in str(exc) or "cannot parse" in str(exc))):
                raise
            too_deep.append(str(path.relative_to(STDLIB)))
            continue
        compared += c
        candidates += k
        bad.extend(f"{path.relative_to(STDLIB)}:{x}" for x in b)
    assert bad == []
    assert compared > 10_000 and candidates > 100
    assert len(too_deep) <= len(files) // 50, too_deep  # a rare module at most


def test_literals_offsets_through_crlf_cr_bom_and_astral() -> None:
    src = '\ufeffx = ("a"\r\n  "é\\n" f"q{y!r:>{w}}z{{")\r\ny = "😀é"; z = b"\\xff" b"a"\rw = f"{a=}"\n'
    by_text = {src[s.start:s.end]: s for s in cst_strings(src)}
    assert by_text['"😀é"'].value == "😀é"
    whole = by_text['"a"\r\n  "é\\n" f"q{y!r:>{w}}z{{"']
    assert whole.kind == "ConcatenatedString" and whole.value is None and whole.template == "aé\nq0z{"
    assert whole.holes == ((4, 5),) and not whole.in_concatenation
    f = by_text['f"q{y!r:>{w}}z{{"']
    assert f.in_concatenation and [(src[p.start:p.end], p.value) for p in f.static_parts] == [("q", "q"), ("z{{", "z{")]
    assert by_text['b"\\xff" b"a"'].data == b"\xffa"
    assert by_text['f"{a=}"'].template is None  # a debug field: libcst cannot tell
    assert oracle(src)[2] == []


def test_fstring_text_values() -> None:
    assert ftext_value("f", '"', "\\N{EM DASH}{{x}}") == "\u2014{x}"
    assert ftext_value("rf", "'''", "a'\\") == "a'\\"
    assert ftext_value("F", '"', "\\\\{{") == "\\{"


@pytest.mark.slow  # stress: a giant concatenation
def test_giant_implicit_concatenation_within_the_bound() -> None:
    n = 400 if C_RECURSION_BOUNDED else 2500  # libcst nests one level per piece
    src = "X = (\n" + "".join(f"    'piece {i} '\n" for i in range(n)) + ")\n"
    (whole, *pieces) = [s for s in cst_strings(src) if not s.in_concatenation or s.kind == "SimpleString"]
    assert whole.kind == "ConcatenatedString" and whole.value == "".join(f"piece {i} " for i in range(n))
    assert len(pieces) == n
    assert sys.getrecursionlimit() < cstmod.RECURSION_BOUND  # restored


def test_beyond_the_bound_and_syntax_errors_are_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cstmod, "RECURSION_BOUND", 1000)
    src = "X = (\n" + "".join(f"    'p{i}'\n" for i in range(2500)) + ")\n"
    with pytest.raises(CstUnavailable):
        cst_strings(src)
    assert verify_with_cst(src, 10, 14, "p0") is None
    with pytest.raises(CstUnavailable):
        cst_strings("x = (\n")


# ------------------------------------------------------------------ (b) verify_with_cst


def test_verify_accepts_good_fixes_and_rejects_wrong_ones() -> None:
    new = 'u = "http://ex.com/a%20b"\n'
    assert verify_with_cst(new, 4, 25, "http://ex.com/a%20b") is True
    assert verify_with_cst(new, 4, 25, "http://ex.com/a b") is False
    assert verify_with_cst(new, 4, 24, "http://ex.com/a%20b") is False  # no literal spans that
    assert verify_with_cst("u = (\n", 4, 25, "x") is None  # libcst cannot parse: no objection
    fs = 'u = f"http://{h}/%7e"\n'
    assert verify_with_cst(fs, 4, 21, "http://0/%7e") is None  # run-time value unknown
    assert verify_with_cst(fs, 4, 21, "http://0/%7e", percent_template=False) is True
    assert verify_with_cst(fs, 4, 21, "http://0/%7E", percent_template=False) is False
    pct = 'u = "http://h/%%25%s" % x\n'
    assert verify_with_cst(pct, 4, 21, "http://h/%250", percent_template=True) is True
    held = 'u = "http://h/%%s/%s" % x\n'  # ("%%s" makes "%s": a placeholder of the value, a hole)
    assert verify_with_cst(held, 4, 21, "http://h/0/0", percent_template=True) is True
    assert verify_with_cst('u = b"http://h/\\xe9"\n', 4, 20, "http://h/\u00e9") is True


def _lint(text: str) -> list[SourceFinding]:
    return lint_text(text, Config())


def test_fix_text_keeps_a_fix_both_parsers_accept() -> None:
    src = 'import requests\nrequests.get(\n    "https://example.com/"\n    "a b")\n'
    run = fixmod.fix_text(src, _lint, unsafe=True)
    assert run.changed and "a%20b" in run.text


def test_fix_text_drops_a_fix_libcst_disagrees_with(monkeypatch: pytest.MonkeyPatch) -> None:
    src = 'import requests\nrequests.get("https://example.com/a b")\nrequests.get("https://example.com/c d")\n'
    calls: list[tuple[int, int, str]] = []

    def disagree_on_second(strings, start, end, expected, **kw):  # type: ignore[no-untyped-def]
        calls.append((start, end, expected))
        assert literal_at(strings, start, end) is not None  # the hook computes the new span right
        return "c%20d" not in expected

    monkeypatch.setattr(fixmod, "verdict", disagree_on_second)  # as fix.py imported it
    run = fixmod.fix_text(src, _lint, unsafe=True)
    assert "a%20b" in run.text and "c d" in run.text
    assert any("libcst" in why.reason for why in run.not_applied.values())
    assert calls


# ------------------------------------------------------------------ (c) both parsers agree on random edits

_ALPHABET = st.characters(codec="utf-8") | st.sampled_from(
    list("\\'\"\n\r\t{}%$<>é😀\x00\x7f\xa0\u2014")
)
_STYLES = st.sampled_from(["", "r", "b", "rb", "f", "rf", "u"])
_QUOTES = st.sampled_from(["'", '"', "'''", '"""'])
_HOW = st.sampled_from(["plain", "x", "u", "U", "octal", "N", "short"])
_SHORT = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v"}


def _name(c: str) -> str:
    try:
        return unicodedata.name(c)
    except ValueError:
        return ""


def _render_char(c: str, how: str, q: str, prefix: str) -> str | None:
    """``c`` in a literal of this prefix and quote, or None if it cannot be written that way."""
    o, raw, byt, fstr = ord(c), "r" in prefix, "b" in prefix, "f" in prefix
    if byt and o > 0xFF:
        return None
    plain = c.replace("{", "{{").replace("}", "}}") if fstr else c
    if raw:
        ok = c not in "\\\r" + q and ((c == "\n" and len(q) == 3) or c.isprintable()) and (not byt or o < 0x80)
        return plain if ok else None
    if how == "short" and c in _SHORT:
        return _SHORT[c]
    if how == "x" and o < 0x100:
        return f"\\x{o:02x}"
    if how == "octal" and o < 0o400:
        return f"\\{o:03o}"
    if how == "u" and not byt and o < 0x10000:
        return f"\\u{o:04x}"
    if how == "N" and not byt and (name := _name(c)):
        return "\\N{" + name + "}"
    if (how == "plain" and c not in "\\\r" + q[0] and (c != "\n" or len(q) == 3) and c.isprintable()
            and (not byt or o < 0x80)):
        return plain
    return f"\\x{o:02x}" if o < 0x100 else None if byt else f"\\U{o:08x}"


def _literal(value: str, hows: list[str], prefix: str, q: str, fields: list[int]) -> str | None:
    parts = []
    for i, c in enumerate(value):
        if i in fields:
            parts.append("{x}")
        r = _render_char(c, hows[i % len(hows)] if hows else "plain", q, prefix)
        if r is None:
            return None
        parts.append(r)
    return prefix + q + "".join(parts) + q


@settings(max_examples=250, deadline=None)
@given(
    value=st.text(_ALPHABET, max_size=20),
    hows=st.lists(_HOW, max_size=20),
    prefix=_STYLES,
    q=_QUOTES,
    fields=st.lists(st.integers(0, 19), max_size=2),
    cut=st.tuples(st.integers(0, 30), st.integers(0, 30)),
    replacement=st.text(_ALPHABET, max_size=6),
    before=st.sampled_from(["", 'z = "😀𝔸é"; ', "if 1:\r\n\t", "x = 1\r"]),
)
def test_hypothesis_both_parsers_verify_edits_alike(value: str, hows: list[str], prefix: str, q: str,
                                                    fields: list[int], cut: tuple[int, int], replacement: str,
                                                    before: str) -> None:
    if "f" not in prefix:
        fields = []
    lit_src = _literal(value, hows, prefix, q, fields)
    assume(lit_src is not None)
    assert lit_src is not None
    src = f"{before}url = {lit_src}\n"
    tree = _parse(src)
    node = next(n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "url")
    source = SourceFile(split_lines(src))
    sm = locate(node, source)
    t = apply_templates(sm.value, sm.holes)
    lit = Literal(t.value, Reason.URL_NAME, UseContext.UNKNOWN, "IRI-reference", SourcePos(1, 0), SourcePos(1, 0),
                  holes=t.holes, is_fstring="f" in prefix, locator=Locator(node, source, t.index_map))
    a, b = sorted(min(x, len(t.value)) for x in cut)
    edits = edit_literal(lit, a, b, replacement)
    assume(not isinstance(edits, Refusal))
    assert not isinstance(edits, Refusal)
    out = apply_edits(src, edits)
    delta = sum(len(e.new) - (e.end - e.start) for e in edits)
    intended = t.value[:a] + replacement + t.value[b:]
    for expected in (intended, intended + "x"):
        by_ast = verify_edit(src, out, lit, expected)
        by_cst = verify_with_cst(out, sm.start, sm.end + delta, expected, percent_template=False)
        assert by_cst is None or by_cst == by_ast, (out, expected, by_ast, by_cst)
    if not set("%{}$<") & set(value + replacement):  # no template syntax: the edit must be exact
        assert verify_edit(src, out, lit, intended)
        assert verify_with_cst(out, sm.start, sm.end + delta, intended, percent_template=False) in (True, None)


# ------------------------------------------------------------------ (d) plain check never imports libcst

PROBE = """
import sys
from iri_lint.cli import main
main([{args}])
print("LIBCST:" + str("libcst" in sys.modules))
"""


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "imported"), [((), False), (("--diff", "--unsafe-fixes"), True)])
def test_only_fixing_imports_libcst(tmp_path: Path, mode: tuple[str, ...], imported: bool) -> None:
    f = tmp_path / "m.py"
    f.write_text('import requests\nrequests.get("https://example.com/a b")\n', encoding="utf-8")
    args = ", ".join(repr(a) for a in ("check", "--isolated", "--exit-zero", *mode, str(f), str(ROOT / "examples")))
    p = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], capture_output=True, text=True, cwd=ROOT,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == f"LIBCST:{imported}"
