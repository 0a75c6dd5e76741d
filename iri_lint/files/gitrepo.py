"""The git repository a folder is in: its top level, its ignore files, and which paths git tracks.

Found by looking for ``.git`` upward (no subprocess); only the global excludes file's location
(``core.excludesFile``) and the list of tracked files are asked of git itself, each at most once
per repository and only when needed. Where git is not installed or fails, those two answers fall
back to git's documented default and to "unknown".
"""

from __future__ import annotations

import os

GIT_TIMEOUT = 60  # seconds; `git ls-files` on the largest monorepos takes a few


def find_top(folder: str) -> str | None:
    """The top level of the git work tree holding ``folder`` (an absolute path), or None."""
    current = folder
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _git_env() -> dict[str, str]:
    # `git -C top` must describe that repository, not one named by a hook's environment
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")}
    env["GIT_OPTIONAL_LOCKS"] = "0"  # a read-only look must not take the index lock
    return env


def _git(top: str, *args: str) -> bytes | None:
    """``git -C top ARGS``'s output, or None when git is missing or fails."""
    import subprocess  # here: 2 ms to import, and checking the files a commit names never runs git

    try:
        proc = subprocess.run(["git", "-C", top, *args], capture_output=True, env=_git_env(),
                              timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def head_commit(top: str) -> tuple[str, bool] | None:
    """The commit checked out in the work tree at ``top`` and whether tracked files differ from it;
    None when git cannot say (not installed, no commit yet)."""
    head = _git(top, "rev-parse", "HEAD")
    if not head:
        return None
    status = _git(top, "status", "--porcelain", "--untracked-files=no")
    return head.decode("ascii", "replace").strip(), bool(status)


def default_excludes_file() -> str:
    """Where git looks for global ignore patterns when core.excludesFile is not set (gitignore(5))."""
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(xdg, "git", "ignore")


class Repo:
    """One git work tree (a submodule or nested repository is a Repo of its own)."""

    def __init__(self, top: str) -> None:
        self.top = top  # absolute path of the top level
        self._tracked: set[str] | None = None
        self._tracked_known = False

    def __repr__(self) -> str:
        return f"Repo({self.top!r})"

    def git_dir(self) -> str | None:
        """The repository's own folder: ``.git``, or where a ``.git`` file points (worktrees, submodules)."""
        dot = os.path.join(self.top, ".git")
        if os.path.isdir(dot):
            return dot
        try:
            with open(dot, encoding="utf-8") as fh:
                first = fh.readline().strip()
        except (OSError, UnicodeDecodeError):
            return None
        if not first.startswith("gitdir:"):
            return None
        return os.path.normpath(os.path.join(self.top, first[len("gitdir:"):].strip()))

    def common_dir(self) -> str | None:
        """The folder shared by all worktrees (it holds ``info/exclude``)."""
        gd = self.git_dir()
        if gd is None:
            return None
        try:
            with open(os.path.join(gd, "commondir"), encoding="utf-8") as fh:
                return os.path.normpath(os.path.join(gd, fh.readline().strip()))
        except (OSError, UnicodeDecodeError):
            return gd

    def info_exclude(self) -> str | None:
        common = self.common_dir()
        return os.path.join(common, "info", "exclude") if common else None

    def excludes_file(self) -> str:
        """core.excludesFile as git reads it (any config level), else its default."""
        out = _git(self.top, "config", "--path", "--get", "core.excludesFile")
        value = out.decode("utf-8", "surrogateescape").strip() if out else ""
        if not value:
            return default_excludes_file()
        return os.path.join(self.top, os.path.expanduser(value))

    def tracked(self) -> set[str] | None:
        """Paths (relative, posix) of tracked files and of every folder holding one; None if unknown."""
        if not self._tracked_known:
            self._tracked_known = True
            out = _git(self.top, "ls-files", "-z", "--cached")
            if out is not None:
                paths: set[str] = set()
                for raw in out.split(b"\0"):
                    if not raw:
                        continue
                    rel = os.fsdecode(raw)
                    paths.add(rel)
                    while "/" in rel:
                        rel = rel.rsplit("/", 1)[0]
                        if rel in paths:
                            break
                        paths.add(rel)
                self._tracked = paths
        return self._tracked
