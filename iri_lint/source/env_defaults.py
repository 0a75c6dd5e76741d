"""A name bound to ``os.getenv(name, default)`` (issue #27): where the variable is unset, the default is the value.

``SITE_URL = os.environ.get("SITE_URL", "https://shop.example.com/")`` then ``SITE_URL + "/sms/status/"`` sends
``https://shop.example.com//sms/status/`` on every machine that does not set it (a developer's, CI): the value
at a use is checked with each such hole as its default, when that default is an absolute URL, written as a
literal or bound to a name (an empty or relative one says the variable must be set).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from iri_lint.source.bindings import At
from iri_lint.source.candidates import is_absolute_literal
from iri_lint.source.url_apis import ENVIRONMENT, env_default
from iri_lint.source.values import Hole, HoleKind, Piece, Ref, Src, Text, Value

if TYPE_CHECKING:
    from iri_lint.source.evaluate import Evaluator, ModuleState

__all__ = ["module_value", "with_env_defaults"]

_NAMES = (ast.Name, ast.Attribute)
_ENV_READS = frozenset(("os.getenv", "os.environ.get", "getenv", "environ.get"))  # (as imported from os too)


def with_env_defaults(value: Value, evaluator: Evaluator) -> Value | None:
    """``value`` with each hole that stands for an environment variable's read with an absolute URL as its
    default replaced by that default (a name there read in the module that spells the read, by ``evaluator``);
    None when it has none."""
    pieces: list[Piece] = []
    changed = False
    for p in value.pieces:
        default = _url_default(p, evaluator) if type(p) is Hole else None
        if default is not None:
            pieces.extend(default)
            changed = True
        else:
            pieces.append(p)
    return Value(tuple(pieces), value.type) if changed else None


def _url_default(hole: Hole, evaluator: Evaluator) -> tuple[Piece, ...] | None:
    """The pieces of a read's default that is an absolute URL."""
    node = hole.node
    if hole.kind is HoleKind.FIELD and type(node) in _NAMES:  # (``"%s/x" % (BASE,)``: the field's name, once)
        known = module_value(evaluator, node, hole.src)  # type: ignore[arg-type]
        if known is None or len(known.pieces) != 1 or type(inner := known.pieces[0]) is not Hole:
            return None
        node, hole = inner.node, inner
    if type(node) is not ast.Call:
        return None
    qual = _reads_environment(node.func) or _reads_config(evaluator, node, hole.src)
    default = env_default(node, qual) if qual is not None else None
    if default is None:
        return None
    if type(default) is ast.Constant:
        text = default.value
        return (Text(text, default, 0, hole.src),) if type(text) is str and is_absolute_literal(text) else None
    known = module_value(evaluator, default, hole.src)
    text = known.text if known is not None else None
    return known.pieces if known is not None and text is not None and is_absolute_literal(text) else None


def _reads_environment(func: ast.expr) -> str | None:
    """The environment read of os a call's function is, by its dotted name; None when it is none."""
    parts: list[str] = []
    while type(func) is ast.Attribute:
        parts.append(func.attr)
        func = func.value
    dotted = ".".join((func.id, *reversed(parts))) if type(func) is ast.Name else None
    return dotted if dotted in _ENV_READS else None


def _reads_config(evaluator: Evaluator, call: ast.Call, src: Src | None) -> str | None:
    """The configuration read a call is by a name its module imports or binds (``from decouple import config``,
    ``env = environ.Env()``), by what the name resolves to there; None when it is none."""
    st = _state_of(evaluator, src)
    f = st.value(call.func, At(st.index.module, None)) if st is not None else None
    return f.qual if type(f) is Ref and f.qual in ENVIRONMENT else None


def module_value(evaluator: Evaluator, expr: ast.expr, src: Src | None) -> Value | None:
    """What ``expr``, spelled in the module ``src``, holds once that module has run (a read's default)."""
    st = _state_of(evaluator, src)
    r = st.value(expr, At(st.index.module, None)) if st is not None else None
    return r if type(r) is Value else None


def _state_of(evaluator: Evaluator, src: Src | None) -> ModuleState | None:
    """The values state of the module ``src`` (not its callees')."""
    return next((st for st in evaluator.states.values() if st.src is src and not st.callee), None)
