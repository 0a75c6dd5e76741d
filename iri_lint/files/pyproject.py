"""The pyproject.toml that configures a file: found, read, and the path its per-file settings match.

A file is configured by the nearest ``pyproject.toml`` above the folder it is named in (symlinks in
the folder's path resolved, the file's own name not: a link is configured where it is) that holds a
``[tool.iri-lint]`` table (ruff's rule: one without the table is passed over, and so is one that is no TOML and
never names ``iri-lint``, a project template's). Its per-file settings
(``per-file-ignores``, ``test-files``) and the excludes match the file's path relative to that
pyproject's folder. ``iri-lint check`` and the language server both ask here; what the table's keys
mean is ``iri_lint.config``'s business.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

PYPROJECT = "pyproject.toml"
SECTION = "iri-lint"  # [tool.iri-lint]


class ConfigError(ValueError):
    """A configuration file, value or key is not valid; the message names it (and its file and line)."""

    def __init__(self, message: str, key: str | None = None, path: Path | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.path = path  # the file that cannot be read, when it is one


_SECTIONS: dict[tuple[Path, int, int], dict[str, Any] | None] = {}  # (path, mtime, size) -> section


def read_section(path: Path) -> dict[str, Any] | None:
    """``[tool.iri-lint]`` of one pyproject.toml, or None when it has none; errors name the file.

    Parsed once while the file is unchanged: the editor asks on every lint which file applies."""
    import tomllib  # (d): only a run that finds a pyproject.toml reads TOML

    try:
        st = path.stat()
        key = (path, st.st_mtime_ns, st.st_size)
        if key in _SECTIONS:
            return _SECTIONS[key]
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if SECTION not in text:  # (a project template's Jinja pyproject: no table of ours, passed over; outside75)
            _SECTIONS[key] = None
            return None
        raise ConfigError(f"{path}: {exc}", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}", path=path) from None
    except RecursionError:  # tomllib descends one call per level of nesting
        raise ConfigError(f"{path}:{_too_deep_line(text)}: nesting too deep to read", path=path) from None
    section = data.get("tool", {}).get(SECTION)
    if section is not None and not isinstance(section, dict):
        raise ConfigError(f"{path}:{line_of(text, None)}: [tool.iri-lint] must be a table", path=path)
    _SECTIONS[key] = section
    return section


def _too_deep_line(text: str) -> int:
    """The first line at which reading ``text`` runs out of stack: the shortest prefix of whole lines that
    still does (a prefix that stops before it parses or fails otherwise, never deeper), by bisection."""
    import tomllib  # (d): after read_section's, which ran out of stack

    lines = text.splitlines(keepends=True)
    lo, hi = 1, len(lines)  # hi: known to run out of stack
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            tomllib.loads("".join(lines[:mid]))
        except RecursionError:
            hi = mid
            continue
        except tomllib.TOMLDecodeError:
            pass
        lo = mid + 1
    return hi


def line_of(text: str, key: str | None) -> int:
    """The line of ``key`` (or of the section header) in [tool.iri-lint]; 1 when it cannot be told."""
    header = 0
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.strip("[] ").startswith(("tool.iri-lint", 'tool."iri-lint"')):
            header = header or n
            if key is None:
                return n
        elif header and key is not None and stripped.split("=", 1)[0].strip().strip("\"'") == key:
            return n
    return header or 1


def folder_of(path: str) -> str:
    """The resolved folder a file or folder path is named in: a folder itself, else the file's folder."""
    absolute = os.path.abspath(path)
    return os.path.realpath(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))


class PyprojectFinder:
    """Walks up from a folder to the pyproject.toml with a ``[tool.iri-lint]`` table; with ``remember``,
    each folder is asked once (a run's files share a few folders), else every call looks again (the
    editor's files change under it)."""

    def __init__(self, *, remember: bool = True) -> None:
        self._folders: dict[Path, Path | None] | None = {} if remember else None

    def for_folder(self, folder: Path) -> Path | None:
        """The pyproject.toml that configures files in ``folder`` (an absolute, resolved path)."""
        known = self._folders
        chain: list[Path] = []
        found: Path | None = None
        for d in (folder, *folder.parents):
            if known is not None and d in known:
                found = known[d]
                break
            chain.append(d)
            candidate = d / PYPROJECT
            if candidate.is_file() and read_section(candidate) is not None:
                found = candidate
                break
        if known is not None:
            for d in chain:
                known[d] = found
        return found

    def for_path(self, path: str) -> Path | None:
        """The pyproject.toml that configures the file or folder ``path`` (see the module's docstring)."""
        return self.for_folder(Path(folder_of(path)))


def find_pyproject(start: Path) -> Path | None:
    """The pyproject.toml that configures the file or folder ``start``, looked for afresh."""
    return PyprojectFinder(remember=False).for_path(str(start))


_realpath = functools.lru_cache(maxsize=4096)(os.path.realpath)  # a run's files share a few folders


def lint_path(path: str, root: Path | str) -> str:
    """The path per-file settings and excludes match for the file ``path``: relative to ``root`` (the
    folder of the pyproject.toml in use), as a POSIX path; ``path`` itself when it is not inside ``root``
    (and ``-``, standard input). A path named through a symlinked folder is placed where it really is."""
    if path == "-":
        return path
    absolute, base = os.path.abspath(path), os.path.abspath(root)
    rel = _inside(absolute, base)
    if rel is None:  # only then ask the file system where the folder really is (once per folder)
        folder, name = os.path.split(absolute)
        rel = _inside(os.path.join(_realpath(folder), name), _realpath(base))
    return path if rel is None else rel


def _inside(path: str, folder: str) -> str | None:
    """``path`` relative to ``folder`` (both absolute and normalised), as a POSIX path; None if outside."""
    if path == folder:
        return "."
    prefix = folder if folder.endswith(os.sep) else folder + os.sep
    return path[len(prefix):].replace(os.sep, "/") if path.startswith(prefix) else None
