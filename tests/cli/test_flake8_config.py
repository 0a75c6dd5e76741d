"""#31 item 10: without a [tool.iri-lint] table, the CLI (and so the hooks) honour the IRI codes and the
plugin's options in the project's flake8 configuration, and agree with flake8 itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import RunFlake8

from iri_lint.cli.flake8_config import _per_file_ignores

from .conftest import CLI

SOURCE = ('import requests\nrequests.get("HTTPS://example.com/a")\nURL = "https://example.com/a<b y"\n'
          'ID = "http://exa\u0430mple.com/"\n')
CONFIG = ("[flake8]\nselect = E,F,W,IRI\nextend-select = IRI303\nignore = E501,IRI102\n"
          "per-file-ignores =\n    tests/*: IRI1, E402\n    legacy.py:IRI5\n")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for rel in ("app.py", "tests/test_app.py", "legacy.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path.parent))
    return tmp_path


def _found(out: str) -> set[tuple[str, str]]:
    return {(line.split(":")[0], line.split(" ")[1]) for line in out.splitlines() if " IRI" in line}


@pytest.mark.parametrize("name", [".flake8", "setup.cfg", "tox.ini"])
def test_the_cli_reads_the_iri_codes_of_the_flake8_configuration(cli: CLI, project: Path, name: str) -> None:
    before = _found(cli("check", ".").out)
    assert ("app.py", "IRI102") in before and ("app.py", "IRI303") not in before
    (project / name).write_text(CONFIG, encoding="utf-8")
    found = _found(cli("check", ".").out)
    assert ("app.py", "IRI303") in found  # extend-select: an opt-in rule
    assert not any(code == "IRI102" for _, code in found)  # ignore
    assert not any(f.startswith("tests") and code.startswith("IRI1") for f, code in found)  # per-file-ignores
    assert ("tests/test_app.py", "IRI502") in found and not any(f == "legacy.py" and c.startswith("IRI5")
                                                                 for f, c in found)
    shown = cli("check", "--show-settings", "app.py").out
    assert f"configuration file: {project / name} ([flake8]" in shown
    assert "extend-select = ['IRI303']" in shown and "ignore = ['IRI102']" in shown


def test_the_cli_and_flake8_agree(cli: CLI, run_flake8: RunFlake8, project: Path) -> None:
    (project / "setup.cfg").write_text(CONFIG + "iri-profile = uri\n", encoding="utf-8")
    flake8 = run_flake8(".", cwd=project)
    plugin = {line.removeprefix("./") for line in flake8.stdout.splitlines() if ": IRI" in line}
    ours = {line for line in cli("check", ".").out.splitlines() if ": IRI" in line}
    assert plugin and ours == plugin
    assert any("IRI115" in line for line in ours)  # iri-profile = uri: non-ASCII is an error


def test_a_per_file_ignored_cause_hides_its_consequences_in_both(cli: CLI, run_flake8: RunFlake8,
                                                                   project: Path) -> None:
    """fixtures129 (repro 01): flake8 drops a per-file-ignored code after the plugin ran, so an ignored IRI801 still
    hides the IRI112 of the port its join makes; the command did the ignoring before the rules ran and reported
    that IRI112. Both now give the same (nothing there)."""
    (project / "consts.py").write_text('PARTNER = "https://partner.example.com:8443"\n', encoding="utf-8")
    (project / "hooks.py").write_text('import requests\nfrom consts import PARTNER\n\n\ndef f():\n'
                                      '    return requests.get(PARTNER + ":9443/x")\n', encoding="utf-8")
    before = {line for line in cli("check", "hooks.py").out.splitlines() if ": IRI" in line}
    assert [line.split()[1] for line in before] == ["IRI801"]
    (project / "setup.cfg").write_text("[flake8]\nper-file-ignores =\n    hooks.py: IRI801\n", encoding="utf-8")
    flake8 = run_flake8("hooks.py", cwd=project)
    assert [line for line in flake8.stdout.splitlines() if ": IRI" in line] == []
    assert [line for line in cli("check", "hooks.py").out.splitlines() if ": IRI" in line] == []


def test_a_tool_iri_lint_table_wins(cli: CLI, project: Path) -> None:
    (project / ".flake8").write_text(CONFIG, encoding="utf-8")
    (project / "pyproject.toml").write_text('[tool.iri-lint]\nextend-select = ["IRI304"]\n', encoding="utf-8")
    found = _found(cli("check", ".").out)
    assert ("app.py", "IRI102") in found and ("app.py", "IRI303") not in found
    assert "pyproject.toml" in cli("check", "--show-settings", "app.py").out


def test_a_code_that_matches_no_rule_names_the_file(cli: CLI, project: Path) -> None:
    (project / "tox.ini").write_text("[flake8]\nextend-select = IRI999\n", encoding="utf-8")
    r = cli("check", ".")
    assert r.code == 2 and str(project / "tox.ini") in r.err and "IRI999" in r.err


def test_a_config_flake8_would_not_read_is_passed_over(cli: CLI, project: Path) -> None:
    (project / "setup.cfg").write_text("[metadata]\nname = x\n", encoding="utf-8")  # no [flake8]: the next one
    (project / ".flake8").write_text("[flake8]\nignore = IRI102\n", encoding="utf-8")
    assert not any(code == "IRI102" for _, code in _found(cli("check", ".").out))


def test_per_file_ignores_grammar() -> None:
    """flake8's: file names, a colon, codes; several files per line, several pairs per line."""
    assert _per_file_ignores("a.py,b.py: IRI1 E501\n  c/*.py:IRI2,W\nd.py: E1 e.py: IRI5") == [
        ("a.py", ["IRI1"]), ("b.py", ["IRI1"]), ("c/*.py", ["IRI2"]), ("e.py", ["IRI5"])]
