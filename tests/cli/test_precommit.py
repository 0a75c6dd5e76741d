"""The hooks in .pre-commit-hooks.yaml, run by pre-commit itself on a temporary git repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT
from .test_notebooks import make_notebook

BAD = 'URL = "https://example.com/a b"\nimport urllib.request\nurllib.request.urlopen("https://example.com/caf\u00e9")\n'


def _pre_commit() -> list[str]:
    exe = Path(sys.executable).parent / "pre-commit"
    if exe.exists():
        return [str(exe)]
    if shutil.which("pre-commit"):
        return ["pre-commit"]
    pytest.skip("pre-commit is not installed (it is in the test extra)")


@pytest.mark.slow
def test_hooks_with_pre_commit_try_repo(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.py").write_text(BAD, encoding="utf-8")
    (repo / "n.ipynb").write_text(make_notebook(), encoding="utf-8")  # types_or: jupyter
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "m.py", "n.ipynb"], cwd=repo, check=True)
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), PRE_COMMIT_COLOR="never")

    def hook(hook_id: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*_pre_commit(), "try-repo", str(ROOT), hook_id, "--all-files"], cwd=repo,
                              env=env, capture_output=True, text=True, timeout=300)

    check = hook("iri-lint")
    assert check.returncode == 1, check.stdout + check.stderr
    assert "m.py:1:29: IRI101" in check.stdout and "m.py:3:" in check.stdout
    assert "n.ipynb:cell 2:4:" in check.stdout
    assert (repo / "m.py").read_text(encoding="utf-8") == BAD
    fix = hook("iri-lint-fix")
    assert fix.returncode == 1 and "files were modified by this hook" in fix.stdout, fix.stdout
    assert (repo / "m.py").read_text(encoding="utf-8") == BAD.replace("caf\u00e9", "caf%C3%A9")  # safe only
