"""iri_lint.files.globs: the one matcher of excludes, per-file-ignores and test-files."""

from __future__ import annotations

import fnmatch
import posixpath
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iri_lint.config import Config
from iri_lint.files.discover import discover, excluded
from iri_lint.files.globs import globs

PIECES = ["a", "b", "tests", "*", "?", "[ab]", "x.py", "*.py", "**", "."]
patterns = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("/".join)
paths = st.lists(st.sampled_from(["a", "b", "tests", "x.py", "ab.py", "."]), min_size=1, max_size=4).map("/".join)


def _flake8_rule(pattern: str, path: str) -> bool:
    """The reference: fnmatch of the pattern (a trailing slash dropped) on the base name or the whole path."""
    pattern = pattern.rstrip("/")
    whole = posixpath.normpath(path)
    return fnmatch.fnmatch(whole, pattern) or fnmatch.fnmatch(whole.rsplit("/", 1)[-1], pattern)


@given(st.lists(patterns, min_size=1, max_size=3), paths)
def test_a_set_matches_when_one_of_its_patterns_does_as_fnmatch_says(pats: list[str], path: str) -> None:
    assert globs(pats).match(path) == any(_flake8_rule(p, path) for p in pats)


@given(patterns, paths)
def test_the_absolute_path_only_adds_matches_for_patterns_with_a_slash(pattern: str, path: str) -> None:
    absolute = "/home/u/proj/" + path
    plain, with_absolute = globs([pattern]).match(path), globs([pattern]).match(path, absolute)
    assert plain <= with_absolute  # never fewer matches
    if "/" not in pattern.rstrip("/"):
        assert plain == with_absolute
    else:
        assert with_absolute == (plain or fnmatch.fnmatch(absolute, pattern.rstrip("/"))
                                 or fnmatch.fnmatch(absolute, "*/" + pattern.rstrip("/")))


def test_no_pattern_matches_nothing() -> None:
    assert not globs([]).match("a.py", "/a.py")


FILES = ("pkg/gen/a.py", "pkg/m_pb2.py", "pkg/ok.py")


def _tree(root: Path) -> None:
    for rel in FILES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n", encoding="utf-8")


@pytest.mark.parametrize("pattern", ["*_pb2.py", "pkg/m_pb2.py", "pkg/gen/*"])
def test_a_file_pattern_excludes_what_it_silences_and_marks_as_a_test(tmp_path: Path, pattern: str) -> None:
    """One pattern, one meaning: the walk, ``--force-exclude`` (and the editor), per-file-ignores and
    test-files (matched against the path relative to the pyproject's folder) take the same files."""
    _tree(tmp_path)
    walked = {t.path for t in discover([str(tmp_path)], exclude=[pattern], respect_gitignore=False).targets}
    for rel in FILES:
        file = str(tmp_path / rel)
        silenced = "IRI101" not in Config(per_file_ignores=((pattern, ("IRI1",)),)).codes_for(rel)
        marked = "IRI506" not in Config(test_files=(pattern,)).codes_for(rel)
        assert (file not in walked) == excluded(file, [pattern], str(tmp_path)) == silenced == marked, rel


@pytest.mark.parametrize("pattern", ["gen", "pkg/gen", "pkg"])
def test_a_folder_pattern_excludes_the_same_files_walked_or_named(tmp_path: Path, pattern: str) -> None:
    _tree(tmp_path)
    walked = {t.path for t in discover([str(tmp_path)], exclude=[pattern], respect_gitignore=False).targets}
    for rel in FILES:
        file = str(tmp_path / rel)
        assert (file not in walked) == excluded(file, [pattern], str(tmp_path)), rel
