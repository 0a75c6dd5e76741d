"""``--fix`` never writes outside the tree it was asked to fix, nor one name of a hard link, nor a
read-only file; every such file is checked, said once, and the other files are still fixed."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from iri_lint.cli import fix_flow

from .conftest import CLI, RunMain

# one safe fix (urlopen: dereferenced) and one unsafe one
BAD = ('import urllib.request\nurllib.request.urlopen("https://example.com/caf\u00e9")\n'
       'URL = "https://example.com/a b"\n')
SAFE_FIXED = BAD.replace("caf\u00e9", "caf%C3%A9")


def _scenario(tmp_path: Path) -> tuple[Path, Path]:
    """The issue's: project/link.py is a symlink to ../outside/victim.py."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    victim = outside / "victim.py"
    victim.write_text(BAD, encoding="utf-8")
    (project / "link.py").symlink_to(Path("..") / "outside" / "victim.py")
    (project / "own.py").write_text(BAD, encoding="utf-8")
    return project, victim


def _stderr_lines(p: subprocess.CompletedProcess[bytes]) -> list[str]:
    return [x for x in p.stderr.decode().splitlines() if not x.startswith("iri-lint:")]


@pytest.mark.parametrize("with_git", [False, True])
def test_walked_link_outside_the_tree_is_checked_never_fixed(run_main: RunMain, tmp_path: Path, with_git: bool) -> None:
    project, victim = _scenario(tmp_path)
    if with_git:
        subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    before = victim.read_bytes()
    p = run_main("check", "--isolated", "--fix", "--unsafe-fixes", ".", cwd=project)
    assert victim.read_bytes() == before  # byte for byte
    assert (project / "own.py").read_text(encoding="utf-8") != BAD  # the project's own file is fixed
    out = p.stdout.decode()
    assert "link.py:2:" in out and "link.py:3:" in out  # still checked
    assert _stderr_lines(p) == [f"link.py: not fixed: symlink to {victim}, outside {project} "
                                "(a link named on the command line is fixed with --fix-symlinks)"]
    assert p.returncode == 1
    # the diff shows only what --fix would write
    d = run_main("check", "--isolated", "--diff", "--unsafe-fixes", ".", cwd=project)
    assert "victim" not in d.stdout.decode() and "link.py" not in d.stdout.decode()
    assert victim.read_bytes() == before


def test_json_says_why_each_fix_was_not_applied(run_main: RunMain, tmp_path: Path) -> None:
    import json

    project, victim = _scenario(tmp_path)
    p = run_main("check", "--isolated", "--fix", "--format", "json", "link.py", cwd=project)
    doc = json.loads(p.stdout)
    fixes = [f["fix"] for f in doc["findings"] if f["fix"]]
    safe = [f for f in fixes if f["safety"] == "safe"]
    assert safe and all(f["status"] == "refused" and "symlink to" in f["reason"] for f in safe)
    assert all(f["status"] == "unsafe" for f in fixes if f["safety"] == "unsafe")  # not asked for anyway
    assert victim.read_text(encoding="utf-8") == BAD


def test_named_link_is_fixed_only_with_fix_symlinks(run_main: RunMain, tmp_path: Path) -> None:
    project, victim = _scenario(tmp_path)
    p = run_main("check", "--isolated", "--fix", "link.py", cwd=project)
    assert victim.read_text(encoding="utf-8") == BAD and p.returncode == 1
    assert _stderr_lines(p) == [f"link.py: not fixed: symlink to {victim}, outside {project} "
                                "(a link named on the command line is fixed with --fix-symlinks)"]
    p = run_main("check", "--isolated", "--fix", "--fix-symlinks", "link.py", cwd=project)
    assert victim.read_text(encoding="utf-8") == SAFE_FIXED
    assert (project / "link.py").is_symlink()
    assert _stderr_lines(p) == []
    # --fix-symlinks does not open the walk
    victim.write_text(BAD, encoding="utf-8")
    run_main("check", "--isolated", "--fix", "--fix-symlinks", ".", cwd=project)
    assert victim.read_text(encoding="utf-8") == BAD


def test_link_inside_the_git_top_level_is_fixed(run_main: RunMain, tmp_path: Path) -> None:
    """Outside the named folder but inside the repository: the tree is the git top level."""
    project, victim = _scenario(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    p = run_main("check", "--isolated", "--fix", ".", cwd=project)
    assert victim.read_text(encoding="utf-8") == SAFE_FIXED
    assert _stderr_lines(p) == []


def test_link_inside_the_tree_is_fixed_once_at_its_target(run_main: RunMain, tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    real = tmp_path / "pkg" / "real.py"
    real.write_text(BAD, encoding="utf-8")
    (tmp_path / "a_link.py").symlink_to(Path("pkg") / "real.py")
    p = run_main("check", "--isolated", "--fix", ".", cwd=tmp_path)
    out = p.stdout.decode()
    assert out.count("fixed (safe)") == 1 and "pkg/real.py:2:" in out and "a_link" not in out
    assert real.read_text(encoding="utf-8") == SAFE_FIXED and (tmp_path / "a_link.py").is_symlink()
    # named through the link alone: fixed through it, the link stays a link
    real.write_text(BAD, encoding="utf-8")
    run_main("check", "--isolated", "--fix", "a_link.py", cwd=tmp_path)
    assert real.read_text(encoding="utf-8") == SAFE_FIXED and (tmp_path / "a_link.py").is_symlink()


def test_hard_linked_file_is_not_split(run_main: RunMain, tmp_path: Path) -> None:
    a, b, c = tmp_path / "a.py", tmp_path / "b.py", tmp_path / "c.py"
    a.write_text(BAD, encoding="utf-8")
    os.link(a, b)
    c.write_text(BAD, encoding="utf-8")
    p = run_main("check", "--isolated", "--fix", "a.py", "c.py", cwd=tmp_path)
    assert p.returncode == 1
    assert _stderr_lines(p) == ["a.py: not fixed: it has 2 hard links, and writing it would split them"]
    assert a.read_text(encoding="utf-8") == BAD and os.stat(a).st_ino == os.stat(b).st_ino
    assert c.read_text(encoding="utf-8") == SAFE_FIXED  # the other file is still fixed


def test_read_only_file_is_not_written(run_main: RunMain, tmp_path: Path) -> None:
    ro, ok = tmp_path / "ro.py", tmp_path / "ok.py"
    ro.write_text(BAD, encoding="utf-8")
    ro.chmod(0o444)
    ok.write_text(BAD, encoding="utf-8")
    p = run_main("check", "--isolated", "--fix", ".", cwd=tmp_path)
    assert p.returncode == 1
    assert _stderr_lines(p) == ["ro.py: not fixed: the file is read-only"]
    assert ro.read_text(encoding="utf-8") == BAD and stat.S_IMODE(ro.stat().st_mode) == 0o444
    assert ok.read_text(encoding="utf-8") == SAFE_FIXED
    # --add-noqa writes too: refused the same way
    p = run_main("check", "--isolated", "--add-noqa", "ro.py", cwd=tmp_path)
    assert _stderr_lines(p) == ["ro.py: not fixed: the file is read-only"] and ro.read_text(encoding="utf-8") == BAD


def test_nothing_to_write_says_nothing(run_main: RunMain, tmp_path: Path) -> None:
    ro = tmp_path / "ro.py"
    ro.write_text('URL = "https://example.com/a b"\n', encoding="utf-8")  # only an unsafe fix
    ro.chmod(0o444)
    p = run_main("check", "--isolated", "--fix", "ro.py", cwd=tmp_path)
    assert _stderr_lines(p) == [] and p.returncode == 1


def test_a_failed_write_is_one_line_and_leaves_the_file(cli: CLI, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    f, g = tmp_path / "f.py", tmp_path / "g.py"
    f.write_text(BAD, encoding="utf-8")
    g.write_text(BAD, encoding="utf-8")
    from iri_lint.files.fileio import replace_file as real_write

    def flaky(path: str, data: bytes, *, expected: bytes | None = None) -> None:
        if path.endswith("f.py"):
            raise OSError(30, "Read-only file system")
        real_write(path, data, expected=expected)

    monkeypatch.setattr(fix_flow, "replace_file", flaky)  # as the fix flow imported it from iri_lint.files.fileio
    r = cli("check", "--isolated", "--fix", str(f), str(g))
    assert r.code == 1 and "internal error" not in r.err
    assert f"{f}:1:1: error: not fixed: cannot write the file: Read-only file system" in r.err
    assert f.read_text(encoding="utf-8") == BAD and g.read_text(encoding="utf-8") == SAFE_FIXED
    assert f"{f}:2:" in r.out and "fixed (safe)" in r.out and r.out.count("fixed (safe)") == 1


# ---------------------------------------------------------------------- every other file iri-lint writes
REPORTED = 'URL = "https://example.com/a b"\n'


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """project/ (a git work tree with a finding) and outside/victim, a file of someone else's."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "m.py").write_text(REPORTED, encoding="utf-8")
    victim = outside / "victim"
    victim.write_text("someone else's file\n", encoding="utf-8")
    return project, victim


@pytest.mark.parametrize("option", ["--baseline", "-o"])
def test_a_committed_symlink_leading_out_of_the_tree_is_not_written_through(run_main: RunMain, tmp_path: Path,
                                                                          option: str) -> None:
    """The issue's: ``.iri-baseline.json -> ../../some/file`` replaced that file with JSON."""
    project, victim = _tree(tmp_path)
    (project / "out.json").symlink_to(Path("..") / "outside" / "victim")
    extra = ["--update-baseline"] if option == "--baseline" else ["--format", "json"]
    p = run_main("check", "--isolated", option, "out.json", *extra, ".", cwd=project)
    assert victim.read_text(encoding="utf-8") == "someone else's file\n"
    assert (project / "out.json").is_symlink()
    assert p.returncode == 2, p.stderr
    what = "baseline out.json" if option == "--baseline" else "out.json"
    assert p.stderr.decode().splitlines()[-1] == (
        f"iri-lint: cannot write {what}: symlink to {victim}, outside {project} "
        "(name the file itself to write there)")


def test_a_symlinked_folder_leading_out_of_the_tree_is_not_written_through(run_main: RunMain, tmp_path: Path) -> None:
    project, victim = _tree(tmp_path)
    (project / "reports").symlink_to(victim.parent)
    p = run_main("check", "--isolated", "-o", "reports/victim", ".", cwd=project)
    assert victim.read_text(encoding="utf-8") == "someone else's file\n" and p.returncode == 2


def test_outputs_named_outside_the_tree_and_links_inside_it_are_written(run_main: RunMain, tmp_path: Path) -> None:
    project, victim = _tree(tmp_path)
    (project / "docs").mkdir()
    (project / "docs" / "report.txt").write_text("old\n", encoding="utf-8")
    (project / "report.txt").symlink_to(Path("docs") / "report.txt")
    p = run_main("check", "--isolated", "-o", "report.txt", ".", cwd=project)
    assert p.returncode == 1 and (project / "report.txt").is_symlink()  # a link stays a link
    assert "IRI101" in (project / "docs" / "report.txt").read_text(encoding="utf-8")
    p = run_main("check", "--isolated", "-o", str(victim), ".", cwd=project)  # the user's own choice
    assert p.returncode == 1 and "IRI101" in victim.read_text(encoding="utf-8")
    p = run_main("check", "--isolated", "--baseline", str(victim.parent / "base.json"), "--update-baseline", ".",
                cwd=project)
    assert p.returncode == 0 and (victim.parent / "base.json").is_file()


def test_a_report_to_a_fifo_is_written_into_it(run_main: RunMain, tmp_path: Path) -> None:
    import threading

    project, _ = _tree(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    p = run_main("check", "--isolated", "--format", "json", "-o", str(fifo), ".", cwd=project)
    reader.join(timeout=60)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still a FIFO
    assert p.returncode == 1 and b'"IRI101"' in got[0]


def test_a_report_to_a_device_is_written_into_it(run_main: RunMain, tmp_path: Path) -> None:
    project, _ = _tree(tmp_path)
    null = tmp_path / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers
    except (PermissionError, AttributeError):
        pytest.skip("creating a device node needs root")
    p = run_main("check", "--isolated", "-o", str(null), ".", cwd=project)
    assert p.returncode == 1 and stat.S_ISCHR(os.lstat(null).st_mode)


def test_a_report_to_dash_goes_to_stdout(run_main: RunMain, tmp_path: Path) -> None:
    project, _ = _tree(tmp_path)
    p = run_main("check", "--isolated", "--format", "json", "-o", "-", ".", cwd=project)
    assert p.returncode == 1 and b'"IRI101"' in p.stdout and not (project / "-").exists()


@pytest.mark.parametrize("option", ["--baseline", "-o"])
def test_a_hard_linked_output_is_not_split(run_main: RunMain, tmp_path: Path, option: str) -> None:
    project, victim = _tree(tmp_path)
    os.link(victim, project / "out.json")
    extra = ["--update-baseline"] if option == "--baseline" else []
    p = run_main("check", "--isolated", option, "out.json", *extra, ".", cwd=project)
    assert p.returncode == 2 and "hard links" in p.stderr.decode()
    assert victim.read_text(encoding="utf-8") == "someone else's file\n" and os.stat(victim).st_nlink == 2


def test_the_inventory_follows_the_same_policy(run_main: RunMain, tmp_path: Path) -> None:
    project, victim = _tree(tmp_path)
    (project / "out.json").symlink_to(Path("..") / "outside" / "victim")
    p = run_main("inventory", "--isolated", "-o", "out.json", ".", cwd=project)
    assert p.returncode == 2 and "symlink to" in p.stderr.decode()
    assert victim.read_text(encoding="utf-8") == "someone else's file\n"
    p = run_main("inventory", "--isolated", "--format", "json", "-o", "-", ".", cwd=project)
    assert p.returncode == 0 and p.stdout.startswith(b"{") and not (project / "-").exists()
