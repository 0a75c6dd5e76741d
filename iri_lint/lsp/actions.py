"""Source edits behind the code actions: a finding's fix, fix-all-safe, and ``# noqa`` comments.

Pure functions over document text (no LSP types), so they are tested without a server.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable

from iri_lint.config import Config
from iri_lint.fix import fix_text, source_edits
from iri_lint.lint import NOQA_INLINE, SourceFinding, lint_text
from iri_lint.source.edits import SourceEdit

NOQA = "noqa"  # spelled apart so linters do not read the template as a directive


def fix_edits(text: str, sf: SourceFinding) -> list[SourceEdit] | None:
    """The verified source edits of ``sf``'s fix (shared with ``iri-lint fix``); None if it has none."""
    got = source_edits(text, sf)
    return None if isinstance(got, str) else got


def fix_all(text: str, lint: Callable[[str], list[SourceFinding]], *, unsafe: bool = False) -> str:
    """``text`` with every safe fix (all fixes with ``unsafe``) applied, exactly as ``iri-lint fix`` does."""
    return fix_text(text, lint, unsafe=unsafe).text


def fix_all_safe(text: str, config: Config, path: str | None = None) -> str:
    """``text`` with every safe fix applied."""
    return fix_all(text, lambda t: lint_text(t, config, path=path))


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


def noqa_edit(text: str, offset: int, code: str) -> SourceEdit | None:
    """Silence ``code`` on the logical line holding ``offset``: add ``# noqa: CODE`` or merge into one.

    The comment goes after the last token of the logical line (flake8 reads noqa comments anywhere in
    the logical line), so it never lands inside a multi-line string. None: already silenced, or the
    text does not tokenize.
    """
    line_starts = [0]
    for line in io.StringIO(text):
        line_starts.append(line_starts[-1] + len(line))

    def at(rc: tuple[int, int]) -> int:
        return line_starts[min(rc[0] - 1, len(line_starts) - 1)] + rc[1]

    tokens: list[tokenize.TokenInfo] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.ERRORTOKEN:
                return None  # e.g. an unterminated string: no safe place for a comment
            if tok.type == tokenize.NEWLINE or tok.type == tokenize.ENDMARKER:
                if tokens and at(tokens[0].start) <= offset <= at(tok.start):
                    return _noqa_in(tokens, at, code)
                tokens = []
            elif tok.type in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
                continue
            else:
                tokens.append(tok)
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _noqa_in(tokens: list[tokenize.TokenInfo], at: Callable[[tuple[int, int]], int], code: str) -> SourceEdit | None:
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        m = NOQA_INLINE.search(tok.string)
        if m is None:
            continue
        codes = m.group("codes")
        if codes is None:
            return None  # a bare noqa comment silences everything already
        listed = codes.rstrip(", \t")
        if code in {c for c in listed.replace(",", " ").split()}:
            return None
        insert = at(tok.start) + m.start("codes") + len(listed)
        return SourceEdit(insert, insert, f", {code}")
    last = tokens[-1]
    end = at(last.start) + len(last.string.rstrip()) if last.type == tokenize.COMMENT else at(last.end)
    return SourceEdit(end, end, f"  # {NOQA}: {code}")
