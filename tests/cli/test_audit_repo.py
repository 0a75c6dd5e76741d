"""An audit of a real repository, end to end: a git repository with notebooks, a virtualenv, build
output, ignored data and a tracked folder merely named ``build``; checked, fixed and reported by the
``iri-lint`` command line as a user runs it (``main()`` in this process, in the repository;
tests/cli/test_end_to_end.py starts the real script)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import RunMain
from .test_notebooks import make_notebook

BAD = 'URL = "https://example.com/a b"\n'
FIXABLE = 'import urllib.request\nurllib.request.urlopen("https://example.com/caf\u00e9")\n'
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]

REPO = {
    ".gitignore": "/build/\n/dist/\ndata/\n*.log\n.env/\n",
    "pyproject.toml": "[project]\nname = 'demo'\n",
    "src/demo/__init__.py": "",
    "src/demo/client.py": FIXABLE + BAD,
    "src/demo/clean.py": 'HOME = "https://example.com/"\n',
    "doc/build/conf.py": 'html_baseurl = "https://docs.example.com/%zz"\n',  # tracked: checked
    "build/lib/demo/client.py": FIXABLE,  # build output: ignored
    "dist/demo.py": BAD,
    "data/fetch.py": BAD,  # ignored by .gitignore
    ".env/lib/site.py": BAD,
    "venv/pyvenv.cfg": "home = /usr/bin\n",
    "venv/lib/mod.py": BAD,
    "node_modules/pkg/x.py": BAD,  # tracked, but never source
    "scratch.py": BAD,  # ignored through .git/info/exclude
}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    for rel, text in REPO.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (root / "notebooks").mkdir()
    (root / "notebooks" / "explore.ipynb").write_text(make_notebook(), encoding="utf-8")
    (root / "notebooks" / ".ipynb_checkpoints").mkdir()
    (root / "notebooks" / ".ipynb_checkpoints" / "explore-checkpoint.ipynb").write_text(make_notebook())
    _git(root, "init", "-q")
    (root / ".git" / "info" / "exclude").write_text("scratch.py\n")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "demo")
    return root


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "GIT_CONFIG_NOSYSTEM": "1"}


def test_check_fix_and_report_a_repository(run_main: RunMain, repo: Path, tmp_path: Path) -> None:
    env = _env(tmp_path)
    p = run_main("check", ".", cwd=repo, env=env)
    assert p.returncode == 1, p.stderr.decode()
    reported = {re.split(r":(?:cell \d+:)?\d+:\d+: ", line)[0] for line in p.stdout.decode().splitlines()}
    assert reported == {"src/demo/client.py", "doc/build/conf.py", "notebooks/explore.ipynb"}
    assert "notebooks/explore.ipynb:cell 2:4:" in p.stdout.decode()
    assert p.stderr.decode() == ""
    # ignored files are checked when named (pre-commit passes tracked files; git tracks none of these)
    named = run_main("check", "data/fetch.py", "scratch.py", cwd=repo, env=env)
    assert {x.split(":")[0] for x in named.stdout.decode().splitlines()} == {"data/fetch.py", "scratch.py"}
    assert run_main("check", "--no-respect-gitignore", ".", cwd=repo, env=env).stdout.decode().count("data/fetch.py")

    # the report: every count the JSON has
    doc = json.loads(run_main("check", "--format", "json", ".", cwd=repo, env=env).stdout)
    r = run_main("check", "--format", "html", "-o", str(tmp_path / "audit.html"), ".",
                cwd=repo, env=env)
    assert r.returncode == 1 and r.stdout == b""
    page = (tmp_path / "audit.html").read_text(encoding="utf-8")
    assert f'<dd data-total="findings">{len(doc["findings"])}</dd>' in page
    for code in {f["code"] for f in doc["findings"]}:
        n = sum(1 for f in doc["findings"] if f["code"] == code)
        assert re.search(rf'<tr data-rule="{code}">.*?<td class="n">{n}</td>', page)
    assert "notebooks/explore.ipynb" in page and "cell 2, 5:" in page

    # --fix: only tracked, checked files change, and in a notebook only the changed cell source
    before = (repo / "notebooks" / "explore.ipynb").read_text(encoding="utf-8")
    fixed = run_main("check", "--fix", ".", cwd=repo, env=env)
    assert fixed.returncode == 1  # the unsafe and unfixable findings remain
    status = _git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored")
    changed = sorted(line[3:] for line in status.splitlines() if line.startswith(" M"))
    assert changed == ["notebooks/explore.ipynb", "src/demo/client.py"]
    assert (repo / "build" / "lib" / "demo" / "client.py").read_text(encoding="utf-8") == FIXABLE
    diff = _git(repo, "diff", "-U0", "notebooks/explore.ipynb")
    assert [x for x in diff.splitlines() if x[:1] in "+-" and x[:3] not in ("+++", "---")] == [
        '-    "page = urllib.request.urlopen(\\"https://example.com/caf\u00e9\\")"',
        '+    "page = urllib.request.urlopen(\\"https://example.com/caf%C3%A9\\")"',
    ]
    assert before != (repo / "notebooks" / "explore.ipynb").read_text(encoding="utf-8")
