"""Start-up stays cheap: pre-commit runs iri-lint on a handful of files at a time."""

from __future__ import annotations

import subprocess
import sys

from .conftest import EXAMPLES, ROOT

# every iri_lint module is imported (cheaply); these wait for the function that needs them (ICU for
# a non-ASCII literal: this file has some)
HEAVY = ("libcst", "flake8", "pygls", "lsprotocol", "pathspec", "jsonschema", "hypothesis",
         "concurrent.futures.process", "iri_lint.lsp.server", "difflib",
         # the reporters of other formats, and what the inventory and the flake8 configuration need
         "iri_lint.cli.sarif", "iri_lint.cli.gitlab", "iri_lint.cli.junit", "iri_lint.cli.html_report",
         "iri_lint.cli.inventory", "iri_lint.cli.inventory_run", "configparser", "csv")
PROBE = """
import sys
from iri_lint.cli import main
code = main(["check", "--isolated", "--exit-zero", {path!r}])
print("HEAVY:" + ",".join(m for m in {heavy!r} if m in sys.modules))
"""


def test_check_on_one_file_imports_nothing_heavy() -> None:
    p = subprocess.run([sys.executable, "-c", PROBE.format(path=str(EXAMPLES / "shop" / "client.py"), heavy=HEAVY)],
                       capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "HEAVY:"


LAZY_PROBE = """
import sys
from iri_lint.cli import main
main(["check", "--isolated", "--exit-zero", {path!r}])
grammar = sys.modules["iri_lint.core.grammar"]
built = (grammar.valid_reference_regex, grammar.split_regex, grammar.error_regex, grammar.ip_literal_error_chars)
print("COMPILED:" + ",".join(f.__name__ for f in built if f.cache_info().currsize))
from iri_lint.core.schemes import scheme_typos
built += (scheme_typos,)
print("BUILT:" + ",".join(f.__name__ for f in built if f.cache_info().currsize))
print("LOADED:" + ",".join(m for m in ("icu", "libcst", "pathspec", "idna.uts46data") if m in sys.modules))
"""


def test_a_file_without_iris_compiles_no_unicode_regex(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Start-up is measured in benchmarks/; here only what decides it: nothing is built before use."""
    clean = tmp_path / "clean.py"
    clean.write_text("import os\nX = {'a': 1}\n", encoding="utf-8")
    p = subprocess.run([sys.executable, "-c", LAZY_PROBE.format(path=str(clean))], capture_output=True,
                       text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    out = dict(line.split(":", 1) for line in p.stdout.splitlines() if ":" in line)
    assert out["COMPILED"] == ""
    assert out["BUILT"] == ""
    assert out["LOADED"] == ""
