"""The project's own modules, read for their constants (``from pkg.settings import HOST``).

A module is found from the importing file's path: the project root is the nearest folder above it
holding ``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``, else the folder above its top
package. Only files under that root are read; each at most once per ``Project`` (one per run), parsed
with ``ast`` and never imported or run. A file that cannot be read or parsed, or is larger than
``MAX_MODULE_BYTES``, is a module whose every name is a hole.

The values of another module never read the inside of a function, except a method that binds an attribute
(``self.url = root + "/api"``, with the names it binds on the way), a function declaring ``global`` and a
function or method whose body is one ``return`` (a helper, read at its calls: ``source.helpers``):
every other function's body is dropped from the tree a ``Project`` keeps (``_without_unread_bodies``),
which is most of a module's tree.
"""

from __future__ import annotations

import ast
import io
import os
import tokenize
from collections import Counter, OrderedDict
from typing import NamedTuple

from iri_lint.source.bindings import ModuleIndex
from iri_lint.source.django_settings import SETTINGS, settings_module
from iri_lint.source.exports import binds_attribute, super_init_call
from iri_lint.source.locate import SourceFile, split_lines
from iri_lint.source.packages import package_folder, top_folder
from iri_lint.source.returns import one_return
from iri_lint.source.values import Src

__all__ = ["MAX_MODULES", "MAX_MODULE_BYTES", "Project", "ProjectModule", "file_stamp", "find_root"]

MAX_MODULE_BYTES = 2 << 20  # a module this large is read for no constant: its names are holes
MAX_MODULES = 160  # parsed modules a Project keeps (their trees are most of its memory: see Project.load)
MAX_LENDABLE = 64  # modules whose dropped function bodies are kept to lend their whole tree (see lend_tree)
_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


class _Lendable(NamedTuple):
    """A module's text and tree as read, with what ``_without_unread_bodies`` dropped from it."""

    text: str
    tree: ast.Module
    swaps: list[tuple[ast.AST, list[ast.stmt], list[ast.stmt]]]  # (function, its body, the stub kept instead)


class ProjectModule(NamedTuple):
    """A parsed module of the project."""

    path: str
    src: Src
    scopes: ModuleIndex


def _decode(data: bytes) -> str:
    """A Python file's text (its BOM and PEP 263 cookie honoured)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def _sha256(data: bytes) -> str:
    """The hex SHA-256 of a module's bytes."""
    import hashlib  # (d) on demand: 3.6 MiB of OpenSSL in every flake8 process, which never hashes

    return hashlib.sha256(data).hexdigest()


def find_root(directory: str, cache: dict[str, str] | None = None) -> str:
    """The project root of files in ``directory`` (an absolute path)."""
    if cache is not None and directory in cache:
        return cache[directory]
    d = directory
    root = None
    while True:
        if any(os.path.exists(os.path.join(d, m)) for m in _MARKERS):
            root = d
            break
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    if root is None:  # the folder above the top package (or the file's own folder)
        root = directory
        while os.path.isfile(os.path.join(root, "__init__.py")) and os.path.dirname(root) != root:
            root = os.path.dirname(root)
    if cache is not None:
        cache[directory] = root
    return root


_UNSEEN = object()


class Project:
    """The modules of the projects a run touches, each read and parsed once; counts what it reads."""

    __slots__ = ("_current", "_django", "_dropped", "_found", "_kept_root", "_lendable", "_lent", "_modules", "_real",
                 "_roots", "_stats", "digests", "frozen_at", "hashed", "loads", "max_modules", "reads",
                 "remembers_missing")

    def __init__(self, max_modules: int = MAX_MODULES, *, hashed: bool = True, lends: bool = True,
                 remembers_missing: bool = True) -> None:
        """``hashed``: record each module's sha256 in ``digests`` (a run that keeps no result cache, flake8's,
        does not: hashing imports hashlib, which loads OpenSSL). ``lends``: keep what a module read loses of
        its tree, for a lint of the same text to borrow it (``lend_tree``; flake8 parses its files itself).
        ``remembers_missing``: a module not found is not looked for again (not as long as the editor lives)."""
        self.remembers_missing = remembers_missing
        self._roots: dict[str, str] = {}  # folder -> its project root
        # real path -> module (None: a hole), the least recently used first
        self._modules: OrderedDict[str, ProjectModule | None] = OrderedDict()
        self.max_modules = max_modules
        self._current: ProjectModule | None = None  # the file being linted (the caller's tree)
        self._dropped: list[ProjectModule] = []  # let go of while the current file's values are read
        self.loads = 0  # modules read and parsed, a module read again after it was dropped counted again
        self.frozen_at = 0  # ``loads`` when the run's modules were last moved out of the gc's reach
        self._found: dict[tuple[str, str], str | None] = {}  # (folder searched, dotted name) -> file
        self._django: dict[str, tuple[str | None, list[str]]] = {}  # root -> its DJANGO_SETTINGS_MODULE
        self._real: dict[str, str] = {}  # path -> its real path (asked for each module a value reads, each time)
        self.reads: Counter[str] = Counter()  # real path -> times read from disk
        self._stats: dict[str, tuple[int, int, int] | None] = {}  # real path -> its stat when read
        # real path -> sha256 of the bytes read (None: not read, or not ``hashed``), for a result cache keyed by content
        self.digests: dict[str, str | None] = {}
        self.hashed = hashed
        self._kept_root = ""  # (see keep_root)
        # real path -> a module read that a lint may borrow whole, the oldest first (None: not kept)
        self._lendable: OrderedDict[str, _Lendable] | None = OrderedDict() if lends else None
        self._lent: _Lendable | None = None

    @property
    def files_read(self) -> int:
        """How many files were read from disk."""
        return len(self.reads)

    @property
    def read_twice(self) -> int:
        """How many files were read more than once (the cache makes this 0)."""
        return sum(1 for n in self.reads.values() if n > 1)

    def add(self, path: str, tree: ast.Module, src: Src, text: str | None = None) -> ProjectModule:
        """Register the module the caller is linting (parsed already): a cycle back to it reads this tree,
        never the disk. Only the latest one is kept, so a run holds the trees of the modules it read, not
        of every file it linted."""
        current = self._current
        if current is not None and current.src.path == path and current.scopes.tree is tree:
            return current  # (registered again: the state resolving calls; its path's real path is known)
        real = self.realpath(path)
        if current is None or current.path != real or current.scopes.tree is not tree:
            current = self._current = ProjectModule(real, src, ModuleIndex(tree, text))
        return current

    def _let_go(self, module: ProjectModule | None) -> None:
        """Drop a module; it is freed when the file being linted is done (its values may still read it)."""
        if module is not None:
            self._dropped.append(module)
            if self._lendable is not None:
                self._lendable.pop(module.path, None)

    def lend_tree(self, path: str, text: str) -> ast.Module | None:
        """The whole tree of ``text``, the module at ``path``, when a value read it already: its dropped bodies
        put back for the caller's lint, until ``give_back``. A run reads a module for another file's values
        before it lints it, as often as not: parsed once, not twice (about a tenth of a check's parsing)."""
        self.give_back()
        if not self._lendable:
            return None
        real = os.path.abspath(path)  # (not its real path, a system call per folder: a link is only not lent)
        kept = self._lendable.pop(real, None)
        module = self._modules.get(real)
        if kept is None or kept.text != text or module is None or module.scopes.tree is not kept.tree:
            return None
        for function, body, _ in kept.swaps:
            function.body = body  # type: ignore[attr-defined]
        self._lent = kept
        return kept.tree

    def give_back(self) -> None:
        """The lint that borrowed a tree is done with it: what the project keeps of it is dropped again."""
        lent, self._lent = self._lent, None
        for function, _, stub in lent.swaps if lent is not None else ():
            function.body = stub  # type: ignore[attr-defined]

    def done(self, path: str) -> None:
        """The caller is done with the module it registered (``add``): free it now (see ``ModuleIndex.close``),
        and the modules dropped meanwhile: with their indexes' cycles broken, refcounting frees their trees (a
        frozen gc would never collect them, and a run reading thousands of modules would keep them all)."""
        for module in self._dropped:
            module.scopes.close()
        self._dropped.clear()
        current = self._current
        if current is not None and (current.src.path == path or current.path == self.realpath(path)):
            self._current = None
            current.scopes.close()

    def keep_root(self, path: str) -> None:
        """Let go of the modules outside the project root of the file ``path``: a module is read only for files
        under its root (``find``), so they serve none of this root's files. A run that checks its files project
        by project, as flake8 does, then holds the modules of one project at a time, not of all it checked."""
        root = self.realpath(self.root_of(path)).rstrip(os.sep) + os.sep
        if root == self._kept_root:
            return
        self._kept_root = root
        for real in [real for real in self._modules if not real.startswith(root)]:
            self._stats.pop(real, None)
            self._let_go(self._modules.pop(real))

    def realpath(self, path: str) -> str:
        """``os.path.realpath``, once per path (as files are found once per run: see ``find``); a relative path
        is the working folder's, which a process running several checks may change."""
        key = path if os.path.isabs(path) else os.path.join(os.getcwd(), path)
        real = self._real.get(key)
        if real is None:
            real = self._real[key] = os.path.realpath(key)
        return real

    def root_of(self, path: str) -> str:
        """The project root of a file."""
        return find_root(os.path.dirname(os.path.abspath(path)), self._roots)

    def find(self, importer: str, module: str | None, level: int, name: str | None = None,
             probed: list[str] | None = None) -> str | None:
        """The file of module ``module`` (or of ``module.name``, when ``name`` is given and is a module)
        imported from ``importer`` with ``level`` leading dots (neither: the package those dots name); None when
        it is not a file of the project. ``probed`` receives the files looked for in vain (one created later
        changes what a value is: a result cache or the editor depends on them too)."""
        root = self.root_of(importer)
        dotted = ".".join(p for p in (module, name) if p)
        if level:
            base = package_folder(importer, level)
            if not dotted:  # (``from . import X``: the package itself)
                return self._file_in(os.path.dirname(base), os.path.basename(base), root, probed)
            return self._file_in(base, dotted, root, probed)
        if not dotted:
            return None
        if dotted == SETTINGS:  # (``from django.conf import settings``: the module DJANGO_SETTINGS_MODULE names)
            named, seen = self._django.get(root) or settings_module(root)
            if self.remembers_missing:  # (not in the editor, where manage.py may change)
                self._django[root] = named, seen
            if probed is not None:
                probed += (path for path in seen if not os.path.isfile(path))
            return None if named is None else self.find(importer, named, 0, probed=probed)
        # the folder above the importer's top package first: where Python finds what a script or a test of
        # it imports (a member of a workspace whose root has a package of the same name: its own)
        top = top_folder(importer)
        folders = [top, root, os.path.join(root, "src")]
        for folder in dict.fromkeys(folders):
            found = self._file_in(folder, dotted, root, probed)
            if found is not None:
                return found
        return None

    def forget_missing(self) -> None:
        """Look again for the modules not found so far (a new run in the same process)."""
        self._found = {key: found for key, found in self._found.items() if found is not None}

    def _file_in(self, folder: str, dotted: str, root: str, probed: list[str] | None = None) -> str | None:
        key = (folder, dotted)
        found = self._found.get(key, _UNSEEN)
        if found is not _UNSEEN and (found is not None or (self.remembers_missing and probed is None)):
            return found  # type: ignore[return-value]
        base = os.path.join(folder, *dotted.split("."))
        candidates = (os.path.join(base, "__init__.py"), base + ".py")  # (a package before a module, as Python's
        # path finder looks)
        if found is _UNSEEN or not self.remembers_missing:
            found = None
            for candidate in candidates:
                if os.path.isfile(candidate):
                    real = os.path.realpath(candidate)
                    real_root = os.path.realpath(root)
                    if real.startswith(real_root.rstrip(os.sep) + os.sep):  # never outside the project
                        found = real
                    break
            self._found[key] = found
        if found is None and probed is not None:
            probed += candidates
        return found  # type: ignore[return-value]

    def load(self, path: str) -> ProjectModule | None:
        """The parsed module at ``path`` (read on first use); None when it cannot be read or parsed.

        At most ``max_modules`` are kept, the least recently used dropped first: a module read again
        after that counts in ``read_twice``."""
        real = self.realpath(path)
        current = self._current
        if current is not None and current.path == real:
            return current
        if real in self._modules:
            if self._stats.get(real) == file_stamp(real):
                self._modules.move_to_end(real)
                return self._modules[real]
            self._let_go(self._modules.pop(real))  # changed on disk since (a long-lived process: the editor's server)
            self.reads[real] -= 1  # (a read of a changed file is no read twice)
        module = None
        self.reads[real] += 1
        self.loads += 1
        self._stats[real] = file_stamp(real)
        self.digests[real] = None
        try:
            if os.path.getsize(real) <= MAX_MODULE_BYTES:
                with open(real, "rb") as f:
                    data = f.read()
                if self.hashed:
                    self.digests[real] = _sha256(data)
                text = _decode(data)
                swaps: list[tuple[ast.AST, list[ast.stmt], list[ast.stmt]]] | None = \
                    None if self._lendable is None else []
                tree = _without_unread_bodies(ast.parse(text, real), swaps)
                module = ProjectModule(real, Src(SourceFile(split_lines(text)), real), ModuleIndex(tree, text))
                if swaps is not None and self._lendable is not None:
                    self._lendable[real] = _Lendable(text, tree, swaps)
                    if len(self._lendable) > MAX_LENDABLE:
                        self._lendable.popitem(last=False)
        except (OSError, SyntaxError, ValueError, LookupError, RecursionError, MemoryError):
            module = None  # (UnicodeDecodeError is a ValueError)
        self._modules[real] = module
        if len(self._modules) > self.max_modules:
            gone, module_gone = self._modules.popitem(last=False)
            self._stats.pop(gone, None)
            self._let_go(module_gone)
        return module


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _read_inside(function: ast.AST) -> bool:
    """Whether another module's values may read inside a function: a statement of it (at any depth; its
    expressions are not walked) binds an attribute or declares ``global``/``nonlocal``, or calls
    ``super().__init__(...)`` (a client class's base URL: ``source.subclassing``)."""
    stack: list[ast.AST] = list(function.body)  # type: ignore[attr-defined]
    while stack:
        stmt = stack.pop()
        if type(stmt) in (ast.Global, ast.Nonlocal) or binds_attribute(stmt) or super_init_call(stmt) is not None:
            return True
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack += getattr(stmt, field, ())
    return False


def _without_unread_bodies(tree: ast.Module,
                           swaps: list[tuple[ast.AST, list[ast.stmt], list[ast.stmt]]] | None = None) -> ast.Module:
    """The module with the body of each function no value of another module reads replaced by its first
    statement (a docstring, or a ``pass`` where that statement stood): see the module's docstring. ``swaps``
    receives each function with its body and the stub put there."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if type(child) in _FUNCS:
                # (a module-level function's or a method's one return: a helper, read at its calls)
                helper = (node is tree or type(node) is ast.ClassDef) and one_return(child) is not None
                if not helper and not _read_inside(child):
                    first = child.body[0]  # type: ignore[attr-defined]
                    keep = first if type(first) is ast.Expr and type(first.value) is ast.Constant else \
                        ast.copy_location(ast.Pass(), first)
                    stub: list[ast.stmt] = [keep]
                    if swaps is not None:
                        swaps.append((child, child.body, stub))  # type: ignore[attr-defined]
                    child.body = stub  # type: ignore[attr-defined]
            elif isinstance(child, ast.stmt):
                stack.append(child)  # (classes and blocks hold functions; expressions hold none)
    return tree


def file_stamp(path: str) -> tuple[int, int, int] | None:
    """What says a file changed: its modification time, size and inode (None: gone)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # (ValueError: a NUL in the path, ``lint.VALUES_UNREAD``'s)
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)
