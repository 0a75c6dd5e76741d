"""Every file iri-lint writes, and every source file it reads, goes through here: one policy, one writer.

Writing (fixed sources and notebooks, baselines, reports, the cache's tables and marked folders):

* whole or not at all: a temporary file in the target's folder, flushed to disk, then renamed over it;
* never over an edit made meanwhile: with ``expected`` (the bytes read), the file is read again just
  before the rename and left alone when it changed (:class:`Changed`);
* never through a symlink that leads out of the trees being checked, never one name of several hard
  links, never a read-only file (:func:`output_refusal`, :func:`link_refusal`, :func:`file_refusal`);
* a FIFO or a device is written into, never replaced by a regular file (:func:`write_output`);
* temporary files are named ``.NAME.<16 hex digits>.iri-lint-tmp`` and locked (``flock``) while they
  are written: a later run removes those whose writer died (a kill -9), and only those
  (:func:`remove_leftover`).

Reading: only regular files, at most a given size, without blocking on a FIFO (:func:`read_regular`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Iterable, Iterator

TEMP_SUFFIX = ".iri-lint-tmp"
LEFTOVER_GRACE = 5.0  # seconds: a writer takes its lock microseconds after creating its file
LEFTOVER_UNLOCKED = 3600.0  # seconds: where locks do not work, a leftover is an hour old
_TAG_LEN = 16  # hex digits of randomness in a temporary file's name
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_KINDS = ((stat.S_ISLNK, "a symlink"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class Unwritable(OSError):
    """A file the write policy leaves alone; ``strerror`` says why."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(errno.EPERM, why, path)
        self.why = why


class Changed(Unwritable):
    """The file is not what was read: someone wrote it meanwhile, and their version is kept."""

    def __init__(self, path: str) -> None:
        super().__init__(path, "the file changed while it was being fixed (the new version is kept; run again)")


class Unreadable(OSError):
    """A file that is not checked: not a regular file, or too large; ``strerror`` says why."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(errno.EINVAL, why, path)
        self.why = why


def kind(mode: int) -> str:
    """What a file that is not a regular file is, in words ("a FIFO")."""
    return next((name for test, name in _KINDS if test(mode)), "a special file")


# ------------------------------------------------------------------ reading
def read_regular(path: str, limit: int, *, nofollow: bool = False) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit``; :class:`Unreadable` for anything else
    (a FIFO would block, ``/dev/zero`` never ends), OSError when it cannot be read (``nofollow``: when it
    is a symlink)."""
    mode = (os.lstat(path) if nofollow else os.stat(path)).st_mode  # before opening: opening a device acts
    if not stat.S_ISREG(mode):
        raise Unreadable(path, f"not a regular file ({kind(mode)}): only regular files are checked")
    # a FIFO put there meanwhile opens without waiting; a symlink put there fails to open with nofollow
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | (_NOFOLLOW if nofollow else 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(path, f"not a regular file ({kind(st.st_mode)}): only regular files are checked")
        if st.st_size > limit:
            raise Unreadable(path, f"file too large to check ({st.st_size} bytes > {limit})")
        data = fh.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise Unreadable(path, f"file too large to check (more than {limit} bytes)")
    return data


# ------------------------------------------------------------------ the policy
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


def output_refusal(path: str, trees: Iterable[str]) -> str | None:
    """Why a file iri-lint produces (a report, a baseline, a cache table) must not be written at ``path``;
    None when it may be.

    A path inside one of ``trees`` (resolved folders) that resolves outside them, through a symlinked file
    or folder, is refused: the tree's content is not the user's choice (a pull request can commit
    ``report.json -> ~/.bashrc``). A path named outside the trees (``/tmp/report.json``, ``/dev/stdout``)
    is. An existing regular file must be replaceable alone (:func:`file_refusal`); a FIFO or a device is
    written into.
    """
    trees = tuple(trees)
    lexical = os.path.normpath(os.path.abspath(path))
    real = os.path.realpath(path)
    if real != lexical and inside(lexical, trees) and not inside(real, trees):
        return f"symlink to {real}, outside {' and '.join(trees)} (name the file itself to write there)"
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read its status: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return "it is a folder"
    return file_refusal(real) if stat.S_ISREG(mode) else None


# ------------------------------------------------------------------ writing
def write_output(path: str, data: bytes, trees: Iterable[str], *, durable: bool = True) -> None:
    """Write a file iri-lint produces, by the policy of :func:`output_refusal`: a regular file (new or
    old) is replaced whole (a symlink's target, the link staying a link), a FIFO or a device written
    into. Raises :class:`Unwritable` when the policy refuses, OSError when the write fails. ``durable``:
    see :func:`replace_file`."""
    why = output_refusal(path, trees)
    if why is not None:
        raise Unwritable(path, why)
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        replace_file(real, data, durable=durable)
        return
    if stat.S_ISREG(mode):
        replace_file(real, data, durable=durable)
        return
    fd = os.open(real, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))  # never O_CREAT: it exists
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def make_folder(folder: str, files: dict[str, bytes]) -> bool:
    """Make ``folder`` holding ``files`` (name -> bytes, written in that order), whole or not at all: they
    are written into a sibling folder of its own, which is then renamed into place, so no process ever
    sees the folder without them. False when it was not made (another process's folder is there, the
    disk is full); the sibling is then removed."""
    parent, name = os.path.split(folder)
    tmp = os.path.join(parent, f".{name}.{os.getpid()}.{os.urandom(4).hex()}")
    os.mkdir(tmp)
    try:
        for file, content in files.items():
            fd = os.open(os.path.join(tmp, file), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(fd, "wb") as fh:
                fh.write(content)
        os.rename(tmp, folder)  # (fails when another process's folder is there: then that one serves)
    except OSError:
        for file in files:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(tmp, file))
        with contextlib.suppress(OSError):
            os.rmdir(tmp)
        return False
    return True


def replace_file(path: str, data: bytes, *, expected: bytes | None = None, durable: bool = True) -> None:
    """Replace (or create) the regular file ``path`` with ``data``: a temporary file in the same folder,
    flushed to disk, then renamed over it; with ``expected``, only if the file still holds those bytes.

    The file keeps its permission bits (a new one gets 0o666 less the umask); a symlink stays a symlink
    (its target is replaced). An interrupt at any point leaves the old file or the new one, never a mix;
    the temporary file is removed on every error that can be caught, and a later run removes it after a
    kill (:func:`remove_leftover`). ``durable=False``, for a cache that may lose a write (a torn table is
    read as corrupt, never used), neither flushes the new bytes to disk nor holds back SIGINT.
    """
    target = os.path.realpath(path)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        if expected is not None:
            raise Changed(path) from None
        mode = 0o666 & ~_umask()
    folder, name = os.path.split(target)
    sweep_folder(folder)
    fd, tmp = _create_temp(folder, name)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if durable:
            os.fsync(fd)
        os.chmod(tmp, mode)
        with deferred_sigint() if durable else contextlib.nullcontext():
            if expected is not None and not _holds(target, expected):
                raise Changed(path)
            os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        os.close(fd)  # only now: the lock tells a sweeping run that this file is being written


def _holds(path: str, expected: bytes) -> bool:
    """Whether ``path`` is still a regular file holding exactly ``expected`` (a save in the same clock
    tick shows in no time stamp, so the bytes are compared, not only the status)."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(expected):
            return False
        return fh.read(len(expected) + 1) == expected


def _create_temp(folder: str, name: str) -> tuple[int, str]:
    """A new, locked, empty file ``.NAME.<hex>.iri-lint-tmp`` in ``folder``: its descriptor and path."""
    for _ in range(100):
        tmp = os.path.join(folder, f".{name[:200]}.{os.urandom(_TAG_LEN // 2).hex()}{TEMP_SUFFIX}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        except FileExistsError:
            continue
        with contextlib.suppress(OSError):  # a file system without locks: the age rule applies
            _lock(fd)
        return fd, tmp
    raise FileExistsError(errno.EEXIST, "no free temporary name", folder)  # pragma: no cover


def _lock(fd: int) -> None:
    """Take an exclusive advisory lock on ``fd`` without waiting: BlockingIOError when another process holds
    one, OSError when there are no locks (not POSIX, or a file system without them)."""
    try:
        import fcntl  # here: only a write needs it
    except ImportError:  # pragma: no cover
        raise OSError(errno.ENOSYS, "no advisory locks") from None
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def deferred_sigint() -> Iterator[None]:
    """Hold back SIGINT until the block ends (main thread only; elsewhere a no-op)."""
    import signal  # here, with threading: 1 ms to import, for a check that writes nothing
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[object] = []
    previous = signal.signal(signal.SIGINT, lambda *args: received.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received:
            raise KeyboardInterrupt


# ------------------------------------------------------------------ leftovers of killed writers
def is_temp_name(name: str) -> bool:
    """Whether ``name`` is one :func:`replace_file` gives its temporary files."""
    if not (name.startswith(".") and name.endswith(TEMP_SUFFIX)):
        return False
    stem = name[: -len(TEMP_SUFFIX)]
    tag = stem[-_TAG_LEN:]
    return (len(stem) > _TAG_LEN + 2 and stem[-_TAG_LEN - 1] == "."
            and all(c in "0123456789abcdef" for c in tag))


def remove_leftover(path: str, now: float | None = None) -> bool:
    """Delete ``path`` if it is a temporary file of ours whose writer is gone: named as ours, a regular
    file (not a link), older than a few seconds, and not locked (a live writer holds its lock; a killed
    one lost it). Where locks do not work, an hour's age stands for "gone". True when it was deleted."""
    if not is_temp_name(os.path.basename(path)):
        return False
    try:
        st = os.lstat(path)
        age = (time.time() if now is None else now) - st.st_mtime
        if not stat.S_ISREG(st.st_mode) or age < LEFTOVER_GRACE:
            return False
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    except OSError:
        return False
    try:
        try:
            _lock(fd)
        except BlockingIOError:
            return False  # its writer is alive
        except OSError:  # no locks here (or on this file system): age alone tells
            if age < LEFTOVER_UNLOCKED:
                return False
        if (os.fstat(fd).st_ino, os.fstat(fd).st_dev) != (st.st_ino, st.st_dev):
            return False
        os.unlink(path)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


_swept: set[str] = set()


def sweep_folder(folder: str) -> None:
    """Remove the leftovers of killed writers in ``folder`` (once per folder and process)."""
    if folder in _swept:
        return
    _swept.add(folder)
    try:
        with os.scandir(folder) as it:
            names = [e.name for e in it if e.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return
    now = time.time()
    for name in names:
        remove_leftover(os.path.join(folder, name), now)
