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
from collections.abc import Iterable

from ..files.discover import Target
from ..files.fileio import file_refusal, link_refusal
from ..fix_status import FixStatus
from .results import FileResult

LINK_HINT = "a link named on the command line is fixed with --fix-symlinks"


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
        if fix is not None and (fix.status == FixStatus.AVAILABLE or (fix.status == FixStatus.UNSAFE and unsafe)):
            r = r._replace(fix=fix._replace(status=str(FixStatus.REFUSED), reason=f"not written: {reason}"))
            any_refused = True
        records.append(r)
    result.records = records
    return any_refused
