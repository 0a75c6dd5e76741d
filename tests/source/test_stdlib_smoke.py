"""find_literals over the whole standard library: no exception, every finding locatable."""

from __future__ import annotations

import ast
import pathlib
import sysconfig
import warnings

import pytest

from iri_lint.source.literals import find_literals
from iri_lint.source.locate import PartLocator, split_lines


@pytest.mark.slow
def test_stdlib_scan_and_locate() -> None:
    root = pathlib.Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts)
    assert len(files) > 500
    found = unlocated = 0
    for path in files:
        try:
            data = path.read_bytes()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data)
            text = data.decode("utf-8")
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue  # deliberately broken test inputs
        lines = split_lines(text)
        for lit in find_literals(tree, lines):
            found += 1
            assert lit.position_of is not None and lit.locator is not None
            loc = lit.locator.parent if isinstance(lit.locator, PartLocator) else lit.locator  # one IRI of a list
            if loc.source_map() is None:
                unlocated += 1
                continue
            for i in (0, len(lit.value) // 2, len(lit.value)):
                pos = lit.position_of(i)
                assert 1 <= pos.line <= len(lines)
    assert found > 100
    assert unlocated == 0
