"""The docs cover every rule, option and public name, are not stale, their examples run, and they build."""

from __future__ import annotations

import doctest
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
from iri_lint.config import OPTIONS, config_field_names
from iri_lint.rules.catalog import RULES
from iri_lint.rules.model import Rule

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
    for part in (rule.name, rule.why, rule.section, rule.fix_text, rule.fix_safety_text):
        assert part in text, f"{page.name} lacks {part!r}"
    assert f"]({rule.code}.md)" in (DOCS / "rules" / "index.md").read_text(encoding="utf-8")


def test_every_option_is_documented() -> None:
    keys = {o.key for o in OPTIONS}
    missing_model = [f for f in config_field_names() if f.replace("_", "-") not in keys]
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
    assert re.search(rf"^### `{re.escape(name)}`", text, re.M), f"iri_lint.{name} is not in docs/api.md"


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
