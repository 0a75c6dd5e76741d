"""Source edits behind the code actions: a finding's fix, fix-all-safe, and ``# noqa`` comments.

Pure functions over document text (no LSP types), so they are tested without a server.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from iri_lint.fix import fix_text, source_edits
from iri_lint.lint import SourceFinding
from iri_lint.noqa import add_noqa, lines_around, noqa_lines
from iri_lint.source.edits import SourceEdit
from iri_lint.source.locate import split_lines


def fix_edits(text: str, sf: SourceFinding) -> list[SourceEdit] | None:
    """The verified source edits of ``sf``'s fix (shared with ``iri-lint fix``); None if it has none."""
    got = source_edits(text, sf)
    return None if isinstance(got, str) else got


def fix_all(text: str, lint: Callable[[str], list[SourceFinding]], *, unsafe: bool = False) -> str:
    """``text`` with every safe fix (all fixes with ``unsafe``) applied, exactly as ``iri-lint fix`` does."""
    return fix_text(text, lint, unsafe=unsafe).text


def minimal_edit(old: str, new: str) -> SourceEdit | None:
    """One edit turning ``old`` into ``new``: the span between their common prefix and suffix."""
    if old == new:
        return None
    limit = min(len(old), len(new))
    p = 0
    while p < limit and old[p] == new[p]:
        p += 1
    s = 0
    while s < limit - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    return SourceEdit(p, len(old) - s, new[p : len(new) - s])


def noqa_edit(text: str, offset: int, code: str, statement: tuple[int, int] | None = None) -> SourceEdit | None:
    """Silence ``code`` where flake8 will see it (the shared ``--add-noqa`` logic); None if nothing to add.

    ``statement``: the lines of the top-level statement holding ``offset``, when known; then only its
    lines are tokenized (they hold the whole logical line, as they hold its noqa comment for the lint).
    """
    line = text.count("\n", 0, offset) + 1  # tokenize's line numbers
    if statement is not None and "\r" not in text:  # (a lone CR would number lines differently)
        lines = split_lines(text)
        first, last = statement
        while last < len(lines) and lines[last - 1].rstrip("\n").endswith("\\"):
            last += 1  # a backslash carries the logical line on
        if first <= line <= last:
            piece = "".join(lines[first - 1 : last])
            new, added = add_noqa(piece, [(line - first + 1, 0, code)])
            edit = minimal_edit(piece, new) if added else None
            if edit is not None or noqa_lines(piece):  # (it tokenizes: nothing to add, truly)
                start = sum(len(x) for x in lines[: first - 1])
                return None if edit is None else SourceEdit(edit.start + start, edit.end + start, edit.new)
    new, added = add_noqa(text, [(line, 0, code)])
    if not added and statement is None and not noqa_lines(text):  # the tokenize module rejects the whole text:
        lines = split_lines(text)
        try:  # the statement around the line, as the lint reads its noqa comments then (noqa_lines_around)
            around = lines_around(ast.parse(text), lines, line)
        except (SyntaxError, ValueError):
            return None
        return noqa_edit(text, offset, code, around) if around != (1, len(lines)) else None
    return minimal_edit(text, new) if added else None
