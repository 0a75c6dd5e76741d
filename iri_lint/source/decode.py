"""Decode one Python string token into its value and a map from value index to source offset."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from iri_lint.source.model import HOLE

_PREFIX_CHARS = frozenset("rRbBuUfF")
_SIMPLE_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")
# Characters that end a run of plain characters, per string kind (quote is added per token).
_SPECIAL = {
    (False, False): "\\\r\n",
    (True, False): "\\\r\n",  # raw: a backslash still protects the next character from closing
    (False, True): "\\\r\n{}",
    (True, True): "\\\r\n{}",
}


class DecodeError(ValueError):
    """The text at the given offset is not a well-formed string token."""


@dataclass(slots=True)
class Decoded:
    """A decoded string token: value plus, per value character, its source span."""

    value: str
    starts: list[int]  # source offset where each value character's representation starts
    ends: list[int]  # source offset just past it
    token_start: int  # offset of the first prefix letter (or quote)
    body_start: int  # offset just past the opening quote(s)
    body_end: int  # offset of the closing quote(s)
    end: int  # offset just past the closing quote(s)
    prefix: str  # as written
    quote: str  # ', ", ''' or \"\"\"
    holes: list[tuple[int, int]] = field(default_factory=list)  # f-string replacement fields

    @property
    def is_raw(self) -> bool:
        """Whether backslashes are literal."""
        return "r" in self.prefix.lower()

    @property
    def is_bytes(self) -> bool:
        """Whether this is a bytes literal (value holds one char per byte, latin-1)."""
        return "b" in self.prefix.lower()

    @property
    def is_fstring(self) -> bool:
        """Whether this is an f-string."""
        return "f" in self.prefix.lower()


def decode_string(src: str, pos: int = 0) -> Decoded:
    """Decode the string token starting at ``src[pos]`` (prefix letters or quote)."""
    i = pos
    n = len(src)
    while i < n and src[i] in _PREFIX_CHARS:
        i += 1
    prefix = src[pos:i]
    if i >= n or src[i] not in "'\"":
        raise DecodeError(f"no string token at offset {pos}")
    q = src[i]
    quote = q * 3 if src.startswith(q * 3, i) else q
    body_start = i + len(quote)
    low = prefix.lower()
    raw, fstr, byt = "r" in low, "f" in low, "b" in low
    out = _Builder()
    special = re.compile("[" + re.escape(_SPECIAL[(raw, fstr)] + q) + "]")
    j = body_start
    while True:
        m = special.search(src, j)
        if m is None:
            raise DecodeError("unterminated string")
        k = m.start()
        if k > j:
            out.run(src, j, k)
        c = src[k]
        if c == q:
            if len(quote) == 1 or src.startswith(quote, k):
                body_end = k
                break
            out.add(c, k, k + 1)
            j = k + 1
        elif c == "\r" or c == "\n":
            if len(quote) == 1:
                raise DecodeError("newline in single-quoted string")
            e = k + 2 if src.startswith("\r\n", k) else k + 1
            out.add("\n", k, e)
            j = e
        elif c == "\\":
            j = _escape(src, k, raw, byt, out)
        elif c == "{":
            if src.startswith("{{", k):
                out.add("{", k, k + 2)
                j = k + 2
            else:
                j = _field(src, k, out)
        else:  # "}"
            e = k + 2 if src.startswith("}}", k) else k + 1
            out.add("}", k, e)
            j = e
    return Decoded(
        value="".join(out.chars),
        starts=out.starts,
        ends=out.ends,
        token_start=pos,
        body_start=body_start,
        body_end=body_end,
        end=body_end + len(quote),
        prefix=prefix,
        quote=quote,
        holes=out.holes,
    )


class _Builder:
    """Accumulates value characters with their source spans."""

    __slots__ = ("chars", "ends", "holes", "starts")

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.holes: list[tuple[int, int]] = []

    def run(self, src: str, a: int, b: int) -> None:
        self.chars.append(src[a:b])
        # chars holds strings of any length; starts/ends are per value character
        self.starts.extend(range(a, b))
        self.ends.extend(range(a + 1, b + 1))

    def add(self, ch: str, a: int, b: int) -> None:
        self.chars.append(ch)
        self.starts.append(a)
        self.ends.append(b)


def _escape(src: str, k: int, raw: bool, byt: bool, out: _Builder) -> int:
    """Handle the backslash at ``src[k]``; return the offset after the escape."""
    nxt = src[k + 1] if k + 1 < len(src) else ""
    if nxt in ("\n", "\r"):
        e = k + 3 if src.startswith("\r\n", k + 1) else k + 2
        if raw:  # kept verbatim, newline normalised
            out.add("\\", k, k + 1)
            out.add("\n", k + 1, e)
        return e  # line continuation: produces nothing
    if raw:
        # the backslash and the next character are both literal (the quote does not close)
        out.add("\\", k, k + 1)
        if nxt in "'\"\\":
            out.add(nxt, k + 1, k + 2)
            return k + 2
        return k + 1
    simple = _SIMPLE_ESCAPES.get(nxt)
    if simple is not None:
        out.add(simple, k, k + 2)
        return k + 2
    if nxt in _OCTAL:
        e = k + 2
        while e < k + 4 and e < len(src) and src[e] in _OCTAL:
            e += 1
        code = int(src[k + 1 : e], 8)
        out.add(chr(code & 0xFF if byt else code), k, e)
        return e
    width = {"x": 2, "u": 4, "U": 8}.get(nxt, 0)
    if width and (nxt == "x" or not byt):
        digits = src[k + 2 : k + 2 + width]
        if len(digits) != width or not all(d in _HEX for d in digits):
            raise DecodeError(f"truncated \\{nxt} escape at {k}")
        out.add(chr(int(digits, 16)), k, k + 2 + width)
        return k + 2 + width
    if nxt == "N" and not byt and src.startswith("{", k + 2):
        close = src.find("}", k + 3)
        if close < 0:
            raise DecodeError(f"malformed \\N escape at {k}")
        try:
            ch = unicodedata.lookup(src[k + 3 : close])
        except KeyError as exc:
            raise DecodeError(f"unknown character name at {k}") from exc
        out.add(ch, k, close + 1)
        return close + 1
    # unknown escape: the backslash is kept and the next character is read normally
    out.add("\\", k, k + 1)
    return k + 1


def _field(src: str, k: int, out: _Builder) -> int:
    """Handle an f-string replacement field at ``src[k] == "{"``; return the offset after it."""
    end, debug_end = skip_field(src, k)
    if debug_end:  # {expr=} keeps the expression text (and the '=') in the value
        out.run(src, k + 1, debug_end)
    start = len(out.starts)
    out.add(HOLE, k, end)
    out.holes.append((start, start + 1))
    return end


def skip_field(src: str, k: int) -> tuple[int, int]:
    """Return (offset after the field's closing brace, end of ``expr=`` debug text or 0)."""
    n = len(src)
    j = k + 1
    depth = 0
    debug_end = 0
    while j < n:
        c = src[j]
        if c in "'\"":
            j = _skip_nested_string(src, j)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "}":
            if depth == 0:
                return j + 1, debug_end
            depth -= 1
        elif depth == 0 and c == "!" and not src.startswith("!=", j):
            return _skip_spec(src, j), debug_end
        elif depth == 0 and c == ":":
            return _skip_spec(src, j), debug_end
        elif (
            depth == 0
            and c == "="
            and not src.startswith("==", j)
            and src[j - 1] not in "=!<>"
        ):
            e = j + 1
            while e < n and src[e] in " \t\r\n\f":
                e += 1
            if e < n and src[e] in "}!:":
                debug_end = e
        j += 1
    raise DecodeError(f"unterminated replacement field at {k}")


def _skip_spec(src: str, j: int) -> int:
    """Skip a conversion and/or format spec starting at ``src[j]`` up to its closing brace."""
    n = len(src)
    while j < n:
        c = src[j]
        if c == "{":
            j, _ = skip_field(src, j)
            continue
        if c == "}":
            return j + 1
        j += 1
    raise DecodeError("unterminated format spec")


def _skip_nested_string(src: str, j: int) -> int:
    """Skip a string literal nested in a replacement field (prefix letters already passed)."""
    q = src[j]
    quote = q * 3 if src.startswith(q * 3, j) else q
    e = j + len(quote)
    n = len(src)
    while e < n:
        c = src[e]
        if c == "\\":
            e += 2
            continue
        if c == q and src.startswith(quote, e):
            return e + len(quote)
        e += 1
    raise DecodeError("unterminated nested string")
