"""The result cache of ``iri-lint check``: a file's findings are reused while its bytes, its configuration
and iri-lint itself are unchanged (ruff's cache, keyed by content instead of modification time).

Where: ``<base>/<iri-lint version>/``, the base being ``--cache-dir``, else ``$IRI_LINT_CACHE_DIR``, else
``.iri_lint_cache/`` beside the pyproject.toml in use (else in the current folder). iri-lint writes only in
the version folder, which it creates and marks: a ``.gitignore`` (``*``, so git never sees it) and a
``CACHEDIR.TAG`` whose bytes are iri-lint's own. A folder of that name without that tag is not iri-lint's
and is neither read nor written; so is a symlink where the folder or the default base should be (a
repository committing ``.iri_lint_cache -> ../elsewhere`` must not make a check write or delete there).
Nothing is ever deleted outside a marked folder, and inside one only what iri-lint writes there: its
tables, named by a hash, and its writer's temporary files. So ``--cache-dir .`` or a cache variable naming
any existing folder adds one folder to it and touches nothing else.

The folder holds one JSON table per iri-lint installation (version and folder), project root and
configuration::

    {"format": 5, "stamp": ..., "config": ..., "files": {abs path: [lint path, sha256, stat, last used,
                                                                     records, problem, depends on]}}

An entry is used only when the table's ``stamp`` (iri-lint's version and the size and modification time
of its own files and of the libraries whose data decide findings, Python's version) and ``config`` (every
setting of the file's own Config) are this run's, the path matched by per-file-ignores is the same and the
sha256 of the file's bytes is the one stored, and so is that of each file of the project its URL values
were read from (``from settings import HOST``: editing settings.py re-checks the modules that import it).
The hash is not computed again when the file's size,
modification and change times (ns), inode and device are those seen when it was hashed and the file was
then already 2 seconds old (git's "racily clean" rule: a write in the same clock tick as the read would not
show in the times). Everything read is checked for shape and type: a corrupt or
foreign table or entry is a miss, rebuilt by this run, never trusted, never executed (JSON, no pickle).

Concurrent runs: each writes its whole table with iri-lint's one writer (``iri_lint.files.fileio``: a temporary
file in the same folder, renamed over the old one), after merging what another run wrote meanwhile; the
last rename wins, so a result another run stored may be lost (checked again later), never wrong: an entry
carries the hash of the very bytes that were checked. Growth: a table keeps one entry per file (the
newest); entries unused for 30 days are dropped when the table is written, tables not written for 30 days
are deleted, and so is the folder of an older version once nothing of it is younger. A new stamp (an
upgrade in place, an edited checkout) replaces the table rather than adding one.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import stat
import sys
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

import iri_lint

from ..config import Config, ConfigError
from ..core.lazy import lazy_regex
from ..files.fileio import Unwritable, is_temp_name, make_folder, read_regular, remove_leftover, write_output
from ..files.pyproject import find_pyproject
from ..lint import VALUES_UNREAD
from ..source.model import Spelled
from .results import FileResult, FixInfo, Job, Problem, Record
from .run import NOTEBOOK_MAX_BYTES, check_read

FORMAT = 6  # of the tables; a change of layout changes it (2: the files a result depends on; 3: holes;
# 4: a value's anchor; 5: where another module spells a finding's character; 6: a file's further problems)
CACHE_DIR_NAME = ".iri_lint_cache"
MAX_AGE = 30 * 24 * 3600  # seconds: entries and tables unused for longer are dropped
TRUST_AFTER = 2_000_000_000  # ns: a file's stat stands for its bytes once it is older than this
MAX_TABLE_BYTES = 256 * 1024 * 1024  # a larger "table" is not ours: ignored unread
# modules whose code or data decide findings, besides iri_lint and Python (unicodedata)
DEPENDENCIES = ("idna", "bidi", "unicodedataplus", "icu")
GITIGNORE = b"# Created by iri-lint check: its result cache, safe to delete.\n*\n"
# the mark of a folder iri-lint created (bford.info/cachedir): only in a folder holding these very bytes
# does it read, write or delete anything
CACHEDIR_TAG = b"Signature: 8a477f597d28d172789f06886806bc55\n# iri-lint's result cache (bford.info/cachedir)\n"
MARKS = {".gitignore": GITIGNORE, "CACHEDIR.TAG": CACHEDIR_TAG}
_TABLE_NAME = lazy_regex(r"[0-9a-f]{24}\.json")  # what _table() names a table


def cacheable(job: Job) -> bool:
    """A plain check of a file on disk: no fix, diff or noqa to write, not stdin."""
    return job.data is None and not (job.fix or job.add_noqa or job.diff)


Key = tuple[str, list[int] | None]  # sha256 of the bytes checked, the file's stat signature when trusted


def check_keyed(job: Job) -> tuple[FileResult, Key | None]:
    """:func:`check_file`, and the key of the bytes checked when the result may be stored (runs in the
    worker processes: the hash is always that of the very bytes the result comes from)."""
    sig = _signature(job.path) if cacheable(job) else None  # before the read: a later write changes it
    result, data = check_read(job)
    if data is None or not cacheable(job) or (result.problem is not None and result.problem.internal) or \
            any(p == VALUES_UNREAD for p, _ in result.depends_on):
        return result, None
    return result, (hashlib.sha256(data).hexdigest(), sig)


def open_cache(args: argparse.Namespace) -> ResultCache | None:
    """This ``check`` run's cache, or None: ``--no-cache`` (or ``$IRI_LINT_NO_CACHE``, as ruff's
    ``RUFF_NO_CACHE``, for a CI job), or nothing to cache (fixing, stdin)."""
    if getattr(args, "no_cache", False) or _env_flag("IRI_LINT_NO_CACHE") or args.fix or args.diff \
            or args.add_noqa or "-" in args.paths:
        return None
    root = project_root(args)
    given = getattr(args, "cache_dir", None) or os.environ.get("IRI_LINT_CACHE_DIR")
    return ResultCache(Path(given) if given else root / CACHE_DIR_NAME, root, chosen=bool(given))


def _env_flag(name: str) -> bool:
    """An environment variable set to anything but empty, 0, false, no or off."""
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")


def project_root(args: argparse.Namespace) -> Path:
    """The folder of the pyproject.toml in use for the first path, else the current folder."""
    if args.isolated:
        return Path.cwd()
    if args.config:
        return Path(args.config).absolute().parent
    first = next((p for p in args.paths if p != "-"), ".")
    try:
        found = find_pyproject(Path(first).absolute())
    except (ConfigError, OSError):
        found = None
    return found.parent if found is not None else Path.cwd()


def code_stamp() -> str:
    """What the findings depend on besides the file and its Config: iri-lint (its version, and the size
    and modification time of each of its files, so that an edited checkout is never served old results),
    the libraries in :data:`DEPENDENCIES` and Python."""
    h = hashlib.sha256(f"{FORMAT}\0{iri_lint.__version__}\0{sys.version}\0{unicodedata.unidata_version}\0".encode())
    package = Path(__file__).resolve().parent.parent
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith((".pyc", ".pyo")):
                _stat_into(h, os.path.join(folder, name))
    for module in DEPENDENCIES:
        try:
            spec = PathFinder.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        h.update(f"{module}\0".encode())
        if spec is not None and spec.origin:
            _stat_into(h, spec.origin)
    return h.hexdigest()


def _stat_into(h: Any, path: str) -> None:
    try:
        st = os.stat(path)
    except OSError:
        h.update(f"{path}\0-\n".encode())
        return
    h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())


def _signature(path: str) -> list[int] | None:
    """What stat says of a file, when it may stand for the file's bytes: None while the file is younger
    than TRUST_AFTER (its last write could share a timestamp with one still to come)."""
    now = time.time_ns()
    try:
        st = os.stat(path)
    except OSError:
        return None
    if now - max(st.st_mtime_ns, st.st_ctime_ns) < TRUST_AFTER:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


class _Table:
    """One configuration's entries: path -> [lint path, sha256, stat, last used, records, problem]."""

    def __init__(self, path: Path, config: str) -> None:
        self.path, self.config = path, config
        self.entries: dict[str, list[Any]] = {}
        self.touched: dict[str, list[Any]] = {}  # used or stored by this run
        self.changed = False  # something new to write


class ResultCache:
    """The cache of one run: looked up and written in the main process, the checking done anywhere."""

    # what the workers run (iri_lint.cli.run imports nothing from here: this module imports it)
    check_keyed = staticmethod(check_keyed)

    def __init__(self, base: Path, root: Path, *, chosen: bool = False) -> None:
        """``base``: the folder the cache goes in, ``chosen`` by the user (``--cache-dir``, the environment)
        or else iri-lint's own ``.iri_lint_cache`` in the project."""
        self.base, self.root, self.chosen = base, root, chosen
        self.folder = base / iri_lint.__version__  # the one folder iri-lint writes in
        self.stamp = code_stamp()
        self.now = int(time.time())
        self._tables: dict[Config, _Table] = {}
        self.refusal = self._refusal()  # why the folder is neither read nor written, or None

    def _refusal(self) -> str | None:
        """Why the cache folder is not iri-lint's to use: a symlink (where the project put one, it may
        lead anywhere), or an existing folder without iri-lint's mark."""
        places = ((self.folder, True),) if self.chosen else ((self.base, False), (self.folder, True))
        for place, marked in places:
            try:
                mode = os.lstat(place).st_mode
            except FileNotFoundError:
                return None  # made by the first save
            except OSError as exc:
                return f"{place}: {exc.strerror or exc}"
            if stat.S_ISLNK(mode):
                return f"{place} is a symlink; iri-lint keeps its cache only in a folder it created"
            if not stat.S_ISDIR(mode):
                return f"{place} is not a folder"
            if marked and not _marked(place):
                return f"{place} is not iri-lint's cache folder (it holds no CACHEDIR.TAG of iri-lint's)"
        return None

    def lookup(self, jobs: Sequence[Job]) -> dict[int, FileResult]:
        """The results the cache holds for ``jobs``, by index."""
        hits: dict[int, FileResult] = {}
        digests: dict[str, str | None] = {}  # the files results depend on, hashed once per lookup
        for i, job in enumerate(jobs):
            if not cacheable(job):
                continue
            key = os.path.abspath(job.path)
            table = self._table(job.config)
            entry = table.entries.get(key)
            if entry is None or entry[0] != (job.lint_path or job.path):
                continue
            sig = _signature(key)
            if sig is None or sig != entry[2]:  # not known unchanged: the content decides
                digest = _digest(key)
                if digest is None or digest != entry[1]:
                    continue
                if sig != entry[2]:  # e.g. touched, or now old enough: the next run can trust the stat
                    entry[2] = sig
                    table.changed = True
            if not _unchanged(entry[6], digests):
                continue
            result = decode(job.path, entry[4], entry[5])
            if result is not None:
                result.depends_on = tuple((p, d) for p, d in entry[6])
                entry[3] = self.now
                table.touched[key] = entry
                hits[i] = result
        return hits

    def store(self, job: Job, key: Key, result: FileResult) -> None:
        """Remember the result of checking ``job``'s file, whose bytes have ``key``."""
        path = os.path.abspath(job.path)
        table = self._table(job.config)
        entry = [job.lint_path or job.path, key[0], key[1], self.now, *encode(result),
                 [list(d) for d in result.depends_on]]
        table.entries[path] = table.touched[path] = entry
        table.changed = True

    def save(self) -> None:
        """Write the tables this run added to; a folder that cannot be written is said once, not fatal."""
        changed = [t for t in self._tables.values() if t.changed]
        if not changed:
            return
        try:
            self._prepare()  # (again: another run may have made the folder since this one started)
            for table in changed:
                self._write(table)
            self._prune({t.path.name for t in self._tables.values()})
        except OSError as exc:
            why = exc.why if isinstance(exc, Unwritable) else f"{exc.filename or self.folder}: {exc.strerror or exc}"
            print(f"iri-lint: warning: results not cached ({why}); --no-cache turns the cache off", file=sys.stderr)

    # ------------------------------------------------------------------ tables on disk
    def _table(self, config: Config) -> _Table:
        table = self._tables.get(config)
        if table is None:
            text = json.dumps(asdict(config), sort_keys=True)
            # an edited checkout replaces its own table (the stamp inside differs); two installations (a
            # virtualenv and pre-commit's) used on one project keep a table each instead of taking turns
            install = str(Path(__file__).resolve().parent.parent)
            key = json.dumps([FORMAT, iri_lint.__version__, install, str(self.root), text])
            name = hashlib.sha256(key.encode()).hexdigest()
            table = self._tables[config] = _Table(self.folder / f"{name[:24]}.json", text)
            table.entries = self._read(table)
        return table

    def _read(self, table: _Table) -> dict[str, list[Any]]:
        """The table's valid entries; nothing when it is missing, corrupt, from another stamp, or in a
        folder that is not iri-lint's."""
        if self.refusal is not None:
            return {}
        try:
            doc = json.loads(read_regular(str(table.path), MAX_TABLE_BYTES, nofollow=True))
        except (OSError, ValueError, RecursionError, MemoryError):
            return {}
        if not (isinstance(doc, dict) and doc.get("format") == FORMAT and doc.get("stamp") == self.stamp
                and doc.get("config") == table.config and isinstance(doc.get("files"), dict)):
            return {}
        return {k: v for k, v in doc["files"].items() if _entry_shape(v)}

    def _prepare(self) -> None:
        """Make the cache folder, marked as iri-lint's, unless it is there already."""
        if self.chosen:
            os.makedirs(self.base, exist_ok=True)
        else:
            with contextlib.suppress(FileExistsError):
                os.mkdir(self.base)
        self.refusal = self._refusal()  # the base made by another run meanwhile could be a symlink
        for _ in range(3):  # (another run's clean-up may take the new folder before it is renamed)
            if self.refusal is not None or os.path.lexists(self.folder):
                break
            # made whole (fileio.make_folder): never seen without its marks, so a run starting meanwhile
            # never takes it for a stranger's (the .gitignore first: git never sees the rest)
            make_folder(str(self.folder), MARKS)
            self.refusal = self._refusal()
        if self.refusal is not None:
            raise Unwritable(str(self.folder), self.refusal)

    def _write(self, table: _Table) -> None:
        entries = self._read(table)  # what another run wrote since this one read the table
        entries.update(table.touched)
        oldest = self.now - MAX_AGE
        files = {k: v for k, v in entries.items() if v[3] >= oldest}
        doc = {"format": FORMAT, "stamp": self.stamp, "config": table.config, "files": files}
        if self.refusal is not None:
            raise Unwritable(str(self.folder), self.refusal)
        data = json.dumps(doc, separators=(",", ":")).encode("ascii")
        write_output(str(table.path), data, (os.path.realpath(self.folder),), durable=False)

    def _prune(self, keep: set[str]) -> None:
        """In this version's folder, delete the tables not written for MAX_AGE and what killed runs left;
        delete the folders of other versions whose every table is that old."""
        _prune_folder(self.folder, self.now, keep)
        try:
            with os.scandir(self.base) as it:
                others = [Path(e.path) for e in it if e.name != self.folder.name and e.is_dir(follow_symlinks=False)]
        except OSError:
            return
        for folder in others:
            if _marked(folder) and _prune_folder(folder, self.now, set()):
                for name in MARKS:
                    with contextlib.suppress(OSError):
                        os.unlink(folder / name)
                with contextlib.suppress(OSError):
                    os.rmdir(folder)  # fails, as it should, if anything else is in it


def _marked(folder: Path) -> bool:
    """Whether ``folder`` is a real folder holding iri-lint's CACHEDIR.TAG (so iri-lint made it)."""
    try:
        return read_regular(str(folder / "CACHEDIR.TAG"), len(CACHEDIR_TAG), nofollow=True) == CACHEDIR_TAG \
            and stat.S_ISDIR(os.lstat(folder).st_mode)
    except OSError:
        return False


def _prune_folder(folder: Path, now: int, keep: set[str]) -> bool:
    """Delete, in iri-lint's ``folder``, the tables older than MAX_AGE (but ``keep``) and the temporary files
    of writers that are gone; touch nothing else. True when no table is left."""
    left = False
    with os.scandir(folder) as it:
        entries = list(it)
    for e in entries:
        if is_temp_name(e.name):
            remove_leftover(e.path, now)
        elif _TABLE_NAME().fullmatch(e.name):
            if e.name not in keep and e.is_file(follow_symlinks=False) and now - _mtime(e) > MAX_AGE:
                with contextlib.suppress(OSError):
                    os.unlink(e.path)
                    continue
            left = True
    return not left


def _mtime(e: os.DirEntry[str]) -> float:
    try:
        return e.stat(follow_symlinks=False).st_mtime
    except OSError:
        return 0.0


def _unchanged(deps: list[list[Any]], digests: dict[str, str | None]) -> bool:
    """Whether every file a result depends on still has the bytes it had (a file that was unreadable
    still is)."""
    for path, digest in deps:
        if path not in digests:
            digests[path] = _digest(path)
        if digests[path] != digest:
            return False
    return True


def _digest(path: str) -> str | None:
    """sha256 of the file's bytes; None when it cannot be read, is not a regular file or is too large to be
    checked."""
    try:
        return hashlib.sha256(read_regular(path, NOTEBOOK_MAX_BYTES)).hexdigest()
    except OSError:
        return None


# ---------------------------------------------------------------------- results as JSON, read back with care
def encode(result: FileResult) -> tuple[list[Any], list[Any] | None]:
    """A plain check's result as lists, as JSON reads them back (the path is left out: it is the job's)."""
    records = [[r.line, r.col, r.end_line, r.end_col, r.code, r.name, r.message, r.severity, r.value,
                r.source_line, _encode_fix(r.fix), r.cell, None if r.file_region is None else list(r.file_region),
                [list(h) for h in r.holes], r.anchor, None if r.spelled is None else list(r.spelled)]
               for r in result.records]
    p = result.problem
    more = [[q.line, q.col, q.message] for q in result.more_problems]
    return records, None if p is None else [p.line, p.col, p.message, more]


def _encode_fix(f: FixInfo | None) -> list[Any] | None:
    if f is None:
        return None
    return [f.description, f.safety, f.level, f.value, [list(e) for e in f.edits], f.status, f.reason,
            [None if p is None else list(p) for p in f.places]]


class _Malformed(ValueError):
    """Something in the cache is not of the shape ``encode`` writes."""


def decode(path: str, records: Any, problem: Any) -> FileResult | None:
    """The FileResult an entry stands for, or None when anything in it is not of the shape ``encode``
    writes (a corrupt or foreign cache is a miss, never a crash)."""
    try:
        result = FileResult(path, records=[_decode_record(path, r) for r in _list(records)])
        if problem is not None:
            p = _list(problem, 4)
            result.problem = Problem(path, _int(p[0]), _int(p[1]), _str(p[2]))
            more = [_list(q, 3) for q in _list(p[3])]
            result.more_problems = [Problem(path, _int(q[0]), _int(q[1]), _str(q[2])) for q in more]
    except _Malformed:
        return None
    return result


def _decode_record(path: str, r: Any) -> Record:
    r = _list(r, 16)
    region = None if r[12] is None else _ints(r[12], 4)
    holes = tuple((_int(h[0]), _int(h[1]), _str(h[2])) for h in (_list(x, 3) for x in _list(r[13])))
    spelled = None if r[15] is None else _list(r[15], 4)
    return Record(path, _int(r[0]), _int(r[1]), _int(r[2]), _int(r[3]), _str(r[4]), _str(r[5]), _str(r[6]),
                  _str(r[7]), _str(r[8]), _str(r[9]), _decode_fix(r[10]), None if r[11] is None else _int(r[11]),
                  None if region is None else (region[0], region[1], region[2], region[3]), holes, _str(r[14]),
                  None if spelled is None else Spelled(_str(spelled[0]), _int(spelled[1]), _int(spelled[2]),
                                                       _str(spelled[3])))


def _decode_fix(f: Any) -> FixInfo | None:
    if f is None:
        return None
    f = _list(f, 8)
    edits = tuple((_int(e[0]), _int(e[1]), _str(e[2])) for e in (_list(x, 3) for x in _list(f[4])))
    places = tuple(None if p is None else _place(_ints(p, 4)) for p in _list(f[7]))
    return FixInfo(_str(f[0]), _str(f[1]), _str(f[2]), _str(f[3]), edits, _str(f[5]), _str(f[6]), places)


def _place(p: list[int]) -> tuple[int, int, int, int]:
    return (p[0], p[1], p[2], p[3])


def _list(x: Any, n: int | None = None) -> list[Any]:
    if type(x) is not list or (n is not None and len(x) != n):
        raise _Malformed
    return x


def _int(x: Any) -> int:
    if type(x) is not int:  # not bool either
        raise _Malformed
    return x


def _str(x: Any) -> str:
    if type(x) is not str:
        raise _Malformed
    return x


def _ints(x: Any, n: int) -> list[int]:
    xs = _list(x, n)
    for v in xs:
        _int(v)
    return xs


def _valid(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except _Malformed:
        return False
    return True


def _entry_shape(v: Any) -> bool:
    """[lint path, sha256, stat or None, last used, records, problem, [[path, sha256 or None], ...]]: the
    records and problem are checked when they are used."""
    return (type(v) is list and len(v) == 7 and type(v[0]) is str and type(v[1]) is str
            and (v[2] is None or _valid(_ints, v[2], 5)) and type(v[3]) is int and type(v[6]) is list
            and all(type(d) is list and len(d) == 2 and type(d[0]) is str and (d[1] is None or type(d[1]) is str)
                    for d in v[6]))
