"""The fix loop (``iri_lint.fix.fix_text``): cost per pass, fixes that undo each other, duplicates."""

from __future__ import annotations

import time

import pytest

from iri_lint.config import Config
from iri_lint.fix import NotApplied, fix_text
from iri_lint.fix_status import FixStatus
from iri_lint.lint import SourceFinding, lint_text


def _lint(config: Config):  # type: ignore[no-untyped-def]
    def lint(text: str) -> list[SourceFinding]:
        return lint_text(text, config)

    return lint


def _urlopen_module(n: int) -> str:
    calls = "".join(f'urllib.request.urlopen("https://example.com/caf\u00e9/{i}")\nx_{i} = {i}\n' for i in range(n))
    return "import urllib.request\n" + calls


def _seconds(text: str) -> float:
    lint = _lint(Config())
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()  # (CPU time: what the work costs, not what other processes take)
        run = fix_text(text, lint)
        best = min(best, time.process_time() - t0)
    assert run.remaining == [] and len(run.applied) == text.count("urlopen(")
    return best


@pytest.mark.slow
def test_fixing_grows_linearly_with_the_fixable_literals_of_a_file() -> None:
    """4x the fixable literals costs about 4x (16x if each fix re-parsed the whole file: issue 30)."""
    small, large = _seconds(_urlopen_module(150)), _seconds(_urlopen_module(600))
    assert large / small < 8, f"150 literals {small:.2f} s, 600 literals {large:.2f} s"


def _sabotage(monkeypatch: pytest.MonkeyPatch, marker: str, new: str) -> None:
    """The source edits of the literal holding ``marker`` also write ``new`` at its body's start."""
    from iri_lint import fix
    from iri_lint.source.edits import SourceEdit
    from iri_lint.source.edits import edit_literal as real

    def edit_literal(lit, start, end, replacement, hold=None):  # type: ignore[no-untyped-def]
        got = real(lit, start, end, replacement, hold)
        if marker in lit.value and isinstance(got, list):
            sm = lit.locator.source_map()
            body = sm.pieces[0].body_start
            got = [SourceEdit(body, body, new), *got]
        return got

    monkeypatch.setattr(fix, "edit_literal", edit_literal)


@pytest.mark.parametrize(("new", "why"), [
    ('"', "re-parsing the edited file did not give the intended value"),  # the file no longer parses
    ("x", "re-parsing the edited file did not give the intended value"),  # it parses, to another value
])
def test_one_bad_edit_among_many_is_refused_alone(monkeypatch: pytest.MonkeyPatch, new: str, why: str) -> None:
    """One re-parse proves all the edits of a pass; when it fails, the edits at fault are found and
    refused, and every other fix is applied."""
    text = _urlopen_module(40).replace("caf\u00e9/17", "caf\u00e9/bad17")
    _sabotage(monkeypatch, "bad17", new)
    run = fix_text(text, _lint(Config()))
    assert len(run.applied) == 39
    assert run.text == text.replace("caf\u00e9/", "caf%C3%A9/").replace("caf%C3%A9/bad17", "caf\u00e9/bad17")
    assert [(sf.finding.code, run.not_applied.get(i)) for i, sf in enumerate(run.remaining)] == \
        [("IRI404", NotApplied(FixStatus.REFUSED, f"refused: {why}"))]


# ------------------------------------------------------------------ fixes that undo each other (item 9)

CAFE = 'import urllib.request\nurllib.request.urlopen("https://example.com/caf\u00e9")\n'  # a safe IRI404 fix


@pytest.mark.parametrize(("literal", "config", "winner"), [
    # IRI115 percent-encodes non-ASCII for a URI; IRI405 decodes it again (sec. 3.2)
    ("https://example.com/caf%C3%A9", Config(select=("ALL",), profile="uri"), "IRI115"),
    ("https://example.com/caf\u00e9", Config(select=("ALL",), profile="uri"), "IRI115"),
    # IRI204 / IRI205 percent-encode a bidi component that breaks sec. 4.2; IRI405 decodes it
    ("http://example.com/ab%D7%90%D7%91", Config(extend_select=("IRI405", "IRI306")), "IRI204"),
    ("http://example.com/ab\u05d0\u05d1", Config(extend_select=("IRI405", "IRI306")), "IRI204"),
    ("http://example.com/%D7%90%D7%911", Config(extend_select=("IRI405",)), "IRI205"),
    ("http://example.com/%D7%90%D7%911", Config(select=("ALL",), profile="uri"), "IRI115"),
])
def test_fixes_that_undo_each_other_leave_the_winners_form(literal: str, config: Config, winner: str) -> None:
    """The cycles the pairs of rules' fixes make: the fixed point is the winner's form (FIX_PRECEDENCE:
    a mapping fix over a ladder step), IRI405's finding stays reported, the file's other fixes apply."""
    text = f"import requests\nrequests.get({literal!r})\n" + CAFE
    run = fix_text(text, _lint(config))
    assert not run.unsettled
    encoded = literal.replace("\u00e9", "%C3%A9").replace("\u05d0\u05d1", "%D7%90%D7%91")
    assert run.text == text.replace(literal, encoded).replace("caf\u00e9\")\n", "caf%C3%A9\")\n")
    left = [(sf.code, run.not_applied.get(i)) for i, sf in enumerate(run.remaining) if sf.finding.fix]
    if "%D7" in literal or "\u05d0" in literal:  # (fixtures128, repro 01: RTL text that would break sec. 4.2
        # there stays encoded, sec. 3.2 step 4: no IRI405 to refuse)
        assert "IRI405" not in {code for code, _ in left}
        assert [f.code for f in _lint(config)(run.text) if f.code == "IRI405"] == []
    else:
        assert ("IRI405", NotApplied(FixStatus.REFUSED, f"{winner}'s fix undoes this one and takes precedence")) \
            in left
    assert 4 in {a.finding.line for a in run.applied}  # the other literal's fix (IRI404, IRI115 for a URI)
    again = fix_text(run.text, _lint(config))
    assert not again.changed and again.text == run.text


def _examples_module() -> str:
    """Every rule's own examples, each passed to a fetching API and to a URI-only one."""
    from iri_lint.rules.registry import all_rules

    lines = ["import requests", "import urllib.request"]
    for rule in all_rules():
        for ex in (*rule.valid, *rule.invalid):
            if ex.kind != "python":  # (a module, not an IRI: IRI901)
                lines += [f"requests.get({ex.text!r})", f"urllib.request.urlopen({ex.text!r})"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("profile", ["iri", "uri", "iri-3987bis", "leiri", "web-address"])
def test_every_rules_examples_fix_to_a_fixed_point(profile: str) -> None:
    """Exhaustive over the rules' own examples, every rule on, unsafe fixes too: the passes settle
    (no exit 2), and fixing the result again changes nothing."""
    lint = _lint(Config(select=("ALL",), profile=profile))
    run = fix_text(_examples_module(), lint, unsafe=True)
    assert not run.unsettled and run.error is None
    again = fix_text(run.text, lint, unsafe=True)
    assert not again.changed, [(a.finding.code, a.finding.line) for a in again.applied]


@pytest.fixture
def twin_insertions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two injected rules whose fixes make the same zero-width insertion: '/ping' -> '/ping!'."""
    import dataclasses

    from iri_lint.rules import engine
    from iri_lint.rules.facts import Facts
    from iri_lint.rules.model import Edit, Raw
    from iri_lint.rules.registry import full_rule

    def twin(facts: Facts) -> list[Raw]:
        i = facts.ref.text.find("ping")
        if i < 0 or facts.ref.text[i + 4 : i + 5] == "!":
            return []
        return [Raw(i, i + 4, "twin", (Edit(i + 4, i + 4, "!"),))]

    extra = tuple(dataclasses.replace(full_rule(code), check=twin) for code in ("IRI303", "IRI304"))
    real = engine.checks_for
    monkeypatch.setattr(engine, "checks_for", lambda enabled, present=-1: (
        *real(enabled, present), *(r for r in extra if r.code in enabled)))


@pytest.mark.usefixtures("twin_insertions")
def test_the_same_edit_from_two_fixes_is_made_once() -> None:
    """Applying a set of fixes is idempotent on duplicates: an insertion two findings share is made once,
    and both findings are fixed by it."""
    text = 'import requests\nrequests.get("https://example.com/ping")\n'
    run = fix_text(text, _lint(Config(extend_select=("IRI303", "IRI304"))))
    assert run.text == text.replace("ping", "ping!")
    assert sorted(a.finding.code for a in run.applied) == ["IRI303", "IRI304"] and run.remaining == []


def test_one_rules_fixes_of_a_literal_go_together_and_do_not_meet_the_pass_limit() -> None:
    """Forty non-ASCII characters of one URL for IRI115 are one pass's work, not forty, more than the passes
    allowed (with fourteen findings and ten passes, the file was left unfixed: exit 2). (The linter now
    also reports one rule's findings in a literal as one, with all their edits.)"""
    literal = "https://example.com/" + "/".join(["\u00e9"] * 40)
    text = f"import requests\nrequests.get({literal!r})\n"
    run = fix_text(text, _lint(Config(profile="uri")))
    assert not run.unsettled and {a.finding.code for a in run.applied} == {"IRI115"} and run.remaining == []
    assert run.text == text.replace("\u00e9", "%C3%A9")


def test_another_rules_fix_waits_for_the_literal_as_the_first_left_it() -> None:
    """A fix's value assumes the literal as it was linted: IRI310 ("add '/'") was found while U+FF1A
    was no delimiter; once IRI302 makes it ':', the port is '80.com', invalid, and no '/' is added."""
    text = "import requests\nrequests.get('https://example\uff1a80.com')\n"
    run = fix_text(text, _lint(Config(select=("ALL",))), unsafe=True)
    assert run.text == "import requests\nrequests.get('https://example:80.com')\n"
    left = {sf.code: run.not_applied.get(i) for i, sf in enumerate(run.remaining)}
    assert "IRI310" not in left and left.get("IRI112") is None


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize(("literal", "fixed"), [
    ('"https://export.example.fr/s\\u0323\\u0307"', '"https://export.example.fr/\\u1e69"'),  # an escape it holds
    ('r"https://export.example.fr/s\u0323\u0307"', None),  # a raw string has no escapes: refused
])
def test_a_character_the_encoding_cannot_hold_is_written_as_an_escape(literal: str, fixed: str | None) -> None:
    """fixtures157 repro 05: IRI301's NFC fix writes U+1E69, which a latin-1 file cannot hold; the literal has
    escapes, so the fix writes it as one (and is no longer counted as available only to be refused)."""
    text = f"# -*- coding: latin-1 -*-\nACCENT_URL = {literal}\n"
    run = fix_text(text, _lint(Config()), unsafe=True, can_hold=_latin1)
    if fixed is None:
        assert run.text == text and not run.applied
    else:
        assert run.text == text.replace(literal, fixed) and [a.finding.code for a in run.applied] == ["IRI301"]
