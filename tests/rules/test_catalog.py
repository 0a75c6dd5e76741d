"""Every rule carries its own documentation and examples, and the examples hold (Fixit style)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from iri_lint.config import Config
from iri_lint.core.errors import Kind
from iri_lint.fix import fix_text
from iri_lint.lint import lint_text
from iri_lint.rules import facts, registry
from iri_lint.rules.engine import apply_fixes, check, select_codes
from iri_lint.rules.model import PYTHON, Family, FixSafety, Rule, UseContext

RULES = registry.all_rules()  # whole: their examples and checks
# IRI7xx (text mode) examples are docstring text, and rules on source (IRI901) have whole modules
# as examples: both are exercised through the source path below
SOURCE_RULES = tuple(r for r in RULES if any(ex.kind == PYTHON for ex in (*r.valid, *r.invalid)))
CHECKED = tuple(r for r in RULES if not r.code.startswith("IRI7") and r not in SOURCE_RULES)
TEXT_RULES = tuple(r for r in RULES if r.code.startswith("IRI7"))


def test_codes_unique_well_formed_and_grouped() -> None:
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    names = [r.name for r in RULES]
    assert len(names) == len(set(names))
    for r in RULES:
        assert re.fullmatch(r"IRI[1-9]\d\d", r.code), r.code
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name), r.name


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_is_documented(rule: Rule) -> None:
    for attr in ("summary", "section", "why", "fix_text", "what"):
        assert getattr(rule, attr).strip(), f"{rule.code} lacks {attr}"
    assert re.search(r"(RFC|UTS|3987bis)" if rule.family is not Family.NOQA else "noqa", rule.section), rule.section
    assert rule.valid, f"{rule.code} has no valid example"
    # IRI100 reports an engine failure, which no input triggers by design (a bug, once found, is
    # fixed): tests/lint/test_lint.py and tests/cli/test_check.py provoke it by breaking the engine
    assert rule.invalid or rule.code == "IRI100", f"{rule.code} has no invalid example"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9+]+", text.lower())


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_what_says_what_triggers_the_rule(rule: Rule) -> None:
    """The page's "What it does": its own sentences about the trigger, not the summary again."""
    what = rule.what.strip()
    assert what, f"{rule.code} has no `what`"
    assert not what.lower().startswith("reports"), f"{rule.code}: `what` restates the summary: {what!r}"
    summary = _words(rule.summary)
    assert _words(what) != summary, f"{rule.code}: `what` is the summary"
    new = set(_words(what)) - set(summary)
    assert len(new) >= 8, f"{rule.code}: `what` says little beyond the summary ({sorted(new)})"
    assert what.endswith("."), f"{rule.code}: `what` is not a sentence"


@pytest.mark.parametrize("kind", list(Kind), ids=str)
def test_every_kind_of_syntax_error_is_some_rules(kind: Kind) -> None:
    """Each kind of error the core finds is reported by exactly one syntax rule."""
    from iri_lint.core.errors import Detail
    from iri_lint.core.grammar import Profile
    from iri_lint.core.reference import ErrorRecord, IRIReference, Span
    from iri_lint.rules.engine import check_ref

    detail = {Kind.IP_LITERAL: Detail.BAD_IPV6, Kind.MISSING_SCHEME: Detail.NEEDS_SCHEME,
              Kind.FRAGMENT_NOT_ALLOWED: Detail.HAS_FRAGMENT}.get(kind)
    ref = IRIReference("[a]", "IRI-reference", Profile.IRI, None, None, None, None, None, None, Span(0, 3), None, None,
                       (ErrorRecord(0, 3, kind, "path", detail),))
    assert len({f.code for f in check_ref(ref, enabled=frozenset(r.code for r in RULES))}) == 1


@pytest.mark.parametrize("rule", CHECKED, ids=lambda r: r.code)
def test_valid_examples_are_quiet(rule: Rule) -> None:
    for ex in rule.valid:
        got = check(ex.text, kind=ex.kind, profile=ex.profile, context=ex.context, select=[rule.code],
                    uri_only_api=ex.uri_only_api)
        assert got == [], (ex.text, got)


@pytest.mark.parametrize("rule", CHECKED, ids=lambda r: r.code)
def test_invalid_examples_fire_with_expected_fix(rule: Rule) -> None:
    for ex in rule.invalid:
        got = check(ex.text, kind=ex.kind, profile=ex.profile, context=ex.context, select=[rule.code],
                    uri_only_api=ex.uri_only_api)
        assert got, f"{rule.code} did not fire on {ex.text!r}"
        assert all(f.code == rule.code for f in got)
        if ex.fixed is not None:
            fixes = [f.fix for f in got if f.fix is not None]
            assert fixes, f"{rule.code} offered no fix for {ex.text!r}"
            assert apply_fixes(ex.text, fixes) == ex.fixed
            assert fixes[0].level == rule.fix_level
            expected = FixSafety.SAFE if (ex.context is UseContext.DEREFERENCED
                                          and rule.fix_level.value != "none") else FixSafety.UNSAFE
            assert fixes[0].safety == expected


def test_messages_never_carry_invisible_characters() -> None:
    for text in ("https://example.com/\u202eabc", "https://example.com/a\u200bb",
                 "https://example.com/a\tb\x00"):
        for f in check(text, select=["ALL"]):
            assert f.message.isprintable(), f.message
            assert "\n" not in f.message


def test_selection_prefixes_and_names() -> None:
    assert "IRI206" not in select_codes()
    assert "IRI206" in select_codes(["IRI2"])
    assert select_codes(["IRI"], ["IRI3"]) & {r.code for r in RULES if r.code.startswith("IRI3")} == set()
    assert select_codes(["space-in-iri"]) == {"IRI101"}


def test_a_flood_of_findings_is_capped_per_rule() -> None:
    MAX_PER_CODE = facts.MAX_PER_CODE

    got = check("http://x/" + "[a" * 2000, select=["IRI114"])
    assert len(got) == MAX_PER_CODE
    assert got[-1].message.endswith(f"(and {2000 - MAX_PER_CODE} more IRI114 in this IRI)")
    # past the cap the syntax analysis only counts; with template holes it builds everything,
    # since a hole may drop earlier findings: both ways give the same report
    holed = check("http://x/" + "[a" * 2000, select=["IRI114"], holes=((1, 2),))
    assert [(f.start, f.message) for f in holed] == [(f.start, f.message) for f in got]
    mixed = check("http://x/" + "[ " * 300, select=["IRI114", "IRI101"])
    assert sum(f.code == "IRI101" for f in mixed) == sum(f.code == "IRI114" for f in mixed) == MAX_PER_CODE
    for code in ("IRI101", "IRI114"):
        last = [f for f in mixed if f.code == code][-1]
        assert last.message.endswith(f"(and 200 more {code} in this IRI)")


@pytest.mark.parametrize("rule", SOURCE_RULES, ids=lambda r: r.code)
def test_source_rule_examples_lint_and_fix_as_files(rule: Rule) -> None:
    """A rule whose examples are modules: valid ones are quiet, invalid ones fire only it, and the
    fix (``--fix``, which re-lints to a fixed point) gives the example's fixed module."""
    config = Config(extend_select=(rule.code,))  # (an opt-in rule joins the default ones)

    def lint(text: str) -> list:  # type: ignore[type-arg]
        return lint_text(text, config)

    for ex in rule.valid:
        if ex.kind == PYTHON:  # (a rule may have examples of both kinds: IRI116's)
            assert lint(ex.text) == [], ex.text
    for ex in (ex for ex in rule.invalid if ex.kind == PYTHON):
        got = lint(ex.text)
        assert got and {f.code for f in got} == {rule.code}, ex.text
        assert lint_text(ex.text, Config()) == [] or rule.default
        if ex.fixed is not None:
            run = fix_text(ex.text, lint)
            assert run.text == ex.fixed and run.remaining == []
            assert all(f.finding.fix is not None and f.finding.fix.level == rule.fix_level for f in got)


def _docstring_module(text: str) -> str:
    return '"""' + text + '"""\n'


@pytest.mark.parametrize("rule", TEXT_RULES, ids=lambda r: r.code)
def test_text_rule_examples_through_the_source_path(rule: Rule) -> None:
    from iri_lint.config import Config
    from iri_lint.lint import lint_text
    from iri_lint.source.text import extract

    assert rule.fix_level is None and not rule.default
    cfg = Config(extend_select=(rule.code,))
    for ex in rule.valid:
        assert lint_text(_docstring_module(ex.text), cfg) == [], ex.text
        assert lint_text(_docstring_module(ex.text), Config()) == [], ex.text
    for ex in rule.invalid:
        got = lint_text(_docstring_module(ex.text), cfg)
        assert got, f"{rule.code} did not fire on {ex.text!r}"
        assert {f.code for f in got} == {rule.code}
        # the column is where the underlying rule points inside the extracted IRI, after '"""'
        family = "IRI" + rule.code[4]
        want = set()
        for sp in extract(ex.text):
            for f in check(ex.text[sp.start:sp.end], kind="IRI"):
                if f.code.startswith(family):
                    want.add((1, 3 + sp.start + f.start, f"in text: {f.code} {f.name}: {f.message}"))
        assert {(f.line, f.col, f.finding.message) for f in got} == want
        assert all(f.finding.fix is None for f in got)
        assert lint_text(_docstring_module(ex.text), Config()) == []  # opt-in


def test_the_registry_is_every_rule_module_and_each_is_where_its_family_says() -> None:
    """registry.MODULES is the one list: every module under rules/<family>/ named iriNNN_name is in
    it, once, in code order, in its family's folder, named by its code and name; every rule that an
    IRI can trigger has a check (IRI100 comes from the engine's own failure, IRI7xx from text mode,
    IRI9xx from the noqa comments)."""
    from pathlib import Path

    folder = Path(registry.__file__).parent
    on_disk = sorted(f"{p.parent.name}.{p.stem}" for p in folder.glob("*/iri[0-9]*.py"))
    assert sorted(registry.MODULES) == on_disk
    assert [r.code for r in RULES] == sorted(r.code for r in RULES)
    for module, rule in zip(registry.MODULES, RULES, strict=True):
        assert module == f"{rule.family}.{rule.code.lower()}_{rule.name.replace('-', '_')}"
    unchecked = {r.code for r in RULES if r.check is None}
    assert unchecked == {"IRI100"} | {r.code for r in RULES if r.text_of is not None or r.family is Family.NOQA}
    # (the assembly rules need a value built in code: prose holds none)
    assert set(registry.TEXT_RULE_OF) == set(Family) - {Family.TEXT, Family.NOQA, Family.ASSEMBLY}


# what the character at a finding's column is, for the rules whose page says it is not the first one at fault
WHERE_IN_SOURCE: dict[str, Callable[[str, int], bool]] = {
    "IRI802": lambda line, col: line[col] == "/" and line[col - 1] in '/"',
    "IRI803": lambda line, col: line[col] in "?#",
    "IRI805": lambda line, col: line[col] in "{%$<",
    "IRI801": lambda line, col: (line[col - 1] == '"' and line[col].isalnum()) or line[col] == "@",
    "IRI809": lambda line, col: line[col] == "&",
    "IRI808": lambda line, col: line[col - 1] == '"' and line[col].isalpha(),  # the first scheme, not the joined
}


@pytest.mark.parametrize("code", sorted(WHERE_IN_SOURCE))
def test_the_column_is_where_the_rule_page_says(code: str) -> None:
    """The page's "Where it is reported" (``Rule.where``), read off the rule's own Python examples."""
    (rule,) = [r for r in RULES if r.code == code]
    assert rule.where
    for ex in (ex for ex in rule.invalid if ex.kind == PYTHON):
        found = [f for f in lint_text(ex.text, Config(extend_select=(code,))) if f.code == code]
        assert found, ex.text
        lines = ex.text.splitlines()
        assert all(WHERE_IN_SOURCE[code](lines[f.line - 1], f.col) for f in found), (ex.text, found)


@pytest.mark.parametrize(("select", "ignore", "extend", "on"), [
    (None, ["IRI8"], ["IRI806"], {"IRI806": True, "IRI801": False}),  # the longer match decides (fixtures68, 03)
    (None, ["IRI806"], ["IRI806"], {"IRI806": False}),  # a tie ignores
    (None, ["IRI506"], ["IRI5"], {"IRI506": False, "IRI501": True}),
    (["IRI1"], ["IRI"], [], {"IRI101": True}),  # 'IRI1' is longer than 'IRI'
    (["ALL"], ["IRI3"], [], {"IRI301": False, "IRI806": True}),
])
def test_a_code_selected_and_ignored_is_the_longer_matchs(select: list[str] | None, ignore: list[str],
                                                          extend: list[str], on: dict[str, bool]) -> None:
    """As flake8's DecisionEngine, so the command and the plugin agree under one configuration."""
    codes = select_codes(select, ignore, extend)
    assert {code: code in codes for code in on} == on
