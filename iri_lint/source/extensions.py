"""Names extended with ``+=`` (issue #27): where the values they make are checked.

A run of ``url += x`` is checked once it ends (``extended_next``). A name a branch extends, read at a URL API
(fixtures195 repro 03): ``target = SEARCH + quote_plus(term)``, then
``if page > 1: target += "?page=" + str(page)``, then ``requests.get(target)``: at the request the name is a
hole (a binding in a branch could run or not), but on the path through the branch the API is given what the
``+=`` made. Each ``+=`` after the last binding that sets the name afresh before the use is such a path's
value, checked where it stands, as a URL-named target's ``+=`` is."""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Iterator
from typing import TYPE_CHECKING

from iri_lint.source.bindings import At, Kind, Scope
from iri_lint.source.blocks import TRY
from iri_lint.source.values import Value, concat, dotted

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState

__all__ = ["extended_next", "extensions", "path_values"]

_MAX_EXTENSIONS = 16  # (as many as a choice at the use yields)


def path_values(state: ModuleState, expr: ast.expr, at: At, r: object
                ) -> Iterator[tuple[ast.AST | None, ast.expr, At, Value, str | None]]:
    """Each path's value a URL API is given where branches extend a name its argument reads: the name alone,
    checked at each ``+=`` (its statement, value, place and name), or joined at the use (``get(url +
    "?page=2")``: the use's own place, None; fixtures202 repro 02)."""
    if type(r) is not Value:
        return
    if r.opaque:
        for aug, aug_at, v in extensions(state, expr, at):
            yield aug, aug.value, aug_at, v, dotted(expr)
    elif (name := next((h.node for _, h in r.holes() if type(h.node) is ast.Name), None)) is not None:
        for _, _, v in extensions(state, name, at):
            if type(joined := state.value(expr, at._replace(frame={name.id: v}))) is Value:
                yield None, expr, at, joined, None


def extensions(state: ModuleState, name: ast.expr, at: At) -> Iterator[tuple[ast.AugAssign, At, Value]]:
    """The ``name += piece`` statements of the use's scope after the last binding before the use that sets the
    name afresh (at most 16), each with where it is evaluated and the values of at most two paths through it,
    from the fresh binding's value: through the earlier ``+=`` one run may take with it (the first of each set
    of alternatives), or through only those that always run where no earlier alternatives cover every run; then
    its own piece and the later ones that always run. None when a binding of another kind stands between."""
    stmt, scope = at.stmt, at.scope
    if type(name) is not ast.Name or stmt is None:
        return
    if name.id not in scope.names:
        return
    order = scope.order(name.id)  # (source order, looked up by bisection: a use reads its last bindings only)
    end = bisect_left(order.positions, (stmt.lineno, 0))
    augs: list[ast.AugAssign] = []
    for b in reversed(order.by_pos[max(0, end - _MAX_EXTENSIONS - 1) : end]):
        if b.kind is not Kind.AUG:
            fresh = b
            break
        augs.append(b.stmt)  # type: ignore[arg-type]
    else:
        return  # (no binding sets the name afresh before the use within reach: a parameter's, the module's)
    if not augs or fresh.stmt is None:
        return  # (set afresh after its last ``+=``: that binding's value is the use's)
    augs.reverse()
    # (what the fresh binding gives, not the name read at the first ``+=``: in a loop that is the loop's hole)
    start = state.value(fresh.value, At(fresh.scope or scope, fresh.stmt)) if fresh.kind is Kind.ASSIGN and \
        fresh.value is not None else state.value(augs[0].target, At(scope, augs[0]))
    if type(start) is not Value:
        return
    home = scope.position(fresh.stmt)
    chains = [_chain(scope, aug, None if home is None else home.block) for aug in augs]
    always = [not any(type(p) in _BRANCHES and not (type(p) in TRY and block == id(p.body))  # type: ignore[attr-defined]
                      for p, block in chain) for chain in chains]
    pieces = []
    for aug in augs:
        more = state.value(aug.value, At(scope, aug))
        pieces.append(more if type(more) is Value else state.hole(aug.value))
    # (the path through no branch exists up to the first ``+=`` that has a covering alternative before it)
    covered = next((m for m in range(len(augs)) if any(_covered(_split(chains[i], chains[m])) for i in range(m))),
                   len(augs))
    for k, aug in enumerate(augs):
        if state.budget <= 0:
            return  # (each path's value is pieces made: within the module's budget, as any value)
        state.budget -= len(augs)
        later = [pieces[j] for j in range(k + 1, len(augs)) if always[j] and _split(chains[k], chains[j]) is None]
        ways = {tuple(_path(chains, range(k), k))}
        if k <= covered:
            ways.add(tuple(i for i in range(k) if always[i] and _split(chains[i], chains[k]) is None))
        for way in sorted(ways):
            yield aug, At(scope, aug), concat([start, *(pieces[i] for i in way), pieces[k], *later], aug, state.src)


_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Match, *TRY)  # (a ``with`` or a ``try`` body: always)


def _chain(scope: Scope, stmt: ast.stmt, home: int | None) -> list[tuple[ast.stmt, int]]:
    """The compound statements around ``stmt`` up to the statement list ``home``, each with the id() of the
    list of it that holds the way down (``body``, ``orelse``, a handler's)."""
    out = []
    pos = scope.position(stmt)
    while pos is not None and pos.block != home and pos.parent is not None:
        out.append((pos.parent, pos.block))
        pos = scope.position(pos.parent)
    return out


def _path(chains: list[list[tuple[ast.stmt, int]]], earlier: range, k: int) -> list[int]:
    """The earlier ``+=`` one run may take with the ``k``-th, the first of each set of alternatives."""
    taken: list[int] = []
    for i in earlier:
        if all(_split(chains[i], chains[j]) is None for j in (*taken, k)):
            taken.append(i)
    return taken


def _split(a: list[tuple[ast.stmt, int]], b: list[tuple[ast.stmt, int]]) -> ast.stmt | None:
    """The statement whose different ways two statements stand on, so that no run takes both: the branches of
    an ``if``/``elif``/``else``, a ``match``'s cases, a ``try``'s body or ``else`` and a handler, or two
    handlers; None when one run may take both."""
    blocks = {id(p): block for p, block in a}
    for p, block in b:
        other = blocks.get(id(p))
        if other is None or other == block:
            continue
        if type(p) in (ast.If, ast.Match):
            return p
        ways = {block, other}  # (a ``try``'s body, then its ``else`` and ``finally``, run in one run)
        if type(p) in TRY and id(p.finalbody) not in ways and ways != {id(p.body), id(p.orelse)}:  # type: ignore[attr-defined]
            return p
    return None


def _covered(p: ast.stmt | None) -> bool:
    """Whether one of the ways ``p`` splits into always runs: an ``if`` chain that ends with ``else``, a
    ``match`` (its cases may cover every value), a ``try`` (its body or a handler)."""
    while type(p) is ast.If:
        orelse = p.orelse
        if not orelse:
            return False
        p = orelse[0] if len(orelse) == 1 and type(orelse[0]) is ast.If else None
        if p is None:
            return True
    return p is not None


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
