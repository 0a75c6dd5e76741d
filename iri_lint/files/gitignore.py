"""git's ignore rules (gitignore(5)), read and matched as git does, in time linear in the path.

Precedence as in git: the ``.gitignore`` nearest the path first, then those of its parent folders
up to the top level, then ``.git/info/exclude``, then the global excludes file; within one file
the last matching pattern decides, and a ``!`` pattern re-includes. Folders are matched as they
are walked (an ignored folder is never entered), so nothing below an ignored folder is read.

Reading follows git's ``dir.c``: bytes, an optional UTF-8 BOM, lines split at ``\\n`` (a ``\\r``
before it dropped), ``#`` comments, trailing spaces trimmed unless escaped; a ``.gitignore`` in the
work tree is not read through a symlink (git opens it with ``O_NOFOLLOW``), and a pattern file over
100 MiB is ignored. Matching is git's ``wildmatch.c`` with ``WM_PATHNAME``, on the bytes of the path
(a ``?`` matches one byte, as in git), compiled by :func:`translate` to a regular expression that
cannot backtrack: pathspec's translation of ``*a*a*a*a*a*a*a*a*b`` took over a second per name.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Sequence
from typing import NamedTuple

from .gitrepo import Repo

PATTERN_MAX_FILE_SIZE = 100 * 1024 * 1024  # git ignores larger pattern files (dir.c)
_SLASH, _BACKSLASH, _STAR = 0x2F, 0x5C, 0x2A


@functools.cache
def posix_classes() -> dict[bytes, frozenset[int]]:
    """The [:name:] classes of wildmatch.c, as git's own locale-independent ctype defines them
    (sane-ctype.h)."""
    upper, lower, digit = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz", b"0123456789"
    return {
        b"alnum": frozenset(upper + lower + digit), b"alpha": frozenset(upper + lower),
        b"blank": frozenset(b" \t"), b"cntrl": frozenset([*range(32), 127]), b"digit": frozenset(digit),
        b"graph": frozenset(range(33, 127)), b"lower": frozenset(lower), b"print": frozenset(range(32, 127)),
        b"punct": frozenset(b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), b"space": frozenset(b" \t\n\r"),
        b"upper": frozenset(upper), b"xdigit": frozenset(digit + b"ABCDEFabcdef"),
    }


# tokens of a pattern: a set of bytes (one byte of the path), STAR (a run of bytes other than "/"),
# and the three forms of "**" next to a slash: DIRS ("**/": zero or more whole folders), ANY (a
# trailing "**": everything) and SOME ("**\\/": at least one folder, a quirk of wildmatch.c)
STAR, DIRS, ANY, SOME = "star", "dirs", "any", "some"
_WILD = re.compile(rb"[*?\[\\]")  # where a pattern's literal prefix ends (simple_length() in dir.c)
Token = frozenset[int] | str


class Pattern(NamedTuple):
    """One line of an ignore file."""

    regex: bytes  # matched (whole) against the path relative to the file's folder
    negative: bool  # "!pattern": re-includes
    dir_only: bool  # "pattern/": folders only


def trim_trailing_spaces(line: bytes) -> bytes:
    """Trailing spaces go unless the last is escaped with a backslash (dir.c)."""
    last_space: int | None = None
    i = 0
    while i < len(line):
        c = line[i]
        if c == 0x20:
            last_space = i if last_space is None else last_space
        elif c == _BACKSLASH:
            i += 1
            if i >= len(line):
                return line
            last_space = None
        else:
            last_space = None
        i += 1
    return line if last_space is None else line[:last_space]


def parse(data: bytes) -> list[Pattern]:
    """The patterns of an ignore file's bytes, in order (``add_patterns_from_buffer`` in dir.c)."""
    data = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    out = []
    for line in data.split(b"\n"):
        if not line or line.startswith(b"#"):
            continue
        line = trim_trailing_spaces(line.removesuffix(b"\r").split(b"\0", 1)[0])  # git reads C strings
        negative = line.startswith(b"!")
        line = line[1:] if negative else line
        dir_only = line.endswith(b"/")
        line = line[:-1] if dir_only else line
        if not line:
            continue  # matches nothing ("/" alone, "!")
        if b"/" in line:  # matched against the path from the file's folder, a leading "/" anchoring it
            regex = translate(line.removeprefix(b"/"))
        else:  # matched against the last component, at any depth
            regex = rb"(?:[^/]*+/)*+" + translate(line)
        out.append(Pattern(regex, negative, dir_only))
    return out


def _bracket(p: bytes, i: int) -> tuple[frozenset[int], int] | None:
    """The bytes the bracket expression at ``p[i] == "["`` matches, and the index after it; None when it
    is unterminated or names an unknown class (wildmatch.c then matches nothing)."""
    n = len(p)
    i += 1
    negated = i < n and p[i] in b"!^"
    i += negated
    members: set[int] = set()
    prev = 0
    while True:  # do { ... } while (p_ch != ']'): a "]" first is a member
        if i >= n:
            return None
        c = p[i]
        if c == _BACKSLASH:
            i += 1
            if i >= n:
                return None
            c = p[i]
            members.add(c)
        elif c == 0x2D and prev and i + 1 < n and p[i + 1] != 0x5D:  # a range prev-hi
            i += 1
            hi = p[i]
            if hi == _BACKSLASH:
                i += 1
                if i >= n:
                    return None
                hi = p[i]
            members.update(range(prev, hi + 1))
            c = 0
        elif c == 0x5B and i + 1 < n and p[i + 1] == 0x3A:  # [:class:]
            end = p.find(b"]", i + 2)
            if end < 0:
                return None
            if end - (i + 2) - 1 < 0 or p[end - 1] != 0x3A:  # no ":]": the "[" is a member
                members.add(c)
            else:
                cls = posix_classes().get(p[i + 2 : end - 1])
                if cls is None:
                    return None
                members.update(cls)
                c = 0
                i = end
        else:
            members.add(c)
        prev = c
        i += 1
        if i < n and p[i] == 0x5D:
            break
    chosen = set(range(1, 256)) - members if negated else members
    return frozenset(chosen - {_SLASH, 0}), i + 1  # with WM_PATHNAME a class never matches "/"


def tokens(p: bytes) -> list[Token] | None:
    """The pattern as tokens (see :data:`STAR`); None when it can match nothing."""
    out: list[Token] = []
    n, i = len(p), 0
    first_wild = _WILD.search(p)
    prefix_end = n if first_wild is None else first_wild.start()
    while i < n:
        c = p[i]
        if c == _BACKSLASH:
            if i + 1 >= n:
                return None  # a trailing backslash never matches
            out.append(frozenset((p[i + 1],)))
            i += 2
        elif c == 0x3F:  # "?": one byte but "/"
            out.append(frozenset(range(1, 256)) - {_SLASH})
            i += 1
        elif c == _STAR:
            j = i
            while j < n and p[j] == _STAR:
                j += 1
            after = p[j : j + 2]
            # at a folder's start, or right after the pattern's literal prefix, which dir.c compares on
            # its own before wildmatch() reads the rest as a pattern that starts with this "**"
            start = i == 0 or p[i - 1] == _SLASH or (i == prefix_end and _SLASH in p)
            if j - i >= 2 and start and (j == n or after[:1] == b"/" or after == b"\\/"):
                if j == n:
                    out.append(ANY)
                elif after[:1] == b"/":
                    out.append(DIRS)
                    j += 1
                else:
                    out.append(SOME)
                    j += 2
            else:
                out.append(STAR)  # "*", or "**" not next to a slash
            i = j
        elif c == 0x5B:
            got = _bracket(p, i)
            if got is None:
                return None
            out.append(got[0])
            i = got[1]
        else:
            out.append(frozenset((c,)))
            i += 1
    return out


def _atom(members: frozenset[int]) -> bytes:
    if not members:
        return b"(?!)"
    if len(members) == 1:
        return re.escape(bytes(members))
    return b"[" + b"".join(re.escape(bytes((m,))) for m in sorted(members)) + b"]"


def _block(toks: Sequence[Token], last: bool) -> bytes:
    """A run of tokens between two "**": its pieces (fixed-width) each placed at the earliest position
    after the previous one, in an atomic group; the last piece of the last block ends the path."""
    pieces: list[bytes] = [b""]
    for t in toks:
        if t == STAR:
            pieces.append(b"")
        else:
            assert isinstance(t, frozenset)
            pieces[-1] += _atom(t)
    out = pieces[0]
    middle = pieces[1:-1] if last else pieces[1:]
    out += b"".join(b"(?>[^/]*?" + piece + b")" for piece in middle)
    if last:
        if len(pieces) > 1:
            out += b"(?>[^/]*" + pieces[-1] + rb"\Z)" if pieces[-1] else rb"[^/]*+\Z"
        else:
            out += rb"\Z"
    return out


def translate(pattern: bytes) -> bytes:
    """A regular expression that matches (whole) exactly the paths wildmatch.c matches with WM_PATHNAME.

    Linear time: ``*`` cannot match "/", so a run of tokens between two ``**`` is placed piece by
    piece, each piece (fixed width) at its earliest position in an atomic group (an earlier position
    leaves a superset of what can follow); a ``**`` next to slashes tries each folder boundary once,
    and commits to the first one after which its run matches (the earliest end, for the same reason).
    Nothing is ever tried again, so a path of n bytes costs O(n) per piece tried at each position.
    """
    toks = tokens(pattern)
    if toks is None:
        return b"(?!)"
    blocks: list[list[Token]] = [[]]
    deeps: list[str] = []
    for t in toks:
        if t in (DIRS, ANY, SOME):
            assert isinstance(t, str)
            deeps.append(t)
            blocks.append([])
        else:
            blocks[-1].append(t)
    out = _block(blocks[0], last=not deeps)
    for k, (deep, block) in enumerate(zip(deeps, blocks[1:], strict=True), start=1):
        last = k == len(deeps)
        if deep == ANY:  # only ever at the end
            out += rb"(?s:.*)\Z"
            continue
        skip = rb"(?:[^/]*+/)*?" if deep == DIRS else rb"(?:[^/]*+/)+?"
        out += b"(?>" + skip + _block(block, last) + b")"
    return out


@functools.lru_cache(maxsize=256)
def _compiled(data: bytes) -> tuple[tuple[Pattern, ...], re.Pattern[bytes] | None, re.Pattern[bytes] | None]:
    """The patterns of an ignore file, with one expression for files and one for folders: the patterns
    as alternatives, last first, so that the group that matched is the pattern that decides."""
    patterns = tuple(parse(data))

    def combined(dirs: bool) -> re.Pattern[bytes] | None:
        alts = [b"(" + p.regex + b")" if dirs or not p.dir_only else b"((?!))" for p in reversed(patterns)]
        return re.compile(b"|".join(alts)) if alts else None

    return patterns, combined(False), combined(True)


class Layer(NamedTuple):
    """The patterns of one ignore file and the folder they are relative to."""

    base: str  # absolute folder path, no trailing separator
    patterns: tuple[Pattern, ...]
    files: re.Pattern[bytes]
    dirs: re.Pattern[bytes]

    def decide(self, path: str, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included by a ``!`` pattern, None: no pattern matches."""
        prefix = self.base if self.base.endswith(os.sep) else self.base + os.sep
        if not path.startswith(prefix):
            return None
        rel = os.fsencode(path[len(prefix):].replace(os.sep, "/"))
        m = (self.dirs if is_dir else self.files).fullmatch(rel)
        if m is None or m.lastindex is None:
            return None
        return not self.patterns[len(self.patterns) - m.lastindex].negative


def read_pattern_file(file: str, *, nofollow: bool = False) -> bytes | None:
    """The bytes of a pattern file; None when it is missing, unreadable, not a regular file (a FIFO would
    block), over git's size limit, or (``nofollow``, for a ``.gitignore`` in the work tree) a symlink."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (getattr(os, "O_NOFOLLOW", 0) if nofollow else 0)
    try:
        fd = os.open(file, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > PATTERN_MAX_FILE_SIZE:
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(PATTERN_MAX_FILE_SIZE + 1)
        return data if len(data) <= PATTERN_MAX_FILE_SIZE else None
    except OSError:
        return None
    finally:
        os.close(fd)


def read_layer(file: str, base: str, *, nofollow: bool = False) -> Layer | None:
    """The patterns in ``file`` (None when it cannot be read or holds none)."""
    data = read_pattern_file(file, nofollow=nofollow)
    if data is None:
        return None
    patterns, files, dirs = _compiled(data)
    if files is None or dirs is None:
        return None
    return Layer(base, patterns, files, dirs)


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
        layer = read_layer(os.path.join(folder, ".gitignore"), folder, nofollow=True)
        return self if layer is None else IgnoreRules((layer, *self.layers))

    def ignored(self, path: str, is_dir: bool) -> bool:
        """Whether git ignores ``path`` (absolute), its parent folders being known not ignored."""
        for layer in self.layers:
            verdict = layer.decide(path, is_dir)
            if verdict is not None:
                return verdict
        return False
