"""What the front ends read of their options before the engine runs: the defaults, and comma lists.

Apart from ``config`` because flake8 registers and parses the plugin's ``--iri-*`` options at the start of
every run, before it knows whether any file holds an IRI: reading them must not import the engine
(docs/design.md, "Lazy boundaries").
"""

from __future__ import annotations

from typing import Any

DEFAULT_URL_NAMES = ("url", "uri", "href")
# where test credentials are expected (pytest's and unittest's conventions)
DEFAULT_TEST_FILES = ("tests/*", "*/tests/*", "test/*", "*/test/*", "test_*.py", "*_test.py", "tests.py", "conftest.py")


def comma_list(value: Any) -> tuple[str, ...]:
    """An option's items: flake8 hands a list (``comma_separated_list``), a string (one value, or a config
    file's lines) or None; blanks are dropped."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.replace("\n", ",").split(",")
    return tuple(v.strip() for v in value if v and v.strip())
