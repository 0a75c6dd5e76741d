"""What a slice of a string is: a text cut to a length is display text, no part of a URL.

``uri[:256] + "...[truncated]"`` shortens a URL for a log line: where the cut falls is decided by a count,
not by the URL's grammar, so what is joined after it starts no path, query or fragment. A slice whose end
is a known count (a number, or a name bound to one) is a ``CUT`` hole; a value holding one is checked only
where a URL API takes it (``ModuleValues``). Any other subscript (``url[:-1]``, ``url[: url.rfind("/")]``,
``settings["BASE_URL"]``) is a plain hole, as before.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from iri_lint.source.values import Const, HoleKind

if TYPE_CHECKING:
    from iri_lint.source.bindings import At
    from iri_lint.source.evaluate import ModuleState, Result


def subscript_value(state: ModuleState, node: ast.Subscript, at: At) -> Result:
    """``s[:n]`` or ``s[i:n]`` with ``n`` a known count: a ``CUT`` hole; any other subscript: a hole."""
    cut = node.slice
    if type(cut) is ast.Slice and cut.step is None and cut.upper is not None and \
            all(_count(state, bound, at) for bound in (cut.lower, cut.upper) if bound is not None):
        return state.hole(node, kind=HoleKind.CUT)
    return state.hole(node)


def _count(state: ModuleState, bound: ast.expr, at: At) -> bool:
    """Whether a slice's bound is a known non-negative integer (a negative one counts from the end)."""
    r = state.value(bound, at)
    return type(r) is Const and type(r.value) is int and r.value >= 0
