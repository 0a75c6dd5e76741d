"""What importing a module may leave for later: regexes compiled, and a package's names imported, on first use.

``iri-lint check one_file.py`` imports every module it runs: a regex that only a rare IRI (escaped
octets, a noqa comment, a notebook) needs should cost nothing until then.
``_PCT = lazy_regex("%([0-9A-Fa-f]{2})")`` at module level, ``_PCT().finditer(text)`` where it is
used: after the first call, the call costs one cached lookup (tens of nanoseconds).

A package's ``__init__`` runs before any of its modules is imported, so a facade that imported its
API would make every front end pay for all of it (the flake8 plugin, on every file of every run):
the facades ``iri_lint`` and ``iri_lint.core`` name their API with ``lazy_exports`` instead
(docs/design.md, "Lazy boundaries").
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from collections.abc import Callable, Mapping

__all__ = ["lazy_exports", "lazy_regex"]


def lazy_regex(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A function returning ``re.compile(pattern, flags)``, compiled on its first call only."""

    @functools.cache
    def compiled() -> re.Pattern[str]:
        return re.compile(pattern, flags)

    compiled.__doc__ = f"re.compile({pattern!r}, {flags!r}), compiled on first use"
    return compiled


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` (PEP 562) for ``exports``: the module that defines each
    name (relative to the package, ".scanner" for ``scan``) -> its names, space-separated.

    A name's module is imported when the name is first read; the name is then stored in the
    package, so that reading it again is a plain attribute lookup."""
    home = {name: module for module, names in exports.items() for name in names.split()}

    def __getattr__(name: str) -> object:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *home})

    return __getattr__, __dir__
