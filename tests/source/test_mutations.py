"""Attributes a module binds on objects from outside their classes (``iri_lint.source.mutations``)."""

from __future__ import annotations

import pytest

from iri_lint.source.mutations import EVERY, attributes_set_on_objects, containers_changed, globals_rebound


@pytest.mark.parametrize(("text", "bound"), [
    ("api.BASE = 'x'\n", {"BASE": {"api"}}),
    ("api . BASE += 'x'\nobjs[0].ROOT //= 2\nApi().HOST = h\n", {"BASE": {"api"}, "ROOT": {""}, "HOST": {""}}),
    ("if api.BASE == x or api.ROOT <= y or api.HOST != z:\n    pass\n", {}),  # comparisons bind nothing
    ("self.BASE = 'x'\ncls.ROOT = 'y'\n", {}),  # (the class's own methods: its scope reads those)
    ("f(a.b, c=d.e)\nx = a.b\nK.ROOT = 'z'\n", {"ROOT": {"K"}}),
    # a '.' ending a line (a comment's full stop, a float's) binds nothing of the next line (fixtures188 repro 01)
    ("# Copied from the address bar.\nINDEX_URL = 'x'\nTIMEOUT = 30.\n\n  CDN = 'y'\n", {}),
])
def test_attribute_bindings_are_read_from_the_text(text: str, bound: dict[str, set[str]]) -> None:
    assert attributes_set_on_objects(text) == bound


@pytest.mark.parametrize("text", ["setattr(api, name, v)\n", "api.__dict__.update(kw)\n", "vars(api)[k] = v\n"])
def test_computed_bindings_may_bind_every_attribute(text: str) -> None:
    assert attributes_set_on_objects(text) is EVERY


def test_long_words_between_dots_cost_linear_time() -> None:
    """Each dot looks at the word before and after it once: a million-character word chain is one pass."""
    word = "a" * 100_000
    assert attributes_set_on_objects(".".join([word] * 10) + " = 1\n") == {word: {word}}
    assert attributes_set_on_objects("." * 1_000_000) == {}


@pytest.mark.parametrize(("text", "rebound"), [
    ('globals()["HOST"] = h\nglobals()[\'ROOT\'] += "/"\n', {"HOST", "ROOT"}),
    ('x = globals()["HOST"]\nif globals()["A"] == 1 or globals()["B"] <= 2:\n    pass\n', set()),
    ("app.exec()\nself.exec(q)\n", set()),
    ("globals()[name] = v\n", None), ("globals().update(d)\n", None), ("exec(code)\n", None),
    ("setattr(sys.modules[__name__], k, v)\n", None),
])
def test_names_a_module_binds_by_name(text: str, rebound: set[str] | None) -> None:
    assert globals_rebound(text) == (None if rebound is None else frozenset(rebound))


def test_subscripts_of_globals_cost_linear_time() -> None:
    """Each ``globals()[`` reads its line up to the next one: 100,000 of them on one line are one pass."""
    assert globals_rebound("globals()[" * 100_000) == frozenset()
    assert globals_rebound("globals()[" * 50_000 + "] = 1") is None


@pytest.mark.parametrize(("text", "grown", "changed"), [
    ("t = []\nt.append(1)\nself.paths .extend(x)\n", {"t", "paths"}, set()),
    ("d['k'] = 1\nx[a[0]] += 2\ndel z[1]\nw.sort()\nq.update(a=1)\n", set(), {"d", "x", "z", "w", "q"}),
    ("if q[0] == 1 or y[0] <= 2:\n    f(parts, x=[1])\n", set(), set()),  # comparisons and uses change nothing
])
def test_containers_changed_in_place_are_read_from_the_text(text: str, grown: set[str], changed: set[str]) -> None:
    found, may_change = containers_changed(text)
    assert found == grown and may_change is not None and set(may_change) == changed


def test_item_stores_cost_linear_time() -> None:
    """Each ``]=`` reads back to its ``[`` at most a bounded distance: past it, any container may change."""
    assert containers_changed("[" + "]=" * 200_000)[1] is None
    found, may_change = containers_changed("x[" * 200_000 + "]=1\n")
    assert not found and may_change is not None and set(may_change) == {"x"}
    assert containers_changed(("del " + "a" * 50 + " ") * 100_000) == (frozenset(), frozenset())
