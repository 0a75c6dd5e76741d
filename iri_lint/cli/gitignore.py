"""git's ignore rules (gitignore(5)), matched with ``pathspec``'s gitwildmatch patterns.

Precedence as in git: the ``.gitignore`` nearest the path first, then those of its parent folders
up to the top level, then ``.git/info/exclude``, then the global excludes file; within one file
the last matching pattern decides, and a ``!`` pattern re-includes. Folders are matched as they
are walked (an ignored folder is never entered), so nothing below an ignored folder is read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from .gitrepo import Repo

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec


class Layer(NamedTuple):
    """The patterns of one ignore file and the folder they are relative to."""

    base: str  # absolute folder path, no trailing separator
    spec: GitIgnoreSpec

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included by a ``!`` pattern, None: no pattern matches."""
        prefix = self.base if self.base.endswith(os.sep) else self.base + os.sep
        if not path.startswith(prefix):
            return None
        rel = path[len(prefix):].replace(os.sep, "/")
        return self.spec.check_file(rel + "/" if is_dir else rel).include


def read_layer(file: str, base: str) -> Layer | None:
    """The patterns in ``file`` (None when it does not exist, cannot be read, or holds none)."""
    try:
        with open(file, encoding="utf-8", errors="surrogateescape") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    # imported here: pathspec costs about as much to import as Python takes to start, and only a
    # walk inside a git work tree needs it (pre-commit names its files)
    from pathspec import GitIgnoreSpec

    spec = GitIgnoreSpec.from_lines(lines)
    return Layer(base, spec) if len(spec) else None


class IgnoreRules:
    """The ignore layers in force in one folder, nearest first."""

    def __init__(self, layers: Sequence[Layer] = ()) -> None:
        self.layers = tuple(layers)

    @classmethod
    def for_repo(cls, repo: Repo) -> IgnoreRules:
        """The repository-wide layers: ``.git/info/exclude``, then the global excludes file."""
        layers = []
        info = repo.info_exclude()
        for file in (info, repo.excludes_file()):
            layer = read_layer(file, repo.top) if file else None
            if layer is not None:
                layers.append(layer)
        return cls(layers)

    def enter(self, folder: str) -> IgnoreRules:
        """The rules inside ``folder``: its own ``.gitignore``, if any, comes first."""
        layer = read_layer(os.path.join(folder, ".gitignore"), folder)
        return self if layer is None else IgnoreRules((layer, *self.layers))

    def ignored(self, path: str, is_dir: bool) -> bool:
        """Whether git ignores ``path`` (absolute), its parent folders being known not ignored."""
        for layer in self.layers:
            verdict = layer.decide(path, is_dir)
            if verdict is not None:
                return verdict
        return False
