"""Generate ``iri_lint/rules/index.py``: what a run reads of each rule without importing its module.

A rule is declared once, in its module (``RULE`` and ``check``); ``registry.MODULES`` lists the modules.
This script imports each of them and writes its ``RuleInfo`` (code, name, family, severity, default,
fix level, needs, text family, whether it has a check, and the module), so that a run imports a rule's
module only when its check first runs (docs/design.md, "Lazy boundaries"). ``--check`` writes nothing
and exits 1 when the index is stale; ``tests/rules/test_index.py`` fails on it too.

Run: ``python scripts/gen_rule_index.py [--check]`` (``scripts/new_rule.py`` runs it).
"""

from __future__ import annotations

import argparse
import ast
import enum
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "iri_lint" / "rules" / "index.py"
REGISTRY = ROOT / "iri_lint" / "rules" / "registry.py"
sys.path.insert(0, str(ROOT))

HEADER = '''"""The rules' metadata that a run reads without importing their modules (generated: do not edit).

Written by ``scripts/gen_rule_index.py`` from each module that ``registry.MODULES`` lists (its ``RULE``,
and whether it defines ``check``); ``--check`` and ``tests/rules/test_index.py`` fail when they disagree.
"""

from __future__ import annotations

from .model import Family, FixLevel, Needs, RuleInfo, Severity

INDEX: tuple[RuleInfo, ...] = (
'''


def modules(registry: Path = REGISTRY) -> tuple[str, ...]:
    """``registry.MODULES``, read from its source (the registry imports the index this script writes)."""
    for node in ast.parse(registry.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["MODULES"]:
            return tuple(ast.literal_eval(node.value))
    raise SystemExit(f"{registry} defines no MODULES")


def spelled(value: object) -> str:
    """``value`` as the index's source spells it: an enum member by its name (``Family.SYNTAX``, or
    ``Needs.ERRORS | Needs.PERCENT``), anything else by its repr."""
    if isinstance(value, enum.Flag):
        return " | ".join(f"{type(value).__name__}.{m.name}" for m in type(value) if m in value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, str) and value.isprintable() and not set(value) & set("\"\\"):
        return f'"{value}"'  # the house's quotes: codes, names and module paths are plain words
    return repr(value)


def entry(name: str) -> str:
    """The index's entry for rule module ``name`` (``"syntax.iri101_space_in_iri"``)."""
    module = importlib.import_module(f"iri_lint.rules.{name}")
    rule = module.RULE
    fields = {"code": rule.code, "name": rule.name, "family": rule.family, "severity": rule.severity,
              "default": rule.default, "fix_level": rule.fix_level, "needs": rule.needs, "text_of": rule.text_of,
              "has_check": hasattr(module, "check"), "module": name}
    lines = [", ".join(f"{k}={spelled(fields[k])}" for k in keys)
             for keys in (("code", "name", "family", "severity"), ("default", "fix_level", "needs", "text_of",
                                                                  "has_check"), ("module",))]
    return "    RuleInfo(" + ",\n             ".join(lines) + "),\n"


def render() -> str:
    """The index, as it should read."""
    return HEADER + "".join(entry(name) for name in modules()) + ")\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the index is stale; write nothing")
    args = ap.parse_args(argv)
    text = render()
    current = INDEX.read_text(encoding="utf-8") if INDEX.exists() else ""
    if args.check:
        if current != text:
            print(f"stale: {INDEX.relative_to(ROOT)}\nrun: python scripts/gen_rule_index.py", file=sys.stderr)
        return 0 if current == text else 1
    if current != text:
        INDEX.write_text(text, encoding="utf-8")
    print(f"{INDEX.relative_to(ROOT)}: {len(modules())} rules, {'written' if current != text else 'unchanged'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
