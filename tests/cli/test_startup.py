"""Start-up stays cheap: pre-commit runs iri-lint on a handful of files at a time, and flake8 imports
every installed plugin at the start of every run.

What a process may leave unimported is decided by the lazy boundaries of docs/design.md; these tests
check that a run leaves it out, and (so that they can fail) that a run needing it does import it. The
time itself is measured in benchmarks/run.py, never asserted here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from iri_lint.cli import YOUNG_COLLECTION

from .conftest import ROOT

pytestmark = pytest.mark.slow  # each probe is a fresh interpreter: that is what start-up is

# what checking a file of ASCII IRIs never imports (docs/design.md, "Lazy boundaries")
HEAVY = (
    # (b) the other subcommands, and what only some runs of `check` need
    "iri_lint.cli.inspect", "iri_lint.cli.explain", "iri_lint.cli.version", "iri_lint.lsp", "iri_lint.lsp.server",
    "pygls", "lsprotocol", "iri_lint.fix", "iri_lint.cli.fix_flow", "iri_lint.source.cst", "libcst",
    "iri_lint.cli.notebook_job",
    "iri_lint.source.notebook", "iri_lint.cli.sarif", "iri_lint.cli.gitlab", "iri_lint.cli.junit",
    "iri_lint.cli.html_report", "iri_lint.cli.inventory", "iri_lint.cli.inventory_run",
    # (c) the rule families' data tables
    "idna", "encodings.idna", "bidi", "iri_lint.data.confusables", "icu",
    # (d) the standard library on rare paths
    "concurrent.futures.process", "multiprocessing", "difflib", "configparser", "csv", "fcntl", "subprocess",
    "tomllib",
    # never when checking
    "flake8", "jsonschema", "hypothesis",
)
# one finding of each family an ASCII IRI can have, a password and an ACE label among them
ASCII_IRIS = '''import urllib.request

import requests

urllib.request.urlopen("https://example.com/a b|c%zz")
API_URL = "HTTP://user:hunter2@Example.COM:80/%7euser/./x/../y?q#f"
requests.get("htps://example.com/", timeout=1)
'''
CHECK_PROBE = """
import sys
from iri_lint.__main__ import main
main({argv!r})
print("LOADED:" + ",".join(m for m in {heavy!r} if m in sys.modules))
"""


def _run(probe: str, cwd: Path) -> dict[str, str]:
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr, p.stderr
    return dict(line.split(":", 1) for line in p.stdout.splitlines() if line.isupper() or ":" in line)


def _loaded(argv: list[str], cwd: Path) -> set[str]:
    out = _run(CHECK_PROBE.format(argv=argv, heavy=HEAVY), cwd)
    return set(filter(None, out["LOADED"].split(",")))


def test_checking_ascii_iris_imports_nothing_heavy(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(ASCII_IRIS, encoding="utf-8")
    assert _loaded(["check", "--isolated", "--exit-zero", "--no-cache", "client.py"], tmp_path) == set()


def test_what_checking_leaves_out_is_imported_when_a_run_needs_it(tmp_path: Path) -> None:
    """The probe sees these modules when a run needs them: an IDN host, a notebook, a fix, another format."""
    # an all-Cyrillic host that reads as "apple" (IRI502), an rtl segment ending in digits (IRI205)
    (tmp_path / "idn.py").write_text('HOME_URL = "https://аррӏе.com/שלום123/"\n', encoding="utf-8")
    (tmp_path / "nb.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n',
                                       encoding="utf-8")
    (tmp_path / "fixme.py").write_text('API_URL = "HTTPS://example.com/"\n', encoding="utf-8")
    base = ["check", "--isolated", "--exit-zero", "--no-cache"]
    idn = _loaded([*base, "idn.py"], tmp_path)
    assert {"idna", "bidi"} <= idn and idn & {"icu", "iri_lint.data.confusables"}  # with ICU or without
    assert "iri_lint.source.notebook" in _loaded([*base, "nb.ipynb"], tmp_path)
    fixing = _loaded([*base, "--fix", "--unsafe-fixes", "--select", "IRI303", "fixme.py"], tmp_path)
    assert {"iri_lint.fix", "iri_lint.cli.fix_flow"} <= fixing
    assert "iri_lint.cli.sarif" in _loaded([*base, "--format", "sarif", "fixme.py"], tmp_path)
    # an A-label IDNA2008 rejects is asked of IDNA2003 (IRI403); a pyproject.toml found is read
    (tmp_path / "ace.py").write_text('API_URL = "https://xn--a.example/"\n', encoding="utf-8")
    assert "encodings.idna" in _loaded([*base, "ace.py"], tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.iri-lint]\n", encoding="utf-8")
    assert "tomllib" in _loaded(["check", "--exit-zero", "--no-cache", "fixme.py"], tmp_path)


RULES_PROBE = """
import sys
from iri_lint.__main__ import main
main({argv!r})
print("RULES:" + ",".join(sorted(m.rsplit(".", 1)[1][:6].upper() for m in sys.modules
                                 if m.startswith("iri_lint.rules.") and ".iri" in m)))
"""


def test_a_rule_module_is_imported_at_its_first_check(tmp_path: Path) -> None:
    """A clean ASCII IRI runs, in default mode, the few checks that need nothing of an IRI (IRI116's host and port
    read as a scheme, IRI403, IRI601-603; IRI901 is the noqa pass's own), a syntax error its family's, and no IRI
    any other's."""
    (tmp_path / "clean.py").write_text('HOME = "https://example.com/a?b#c"\n', encoding="utf-8")
    (tmp_path / "space.py").write_text('import requests\nrequests.get("https://example.com/a b")\n',
                                       encoding="utf-8")
    base = ["check", "--isolated", "--exit-zero", "--no-cache"]
    clean = _run(RULES_PROBE.format(argv=[*base, "clean.py"]), tmp_path)["RULES"].split(",")
    assert clean == ["IRI116", "IRI403", "IRI601", "IRI602", "IRI603", "IRI901"]
    space = set(_run(RULES_PROBE.format(argv=[*base, "space.py"]), tmp_path)["RULES"].split(","))
    assert {"IRI101", "IRI102", "IRI110"} <= space and not {c for c in space if c[3] in "2357"}


SERVER_PROBE = """
import sys
from iri_lint.__main__ import main
try:
    main(["server", "--version"])
except SystemExit:
    pass
print("LOADED:" + ",".join(sorted(m for m in sys.modules if m.startswith(("iri_lint.cli", "iri_lint.lsp")))))
"""


def test_the_script_hands_server_to_the_language_server_without_the_cli(tmp_path: Path) -> None:
    """``iri-lint server`` imports the server and nothing of the CLI (iri_lint.__main__); the other way
    round, checking imports nothing of the server (HEAVY above)."""
    loaded = set(_run(SERVER_PROBE, tmp_path)["LOADED"].split(","))
    assert "iri_lint.lsp.server" in loaded
    assert not {m for m in loaded if m.startswith("iri_lint.cli")}


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


def test_a_file_without_iris_compiles_no_unicode_regex(tmp_path: Path) -> None:
    """Nothing is built before use."""
    clean = tmp_path / "clean.py"
    clean.write_text("import os\nX = {'a': 1}\n", encoding="utf-8")
    out = _run(LAZY_PROBE.format(path=str(clean)), ROOT)
    assert out["COMPILED"] == ""
    assert out["BUILT"] == ""
    assert out["LOADED"] == ""


PARSER_PROBE = """
import argparse, contextlib, io
built = []
init = argparse.ArgumentParser.__init__
argparse.ArgumentParser.__init__ = lambda self, *a, **k: built.append(k.get("prog")) or init(self, *a, **k)
from iri_lint.cli import main
try:
    with contextlib.redirect_stdout(io.StringIO()):
        main({argv!r})
except SystemExit:
    pass
print("PARSERS:" + str(len(built)))
"""


def test_a_subcommand_builds_its_own_parser_only(tmp_path: Path) -> None:
    """``iri-lint check`` builds the top-level parser and check's, not those of the six other subcommands;
    ``iri-lint --help`` lists them all."""
    (tmp_path / "client.py").write_text(ASCII_IRIS, encoding="utf-8")
    check = ["check", "--exit-zero", "--no-cache", "client.py"]
    assert _run(PARSER_PROBE.format(argv=check), tmp_path)["PARSERS"] == "2"
    assert _run(PARSER_PROBE.format(argv=["--help"]), tmp_path)["PARSERS"] == "8"


# flake8 imports the plugin's entry points at the start of every run: of iri-lint, only the entry point
# and its text pre-check, until a file holds text an IRI literal or a URL context needs
FLAKE8_PROBE = """
import sys
from flake8.main.application import Application
app = Application()
app.run(["--isolated", "--jobs=1", "--output-file", {out!r}, {path!r}])
print("LOADED:" + ",".join(sorted(m for m in sys.modules if m.startswith("iri_lint"))))
"""
# the engine, and the source layer beyond the pre-check (source.marks, with its table of URL APIs)
ENGINE = ("iri_lint.flake8_engine", "iri_lint.lint", "iri_lint.config", "iri_lint.rules", "iri_lint.core.scanner",
          "iri_lint.core.grammar", "iri_lint.source.literals", "iri_lint.source.locate", "iri_lint.source.model")


def _flake8(tmp_path: Path, source: str) -> tuple[set[str], str]:
    """(the iri_lint modules a flake8 run on ``source`` imported, flake8's report)."""
    path, out = tmp_path / "m.py", tmp_path / "out.txt"
    path.write_text(source, encoding="utf-8")
    loaded = _run(FLAKE8_PROBE.format(out=str(out), path=str(path)), tmp_path)["LOADED"]
    return set(loaded.split(",")), out.read_text(encoding="utf-8")


def test_flake8_on_a_file_without_iris_imports_nothing_of_the_engine(tmp_path: Path) -> None:
    loaded, report = _flake8(tmp_path, "import os\n\n\ndef cwd() -> str:\n    return os.getcwd()\n")
    assert "iri_lint.flake8_plugin" in loaded  # flake8 did load the plugin
    assert {m for m in loaded if m.startswith(ENGINE)} == set()
    assert report == ""


def test_flake8_imports_the_engine_for_a_file_with_an_iri(tmp_path: Path) -> None:
    loaded, report = _flake8(tmp_path, 'import urllib.request\n\nurllib.request.urlopen("https://example.com/a b")\n')
    assert {"iri_lint.flake8_engine", "iri_lint.lint", "iri_lint.core.scanner"} <= loaded
    assert "IRI101" in report


FREEZE_PROBE = """
import gc, sys
print("YOUNG_BEFORE:" + str(gc.get_threshold()[0]))
seen = []
real = gc.freeze
gc.freeze = lambda: seen.append(sorted(m for m in {engine!r} if m in sys.modules)) or real()
collecting = []
gc.callbacks.append(lambda phase, info: phase == "start" and collecting.append(sorted(sys.modules)))
sys.argv = ["iri-lint", "check", "--isolated", "--exit-zero", "--no-cache", {path!r}]
from iri_lint.__main__ import main
collecting.clear()
main()
print("FROZE:" + ";".join(",".join(s) for s in seen))
print("COLLECTED_WHILE_IMPORTING:" + str(any(not set({engine!r}) <= set(c) for c in collecting)))
print("ENABLED:" + str(gc.isenabled()))
print("YOUNG:" + str(gc.get_threshold()[0]))
"""


def test_the_script_freezes_what_the_check_imported(tmp_path: Path) -> None:
    """What importing made lives until the script's process exits: frozen once the subcommand's modules are
    imported, the collector never walks it again (gc.freeze); nor does it run while they are imported, and it
    runs again after. An in-process call (argv given) freezes nothing and leaves the collector alone."""
    (tmp_path / "client.py").write_text(ASCII_IRIS, encoding="utf-8")
    engine = ("iri_lint.cli.check", "iri_lint.lint", "iri_lint.rules.engine")
    out = _run(FREEZE_PROBE.format(engine=engine, path="client.py"), tmp_path)
    assert out["FROZE"] == ",".join(sorted(engine))
    assert (out["COLLECTED_WHILE_IMPORTING"], out["ENABLED"]) == ("False", "True")
    assert out["YOUNG"] == str(YOUNG_COLLECTION)  # (parsing makes nodes that are all alive: fewer young passes)
    in_process = FREEZE_PROBE.format(engine=engine, path="client.py").replace("main()", "main(sys.argv[1:])")
    out = _run(in_process, tmp_path)
    assert (out["FROZE"], out["COLLECTED_WHILE_IMPORTING"], out["ENABLED"]) == ("", "True", "True")
    assert out["YOUNG"] == out["YOUNG_BEFORE"]  # the caller's collector, as it set it
