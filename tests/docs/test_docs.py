"""The docs cover every rule, option and public name, are not stale, their examples run, and they build."""

from __future__ import annotations

import ast
import dataclasses
import doctest
import html
import importlib.util
import inspect
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import iri_lint
from iri_lint.config import OPTIONS, Config
from iri_lint.rules.model import Example, Rule
from iri_lint.rules.registry import all_rules

RULES = all_rules()

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_docs_are_fresh() -> None:
    stale = _gen_docs().stale_files()
    assert not stale, f"stale generated docs {stale}: run python scripts/gen_docs.py"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_has_a_page(rule: Rule) -> None:
    page = DOCS / "rules" / f"{rule.code}.md"
    assert page.is_file(), f"{rule.code} has no page: run python scripts/gen_docs.py"
    text = page.read_text(encoding="utf-8")
    for part in (rule.name, rule.what, rule.why, rule.section, rule.fix_text, rule.fix_safety_text):
        assert part in text, f"{page.name} lacks {part!r}"
    assert f"]({rule.code}.md)" in (DOCS / "rules" / "index.md").read_text(encoding="utf-8")


def test_every_option_is_documented() -> None:
    keys = {o.key for o in OPTIONS}
    missing_model = [f.name for f in dataclasses.fields(Config) if f.name.replace("_", "-") not in keys]
    assert not missing_model, f"Config fields without an Option (and so without docs): {missing_model}"
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    for o in OPTIONS:
        assert o.help.strip(), f"option {o.key} has no help text"
        assert f"## `{o.key}`" in text and f"`{o.flag}`" in text, f"option {o.key} is not documented"


@pytest.mark.parametrize("name", iri_lint.__all__)
def test_every_public_name_is_documented(name: str) -> None:
    obj = getattr(iri_lint, name)
    if name != "__version__":
        assert (inspect.getdoc(obj) or "").strip(), f"iri_lint.{name} has no docstring"
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    # mkdocstrings renders it from the code (test_mkdocs_build_is_clean checks the HTML)
    assert re.search(rf"^::: iri_lint\.{re.escape(name)}$", text, re.M), f"iri_lint.{name} is not in docs/api.md"


def _sections(page: str) -> dict[str, list[str]]:
    """The fenced Python blocks of a rule page, by the line that introduces them."""
    out: dict[str, list[str]] = {}
    for m in re.finditer(r"^(## Example|Use instead:|Valid:|Also valid:)\n\n```python\n(.*?)\n```$", page, re.M | re.S):
        out.setdefault(m.group(1), []).append(m.group(2))
    return out


def _shown_iris(block: str) -> list[str]:
    """The IRIs a block of example code shows: first arguments, assigned values, docstrings."""
    out = []
    for node in ast.walk(ast.parse(block)):
        if isinstance(node, ast.Call) and node.args:
            value = node.args[0]
        elif isinstance(node, ast.Assign):
            value = node.value
        elif isinstance(node, ast.FunctionDef) and isinstance(node.body[0], ast.Expr):
            value = node.body[0].value
        else:
            continue
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            out.append(value.value)
    return out


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_no_page_shows_an_example_twice(rule: Rule) -> None:
    """A valid example that is one of the fixes, or two equal fixes, are shown once."""
    sections = _sections((DOCS / "rules" / f"{rule.code}.md").read_text(encoding="utf-8"))
    assert sections.get("## Example") or not rule.invalid, f"{rule.code}'s page lacks its example"
    shown = [iri for head in ("Use instead:", "Valid:", "Also valid:") for block in sections.get(head, [])
             for iri in _shown_iris(block)]
    assert shown, f"{rule.code}'s page shows no valid IRI"
    repeated = sorted({iri for iri in shown if shown.count(iri) > 1})
    assert not repeated, f"{rule.code}'s page shows {repeated} more than once"


def test_a_valid_example_equal_to_a_fix_is_dropped() -> None:
    gen = _gen_docs()
    rule = next(r for r in RULES if r.code == "IRI103")
    assert rule.valid[0].text == rule.invalid[0].fixed  # the case this test is about
    page = gen.rule_page(rule)
    assert page.count(f'"{rule.valid[0].text}"') == 1 and "Also valid:" not in page


def _unmatched_backticks(paragraph: str) -> list[str]:
    """Backtick runs that open no code span (CommonMark 6.1: a run of n backticks is closed by the
    next run of exactly n; backslash escapes work outside spans only)."""
    bad, i, n = [], 0, len(paragraph)
    while i < n:
        c = paragraph[i]
        if c == "\\":
            i += 2
        elif c != "`":
            i += 1
        else:
            j = i
            while j < n and paragraph[j] == "`":
                j += 1
            closer = re.compile(f"(?<!`){'`' * (j - i)}(?!`)").search(paragraph, j)
            if closer is None:
                bad.append(paragraph[max(0, i - 30) : i + 30])
                i = j
            else:
                i = closer.end()
    return bad


def _paragraphs(markdown: str) -> list[str]:
    """Text blocks outside fenced code, split at blank lines (a table is one block)."""
    out, block, fenced = [], [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.strip():
            block.append(line)
        elif block:
            out.append("\n".join(block))
            block = []
    if block:
        out.append("\n".join(block))
    return out


def test_generated_pages_have_balanced_code_spans() -> None:
    """A stray backtick (IRI103's summary once had one inside a span) garbles the rest of the line."""
    pages = [p for p in _gen_docs().expected_files() if p.suffix == ".md"]
    assert len(pages) > len(RULES)
    for page in pages:
        for para in _paragraphs(page.read_text(encoding="utf-8")):
            assert not _unmatched_backticks(para), f"{page.name}: unmatched backticks in {para!r}"


def test_unmatched_backticks_are_found() -> None:
    assert _unmatched_backticks("Unwise character (`\\\\ ^ ` { | }`) in an IRI")
    assert not _unmatched_backticks("Unwise character (`\\\\`, `^`, `` ` ``, `{`, `|` or `}`) in an IRI")


@pytest.mark.parametrize("rule", [r for r in RULES if r.code != "IRI100"], ids=lambda r: r.code)
def test_page_examples_do_what_they_say_in_source(rule: Rule) -> None:
    """Each example as its page shows it (imports included), linted as a module: the reported ones
    fire (a default rule's with the default selection, as a reader who copies it runs it; fixtures69), the
    fixes and the valid ones do not. IRI100 has no example (nothing valid triggers it)."""
    from iri_lint.config import Config
    from iri_lint.lint import lint_text

    gen = _gen_docs()

    def codes(ex: Example, value: str, reported: bool = False) -> set[str]:
        module = "\n".join(gen.example_module([gen.example_code(ex, value, rule.code, reported=reported)]))
        selected = () if rule.default and reported else (rule.code,)
        return {f.code for f in lint_text(module + "\n", Config(extend_select=selected, profile=ex.profile))}

    # examples of another kind than IRI-reference are calls of iri_lint.check (the source never
    # checks a literal as `IRI` or `absolute-IRI`): tests/rules/test_catalog.py runs them
    in_source = [ex for ex in rule.invalid if ex.kind == "IRI-reference"]
    assert in_source or all(ex.kind != "IRI-reference" for ex in rule.invalid)
    for ex in in_source:
        assert rule.code in codes(ex, ex.text, reported=True), f"{rule.code} does not fire on its example {ex.text!r}"
        if ex.fixed is not None:
            assert rule.code not in codes(ex, ex.fixed), f"{rule.code} fires on its fix {ex.fixed!r}"
    for ex in rule.valid:
        if ex.kind == "IRI-reference":
            assert rule.code not in codes(ex, ex.text), f"{rule.code} fires on its valid example {ex.text!r}"


def test_ruff_treats_noqa_iri_codes_as_docs_ruff_md_says(tmp_path: Path) -> None:
    """docs/ruff.md describes what ruff's RUF100 and RUF102 do with `# noqa: IRI101`: keep it true."""
    ruff = Path(sys.executable).parent / "ruff"
    if not ruff.exists():
        pytest.skip("ruff is not installed (it is in the lint extra)")
    source = "x = 1  # noqa: IRI101\ny = 2  # noqa: IRI101, E501\n"

    def run(select: str, *config: str, fix: bool = False) -> tuple[str, str]:
        path = tmp_path / "m.py"
        path.write_text(source, encoding="utf-8")
        args = [str(ruff), "check", "--isolated", "--no-cache", "--select", select, "--output-format", "concise",
                *(a for c in config for a in ("--config", c)), *(["--fix"] if fix else []), str(path)]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
        return proc.stdout, path.read_text(encoding="utf-8")

    out, _ = run("RUF100")
    assert "m.py:1:" not in out and "m.py:2:8: RUF100" in out, out  # unknown codes: not RUF100's
    _, fixed = run("RUF100", fix=True)
    assert fixed == "x = 1  # noqa: IRI101\ny = 2\n", fixed  # ... but its fix drops the whole comment
    out, _ = run("RUF102")
    assert "m.py:1:8: RUF102" in out and "IRI101" in out, out
    external = 'lint.external = ["IRI"]'
    out, fixed = run("RUF100,RUF102", external, fix=True)
    assert fixed == "x = 1  # noqa: IRI101\ny = 2  # noqa: IRI101\n", (out, fixed)
    source = 'u = "https://example.com/a b"  # noqa\n'  # a bare noqa: RUF100 deletes it, external or not
    out, fixed = run("RUF100", external, fix=True)
    assert fixed == 'u = "https://example.com/a b"\n', (out, fixed)


def test_hand_written_pages_exist() -> None:
    for page in ("index", "getting-started", "iris", "ruff", "vscode", "api", "configuration", "files",
                 "notebooks", "html-report"):
        assert (DOCS / f"{page}.md").is_file(), page


@pytest.mark.parametrize("page", ["api.md", "iris.md"])
def test_examples_in_docs_run(page: str) -> None:
    # code fences would be read as expected output: blank them out
    text = "\n".join("" if line.lstrip().startswith("```") else line
                     for line in (DOCS / page).read_text(encoding="utf-8").splitlines())
    test = doctest.DocTestParser().get_doctest(text, {}, page, str(DOCS / page), 0)
    assert test.examples, f"{page} has no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) in docs/{page} failed (output above)"


@pytest.mark.slow
def test_mkdocs_build_is_clean(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None and shutil.which("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "WARNING" not in output, output
    # docs/api.md: mkdocstrings renders every public name, signatures with their defaults (quotes
    # as written, or as ruff/black reformat a long signature when one of them is installed)
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    for name in iri_lint.__all__:
        assert f'id="iri_lint.{name}"' in api, f"iri_lint.{name} is not rendered in api/index.html"
    shown = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", api)))
    for default in (r"profile: str \| Profile = (['\"])iri\1",  # check()
                    r"kind: str = (['\"])IRI-reference\1", r"profile: str \| Profile = Profile\.IRI",  # parse()
                    r"encode_ascii: Literal\[(['\"])fail\1, \1encode\1\] = \1fail\1",  # to_uri()
                    r"strict: bool = True", r"fix: Fix \| None = None"):
        assert re.search(default, shown), f"api/index.html does not show the default {default!r}"
    assert ":class:" not in shown and ":func:" not in shown, "a reST role is rendered as text"
    # IRI103's summary lists a backtick: it must be one code span of its own
    iri103 = (tmp_path / "site" / "rules" / "IRI103" / "index.html").read_text(encoding="utf-8")
    assert "<code>`</code>" in iri103 and "<code>|</code>" in iri103, "IRI103's characters are not rendered"
    index = (tmp_path / "site" / "rules" / "index.html").read_text(encoding="utf-8")
    row = index[index.index(">IRI103<") :].split("</tr>", 1)[0]
    assert row.count("</td>") == 5 and "<code>&#124;</code>" in row, row  # the '|' splits no cell
