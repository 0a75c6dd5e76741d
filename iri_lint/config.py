"""One option model for the flake8 plugin (``--iri-*``) and the CLI (``[tool.iri-lint]``)."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from .core.grammar import Profile
from .files.globs import globs
from .files.pyproject import ConfigError as ConfigError  # config's error: raised here and by the files it reads
from .files.pyproject import PyprojectFinder, find_pyproject, line_of, read_section
from .options import DEFAULT_TEST_FILES, DEFAULT_URL_NAMES
from .rules.engine import named_codes, select_codes


class Option(NamedTuple):
    """Documentation of one option: its key, its flag (``--iri-*`` for the plugin's own options; flake8's
    for the selection, which the command shares but for ``--per-file-ignores``), type and meaning."""

    key: str
    flag: str
    kind: str
    default: object
    help: str


TEST_FILE_QUIET = frozenset({"IRI506"})  # "user:pass@" in a test is a fixture, not a leak
# what test-files-security-only keeps in test files: bidi (IRI2) and security (IRI5: spoofs, invisible
# characters), in prose too (IRI720, IRI750), and the report of an internal error (IRI100)
SECURITY_CODES = ("IRI100", "IRI2", "IRI5", "IRI72", "IRI75")


@dataclass(frozen=True)
class Config:
    """Every setting iri-lint reads; defaults are the documented ones."""

    select: tuple[str, ...] | None = None  # None: the default rule set
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    profile: str = Profile.IRI.value
    url_names: tuple[str, ...] = DEFAULT_URL_NAMES
    extra_url_apis: tuple[str, ...] = ()
    text_mode: bool = False
    include_bytes: bool = False
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    test_files: tuple[str, ...] = DEFAULT_TEST_FILES
    test_files_security_only: bool = False

    def named_codes(self) -> frozenset[str]:
        """The codes select/extend-select name on purpose (see ``rules.engine.named_codes``)."""
        return _named_codes((*(self.select or ()), *self.extend_select))

    def codes_for(self, path: str | None, *, per_file: bool = True) -> frozenset[str]:
        """The enabled rule codes for one file, after per-file ignores (unless not ``per_file``) and the
        test-file quiet list."""
        ignore = list(self.ignore)
        security_only = False
        if path is not None:  # matched as excludes are (iri_lint.files.globs), without the absolute path
            for pattern, codes in self.per_file_ignores if per_file else ():
                if globs((pattern,)).match(path):
                    ignore.extend(codes)
            if globs(self.test_files).match(path):
                ignore.extend(TEST_FILE_QUIET)
                security_only = self.test_files_security_only
        extend = self.extend_select + (("IRI7",) if self.text_mode else ())  # shorthand, sec. 7.3
        return _enabled(None if self.select is None else tuple(self.select), tuple(ignore), tuple(extend),
                        security_only)


# (asked two or three times a file: the selection's arithmetic once a run, not 26 us a file)
_named_codes = functools.lru_cache(maxsize=16)(named_codes)


@functools.lru_cache(maxsize=64)
def _enabled(select: tuple[str, ...] | None, ignore: tuple[str, ...], extend: tuple[str, ...],
             security_only: bool) -> frozenset[str]:
    enabled = select_codes(select, ignore, extend)
    return frozenset(c for c in enabled if c.startswith(SECURITY_CODES)) if security_only else enabled


OPTIONS: tuple[Option, ...] = (
    Option("select", "--select", "list of codes", None,
           "Rule codes or prefixes to enable instead of the default set (CLI and pyproject only; "
           "under flake8 use flake8's own --select/--extend-select). An opt-in rule is enabled only by "
           "its code, its name or a prefix longer than `IRI` (`IRI3`, `IRI30`): `IRI` alone is the "
           "default set, in both front ends, as flake8-bugbear gates its B9 codes. `ALL` enables every "
           "rule. (`--extend-select IRI` adds nothing, so `check` says so on stderr.)"),
    Option("ignore", "--ignore", "list of codes", (),
           "Rule codes or prefixes to disable. A code that a selection names too (`select`, `extend-select`) "
           "is the longer match's, as flake8 decides it, with `per-file-ignores` too: `extend-select = IRI806` "
           "and `IRI8` ignored keep IRI806; a tie ignores."),
    Option("extend-select", "--extend-select", "list of codes", (),
           "Rule codes or prefixes to enable on top of the selection (e.g. opt-in rules)."),
    Option("per-file-ignores", "--per-file-ignores", "mapping of glob to codes", (),
           "Codes to ignore in files matching a glob, e.g. tests/* = IRI1 (real bad IRIs in tests are "
           "usually deliberate). The flag is flake8's; the command reads the key from its configuration. As "
           "under flake8, the rules still run there and only their findings are hidden: an ignored cause "
           "still hides the findings that only follow from it (IRI112 in the port an IRI801 join makes)."),
    Option("profile", "--iri-profile", "uri | iri | iri-3987bis | leiri | web-address", "iri",
           "The grammar literals are checked against."),
    Option("url-names", "--iri-url-names", "list of names", DEFAULT_URL_NAMES,
           "Name suffixes (of keyword arguments, assignment targets, function names and dict keys) that mark a "
           "URL context, where relative references are checked too; a suffix is a whole word of the name "
           "(`base_url`, `apiUrl`, a key's `\"schema.registry.url\"` or `\"proxy-url\"`, not `curl`), numbered "
           "too, and versioned (`url2`, `MIRROR_URL_2`, `users_url_v2`)."),
    Option("extra-url-apis", "--iri-extra-url-apis", "list of qualified names", (),
           "More functions whose first argument is a URL, by qualified name, e.g. mylib.http.fetch (however a "
           "module imports it: `from .http import fetch` in package mylib too). After a `:`, the arguments that "
           "hold the URL, positions or keyword names joined by `+` (`mylib.http.fetch:1+target`; the first "
           "positional when no position is given, and `url=` always); after another `:`, `url-or-path` for a "
           "function that reads local paths as often, whose argument is checked only when it starts with "
           "`scheme://` (as pandas and fsspec decide). Data projects add "
           "`pandas.read_csv:filepath_or_buffer:url-or-path`, `pandas.read_json:path_or_buf:url-or-path`, "
           "`fsspec.open:urlpath:url-or-path`: `pd.read_csv(CDN + \"exports/daily.csv\")` is then checked, "
           "`pd.read_csv(\"data/Q1 results.csv\")` is a path. Services that build database and broker URLs "
           "add `sqlalchemy.create_engine`, `redis.from_url`, `redis.Redis.from_url` (and `broker`, `dsn` to "
           "`url-names`, for Celery's `broker=` and a `SENTRY_DSN`): a database name joined to the port "
           "without its `/` (`\":5432\" + \"warehouse\"`) is then found where it reaches them."),
    Option("text-mode", "--iri-text-mode", "bool", False,
           "Also find IRIs inside docstrings and prose (RFC 3987 sec. 7.3). Opt-in. Text mode "
           "extracts IRIs from docstrings and prose strings (inside `<...>` or double quotes, or a "
           "bare `scheme://...` or registered `scheme:...` token ending at whitespace, trailing "
           "sentence punctuation and unbalanced `)` dropped; RFC 3986 appendix C) and reports what "
           "the enabled rules find in them under their own codes IRI710-IRI760 (one per family), "
           "e.g. `IRI710 in text: IRI101 space-in-iri: ...`. Shorthand for `extend-select = "
           "[\"IRI7\"]`: selecting any IRI7 code turns text mode on too, e.g. "
           "`flake8 --extend-select IRI7`. Prose is never edited; no cost when off."),
    Option("include-bytes", "--iri-include-bytes", "bool", False, "Also check bytes literals."),
    Option("exclude", "--exclude", "list of globs", (),
           "Paths to skip instead of the defaults (.git, virtualenvs, build folders)."),
    Option("extend-exclude", "--extend-exclude", "list of globs", (), "Paths to skip on top of exclude."),
    Option("test-files", "--iri-test-files", "list of globs", DEFAULT_TEST_FILES,
           "Files where test credentials are expected: IRI506 (a password in the userinfo) is not "
           "reported there, since `user:pass@` in a test is a fixture, not a leak. Matched against the "
           "path (relative to the pyproject) and the file name; `test-files = []` checks them too."),
    Option("test-files-security-only", "--iri-test-files-security-only", "bool", False,
           "In test files (`test-files`), report only the security families: bidi (IRI2xx), spoofs and "
           "invisible characters (IRI5xx), which are seldom deliberate test input; the syntax, "
           "normalization, mapping, scheme and assembly (IRI8xx) rules are off there. Tests hold malformed "
           "IRIs on purpose (a parser's test suite is made of them), so turn this on when your tests feed bad input to "
           "URL code; leave it off to check the IRIs your tests expect as well. A URL library or validator "
           "whose tests feed spoofs and bidi controls on purpose adds `per-file-ignores = {\"tests/*\" = "
           "[\"IRI2\", \"IRI5\"]}` too."),
    Option("respect-gitignore", "--no-respect-gitignore", "bool", True,
           "Skip what git ignores when walking folders: `.gitignore` files, `.git/info/exclude` and the "
           "global excludes file (`core.excludesFile`, by default `$XDG_CONFIG_HOME/git/ignore`). Inside a "
           "git work tree, a folder named like build output (`build`, `dist`, `_build`, `buck-out`) is "
           "checked when git tracks files in it, such as `doc/build`. Paths named on the command line are "
           "checked whatever git ignores. See [Choosing files](files.md)."),
)
_KEYS = {o.key: o for o in OPTIONS}


def _as_tuple(key: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(v.strip() for v in value.replace("\n", ",").split(",") if v.strip())
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ConfigError(f"[tool.iri-lint] {key}: expected a list of strings, got {value!r}", key)


def from_mapping(data: dict[str, Any], base: Config | None = None) -> Config:
    """Build a Config from ``[tool.iri-lint]``-style keys; unknown keys are an error naming the key."""
    cfg = base or Config()
    changes: dict[str, Any] = {}
    for key, value in data.items():
        norm = key.replace("_", "-")
        if norm not in _KEYS:
            known = ", ".join(sorted(_KEYS))
            raise ConfigError(f"[tool.iri-lint] unknown key {key!r}; known keys: {known}", key)
        attr = norm.replace("-", "_")
        if norm in ("text-mode", "include-bytes", "respect-gitignore", "test-files-security-only"):
            if not isinstance(value, bool):
                raise ConfigError(f"[tool.iri-lint] {key}: expected true or false, got {value!r}", key)
            changes[attr] = value
        elif norm == "profile":
            try:
                changes[attr] = Profile(value).value
            except ValueError:
                raise ConfigError(f"[tool.iri-lint] profile: {value!r} is not one of "
                                  f"{', '.join(p.value for p in Profile)}", key) from None
        elif norm == "per-file-ignores":
            changes[attr] = _per_file(value)
        else:
            changes[attr] = _as_tuple(key, value)
    return replace(cfg, **changes)


def _per_file(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if isinstance(value, dict):
        return tuple((str(k), _as_tuple("per-file-ignores", v)) for k, v in value.items())
    if isinstance(value, str):  # flake8 style: "pattern:codes" lines
        out = []
        for line in value.replace(",\n", "\n").splitlines():
            if ":" in line:
                pat, codes = line.split(":", 1)
                out.append((pat.strip(), _as_tuple("per-file-ignores", codes.replace(" ", ","))))
        return tuple(out)
    raise ConfigError(f"[tool.iri-lint] per-file-ignores: expected a table, got {value!r}", "per-file-ignores")


def config_from_file(path: Path) -> Config:
    """The Config of one pyproject.toml's ``[tool.iri-lint]``; an error names the file, line and key."""
    section = read_section(path) or {}
    try:
        return from_mapping(section)
    except ConfigError as exc:
        text = path.read_text(encoding="utf-8", errors="replace")
        raise ConfigError(f"{path}:{line_of(text, exc.key)}: {exc}", exc.key) from None


def load(start: Path | None = None) -> tuple[Config, Path | None]:
    """Read ``[tool.iri-lint]`` from the pyproject.toml that configures ``start`` (default: the current
    folder; :func:`iri_lint.files.pyproject.find_pyproject`); defaults when none does."""
    return load_found(find_pyproject(start or Path.cwd()))


def load_found(pyproject: Path | None) -> tuple[Config, Path | None]:
    """The Config of ``pyproject`` (defaults for None), and the file."""
    return (Config(), None) if pyproject is None else (config_from_file(pyproject), pyproject)


_ADDED = ("extend_select", "extend_exclude")  # lists that add to the configured ones when given again


def layered(config: Config, over: Config, keys: Iterable[str]) -> Config:
    """``over``'s settings named in ``keys`` (attribute names) on top of ``config``, as ruff layers its
    command line on pyproject.toml: ``select`` starts afresh (the configured ignores go), ``ignore``
    and the ``extend-*`` lists add to the configured ones, every other setting replaces its value."""
    keys = set(keys)
    changes: dict[str, Any] = {k: getattr(over, k) for k in keys}
    if "select" in keys:
        changes["ignore"] = over.ignore if "ignore" in keys else ()
    elif "ignore" in keys:
        changes["ignore"] = config.ignore + over.ignore
    for k in keys & set(_ADDED):
        changes[k] = getattr(config, k) + getattr(over, k)
    return replace(config, **changes)


class ConfigFinder:
    """Each file's configuration: the ``[tool.iri-lint]`` of the pyproject.toml that configures it
    (:class:`iri_lint.files.pyproject.PyprojectFinder`), each folder and file read once.

    A batch of files from several packages (a pre-commit run) gets each package's own settings.
    """

    def __init__(self) -> None:
        self.pyprojects = PyprojectFinder()
        self._configs: dict[Path, Config] = {}

    def config_for(self, path: Path) -> tuple[Config, Path | None]:
        """(config, pyproject) for the file at ``path``; defaults and None when nothing configures it."""
        pyproject = self.pyprojects.for_folder(Path(os.path.realpath(path.absolute().parent)))
        if pyproject is None:
            return Config(), None
        if pyproject not in self._configs:
            self._configs[pyproject] = config_from_file(pyproject)
        return self._configs[pyproject], pyproject

