"""Code point offsets <-> LSP positions (line, character in the negotiated code units)."""

from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

from iri_lint.lint import SourceFinding
from iri_lint.source.model import SourcePos

# LSP ends a line at \n, \r\n or \r only (not at \f, \v, U+2028 as str.splitlines does)
_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(text: str, encoding: str = UTF16) -> int:
    """Length of ``text`` in code units of ``encoding`` (a lone surrogate counts as one UTF-16 unit)."""
    if text.isascii() or encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return sum(1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4 for o in map(ord, text))
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


class LineIndex:
    """Offsets of LSP lines in one document text, for converting positions both ways."""

    __slots__ = ("_starts", "encoding", "text")

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        starts = [0]
        for m in _LSP_LINE.finditer(text):
            if m.group().endswith(("\n", "\r")):
                starts.append(m.end())
        self._starts = starts

    def position(self, offset: int) -> types.Position:
        """The LSP position of a code point offset into the text."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self._starts, offset) - 1
        start = self._starts[line]
        return types.Position(line=line, character=units(self.text[start:offset], self.encoding))

    def range(self, start: int, end: int) -> types.Range:
        """The LSP range of code point offsets [start, end)."""
        return types.Range(start=self.position(start), end=self.position(max(start, end)))

    def offset(self, pos: types.Position) -> int:
        """The code point offset of an LSP position (clamped to its line, as the spec says)."""
        if pos.line >= len(self._starts):
            return len(self.text)
        start = self._starts[pos.line]
        stop = self._starts[pos.line + 1] if pos.line + 1 < len(self._starts) else len(self.text)
        line = self.text[start:stop].rstrip("\r\n")
        if self.encoding == UTF32 or line.isascii():
            return start + min(pos.character, len(line))
        seen = 0
        for i, c in enumerate(line):
            if seen >= pos.character:
                return start + i
            seen += units(c, self.encoding)
        return start + len(line)


def source_offset(text: str, pos: SourcePos, finding: SourceFinding | None = None) -> int:
    """Absolute code point offset of a lint position (1-based line, code point column).

    Uses the literal's own line table when there is one, so that the result agrees with how
    the source layer numbered the lines, whatever characters it treats as line breaks.
    """
    if finding is not None and finding.literal.locator is not None:
        return finding.literal.locator.source.offset(pos.line, pos.col)
    lines = text.splitlines(keepends=True)
    return sum(len(s) for s in lines[: pos.line - 1]) + pos.col


def finding_offsets(text: str, finding: SourceFinding) -> tuple[int, int]:
    """Absolute code point offsets [start, end) of a finding."""
    start = source_offset(text, finding.start, finding)
    end = source_offset(text, finding.end, finding)
    return start, max(start, end)
