"""git's ignore patterns (iri_lint.files.gitignore): git itself is the oracle, and hostile patterns match in
linear time (no timing asserted: a backtracking matcher does not finish these at all)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iri_lint.files.discover import discover
from iri_lint.files.gitignore import parse, read_layer, translate

from .test_discover import _isolated_git, git  # noqa: F401  (the fixture: no user git configuration)


def check_ignore(root: Path, paths: list[str]) -> set[str]:
    """What ``git check-ignore`` says is ignored (a path ending in "/" is a folder, made on disk for git to
    see it is one; a path is ignored when a folder above it is, as for a walk that does not enter ignored
    folders)."""
    for path in paths:
        if path.endswith("/"):
            (root / path).mkdir(parents=True, exist_ok=True)
    asked = [x.rstrip("/") for x in paths]
    p = subprocess.run(["git", "check-ignore", "--no-index", "--stdin", "-z"], cwd=root, capture_output=True,
                       input=b"\0".join(os.fsencode(x) for x in asked) + b"\0", check=False)
    assert p.returncode in (0, 1), p.stderr
    said = {os.fsdecode(x) for x in p.stdout.split(b"\0") if x}
    return {x for x in paths if x.rstrip("/") in said}


def ours(root: Path, paths: list[str]) -> set[str]:
    """The same question asked of our matcher, one ``.gitignore`` at the top, folders checked first."""
    layer = read_layer(str(root / ".gitignore"), str(root))
    out = set()
    for path in paths:
        parts = path.rstrip("/").split("/")
        for k in range(1, len(parts) + 1):
            is_dir = k < len(parts) or path.endswith("/")
            if layer is not None and layer.decide(str(root.joinpath(*parts[:k])), is_dir):
                out.add(path)
                break
    return out


def agree(lines: list[bytes], paths: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "init", "-q")
        (root / ".gitignore").write_bytes(b"\n".join(lines) + b"\n")
        assert ours(root, paths) == check_ignore(root, paths), lines


PATHS = ["a", "b", "ab", "a/b", "x/a/b", "a/x/b", "a/x/y/b", "abc", "a.py", "x/a.py", "x/y/a.py", "foo/", "x/foo/",
         "foo/bar", "foo/bar/baz", "bar", ".hidden", "x/.hidden", "[ab]", "a b", "a ", "#c", "!d", "a*b", "a?b",
         "aXb", "a/b/c/d", "d", "deep/er/than/most/paths/file", "caf\u00e9", "x/caf\u00e9", "e1.py", "]", "-", "a-b",
         "\\", "A1", "1a", "z9", "\t", "foo\\", "Foo"]

CASES = [
    # the pathspec test suite's shapes: anchored, relative, nested, negated, comments, "/" alone, "**" forms
    [b"/an/absolute"], [b"spam"], [b"foo/bar"], [b"!a", b"a*"], [b"# a comment"], [b"/"], [b"/**"], [b"**"],
    [b"**/b"], [b"a/**"], [b"a/**/b"], [b"**/a/**"], [b"**/x/**/b"], [b"a**b"], [b"**a"], [b"a/**b"],
    [b"**\\/b"], [b"a/**\\/b"], [b"***/b"], [b"**/**/b"], [b"a/***"],
    # "**" right after the literal prefix, which dir.c compares before wildmatch() reads the rest
    [b"a**/b"], [b"x/a**/b"], [b"a**\\/b"], [b"*a**/b"], [b"x/a**"], [b"a?**/b"], [b"a\\x**/b"],
    # stars, question marks, escapes, trailing spaces, comments and bangs escaped
    [b"*"], [b"a*"], [b"*b"], [b"a*b"], [b"a?b"], [b"?"], [b"*.py"], [b"x/*.py"], [b"*/a.py"], [b"a/*"],
    [b"a\\*b"], [b"a\\?b"], [b"\\#c"], [b"\\!d"], [b"a\\ "], [b"a  "], [b"a \\ "], [b"foo\\"], [b"foo\\\\"],
    [b"a\\b"], [b"\\a"],
    # brackets: ranges, negation, "]" first, classes, unterminated or unknown (never matches)
    [b"[ab]"], [b"[!ab]"], [b"[^ab]"], [b"[a-c]"], [b"[]]"], [b"[!]]"], [b"[]a]"], [b"[a-]"], [b"[-a]"],
    [b"[[:digit:]]*"], [b"[[:alpha:]][[:digit:]]"], [b"[[:upper:]]*"], [b"[[:space:]]"], [b"[[:punct:]]"],
    [b"[[:nope:]]"], [b"[a"], [b"a[b"], [b"[[:alpha:]"], [b"[[:]]"], [b"[[:x]"], [b"\\[ab]"], [b"[\\]]"],
    [b"[a\\-c]"], [b"[a-\\c]"], [b"a[/]b"], [b"a[!x]b"], [b"[z-a]"],
    # folders only, negation order, the last match decides
    [b"foo/"], [b"a/", b"!a/b"], [b"*", b"!*.py"], [b"*.py", b"!a.py", b"a.py"], [b"!*.py", b"*"],
    # bytes: "?" is one byte of UTF-8, as in git
    [b"caf?"], [b"caf??"], ["caf\u00e9".encode()], ["*\u00e9".encode()],
    # CRLF, a BOM, a NUL
    [b"\xef\xbb\xbfab"], [b"ab\r"], [b"a\0b"],
]


@pytest.mark.parametrize("lines", CASES, ids=[repr(c)[:40] for c in CASES])
def test_patterns_match_what_git_matches(lines: list[bytes]) -> None:
    agree(lines, PATHS)


ATOMS = ["a", "b", "x", "/", "*", "**", "?", "[ab]", "[!a]", "[a-c]", "\\*", ".", "!", " ", "\\ ", "[[:alpha:]]"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(ATOMS), min_size=1, max_size=7).map("".join), min_size=1, max_size=4))
def test_random_patterns_match_what_git_matches(patterns: list[str]) -> None:
    agree([p.encode() for p in patterns], PATHS)


# ---------------------------------------------------------------------- linear time
# the (52 s at 8 repetitions, unfinished at 10) and its relatives: each is a backtracking
# regex's worst case, against names and paths made of the letters the pattern repeats
HOSTILE = [
    "*a*a*a*a*a*a*a*a*a*a*b",
    "*a*a*a*a*a*a*a*a*a*a*b/",
    "**/*a*a*a*a*a*a*a*a*a*a*b",
    "**/a*a*a*a*a*a*a*a*a*a*/**/b",
    "a/**/a/**/a/**/a/**/a/**/a/**/a/**/b",
    "**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b",
    "[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[a]*[b]",
    "*?*?*?*?*?*?*?*?*?*?b",
    "*" * 200 + "b",
    "/".join(["*a*a*a*a*a*b"] * 6),
]


@pytest.mark.parametrize("pattern", HOSTILE)
def test_hostile_patterns_match_in_linear_time(tmp_path: Path, pattern: str) -> None:
    names = ["a" * 250, "a" * 249 + "c", ("a" * 60 + "/") * 4 + "a" * 60]
    (tmp_path / ".gitignore").write_text(pattern + "\n")
    layer = read_layer(str(tmp_path / ".gitignore"), str(tmp_path))
    assert layer is not None
    for name in names:
        for is_dir in (False, True):
            assert layer.decide(str(tmp_path / name), is_dir) is None
    deep = Path(tmp_path, *(["a" * 200] * 8))
    deep.mkdir(parents=True)
    (deep / "m.py").write_text("x = 1\n")
    git(tmp_path, "init", "-q")
    assert len(discover([str(tmp_path)]).targets) == 1


def test_the_translation_cannot_backtrack_across_pieces() -> None:
    """Every "*" piece is an atomic group: nothing matched before it is tried again."""
    assert translate(b"*a*b") == rb"(?>[^/]*?a)(?>[^/]*b\Z)"
    assert translate(b"a/**/b*") == rb"a/(?>(?:[^/]*+/)*?b[^/]*+\Z)"
    assert translate(b"[") == rb"(?!)"
    assert [p.negative for p in parse(b"a\n!b\n#c\n\n \n")] == [False, True]


# ---------------------------------------------------------------------- reading the files
def test_a_symlinked_gitignore_is_not_followed_as_git_does_not(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").write_text("*.py\n")
    (tmp_path / ".gitignore").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "m.py").write_text("x = 1\n")
    git(tmp_path, "init", "-q")
    assert [t.path for t in discover([str(tmp_path)]).targets] == [str(tmp_path / "m.py")]
    assert check_ignore(tmp_path, ["m.py"]) == set()


def test_a_gitignore_that_is_a_device_or_a_fifo_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").symlink_to("/dev/zero")  # would be read until memory runs out
    os.mkfifo(tmp_path / ".gitignore")  # would block
    (tmp_path / "sub" / "m.py").write_text("x = 1\n")
    git(tmp_path, "init", "-q")
    assert [t.path for t in discover([str(tmp_path)]).targets] == [str(tmp_path / "sub" / "m.py")]
