"""A loop over a display (issue #27): its variable, read in the body, holds each of the display's items in turn.

``for path in ("/health", "/ready"): requests.get(BASE + path)`` sends two URLs; the value at the call is read
once per item, with the variable bound to it (``At.frame``), rather than once with a hole. The display may be
written in the ``for`` or bound to a name it reads (``for path in READINESS_PATHS``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from iri_lint.source.bindings import At, Binding, Kind, Scope
from iri_lint.source.choices import choice_in
from iri_lint.source.values import Seq, Table, Text, Value

__all__ = ["MAX_ITEMS", "held_item", "loop_over"]

MAX_ITEMS = 16  # a longer display is data, each item read in turn would multiply the checks
_LOOPS = (ast.For, ast.AsyncFor)
_DISPLAYS = (ast.List, ast.Tuple, ast.Set)


def loop_over(expr: ast.expr, at: At, evaluate: Callable[[ast.expr, At], object], r: object = None
              ) -> tuple[str, tuple[Any, ...]] | None:
    """The first name ``expr`` reads that is the variable of a ``for`` around its use over a display of at most
    ``MAX_ITEMS`` items (the variable not bound again in the loop), with the items' values; None for none.
    ``evaluate`` gives what an expression holds where a statement runs. So, where ``r``, the value of ``expr``,
    holds one, a module name bound in branches, with each value it may be left with (``source.choices``)."""
    if at.stmt is None or (at.frame is not None and len(at.frame) > 1):
        return None  # (one loop at a time, two choices: nested loops would multiply the checks)
    if type(r) is Value and (choice := choice_in(expr, r, lambda n: evaluate(n, at))) is not None:
        return choice  # (within a loop's item or a choice, a second choice: at most 4 x 16 checks)
    if at.frame is not None:
        return None
    variables = _loop_variables(at.scope)
    if not variables:
        return None  # (most scopes have no loop: no walk of the expression, which may be huge)
    line = at.stmt.lineno
    seen: set[str] = set()
    for node in ast.walk(expr):
        if type(node) is not ast.Name or node.id in seen or node.id not in variables:
            continue
        seen.add(node.id)
        loop = _loop_binding(at.scope, node.id, line)
        if loop is None:
            continue
        over, k = _iterated(loop, node.id)
        if over is None or not (type(over) in (*_DISPLAYS, ast.Attribute) or _constant_name(at.scope, over)):
            continue  # (another module's display: ``for page in seeds.START_PAGES``, fixtures207's note)
        items = _items(evaluate(over, At(at.scope, loop)), loop.iter, k)
        if items is not None and 0 < len(items) <= MAX_ITEMS:
            return node.id, items
    return None


def _iterated(loop: ast.For | ast.AsyncFor, name: str) -> tuple[ast.expr | None, int | None]:
    """What a loop iterates over (``X`` of ``for v in X``, ``X.values()``, ``X.items()``, ``enumerate(X)``) and
    where its variable ``name`` stands in each item (None: it is the item)."""
    target, it = loop.target, loop.iter
    k = None if type(target) is ast.Name else \
        next(i for i, e in enumerate(target.elts) if type(e) is ast.Name and e.id == name)  # type: ignore[attr-defined]
    if type(it) is not ast.Call or it.keywords:
        return it, k
    func = it.func
    if type(func) is ast.Attribute and not it.args and func.attr in ("values", "items") and \
            (k is None) is (func.attr == "values"):
        return func.value, k  # (a dict display's values, or its items' (key, value) pairs)
    if type(func) is ast.Name and func.id == "enumerate" and len(it.args) == 1 and k == 1 and \
            len(target.elts) == 2:  # type: ignore[attr-defined]
        return it.args[0], None  # (``for i, url in enumerate(MIRRORS)``: the display's items)
    return None, None


def _items(r: object, it: ast.expr, k: int | None) -> tuple[object, ...] | None:
    """The values a loop's variable takes over ``r`` (what the loop iterates over evaluates to), at ``k`` of each
    item when the target unpacks it; None when they are not all known."""
    if type(r) is Table and type(it) is ast.Call and type(it.func) is ast.Attribute:
        if k is None or k == 1:  # (``.values()``; the value of ``.items()``'s pair: no key is a URL here)
            return tuple(v for v, _ in r.items.values())
        return None
    if type(r) is not Seq or r.open:
        return None
    if k is None:
        return r.items
    unpacked = [item.items[k] for item in r.items if type(item) is Seq and not item.open and k < len(item.items)]
    return tuple(unpacked) if len(unpacked) == len(r.items) else None


def _loop_variables(scope: Scope) -> frozenset[str]:
    """The names a ``for`` of the scope binds (kept on the scope: a cache of its own would keep its module alive)."""
    if scope.loop_variables is None:
        scope.loop_variables = frozenset(name for name, bs in scope.names.items() if any(True for _ in _loops(bs)))
    return scope.loop_variables


def _loop_binding(scope: Scope, name: str, line: int) -> ast.For | ast.AsyncFor | None:
    bindings = scope.names.get(name, ())
    loop = next((s for s in _loops(bindings) if s.body[0].lineno <= line <= (s.end_lineno or 0)), None)
    if loop is None or not (type(loop.target) is ast.Name or (type(loop.target) is ast.Tuple and all(
            type(e) is ast.Name for e in loop.target.elts))):  # (``for name, url in PAIRS``: flat unpacking)
        return None
    first, last = loop.lineno, loop.end_lineno or 0
    if any(b.stmt is not loop and b.stmt is not None and first <= b.stmt.lineno <= last for b in bindings):
        return None  # (bound again in the body: which value a use reads depends on the order)
    return loop


def _constant_name(scope: Scope | None, expr: ast.expr) -> bool:
    """Whether ``expr`` is a name this module binds only by ``=`` (``for path in READINESS_PATHS``) or only
    imports (``from seeds import START_PAGES``, or a star import that may bind it)."""
    if type(expr) is not ast.Name:
        return False
    while scope is not None:
        bindings = scope.names.get(expr.id) or (scope.stars if scope.kind == "module" else None)
        if bindings:
            return all(b.kind is Kind.ASSIGN for b in bindings) or \
                all(b.kind is Kind.IMPORT or b.kind is Kind.STAR for b in bindings)  # (``from base import *``)
        scope = scope.parent
    return False


def _loops(bindings: Sequence[Binding]) -> Iterator[ast.For | ast.AsyncFor]:
    for b in bindings:
        if isinstance(b.stmt, _LOOPS):
            yield b.stmt


def held_item(at: At | None, node: ast.AST) -> bool:
    """Whether ``node`` spells text of an item a loop's variable holds where ``at`` reads the value once per item:
    that item is a use of its own (a fault it brings is placed in it, not at the variable)."""
    frame = at.frame if at is not None else None
    return frame is not None and any(type(p) is Text and p.node is node for v in frame.values() if type(v) is Value
                                     for p in v.pieces)
