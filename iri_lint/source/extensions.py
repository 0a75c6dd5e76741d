"""Names extended with ``+=`` (issue #27): where the values they make are checked.

A run of ``url += x`` is checked once it ends (``extended_next``). A name a branch extends, read at a URL API
(fixtures195 repro 03): ``target = SEARCH + quote_plus(term)``, then
``if page > 1: target += "?page=" + str(page)``, then ``requests.get(target)``: at the request the name is a
hole (a binding in a branch could run or not), but on the path through the branch the API is given what the
``+=`` made. Each ``+=`` after the last binding that sets the name afresh before the use is such a path's
value, checked where it stands, as a URL-named target's ``+=`` is."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from iri_lint.source.bindings import At, Kind
from iri_lint.source.values import Value, concat, dotted

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState

__all__ = ["extended_next", "extensions"]

_MAX_EXTENSIONS = 16  # (as many as a choice at the use yields)


def extensions(state: ModuleState, name: ast.expr, at: At) -> Iterator[tuple[ast.AugAssign, At, Value]]:
    """The ``name += piece`` statements of the use's scope after the last binding before the use that sets the
    name afresh, each with where it is evaluated and the value it makes; none when a binding of another kind
    stands between."""
    stmt = at.stmt
    if type(name) is not ast.Name or stmt is None:
        return
    earlier = sorted((b for b in at.scope.names.get(name.id, ()) if b.stmt is not None and b.pos < (stmt.lineno, 0)),
                     key=lambda b: b.pos)
    found: list[ast.AugAssign] = []
    for b in reversed(earlier):
        if b.kind is not Kind.AUG:
            break
        found.append(b.stmt)  # type: ignore[arg-type]
    else:
        return  # (no binding sets the name afresh before the use: a parameter's, or the module's)
    for aug in reversed(found[:_MAX_EXTENSIONS]):
        aug_at = At(at.scope, aug)
        was, more = state.value(aug.target, aug_at), state.value(aug.value, aug_at)
        if type(was) is Value and type(more) is Value:
            yield aug, aug_at, concat([was, more], aug, state.src)


def extended_next(node: ast.AugAssign, at: At) -> bool:
    """Whether the statement after ``url += x`` extends the same name again: the value is checked once the
    run of ``+=`` ends (it holds every piece the run added; checking each step would cost the run's length
    squared)."""
    p = at.scope.position(node)
    if p is None:
        return False
    owner = p.parent if p.parent is not None else at.scope.node
    for field in ("body", "orelse", "finalbody"):
        block = getattr(owner, field, None)
        if type(block) is list and id(block) == p.block:
            nxt = block[p.at + 1] if p.at + 1 < len(block) else None
            return type(nxt) is ast.AugAssign and type(nxt.op) is ast.Add and dotted(nxt.target) == dotted(node.target)
    return False
