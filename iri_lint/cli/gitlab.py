"""``--format gitlab``: a GitLab Code Quality report (``artifacts:reports:codequality``), as ruff writes it.

A JSON array of issues, each with ``description``, ``check_name``, a ``fingerprint`` unique in the
report and stable across line moves (the baseline's), ``severity`` on GitLab's scale and a
``location`` whose ``path`` is relative to the project (``$CI_PROJECT_DIR``, else the repository's
top level, else the current folder) and whose ``positions`` give 1-based lines and columns.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..files.gitrepo import find_top
from .baseline import fingerprints
from .escape import unicode_path
from .report import dump_json
from .results import FileResult, Record

# GitLab's scale: info, minor, major, critical, blocker
SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def project_root() -> Path:
    """``$CI_PROJECT_DIR`` (GitLab CI's checkout), else the repository's top level, else the current folder."""
    explicit = os.environ.get("CI_PROJECT_DIR")
    if explicit:
        return Path(os.path.abspath(explicit))
    cwd = os.path.abspath(os.getcwd())
    return Path(find_top(cwd) or cwd)


def _relative(path: str, root: Path) -> str:
    absolute = os.path.abspath(path)
    try:
        return Path(absolute).relative_to(root).as_posix()
    except ValueError:
        return Path(absolute).as_posix()


def issue(r: Record, fingerprint: str, root: Path) -> dict[str, Any]:
    line, col, end_line, end_col = r.file_region or (r.line, r.col, r.end_line, r.end_col)  # notebooks: the file
    return {
        "check_name": r.code,
        "description": f"{r.code} {r.message}",
        "severity": SEVERITY.get(r.severity, "minor"),
        "fingerprint": fingerprint,
        "location": {"path": unicode_path(_relative(r.path, root)),
                     "positions": {"begin": {"line": line, "column": col + 1},
                                   "end": {"line": end_line, "column": end_col + 1}}},
    }


def write_gitlab(out: TextIO, results: Sequence[FileResult], records: Sequence[Record], *,
                 clear: Sequence[Record] | None = None) -> None:
    """The report; ``clear``: the records before their passwords were masked, the fingerprints' source."""
    root = project_root()
    fps = fingerprints(records if clear is None else clear, root)
    out.write(dump_json([issue(r, fp, root) for r, fp in zip(records, fps, strict=True)]) + "\n")
