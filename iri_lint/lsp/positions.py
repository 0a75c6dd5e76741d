"""Code point offsets and lint positions <-> LSP positions, through pygls' ``PositionCodec``.

pygls counts the client's code units (UTF-8, UTF-16 or UTF-32, whichever was negotiated) and turns
a (line, code point) position into client units and back. The lines are ours: LSP ends a line at
``\\n``, ``\\r\\n`` or ``\\r`` only, as Python's tokenizer does (so a lint line is an LSP line), where
pygls' ``TextDocument.lines`` (``str.splitlines``) also ends one at ``\\f``, ``\\v``, ``\\x1c``-``\\x1e``,
``\\x85``, U+2028 and U+2029.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache
from itertools import accumulate

from lsprotocol import types
from pygls.workspace import PositionCodec, ServerTextPosition

from iri_lint.lint import SourceFinding
from iri_lint.source.locate import split_lines
from iri_lint.source.model import SourcePos

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
_BREAK = re.compile(r"\r\n|\r|\n")


@cache
def codec(encoding: str = UTF16) -> PositionCodec:
    """pygls' codec for an encoding (UTF-16, the LSP default, for one pygls does not know)."""
    return PositionCodec(encoding)


def units(text: str, encoding: str = UTF16) -> int:
    """Length of ``text`` in code units of ``encoding`` (a lone surrogate counts as one UTF-16 unit)."""
    return len(text) if text.isascii() else int(codec(encoding).client_num_units(text))


class LineIndex:
    """Where the LSP lines of one text start, for converting positions both ways."""

    __slots__ = ("_starts", "codec", "text")

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.codec = codec(encoding)
        if "\r" in text:
            self._starts = [0, *(m.end() for m in _BREAK.finditer(text))]
        else:  # (the same, a few times faster: a long file is indexed on every version)
            self._starts = list(accumulate(map((1).__add__, map(len, text.split("\n")[:-1])), initial=0))

    @property
    def lines(self) -> int:
        return len(self._starts)

    def line_text(self, line: int) -> str:
        """Line ``line`` (0-based) without its line break."""
        start = self._starts[line]
        stop = self._starts[line + 1] if line + 1 < len(self._starts) else len(self.text)
        return self.text[start:stop].rstrip("\r\n")

    def _client(self, line: int, col: int) -> types.Position:
        text = self.line_text(line) if line < len(self._starts) else ""
        col = min(col, len(text))
        if text[:col].isascii():
            return types.Position(line=line, character=col)
        client = self.codec.position_to_client_units([text], ServerTextPosition(0, col))
        return types.Position(line=line, character=client.character)

    def position(self, offset: int) -> types.Position:
        """The LSP position of a code point offset into the text."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self._starts, offset) - 1
        return self._client(line, offset - self._starts[line])

    def at(self, pos: SourcePos) -> types.Position:
        """The LSP position of a lint position (1-based line, code point column)."""
        line = max(pos.line - 1, 0)
        if line >= len(self._starts):
            return self.position(len(self.text))
        bom = 1 if line == 0 and self.text.startswith("\ufeff") else 0  # lint columns leave a BOM out
        return self._client(line, pos.col + bom)

    def range(self, start: int, end: int) -> types.Range:
        """The LSP range of code point offsets [start, end)."""
        return types.Range(start=self.position(start), end=self.position(max(start, end)))

    def offset(self, pos: types.Position) -> int:
        """The code point offset of an LSP position (clamped to its line, as the spec says)."""
        if pos.line >= len(self._starts):
            return len(self.text)
        start = self._starts[pos.line]
        text = self.line_text(pos.line)
        if text.isascii() or pos.character >= self.codec.client_num_units(text):
            return start + min(pos.character, len(text))
        # (pygls clamps a character past the line to one before its end, and in the Position given)
        server = self.codec.position_from_client_units([text], types.Position(line=0, character=pos.character))
        return start + server.character


def source_offset(text: str, pos: SourcePos, finding: SourceFinding | None = None) -> int:
    """Absolute code point offset of a lint position (1-based line, code point column).

    Uses the literal's own line table when there is one, so that the result agrees with how
    the source layer numbered the lines, whatever characters it treats as line breaks.
    """
    if finding is not None and finding.literal.locator is not None:
        return finding.literal.locator.source.offset(pos.line, pos.col)
    lines = split_lines(text)
    return sum(len(s) for s in lines[: pos.line - 1]) + pos.col


def finding_offsets(text: str, finding: SourceFinding) -> tuple[int, int]:
    """Absolute code point offsets [start, end) of a finding."""
    start = source_offset(text, finding.start, finding)
    end = source_offset(text, finding.end, finding)
    return start, max(start, end)
