"""Template placeholders: the fast scan agrees with a plain reference scan and stays linear."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.source import templates
from iri_lint.source.model import HOLE
from iri_lint.source.templates import apply_templates, placeholder_spans

# -- the reference: one candidate character at a time (the scan before it was made fast) ----------

_PRINTF = re.compile(
    r"%(?:\([^)]*+\))?[#0 +\-]*+(?:\*|\d++)?(?:\.(?:\*|\d*+))?[hlL]?[diouxXeEfFgGcrsa%]"
)
_HEX2 = re.compile(r"%[0-9A-Fa-f]{2}")
_ROUTE = re.compile(r"<(?:[A-Za-z_]\w*+(?:\([^)>]*+\))?:)?[A-Za-z_]\w*+>")
_START = re.compile(r"[%{$<]")
Span = tuple[int, int, "str | None"]


def ref_spans(value: str, *, percent_template: bool = False, format_template: bool = False) -> list[Span]:
    """The reference scan: try every ``%``, ``{``, ``$`` and ``<`` in turn."""
    spans: list[Span] = []
    pos = 0
    while (m := _START.search(value, pos)) is not None:
        i = m.start()
        end, text = _ref_at(value, i, percent_template, format_template)
        if end:
            spans.append((i, end, text))
            pos = end
        else:
            pos = i + 1
    return _ref_close_braces(value, spans) if format_template else spans


def _ref_at(value: str, i: int, pct: bool, fmt: bool) -> tuple[int, str | None]:
    c = value[i]
    if c == "%":
        if value.startswith("%%", i):
            return (i + 2, "%") if pct else (0, None)
        if pct or not _HEX2.match(value, i):
            pm = _PRINTF.match(value, i)
            return (pm.end() if pm else 0), None
        return 0, None
    if c == "{":
        if fmt and value.startswith("{{", i):
            return i + 2, "{"
        if value.startswith("{%", i):
            close = value.find("%}", i + 2)
            return (close + 2 if close >= 0 else 0), None
        return _ref_braces(value, i), None
    if c == "$":
        return (_ref_braces(value, i + 1) if value.startswith("${", i) else 0), None
    rm = _ROUTE.match(value, i)
    return (rm.end() if rm else 0), None


def _ref_braces(value: str, i: int) -> int:
    depth = 0
    for j in range(i, len(value)):
        if value[j] == "{":
            depth += 1
        elif value[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return 0


def _ref_close_braces(value: str, spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    pos = 0
    for a, b, t in [*spans, (len(value), len(value), None)]:
        j = value.find("}}", pos, a)
        while j >= 0:
            out.append((j, j + 2, "}"))
            j = value.find("}}", j + 2, a)
        if a < len(value) or b > a:
            out.append((a, b, t))
        pos = b
    return out


def ref_apply(value: str, holes: Sequence[tuple[int, int]], **flags: bool) -> tuple[Any, ...]:
    """The reference collapse: character by character."""
    spans = ref_spans(value, **flags)
    if not spans:
        return value, tuple(holes), None
    parts: list[str] = []
    index_map: list[int] = []
    new_holes: list[tuple[int, int]] = []
    old = {a for a, _ in holes}
    pos = 0
    for a, b, text in [*spans, (len(value), len(value), "")]:
        for i in range(pos, a):
            if i in old:
                new_holes.append((len(index_map), len(index_map) + 1))
            index_map.append(i)
        parts.append(value[pos:a])
        if text is None:
            new_holes.append((len(index_map), len(index_map) + 1))
            parts.append(HOLE)
            index_map.append(a)
        else:
            parts.append(text)
            index_map.extend([a] * len(text))
        pos = b
    index_map.append(len(value))
    return "".join(parts), tuple(new_holes), index_map


# -- agreement ------------------------------------------------------------------------------------

FLAGS = [{"percent_template": p, "format_template": f} for p in (False, True) for f in (False, True)]
PIECES = [
    "%", "{", "}", "$", "<", ">", "(", ")", ":", "a", "_", " ", "s", "d", "2F", "%%", "{{", "}}",
    "%(", "{%", "%}", "${", "<a", "<a(", "%(a)s", "<int:x>", "{x}", "<a(b):c>", "%5.2f", "%-*d",
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
braces = st.lists(st.sampled_from(["{", "}", "{", "}", "a", "$", "{%", "%}", "{{", " "]), max_size=120).map("".join)


def _check(value: str) -> None:
    holes = [(i, i + 1) for i, c in enumerate(value) if c == "a"]
    for flags in FLAGS:
        assert placeholder_spans(value, **flags) == ref_spans(value, **flags), (value, flags)
        t = apply_templates(value, holes, every_syntax=True, **flags)
        assert (t.value, t.holes, t.index_map) == ref_apply(value, holes, **flags), (value, flags)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_agrees_with_reference(value: str) -> None:
    _check(value)


@settings(max_examples=300, deadline=None)
@given(braces)
def test_agrees_with_reference_on_nested_braces(value: str) -> None:
    _check(value)  # groups deeper than the search's own depth, unbalanced runs, "${", "{%"


@pytest.mark.parametrize(
    "value",
    [
        "{" * 7 + "x" + "}" * 7,  # deeper than the search matches by itself
        "{" * 300 + "}",
        "{ " * 200 + "}" * 3,
        "${" * 9 + "}" * 9 + "{%" * 5,
        "{" + "{{{{{}}}}}" * 40 + "}",
        "{%{%{%" + "}" * 4 + "%s",
        "%(a%(b)s %(%(%(x)d",
        "<a(<b>):c> <a(<b):c> <x(<y(<z)>",
        "%(a %s <a(b <c> ) %(d)x",
    ],
)
def test_agrees_on_hostile_shapes(value: str) -> None:
    _check(value)
    _check(value * 7)


def test_long_runs_agree() -> None:
    for unit in ("%", "{", "}", "{{", "}}", "%%", "$", "<", "%(", "{%", "${", "%2F", "{x", "<a("):
        _check(unit * 1500)
        _check("http://x/" + unit * 1500 + "/{y}/%s")


# -- linear: a run of characters that start nothing is one step ----------------------------------


class _Counting:
    """Wraps a compiled pattern; counts the matches the scan looks at."""

    def __init__(self, pat: re.Pattern[str], counter: list[int]) -> None:
        self.pat = pat
        self.counter = counter

    def finditer(self, value: str, pos: int = 0) -> Iterator[re.Match[str]]:
        self.counter[0] += 1
        for m in self.pat.finditer(value, pos):
            self.counter[0] += 1
            yield m


def _steps(monkeypatch: pytest.MonkeyPatch, value: str, **flags: Any) -> int:
    counter = [0]
    real = templates._pattern

    def counting(*args: Any) -> Any:
        return _Counting(real(*args), counter)

    monkeypatch.setattr(templates, "_pattern", counting)
    templates.apply_templates(value, **flags)
    monkeypatch.undo()
    return counter[0]


@pytest.mark.parametrize(
    "unit",
    ["%", "{", "{{", "$", "<", "%(", "{%", "${", "%2F", "{x", "<a(", "<a(<", "a", " ", "\\", "\t"],
)
@pytest.mark.parametrize("flags", FLAGS)
def test_runs_cost_a_few_steps(monkeypatch: pytest.MonkeyPatch, unit: str, flags: dict[str, bool]) -> None:
    value = "http://x/" + unit * (20_000 // len(unit))
    if flags["percent_template"] and unit in ("%", "%2F"):  # every "%%" / "%2F" is a placeholder
        return
    if flags["format_template"] and unit in ("{", "{{"):  # every "{{" is an escape (one span per run)
        assert _steps(monkeypatch, value, **flags) <= 10
        return
    assert _steps(monkeypatch, value, **flags) <= 10, unit


def test_deep_and_unbalanced_braces_cost_a_few_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("{" * 20_000 + "}" * 20_000, "{" * 40_000 + "{}", "{ " * 20_000 + "}"):
        assert _steps(monkeypatch, value) <= 10
        runs = templates._BraceRuns(value, 0, len(value))
        assert len(runs.starts) <= 3
    assert placeholder_spans("{" * 20_000 + "}" * 20_000) == [(0, 40_000, None)]
    assert placeholder_spans("{" * 40_000 + "{}") == [(40_000, 40_002, None)]


def test_escape_runs_are_one_step_each(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _steps(monkeypatch, "%%" * 10_000, percent_template=True) <= 3
    assert _steps(monkeypatch, "{{" * 10_000, format_template=True) <= 3
    t = apply_templates("a%%%%b", percent_template=True)
    assert (t.value, t.index_map) == ("a%%b", [0, 1, 3, 5, 6])
