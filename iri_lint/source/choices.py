"""Module names bound in branches (issue #27): each value a name may be left with.

``BILLING_BASE = "https://billing.example.com/api/v1"``, then ``if ENV == "staging": BILLING_BASE = ...``: a
function or another module reads a hole (the bindings disagree), but each value is one a URL API may be given
(fixtures206 repro 06). The hole keeps them (``Hole.choices``), and a use is checked with each in turn, as
with a loop's items (``source.loops``)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from iri_lint.source.bindings import At, Kind, Order, Scope
from iri_lint.source.extensions import covers
from iri_lint.source.values import Hole, HoleKind, Text, Value, dotted, each_choice

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState, Result

__all__ = ["MAX_CHOICES", "choice_in", "frame_key", "if_choices", "ifexp_value", "with_choices"]

MAX_CHOICES = 4  # (each is a use's check again)


def with_choices(state: ModuleState, r: Result, scope: Scope, order: Order, node: ast.AST, final: bool) -> Result:
    """A module name's ``final`` value (once the module has run), a hole because bindings in branches disagree,
    as a hole that keeps each value they may leave: the last ``=`` at the module's top level (unless later ones
    cover every run) and each ``=`` after it (at most 4 in all), those of some known text: a way that binds
    ``None`` or a hole gives the use no text to check."""
    if not final or scope.kind != "module" or type(r) is not Value or len(r.pieces) != 1:
        return r
    piece = r.pieces[0]
    if type(piece) is not Hole or piece.kind is not HoleKind.VALUE:
        return r
    bs = order.by_pos
    top = id(scope.body)
    last = max((i for i, b in enumerate(bs) if b.block == top), default=0)
    tail = bs[last:]
    if len(tail) > 2 and bs[last].block == top and covers(scope, [b.stmt for b in tail[1:]]):  # type: ignore[misc]
        tail = tail[1:]  # (if/else both bind it: the top-level value never stays)
    if not 1 < len(tail) <= MAX_CHOICES or any(b.kind is not Kind.ASSIGN or b.value is None for b in tail):
        return r
    values = []
    for b in tail:
        if type(b.value) is ast.Constant and b.value.value is None:
            continue  # (``API = None`` on one way: no URL there, the others' still reach the use)
        v = state._binding(scope, b, node)
        if type(v) is not Value or v.type != "str":
            return r
        if any(type(p) is Text for p in v.pieces):
            values.append(v)  # (a way that leaves a hole, ``os.environ["HOST"]``, is no value to check)
    return Value((piece._replace(choices=tuple(values)),), r.type) if values else r


def ifexp_value(state: ModuleState, node: ast.IfExp, at: At) -> Result:
    """``a if test else b``: their value when they agree, else a hole that keeps both when they are texts
    (``if_choices``); in a frame that holds one, that one."""
    if at.frame and (key := frame_key(node)) in at.frame:
        return at.frame[key]  # type: ignore[return-value]
    a, b = state.value(node.body, at), state.value(node.orelse, at)
    return a if type(a) is Value and type(b) is Value and a.same(b) else if_choices(node, a, b, state.hole(node))


def if_choices(node: ast.IfExp, a: Result, b: Result, plain: Value) -> Value:
    """``a if test else b`` of two texts that differ: the hole ``plain`` keeping both, unless the test reads text
    (``"&" if "?" in url else "?"``, ``url.endswith("/")``: which branch runs depends on what no path knows)."""
    hole = plain.pieces[0]
    if type(hole) is not Hole or type(a) is not Value or type(b) is not Value or \
            not any(type(p) is Text for p in (*a.pieces, *b.pieces)) or \
            any(_reads_text(n) for n in ast.walk(node.test)):
        return plain
    return Value((hole._replace(choices=(a, b)),), plain.type)


def _reads_text(node: ast.AST) -> bool:
    if type(node) is ast.Compare:
        return any(type(op) in (ast.In, ast.NotIn) for op in node.ops)
    return type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _TEXT_TESTS


_TEXT_TESTS = frozenset(("endswith", "startswith", "find", "rfind", "count", "index", "rindex", "__contains__"))


def frame_key(node: ast.AST) -> str | None:
    """What a frame holds a choice of ``node``'s value by: a name's or an attribute's dotted name, a conditional
    expression's place."""
    return f"({id(node)})" if type(node) is ast.IfExp else dotted(node)


def choice_in(expr: ast.expr, r: Value, evaluate: object) -> tuple[str, tuple[Value, ...]] | None:
    """The first name, attribute or conditional expression ``expr`` reads whose value is a hole with choices, by
    its frame key, with them; else "" and ``r`` with its first such hole replaced by each (a name's value holds
    it); None when ``r``, the value of ``expr``, holds no such hole."""
    if not any(type(p) is Hole and p.choices for p in r.pieces):
        return None
    for n in ast.walk(expr):
        if type(n) in (ast.Name, ast.Attribute, ast.IfExp) and (key := frame_key(n)) is not None:
            v = evaluate(n)  # type: ignore[operator]
            if type(v) is Value and len(v.pieces) == 1 and type(h := v.pieces[0]) is Hole and h.choices:
                return key, h.choices
    # (a name whose value holds one, ``url = ROOT + "/list"``: the value with each in its place; fixtures209 repro 01)
    return "", tuple(each_choice(r) or ())
