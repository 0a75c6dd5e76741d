"""The package a relative import names, read from the folders holding an ``__init__.py`` (as Python's import
system reads them), never by importing anything."""

from __future__ import annotations

import functools
import os

__all__ = ["forget_packages", "package_folder", "package_of", "top_folder"]


def package_folder(importer: str, level: int) -> str:
    """The folder ``level`` leading dots name from ``importer`` (one: the importer's own)."""
    base = os.path.dirname(os.path.abspath(importer))
    for _ in range(level - 1):
        base = os.path.dirname(base)
    return base


def package_of(importer: str, level: int) -> str | None:
    """The dotted name of the package ``level`` leading dots name from ``importer`` (``from .http import
    fetch`` in ``pk/api.py``: ``pk``), read from the folders holding an ``__init__.py``; None outside one."""
    return _package_name(package_folder(importer, level)) or None


def top_folder(importer: str) -> str:
    """The folder above the importer's top package (its own folder outside one): where Python finds what a
    script or a test of that package imports."""
    top = os.path.dirname(os.path.abspath(importer))
    name = _package_name(top)
    for _ in range(name.count(".") + 1 if name else 0):
        top = os.path.dirname(top)
    return top


def forget_packages() -> None:
    """Read the folders again: an ``__init__.py`` was created or deleted (the editor's long-lived process)."""
    _package_name.cache_clear()


@functools.lru_cache(maxsize=256)
def _package_name(folder: str) -> str:
    parent = os.path.dirname(folder)
    if parent == folder or not os.path.isfile(os.path.join(folder, "__init__.py")):
        return ""
    above = _package_name(parent)
    return f"{above}.{os.path.basename(folder)}" if above else os.path.basename(folder)
