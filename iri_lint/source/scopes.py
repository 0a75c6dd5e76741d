"""OAuth scopes (RFC 6749 sec. 3.3): ``scope = scope-token *( SP scope-token )``, some tokens IRIs and some
not (``"openid https://graph.microsoft.com/.default offline_access"``)."""

from __future__ import annotations

import re

from iri_lint.source.candidates import is_item

__all__ = ["says_scope", "scope_items"]

_SCOPE_WORDS = frozenset(("scope", "scopes"))
_SPACED = re.compile(r"[^ \t\r\n]++")


def says_scope(name: str) -> bool:
    """Whether a name says it holds an OAuth scope (``SCOPES``, ``personal_scope``, ``scope=``)."""
    return not _SCOPE_WORDS.isdisjoint(name.rsplit(".", 1)[-1].lower().split("_"))


def scope_items(value: str) -> list[tuple[int, int]]:
    """The tokens of a scope that are absolute IRIs: each is checked alone, the others are no IRIs."""
    return [m.span() for m in _SPACED.finditer(value) if is_item(m.group())]
