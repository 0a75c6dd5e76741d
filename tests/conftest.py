"""Session set-up shared by all tests: the long fuzz profile (`pytest -m fuzz`)."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fuzz: property tests; `-m fuzz` runs them with the long profile")
    if (config.getoption("markexpr", "") or "").strip() == "fuzz":
        os.environ["IRI_LINT_FUZZ"] = "1"  # read by tests/properties/strategies.py at import
