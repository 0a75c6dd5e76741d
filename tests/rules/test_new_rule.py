"""scripts/new_rule.py writes a rule module from its template and registers it in code order."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def new_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The script, pointed at a copy of the rules folder's registry."""
    spec = importlib.util.spec_from_file_location("new_rule", ROOT / "scripts" / "new_rule.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rules = tmp_path / "rules"
    for family in module.FAMILIES:
        (rules / family).mkdir(parents=True)
    shutil.copy(ROOT / "iri_lint" / "rules" / "registry.py", rules / "registry.py")
    monkeypatch.setattr(module, "RULES", rules)
    monkeypatch.setattr(module, "REGISTRY", rules / "registry.py")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    return module


def test_writes_the_module_and_its_registry_line_in_code_order(new_rule) -> None:  # type: ignore[no-untyped-def]
    assert new_rule.main(["IRI510", "odd-thing", "--family", "security", "--no-docs"]) == 0
    path = new_rule.RULES / "security" / "iri510_odd_thing.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert "check" in names and 'code="IRI510"' in path.read_text() and "family=Family.SECURITY" in path.read_text()
    compile(path.read_text(), str(path), "exec")
    lines = [line.strip() for line in (new_rule.REGISTRY).read_text().splitlines() if line.strip().startswith('"')]
    at = lines.index('"security.iri510_odd_thing",')
    assert lines[at - 1] == '"security.iri509_host_ends_in_number",'
    assert lines[at + 1].startswith('"scheme.iri601')


def test_refuses_a_taken_code_or_a_bad_name(new_rule) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        new_rule.main(["IRI101", "again", "--family", "syntax", "--no-docs"])
    with pytest.raises(SystemExit):
        new_rule.main(["IRI510", "Bad_Name", "--family", "security", "--no-docs"])
    with pytest.raises(SystemExit):
        new_rule.main(["X509", "name", "--family", "security", "--no-docs"])
    assert sys.modules.get("iri_lint.rules.security.iri510_bad_name") is None
