"""iri_lint.config: reading [tool.iri-lint] and layering settings on it."""

from __future__ import annotations

import argparse

import pytest

from iri_lint.config import Config, ConfigError, from_mapping, layered


def test_layering_follows_ruff() -> None:
    base = Config(ignore=("IRI101",), extend_select=("IRI303",), extend_exclude=("a",), profile="uri")
    over = Config(select=("IRI1",), ignore=("IRI102",), extend_select=("IRI305",), extend_exclude=("b",),
                  profile="iri")
    assert layered(base, over, []) == base
    added = layered(base, over, ["ignore", "extend_select", "extend_exclude", "profile"])
    assert (added.ignore, added.extend_select, added.extend_exclude, added.profile) == (
        ("IRI101", "IRI102"), ("IRI303", "IRI305"), ("a", "b"), "iri")
    fresh = layered(base, over, ["select"])  # a new selection drops the configured ignores
    assert (fresh.select, fresh.ignore) == (("IRI1",), ())
    assert layered(base, over, ["select", "ignore"]).ignore == ("IRI102",)


def test_test_files_security_only_is_a_bool_setting() -> None:
    config = from_mapping({"test-files-security-only": True})
    assert config.test_files_security_only
    assert config.codes_for("tests/test_x.py") == frozenset(
        c for c in Config().codes_for("tests/test_x.py") if c.startswith(("IRI100", "IRI2", "IRI5")))
    assert config.codes_for("src/x.py") == Config().codes_for("src/x.py")
    assert Config(test_files_security_only=True, test_files=()).codes_for("tests/test_x.py") == \
        Config().codes_for("src/x.py")  # no test files: nothing changes
    with pytest.raises(ConfigError, match="test-files-security-only"):
        from_mapping({"test-files-security-only": "yes"})


def test_every_documented_flag_is_one_a_front_end_accepts() -> None:
    """docs/configuration.md's flag column (generated from ``OPTIONS``) named ``--iri-select`` and three more
    flags that neither ``iri-lint check`` nor flake8 knows (fixtures12)."""
    from flake8.main.options import register_default_options
    from flake8.options.manager import OptionManager

    from iri_lint.cli import build_parser
    from iri_lint.config import OPTIONS
    from iri_lint.flake8_plugin import Plugin

    parsers = [build_parser("check")]
    parsers += [sub for p in parsers for a in p._actions if isinstance(a, argparse._SubParsersAction)
                for sub in a.choices.values()]
    cli = {flag for parser in parsers for action in parser._actions for flag in action.option_strings}
    manager = OptionManager(version="0", plugin_versions="", parents=[], formatter_names=[])
    register_default_options(manager)
    Plugin.add_options(manager)
    flake8 = {flag for action in manager.parser._actions for flag in action.option_strings}
    assert [o.key for o in OPTIONS if o.flag not in cli | flake8] == []
