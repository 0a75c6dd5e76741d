"""A scope's statements, block by block: the statement lists a compound statement holds, and where each
statement stands. Explicit stacks, no recursion on the tree."""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import NamedTuple

__all__ = ["COMPOUND", "DEFS", "LOOPS", "TRY", "Span", "StmtPos", "blocks", "item_before", "module_imports",
           "names_from", "on_lines", "statements", "statements_on", "way_to"]

_new_tuple = tuple.__new__  # a StmtPos per statement, without NamedTuple.__new__'s call


class StmtPos(NamedTuple):
    """Where a statement stands in its scope."""

    block: int  # id() of the statement list holding it
    at: int  # its index there
    parent: ast.stmt | None  # the compound statement around it (None: the scope's body)
    in_loop_body: bool  # it is in the body of ``parent``, which is a loop


LOOPS = (ast.For, ast.AsyncFor, ast.While)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
TRY = (ast.Try, *([ast.TryStar] if hasattr(ast, "TryStar") else []))

# the statements holding statement lists of their scope (``blocks``; a definition's body is its own scope)
COMPOUND = frozenset((*LOOPS, ast.If, ast.With, ast.AsyncWith, *TRY, ast.Match))


def blocks(stmt: ast.stmt) -> list[tuple[list[ast.stmt], bool]]:
    """The statement lists of a compound statement, each with whether it is a loop body."""
    t = type(stmt)
    if t in LOOPS:
        return [(stmt.body, True), (stmt.orelse, False)]  # type: ignore[attr-defined]
    if t is ast.If:
        if _type_checking_only(stmt.test):  # type: ignore[attr-defined]
            return [(stmt.orelse, False)]  # type: ignore[attr-defined]
        return [(stmt.body, False), (stmt.orelse, False)]  # type: ignore[attr-defined]
    if t in (ast.With, ast.AsyncWith):
        return [(stmt.body, False)]  # type: ignore[attr-defined]
    if t in TRY:
        out = [(stmt.body, False)]  # type: ignore[attr-defined]
        out += [(h.body, False) for h in stmt.handlers]  # type: ignore[attr-defined]
        return [*out, (stmt.orelse, False), (stmt.finalbody, False)]  # type: ignore[attr-defined]
    if t is ast.Match:
        return [(case.body, False) for case in stmt.cases]  # type: ignore[attr-defined]
    return []


def _type_checking_only(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:``: a block that never runs, so binds nothing at run time."""
    t = type(test)
    return ((t is ast.Name and test.id == "TYPE_CHECKING")  # type: ignore[attr-defined]
            or (t is ast.Attribute and test.attr == "TYPE_CHECKING"))  # type: ignore[attr-defined]


def statements(body: list[ast.stmt]) -> Iterator[tuple[ast.stmt, StmtPos, bool, list[ast.stmt]]]:
    """Every statement of a scope body (not inside nested defs), with its position, whether it is inside
    a loop of the scope, and its block; a block before the blocks nested in it, without recursion."""
    stack: list[tuple[list[ast.stmt], ast.stmt | None, bool, bool]] = [(body, None, False, False)]
    while stack:
        block, parent, in_loop, loop_body = stack.pop()
        bid = id(block)
        inner: list[tuple[list[ast.stmt], ast.stmt | None, bool, bool]] = []
        for i, stmt in enumerate(block):
            yield stmt, _new_tuple(StmtPos, (bid, i, parent, loop_body)), in_loop, block
            if type(stmt) in COMPOUND:
                inner += [(b, stmt, in_loop or is_loop, is_loop) for b, is_loop in blocks(stmt) if b]
        stack.extend(reversed(inner))


def names_from(tree: ast.Module, module: str, names: frozenset[str]) -> set[str]:
    """The names the module binds to ``names`` imported from ``module`` (``from functools import partial as p``:
    ``p``)."""
    return {a.asname or a.name for s in module_imports(tree) if type(s) is ast.ImportFrom and s.module == module
            for a in s.names if a.name in names}


def module_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of a module's own scope (in its blocks too, not in functions or classes): the
    module scope's import bindings, without indexing its other statements."""
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        t = type(stmt)
        if t is ast.Import or t is ast.ImportFrom:
            yield stmt  # type: ignore[misc]
        elif t not in DEFS:
            for block, _ in blocks(stmt):
                stack += block

def on_lines(stmt: ast.stmt, lines: list[int]) -> bool:
    """Whether a statement spans one of the sorted ``lines``."""
    i = bisect_left(lines, stmt.lineno)
    return i < len(lines) and lines[i] <= (stmt.end_lineno or stmt.lineno)

def statements_on(body: list[ast.stmt], lines: list[int]) -> Iterator[tuple[ast.stmt, StmtPos]]:
    """The statements of a scope body that span one of the sorted ``lines``, with their positions, in the order
    ``statements`` gives them (the others, and the blocks inside them, are passed by)."""
    stack: list[tuple[list[ast.stmt], ast.stmt | None, bool]] = [(body, None, False)]
    while stack:
        block, parent, loop_body = stack.pop()
        bid = id(block)
        inner: list[tuple[list[ast.stmt], ast.stmt | None, bool]] = []
        for i, stmt in enumerate(block):
            if on_lines(stmt, lines):
                yield stmt, _new_tuple(StmtPos, (bid, i, parent, loop_body))
                if type(stmt) in COMPOUND:
                    inner += [(b, stmt, is_loop) for b, is_loop in blocks(stmt) if b]
        stack.extend(reversed(inner))


Span = tuple[tuple[int, int], tuple[int, int]]


def way_to(stmt: ast.stmt, position: Callable[[ast.stmt], StmtPos | None]) -> tuple[list[tuple[ast.stmt, StmtPos]],
                                                                                    list[Span]]:
    """The statements on the way to ``stmt`` in its scope, innermost first, each with its position, and the spans
    (start, end) of the ``except`` handlers that cannot have run before it. Where the way passes a ``try``'s
    ``else:`` block, the ``try``'s body ran to its end before it (a last step past that body's end) and no
    handler of that ``try`` ran."""
    way: list[tuple[ast.stmt, StmtPos]] = []
    skip: list[Span] = []
    s: ast.stmt | None = stmt
    while s is not None:
        p = position(s)
        assert p is not None
        way.append((s, p))
        t = p.parent
        if type(t) in TRY and p.block == id(t.orelse) and t.body:  # type: ignore[union-attr]
            body = t.body  # type: ignore[union-attr]
            way.append((body[-1], _new_tuple(StmtPos, (id(body), len(body), t, False))))
            skip += [((h.lineno, h.col_offset), (h.end_lineno or h.lineno, h.end_col_offset or 0))
                     for h in t.handlers]  # type: ignore[union-attr]
        s = p.parent
    return way, skip


def item_before(stmt: ast.stmt, binding: object, node: ast.AST) -> bool:
    """Whether ``binding`` is the target of an item of the ``with`` statement ``stmt`` written before ``node``:
    several items run as nested ``with`` statements, each bound before the next is entered."""
    value = getattr(binding, "value", None)
    return type(stmt) in (ast.With, ast.AsyncWith) and value is not None and hasattr(node, "lineno") and \
        (value.end_lineno, value.end_col_offset) <= (node.lineno, node.col_offset)  # type: ignore[attr-defined]


def inside(node: ast.AST, expr: ast.AST | None) -> bool:
    """Whether ``node`` is written within ``expr``: a binding's value that reads what it binds, before it binds it
    (``self.url = self.url + "/v2"``, outside42 repro 01)."""
    line = getattr(node, "lineno", None)
    if expr is None or line is None or not (
            (expr.lineno, expr.col_offset) <= (line, node.col_offset) < (expr.end_lineno, expr.end_col_offset)):  # type: ignore[attr-defined]
        return False
    return any(n is node for n in ast.walk(expr))  # (the same place in another module's text is no match)
