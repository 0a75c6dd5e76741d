"""Find a literal's string tokens from its ast node and map value offsets to source positions."""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from itertools import accumulate
from typing import NamedTuple

from iri_lint.source.decode import Decoded, DecodeError, Offsets, decode_string
from iri_lint.source.model import HOLE, Literal, SourcePos

_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_GAP = re.compile(r"(?:[ \t\f\r\n\\()]++|#[^\r\n]*+)*+")


class LocateError(ValueError):
    """The source text does not hold the literal the ast node describes."""


# what str.splitlines also ends a line at, and Python does not (a form feed is whitespace to the tokenizer)
_OTHER_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def split_lines(text: str) -> list[str]:
    """Split like Python's tokenizer (only \\n, \\r\\n, \\r end a line), keeping the endings: with
    ``str.splitlines`` when the text holds none of the other characters it ends a line at (a third of the
    regex's time, for nearly every file)."""
    for c in _OTHER_BREAKS:
        if c in text:
            return _LINE_RE.findall(text)
    return text.splitlines(True)


class SourceFile:
    """The lines of one file, with lazily built offset tables (built only when a finding needs them)."""

    __slots__ = ("_cols", "_offsets", "_text", "bom", "lines")

    def __init__(self, lines: list[str], text: str | None = None) -> None:
        self.lines = lines
        self.bom = bool(lines) and lines[0].startswith("\ufeff")
        self._offsets: list[int] | None = None
        self._text: str | None = text  # (when the caller has it: the lines joined)
        # non-ASCII line -> (its UTF-8 bytes, byte columns seen, their code point columns)
        self._cols: dict[int, tuple[bytes, list[int], list[int]]] = {}

    @property
    def text(self) -> str:
        """The whole file text (lines joined; a BOM, if present in the lines, is kept)."""
        if self._text is None:
            self._text = "".join(self.lines)
        return self._text

    @property
    def line_offsets(self) -> list[int]:
        """Absolute offset of the start of each line (index 0 is line 1)."""
        if self._offsets is None:
            self._offsets = [0, *accumulate(map(len, self.lines))]
        return self._offsets

    def char_col(self, line: int, byte_col: int) -> int:
        """Convert an ast UTF-8 byte column on a 1-based line to a code point column.

        A long line holding many literals is decoded once, piece by piece from the nearest column
        already converted (not from its start for every literal).
        """
        known = self._cols.get(line)
        if known is None:
            text = self.line_text(line)
            if text.isascii():
                return byte_col
            known = self._cols[line] = (text.encode("utf-8"), [0], [0])
        data, bcols, ccols = known
        k = bisect_right(bcols, byte_col) - 1
        col = ccols[k] + len(data[bcols[k] : byte_col].decode("utf-8", errors="ignore"))
        if bcols[k] != byte_col and (byte_col >= len(data) or data[byte_col] & 0xC0 != 0x80):
            bcols.insert(k + 1, byte_col)  # (only at a character boundary)
            ccols.insert(k + 1, col)
        return col

    def offset(self, line: int, col: int) -> int:
        """Absolute offset of a (1-based line, code point column) position."""
        base = self.line_offsets[line - 1]
        return base + col + (1 if line == 1 and self.bom else 0)

    def position(self, offset: int) -> SourcePos:
        """The (line, column) of an absolute offset; never line 0."""
        offsets = self.line_offsets
        k = max(bisect_right(offsets, offset) - 1, 0)
        k = min(k, max(len(self.lines) - 1, 0))
        col = offset - offsets[k]
        if k == 0 and self.bom:
            col = max(col - 1, 0)
        return SourcePos(k + 1, col)

    def line_text(self, line: int) -> str:
        """Line ``line`` (1-based) as the columns count it: without a BOM."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return text[1:] if line == 1 and self.bom else text


class SourceMap(NamedTuple):
    """A literal's tokens and, per decoded value character, its absolute source span."""

    value: str  # decoded value; f-string replacement fields are HOLE
    starts: Offsets
    ends: Offsets
    pieces: list[Decoded]  # offsets in these are absolute too
    piece_starts: list[int]  # value index where each piece begins
    holes: list[tuple[int, int]]  # f-string replacement fields (value spans)
    start: int  # absolute offset of the first token
    end: int  # absolute offset just past the last token

    def piece_at(self, i: int) -> int:
        """Index of the piece that spells value character ``i``."""
        return bisect_right(self.piece_starts, i) - 1

    def start_of(self, i: int) -> int:
        """Absolute offset where value index ``i`` starts (``len(value)`` -> after the last char)."""
        if i < len(self.starts):
            return self.starts[i]
        if self.ends:
            return self.ends[-1]
        return self.pieces[0].body_start if self.pieces else self.start


def expected_value(node: ast.expr) -> str | None:
    """The value the decoder must reproduce for a Constant/JoinedStr node (fields as HOLE)."""
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, str):
            return v
        if isinstance(v, bytes):
            return v.decode("latin-1")
        return None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                parts.append(part.value)
            else:
                parts.append(HOLE)
        return "".join(parts)
    return None


def locate(node: ast.expr, source: SourceFile) -> SourceMap:
    """Find and decode the string token(s) of a Constant/JoinedStr node."""
    if node.end_lineno is None or node.end_col_offset is None:
        raise LocateError("node has no end position")
    start = source.offset(node.lineno, source.char_col(node.lineno, node.col_offset))
    end = source.offset(node.end_lineno, source.char_col(node.end_lineno, node.end_col_offset))
    text = source.text
    pieces: list[Decoded] = []
    i = start
    try:
        while True:
            i = _skip_gap(text, i, end)
            if i >= end:
                break
            d = decode_string(text, i)
            pieces.append(d)
            i = d.end
    except DecodeError as exc:
        raise LocateError(str(exc)) from exc
    if not pieces:
        raise LocateError("no string token in the node's span")
    if len(pieces) == 1:  # (most literals)
        d = pieces[0]
        value, starts, ends, piece_starts, holes = d.value, d.starts, d.ends, [0], list(d.holes)
    else:
        piece_starts = []
        holes = []
        n = 0
        for d in pieces:
            piece_starts.append(n)
            holes.extend((a + n, b + n) for a, b in d.holes)
            n += len(d.starts)
        value = "".join(d.value for d in pieces)
        starts = Offsets.join([d.starts for d in pieces])
        ends = Offsets.join([d.starts for d in pieces], shift=1)
    if value != expected_value(node):
        raise LocateError("decoded tokens do not match the node's value")
    return SourceMap(value, starts, ends, pieces, piece_starts, holes, pieces[0].token_start, i)


def piece_ends_at(node: ast.expr, source: SourceFile, i: int) -> bool:
    """Whether an implicit concatenation's piece ends with decoded value character ``i`` (``"a " "b"``)."""
    try:
        sm = locate(node, source)
    except LocateError:
        return False
    return i + 1 < len(sm.value) and sm.piece_at(i) != sm.piece_at(i + 1)


def _skip_gap(text: str, i: int, end: int) -> int:
    """Skip whitespace, comments and line continuations between implicitly joined pieces.

    (Parentheses too: a parenthesised piece inside the span.)
    """
    return _GAP.match(text, i, end).end() if i < end else i  # type: ignore[union-attr]


class Locator:
    """Lazily maps offsets of a literal's checked value to source positions and file offsets."""

    __slots__ = (
        "_failed",
        "_map",
        "format_template",
        "index_map",
        "node",
        "percent_escapes",
        "percent_template",
        "source",
    )

    def __init__(
        self,
        node: ast.expr,
        source: SourceFile,
        index_map: list[int] | None = None,
        *,
        percent_template: bool = False,
        format_template: bool = False,
        percent_escapes: bool = False,
    ) -> None:
        self.node = node
        self.source = source
        # checked-value index -> decoded-value index (templates collapse placeholders to HOLE)
        self.index_map = index_map
        self.percent_template = percent_template  # how the checked value was derived
        self.percent_escapes = percent_template or percent_escapes  # its '%%' is one '%' (a printf template's)
        self.format_template = format_template
        self._map: SourceMap | None = None
        self._failed = False

    def source_map(self) -> SourceMap | None:
        """The decoded tokens, or None if the source does not match the tree."""
        if self._map is None and not self._failed:
            try:
                self._map = locate(self.node, self.source)
            except LocateError:
                self._failed = True
        return self._map

    def raw_index(self, i: int) -> int:
        """Decoded-value index of checked-value index ``i``."""
        m = self.index_map
        if m is None:
            return i
        return m[min(max(i, 0), len(m) - 1)]

    def offset(self, i: int) -> int:
        """Absolute file offset of checked-value index ``i``."""
        sm = self.source_map()
        if sm is None:
            return self._fallback_offset()
        return sm.start_of(self.raw_index(i))

    def position(self, i: int) -> SourcePos:
        """Source (line, column) of checked-value index ``i``."""
        return self.source.position(self.offset(i))

    def _fallback_offset(self) -> int:
        node = self.node
        return self.source.offset(node.lineno, self.source.char_col(node.lineno, node.col_offset))


class PartLocator(Locator):
    """Maps the offsets of a part of a literal's checked value (one IRI of a list of them, one found in
    prose) through the whole literal's locator. A part is never edited: a fix is proven against the
    whole literal's value."""

    __slots__ = ("base", "parent", "sub_map")

    def __init__(self, parent: Locator, base: int, sub_map: list[int] | None = None) -> None:
        super().__init__(parent.node, parent.source)
        self.parent = parent
        self.base = base  # whole-value offset of the part's first character
        self.sub_map = sub_map  # part offset -> offset in the whole value's text (templates)

    def source_map(self) -> SourceMap | None:
        """None: fixes are refused."""
        return None

    def offset(self, i: int) -> int:
        """Absolute file offset of part offset ``i``."""
        m = self.sub_map
        if m is not None:
            i = m[min(max(i, 0), len(m) - 1)]
        return self.parent.offset(self.base + i)


ELIDED = "{…}"  # a hole whose source is not one piece of the literal (a value assembled from pieces)
MAX_WRITTEN = 200  # characters of one hole's source shown in reports (a field may hold a long expression)


def written_holes(literal: Literal) -> tuple[tuple[int, int, str], ...]:
    """Where the literal's checked value holds a hole, ``(start, end, text)``: the source text the hole
    stands for (a formatting field ``{user}``, a placeholder ``%s`` or ``{id}``), so that reports show the
    value as written rather than the ``HOLE`` it was checked with; ``ELIDED`` when no source is at hand.
    The decoder's spans say where each decoded character is spelled: a field's HOLE spans the whole
    ``{...}``, a placeholder the characters it collapsed (``index_map``); a value assembled from pieces names
    its placeholders (``Literal.placeholders``)."""
    locator = literal.locator
    sm = locator.source_map() if locator is not None else None
    placeholders = dict(literal.placeholders)
    out = []
    for a, b in literal.holes:
        written = placeholders.get(a, ELIDED)
        if sm is not None and locator is not None:
            first = locator.raw_index(a)
            after = locator.raw_index(b) if b < len(literal.value) else len(sm.value)
            if first < after <= len(sm.ends):
                source = locator.source.text[sm.starts[first] : sm.ends[after - 1]]
                if source and "\n" not in source:
                    written = source if len(source) <= MAX_WRITTEN else source[:MAX_WRITTEN] + "…"
        out.append((a, b, written))
    return tuple(out)


def written_within(node: ast.AST | None, expr: ast.expr) -> bool:
    """Whether ``node`` is written within ``expr`` (by position: both of one file)."""
    if node is None or not hasattr(node, "lineno"):
        return False
    return (node.lineno, node.col_offset) >= (expr.lineno, expr.col_offset) and (  # type: ignore[attr-defined]
        node.end_lineno or 0, node.end_col_offset or 0) <= (expr.end_lineno or 0, expr.end_col_offset or 0)  # type: ignore[attr-defined]
