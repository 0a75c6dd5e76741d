"""Turn an edit of a literal's checked value into minimal source edits, and verify them."""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import NamedTuple

from iri_lint.core.chars import pct_encode
from iri_lint.source.decode import Decoded
from iri_lint.source.locate import Locator, SourceFile, SourceMap, expected_value, split_lines
from iri_lint.source.model import Literal
from iri_lint.source.templates import apply_templates

Hold = Callable[[str], bool]  # whether the file's encoding can hold a text

_SHORT_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class SourceEdit(NamedTuple):
    """Replace ``text[start:end]`` of the file (absolute code point offsets) by ``new``."""

    start: int
    end: int
    new: str


class Refusal(NamedTuple):
    """Why a value edit cannot be written into this literal's source."""

    reason: str


def edit_literal(
    lit: Literal, start: int, end: int, replacement: str, hold: Hold | None = None
) -> list[SourceEdit] | Refusal:
    """Source edits that change ``lit.value[start:end]`` to ``replacement`` and nothing else; ``hold``: whether
    the file's encoding holds a character (one it does not is written as an escape where the literal has them)."""
    loc = lit.locator
    if loc is None:
        return Refusal("literal has no source locator")
    sm = loc.source_map()
    if sm is None:
        return Refusal("the literal's source does not match its value")
    if not 0 <= start <= end <= len(lit.value):
        return Refusal("edit out of range")
    for a, b in lit.holes:
        overlaps = a < end and start < b if end > start else a < start < b
        if overlaps:
            return Refusal("edit touches a template placeholder")
    raw = _raw_range(loc, start, end)
    if loc.percent_escapes:
        replacement = replacement.replace("%", "%%")
    if loc.format_template:
        replacement = replacement.replace("{", "{{").replace("}", "}}")
    return _source_edits(sm, raw[0], raw[1], replacement, hold)


def _raw_range(loc: Locator, start: int, end: int) -> tuple[int, int]:
    """Decoded-value range of a checked-value range: a template's ``%%`` or ``{{`` in it is replaced whole, as
    the replacement is escaped again (``%2f`` -> ``%2F`` writes ``%%2F`` over ``%%2f``)."""
    return loc.raw_index(start), loc.raw_index(end)


def _source_edits(sm: SourceMap, rs: int, re_: int, replacement: str,
                  hold: Hold | None = None) -> list[SourceEdit] | Refusal:
    if rs == re_:
        if not sm.pieces:
            return Refusal("no string token")
        k = sm.piece_at(rs) if rs < len(sm.starts) else len(sm.pieces) - 1
        piece = sm.pieces[k]
        at = sm.start_of(rs) if rs < len(sm.starts) else piece.body_end
        return _one(piece, at, at, replacement, hold)
    # split by piece; equal lengths keep characters aligned with their pieces
    groups: list[tuple[int, int, int]] = []  # piece, raw start, raw end
    i = rs
    while i < re_:
        k = sm.piece_at(i)
        b = min(re_, sm.piece_starts[k] + len(sm.pieces[k].starts))
        groups.append((k, i, b))
        i = b
    edits: list[SourceEdit] = []
    pos = 0
    each = _encoded_each(sm.value[rs:re_], replacement) if len(groups) > 1 else None
    for n, (k, a, b) in enumerate(groups):
        if len(replacement) == re_ - rs:
            part = replacement[pos : pos + b - a]
            pos += b - a
        elif each is not None:  # (each piece's characters encoded in that piece: "/a|" "|b" -> "/a%7C" "%7Cb")
            part = "".join(each[a - rs : b - rs])
        else:
            part = replacement if n == 0 else ""
        result = _one(sm.pieces[k], sm.starts[a], sm.ends[b - 1], part, hold)
        if isinstance(result, Refusal):
            return result
        edits.extend(result)
    return edits


def _encoded_each(original: str, replacement: str) -> list[str] | None:
    """Each character's percent-encoding, when ``replacement`` is ``original`` encoded character by character."""
    try:
        each = [pct_encode(c) for c in original]
    except UnicodeEncodeError:  # (a lone surrogate has no UTF-8: no such replacement)
        return None
    return each if "".join(each) == replacement else None


def _one(piece: Decoded, a: int, b: int, text: str, hold: Hold | None = None) -> list[SourceEdit] | Refusal:
    escaped = escape_for(piece, text, hold)
    if isinstance(escaped, Refusal):
        return escaped
    return [SourceEdit(a, b, escaped)]


def escape_for(piece: Decoded, text: str, hold: Hold | None = None) -> str | Refusal:
    """Write ``text`` as source for the body of ``piece`` (its quote, prefix and kind); a character the file's
    encoding cannot hold (``hold``) as an escape, as a non-printable one is (``\u1e69`` in a latin-1 file)."""
    q = piece.quote[0]
    triple = len(piece.quote) == 3
    if _as_is(piece, text, q) and (hold is None or text.isascii() or hold(text)):  # (the common case)
        out = text
    elif piece.is_raw:
        for c in text:
            if c == q or c == "\\" or (c in "\r\n" and not triple) or not c.isprintable():
                return Refusal(f"a raw string cannot hold {c!r}")
            if piece.is_bytes and ord(c) > 0x7F:
                return Refusal(f"a raw bytes literal cannot hold {c!r}")
        out = text
    else:
        parts = []
        for c in text:
            if c in _SHORT_ESCAPES:
                parts.append(_SHORT_ESCAPES[c])
            elif c == q:
                parts.append("\\" + c)
            elif piece.is_bytes and ord(c) > 0x7F:
                if ord(c) > 0xFF:
                    return Refusal(f"a bytes literal cannot hold {c!r}")
                parts.append(f"\\x{ord(c):02x}")
            elif not c.isprintable() or (hold is not None and not c.isascii() and not hold(c)):
                o = ord(c)
                parts.append(
                    f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"
                )
            else:
                parts.append(c)
        out = "".join(parts)
    if piece.is_fstring:
        out = out.replace("{", "{{").replace("}", "}}")
    return out


def _as_is(piece: Decoded, text: str, q: str) -> bool:
    """Whether ``text`` needs no escape in ``piece`` (so both branches of escape_for keep it)."""
    return (text.isprintable() and q not in text and "\\" not in text
            and (text.isascii() or not piece.is_bytes))


def apply_edits(text: str, edits: Sequence[SourceEdit]) -> str:
    """Apply non-overlapping source edits to the file text (one pass over it: linear in its length)."""
    out: list[str] = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        out.append(text[pos : e.start])
        out.append(e.new)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


class LiteralEdit(NamedTuple):
    """The source edits of one literal, and the checked value re-parsing must find there afterwards."""

    literal: Literal
    edits: Sequence[SourceEdit]
    expected: str


class Shift:
    """Where an offset of a text is once ``edits`` are applied (no edit may straddle the offset)."""

    __slots__ = ("_deltas", "_starts")

    def __init__(self, edits: Sequence[SourceEdit]) -> None:
        ordered = sorted(edits, key=lambda e: (e.start, e.end))
        self._starts = [e.start for e in ordered]
        self._deltas = list(accumulate((len(e.new) - (e.end - e.start) for e in ordered), initial=0))

    def __call__(self, offset: int) -> int:
        return offset + self._deltas[bisect_left(self._starts, offset)]


def verify_edit(old_text: str, new_text: str, lit: Literal, expected: str) -> bool:
    """Re-parse ``new_text`` (``old_text`` with edits inside this literal's tokens only) and check the
    literal's checked value is exactly ``expected``: :func:`verify_edits` for one literal."""
    sm = lit.locator.source_map() if lit.locator is not None else None
    if sm is None:
        return False
    whole = SourceEdit(sm.start, sm.end, new_text[sm.start : sm.end + len(new_text) - len(old_text)])
    verdicts = verify_edits(old_text, new_text, [LiteralEdit(lit, [whole], expected)])
    return verdicts is not None and verdicts[0]


def verify_edits(old_text: str, new_text: str, planned: Sequence[LiteralEdit]) -> list[bool] | None:
    """One re-parse of ``new_text`` (``old_text`` with every planned edit applied) for all of them.

    For each literal: its checked value in ``new_text`` is exactly ``expected``, and its edits lie
    inside its tokens. The text outside the edited literals must be unchanged, else every verdict is
    False. None when ``new_text`` does not parse (a bisection can then find the edit at fault).
    """
    try:
        tree = ast.parse(new_text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    maps = [p.literal.locator.source_map() if p.literal.locator is not None else None for p in planned]
    spans = [(sm.start, sm.end) for sm in maps if sm is not None]
    shift = Shift([e for p in planned for e in p.edits])
    if not _same_outside(old_text, new_text, spans, shift):
        return [False] * len(planned)
    want: dict[int, int] = {}  # new start offset -> index in planned
    for k, (p, sm) in enumerate(zip(planned, maps, strict=True)):
        if sm is not None and all(sm.start <= e.start <= e.end <= sm.end for e in p.edits):
            want[shift(sm.start)] = k
    found = _nodes_at(tree, new_text, want)
    return [k in found and _checked_value(found[k], p.literal) == p.expected for k, p in enumerate(planned)]


def _nodes_at(tree: ast.AST, text: str, want: dict[int, int]) -> dict[int, ast.expr]:
    """The outermost string node (first met, as ``ast.walk`` goes) starting at each wanted offset."""
    source = SourceFile(split_lines(text))
    lines = {source.position(offset).line for offset in want}
    found: dict[int, ast.expr] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and node.lineno in lines:
            k = want.get(source.offset(node.lineno, source.char_col(node.lineno, node.col_offset)))
            if k is not None and k not in found:
                found[k] = node
                if len(found) == len(want):
                    break
    return found


def _checked_value(node: ast.expr, lit: Literal) -> str | None:
    """The node's value as the scanner checks it: fields as HOLE, then the literal's templates."""
    raw = expected_value(node)
    if raw is None or lit.locator is None:
        return None
    loc = lit.locator
    return apply_templates(raw, field_holes(node), percent_template=loc.percent_template,
                           format_template=loc.format_template).value


def field_holes(node: ast.AST) -> list[tuple[int, int]]:
    """The decoded value's f-string replacement fields (one character each)."""
    holes: list[tuple[int, int]] = []
    if isinstance(node, ast.JoinedStr):
        n = 0
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                n += len(part.value)
            else:
                holes.append((n, n + 1))
                n += 1
    return holes


def _same_outside(old_text: str, new_text: str, spans: list[tuple[int, int]], shift: Shift) -> bool:
    """The text outside the edited literals' spans is unchanged (spans may nest: f-string fields)."""
    pos = 0
    for start, end in sorted(spans):
        if start >= pos:
            if new_text[shift(pos) : shift(start)] != old_text[pos:start]:
                return False
        pos = max(pos, end)
    return new_text[shift(pos) :] == old_text[pos:] if pos <= len(old_text) else False
