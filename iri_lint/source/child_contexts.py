"""How a node's children are used, for the nodes that only mark them: a dict display's values under URL-named
keys, comparisons, ``+`` and ``%``, assertions' messages, bare strings (the literal scan's handlers that bind
nothing; ``source.literals`` holds those that do)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, Protocol

from iri_lint.source.candidates import is_key_name
from iri_lint.source.marks import ScanOptions
from iri_lint.source.model import Reason
from iri_lint.source.scopes import says_scope
from iri_lint.source.uses import EXCLUDED, IDENTIFIER, MESSAGE, PCT, SCOPE, TEXT, Ctx


class Marker(Protocol):
    """What these handlers need of the scan."""

    ctx: dict[int, Ctx]
    opts: ScanOptions

    def mark(self, node: ast.expr | None, ctx: Ctx) -> None: ...
    def mark_url_value(self, value: ast.expr | None, ctx: Ctx) -> None: ...
    def is_url_name(self, name: str | None) -> bool: ...


def _dict(s: Marker, node: ast.Dict) -> None:
    for key, value in zip(node.keys, node.values, strict=True):
        if type(key) is ast.Constant and isinstance(key.value, str):
            s.mark(key, IDENTIFIER)
            if s.is_url_name(key.value) and is_key_name(key.value):
                s.mark_url_value(value, Ctx(Reason.URL_NAME))
            elif says_scope(key.value):
                s.mark_url_value(value, SCOPE)


def _compare(s: Marker, node: ast.Compare) -> None:
    left = node.left
    for op, right in zip(node.ops, node.comparators, strict=True):
        t = type(op)
        if t is ast.Eq or t is ast.NotEq:
            s.mark(left, IDENTIFIER)
            s.mark(right, IDENTIFIER)
        elif t is ast.In or t is ast.NotIn:
            membership(s, left, right)
        left = right


def membership(s: Marker, member: ast.expr, container: ast.expr) -> None:
    """``member in container`` (or unittest's ``assertIn(member, container)``): the member is a piece searched for
    (``"://" in url``), the container a text searched in, or a display of whole values."""
    s.mark(member, EXCLUDED)
    if type(container) in (ast.Tuple, ast.List, ast.Set):
        for elt in container.elts:  # type: ignore[attr-defined]
            s.mark(elt, IDENTIFIER)
    else:
        s.mark(container, EXCLUDED)


def _binop(s: Marker, node: ast.BinOp) -> None:
    own = s.ctx.pop(id(node), None)
    t = type(node.op)
    if t is ast.Add:
        s.mark(node.left, EXCLUDED)
        s.mark(node.right, EXCLUDED)
    elif t is ast.Mod:
        s.mark(node.left, own.with_template(pct=True) if own else PCT)
        s.mark(node.right, EXCLUDED)


def _assert(s: Marker, node: ast.Assert | ast.Raise) -> None:
    """An assertion's message, an exception's arguments: messages (``raise HTTPError(url, ...)``'s URL API
    context, marked later, wins over it)."""
    if type(node) is ast.Assert:
        s.mark(node.msg, MESSAGE)
    elif type(exc := node.exc) is ast.Call:  # type: ignore[union-attr]
        for arg in exc.args:
            s.mark(arg, MESSAGE)


def _expr(s: Marker, node: ast.Expr) -> None:
    # docstrings and bare string statements are prose (text mode looks inside them)
    if type(node.value) in (ast.Constant, ast.JoinedStr):
        s.mark(node.value, TEXT if s.opts.include_docstrings else EXCLUDED)


CHILD_MARKERS: dict[type, Callable[[Any, Any], None]] = {
    ast.Dict: _dict,
    ast.Compare: _compare,
    ast.BinOp: _binop,
    ast.Expr: _expr,
    ast.Assert: _assert,
    ast.Raise: _assert,
}
