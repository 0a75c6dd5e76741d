"""File discovery: git's ignore files (git itself is the oracle), tracked build folders, named paths."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iri_lint.files.discover import SOURCE_SUFFIXES, discover

BAD = 'URL = "https://example.com/a b"\n'
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]


@pytest.fixture(autouse=True)
def _isolated_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No user or system git configuration: HOME and XDG_CONFIG_HOME are empty temporary folders."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CONFIG_GLOBAL"):
        monkeypatch.delenv(var, raising=False)
    return home


def git(repo: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def found(root: Path, *paths: str, **kw: object) -> list[str]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        return [t.path for t in discover(list(paths) or ["."], **kw).targets]  # type: ignore[arg-type]
    finally:
        os.chdir(cwd)


def git_sees(root: Path) -> list[str]:
    """What git lists as not ignored (tracked or untracked), source files only."""
    out = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    return sorted(p for p in out.split("\0") if p.endswith(SOURCE_SUFFIXES))


TREE = {
    "a.py": "", "b.ipynb": "{}", "notes.txt": "",
    "gen/x.py": "", "gen/keep.py": "",
    "pkg/m.py": "", "pkg/m_pb2.py": "", "pkg/sub/deep.py": "", "pkg/sub/secret.py": "",
    "pkg/.gitignore": "sub/secret.py\n!m_pb2.py\n",
    "top.py": "", "pkg/top.py": "",
    "logs/a.py": "", "logs/b/c.py": "",
    "data/raw/r.py": "", "data/clean.py": "",
    "local_only.py": "", "global_only.py": "", "x/global_only.py": "",
    "odd name [1].py": "", "#hash.py": "", "space .py": "",
    ".gitignore": "\n".join([
        "# generated", "gen/", "*_pb2.py", "/top.py", "logs/**", "!logs/b/", "data/*", "!data/clean.py",
        r"\#hash.py", "space\\ .py", "",
    ]),
}


def test_walk_agrees_with_git_on_a_tree_of_tricky_patterns(tmp_path: Path, _isolated_git: Path) -> None:
    write(tmp_path, TREE)
    git(tmp_path, "init", "-q")
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("local_only.py\n")
    write(_isolated_git, {"xdg/git/ignore": "global_only.py\n"})  # the default core.excludesFile
    got = sorted(found(tmp_path))
    assert got == git_sees(tmp_path)
    for skipped in ("gen/x.py", "pkg/sub/secret.py", "top.py", "local_only.py", "x/global_only.py", "#hash.py"):
        assert skipped not in got
    for kept in ("pkg/top.py", "pkg/m_pb2.py", "data/clean.py", "b.ipynb", "odd name [1].py"):
        assert kept in got


def test_core_excludes_file_from_git_config(tmp_path: Path, _isolated_git: Path) -> None:
    write(tmp_path, {"a.py": "", "b.py": ""})
    git(tmp_path, "init", "-q")
    write(_isolated_git, {"my-ignores": "b.py\n"})
    git(tmp_path, "config", "core.excludesFile", str(_isolated_git / "my-ignores"))
    assert found(tmp_path) == git_sees(tmp_path) == ["a.py"]


def test_no_gitignore_outside_a_repository(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "", "b.py": "", ".gitignore": "b.py\n"})
    assert found(tmp_path) == ["a.py", "b.py"]


def test_respect_gitignore_off(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": "", "b.py": "", ".gitignore": "b.py\n"})
    git(tmp_path, "init", "-q")
    assert found(tmp_path) == ["a.py"]
    assert found(tmp_path, respect_gitignore=False) == ["a.py", "b.py"]


def test_a_nested_repository_has_its_own_rules(tmp_path: Path) -> None:
    write(tmp_path, {".gitignore": "*_gen.py\n", "a_gen.py": "", "inner/b_gen.py": "", "inner/c.py": "",
                     "inner/.gitignore": "c.py\n"})
    git(tmp_path, "init", "-q")
    git(tmp_path / "inner", "init", "-q")
    assert found(tmp_path) == ["inner/b_gen.py"]
    assert git_sees(tmp_path / "inner") == ["b_gen.py"]


def test_a_worktree_reads_info_exclude_of_its_repository(tmp_path: Path) -> None:
    main = tmp_path / "main"
    write(main, {"a.py": "", "b.py": ""})
    git(main, "init", "-q")
    git(main, "add", ".")
    git(main, "commit", "-qm", "init")
    (main / ".git" / "info" / "exclude").write_text("new.py\n")
    git(main, "worktree", "add", "-q", str(tmp_path / "wt"))
    write(tmp_path / "wt", {"new.py": ""})
    assert found(tmp_path / "wt") == git_sees(tmp_path / "wt") == ["a.py", "b.py"]


def test_named_folder_inside_an_ignored_one_is_walked(tmp_path: Path) -> None:
    write(tmp_path, {".gitignore": "vendor/\n*.gen.py\n", "vendor/lib/x.py": "", "vendor/lib/.gitignore": "y.py\n",
                     "vendor/lib/y.py": "", "vendor/lib/z.gen.py": ""})
    git(tmp_path, "init", "-q")
    assert found(tmp_path) == []
    # named: checked, and only the ignore files inside it apply
    assert found(tmp_path, "vendor/lib") == ["vendor/lib/x.py", "vendor/lib/z.gen.py"]


def test_a_tracked_build_folder_is_checked_an_untracked_one_is_not(tmp_path: Path) -> None:
    write(tmp_path, {"doc/build/conf.py": "", "build/lib/pkg.py": "", "src/m.py": "", "dist/x.py": ""})
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "doc", "src")
    assert found(tmp_path) == ["doc/build/conf.py", "src/m.py"]
    assert found(tmp_path, respect_gitignore=False) == ["src/m.py"]  # not asking git: names decide
    assert found(tmp_path, exclude=("doc/build",)) == ["build/lib/pkg.py", "dist/x.py", "src/m.py"]


def test_without_git_a_build_folder_is_skipped_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"doc/build/conf.py": "", "src/m.py": ""})
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))  # git cannot be run
    assert found(tmp_path) == ["src/m.py"]


def test_named_files_are_checked_unless_force_exclude(tmp_path: Path) -> None:
    write(tmp_path, {".gitignore": "ign.py\n", "ign.py": "", "build/b.py": "", "gen.py": "", "notes.txt": ""})
    git(tmp_path, "init", "-q")
    named = ("ign.py", "build/b.py", "gen.py", "notes.txt")
    assert found(tmp_path, *named, extend_exclude=("gen.py",)) == list(named)
    # --force-exclude: the excludes apply, and so does .gitignore (a named file git ignores is skipped)
    assert found(tmp_path, *named, extend_exclude=("gen.py",), force_exclude=True) == ["notes.txt"]
    assert found(tmp_path, "ign.py", force_exclude=True, respect_gitignore=False) == ["ign.py"]
    assert found(tmp_path, "build", force_exclude=True) == []
    assert found(tmp_path, "build") == ["build/b.py"]


def test_each_file_once_a_symlink_under_its_target(tmp_path: Path) -> None:
    write(tmp_path, {"pkg/real.py": "", "other.py": ""})
    (tmp_path / "a_link.py").symlink_to(tmp_path / "pkg" / "real.py")
    (tmp_path / "dirlink").symlink_to(tmp_path / "pkg", target_is_directory=True)
    assert found(tmp_path) == ["other.py", "pkg/real.py"]  # the link is dropped, the folder link not followed
    assert found(tmp_path, "a_link.py", "pkg/real.py") == ["pkg/real.py"]
    assert found(tmp_path, "a_link.py") == ["a_link.py"]


def test_a_named_file_s_real_path_is_the_file_system_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A named file's real path is its folder's resolved once (and its name), unless it is a link itself:
    the same as ``os.path.realpath`` through folder links, ``..`` after a link, and file links."""
    write(tmp_path, {"pkg/sub/m.py": "", "pkg/n.py": "", "top.py": ""})
    (tmp_path / "dirlink").symlink_to(tmp_path / "pkg" / "sub", target_is_directory=True)
    (tmp_path / "filelink.py").symlink_to(tmp_path / "pkg" / "n.py")
    monkeypatch.chdir(tmp_path)
    named = ["dirlink/m.py", "dirlink/../n.py", "filelink.py", "top.py", "./pkg//sub/m.py", str(tmp_path / "top.py")]
    reals = {t.path: (t.real, t.link) for t in discover(named).targets}
    for path, (real, link) in reals.items():
        assert (real, link) == (os.path.realpath(path), os.path.islink(path)), path


# ---------------------------------------------------------------- a property: git is the oracle

PATTERNS = ["*.py", "!keep.py", "a/", "/b.py", "a/**/c.py", "**/d", "!a/x.py", "sub/*.py", "!sub/k.py", "e?.py",
            "[ab].py", "d/", "*/c.py", "a/*", "!a/c.py", "\\!bang.py"]
FILES = ["keep.py", "b.py", "a/b.py", "a/x.py", "a/c.py", "a/d/c.py", "d/e1.py", "sub/k.py", "sub/j.py",
         "x/sub/k.py", "x/b.py", "e1.py", "!bang.py", "a.py"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(top=st.lists(st.sampled_from(PATTERNS), max_size=5), nested=st.lists(st.sampled_from(PATTERNS), max_size=3),
       files=st.sets(st.sampled_from(FILES), min_size=1))
def test_walk_agrees_with_git_on_random_patterns(top: list[str], nested: list[str], files: set[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write(root, dict.fromkeys(files, ""))
        write(root, {".gitignore": "\n".join(top) + "\n"})
        if (root / "a").is_dir():
            write(root, {"a/.gitignore": "\n".join(nested) + "\n"})
        git(root, "init", "-q")
        assert sorted(found(root)) == git_sees(root), (top, nested)


def test_files_named_alone_compile_no_excludes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The excludes are compiled when a folder is walked: start-up of a check of a few named files
    (pre-commit's) does not pay for them, since they do not apply to named files."""
    import iri_lint.files.discover as discover_module
    from iri_lint.files.globs import Globs, globs

    compiled: list[tuple[str, ...]] = []

    def recording(patterns: tuple[str, ...]) -> Globs:
        compiled.append(tuple(patterns))
        return globs(patterns)

    monkeypatch.setattr(discover_module, "globs", recording)
    (tmp_path / "a.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "b.py").write_text("X = 1\n", encoding="utf-8")
    assert [t.path for t in discover([str(tmp_path / "a.py")]).targets] == [str(tmp_path / "a.py")]
    assert compiled == []
    found = discover([str(tmp_path)], respect_gitignore=False).targets
    assert [t.path for t in found] == [str(tmp_path / "a.py")] and compiled  # build/ skipped: compiled now
