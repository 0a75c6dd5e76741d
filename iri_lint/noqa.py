"""``# noqa`` exactly as flake8 reads it: which comments silence what, and adding them (``--add-noqa``).

flake8 searches for noqa in the lines between two NL/NEWLINE tokens (so a multi-line string shares
one comment, but each physical line of a parenthesised expression needs its own): the same groups
``lint.noqa_lines`` uses. The comment goes after the group's last token.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from .core.lazy import lazy_regex
from .source.locate import split_lines

# flake8.defaults.NOQA_INLINE_REGEXP (a test keeps the two identical; importing flake8 costs start-up)
noqa_inline = lazy_regex(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.I)
_split_codes = lazy_regex(r"[,\s]")


# a file-level comment on a line of its own: flake8's "flake8" + ": noqa" (flake8 ignores it when
# it names codes), and ours, "iri-lint" + ": noqa", optionally naming codes as ruff's form does
_noqa_file = lazy_regex(r"^[ \t]*#[ \t]*(?P<tool>flake8|iri-lint)[:=][ \t]*noqa"
                        r"(?::[ \t]?(?P<codes>[A-Z]+[0-9]*(?:[, \t]+[A-Z]+[0-9]*)*+))?[ \t]*$", re.I | re.M)


def file_noqa(text: str) -> frozenset[str] | None:
    """What a file-level noqa comment silences: None (nothing), an empty set (every code), or the
    codes and prefixes it names."""
    codes: set[str] = set()
    for m in _noqa_file().finditer(text):
        named = m.group("codes")
        if not named:
            return frozenset()  # the whole file
        if m.group("tool").lower() == "iri-lint":
            codes.update(c.upper() for c in _split_codes().split(named) if c)
    return frozenset(codes) if codes else None


def noqa_lines(text: str) -> dict[int, str]:
    """flake8's noqa mapping: each line -> the joined text of its logical line (processor.py)."""
    lines = split_lines(text)
    out: dict[int, str] = {}
    lo, hi = len(lines) + 2, -1
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(lines[lo - 1 : hi])
                out.update(dict.fromkeys(range(lo, hi + 1), joined))
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError):
        return {}
    return out


def noqa_lines_around(tree: ast.Module, lines: Sequence[str], at: Iterable[int]) -> dict[int, str]:
    """``noqa_lines`` for the lines ``at`` of a file the tokenize module rejects as a whole, which CPython's
    parser accepts (a backslash before a comment line): each line's mapping read from the lines of the innermost
    statement around it that stands alone (``lines_around``), as the editor reads a statement's."""
    out: dict[int, str] = {}
    done: set[tuple[int, int]] = set()
    for line in sorted(set(at)):
        span = lines_around(tree, lines, line)
        if span in done or line in out:
            continue
        done.add(span)
        first, last = span
        out.update((first - 1 + k, joined) for k, joined in noqa_lines("".join(lines[first - 1 : last])).items())
    return out


def may_silence(tree: ast.Module, lines: Sequence[str], at: Iterable[int]) -> bool:
    """Whether a noqa comment may silence a finding on one of the lines ``at``: a line holding the word
    ``noqa`` is among those ``noqa_lines`` may join with one of them (``lines_around``). When none is,
    the mapping, a tokenization of the whole file, is not needed (a file rarely has its noqa comments on
    its findings' lines)."""
    noqa = [i for i, line in enumerate(lines, 1) if "noqa" in line.lower()]
    for line in at:
        first, last = lines_around(tree, lines, line)
        i = bisect_left(noqa, first)
        if i < len(noqa) and noqa[i] <= last:
            return True
    return False


def lines_around(tree: ast.Module, lines: Sequence[str], line: int) -> tuple[int, int]:
    """First and last of the lines that hold every line flake8's noqa mapping may join with ``line``: those
    of the innermost statement spanning it that stands alone on its lines. The mapping joins lines only
    through a token (a string) or a backslash, and a statement's tokens are on its lines; one that shares
    a line with other tokens (``a = 1; b = 2``, ``if x: y``, a string ending where it starts) or follows a
    backslash gives way to the statement around it, up to the whole module."""
    chain: list[ast.stmt | ast.excepthandler] = []
    node: ast.AST = tree
    while True:
        inner = next((c for c in _blocks(node) if _first_line(c) <= line <= (c.end_lineno or c.lineno)), None)
        if inner is None:
            break
        chain.append(inner)
        node = inner
    for stmt in reversed(chain):
        if _alone(stmt, lines):
            return _first_line(stmt), stmt.end_lineno or stmt.lineno
    return 1, len(lines)


def _blocks(node: ast.AST) -> Iterator[ast.stmt | ast.excepthandler]:
    """The statements (and ``except`` clauses) right inside a node; a ``case``'s, as the ``match``'s own."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.excepthandler)):
            yield child
        elif isinstance(child, ast.match_case):
            yield from child.body


def _start(stmt: ast.stmt | ast.excepthandler) -> tuple[int, int]:
    """Where a statement's first token is: its first decorator's ``@`` counts as its own (byte column)."""
    decorators: list[ast.expr] = getattr(stmt, "decorator_list", [])
    if decorators:
        first = min(decorators, key=lambda d: (d.lineno, d.col_offset))
        return first.lineno, first.col_offset
    return stmt.lineno, stmt.col_offset


def _first_line(stmt: ast.stmt | ast.excepthandler) -> int:
    return _start(stmt)[0]


def _alone(stmt: ast.stmt | ast.excepthandler, lines: Sequence[str]) -> bool:
    """Whether nothing but blanks (and the decorators' ``@``) stands before the statement on its first line,
    nor but blanks and a comment after it on its last, and the line before does not end with a backslash."""
    first, col = _start(stmt)
    last = stmt.end_lineno or stmt.lineno
    if not 0 < first <= last <= len(lines) or stmt.end_col_offset is None:
        return False
    before = lines[first - 1].encode("utf-8")[:col].strip()  # (ast columns are UTF-8 byte offsets)
    if before not in (b"", b"@") or (first > 1 and lines[first - 2].rstrip("\r\n").endswith("\\")):
        return False
    after = lines[last - 1].encode("utf-8")[stmt.end_col_offset :].strip()
    return not after or after.startswith(b"#")


def is_noqa(code: str, line_text: str | None) -> bool:
    """Whether ``# noqa`` / ``# noqa: CODES`` on the line silences ``code`` (flake8 semantics)."""
    if not line_text:
        return False
    m = noqa_inline().search(line_text)
    if m is None:
        return False
    codes_str = m.group("codes")
    if codes_str is None:
        return True
    codes = {c.strip() for c in _split_codes().split(codes_str) if c.strip()}
    return code in codes or code.startswith(tuple(codes))


class _Logical:
    """One logical line while the tokens are read: its first and last physical lines, and its comments."""

    __slots__ = ("comments", "end", "first", "last")

    def __init__(self, first: int, last: int) -> None:
        self.first = first
        self.last = last
        self.end = (0, 0)  # after the last token (a trailing comment included)
        self.comments: list[tokenize.TokenInfo] = []


def _logical_lines(text: str) -> list[_Logical] | None:
    out: list[_Logical] = []
    cur: _Logical | None = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER):
                if cur is not None:
                    out.append(cur)
                cur = None
            elif tok.type in (tokenize.INDENT, tokenize.DEDENT):
                continue
            elif tok.type == tokenize.ERRORTOKEN:
                return None  # e.g. an unterminated string (3.11 yields it instead of raising)
            else:
                if cur is None:
                    cur = _Logical(tok.start[0], tok.end[0])
                cur.last = tok.end[0]
                cur.end = tok.end
                if tok.type == tokenize.COMMENT:
                    cur.comments.append(tok)
                    # a comment token keeps trailing blanks: insert before them
                    cur.end = (tok.start[0], tok.start[1] + len(tok.string.rstrip()))
    except (tokenize.TokenError, SyntaxError):
        return None
    return out


def add_noqa(text: str, findings: Iterable[tuple[int, int, str]]) -> tuple[str, int]:
    """``text`` with noqa comments for ``(line, col, code)`` findings; and how many codes were added."""
    logical = _logical_lines(text)
    if logical is None:
        return text, 0
    wanted: dict[int, list[str]] = {}
    for line, _col, code in findings:
        for i, ll in enumerate(logical):
            if ll.first <= line <= ll.last:
                codes = wanted.setdefault(i, [])
                if code not in codes:
                    codes.append(code)
                break
    starts = [0]
    for ln in io.StringIO(text):
        starts.append(starts[-1] + len(ln))
    edits: list[tuple[int, str]] = []
    added = 0
    for i, codes in wanted.items():
        ll = logical[i]
        existing = next((c for c in ll.comments if noqa_inline().search(c.string)), None)
        if existing is not None:
            m = noqa_inline().search(existing.string)
            assert m is not None
            if m.group("codes") is None:
                continue  # a bare noqa already silences everything
            listed = m.group("codes").rstrip(", \t")
            have = set(listed.replace(",", " ").split())
            new = [c for c in codes if c not in have]
            if new:
                at = starts[existing.start[0] - 1] + existing.start[1] + m.start("codes") + len(listed)
                edits.append((at, "".join(f", {c}" for c in new)))
                added += len(new)
            continue
        at = starts[ll.end[0] - 1] + ll.end[1]
        edits.append((at, f"  # noqa: {', '.join(codes)}"))
        added += len(codes)
    for at, insert in sorted(edits, reverse=True):
        text = text[:at] + insert + text[at:]
    return text, added


# ---------------------------------------------------------------- the codes a noqa comment names


class NoqaComment(NamedTuple):
    """A ``# noqa: CODES`` comment: the lines it silences (its logical line, as flake8 maps noqa),
    where it is, and each code it names with that code's span in ``comment``."""

    first: int
    last: int
    line: int
    col: int  # where the comment token starts (code points)
    before: str  # the blanks between the code and the comment
    comment: str  # the comment token, trailing blanks left out
    codes: tuple[tuple[str, int, int], ...]


_code = lazy_regex(r"[A-Z]+[0-9]+", re.I)


def noqa_comments(text: str) -> list[NoqaComment]:
    """Each comment of ``text`` that names codes after ``noqa`` (a bare ``# noqa`` names none)."""
    if "noqa" not in text.lower():
        return []
    logical = _logical_lines(text)
    if logical is None:
        return []
    lines = split_lines(text)
    out: list[NoqaComment] = []
    for ll in logical:
        for tok in ll.comments:
            m = noqa_inline().search(tok.string)
            if m is None or m.group("codes") is None:
                continue
            line, col = tok.start
            head = lines[line - 1][:col]
            before = head[len(head.rstrip(" \t")):]
            codes = tuple((c.group(), c.start(), c.end())
                          for c in _code().finditer(tok.string, m.start("codes"), m.end("codes")))
            out.append(NoqaComment(ll.first, ll.last, line, col, before, tok.string.rstrip(), codes))
    return out


def without_codes(comment: NoqaComment, drop: Iterable[str]) -> str:
    """What ``comment.before + comment.comment`` becomes without the codes ``drop``: the comment with
    the others; with none left, the noqa directive removed (the whole comment if nothing else is in it)."""
    gone = set(drop)
    text = comment.comment
    m = noqa_inline().search(text)
    assert m is not None and m.group("codes") is not None
    kept = [c for c, _, _ in comment.codes if c not in gone]
    tail = text[m.end():]
    if kept:
        sep = " " if tail and m.group("codes")[-1].isspace() else ""
        return comment.before + text[: m.start("codes")] + ", ".join(kept) + sep + tail
    rest = (text[: m.start()] + tail).rstrip()
    if rest.strip(" \t#") == "":
        return ""
    return comment.before + (rest if rest.startswith("#") else "# " + rest.lstrip())
