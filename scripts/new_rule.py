"""Write a new rule's module from a template, register it, and regenerate the docs.

    python scripts/new_rule.py IRI508 my-rule-name --family security [--severity warning] [--default]

Writes ``iri_lint/rules/<family>/<code>_<name>.py`` (metadata, examples, message and check, each
marked TODO), adds its line to ``MODULES`` in ``iri_lint/rules/registry.py`` in code order, and runs
``scripts/gen_rule_index.py`` (the metadata a run reads without importing the module) and
``scripts/gen_docs.py``. Until its TODOs are done the catalog tests fail on it: they run its examples.
See CONTRIBUTING.md, "Adding a rule".
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "iri_lint" / "rules"
REGISTRY = RULES / "registry.py"
FAMILIES = ("syntax", "bidi", "normalization", "mapping", "security", "scheme", "text", "assembly", "noqa")

TEMPLATE = '''"""{code} {name}: TODO one line: what the rule reports."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Raw, Rule, Severity

RULE = Rule(
    code="{code}",
    name="{name}",
    family=Family.{family_upper},
    summary="TODO: the page title, e.g. 'Port above 65535'",
    section="TODO: the standard it enforces, e.g. 'RFC 3986 sec. 3.2.3'",
    severity=Severity.{severity_upper},
    default={default},
    fix_level=None,  # or the FixLevel that proves the fix keeps the IRI's meaning
    what="TODO: what triggers it, in which components and contexts (the page's 'What it does').",
    why="TODO: why it is a problem, citing the standard (the page's 'Why is this bad?').",
    fix_text="TODO: how to fix it, in words.",
    valid=(Example("https://example.com/"),),
    invalid=(Example("TODO: an IRI this rule reports"),),
)


def check(facts: Facts) -> Iterator[Raw]:
    """TODO: what it finds. Read facts.ref (the scanned IRI) and the shared facts (facts.syntax,
    facts.ladder, facts.bidi, facts.security, facts.octets); never parse again."""
    ref = facts.ref
    if False:  # TODO: the condition
        yield Raw(0, len(ref.text), "TODO: the message: what is wrong, the section, how to fix it")
'''


def module_name(code: str, name: str) -> str:
    return f"{code.lower()}_{name.replace('-', '_')}"


def add_registry_line(family: str, module: str, code: str) -> None:
    """Insert ``"family.module",`` into ``MODULES`` before the first rule with a higher code."""
    text = REGISTRY.read_text(encoding="utf-8")
    start = text.index("MODULES = (\n") + len("MODULES = (\n")
    end = text.index("\n)\n", start)
    lines = text[start:end].split("\n")
    entry = f'    "{family}.{module}",'
    codes = [re.search(r"\.(iri\d+)_", line).group(1).upper() for line in lines]  # type: ignore[union-attr]
    if code in codes:
        sys.exit(f"{code} is already registered")
    at = next((i for i, c in enumerate(codes) if c > code), len(lines))
    lines.insert(at, entry)
    REGISTRY.write_text(text[:start] + "\n".join(lines) + text[end:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write a new rule from a template and register it.")
    ap.add_argument("code", help="IRI followed by three digits, e.g. IRI508")
    ap.add_argument("name", help="kebab-case, e.g. http-to-hsts-host")
    ap.add_argument("--family", required=True, choices=FAMILIES)
    ap.add_argument("--severity", default="warning", choices=("error", "warning", "info"))
    ap.add_argument("--default", action="store_true", help="on by default (new rules are opt-in unless measured quiet)")
    ap.add_argument("--no-docs", action="store_true", help="do not regenerate the index and the docs")
    args = ap.parse_args(argv)
    code = args.code.upper()
    if not re.fullmatch(r"IRI[1-9]\d\d", code):
        ap.error(f"{args.code!r} is not IRI followed by three digits")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", args.name):
        ap.error(f"{args.name!r} is not kebab-case")
    module = module_name(code, args.name)
    path = RULES / args.family / f"{module}.py"
    if path.exists() or list(RULES.glob(f"*/{code.lower()}_*.py")):
        ap.error(f"{code} already has a module")
    path.write_text(TEMPLATE.format(code=code, name=args.name, family_upper=args.family.upper(),
                                    severity_upper=args.severity.upper(), default=args.default), encoding="utf-8")
    add_registry_line(args.family, module, code)
    print(f"wrote {path.relative_to(ROOT)} and its line in {REGISTRY.relative_to(ROOT)}")
    if not args.no_docs:
        for script in ("gen_rule_index.py", "gen_docs.py"):
            subprocess.run([sys.executable, str(ROOT / "scripts" / script)], check=True)
    print("next: fill in the TODOs, then python -m pytest tests/rules tests/docs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
