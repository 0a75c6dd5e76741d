"""The project's flake8 configuration, for a project that configures iri-lint there and nowhere else.

When no ``pyproject.toml`` has a ``[tool.iri-lint]`` table, ``iri-lint check`` (and so its
pre-commit hooks) reads the file flake8 would read: the first of ``setup.cfg``, ``tox.ini`` and
``.flake8`` with a ``[flake8]`` section, in the current folder and then each folder above it up to
the home folder (flake8's ``_find_config_file``). From it come the IRI codes of ``select``,
``extend-select``, ``ignore``, ``extend-ignore`` and ``per-file-ignores`` (flake8's other codes
are not iri-lint's) and the plugin's own options (``iri-profile``, ``iri-url-names``,
``iri-extra-url-apis``, ``iri-text-mode``, ``iri-include-bytes``, ``iri-test-files``). A
``select`` naming no IRI code leaves the default rules: the file then speaks of other linters.
Patterns of ``per-file-ignores`` are relative to the file's folder, as in flake8.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..config import Config, ConfigError, from_mapping
from ..core.lazy import lazy_regex

CANDIDATES = ("setup.cfg", "tox.ini", ".flake8")  # flake8's order
_LISTS = {"select": "select", "extend-select": "extend-select", "ignore": "ignore", "extend-ignore": "ignore"}
_PLUGIN = {"iri-profile": "profile", "iri-url-names": "url-names", "iri-extra-url-apis": "extra-url-apis",
           "iri-text-mode": "text-mode", "iri-include-bytes": "include-bytes", "iri-test-files": "test-files"}
_BOOLEAN = frozenset(("text-mode", "include-bytes"))
# flake8's per-file-ignores grammar (flake8.utils.parse_files_to_codes_mapping): codes, colons, commas,
# whitespace, and file names (anything else)
_token = lazy_regex("(?P<code>[A-Z]{1,3}[0-9]{0,3}+)(?=[\\s,]|$)|(?P<colon>:)|(?P<sep>[\\s,]++)|(?P<file>[^\\s:,]++)")


def _has_section(path: Path) -> bool:
    try:
        return path.is_file() and "[flake8" in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def find_flake8_config(start: str | None = None) -> Path | None:
    """The file flake8 reads when run from ``start`` (default: the current folder), or None."""
    folder = os.path.abspath(start or os.getcwd())
    home = os.path.abspath(os.path.expanduser("~"))
    while True:
        for name in CANDIDATES:
            candidate = Path(folder, name)
            if _has_section(candidate) and _sections(candidate) is not None:
                return candidate
        parent = os.path.dirname(folder)
        if parent == folder or parent == home:
            return None
        folder = parent


def _sections(path: Path) -> dict[str, str] | None:
    """The ``[flake8]`` section of ``path`` (None when it has none, or flake8 would ignore the file)."""
    import configparser  # here: only a project configured through flake8 pays for it

    parser = configparser.RawConfigParser()
    try:
        parser.read(path, encoding="utf-8")
    except (UnicodeDecodeError, configparser.Error):
        return None  # flake8 ignores a file it cannot parse, with a warning
    if not parser.has_section("flake8"):
        return None
    return {k.replace("_", "-"): v for k, v in parser.items("flake8")}


def _iri_codes(value: str) -> list[str]:
    """The entries of a flake8 code list that select IRI codes (``IRI5``, and ``I``/``IR`` as flake8
    reads them: prefixes of every IRI code)."""
    out = []
    for entry in value.replace("\n", ",").split(","):
        entry = entry.strip().split("#", 1)[0].strip()
        if entry.startswith("IRI"):
            out.append(entry)
        elif entry and "IRI".startswith(entry):
            out.append("IRI")
    return out


def _per_file_ignores(value: str) -> list[tuple[str, list[str]]]:
    """flake8's ``per-file-ignores``: ``files: codes`` pairs, the IRI codes of each."""
    pairs: list[tuple[str, list[str]]] = []
    files: list[str] = []
    codes: list[str] = []
    after_colon = False
    for m in _token().finditer(value):
        kind = m.lastgroup
        if kind == "colon":
            after_colon = True
        elif kind == "code" and after_colon:
            codes.append(m.group())
        elif kind in ("code", "file"):
            if after_colon:  # a file name after codes starts the next pair
                pairs.extend((f, codes) for f in files)
                files, codes, after_colon = [], [], False
            files.append(m.group())
    if after_colon:
        pairs.extend((f, codes) for f in files)
    return [(f, iri) for f, cs in pairs if (iri := _iri_codes(",".join(cs)))]


def config_from_flake8(path: Path) -> Config:
    """The iri-lint settings in ``path``'s ``[flake8]`` section; errors name the file."""
    section = _sections(path) or {}
    data: dict[str, Any] = {}
    try:
        for key, target in _LISTS.items():
            if key in section and (codes := _iri_codes(section[key])):
                data[target] = [*data.get(target, []), *codes]
        if "per-file-ignores" in section:
            data["per-file-ignores"] = {f: codes for f, codes in _per_file_ignores(section["per-file-ignores"])}
        for key, target in _PLUGIN.items():
            if key in section:
                raw = section[key].strip()
                data[target] = raw.lower() in ("1", "true", "yes", "on") if target in _BOOLEAN else raw
        return from_mapping(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: [flake8] {exc}".replace("[tool.iri-lint] ", ""), exc.key) from None
