"""How many problems of each kind an analysis builds; the rest it only counts.

A hostile IRI has tens of thousands of problems of one kind, and a report shows the first few:
building a message, span and fix for each of the others would be most of the work. An analysis
given a ``Budget`` builds, of each kind, the first ``limit`` problems in text order, and counts the
others in ``Budget.skipped`` (at C speed where it can: ``take_matches``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

__all__ = ["Budget", "take_matches"]


class Budget:
    """At most ``limit`` problems built per key, in text order; ``skipped`` counts the others.

    A problem's key is ``key(kind, position)``, or its kind. The key may tell a problem in the
    host from one elsewhere (the rules report mixed scripts by that), nothing finer: problems of
    a kind found past the share of their key are counted in bulk from the position of the first.
    """

    __slots__ = ("built", "key", "limit", "skipped")

    def __init__(self, limit: int, key: Callable[[str, int], str] | None = None) -> None:
        self.limit = limit
        self.key = key
        self.built: dict[str, int] = {}
        self.skipped: dict[str, int] = {}

    def _key(self, kind: str, pos: int) -> str:
        return kind if self.key is None else self.key(kind, pos)

    def room(self, kind: str, pos: int = 0) -> bool:
        """Whether a problem of ``kind`` at ``pos`` would be built."""
        return self.built.get(self._key(kind, pos), 0) < self.limit

    def take(self, kind: str, pos: int = 0) -> bool:
        """Whether to build the next problem of ``kind`` (at ``pos``); if not, it is counted."""
        key = self._key(kind, pos)
        n = self.built.get(key, 0)
        if n < self.limit:
            self.built[key] = n + 1
            return True
        self.skipped[key] = self.skipped.get(key, 0) + 1
        return False

    def skip(self, kind: str, pos: int = 0, n: int = 1) -> None:
        """Count ``n`` problems of ``kind`` from ``pos`` on that are not built."""
        if n > 0:
            key = self._key(kind, pos)
            self.skipped[key] = self.skipped.get(key, 0) + n


def take_matches(budget: Budget | None, text: str, kinds: Sequence[tuple[str, str]],
                 count: Callable[[str, int], int]) -> Iterator[tuple[str, re.Match[str]]]:
    """``(kind, match)`` in text order for the matches of ``kinds`` in ``text``: all of them
    without a budget, else those it takes.

    ``kinds`` are (kind, regex without capturing groups) whose matches never overlap another
    kind's, nor depend on them (runs of disjoint character classes, say). A kind whose share is
    used up is dropped from the search, and ``count(kind, pos)``, the number of its matches from
    ``pos`` on, tells the budget how many it skipped: Python-level work grows with the number of
    problems built, not found.
    """
    live = [(kind, body) for kind, body in kinds if body]
    pos = 0
    while live:
        pattern = re.compile("|".join(f"({body})" for _, body in live))
        for m in pattern.finditer(text, pos):
            kind = live[(m.lastindex or 1) - 1][0]
            if budget is None or budget.take(kind, m.start()):
                yield kind, m
                continue
            budget.skip(kind, m.start(), count(kind, m.end()))  # take() counted this one
            live = [(k, body) for k, body in live if k != kind]
            pos = m.end()
            break
        else:
            return
