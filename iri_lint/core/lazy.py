"""Regexes compiled on first use, so that importing a module compiles nothing.

``iri-lint check one_file.py`` imports every module and runs a few of them: a regex that only a
rare IRI (escaped octets, a noqa comment, a notebook) needs should cost nothing until then.
``_PCT = lazy_regex("%([0-9A-Fa-f]{2})")`` at module level, ``_PCT().finditer(text)`` where it is
used: after the first call, the call costs one cached lookup (tens of nanoseconds).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

__all__ = ["lazy_regex"]


def lazy_regex(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A function returning ``re.compile(pattern, flags)``, compiled on its first call only."""

    @functools.cache
    def compiled() -> re.Pattern[str]:
        return re.compile(pattern, flags)

    compiled.__doc__ = f"re.compile({pattern!r}, {flags!r}), compiled on first use"
    return compiled
