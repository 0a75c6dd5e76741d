"""iri_lint.files.fileio: the one writer and the write policy, and the careful reader."""

from __future__ import annotations

import fcntl
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iri_lint.files import fileio
from iri_lint.files.fileio import (
    Changed,
    Unreadable,
    is_temp_name,
    output_refusal,
    read_regular,
    remove_leftover,
    replace_file,
    write_output,
)


def _temp_names(folder: Path, target: str) -> set[str]:
    return {n for n in os.listdir(folder) if n != target}


@given(st.text(alphabet=st.characters(exclude_characters="/\0", exclude_categories=["Cs"]), min_size=1,
               max_size=300))
def test_every_temporary_name_is_recognised_and_holds_the_file_name(name: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        try:
            fd, path = fileio._create_temp(tmp, name)
        except OSError:  # a name too long for the file system once encoded
            return
        os.close(fd)
        base = os.path.basename(path)
        assert is_temp_name(base) and base.startswith("." + name[:200] + ".")


@pytest.mark.parametrize("name", [
    ".notes.iri-lint-tmp", "m.py.0123456789abcdef.iri-lint-tmp", ".m.py.0123.iri-lint-tmp",
    ".m.py.0123456789ABCDEF.iri-lint-tmp", ".m.py.0123456789abcdef.tmp", ".0123456789abcdef.iri-lint-tmp"])
def test_names_that_are_not_ours_are_not_recognised(name: str) -> None:
    assert not is_temp_name(name)


def test_a_write_keeps_the_mode_and_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_bytes(b"old\n")
    real.chmod(0o640)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    replace_file(str(link), b"new\n", expected=b"old\n")
    assert link.is_symlink() and real.read_bytes() == b"new\n" and stat.S_IMODE(real.stat().st_mode) == 0o640
    assert _temp_names(tmp_path, "real.py") == {"link.py"}


@pytest.mark.parametrize("meanwhile", ["edited", "same size", "deleted", "made a symlink"])
def test_a_file_changed_since_it_was_read_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  meanwhile: str) -> None:
    f = tmp_path / "m.py"
    f.write_bytes(b"read\n")
    other = tmp_path / "other"
    other.write_bytes(b"read\n")
    real_fsync = os.fsync

    def change(fd: int) -> None:  # between the write of the new bytes and the rename
        real_fsync(fd)
        if meanwhile == "edited":
            f.write_bytes(b"an editor's save\n")
        elif meanwhile == "same size":
            f.write_bytes(b"READ\n")
        elif meanwhile == "deleted":
            f.unlink()
        else:
            f.unlink()
            f.symlink_to(other)

    monkeypatch.setattr(os, "fsync", change)
    with pytest.raises(Changed):
        replace_file(str(f), b"fixed\n", expected=b"read\n")
    assert other.read_bytes() == b"read\n"
    assert meanwhile == "deleted" or f.read_bytes() in (b"an editor's save\n", b"READ\n", b"read\n")
    assert _temp_names(tmp_path, "m.py") == {"other"}


def test_output_policy(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (outside / "x").write_text("x")
    (tree / "in.json").write_text("{}")
    (tree / "to-in.json").symlink_to("in.json")
    (tree / "to-out.json").symlink_to(outside / "x")
    (tree / "dir-out").symlink_to(outside)
    (outside / "y").write_text("y")
    os.link(outside / "y", tree / "hard")
    trees = (str(tree),)
    assert output_refusal(str(tree / "new.json"), trees) is None
    assert output_refusal(str(tree / "to-in.json"), trees) is None
    assert output_refusal(str(outside / "x"), trees) is None  # named outside: the user's choice
    assert output_refusal(str(tree / "to-out.json"), trees) == (
        f"symlink to {outside / 'x'}, outside {tree} (name the file itself to write there)")
    assert output_refusal(str(tree / "dir-out" / "new.json"), trees) is not None
    assert "hard links" in (output_refusal(str(tree / "hard"), trees) or "")
    assert output_refusal(str(tree), trees) == "it is a folder"


def test_a_fifo_is_written_into_never_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so that opening for writing does not wait
    try:
        write_output(str(fifo), b"report\n", (str(tmp_path),))
        assert os.read(reader, 100) == b"report\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize(("make", "why"), [
    (lambda p: os.mkfifo(p), "not a regular file (a FIFO): only regular files are checked"),
    (lambda p: p.mkdir(), "not a regular file (a folder): only regular files are checked"),
    (lambda p: p.write_bytes(b"x" * 11), "file too large to check (11 bytes > 10)"),
])
def test_only_regular_files_of_a_bounded_size_are_read(tmp_path: Path, make: object, why: str) -> None:
    path = tmp_path / "f"
    make(path)  # type: ignore[operator]
    with pytest.raises(Unreadable) as info:
        read_regular(str(path), 10)
    assert info.value.why == why
    (tmp_path / "link").symlink_to(tmp_path / "target")
    (tmp_path / "target").write_bytes(b"ok")
    assert read_regular(str(tmp_path / "link"), 10) == b"ok"
    with pytest.raises(Unreadable):
        read_regular(str(tmp_path / "link"), 10, nofollow=True)


def test_leftovers_are_removed_only_when_old_and_unlocked(tmp_path: Path) -> None:
    fd, path = fileio._create_temp(str(tmp_path), "m.py")  # locked: its writer is alive
    old = os.stat(path).st_mtime - 3600
    os.utime(path, (old, old))
    assert not remove_leftover(path)
    os.close(fd)  # the writer is gone
    assert remove_leftover(path, now=old + 1) is False  # too young at that time
    assert remove_leftover(path) and not os.path.exists(path)
    fd, path = fileio._create_temp(str(tmp_path), "n.py")
    os.close(fd)
    os.utime(path, (old, old))
    link = tmp_path / ".x.0123456789abcdef.iri-lint-tmp"
    link.symlink_to(path)
    assert not remove_leftover(str(link)) and os.path.exists(path)
    blocker = os.open(path, os.O_RDONLY)
    fcntl.flock(blocker, fcntl.LOCK_EX)  # another live process's lock
    try:
        assert not remove_leftover(path)
    finally:
        os.close(blocker)


# ------------------------------------------------------------------ whole or not at all
def test_interrupt_during_write_keeps_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "m.py"
    f.write_bytes(b"original\n")

    def boom(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(KeyboardInterrupt):
        replace_file(str(f), b"new contents\n")
    assert f.read_bytes() == b"original\n"
    assert os.listdir(tmp_path) == ["m.py"]  # the temporary file is gone


def test_sigint_during_replace_is_deferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "m.py"
    f.write_bytes(b"original\n")
    real_replace = os.replace

    def replace_with_signal(a: str, b: str) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # arrives mid-replace: must not cut it short
        real_replace(a, b)

    monkeypatch.setattr(os, "replace", replace_with_signal)
    with pytest.raises(KeyboardInterrupt):
        replace_file(str(f), b"new\n")
    assert f.read_bytes() == b"new\n"
    assert os.listdir(tmp_path) == ["m.py"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
@pytest.mark.slow  # a writer process, killed
def test_killed_writer_leaves_the_original_intact(tmp_path: Path, sig: int) -> None:
    f = tmp_path / "m.py"
    f.write_bytes(b"original\n")
    script = textwrap.dedent(f"""
        import os, signal, sys, time
        from iri_lint.files.fileio import replace_file
        # a shell that starts jobs in the background hands them SIGINT ignored: restore Python's
        signal.signal(signal.SIGINT, signal.default_int_handler)
        def slow_fsync(fd):
            print("writing", flush=True)
            time.sleep(30)
        os.fsync = slow_fsync
        replace_file({str(f)!r}, b"half" * 100000)
    """)
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None
    assert p.stdout.readline() == b"writing\n"
    p.send_signal(sig)
    p.wait(timeout=30)
    assert f.read_bytes() == b"original\n"
    if sig == signal.SIGINT:
        assert os.listdir(tmp_path) == ["m.py"]


def test_make_folder_makes_it_whole_or_leaves_nothing(tmp_path: Path) -> None:
    """A folder made with its files, in order; where a folder is already there (another process made
    it), that one stays as it was and no half-made sibling is left behind."""
    target = tmp_path / "v1"
    assert fileio.make_folder(str(target), {"b": b"first", "a": b"second"})
    assert sorted(os.listdir(target)) == ["a", "b"] and (target / "b").read_bytes() == b"first"
    assert not fileio.make_folder(str(target), {"c": b"other"})
    assert sorted(os.listdir(tmp_path)) == ["v1"] and sorted(os.listdir(target)) == ["a", "b"]


def test_make_folder_that_fails_midway_removes_its_sibling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open

    def full_disk(path: str, flags: int, mode: int = 0o777) -> int:
        if str(path).endswith("second"):
            raise OSError(28, "No space left on device")
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", full_disk)
    assert not fileio.make_folder(str(tmp_path / "v1"), {"first": b"1", "second": b"2"})
    assert os.listdir(tmp_path) == []
