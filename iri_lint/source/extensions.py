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

from iri_lint.source.bindings import At, Binding, Kind, Scope
from iri_lint.source.blocks import TRY
from iri_lint.source.values import Text, Value, concat, dotted

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState

__all__ = ["covers", "extended_next", "extensions", "guarded", "path_values"]

_MAX_EXTENSIONS = 16  # (as many as a choice at the use yields)


def path_values(state: ModuleState, expr: ast.expr, at: At, r: object
                ) -> Iterator[tuple[ast.AST | None, ast.expr, At, Value, str | None]]:
    """Each path's value a URL API is given where branches bind or extend a name its argument reads: the name
    alone, checked at each ``+=`` or binding in a branch (its statement, value, place and name), or joined at the
    use (``get(url + "?page=2")``: the use's own place, None; fixtures202 repro 02)."""
    if type(r) is not Value:
        return
    if r.opaque:
        for stmt, value, stmt_at, v in extensions(state, expr, at):
            yield stmt, value, stmt_at, v, dotted(expr)
    elif (name := next((h.node for _, h in r.holes() if type(h.node) is ast.Name), None)) is not None:
        for _, _, _, v in extensions(state, name, at):
            if type(joined := state.value(expr, at._replace(frame={name.id: v}))) is Value:
                yield None, expr, at, joined, None


def extensions(state: ModuleState, name: ast.expr, at: At) -> Iterator[tuple[ast.stmt, ast.expr, At, Value]]:
    """The ``name += piece`` statements of the use's scope after the last binding before the use that sets the
    name afresh (at most 16), each with its value and where it is evaluated and the values of at most two paths
    through it, from the fresh binding's value: through the earlier ``+=`` one run may take with it (the first
    of each set of alternatives), or through only those that always run where no earlier alternatives cover
    every run; then its own piece and the later ones that always run. When the fresh binding stands in a branch
    the use is not in, each binding that may reach the use is such a start (``_reaching``: fixtures200 repro
    08), and with no ``+=`` after them, each is a path's value. None when a binding of another kind stands
    between."""
    stmt, scope = at.stmt, at.scope
    if type(name) is not ast.Name or stmt is None:
        return
    if name.id not in scope.names:
        return
    order = scope.order(name.id)  # (source order, looked up by bisection: a use reads its last bindings only)
    end = bisect_left(order.positions, (stmt.lineno, 0))
    before = order.by_pos[max(0, end - _MAX_EXTENSIONS - _MAX_STARTS - 1) : end]  # (within reach: a few, never all)
    augs = _trailing_augs(before)
    if augs is None or (fresh := before[-1]).stmt is None:
        return  # (no binding sets the name afresh before the use within reach: a parameter's, the module's)
    starts, reached = _reaching(state, before, scope, stmt, name.id) if fresh.kind is Kind.ASSIGN else ([], 1)
    if starts is None:
        return
    if not augs:  # (set afresh after its last ``+=``: that binding's value is the use's, unless it is a branch's)
        if reached > 1 or (starts and _conditional(scope, starts[0][0], stmt)):
            yield from starts
        return
    augs.reverse()
    if reached < 2:  # (what the fresh binding gives, not the name read at the first ``+=``: in a loop, a hole)
        start = state.value(fresh.value, At(fresh.scope or scope, fresh.stmt)) if fresh.kind is Kind.ASSIGN and \
            fresh.value is not None else state.value(augs[0].target, At(scope, augs[0]))
        if type(start) is not Value:
            return
        starts = [(fresh.stmt, augs[0].value, at, start)]
        home = scope.position(fresh.stmt)
    else:  # (each start's branch stands apart from the ``+=``: which of them always run is read from the use's block)
        home = scope.position(stmt)
    yield from _paths(state, scope, name.id, augs, starts, None if home is None else home.block)


def _paths(state: ModuleState, scope: Scope, name: str, augs: list[ast.AugAssign],
           starts: list[tuple[ast.stmt, ast.expr, At, Value]], home: int | None
           ) -> Iterator[tuple[ast.stmt, ast.expr, At, Value]]:
    """Each ``+=``'s statement, value, place, and the values of at most two paths through it from each start
    (``extensions``); ``home``: the statement list that decides which of them always run."""
    chains = [_chain(scope, aug, home) for aug in augs]
    # (``if not url.endswith("/"): url += "/"`` ends the value with "/" on every path: added where it lacks one)
    suffixes = [_ensured_suffix(aug, chain, name) for aug, chain in zip(augs, chains, strict=True)]
    always = [not any(type(p) in _BRANCHES and not (type(p) in TRY and block == id(p.body))  # type: ignore[attr-defined]
                      for p, block in (chain[1:] if suffix is not None else chain))
              for chain, suffix in zip(chains, suffixes, strict=True)]
    # (an ``if`` whose test reads the name decides by its text, which no path here knows: ``if "?" in url: url +=
    # "&x"``; fixtures206 repros 01, 02)
    guarded = [suffix is None and _guarded(chain, name) for chain, suffix in zip(chains, suffixes, strict=True)]
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
        if any(guarded[: k + 1]):
            return  # (after it, whether the test ran is what a path needs and does not know: fixtures207 repro 01)
        state.budget -= len(augs) * len(starts)
        later = [j for j in range(k + 1, len(augs)) if always[j] and _split(chains[k], chains[j]) is None]
        ways = {tuple(_path(chains, list(range(k)), k))}
        if k <= covered and not any(type(q) in _LOOPS for q, _ in chains[k]):  # (in a loop, an earlier pass may
            ways.add(tuple(i for i in range(k) if always[i] and _split(chains[i], chains[k]) is None))  # have run them)
        for way in sorted(ways):
            for *_, start in starts:
                steps = [*way, k, *later]
                made = _made(start, [pieces[i] for i in steps], [suffixes[i] for i in steps], aug, state)
                if made is not None:
                    yield aug, aug.value, At(scope, aug), made


def _made(start: Value, pieces: list[Value], suffixes: list[str | None], node: ast.AST, state: ModuleState
          ) -> Value | None:
    """``start`` with each piece joined, a suffix one only where the value so far does not end with it; None where
    a hole ends it there (whether the test ran is not known)."""
    out = [start]
    for piece, suffix in zip(pieces, suffixes, strict=True):
        if suffix is not None:
            so_far = concat(out, node, state.src)
            if so_far.pieces and so_far.is_hole(len(so_far) - 1):
                return None
            if so_far.flat().endswith(suffix):
                continue
        out.append(piece)
    return concat(out, node, state.src)


def _ensured_suffix(aug: ast.AugAssign, chain: list[tuple[ast.stmt, int]], name: str) -> str | None:
    """The text ``if not name.endswith(text): name += text`` ensures the value ends with, when ``aug`` is that
    ``+=`` alone in such an ``if`` without ``else``."""
    if not chain or type(p := chain[0][0]) is not ast.If or p.orelse or p.body != [aug]:
        return None
    test, value = p.test, aug.value
    if type(value) is not ast.Constant or type(value.value) is not str or type(test) is not ast.UnaryOp or \
            type(test.op) is not ast.Not or type(call := test.operand) is not ast.Call or len(call.args) != 1:
        return None
    func, arg = call.func, call.args[0]
    return value.value if type(func) is ast.Attribute and func.attr == "endswith" and type(func.value) is ast.Name \
        and func.value.id == name and type(arg) is ast.Constant and arg.value == value.value else None


def covers(scope: Scope, stmts: list[ast.stmt], use: ast.stmt | None = None) -> bool:
    """Whether two of the statements stand on different ways of a statement one of whose ways always runs (an
    ``if`` that ends with ``else``, a ``match``, a ``try``), itself on every way to ``use`` (None: to the scope's
    end): one of them runs, whichever way is taken (not the last ``elif``/``else`` pair of a longer chain)."""
    chains = [_chain(scope, s, None) for s in stmts]
    targets = {id(s) for s in stmts}
    return any((p := _split(chains[i], chains[j])) is not None and _every_way(p, targets) and
               not _conditional(scope, p, use) for j in range(len(chains)) for i in range(j))


def _every_way(stmt: ast.stmt, targets: set[int]) -> bool:
    """Whether each way through ``stmt`` runs one of the statements ``targets`` (ids): both of an ``if``/``else``,
    recursively down an ``elif`` chain, every case of a ``match``, a ``try``'s body or ``else`` and each handler."""
    t = type(stmt)
    if t is ast.If:
        return bool(stmt.orelse) and _runs(stmt.body, targets) and _runs(stmt.orelse, targets)  # type: ignore[attr-defined]
    if t is ast.Match:
        return all(_runs(c.body, targets) for c in stmt.cases)  # type: ignore[attr-defined]  # (its cases may cover all)
    if t in TRY:
        return _runs(stmt.finalbody, targets) or (  # type: ignore[attr-defined]
            (_runs(stmt.body, targets) or _runs(stmt.orelse, targets)) and  # type: ignore[attr-defined]
            all(_runs(h.body, targets) for h in stmt.handlers))  # type: ignore[attr-defined]
    return t in (ast.With, ast.AsyncWith) and _runs(stmt.body, targets)  # type: ignore[attr-defined]


def _runs(block: list[ast.stmt], targets: set[int]) -> bool:
    """Whether every run through ``block`` runs one of ``targets`` (ids)."""
    return any(id(s) in targets or _every_way(s, targets) for s in block)


def _trailing_augs(before: list[Binding]) -> list[ast.AugAssign] | None:
    """The ``+=`` at the end of ``before`` (at most 16), last first, taken off it; None when no other binding
    stands before them there."""
    augs: list[ast.AugAssign] = []
    while before and len(augs) <= _MAX_EXTENSIONS and before[-1].kind is Kind.AUG:
        augs.append(before.pop().stmt)  # type: ignore[arg-type]
    return augs if before and len(augs) <= _MAX_EXTENSIONS else None


_MAX_STARTS = 4  # (bindings in branches that may each reach the use: each multiplies the paths checked)
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def guarded(at: At, stmt: ast.AST, name: str | None, value: ast.expr | None = None) -> bool:
    """Whether ``stmt`` extends the name (``+=``, or a value that reads it: ``value``) under an ``if`` on the name's
    own text (``if not url.endswith("/"): url = url + "/"``): what it makes depends on a test no value knows."""
    if name is None or not _guarded(_chain(at.scope, stmt, None), name):  # type: ignore[arg-type]
        return False
    return value is None or _reads(value, name)  # (after the chain: ``value`` may be a long expression)


def _guarded(chain: list[tuple[ast.stmt, int]], name: str) -> bool:
    """Whether an ``if`` around a statement tests the name's own value."""
    return any(type(p) is ast.If and _reads(p.test, name) for p, _ in chain)


def _reads(expr: ast.expr, name: str) -> bool:
    return any(type(n) is ast.Name and n.id == name for n in ast.walk(expr))


def _reaching(state: ModuleState, before: list[Binding], scope: Scope, use: ast.stmt, name: str
              ) -> tuple[list[tuple[ast.stmt, ast.expr, At, Value]] | None, int]:
    """The bindings that set the name afresh and may reach the use, with their values: the last one before it, and
    while it stands in a branch the use is not in, the one before, back to one that always runs (at most 4, all
    ``=``); not one whose own block leaves before the use (a ``return`` after it). Each with its value expression
    and where that is evaluated, but one whose value holds no known text (a parameter's: nothing to check); and
    how many may reach the use; none before an ``if``/``else`` (or ``match``, ``try``) whose ways all bind it
    (``request = "v1" + request`` / ``else: request = "v2" + request``: outside55 FP2). None when one extends the
    name under an ``if`` on its own text (``if "?" not in url: url = url + "?x=1"``): what any path holds depends
    on the test."""
    out: list[tuple[ast.stmt, ast.expr, At, Value]] = []
    reached = 0
    later: list[ast.stmt] = []  # (the bindings in branches after it: an if/else that binds on every way ends it)
    for b in reversed(before[-_MAX_STARTS:]):
        if b.kind is not Kind.ASSIGN or b.stmt is None or b.value is None or \
                (len(later) > 1 and covers(scope, later, use)):
            break
        if _split(_chain(scope, b.stmt, None), _chain(scope, use, None)) is not None:
            continue  # (a way the use is not on: an ``if`` branch before the ``elif`` it stands in, meilisearch)
        conditional = _conditional(scope, b.stmt, use)
        # (a branch that leaves ends with its exit; its statements after one are dead: the last alone is read)
        block = _statements(scope, b.stmt) if conditional else None
        if not (block and type(block[-1]) in _EXITS and block[-1].lineno < use.lineno) and \
                not _left_by_else(scope, b.stmt, use, later):
            reached += 1
            b_at = At(b.scope or scope, b.stmt)
            if _reads(b.value, name) and _guarded(_chain(scope, b.stmt, None), name):
                return None, reached  # (``if not base.endswith("/"): base = base + "/"``: no start is known)
            if type(v := state.value(b.value, b_at)) is Value and any(type(p) is Text for p in v.pieces):
                out.append((b.stmt, b.value, b_at, v))
        if not conditional:
            break
        later.append(b.stmt)
    return out, reached


def _left_by_else(scope: Scope, stmt: ast.stmt, use: ast.stmt, later: list[ast.stmt]) -> bool:
    """Whether ``stmt`` stands in the body of a ``try`` the use is not in whose ``else:`` ends with an exit, each
    handler binding the name again (one of ``later``) or leaving too: no run takes its value to the use."""
    around = {id(p) for p, _ in _chain(scope, use, None)}
    for p, block in _chain(scope, stmt, None):
        if type(p) in TRY and id(p) not in around:
            if block != id(p.body) or not p.orelse or type(p.orelse[-1]) not in _EXITS:  # type: ignore[attr-defined]
                return False
            ids = {id(s) for s in later}
            return all(type(h.body[-1]) in _EXITS or _runs(h.body, ids) for h in p.handlers)  # type: ignore[attr-defined]
    return False


def _statements(scope: Scope, stmt: ast.stmt) -> list[ast.stmt] | None:
    """The statement list holding ``stmt``."""
    pos = scope.position(stmt)
    owner = pos.parent if pos is not None and pos.parent is not None else scope.node
    for field in ("body", "orelse", "finalbody"):
        block = getattr(owner, field, None)
        if type(block) is list and pos is not None and id(block) == pos.block:
            return block
    for handler in getattr(owner, "handlers", None) or getattr(owner, "cases", None) or ():
        if pos is not None and id(handler.body) == pos.block:
            return handler.body  # type: ignore[no-any-return]
    return None


def _conditional(scope: Scope, stmt: ast.stmt, use: ast.stmt | None) -> bool:
    """Whether ``stmt`` stands in a branch (of an ``if``, a loop, a ``match``, a ``try``'s handler) the use is not
    in (None: the scope's end): a run may reach the use without it."""
    around = {(id(p), block) for p, block in _chain(scope, use, None)} if use is not None else set()
    return any(type(p) in _BRANCHES and not (type(p) in TRY and block == id(p.body))  # type: ignore[attr-defined]
               and (id(p), block) not in around for p, block in _chain(scope, stmt, None))


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


def _path(chains: list[list[tuple[ast.stmt, int]]], earlier: list[int], k: int) -> list[int]:
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
    for k, (p, block) in enumerate(b):
        other = blocks.get(id(p))
        if other is None or other == block:
            continue
        if any(type(q) in _LOOPS for q, _ in b[k + 1 :]):
            return None  # (a loop around them takes each way in a pass of its own: robin_stocks' "?" then "&")
        if type(p) in (ast.If, ast.Match):
            return p
        ways = {block, other}  # (a ``try``'s body, then its ``else`` and ``finally``, run in one run)
        if type(p) in TRY and id(p.finalbody) not in ways and ways != {id(p.body), id(p.orelse)}:  # type: ignore[attr-defined]
            return p
    return None


_LOOPS = (ast.For, ast.AsyncFor, ast.While)


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


def extended_next(node: ast.AST, at: At) -> bool:
    """Whether the statement after ``url += x`` extends the same name again: the value is checked once the
    run of ``+=`` ends (it holds every piece the run added; checking each step would cost the run's length
    squared)."""
    p = at.scope.position(node)  # type: ignore[arg-type]
    if p is None:
        return False
    owner = p.parent if p.parent is not None else at.scope.node
    for field in ("body", "orelse", "finalbody"):
        block = getattr(owner, field, None)
        if type(block) is list and id(block) == p.block:
            nxt = block[p.at + 1] if p.at + 1 < len(block) else None
            return type(nxt) is ast.AugAssign and type(nxt.op) is ast.Add and \
                dotted(nxt.target) == dotted(node.target)  # type: ignore[attr-defined]
    return False
