"""Session set-up shared by all tests: the long fuzz profile (`pytest -m fuzz`), and a result cache of
``iri-lint check`` outside the repository."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fuzz: property tests; `-m fuzz` runs them with the long profile")
    if (config.getoption("markexpr", "") or "").strip() == "fuzz":
        os.environ["IRI_LINT_FUZZ"] = "1"  # read by tests/properties/strategies.py at import


@pytest.fixture(autouse=True, scope="session")
def _iri_lint_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``iri-lint check`` run by any test (in this process or a child) caches in a temporary folder, never in
    the checkout (tests/cli gives each test its own)."""
    before = os.environ.get("IRI_LINT_CACHE_DIR")
    os.environ["IRI_LINT_CACHE_DIR"] = str(tmp_path_factory.mktemp("iri-lint-cache"))
    yield
    if before is None:
        os.environ.pop("IRI_LINT_CACHE_DIR", None)
    else:
        os.environ["IRI_LINT_CACHE_DIR"] = before
