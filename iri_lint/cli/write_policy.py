"""Whether a fix may write a file: never outside the trees the command line reaches, never one name of
several hard links, never a read-only file.

A symlinked file whose target resolves outside every tree (a named path's git top level, else the
named folder, or a named file's folder) is checked but not written: a pre-commit hook or a bot
running ``--fix`` on a contributor's branch must not write where the tree does not reach. A link
named on the command line is written with ``--fix-symlinks``. Replacing a file atomically gives it a
new inode, so a hard-linked file would silently part from its other names: it is not written either.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from .discover import Target
from .results import FileResult

LINK_HINT = "a link named on the command line is fixed with --fix-symlinks"


def inside(real: str, trees: Iterable[str]) -> bool:
    """Whether the resolved path ``real`` lies in one of the resolved folders ``trees``."""
    return any(real == t or real.startswith(t.rstrip(os.sep) + os.sep) for t in trees)


def link_refusal(path: str, trees: Iterable[str]) -> str | None:
    """Why a fix must not write ``path``, when it is a symlink resolving outside ``trees``; else None."""
    trees = tuple(trees)
    real = os.path.realpath(path)
    if real == os.path.abspath(path) or inside(real, trees):
        return None
    return f"symlink to {real}, outside {' and '.join(trees) or 'the folders being checked'}"


def file_refusal(real: str) -> str | None:
    """Why the file ``real`` (resolved) cannot be replaced whole and alone; else None."""
    try:
        st = os.stat(real)
    except OSError as exc:
        return f"cannot read its status: {exc.strerror or exc}"
    if st.st_nlink > 1:
        return f"it has {st.st_nlink} hard links, and writing it would split them"
    # root may write anything: the permission bits still say what the owner wants
    if not stat.S_IMODE(st.st_mode) & 0o222 or not os.access(real, os.W_OK):
        return "the file is read-only"
    folder = os.path.dirname(real)
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"its folder {folder} is not writable (the new text is written beside it, then renamed)"
    return None


def write_refusal(target: Target, trees: Iterable[str], *, fix_symlinks: bool = False) -> str | None:
    """Why ``--fix`` (or ``--add-noqa``) must leave ``target`` unwritten; None when it may write it."""
    if target.path == "-":
        return None
    if not (target.explicit and fix_symlinks):
        why = link_refusal(target.path, trees)
        if why is not None:
            return f"{why} ({LINK_HINT})"
    return file_refusal(target.real or os.path.realpath(target.path))


def refuse_fixes(result: FileResult, reason: str, *, unsafe: bool) -> bool:
    """Mark each fix that would have been written as refused, saying why; True when there was one."""
    any_refused = False
    records = []
    for r in result.records:
        fix = r.fix
        if fix is not None and (fix.status == "available" or (fix.status == "unsafe" and unsafe)):
            r = r._replace(fix=fix._replace(status="refused", reason=f"not written: {reason}"))
            any_refused = True
        records.append(r)
    result.records = records
    return any_refused
