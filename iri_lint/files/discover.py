"""Which files to check: paths from the command line, folders walked, excludes and git's ignore files applied.

A path named on the command line is always checked: a named file whatever its suffix, excludes
(unless ``--force-exclude``) and ``.gitignore``; a named folder is walked even when excluded or
ignored (inside it, only the ignore files within it apply). Walking picks ``*.py``, ``*.pyi`` and
``*.ipynb`` and skips version-control folders, virtualenvs (a folder holding ``pyvenv.cfg``), the
configured excludes, what git ignores (``respect-gitignore``), and the default excludes by name,
except that inside a git work tree a build-output name (``build``, ``dist``, ``_build``,
``buck-out``) that git tracks files in, such as ``doc/build``, is checked. Symlinked folders are
not followed; a file reached both directly and through a symlink is checked once, under its own name.

Why our own matcher (``gitignore.py``) and not ``git check-ignore``: matching needs no subprocess per
file and no git installed, and it works the same in a checkout and in an exported copy of one. git is
asked only what no pattern can say: where ``core.excludesFile`` is, and which folders it tracks (only
when a build-output folder is not ignored anyway).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from .fileio import is_temp_name
from .gitignore import IgnoreRules
from .gitrepo import Repo, find_top
from .globs import Globs, globs

# never walked, whatever the excludes say
VCS_DIRS = frozenset((".git", ".hg", ".svn", ".bzr", "_darcs"))
# folders nobody wants linted; a folder holding pyvenv.cfg (any virtualenv) is skipped too
DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".bzr", "_darcs", ".tox", ".nox", ".venv", "venv", ".direnv", "__pycache__",
    ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", ".eggs", "*.egg-info", "build", "dist",
    "node_modules", "site-packages", "__pypackages__", "_build", "buck-out", ".ipynb_checkpoints",
)
# of those, the names of build output that are also plausible source folders (doc/build, tools/dist):
# inside a git work tree they are checked when git tracks files in them
BUILD_OUTPUT = frozenset(("build", "dist", "_build", "buck-out"))
SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")


class Target(NamedTuple):
    """A file to check."""

    path: str  # as shown in output ("-" for stdin)
    explicit: bool = False  # named on the command line
    real: str = ""  # the resolved path ("" for stdin)
    link: bool = False  # the path itself is a symbolic link


class Discovery(NamedTuple):
    """The files to check, and the trees the command line reaches (see :func:`tree_of`)."""

    targets: list[Target]
    trees: tuple[str, ...]
    # temporary files of iri-lint's writer seen on the way: a killed run's, if their writer is gone
    leftovers: tuple[str, ...] = ()


def tree_of(path: str) -> str:
    """The resolved folder a command-line path stands for: its git top level, else the folder itself
    (a named file's folder)."""
    folder = os.path.realpath(path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path)))
    return find_top(folder) or folder


def excluded(path: str, patterns: Sequence[str], root: str | None = None) -> bool:
    """Whether the file or folder ``path``, or a folder above it up to ``root`` (default: the current
    folder, and a relative ``path`` as it is named), is excluded: what ``--force-exclude`` asks of a
    named path, and the language server of a document (``root``: its pyproject's folder). Outside
    ``root`` only ``path`` itself is matched: a folder above the project named ``build`` excludes
    nothing."""
    matcher = globs(patterns)
    base = os.getcwd() if root is None else os.path.abspath(root)
    rel = path
    if root is not None or os.path.isabs(path):
        try:
            rel = os.path.relpath(os.path.abspath(path), base)
        except ValueError:  # another drive
            return matcher.match(path, os.path.abspath(path))
        if rel.startswith(os.pardir):
            return matcher.match(path, os.path.abspath(path))
    parts = Path(rel).parts
    return any(matcher.match(prefix, os.path.abspath(os.path.join(base, prefix)))
               for prefix in (os.path.join(*parts[: i + 1]) for i in range(len(parts))))


def discover(paths: Sequence[str], *, exclude: Sequence[str] | None = None, extend_exclude: Sequence[str] = (),
             respect_gitignore: bool = True, force_exclude: bool = False,
             skipped: list[tuple[str, str]] | None = None) -> Discovery:
    """The files to check, in a stable order, each once.

    ``exclude`` replaces :data:`DEFAULT_EXCLUDE` (None keeps it); ``extend_exclude`` adds to either.
    ``skipped``: where to note the folders and Python files left out, and why (``--show-files``).
    """
    walker = _Walker(DEFAULT_EXCLUDE if exclude is None else (),
                     (*(exclude or ()), *extend_exclude), respect_gitignore)
    walker.skipped = skipped
    every = (*walker.defaults, *walker.patterns)
    found: list[Target] = []
    folders: dict[str, str] = {}  # a named file's folder -> its real path
    tops: dict[str, str] = {}  # a named file's absolute folder -> its tree
    for given in paths:
        if given == "-":
            found.append(Target("-", explicit=True))
        elif force_exclude and excluded(given, every):
            walker.skip_note(given, "excluded (--force-exclude)")
            continue
        elif force_exclude and respect_gitignore and not os.path.isdir(given) and walker.git_ignores(given):
            walker.skip_note(given, "ignored by git (--force-exclude)")
            continue
        elif os.path.isdir(given):
            found.extend(walker.walk(given))
        else:
            found.append(_named_file(given, folders))
    trees = tuple(dict.fromkeys(tree_of(p) if os.path.isdir(p) else _tree_of_folder(p, tops)
                                for p in paths if p != "-"))
    return Discovery(_once(found, walker.skip_note), trees, tuple(walker.leftovers))


def _named_file(path: str, folders: dict[str, str]) -> Target:
    """A file named on the command line. Its real path is its folder's (resolved once per folder: a commit's
    files share a few) and its name, unless it is a symlink itself (1,360 files named: 0.14 s of a run's
    start went to resolving every component of every path, twice)."""
    link = os.path.islink(path)
    if link:
        return Target(path, True, os.path.realpath(path), True)
    folder = os.path.dirname(path) or os.curdir
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = os.path.realpath(folder)
    return Target(path, True, os.path.join(real, os.path.basename(path)), False)


def _tree_of_folder(path: str, tops: dict[str, str]) -> str:
    """``tree_of`` a named file, once per folder."""
    folder = os.path.dirname(os.path.abspath(path))
    found = tops.get(folder)
    if found is None:
        found = tops[folder] = tree_of(path)
    return found


def _once(found: list[Target], note: Callable[[str, str], None]) -> list[Target]:
    """Each file once: a symlink is dropped when its target is checked under its own name (``note``d)."""
    direct = {t.real for t in found if not t.link}
    seen: set[str] = set()
    out = []
    for t in found:
        if t.path == "-":
            out.append(t)
            continue
        key = os.path.normcase(t.real)
        if key in seen or (t.link and t.real in direct):
            note(t.path, "a symlink to a file checked under its own name" if t.link else "checked already")
            continue
        seen.add(key)
        out.append(t)
    return out


class _Walker:
    def __init__(self, defaults: Sequence[str], patterns: Sequence[str], respect_gitignore: bool) -> None:
        self.defaults = tuple(defaults)
        self.always = tuple(d for d in defaults if d not in BUILD_OUTPUT)
        self.build = tuple(d for d in defaults if d in BUILD_OUTPUT)
        self.patterns = tuple(patterns)
        self.respect_gitignore = respect_gitignore
        self.repos: dict[str, Repo] = {}
        self.skipped: list[tuple[str, str]] | None = None
        self.leftovers: list[str] = []

    # compiled when a folder is walked: files named on the command line are not matched against them
    @functools.cached_property
    def skip(self) -> Globs:
        """The excludes a walk always applies."""
        return globs((*self.patterns, *self.always))

    @functools.cached_property
    def build_globs(self) -> Globs:
        """The build output folders, skipped unless git tracks them."""
        return globs(self.build)

    def skip_note(self, path: str, why: str) -> None:
        if self.skipped is not None:
            self.skipped.append((_tidy(path), why))

    def git_ignores(self, path: str) -> bool:
        """Whether git ignores the file ``path``, or a folder above it, in its work tree."""
        absolute = os.path.abspath(path)
        top = find_top(os.path.dirname(absolute))
        if top is None:
            return False
        rules = IgnoreRules.for_repo(self._repo(top))
        folder = top
        for part in os.path.relpath(absolute, top).split(os.sep):
            rules = rules.enter(folder)
            folder = os.path.join(folder, part)
            if rules.ignored(folder, folder != absolute):
                return True
        return False

    def _repo(self, top: str) -> Repo:
        if top not in self.repos:
            self.repos[top] = Repo(top)
        return self.repos[top]

    def _start(self, root: str) -> tuple[Repo | None, IgnoreRules | None]:
        """The repository and ignore rules in force inside the named folder ``root`` (absolute)."""
        if not self.respect_gitignore:
            return None, None
        top = find_top(root)
        if top is None:
            return None, None
        repo = self._repo(top)
        rules = IgnoreRules.for_repo(repo)
        rel = os.path.relpath(root, top)
        folder = top
        for part in ([] if rel == "." else rel.split(os.sep)):
            rules = rules.enter(folder)
            folder = os.path.join(folder, part)
            if rules.ignored(folder, True):  # the named folder is ignored: the user asked for it anyway
                rules = IgnoreRules()
                break
        return repo, rules.enter(root)

    def walk(self, root: str) -> Iterator[Target]:
        repo, rules = self._start(os.path.abspath(root))
        # resolved folder paths follow the walk (symlinked folders are not entered): one realpath per walk
        stack: list[tuple[str, str, str, Repo | None, IgnoreRules | None]] = [
            (root, os.path.abspath(root), os.path.realpath(root), repo, rules)]
        while stack:
            folder, absolute, real, repo, rules = stack.pop()
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            subdirs = []
            for e in entries:
                path, abs_path = os.path.join(folder, e.name), os.path.join(absolute, e.name)
                try:
                    if e.is_dir(follow_symlinks=False):
                        sub = self._enter(path, abs_path, e.name, repo, rules)
                        if sub is not None:
                            subdirs.append((path, abs_path, os.path.join(real, e.name), *sub))
                    elif (e.name.endswith(SOURCE_SUFFIXES) and e.is_file()
                          and self._keep_file(path, abs_path, repo, rules)):
                        link = e.is_symlink()
                        target = os.path.realpath(path) if link else os.path.join(real, e.name)
                        yield Target(_tidy(path), False, target, link)
                    elif is_temp_name(e.name):
                        self.leftovers.append(path)
                    elif e.is_symlink() and e.is_dir():
                        self.skip_note(path + "/", "a symlink to a folder: not followed")
                except OSError:
                    continue
            stack.extend(reversed(subdirs))

    def _enter(self, path: str, absolute: str, name: str, repo: Repo | None, rules: IgnoreRules | None
               ) -> tuple[Repo | None, IgnoreRules | None] | None:
        """The repository and rules inside sub-folder ``path``, or None to skip it."""
        if name in VCS_DIRS or self.skip.match(path, absolute) or \
                os.path.isfile(os.path.join(path, "pyvenv.cfg")):
            self.skip_note(path + "/", "version control" if name in VCS_DIRS else "excluded"
                           if self.skip.match(path, absolute) else "a virtualenv (pyvenv.cfg)")
            return None
        if rules is not None and rules.ignored(absolute, True):
            self.skip_note(path + "/", "ignored by git")
            return None
        if self.build and self.build_globs.match(path, absolute) and not _tracked(repo, absolute):
            self.skip_note(path + "/", "build output git does not track")
            return None
        if self.respect_gitignore and os.path.lexists(os.path.join(absolute, ".git")):  # a repository of its own
            repo = self._repo(absolute)
            rules = IgnoreRules.for_repo(repo)
        return repo, (rules.enter(absolute) if rules is not None else None)

    def _keep_file(self, path: str, absolute: str, repo: Repo | None, rules: IgnoreRules | None) -> bool:
        if self.skip.match(path, absolute):
            self.skip_note(path, "excluded")
            return False
        if rules is not None and rules.ignored(absolute, False):
            self.skip_note(path, "ignored by git")
            return False
        if self.build and self.build_globs.match(path, absolute) and not _tracked(repo, absolute):
            self.skip_note(path, "build output git does not track")
            return False
        return True


def _tracked(repo: Repo | None, absolute: str) -> bool:
    """Whether git tracks ``absolute`` (a file, or files in a folder); False when unknown."""
    if repo is None:
        return False
    tracked = repo.tracked()
    if tracked is None:
        return False
    return os.path.relpath(absolute, repo.top).replace(os.sep, "/") in tracked


def _tidy(path: str) -> str:
    return path[2:] if path.startswith("./") else path
