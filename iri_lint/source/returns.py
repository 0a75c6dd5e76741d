"""A helper's return as one expression (issue #27, ``source.helpers``): ``return BASE + path`` as written, or the
``return`` after a few plain assignments with each name they bind replaced by what it was bound to::

    def user_url(uid):
        path = "/users/" + uid
        url = BASE + path
        return url                   # read as ``return BASE + ("/users/" + uid)``

Only straight-line code: after the docstring, at most ``MAX_STEPS`` statements that each bind one name
(``=``, an annotated ``=``, ``+=`` of a name bound before), then the ``return``; any other statement (a call, an
``if``, a loop) keeps the function a hole. The expression put together reuses the function's own nodes, so a
finding still points at the literal that spells it; it stands at the real ``return`` (``return_statement``).
"""

from __future__ import annotations

import ast

__all__ = ["MAX_STEPS", "one_return", "return_statement"]

MAX_STEPS = 8  # assignments before the return that are read into it
_MAX_NODES = 200  # nodes an expression put together may have (its rebuilding recurses)
_STATEMENT = "_iri_lint_return_of"  # a put-together return's attribute: the real ``return`` it stands for
_CACHED = "_iri_lint_one_return"  # a function's attribute: its one return, put together once


def one_return(function: ast.AST) -> ast.Return | None:
    """The ``return`` with a value that is a function's whole body (a docstring before it aside), or the one the
    assignments before it put together (see the module); None for any other body."""
    found: ast.Return | bool | None = getattr(function, _CACHED, False)
    if found is False:
        body: list[ast.stmt] = function.body  # type: ignore[attr-defined]
        if body and type(body[0]) is ast.Expr and type(body[0].value) is ast.Constant:
            body = body[1:]
        last = body[-1] if body else None
        found = None
        if type(last) is ast.Return and last.value is not None:
            found = last if len(body) == 1 else _put_together(body[:-1], last) if len(body) <= MAX_STEPS + 1 else None
        setattr(function, _CACHED, found)  # (the same node each time: values and findings key on it)
    return found  # type: ignore[return-value]


def return_statement(returned: ast.Return) -> ast.Return:
    """The function's real ``return`` statement that ``returned`` (``one_return``'s) stands for."""
    statement: ast.Return = getattr(returned, _STATEMENT, returned)
    return statement


def _put_together(steps: list[ast.stmt], last: ast.Return) -> ast.Return | None:
    """The return with each name the steps bind replaced by its value, or None."""
    bound: dict[str, ast.expr] = {}
    for s in steps:
        t = type(s)
        if t is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name:  # type: ignore[attr-defined]
            name, value = s.targets[0].id, s.value  # type: ignore[attr-defined]
        elif t is ast.AnnAssign and type(s.target) is ast.Name and s.value is not None:  # type: ignore[attr-defined]
            name, value = s.target.id, s.value  # type: ignore[attr-defined]
        elif t is ast.AugAssign and _extends(s, bound):
            name = s.target.id  # type: ignore[attr-defined]
            value = ast.copy_location(ast.BinOp(ast.Name(name, ast.Load()), ast.Add(), s.value), s)  # type: ignore[attr-defined]
        else:
            return None
        new = _replaced(value, bound)
        if new is None:
            return None
        bound[name] = new
    value = _replaced(last.value, bound)  # type: ignore[arg-type]
    if value is None:
        return None
    returned = ast.copy_location(ast.Return(value), last)
    setattr(returned, _STATEMENT, last)
    return returned


def _extends(s: ast.stmt, bound: dict[str, ast.expr]) -> bool:
    """``name += ...`` of a name bound before."""
    return type(s.op) is ast.Add and type(s.target) is ast.Name and s.target.id in bound  # type: ignore[attr-defined]


def _replaced(expr: ast.expr, bound: dict[str, ast.expr]) -> ast.expr | None:
    """``expr`` with each name in ``bound`` it reads replaced by its value (the nodes on no way to one are
    ``expr``'s own: a literal keeps its place in the source); None when the result would be too large."""
    names = [n for n in ast.walk(expr) if type(n) is ast.Name and n.id in bound]
    size = sum(1 for _ in ast.walk(expr)) + sum(sum(1 for _ in ast.walk(bound[n.id])) for n in names)
    if size > _MAX_NODES:
        return None
    return _rebuilt(expr, bound) if names else expr  # type: ignore[return-value]


def _rebuilt(node: ast.AST, bound: dict[str, ast.expr]) -> ast.AST:  # (recursion: at most _MAX_NODES deep)
    if type(node) is ast.Name and node.id in bound:
        return bound[node.id]
    fields: dict[str, object] = {}
    changed = False
    for field, old in ast.iter_fields(node):
        if isinstance(old, ast.AST):
            new: object = _rebuilt(old, bound)
            changed |= new is not old
        elif isinstance(old, list):
            new = [_rebuilt(x, bound) if isinstance(x, ast.AST) else x for x in old]
            changed |= any(a is not b for a, b in zip(old, new, strict=True))
        else:
            new = old
        fields[field] = new
    return ast.copy_location(type(node)(**fields), node) if changed else node
