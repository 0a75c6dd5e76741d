"""One option model for the flake8 plugin (``--iri-*``) and the CLI (``[tool.iri-lint]``)."""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .core.grammar import Profile


class ConfigError(ValueError):
    """A configuration value or key is not valid; the message names it."""


@dataclass(frozen=True)
class Option:
    """Documentation of one option: its key, flake8 flag, type and meaning."""

    key: str
    flag: str
    kind: str
    default: object
    help: str


DEFAULT_URL_NAMES = ("url", "uri", "href")
# where test credentials are expected (pytest's and unittest's conventions)
DEFAULT_TEST_FILES = ("tests/*", "*/tests/*", "test/*", "*/test/*", "test_*.py", "*_test.py", "conftest.py")
TEST_FILE_QUIET = frozenset({"IRI506"})  # "user:pass@" in a test is a fixture, not a leak


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

    def named_codes(self) -> frozenset[str]:
        """The codes select/extend-select name on purpose (see ``rules.engine.named_codes``)."""
        from .rules.engine import named_codes

        return named_codes((*(self.select or ()), *self.extend_select))

    def codes_for(self, path: str | None) -> frozenset[str]:
        """The enabled rule codes for one file, after per-file ignores and the test-file quiet list."""
        from .rules.engine import select_codes

        ignore = list(self.ignore)
        if path is not None:
            posix = Path(path).as_posix()
            posix = posix[2:] if posix.startswith("./") else posix
            name = Path(path).name

            def matches(pattern: str) -> bool:
                return fnmatch.fnmatch(posix, pattern) or fnmatch.fnmatch(name, pattern)

            for pattern, codes in self.per_file_ignores:
                if matches(pattern):
                    ignore.extend(codes)
            if any(matches(p) for p in self.test_files):
                ignore.extend(TEST_FILE_QUIET)
        extend = self.extend_select + (("IRI7",) if self.text_mode else ())  # shorthand, sec. 7.3
        return select_codes(self.select, ignore, extend)


OPTIONS: tuple[Option, ...] = (
    Option("select", "--iri-select", "list of codes", None,
           "Rule codes or prefixes to enable instead of the default set (CLI and pyproject only; "
           "under flake8 use flake8's own --select/--extend-select). An opt-in rule is enabled only by "
           "its code, its name or a prefix longer than `IRI` (`IRI3`, `IRI30`): `IRI` alone is the "
           "default set, in both front ends, as flake8-bugbear gates its B9 codes. `ALL` enables every "
           "rule."),
    Option("ignore", "--iri-ignore", "list of codes", (), "Rule codes or prefixes to disable."),
    Option("extend-select", "--iri-extend-select", "list of codes", (),
           "Rule codes or prefixes to enable on top of the selection (e.g. opt-in rules)."),
    Option("per-file-ignores", "--iri-per-file-ignores", "mapping of glob to codes", (),
           "Codes to ignore in files matching a glob, e.g. tests/* = IRI1 (real bad IRIs in tests are "
           "usually deliberate)."),
    Option("profile", "--iri-profile", "uri | iri | iri-3987bis | leiri | web-address", "iri",
           "The grammar literals are checked against."),
    Option("url-names", "--iri-url-names", "list of names", DEFAULT_URL_NAMES,
           "Name suffixes (of keyword arguments and assignment targets) that mark a URL context, "
           "where relative references are checked too."),
    Option("extra-url-apis", "--iri-extra-url-apis", "list of qualified names", (),
           "More functions whose first argument is a URL, e.g. mylib.fetch."),
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
    raise ConfigError(f"[tool.iri-lint] {key}: expected a list of strings, got {value!r}")


def from_mapping(data: dict[str, Any], base: Config | None = None) -> Config:
    """Build a Config from ``[tool.iri-lint]``-style keys; unknown keys are an error naming the key."""
    cfg = base or Config()
    changes: dict[str, Any] = {}
    for key, value in data.items():
        norm = key.replace("_", "-")
        if norm not in _KEYS:
            known = ", ".join(sorted(_KEYS))
            raise ConfigError(f"[tool.iri-lint] unknown key {key!r}; known keys: {known}")
        attr = norm.replace("-", "_")
        if norm in ("text-mode", "include-bytes", "respect-gitignore"):
            if not isinstance(value, bool):
                raise ConfigError(f"[tool.iri-lint] {key}: expected true or false, got {value!r}")
            changes[attr] = value
        elif norm == "profile":
            try:
                changes[attr] = Profile(value).value
            except ValueError:
                raise ConfigError(f"[tool.iri-lint] profile: {value!r} is not one of "
                                  f"{', '.join(p.value for p in Profile)}") from None
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
    raise ConfigError(f"[tool.iri-lint] per-file-ignores: expected a table, got {value!r}")


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above ``start``."""
    start = start.resolve()
    for folder in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load(start: Path | None = None) -> tuple[Config, Path | None]:
    """Read ``[tool.iri-lint]`` from the nearest pyproject.toml (defaults when there is none)."""
    path = find_pyproject(start or Path.cwd())
    if path is None:
        return Config(), None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    section = data.get("tool", {}).get("iri-lint", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.iri-lint] must be a table")
    return from_mapping(section), path


def config_field_names() -> list[str]:
    """Config attributes, for the docs test that every option is documented."""
    return [f.name for f in fields(Config)]

