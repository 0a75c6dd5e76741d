"""Which names a star import binds (``from m import *``), read from the project's own files.

A project module's star import binds its public names (those ``__all__`` lists, when one assignment of
strings sets it), with what its own star imports bind; a project module that cannot be read may bind
any name. An installed module's star import is taken to bind no name of ours, as pyflakes reads it: its
names cannot be known without importing it, and it almost never rebinds a module's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iri_lint.source.bindings import Binding, dunder_all

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState

__all__ = ["star_binds"]


def star_binds(state: ModuleState, star: Binding, name: str, max_depth: int) -> bool:
    """Whether ``star`` (a star import of ``state``'s module) may bind ``name``; a chain of star imports
    deeper than ``max_depth`` may bind it."""
    module, _, level = star.imported or (None, None, 0)
    ev = state.evaluator
    project = ev.project
    if project is None or state.path is None or not module:
        return False
    path = project.find(state.path, module, level)
    if path is None:
        return False
    state.deps.add(path)
    loaded = project.load(path)
    if loaded is None or ev.depth >= max_depth:
        return True
    busy = ev.stars_busy
    if (path, name) in busy:
        return False  # (a cycle of star imports: what binds the name is found on the way in)
    busy.add((path, name))
    ev.depth += 1
    try:
        scope = loaded.scopes.module
        exported = dunder_all(scope)
        if exported is not None:
            return name in exported
        st = ev.of(loaded, state.callee)
        return not name.startswith("_") and (name in scope.names or bool(
            scope.stars and scope.order(name, st._star_binds).by_pos))
    finally:
        ev.depth -= 1
        busy.discard((path, name))
