"""``iri-lint explain CODE|name`` (a rule's page) and ``iri-lint rules`` (the table)."""

from __future__ import annotations

import unicodedata
from typing import TextIO

from ..core.lazy import lazy_regex
from ..core.security import foreign_letters
from ..data.confusables import ASCII_LOOKALIKE
from ..rules.model import PYTHON, Example, Rule, rule_url
from ..rules.registry import RULES, full_rule
from .escape import escape_text

_word = lazy_regex("\\w+")


def find_rule(key: str) -> Rule | None:
    k = key.strip()
    for r in RULES:
        if r.code.lower() == k.lower() or r.name == k.lower():
            return full_rule(r.code)
    return None


def _passing_for_ascii(text: str) -> list[str]:
    """The letters of ``text`` that pass for ASCII ones (Unicode's confusables), in a word that mixes
    scripts (UTS #39 sec. 5) or reads as ASCII throughout."""
    out: dict[str, None] = {}
    for word in _word().findall(text):
        if word.isascii():
            continue
        if foreign_letters(word) or all(c.isascii() or c in ASCII_LOOKALIKE for c in word):
            out.update((c, None) for c in word if c in ASCII_LOOKALIKE)
    return list(out)


def _shown(text: str) -> str:
    """An example as it reads, quoted: only a character a reader cannot see is escaped (``\\u202e``), and
    the letters that pass for ASCII ones are named after it."""
    alike = _passing_for_ascii(text)
    names = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '')} looks like {ASCII_LOOKALIKE[c]!r}" for c in alike)
    return f"'{escape_text(text)}'" + (f"  ({names})" if names else "")


def _indented(text: str, by: str = "  ") -> str:
    """Every line of ``text`` indented (a paragraph's, a list's, a module's), blank ones left empty."""
    return "\n".join(by + line if line else "" for line in text.splitlines())


def _example(ex: Example) -> str:
    """An example: an IRI quoted on one line; a Python module as its lines, a blank line after it."""
    if ex.kind == PYTHON:
        return "\n".join(_indented(escape_text(line), "    ") for line in ex.text.rstrip("\n").split("\n")) + "\n"
    return f"  {_shown(ex.text)}"


def write_explain(out: TextIO, rule: Rule) -> None:
    default = "on by default" if rule.default else "opt-in (enable with --extend-select)"
    out.write(f"{rule.code} {rule.name}: {rule.summary}\n\n")
    out.write(f"Family: {rule.family}. Severity: {rule.severity}. {default}.\nStandard: {rule.section}\n\n")
    out.write(f"What it does\n{_indented(rule.what)}\n\nWhy\n{_indented(rule.why)}\n\n")
    if rule.invalid:
        out.write("Examples that are reported\n")
        for ex in rule.invalid:
            ctx = f"  (used as: {ex.context})" if str(ex.context) != "unknown" else ""
            out.write(f"{_example(ex)}{ctx}\n")
            if ex.fixed is not None:
                out.write(f"    fix -> {_shown(ex.fixed)}\n")
        out.write("\n")
    if rule.valid:
        out.write("Examples that are fine\n")
        for ex in rule.valid:
            out.write(f"{_example(ex)}\n")
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
