"""Decode one Python string token into its value and a map from value index to source offset."""

from __future__ import annotations

import codecs
import functools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, compress, repeat
from operator import sub
from typing import NamedTuple, overload

from iri_lint.core.lazy import lazy_regex
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
_PLAIN: dict[tuple[str, bool, bool], re.Pattern[str]] = {}
# a run of one kind of escape is decoded in one step (the width of each escape is fixed)
_SIMPLE_TABLE = str.maketrans(_SIMPLE_ESCAPES)
_escape_run = lazy_regex(
    r"(?P<s>(?:\\[\\'\"abfnrtv])++)|(?P<x>(?:\\x[0-9a-fA-F]{2})++)|(?P<u>(?:\\u[0-9a-fA-F]{4})++)"
    r"|(?P<U>(?:\\U[0-9a-fA-F]{8})++)|(?P<o>(?:\\[0-7]{3})++)"
)
_ESCAPE_WIDTH = {"s": 2, "x": 4, "u": 6, "U": 10, "o": 4}
# a run of valid escapes of any kinds: decoded by the codec, one source offset per escape
_ONE_ESCAPE = {
    False: r"""\\(?:[\\'"abfnrtv]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}"""
           r"|[0-3][0-7]{0,2}|[4-7][0-7]?(?![0-7])"  # (above \377: one at a time, no warning)
           r"|N\{[^{}\\'\"\r\n]++\})",
    True: r"""\\(?:[\\'"abfnrtv]|x[0-9a-fA-F]{2})""",  # bytes (octal: see _escape)
}


@functools.cache
def _one_escape_re(byt: bool) -> re.Pattern[str]:
    return re.compile(_ONE_ESCAPE[byt])


@functools.cache
def _escapes_re(byt: bool) -> re.Pattern[str]:
    return re.compile(f"(?:{_ONE_ESCAPE[byt]})++")


@functools.cache
def _split_re(byt: bool) -> re.Pattern[str]:
    """The same, as one capturing group: re.split yields plain text and escapes in turn."""
    return re.compile(f"({_ONE_ESCAPE[byt]})")


_MIXED: dict[tuple[str, bool, bool], re.Pattern[str]] = {}
MIXED_MIN = 48  # a shorter stretch is quicker escape by escape
_BRACE_PAIRS = {"{": lazy_regex(r"(?:\{\{)++"), "}": lazy_regex(r"(?:\}\})++")}
_field_plain = lazy_regex(r"""[^'"()\[\]{}!:=]*+""")  # nothing a replacement field reacts to
_spec_plain = lazy_regex(r"[^{}]*+")
_simple_field = lazy_regex(r"\{[A-Za-z_][\w.]*+\}")
_blank = lazy_regex(r"[ \t\r\n\f]*+")


@functools.cache
def _nested_re(q: str, triple: bool) -> re.Pattern[str]:
    """The body of a string nested in a replacement field, up to its closing quote(s)."""
    return re.compile(rf"(?:[^\\{q}]++|\\(?s:.)" + (f"|{q}(?!{q}{q})" if triple else "") + ")*+")


def _plain(quote: str, raw: bool, fstr: bool) -> re.Pattern[str]:
    """Characters that stand for themselves, one for one, in this kind of token.

    A newline is plain inside triple quotes (``\\r`` is not: it becomes ``\\n``); a quote is
    plain there unless it starts the closing quotes; in a raw string a backslash and the next
    character both stand for themselves, unless that is a line break (or a brace of an f-string).
    """
    key = (quote, raw, fstr)
    pat = _PLAIN.get(key)
    if pat is None:
        q = quote[0]
        special = "\\\\\r" + ("" if len(quote) == 3 else "\n") + ("{}" if fstr else "") + q
        alts = [f"[^{special}]++"]
        if len(quote) == 3:
            alts.append(f"{q}(?!{q}{q})")
        if raw:
            alts.append("\\\\[^\r\n" + ("{}" if fstr else "") + "]")
        pat = _PLAIN[key] = re.compile("(?:" + "|".join(alts) + ")*+")
    return pat


def _mixed(quote: str, fstr: bool, byt: bool) -> re.Pattern[str]:
    """Valid escapes and plain characters, in any order, in a token that is not raw.

    Each escape and each plain character is one value character; a bytes token keeps characters
    beyond U+00FF out (they have no byte).
    """
    key = (quote, fstr, byt)
    pat = _MIXED.get(key)
    if pat is None:
        q = quote[0]
        special = "\\\\\r" + ("" if len(quote) == 3 else "\n") + ("{}" if fstr else "") + q
        alts = [_ONE_ESCAPE[byt], f"[^{special}" + ("\u0100-\U0010ffff" if byt else "") + "]++"]
        if len(quote) == 3:
            alts.append(f"{q}(?!{q}{q})")
        pat = _MIXED[key] = re.compile("(?:" + "|".join(alts) + ")*+")
    return pat


class DecodeError(ValueError):
    """The text at the given offset is not a well-formed string token."""


class Offsets(Sequence[int]):
    """Per value character, a source offset, kept as runs of evenly spaced offsets.

    A long literal is a few runs (plain text, a run of like escapes), so building the map costs
    nothing per character; a lookup is a bisection.
    """

    __slots__ = ("_at", "_base", "_n", "_shift", "_step")

    def __init__(self, at: list[int], base: list[int], step: list[int], n: int, shift: int = 0) -> None:
        self._at = at  # value index of each run's first character
        self._base = base  # source offset of that character
        self._step = step  # spacing of the run, and width of each of its characters
        self._n = n
        self._shift = shift  # 1: each character's end rather than its start

    @staticmethod
    def join(parts: Sequence[Offsets], shift: int = 0) -> Offsets:
        """The offsets of consecutive values, one after the other."""
        at: list[int] = []
        base: list[int] = []
        step: list[int] = []
        n = 0
        for part in parts:
            at.extend(map(n.__add__, part._at))
            base.extend(part._base)
            step.extend(part._step)
            n += part._n
        return Offsets(at, base, step, n, shift)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("value index out of range")
        r = bisect_right(self._at, i) - 1
        return self._base[r] + (i - self._at[r] + self._shift) * self._step[r]

    def __iter__(self) -> Iterator[int]:
        ends = [*self._at[1:], self._n] if self._at else []
        for a, b, base, step in zip(self._at, ends, self._base, self._step, strict=True):
            yield from range(base + self._shift * step, base + (b - a + self._shift) * step, step)


class Decoded(NamedTuple):
    """A decoded string token: value plus, per value character, its source span."""

    value: str
    starts: Offsets  # source offset where each value character's representation starts
    ends: Offsets  # source offset just past it
    token_start: int  # offset of the first prefix letter (or quote)
    body_start: int  # offset just past the opening quote(s)
    body_end: int  # offset of the closing quote(s)
    end: int  # offset just past the closing quote(s)
    prefix: str  # as written
    quote: str  # ', ", ''' or \"\"\"
    holes: list[tuple[int, int]]  # f-string replacement fields

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
    plain = _plain(quote, raw, fstr)
    j = body_start
    while True:
        k = plain.match(src, j).end()  # type: ignore[union-attr]  # (it matches the empty string)
        if k > j:
            out.run(src, j, k)
        if k >= n:
            raise DecodeError("unterminated string")
        c = src[k]
        if c == q:  # (a quote inside triple quotes is plain text)
            body_end = k
            break
        if c == "\r" or c == "\n":
            if len(quote) == 1:
                raise DecodeError("newline in single-quoted string")
            e = k + 2 if src.startswith("\r\n", k) else k + 1
            out.add("\n", k, e)
            j = e
        elif c == "\\":
            j = _escapes(src, k, raw, byt, out) if raw else _mixed_run(src, k, quote, fstr, byt, out)
        elif c == "{" and not src.startswith("{{", k):
            j = _field(src, k, out)
        elif c == "}" and not src.startswith("}}", k):
            out.add("}", k, k + 1)
            j = k + 1
        else:  # a run of "{{" or "}}": one brace each
            e = _BRACE_PAIRS[c]().match(src, k).end()  # type: ignore[union-attr]
            out.fixed(c * ((e - k) // 2), k, e, 2)
            j = e
    return Decoded(
        value="".join(out.chars),
        starts=Offsets(out.at, out.base, out.step, out.n),
        ends=Offsets(out.at, out.base, out.step, out.n, 1),
        token_start=pos,
        body_start=body_start,
        body_end=body_end,
        end=body_end + len(quote),
        prefix=prefix,
        quote=quote,
        holes=out.holes,
    )


class _Builder:
    """Accumulates value characters with their source spans (runs of evenly spaced ones)."""

    __slots__ = ("at", "base", "chars", "holes", "n", "step")

    def __init__(self) -> None:
        self.chars: list[str] = []  # strings of any length; the runs count characters
        self.at: list[int] = []
        self.base: list[int] = []
        self.step: list[int] = []
        self.n = 0
        self.holes: list[tuple[int, int]] = []

    def run(self, src: str, a: int, b: int) -> None:
        """``src[a:b]``, each character standing for itself."""
        self.chars.append(src[a:b])
        self.fixed_run(a, 1, b - a)

    def add(self, ch: str, a: int, b: int) -> None:
        """One character spelled by ``src[a:b]``."""
        self.chars.append(ch)
        self.fixed_run(a, b - a, 1)

    def fixed(self, chars: str, a: int, b: int, width: int) -> None:
        """``chars``, each spelled by ``width`` source characters, from ``a`` to ``b``."""
        self.chars.append(chars)
        self.fixed_run(a, width, len(chars))

    def spaced(self, chars: str, starts: list[int], end: int) -> None:
        """``chars``, each spelled from its start up to the next one (the last up to ``end``)."""
        self.chars.append(chars)
        self.at.extend(range(self.n, self.n + len(starts)))
        self.base.extend(starts)
        self.step.extend(map(sub, [*starts[1:], end], starts))
        self.n += len(starts)

    def runs(self, chars: str, at: Iterable[int], base: Iterable[int], step: Iterable[int], n: int) -> None:
        """``chars`` (``n`` of them) as runs given by value index, source offset and width."""
        self.chars.append(chars)
        self.at.extend(at)
        self.base.extend(base)
        self.step.extend(step)
        self.n += n

    def fixed_run(self, a: int, width: int, count: int) -> None:
        if count:
            self.at.append(self.n)
            self.base.append(a)
            self.step.append(width)
            self.n += count


def _mixed_run(src: str, k: int, quote: str, fstr: bool, byt: bool, out: _Builder) -> int:
    """Handle the backslash at ``src[k]`` (not raw) and the escapes and plain text after it.

    The whole stretch goes through Python's codec in one call, and its map is built from
    ``re.split`` over the escapes, in C: a plain stretch is a run of width 1, an escape a run of
    one character as wide as its spelling. Return where the stretch ends.
    """
    e = _mixed(quote, fstr, byt).match(src, k).end()  # type: ignore[union-attr]  # (empty is fine)
    if e - k < MIXED_MIN or e <= k + 2 or src.find("\\", k + 1, e) < 0:  # short, or one escape: as before
        return _escapes(src, k, False, byt, out)
    same = _escape_run().match(src, k, e)  # one kind of escape only: as before (one run)
    if same is not None and same.end() == e:
        return _escapes(src, k, False, byt, out)
    seg = src[k:e]
    try:
        if byt:
            chars = codecs.escape_decode(seg.encode("latin-1"))[0].decode("latin-1")
        else:
            chars = seg.encode("ascii", "backslashreplace").decode("unicode_escape")
    except (UnicodeDecodeError, ValueError):  # \U beyond U+10FFFF, an unknown \N name: one by one
        return _escapes(src, k, False, byt, out)
    parts = _split_re(byt).split(seg)  # plain, escape, plain, ..., escape, plain
    widths = list(map(len, parts))
    counts = widths.copy()
    counts[1::2] = repeat(1, len(parts) // 2)  # an escape is one character
    steps = [1] * len(parts)
    steps[1::2] = widths[1::2]
    n = sum(counts)
    if n != len(chars):  # (cannot happen: each escape is one character)
        return _escapes(src, k, False, byt, out)
    at: Iterable[int] = accumulate(counts[:-1], initial=out.n)
    base: Iterable[int] = accumulate(widths[:-1], initial=k)
    if 0 in counts:  # an empty plain stretch has no run (its value index would repeat the next run's)
        at, base, steps = compress(at, counts), compress(base, counts), list(compress(steps, counts))
    out.runs(chars, at, base, steps, n)
    return e


def _escapes(src: str, k: int, raw: bool, byt: bool, out: _Builder) -> int:
    """Handle the backslash at ``src[k]`` and the run of escapes it starts; return where they end."""
    simple = None if raw else _SIMPLE_ESCAPES.get(src[k + 1 : k + 2])
    if simple is not None and not src.startswith("\\", k + 2):  # one alone: no codec
        out.add(simple, k, k + 2)
        return k + 2
    m = None if raw else _escapes_re(byt).match(src, k)
    if m is None:
        return _escape(src, k, raw, byt, out)
    run, e = m.group(), m.end()
    try:
        if byt:
            chars = codecs.escape_decode(run.encode("ascii"))[0].decode("latin-1")
        else:
            chars = run.encode("ascii").decode("unicode_escape")
    except (UnicodeDecodeError, ValueError):  # \U beyond U+10FFFF, an unknown \N name: as alone
        return _escape(src, k, raw, byt, out)
    same = _escape_run().match(src, k)  # one kind of escape: evenly spaced
    if same is not None and same.end() == e:
        out.fixed(chars, k, e, _ESCAPE_WIDTH[same.lastgroup or ""])
    else:
        out.spaced(chars, [x.start() for x in _one_escape_re(byt).finditer(src, k, e)], e)
    return e


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
    simple = _simple_field().match(src, k)  # {name} or {a.b}: no conversion, spec or "="
    end, debug_end = (simple.end(), 0) if simple is not None else skip_field(src, k)
    if debug_end:  # {expr=} keeps the expression text (and the '=') in the value
        out.run(src, k + 1, debug_end)
    start = out.n
    out.add(HOLE, k, end)
    out.holes.append((start, start + 1))
    return end


def skip_field(src: str, k: int) -> tuple[int, int]:
    """Return (offset after the field's closing brace, end of ``expr=`` debug text or 0)."""
    n = len(src)
    j = k + 1
    depth = 0
    debug_end = 0
    while True:
        j = _field_plain().match(src, j).end()  # type: ignore[union-attr]
        if j >= n:
            raise DecodeError(f"unterminated replacement field at {k}")
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
            e = _blank().match(src, j + 1).end()  # type: ignore[union-attr]
            if e < n and src[e] in "}!:":
                debug_end = e
        j += 1


def _skip_spec(src: str, j: int) -> int:
    """Skip a conversion and/or format spec starting at ``src[j]`` up to its closing brace."""
    while True:
        j = _spec_plain().match(src, j).end()  # type: ignore[union-attr]
        if j >= len(src):
            raise DecodeError("unterminated format spec")
        if src[j] == "}":
            return j + 1
        j, _ = skip_field(src, j)


def _skip_nested_string(src: str, j: int) -> int:
    """Skip a string literal nested in a replacement field (prefix letters already passed)."""
    q = src[j]
    width = 3 if src.startswith(q * 3, j) else 1
    if width == 1:  # most are short and hold no backslash
        e = src.find(q, j + 1)
        if e >= 0 and src.find("\\", j + 1, e) < 0:
            return e + 1
    e = _nested_re(q, width == 3).match(src, j + width).end()  # type: ignore[union-attr]
    if e < len(src) and src[e] == q:  # (inside triple quotes, only at the closing three)
        return e + width
    raise DecodeError("unterminated nested string")
