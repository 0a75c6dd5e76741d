"""Names that hold only integers or only literals (issue #27): a hole they leave is an integer's digits, or text
made of the literals' characters (IRI806 reads it so).

``offset = 0`` then ``offset += 50`` in a pagination loop is a hole where it is used (bound in a loop), but
every binding gives an integer, so what fills it is digits, as a ``range()`` counter's; ``frame = "d"``, then
``frame = "w"`` in a branch, holds no '&' (outside38 repro 02: finvizfinance)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from iri_lint.source.bindings import Binding, Kind, Scope, binds_a_number
from iri_lint.source.values import Hole, HoleKind, Value

if TYPE_CHECKING:
    from iri_lint.source.evaluate import Result

__all__ = ["as_number"]

_MAX_CHOICES = 16  # literals a name may be bound to for its hole to be read as theirs (as many as a choice yields)


def as_number(r: Result, scope: Scope, name: str, node: ast.AST) -> Result:
    """``r``, a name's value, as a number's hole when it is a hole of any text and every binding of the name in
    ``scope`` gives an integer (a literal, a ``+=`` of one, a ``range()`` counter), or as a hole of the literals'
    characters when every binding gives a string literal."""
    if type(r) is not Value or len(r.pieces) != 1:
        return r
    piece = r.pieces[0]
    if type(piece) is not Hole or piece.kind is not HoleKind.VALUE:
        return r
    bindings = scope.names.get(name)
    if not bindings:
        return r
    if all(_integer(b, scope, node) for b in bindings):
        return Value((piece._replace(kind=HoleKind.NUMBER),), r.type)
    chars: set[str] = set()
    if len(bindings) <= _MAX_CHOICES and all(b.kind in (Kind.ASSIGN, Kind.AUG) and _literal_chars(b.value, chars)
                                             for b in bindings):
        return Value((piece._replace(chars="".join(sorted(chars))),), r.type)
    return r


def _literal_chars(value: ast.AST | None, chars: set[str]) -> bool:
    """Whether ``value`` is a string literal, or a choice of them (``"w" if weekly else "d"``); adds their
    characters to ``chars``."""
    if type(value) is ast.Constant and type(value.value) is str:
        chars.update(value.value)
        return True
    return type(value) is ast.IfExp and _literal_chars(value.body, chars) and _literal_chars(value.orelse, chars)


def _integer(b: Binding, scope: Scope, node: ast.AST) -> bool:
    value = b.value
    if b.kind in (Kind.ASSIGN, Kind.AUG) and type(value) is ast.Constant:
        return type(value.value) is int  # (not a bool: True is no digits)
    return binds_a_number(b, scope, node)
