"""A URL value's fix as an edit of the literal that spells what it changes (issue #27).

A value assembled from pieces is fixed in one literal only: the one written in the use's own
expression (``requests.get(CDN + "/team photo.jpg")``), whose value reaches no other use, so the fix
changes this URL and nothing else. A literal bound to a name, or read from another module, may be
used elsewhere (a file name, a log line): its findings get no fix.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections.abc import Sequence

from iri_lint.source.assembled import Checked
from iri_lint.source.edits import field_holes
from iri_lint.source.locate import Locator, SourceFile, expected_value
from iri_lint.source.model import Literal, Reason, SourcePos, UseContext
from iri_lint.source.templates import apply_templates
from iri_lint.source.values import MADE, Src, Text

__all__ = ["literal_of", "spelling_literal"]


def spelling_literal(c: Checked, spans: Sequence[tuple[int, int]], expr: ast.expr,
                     local: Src) -> tuple[Literal, list[tuple[int, int]]] | None:
    """The literal written in ``expr`` that spells every character ``spans`` cover (``[start, end)`` in
    ``c.text``; an empty span inserts before the character at ``start``), as the linter checks a literal,
    with the spans in its checked value; None when no one such literal does, character for character."""
    node: ast.expr | None = None
    raw: list[tuple[int, int]] = []  # the spans in the literal's decoded value
    for start, end in spans:
        first = _spelled_at(c, start, local)
        last = first if end <= start + 1 else _spelled_at(c, end - 1, local)
        if first is None or last is None or first[0] is not last[0]:
            return None
        if node is not None and first[0] is not node:
            return None
        node = first[0]
        if last[1] - first[1] != max(end - start - 1, 0):
            return None
        raw.append((first[1], first[1] + (end - start)))
    if node is None:
        return None
    path = _path_in(expr, node)
    if path is None:
        return None
    # the literal is (part of) a template: the left operand of ``%``, or what ``.format`` is called on,
    # itself or through the ``+`` and parentheses around it (``(HOST + "/e f/%s") % x``)
    pct = fmt = False
    for outer, inner in zip(path[1:], path, strict=False):
        if type(outer) is ast.BinOp and type(outer.op) is ast.Mod and outer.left is inner:
            pct = True
        elif type(outer) is ast.Attribute and outer.attr in ("format", "format_map") and outer.value is inner:
            fmt = True
        elif not (type(outer) is ast.BinOp and type(outer.op) is ast.Add):
            break
    lit = literal_of(node, local.file, pct=pct, fmt=fmt)
    if lit is None or lit.locator is None:
        return None
    value, index_map = expected_value(node) or "", lit.locator.index_map
    checked: list[tuple[int, int]] = []
    for ra, rb in raw:
        a, b = _checked_index(index_map, ra), _checked_index(index_map, rb)
        if a is None or b is None or lit.value[a:b] != value[ra:rb]:
            return None  # a placeholder or an escaped ``%%`` / ``{{`` in between
        checked.append((a, b))
    return lit, checked


def literal_of(node: ast.expr, source: SourceFile, *, pct: bool = False, fmt: bool = False) -> Literal | None:
    """A string literal as the linter checks it (fields as holes; ``pct``: the left operand of ``%``,
    ``fmt``: the string ``.format`` is called on), with the locator its fixes are made through."""
    value = expected_value(node)
    if value is None:
        return None
    tpl = apply_templates(value, field_holes(node), percent_template=pct, format_template=fmt)
    locator = Locator(node, source, tpl.index_map, percent_template=pct, format_template=fmt,
                      percent_escapes=tpl.percent_escapes)
    end_line = node.end_lineno or node.lineno
    return Literal(value=tpl.value, reason=Reason.URL_API, context=UseContext.UNKNOWN, kind="IRI-reference",
                   start=SourcePos(node.lineno, source.char_col(node.lineno, node.col_offset)),
                   end=SourcePos(end_line, source.char_col(end_line, node.end_col_offset or 0)),
                   holes=tpl.holes, position_of=locator.position, is_fstring=type(node) is ast.JoinedStr,
                   locator=locator)


def _spelled_at(c: Checked, i: int, local: Src) -> tuple[ast.expr, int] | None:
    """The literal of this file spelling ``c.text[i]`` and the character's index in its decoded value."""
    if i < 0 or not c.parts:
        return None
    k = bisect_right(c.starts, i) - 1
    if k >= len(c.parts):
        return None
    piece, index = c.parts[k]
    if type(piece) is not Text or piece.start == MADE or piece.src is not local:
        return None
    j = i - c.starts[k]
    if index is not None:
        if j >= len(index):
            return None
        j = index[j]
    if j >= len(piece.text):
        return None
    return piece.node, piece.start + j  # type: ignore[return-value]


def _path_in(expr: ast.expr, node: ast.expr) -> list[ast.AST] | None:
    """``node`` and the nodes holding it inside ``expr``, innermost first; None when ``node`` is not
    written there, or ``expr`` binds a name (``:=``) that takes its value elsewhere."""
    parents: dict[int, ast.AST] = {}
    for n in ast.walk(expr):
        if type(n) is ast.NamedExpr:
            return None
        for child in ast.iter_child_nodes(n):
            parents[id(child)] = n
    if node is not expr and id(node) not in parents:
        return None
    path: list[ast.AST] = [node]
    while path[-1] is not expr:
        path.append(parents[id(path[-1])])
    return path


def _checked_index(index_map: list[int] | None, i: int) -> int | None:
    """The checked-value index of decoded index ``i`` (its end when ``i`` is one past the last)."""
    if index_map is None:
        return i
    k = bisect_right(index_map, i) - 1
    if 0 <= k < len(index_map) and index_map[k] == i:
        return k
    if index_map and i == index_map[-1] + 1:
        return len(index_map)
    return None
