"""The one glob matcher of iri-lint's settings: excludes, ``per-file-ignores`` and ``test-files``.

flake8's rule, as ruff and flake8 users write these patterns: a pattern matches the path's base name
or the whole path (``*.pyi``, ``tests/*``, ``build``), and a pattern holding a ``/`` may also match the
end of the absolute path (``*/migrations/*`` from any folder). ``fnmatch``'s syntax, a trailing ``/``
ignored. Each set of patterns is compiled once, to one regular expression per way of matching;
``fnmatch.translate`` makes every ``*`` but the last an atomic group, so a path is matched without
backtracking between stars.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Iterable


class Globs:
    """A set of patterns compiled to one regular expression per way of matching."""

    __slots__ = ("absolute", "any")

    def __init__(self, patterns: tuple[str, ...]) -> None:
        pats = [os.path.normcase(p.rstrip("/")) for p in patterns]
        self.any = re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in pats)) if pats else None
        slashed = [p for p in pats if "/" in p]
        self.absolute = (re.compile("|".join(f"(?:{fnmatch.translate(p)})|(?:{fnmatch.translate('*/' + p)})"
                                             for p in slashed)) if slashed else None)

    def match(self, path: str, absolute: str | None = None) -> bool:
        """Whether a pattern matches ``path``'s base name or the whole (normalised) ``path``; with
        ``absolute`` (``path`` made absolute), whether a pattern holding a ``/`` matches its end."""
        if self.any is None:
            return False
        posix = os.path.normcase(os.path.normpath(path)).replace(os.sep, "/")
        name = posix.rstrip("/").rsplit("/", 1)[-1]
        if self.any.match(name) or self.any.match(posix):
            return True
        return bool(absolute is not None and self.absolute
                    and self.absolute.match(os.path.normcase(absolute).replace(os.sep, "/")))


@functools.lru_cache(maxsize=256)
def _compiled(patterns: tuple[str, ...]) -> Globs:
    return Globs(patterns)


def globs(patterns: Iterable[str]) -> Globs:
    """The compiled :class:`Globs` of ``patterns`` (compiled once per set of patterns)."""
    return _compiled(tuple(patterns))
