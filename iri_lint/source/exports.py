"""What one top-level statement of a module lets the values of the others read (issue #27, the editor).

``evaluate`` reads, from a top-level statement other than the one a value is used in, only what that
statement binds where other statements can see it: module-level names (assignments, imports, ``def`` and
``class`` names, walruses), a class's bases and body bindings, and ``<receiver>.<attr>`` bindings in its
methods, ``super().__init__(...)`` in them and ``setattr(...)``, and the ``return`` that is a function's
whole body (``source.helpers`` reads it at the function's calls). It never reads the rest of a function's
body nor another expression statement.
``export_signature`` spells exactly that part of a statement, positions left out, so that an edit which
leaves the signatures of the statements it touched as they were cannot change the value of any use
outside them. It errs one way only: a part it keeps that the evaluator would not
read costs a whole re-evaluation, never a wrong answer. (``global`` and ``nonlocal`` are read from the
module's text, comments included: the caller handles an edit near those words on its own.)
"""

from __future__ import annotations

import ast

from iri_lint.source.returns import one_return

__all__ = ["binds_attribute", "export_signature", "super_init_call"]

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_HANDLERS = (ast.excepthandler, ast.match_case)


def export_signature(stmt: ast.stmt) -> str:
    """The parts of a top-level statement the values of other statements can read, as one string."""
    out: list[str] = []
    _statement(stmt, out, in_function=False)
    return "\n".join(out)


def _dump(value: object) -> str:
    if isinstance(value, ast.AST):
        return ast.dump(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(_dump, value)) + "]"
    return repr(value)


_TARGETS = {ast.Assign: "targets", ast.Delete: "targets", ast.AugAssign: "target", ast.AnnAssign: "target",
            ast.For: "target", ast.AsyncFor: "target"}


def binds_attribute(stmt: ast.AST) -> bool:
    """Whether a statement binds an attribute itself (``self.x = ...``, ``for self.x in``, ``with a as
    self.x``, ``del self.x``): what a value read from outside its function may see of it."""
    t = type(stmt)
    if t is ast.With or t is ast.AsyncWith:
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]  # type: ignore[attr-defined]
    else:
        field = _TARGETS.get(t)
        if field is None:
            return False
        value = getattr(stmt, field)
        targets = value if isinstance(value, list) else [value]
    return any(type(n) is ast.Attribute for target in targets for n in ast.walk(target))


def super_init_call(stmt: ast.AST) -> ast.Call | None:
    """The call of ``super().__init__(...)`` as a statement (what a client class gives its base URL:
    ``source.subclassing``); None for any other statement."""
    call = stmt.value if type(stmt) is ast.Expr else None
    func = call.func if type(call) is ast.Call else None
    if (type(func) is ast.Attribute and func.attr == "__init__" and type(func.value) is ast.Call
            and type(func.value.func) is ast.Name and func.value.func.id == "super"):
        return call  # type: ignore[return-value]
    return None


def _sets_attribute(stmt: ast.AST) -> bool:
    """Whether an expression statement calls ``setattr`` (``setattr(K, "ROOT", ...)``: ``K.ROOT`` is a hole,
    ``ModuleIndex.rebound_outside``)."""
    return any(type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == "setattr" for n in ast.walk(stmt))


def _statement(stmt: ast.stmt, out: list[str], in_function: bool) -> None:
    t = type(stmt)
    if t in _FUNCS:
        if not in_function:  # its name, parameters (the receiver) and decorators are seen; its body is not
            f: ast.FunctionDef = stmt  # type: ignore[assignment]
            out.append(f"def {f.name} {_dump(f.args)} {_dump(f.decorator_list)} {_dump(f.returns)}")
            returned = one_return(f)
            if returned is not None:  # a helper's return, read at its calls
                out.append(f"return {_dump(returned.value)}")
        _body(stmt.body, out, True)  # type: ignore[attr-defined]
        out.append("end")
        return
    if t is ast.ClassDef:
        c: ast.ClassDef = stmt  # type: ignore[assignment]
        if not in_function:
            out.append(f"class {c.name} {_dump(c.bases)} {_dump(c.keywords)} {_dump(c.decorator_list)}")
        _body(c.body, out, in_function)
        out.append("end")
        return
    if in_function:
        _in_function(stmt, out)
        return
    if t is ast.Expr and not any(type(n) is ast.NamedExpr for n in ast.walk(stmt)) and not _sets_attribute(stmt):
        return  # binds nothing
    header = _nested(stmt, out, False)
    out.append(f"{t.__name__}({', '.join(header)})")


def _nested(stmt: ast.stmt, out: list[str], in_function: bool) -> list[str]:
    """Spell the statement lists nested in a compound statement (with its handlers' headers, outside a
    function); the other fields come back spelled, for the caller's header."""
    header = []
    for name, value in ast.iter_fields(stmt):
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            out.append(f"[{name}")
            _body(value, out, in_function)
            out.append("]")
        elif isinstance(value, list) and value and isinstance(value[0], _HANDLERS):
            for h in value:
                out.append("[handler" if in_function else _dump([v for n, v in ast.iter_fields(h) if n != "body"]))
                _body(h.body, out, in_function)
                out.append("]")
        else:
            header.append(f"{name}={_dump(value)}")
    return header


def _in_function(stmt: ast.stmt, out: list[str]) -> None:
    """A statement of a function body: only its bindings of attributes are seen (``self.x = ...``,
    ``setattr(...)``), and a ``super().__init__(...)`` call."""
    header = _nested(stmt, out, True)
    if binds_attribute(stmt) or super_init_call(stmt) is not None or (type(stmt) is ast.Expr and _sets_attribute(stmt)):
        out.append(f"{type(stmt).__name__}({', '.join(header)})")


def _body(body: list[ast.stmt], out: list[str], in_function: bool) -> None:
    for s in body:
        _statement(s, out, in_function)
