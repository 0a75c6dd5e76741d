"""Values held by a name that says it holds a template (issue #27): ``ITEM_URL_TEMPLATE``, ``self.url_fmt``.

Such a value is a template whatever its placeholders look like; only what assembly gets wrong is a fault of
it (``values_check``)."""

from __future__ import annotations

import ast

from iri_lint.source.candidates import says_template
from iri_lint.source.values import MADE, Text

__all__ = ["in_template", "last_name", "names_template"]


def last_name(expr: ast.expr) -> str | None:
    """The last part of a name or attribute (``API_URL``, ``self.base_url``)."""
    return expr.id if type(expr) is ast.Name else expr.attr if type(expr) is ast.Attribute else None


def names_template(expr: ast.expr) -> bool:
    """Whether a name or attribute (``ITEM_URL_TEMPLATE``, ``self.url_fmt``) says it holds a template."""
    name = last_name(expr)
    return name is not None and says_template(name)


def in_template(piece: object) -> bool:
    """Whether a piece is spelled by a literal assigned to a name that says template (``X_TEMPLATE = "..."``):
    read from the assignment's line, before the literal."""
    if type(piece) is not Text or piece.src is None or piece.start == MADE:
        return False
    pos = piece.src.node_position(piece.node)
    lines = piece.src.file.lines
    if not 0 < pos.line <= len(lines):
        return False
    before = lines[pos.line - 1][: pos.col].rstrip()
    if not before.endswith("=") or before.endswith(("==", "!=", "<=", ">=")):
        return False
    target = before[:-1].split(":", 1)[0].rstrip()  # (an annotation's ``: str``)
    k = len(target)
    while k and (target[k - 1].isalnum() or target[k - 1] in "_."):
        k -= 1
    return bool(target[k:]) and says_template(target[k:])
