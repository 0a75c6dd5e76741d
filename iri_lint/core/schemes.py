"""What the engine knows about schemes: the IANA registry and likely typos of common schemes."""

from __future__ import annotations

from collections.abc import Iterator

from ..data.schemes import REGISTERED

COMMON = ("http", "https", "ftp", "ws", "wss", "mailto", "file")


def _one_edit(word: str) -> Iterator[str]:
    """Every string one edit (insert, delete, substitute, transpose) away from ``word``."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(len(word) + 1):
        for c in letters:
            yield word[:i] + c + word[i:]
        if i < len(word):
            yield word[:i] + word[i + 1 :]
            for c in letters:
                yield word[:i] + c + word[i + 1 :]
        if i < len(word) - 1:
            yield word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def _typo_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for good in COMMON:
        for bad in _one_edit(good):
            if bad not in REGISTERED and bad not in COMMON and len(bad) > 1:
                table.setdefault(bad, good)
    for good in ("http", "https"):
        table.setdefault(good + good[-1], good)  # "httpp", "httpss"
    return table


# unregistered one-edit variants of common schemes: "htps" -> "https"
SCHEME_TYPOS: dict[str, str] = _typo_table()


def is_registered(scheme: str) -> bool:
    """Whether ``scheme`` (any case) is in the IANA URI scheme registry (RFC 7595)."""
    return scheme.lower() in REGISTERED
