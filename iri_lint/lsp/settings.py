"""Settings from the editor (``initializationOptions``, ``workspace/didChangeConfiguration``).

The keys are ``[tool.iri-lint]``'s, in the editor's camelCase (``extendSelect``) or as in
pyproject.toml (``extend-select``); they go over what pyproject.toml says as ``iri-lint check``'s
command-line options do (``EditorSettings.apply``). Three more are the
server's own: ``configPath`` (a TOML file with a ``[tool.iri-lint]`` table, or a folder holding a
pyproject.toml, to read instead of the nearest pyproject.toml), ``debounce`` (milliseconds) and
``reportUnparsable``. Settings may come wrapped in their section, ``{"iri-lint": {...}}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iri_lint.config import OPTIONS, Config, ConfigError, from_mapping, layered
from iri_lint.rules.engine import select_codes

SECTION = "iri-lint"
_SECTIONS = (SECTION, "iriLint", "iri_lint")
SERVER_KEYS = ("config-path", "debounce", "report-unparsable")
_CONFIG_KEYS = tuple(o.key for o in OPTIONS)
_CAPITAL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def kebab(key: str) -> str:
    """``extendSelect`` / ``extend_select`` -> ``extend-select``."""
    return _CAPITAL.sub("-", key).replace("_", "-").lower()


@dataclass(frozen=True, slots=True)
class EditorSettings:
    """What the editor asked for; empty when it said nothing."""

    overrides: dict[str, Any] = field(default_factory=dict)  # [tool.iri-lint] keys (kebab-case) -> value
    config_path: str | None = None
    debounce_ms: float | None = None
    report_unparsable: bool | None = None

    def apply(self, config: Config) -> Config:
        """``config`` with the editor's overrides (checked by ``parse``), layered as ``iri-lint check``'s
        command line is on pyproject.toml (:func:`iri_lint.config.layered`)."""
        if not self.overrides:
            return config
        return layered(config, from_mapping(self.overrides), [k.replace("-", "_") for k in self.overrides])

    def merged(self, newer: EditorSettings) -> EditorSettings:
        """These settings, with what ``newer`` sets taking over."""
        return EditorSettings(
            {**self.overrides, **newer.overrides},
            newer.config_path if newer.config_path is not None else self.config_path,
            newer.debounce_ms if newer.debounce_ms is not None else self.debounce_ms,
            newer.report_unparsable if newer.report_unparsable is not None else self.report_unparsable)


def unwrap(options: Any) -> Any:
    """The iri-lint section of a settings object, if it holds one."""
    if isinstance(options, dict):
        for name in _SECTIONS:
            if isinstance(options.get(name), dict):
                return options[name]
    return options


def looks_like_settings(options: Any) -> bool:
    """Whether an object is the iri-lint section itself (every key one of ours)."""
    if not isinstance(options, dict) or not options:
        return False
    return all(kebab(str(k)) in (*_CONFIG_KEYS, *SERVER_KEYS, "config") for k in options)


def parse(options: Any) -> tuple[EditorSettings, list[str]]:
    """Settings from the editor's object, and a message per key that was not understood (left out)."""
    options = unwrap(options)
    if options is None:
        return EditorSettings(), []
    if not isinstance(options, dict):
        return EditorSettings(), [f"settings must be an object, got {options!r}"]
    problems: list[str] = []
    overrides: dict[str, Any] = {}
    config_path = debounce = report = None
    for key, value in options.items():
        name = kebab(str(key))
        if name in ("config-path", "config"):
            if value is None or isinstance(value, str):
                config_path = value or None
            else:
                problems.append(f"configPath: expected a path, got {value!r}")
        elif name == "debounce":
            if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
                debounce = float(value)
            else:
                problems.append(f"debounce: expected milliseconds, got {value!r}")
        elif name == "report-unparsable":
            if isinstance(value, bool):
                report = value
            else:
                problems.append(f"reportUnparsable: expected true or false, got {value!r}")
        elif value is not None:  # null: the editor's way of saying "not set"
            try:
                given = from_mapping({name: value})
            except ConfigError as exc:
                problems.append(str(exc).replace("[tool.iri-lint] ", "").replace("unknown key", "unknown setting"))
                continue
            if name in ("select", "ignore", "extend-select"):  # a typo must not select or ignore nothing
                codes = getattr(given, name.replace("-", "_")) or ()
                bad = [c for c in codes if not select_codes([c])]
                if bad:
                    named = ", ".join(map(repr, bad))
                    problems.append(f"{name}: {named} matches no rule (`iri-lint rules` lists them)")
                    value = [c for c in codes if c not in bad]
            overrides[name] = value
    return EditorSettings(overrides, config_path, debounce, report), problems


def config_file(path: str, root: str | None) -> Path:
    """The file a ``configPath`` names (relative to the workspace root; a folder means its pyproject.toml)."""
    target = Path(path).expanduser()
    if not target.is_absolute():
        target = Path(root or Path.cwd()) / target
    return target / "pyproject.toml" if target.is_dir() else target
