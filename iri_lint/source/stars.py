"""Which names a star import binds (``from m import *``), read from the project's own files.

A project module's star import binds its public names (those ``__all__`` lists, when one assignment of
strings sets it), with what its own star imports bind; a project module that cannot be read may bind
any name but a module, a name of an outside module or a builtin (``import requests`` before it still names
``requests``). An
installed module's star import is taken to bind no name of ours, as pyflakes reads it: its names cannot be known without
importing it, and it almost never rebinds a module's own.

Each star-imported module's exports are read once a file, and a scope's star imports are indexed by the
names they export: looking a name up costs the stars that export it (and those whose exports depend on
the name), not every star of the scope (200 star imports each asked for 200 names read every module again
once the project had dropped it: 17 s; linear now).
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, NamedTuple

from iri_lint.source.bindings import Binding, Kind, Order, Scope, dunder_all

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState
    from iri_lint.source.project import ProjectModule

__all__ = ["StarReads", "stars_binding", "stars_order"]


class Exports(NamedTuple):
    """What a module's star import may bind, as far as it does not depend on the name asked for."""

    listed: frozenset[str] | None  # its ``__all__``, when one assignment of strings sets it
    names: frozenset[str]  # every name its body binds
    stars: bool  # it star-imports too (then a name it does not bind may come from there)
    unread: bool = False  # it sets an ``__all__`` that cannot be read: each public name may be exported or not


class StarIndex(NamedTuple):
    """A scope's star imports: by each name one of them exports, and those whose exports depend on the
    name asked for (a module that star-imports too, or that cannot be read)."""

    by_name: dict[str, list[Binding]]
    each_name: list[tuple[Binding, str | None]]  # (star import, its module's file; None: a project's missing)


class StarReads:
    """One file's evaluation's reading of star imports: each star-imported module's ``Exports``, each
    scope's ``StarIndex``, and the (module, name) pairs being read (a cycle of star imports)."""

    __slots__ = ("busy", "exports", "indexes", "orders")

    def __init__(self) -> None:
        self.busy: set[tuple[str, str]] = set()
        self.exports: dict[str, Exports | None] = {}  # module -> its exports (None: it cannot be read)
        self.indexes: dict[int, StarIndex] = {}  # id(scope) -> its index
        self.orders: dict[tuple[int, str], Order] = {}  # (id(scope), name) -> its order (``stars_order``)


def stars_order(state: ModuleState, scope: Scope, name: str) -> Order:
    """``scope.order(name)`` of a scope of ``state``'s module, with the star imports that may bind it: once a
    file, not once a run. Which bind it is read from their files, and each file's evaluation must read them
    itself: they are its dependencies too (a result cache re-checks it when one changes), and one may have
    changed since an earlier file's evaluation (the editor's)."""
    if not scope.stars:
        return scope.order(name)
    orders = state.evaluator.stars.orders
    key = (id(scope), name)
    found = orders.get(key)
    if found is None:
        found = orders[key] = scope.order(name, state._stars_for)
    return found


def stars_binding(state: ModuleState, scope: Scope, name: str, max_depth: int) -> list[Binding]:
    """The star imports of ``scope`` (of ``state``'s module) that may bind ``name``; past ``max_depth``
    nested readings, every one of them may."""
    ev = state.evaluator
    if any(b.kind is Kind.IMPORT and b.imported == (name, None, 0) and not _of_project(state, b.imported)
           for b in scope.names.get(name, ())):
        return []  # (``import requests``: what a star re-exports as ``requests`` is that module, however deep)
    if ev.depth >= max_depth:
        return [b for b in scope.stars if _file(state, b) is not None or _missing(state, b)]
    index = ev.stars.indexes.get(id(scope))
    if index is None:
        index = ev.stars.indexes[id(scope)] = _index(state, scope)
    if _imports_a_module(state, scope, name):  # (no module that cannot be read rebinds it, however deep)
        return [*index.by_name.get(name, ()), *(b for b, path in index.each_name if path is not None and
                                                 _binds_for_sure(state, path, name, max_depth))]
    return [*index.by_name.get(name, ()), *(b for b, path in index.each_name if
                                             path is None or _nested_binds(state, path, name, max_depth))]


def _imports_a_module(state: ModuleState, scope: Scope, name: str) -> bool:
    """Whether ``scope`` binds ``name`` to a module (``import requests``), to a name of a module outside the
    project (``from urllib.parse import quote``), or leaves it to the builtins (``str``): a module that cannot
    be read is not taken to rebind it. What a star import re-exports under a module's name is that module, and
    a settings module read in a ``try`` overrides the project's settings (``from .config import CDN``: a
    hole), not the library helpers and builtins the importer already has."""
    bindings = scope.names.get(name, ())
    if not bindings:
        return name in _BUILTINS
    return any(b.kind is Kind.IMPORT and b.imported is not None and (
        b.imported[1] is None or not _of_project(state, b.imported) or _submodule(state, b.imported))
        for b in bindings)


def _submodule(state: ModuleState, imported: tuple[str | None, str | None, int]) -> bool:
    """Whether a ``from pkg import settings`` names a module of the project (``pkg/settings.py``)."""
    module, name, level = imported
    project = state.evaluator.project
    return project is not None and state.path is not None and \
        project.find(state.path, module, level, name) is not None


def _of_project(state: ModuleState, imported: tuple[str | None, str | None, int]) -> bool:
    """Whether a ``from m import n`` names a module of the project (relative, or found in it)."""
    module, _, level = imported
    project = state.evaluator.project
    if level or project is None or state.path is None:
        return bool(level)
    return not module or project.find(state.path, module.split(".", 1)[0], 0) is not None


_BUILTINS = frozenset(dir(builtins))


def _missing(state: ModuleState, star: Binding) -> bool:
    """Whether a star import names a module of the project that is not there (``from .local_settings import
    *`` of a git-ignored file, in a ``try``): it may bind any name, as one that cannot be read."""
    module, _, level = star.imported or (None, None, 0)
    project = state.evaluator.project
    if project is None or state.path is None:
        return False
    if level:
        return True
    if not module or "." not in module:
        return False  # (``from local_settings import *``: a project's module or an installed one)
    return project.find(state.path, module.split(".", 1)[0], 0) is not None  # (a package of the project's)


def _file(state: ModuleState, star: Binding) -> str | None:
    """The project file a star import reads (None: not one of the project's: it binds no name of ours)."""
    module, _, level = star.imported or (None, None, 0)
    project = state.evaluator.project
    if project is None or state.path is None or not module:
        return None
    missing: list[str] = []  # (files looked for in vain: one created later binds names here)
    path = project.find(state.path, module, level, probed=missing)
    state.deps.update(missing if path is None else (path, *missing))
    return path


def _index(state: ModuleState, scope: Scope) -> StarIndex:
    by_name: dict[str, list[Binding]] = {}
    each_name: list[tuple[Binding, str | None]] = []
    for star in scope.stars:
        path = _file(state, star)
        if path is None:
            if _missing(state, star):
                each_name.append((star, None))
            continue
        exports = _exports(state, path)
        maybe = star._replace(kind=Kind.OTHER) if exports is not None and exports.unread else star  # (bound or not:
        # a hole either way)
        if exports is None or (exports.listed is None and exports.stars):
            each_name.append((maybe, path))
            continue
        public = exports.listed if exports.listed is not None else (n for n in exports.names if not n.startswith("_"))
        for n in public:
            by_name.setdefault(n, []).append(maybe)
    return StarIndex(by_name, each_name)


def _exports(state: ModuleState, path: str) -> Exports | None:
    reads = state.evaluator.stars
    if path not in reads.exports:
        assert state.evaluator.project is not None
        loaded = state.evaluator.project.load(path)
        reads.exports[path] = None if loaded is None else _exports_of(loaded)
    return reads.exports[path]


def _exports_of(module: ProjectModule) -> Exports:
    scope = module.scopes.module
    listed = dunder_all(scope)
    return Exports(listed, frozenset(scope.names), bool(scope.stars), listed is None and "__all__" in scope.names)


def _binds_for_sure(state: ModuleState, path: str, name: str, max_depth: int) -> bool:
    """Whether a module that star-imports binds ``name`` by its own names or through the star imports of it
    that can be read (those that cannot are taken to bind no imported name and no builtin)."""
    ev = state.evaluator
    exports = _exports(state, path)
    if exports is None or name.startswith("_") or (exports.listed is not None and name not in exports.listed):
        return False
    if name in exports.names:
        return True
    assert ev.project is not None
    loaded = ev.project.load(path)
    if loaded is None or (path, name) in ev.stars.busy or ev.depth >= max_depth:
        return False
    ev.stars.busy.add((path, name))
    ev.depth += 1
    try:
        st = ev.of(loaded, state.callee)
        return any(nested is not None and _binds_for_sure(st, nested, name, max_depth)
                   for nested in (_file(st, b) for b in loaded.scopes.module.stars))
    finally:
        ev.depth -= 1
        ev.stars.busy.discard((path, name))


def _nested_binds(state: ModuleState, path: str, name: str, max_depth: int) -> bool:
    """Whether a module that cannot be read, or that star-imports too, binds ``name``."""
    ev = state.evaluator
    exports = _exports(state, path)
    if exports is None:
        return True
    if name.startswith("_"):
        return False
    if name in exports.names:
        return True
    assert ev.project is not None
    loaded = ev.project.load(path)
    if loaded is None:
        return True
    if (path, name) in ev.stars.busy:
        return False  # (a cycle of star imports: what binds the name is found on the way in)
    ev.stars.busy.add((path, name))
    ev.depth += 1
    try:
        st = ev.of(loaded, state.callee)
        return bool(stars_order(st, loaded.scopes.module, name).by_pos)
    finally:
        ev.depth -= 1
        ev.stars.busy.discard((path, name))
