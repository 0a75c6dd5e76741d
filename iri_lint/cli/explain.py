"""``iri-lint explain CODE|name`` (a rule's page) and ``iri-lint rules`` (the table)."""

from __future__ import annotations

from typing import TextIO

from ..rules.catalog import RULES
from ..rules.model import Rule, rule_url


def find_rule(key: str) -> Rule | None:
    k = key.strip()
    for r in RULES:
        if r.code.lower() == k.lower() or r.name == k.lower():
            return r
    return None


def _shown(text: str) -> str:
    """An example as a Python literal, so invisible and bidi characters are visible."""
    return ascii(text) if any(not c.isprintable() or ord(c) > 0x7E for c in text) else repr(text)


def write_explain(out: TextIO, rule: Rule) -> None:
    default = "on by default" if rule.default else "opt-in (enable with --extend-select)"
    out.write(f"{rule.code} {rule.name}: {rule.summary}\n\n")
    out.write(f"Family: {rule.family}. Severity: {rule.severity}. {default}.\nStandard: {rule.section}\n\n")
    out.write(f"What it does\n  {rule.what}\n\nWhy\n  {rule.why}\n\n")
    if rule.invalid:
        out.write("Examples that are reported\n")
        for ex in rule.invalid:
            ctx = f"  (used as: {ex.context})" if str(ex.context) != "unknown" else ""
            out.write(f"  {_shown(ex.text)}{ctx}\n")
            if ex.fixed is not None:
                out.write(f"    fix -> {_shown(ex.fixed)}\n")
        out.write("\n")
    if rule.valid:
        out.write("Examples that are fine\n")
        for ex in rule.valid:
            out.write(f"  {_shown(ex.text)}\n")
        out.write("\n")
    out.write(f"How to fix\n  {rule.fix_text}\n\nFix safety\n  {rule.fix_safety_text}\n\n")
    out.write(f"Silence it on a line with `# noqa: {rule.code}`. More: {rule_url(rule.code)}\n")


def write_rules(out: TextIO) -> None:
    rows = [("code", "name", "family", "default", "fix")]
    for r in RULES:
        fix = "-" if r.fix_level is None else ("safe" if str(r.fix_level) == "source" else
                                                "unsafe" if str(r.fix_level) == "none" else
                                                f"safe if dereferenced ({r.fix_level})")
        rows.append((r.code, r.name, r.family, "yes" if r.default else "no", fix))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)) + "  " + row[4] + "\n")
