"""Which files to check: paths from the command line, folders walked, excludes applied."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

# folders nobody wants linted; a folder holding pyvenv.cfg (any virtualenv) is skipped too
DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".bzr", "_darcs", ".tox", ".nox", ".venv", "venv", ".direnv", "__pycache__",
    ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", ".eggs", "*.egg-info", "build", "dist",
    "node_modules", "site-packages", "__pypackages__", "_build", "buck-out",
)
PY_SUFFIXES = (".py", ".pyi")


def is_excluded(path: str, patterns: Iterable[str]) -> bool:
    """flake8-style: a pattern matches the base name or the whole (normalised) path."""
    posix = Path(path).as_posix()
    name = posix.rstrip("/").rsplit("/", 1)[-1]
    absolute = os.path.abspath(path).replace(os.sep, "/")
    for pat in patterns:
        pat = pat.rstrip("/")
        if fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(posix, pat):
            return True
        if "/" in pat and (fnmatch.fnmatchcase(absolute, pat) or fnmatch.fnmatchcase(absolute, f"*/{pat}")):
            return True
    return False


def iter_files(paths: Iterable[str], exclude: Iterable[str]) -> Iterator[str]:
    """Files to check, in a stable order, each once. Explicit files are checked whatever their suffix,
    unless excluded (so pre-commit, which passes file names, respects the configured excludes)."""
    patterns = tuple(exclude)
    seen: set[str] = set()
    for given in paths:
        if given == "-":
            yield given
            continue
        if os.path.isdir(given):
            found = _walk(given, patterns)
        elif is_excluded(given, patterns):
            continue
        else:
            found = iter([given])
        for f in found:
            key = os.path.normcase(os.path.abspath(f))
            if key not in seen:
                seen.add(key)
                yield f


def _walk(root: str, patterns: tuple[str, ...]) -> Iterator[str]:
    for folder, dirs, files in os.walk(root):
        keep = []
        for d in sorted(dirs):
            sub = os.path.join(folder, d)
            if is_excluded(sub, patterns) or os.path.isfile(os.path.join(sub, "pyvenv.cfg")):
                continue
            keep.append(d)
        dirs[:] = keep
        for name in sorted(files):
            if name.endswith(PY_SUFFIXES):
                path = os.path.join(folder, name)
                if not is_excluded(path, patterns):
                    yield _tidy(path)


def _tidy(path: str) -> str:
    return path[2:] if path.startswith("./") else path
