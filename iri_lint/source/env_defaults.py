"""A name bound to ``os.getenv(name, default)`` (issue #27): where the variable is unset, the default is the value.

``SITE_URL = os.environ.get("SITE_URL", "https://shop.example.com/")`` then ``SITE_URL + "/sms/status/"`` sends
``https://shop.example.com//sms/status/`` on every machine that does not set it (a developer's, CI): the value
at a use is checked with each such hole as its default, when that default is an absolute URL (an empty or
relative one says the variable must be set).
"""

from __future__ import annotations

import ast

from iri_lint.source.candidates import is_absolute_literal
from iri_lint.source.url_apis import env_default
from iri_lint.source.values import Hole, Piece, Text, Value

__all__ = ["with_env_defaults"]

_ENV_READS = ("getenv", "environ.get")  # (os.getenv, os.environ.get, and as imported: getenv, environ.get)


def with_env_defaults(value: Value) -> Value | None:
    """``value`` with each hole that stands for an environment variable's read with an absolute URL as its
    default replaced by that default; None when it has none."""
    pieces: list[Piece] = []
    changed = False
    for p in value.pieces:
        found = _url_default(p.node) if type(p) is Hole else None
        if found is not None:
            pieces.append(Text(found[0], found[1], 0, p.src))
            changed = True
        else:
            pieces.append(p)
    return Value(tuple(pieces), value.type) if changed else None


def _url_default(node: ast.AST | None) -> tuple[str, ast.Constant] | None:
    """The text and literal of a read's default that is an absolute URL."""
    if type(node) is not ast.Call or not _reads_environment(node.func):
        return None
    default = env_default(node)
    if type(default) is ast.Constant and isinstance(text := default.value, str) and is_absolute_literal(text):
        return text, default
    return None


def _reads_environment(func: ast.expr) -> bool:
    parts: list[str] = []
    while type(func) is ast.Attribute:
        parts.append(func.attr)
        func = func.value
    if type(func) is not ast.Name:
        return False
    parts.append(func.id)
    dotted = ".".join(reversed(parts))
    return dotted in ("os.getenv", "os.environ.get") or dotted in _ENV_READS
