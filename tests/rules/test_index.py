"""rules/index.py is what the rule modules declare: a run selects, reports and schedules checks from it
without importing them (docs/design.md, "Lazy boundaries"), so it must never drift from them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from iri_lint.rules import registry
from iri_lint.rules.model import RuleInfo

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gen_rule_index() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_rule_index", ROOT / "scripts" / "gen_rule_index.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_entry_is_its_rule_module_s_metadata() -> None:
    """Field by field, read from the modules themselves (not through the generator)."""
    assert [r.module for r in registry.RULES] == list(registry.MODULES)
    for info, rule in zip(registry.RULES, registry.all_rules(), strict=True):
        same = {f: getattr(rule, f) for f in RuleInfo._fields if f not in ("has_check", "module")}
        assert info._asdict() == {**same, "has_check": rule.check is not None, "module": info.module}


def test_the_index_file_is_what_the_generator_writes(gen_rule_index: ModuleType) -> None:
    assert (ROOT / "iri_lint" / "rules" / "index.py").read_text(encoding="utf-8") == gen_rule_index.render()
    assert gen_rule_index.main(["--check"]) == 0


def test_check_mode_fails_on_a_stale_index(gen_rule_index: ModuleType, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    stale = tmp_path / "index.py"
    stale.write_text(gen_rule_index.render().replace("default=True", "default=False", 1), encoding="utf-8")
    monkeypatch.setattr(gen_rule_index, "INDEX", stale)
    monkeypatch.setattr(gen_rule_index, "ROOT", tmp_path)
    assert gen_rule_index.main(["--check"]) == 1
    assert gen_rule_index.main([]) == 0 and stale.read_text(encoding="utf-8") == gen_rule_index.render()


def test_a_rule_is_loaded_whole_with_its_check() -> None:
    rule = registry.full_rule("IRI101")
    assert rule.check is not None and rule.what and rule.invalid
    assert registry.full_rule("IRI100").check is None
