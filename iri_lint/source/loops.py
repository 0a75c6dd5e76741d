"""A loop over a display (issue #27): its variable, read in the body, holds each of the display's items in turn.

``for path in ("/health", "/ready"): requests.get(BASE + path)`` sends two URLs; the value at the call is read
once per item, with the variable bound to it (``At.frame``), rather than once with a hole.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from iri_lint.source.bindings import At, Binding, Scope
from iri_lint.source.values import HoleKind, Src, Value

__all__ = ["MAX_ITEMS", "loop_over"]

MAX_ITEMS = 16  # a longer display is data, each item read in turn would multiply the checks
_LOOPS = (ast.For, ast.AsyncFor)
_DISPLAYS = (ast.List, ast.Tuple, ast.Set)


def loop_over(value: Value, at: At, src: Src) -> tuple[str, ast.For | ast.AsyncFor] | None:
    """The first hole of ``value`` that reads the variable of a ``for`` over a display around its use (the
    variable not bound again in the loop), with that loop; None for none."""
    if at.frame is not None or at.stmt is None:
        return None
    line = at.stmt.lineno
    for _, hole in value.holes():
        node = hole.node
        if hole.kind is HoleKind.VALUE and hole.src is src and type(node) is ast.Name:
            loop = _loop_binding(at.scope, node.id, line)
            if loop is not None:
                return node.id, loop
    return None


def _loop_binding(scope: Scope, name: str, line: int) -> ast.For | ast.AsyncFor | None:
    bindings = scope.names.get(name, ())
    loop = next((s for s in _loops(bindings) if s.body[0].lineno <= line <= (s.end_lineno or 0)), None)
    if loop is None or type(loop.target) is not ast.Name or type(loop.iter) not in _DISPLAYS:
        return None
    items = loop.iter.elts  # type: ignore[attr-defined]
    if not 0 < len(items) <= MAX_ITEMS or any(type(e) is ast.Starred for e in items):
        return None
    first, last = loop.lineno, loop.end_lineno or 0
    if any(b.stmt is not loop and b.stmt is not None and first <= b.stmt.lineno <= last for b in bindings):
        return None  # (bound again in the body: which value a use reads depends on the order)
    return loop


def _loops(bindings: Sequence[Binding]) -> Iterator[ast.For | ast.AsyncFor]:
    for b in bindings:
        if isinstance(b.stmt, _LOOPS):
            yield b.stmt
