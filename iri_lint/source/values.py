"""String values built in code (issue #27): known text that remembers the literal spelling it, and holes.

A value is a sequence of pieces. A ``Text`` piece is known text; when a string literal spells it, it
keeps that literal's node and the index of its first character in the literal's decoded value
(``locate.expected_value``), so every known character maps to its exact source line and column through
``locate.Locator``. A ``Hole`` is a part that cannot be known without running the code; it carries what
is known of it: the name it was read from, the formatting field that put it there, or that ``quote()``
percent-encoded it. Values are immutable; operations build new ones, and what would grow past
``MAX_PIECES`` pieces or ``MAX_TEXT`` characters becomes one hole, the parts joined after it still known
(a huge or exploding constant costs linear time, never more).
"""

from __future__ import annotations

import ast
import enum
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, pairwise
from typing import NamedTuple, TypeVar

from iri_lint.source.locate import Locator, SourceFile
from iri_lint.source.model import HOLE, SourcePos

__all__ = [
    "MADE", "MAX_FSTRING_PARTS", "MAX_PIECES", "MAX_TEXT", "STR_MEMBER", "Client", "Const", "Hole", "HoleKind",
    "Method", "Piece", "Ref", "Seq", "Src", "Table", "Text", "Value", "as_text", "concat", "dotted", "hole", "made",
    "spelled_in",
]

MAX_PIECES = 1 << 16  # pieces in one value; past this the value is a hole
MAX_FSTRING_PARTS = 1 << 11  # texts and replacement fields of one f-string; past this its value is a hole
MAX_TEXT = 1 << 20  # known characters in one value; past this the value is a hole
MADE = -1  # Text.start of text no literal spells (str(8080), a separator a join inserts)
# Value.type of a member of a ``(str, Enum)`` class: its value where str operations read it (``+``, ``.value``), but
# formatted (f-string, ``format``, ``%``, ``str()``) it is ``Api.ROOT`` since Python 3.11 (StrEnum's: its value)
STR_MEMBER = "enum member"


class Src:
    """One source file that pieces come from: its path and lines, and a locator per literal."""

    __slots__ = ("_locators", "file", "path")

    def __init__(self, file: SourceFile, path: str | None = None) -> None:
        self.file = file
        self.path = path
        self._locators: dict[int, Locator] = {}

    def locator(self, node: ast.expr) -> Locator:
        """The (cached) locator of one string literal of this file."""
        loc = self._locators.get(id(node))
        if loc is None:
            loc = self._locators[id(node)] = Locator(node, self.file)
        return loc

    def node_position(self, node: ast.AST) -> SourcePos:
        """Where a node starts (code point column)."""
        line = getattr(node, "lineno", 1)
        return SourcePos(line, self.file.char_col(line, getattr(node, "col_offset", 0)))

    def __repr__(self) -> str:
        return f"Src({self.path!r})"


class Text(NamedTuple):
    """Known text. ``node`` is the literal (str ``Constant`` or ``JoinedStr``) that spells it, ``start``
    the index of ``text[0]`` in that literal's decoded value; or ``start`` is ``MADE`` and ``node`` is the
    expression that made the text (a number's digits, a separator inserted by a join)."""

    text: str
    node: ast.AST
    start: int
    src: Src | None

    @property
    def spelled(self) -> bool:
        """Whether a literal spells this text character by character."""
        return self.start != MADE

    def position(self, k: int = 0) -> SourcePos | None:
        """Source position of ``text[k]`` (of the making expression for made text); None without a file."""
        src = self.src
        if src is None:
            return None
        if self.start == MADE:
            return src.node_position(self.node)
        return src.locator(self.node).position(self.start + k)  # type: ignore[arg-type]


class HoleKind(enum.Enum):
    """What is known of a hole's content."""

    VALUE = "value"  # any string: a parameter, a call's result, a name bound in several ways
    FIELD = "field"  # a formatting field (f-string, str.format, %) filled at run time with an unknown value
    ENCODED = "encoded"  # percent-encoded by quote()/urlencode(): unreserved characters, %HH and ``safe``
    NUMBER = "number"  # an integer's digits: a loop counter over range(), a parameter annotated int
    CUT = "cut"  # a text cut to a known length (``s[:80]``): display text, no URL's part (``source.slicing``)


class Hole(NamedTuple):
    """A part of a value that cannot be known without running the code."""

    kind: HoleKind
    node: ast.AST | None  # the expression it stands for
    src: Src | None
    name: str | None = None  # the dotted name the value was read from (``self.base``, ``host``)
    field: str | None = None  # FIELD: its syntax, as written: ``{id}``, ``{0:>4}``, ``%(id)s``, ``%s``
    spec: str | None = None  # FIELD: the format spec or conversion (``>4``, ``!r``, ``d``); "" none
    safe: str = ""  # ENCODED: the characters quote() keeps besides the unreserved ones
    chars: str | None = None  # VALUE: every character it may hold, its name bound only to literals ("d" or "w")
    # VALUE: each value a module's name may be left with, bound in branches (``source.choices``)
    choices: tuple[Value, ...] | None = None

    def position(self) -> SourcePos | None:
        """Where the expression it stands for starts."""
        if self.src is None or self.node is None:
            return None
        return self.src.node_position(self.node)


Piece = Text | Hole


class Value:
    """A string value as a sequence of pieces; ``type`` is ``"str"`` or the URL class it is an object of
    (``"yarl.URL"``, ``"httpx.URL"``): a URL object has the same text and its own operations.

    Offsets into a value ("flat" offsets) count a hole as one character, as ``flat()`` spells it.
    """

    __slots__ = ("_size", "_starts", "pieces", "type")

    def __init__(self, pieces: tuple[Piece, ...] = (), type: str = "str") -> None:
        self.pieces = pieces
        self.type = type
        self._starts: list[int] | None = None
        self._size = -1

    def __repr__(self) -> str:
        body = "".join(p.text if isinstance(p, Text) else "{" + (p.name or p.kind.value) + "}"
                       for p in self.pieces)
        return f"Value({body!r}{'' if self.type == 'str' else ', ' + self.type})"

    def __len__(self) -> int:
        """Length in flat offsets."""
        starts = self.starts
        return starts[-1]

    @property
    def size(self) -> int:
        """How many known characters it has."""
        if self._size < 0:
            self._size = sum(len(p.text) for p in self.pieces if type(p) is Text)
        return self._size

    @property
    def starts(self) -> list[int]:
        """Flat offset where each piece starts, then the length."""
        if self._starts is None:
            self._starts = [0, *accumulate(len(p.text) if type(p) is Text else 1 for p in self.pieces)]
        return self._starts

    @property
    def opaque(self) -> bool:
        """One hole and nothing else: nothing is known of it (not even that it is a string)."""
        return len(self.pieces) == 1 and type(self.pieces[0]) is Hole

    @property
    def cut(self) -> bool:
        """Whether a piece is a text cut to a length (``HoleKind.CUT``): the value is display text."""
        return any(type(p) is Hole and p.kind is HoleKind.CUT for p in self.pieces)

    @property
    def known(self) -> bool:
        """No holes: the whole text is known."""
        return all(type(p) is Text for p in self.pieces)

    @property
    def text(self) -> str | None:
        """The whole text, or None when the value has a hole."""
        if not self.known:
            return None
        return "".join(p.text for p in self.pieces if type(p) is Text)

    def flat(self, hole: str = HOLE) -> str:
        """The known text with each hole spelled as ``hole`` (one character)."""
        return "".join(p.text if type(p) is Text else hole for p in self.pieces)

    def holes(self) -> Iterator[tuple[int, Hole]]:
        """(flat offset, hole) of every hole, in order."""
        for start, p in zip(self.starts, self.pieces, strict=False):
            if type(p) is Hole:
                yield start, p

    def is_hole(self, i: int) -> bool:
        """Whether flat offset ``i`` is a hole."""
        k = bisect_right(self.starts, i) - 1
        return 0 <= k < len(self.pieces) and type(self.pieces[k]) is Hole

    def prefix(self) -> str:
        """The known text before the first hole."""
        out = []
        for p in self.pieces:
            if type(p) is not Text:
                break
            out.append(p.text)
        return "".join(out)

    def origin(self, i: int) -> tuple[Piece, int] | None:
        """The piece holding flat offset ``i`` and the offset inside it (0 for a hole)."""
        starts = self.starts
        if not 0 <= i < starts[-1]:
            return None
        k = bisect_right(starts, i) - 1
        return self.pieces[k], i - starts[k]

    def position(self, i: int) -> tuple[Src, SourcePos] | None:
        """The file and source position of flat offset ``i`` (a hole: its expression's start)."""
        found = self.origin(i)
        if found is None:
            return None
        piece, k = found
        pos = piece.position(k) if type(piece) is Text else piece.position()
        if pos is None or piece.src is None:
            return None
        return piece.src, pos

    def slice(self, a: int, b: int) -> Value:
        """The value between flat offsets ``a`` and ``b`` (a hole is taken whole or not at all)."""
        starts = self.starts
        a, b = max(a, 0), min(b, starts[-1])
        if a >= b:
            return Value((), self.type)
        if a == 0 and b == starts[-1]:
            return self
        out: list[Piece] = []
        k = bisect_right(starts, a) - 1
        while k < len(self.pieces) and starts[k] < b:
            p = self.pieces[k]
            if type(p) is Text:
                lo, hi = max(a - starts[k], 0), min(b - starts[k], len(p.text))
                if lo < hi:
                    start = p.start if p.start == MADE else p.start + lo
                    out.append(Text(p.text[lo:hi], p.node, start, p.src))
            else:
                out.append(p)
            k += 1
        return Value(tuple(out), self.type)

    def retype(self, type: str) -> Value:
        """The same pieces as an object of another type."""
        return self if type == self.type else Value(self.pieces, type)

    def same(self, other: Value) -> bool:
        """Whether both are known and spell the same text (bindings that agree)."""
        a, b = self.text, other.text
        return a is not None and a == b


class Const(NamedTuple):
    """A constant that is not a string (a number, ``True``, ``None``): formatting may spell it."""

    value: object
    node: ast.AST


class Client(NamedTuple):
    """An HTTP client object (``httpx.Client(base_url=...)``): relative requests are merged with ``base``."""

    qual: str  # its type as a call result, as the URL API table names it: "httpx.Client()"
    base: Value | None  # base_url; None: no base
    merge: str  # how a request URL meets the base: "append" (httpx) or "resolve" (RFC 3986, aiohttp)
    base_expr: ast.expr | None = None  # the expression given as base_url
    src: Src | None = None  # the file where the client is made


class Ref(NamedTuple):
    """Something from outside the project, by qualified name: ``requests``, ``requests.Session()``."""

    qual: str


class Method(NamedTuple):
    """An attribute of a value or of a client, about to be called: ``base.format``, ``api.get``."""

    owner: Value | Client
    attr: str


class Seq(NamedTuple):
    """A tuple or list display: its items' results (any evaluation result) and expressions; ``open``: these are
    its first items only, an unknown number of unknown ones follow (``[ROOT, "a", *rest]``)."""

    items: tuple[object, ...]
    nodes: tuple[ast.expr, ...]
    open: bool = False


class Table(NamedTuple):
    """A dict display with string keys: key -> (result, expression)."""

    items: dict[str, tuple[object, ast.expr]]


def holds(r: object, piece: Piece) -> bool:
    """Whether an evaluation result holds (a part of) ``piece``: a value, text of the same literal or the same
    hole; a dict display's or a tuple's items too."""
    if type(r) is Table:
        return any(holds(v, piece) for v, _ in r.items.values())
    if type(r) is Seq:
        return any(holds(v, piece) for v in r.items)
    return type(r) is Value and any(same_piece(p, piece) for p in r.pieces)


def same_piece(p: Piece, piece: Piece) -> bool:
    """Whether ``p`` is (a part of) ``piece``: text of the same literal, or the same hole; of a module read again
    (an editor's open document, then the file: two trees of one text), the node at the same place."""
    if p is piece or type(p) is not type(piece):
        return p is piece
    if p.node is piece.node and p.src is piece.src:
        return True
    a, b = p.src, piece.src
    return a is not None and b is not None and a is not b and a.path is not None and a.path == b.path and \
        _written_at(p.node) == _written_at(piece.node) is not None


def _written_at(node: ast.AST | None) -> tuple[int, int, int | None, int | None] | None:
    """Where a node is written (None for one without a place)."""
    line = getattr(node, "lineno", None)
    return None if line is None else (line, node.col_offset, node.end_lineno, node.end_col_offset)  # type: ignore[union-attr]


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of names and attributes (None for anything else)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


_R = TypeVar("_R")


def as_text(r: _R) -> _R:
    """``r`` as str operations (``+``, ``+=``) read it: a ``(str, Enum)`` member's value is a ``str``."""
    if isinstance(r, Value) and r.type == STR_MEMBER:
        return r.retype("str")  # type: ignore[return-value]
    return r


def made(text: str, node: ast.AST, src: Src | None) -> Value:
    """Known text no literal spells, made by ``node``."""
    return Value((Text(text, node, MADE, src),)) if text else Value()


# presentation types that print a number: digits, '-', '.', 'e' (str.format's and % conversions alike)
_NUMERIC = frozenset("bdiouxXeEfFgGn")


def prints_a_number(h: Hole, printed_too: str) -> bool:
    """Whether a hole's text is a number's: an integer's digits (``int(x)``, a ``range()`` counter), or a format
    printing one (``%d``, ``{n:.2f}``) whose spec holds none of ``printed_too`` (a fill, a ``+`` flag: printed)."""
    if h.kind is HoleKind.NUMBER:
        return True
    spec = (h.spec or "").lstrip(":")
    if not spec or spec.startswith("!") or spec[-1] not in _NUMERIC or any(c in spec for c in printed_too):
        return False
    return not ("+" in printed_too and spec[-1] in "eEgG")  # an exponent's sign: 1e+20


def arithmetic(operands: Iterable[object]) -> HoleKind:
    """What an operation other than a concatenation gives: an integer (its text digits) when every operand is
    one, a constant (``3600``) or a hole known to be one (``int(time.time())``, a parameter annotated ``int``)."""
    for r in operands:
        if type(r) is Const:
            if type(r.value) is not int:
                return HoleKind.VALUE
        elif type(r) is not Value or len(r.pieces) != 1 or type(p := r.pieces[0]) is not Hole or \
                p.kind is not HoleKind.NUMBER:
            return HoleKind.VALUE
    return HoleKind.NUMBER


def may_hold(h: Hole, chars: str) -> str:
    """Which of ``chars`` a hole's text may hold: none for a number's digits (``prints_a_number``), those
    ``quote()`` / ``urlencode()`` kept safe for a value they percent-encoded, those of the literals a name is only
    ever bound to, all of them for any other."""
    if prints_a_number(h, chars):
        return ""
    if h.chars is not None:
        return "".join(c for c in chars if c in h.chars)
    return "".join(c for c in chars if c in h.safe) if h.kind is HoleKind.ENCODED else chars


def each_choice(value: Value) -> list[Value] | None:
    """``value`` with its first hole that keeps choices (``source.choices``) replaced by each of them in turn; None
    when it holds none."""
    k = next((k for k, p in enumerate(value.pieces) if type(p) is Hole and p.choices), None)
    if k is None:
        return None
    before, after = Value(value.pieces[:k], value.type), Value(value.pieces[k + 1 :], value.type)
    return [concat([before, c, after], as_type=value.type) for c in value.pieces[k].choices]  # type: ignore[union-attr]


def hole(node: ast.AST | None, src: Src | None, *, kind: HoleKind = HoleKind.VALUE, name: str | None = None,
         field: str | None = None, spec: str | None = None, safe: str = "", as_type: str = "str") -> Value:
    """A value that is one hole."""
    return Value((Hole(kind, node, src, name, field, spec, safe),), as_type)


def concat(values: Iterable[Value], node: ast.AST | None = None, src: Src | None = None, *,
           as_type: str = "str") -> Value:
    """The values one after the other; a part too big, or what is joined before a part that makes it too big,
    becomes a hole (standing for ``node``).

    Adjacent runs of one literal (slices put back together) become one piece again. The pieces inside a
    value are taken as they are (only its first and last can join a neighbour), so joining a long value
    to a short one costs a copy of a tuple, not a step per piece."""
    out: list[Piece] = []
    run: list[str] = []  # the texts of the last piece, while it is a run of one literal
    run_end = 0  # the literal index just past that run
    size = 0
    for value in values:
        v = _within_limits(value, node, src, as_type)
        pieces = v.pieces
        if len(pieces) > 4:
            middle = pieces[1:-1]
            size += v.size - _text_len(pieces[0]) - _text_len(pieces[-1])
            todo: tuple[Piece, ...] = (pieces[0],)
        else:
            middle, todo = (), pieces
        for k in range(2 if middle else 1):
            for p in todo:
                if type(p) is Text:
                    if not p.text:
                        continue
                    size += len(p.text)
                    if run:
                        last = out[-1]
                        assert type(last) is Text
                        if last.src is p.src and last.node is p.node and p.start == run_end and not _starts_string(p):
                            run.append(p.text)
                            run_end += len(p.text)
                            continue
                        _close(out, run)
                    run = [p.text] if p.start != MADE else []
                    run_end = p.start + len(p.text)
                elif run:
                    _close(out, run)
                    run = []
                out.append(p)
            if middle and not k:
                if run:
                    _close(out, run)
                    run = []
                out.extend(middle)
                todo = (pieces[-1],)
        if len(out) > MAX_PIECES or size > MAX_TEXT:  # (what is joined so far: a hole; what follows is known)
            out, run, size = list(hole(node, src, as_type=as_type).pieces), [], 0
    if run:
        _close(out, run)
    return Value(tuple(out), as_type)


def _strings(t: Text) -> list[int] | None:
    """Where each string of the implicit concatenation over lines that spells ``t`` starts in its value; None for
    a literal on one line (``literal_text``'s pieces)."""
    node, src = t.node, t.src
    if src is None or node.end_lineno == node.lineno:  # type: ignore[attr-defined]
        return None
    sm = src.locator(node).source_map()  # type: ignore[arg-type]
    return None if sm is None else sm.piece_starts


def _starts_string(t: Text) -> bool:
    """Whether ``t`` starts a string of an implicit concatenation over lines: runs of one literal put back
    together stay apart there."""
    starts = _strings(t)
    return starts is not None and t.start in starts


def string_of(t: Text) -> int:
    """Which string of its literal's implicit concatenation over lines spells ``t`` (0 on one line)."""
    starts = _strings(t)
    return 0 if starts is None else bisect_right(starts, t.start) - 1


def literal_text(v: str, node: ast.Constant, src: Src) -> Value:
    """A string literal's text: one piece per string of an implicit concatenation over lines, which Python's
    grammar joins as ``+`` would (``("https://h.example"`` newline ``"docs")``: fixtures195 repro 01)."""
    return _text_from(v, node, 0, string_starts(node, src), src)


def fstring_value(node: ast.JoinedStr, src: Src, field: Callable[[ast.FormattedValue], Value]) -> Value:
    """An f-string's value: its text, one piece per string of an implicit concatenation over lines as a literal's
    (Python joins the text of ``f"{ROOT}v1/"`` newline ``"/items"``: fixtures214 repro 1), and ``field`` of each
    replacement field."""
    out: list[Value] = []
    i, cuts = 0, string_starts(node, src)  # (an index in the literal's decoded value: a field counts one)
    for part in node.values:
        if type(part) is ast.Constant:
            out.append(_text_from(text := str(part.value), node, i, cuts, src))
            i += len(text)
        else:
            out.append(field(part))  # type: ignore[arg-type]
            i += 1
    return concat(out, node, src)


def _text_from(text: str, node: ast.Constant | ast.JoinedStr, start: int, cuts: list[int], src: Src) -> Value:
    """``text``, from index ``start`` of the literal ``node``'s value, cut where one of its strings starts."""
    end = start + len(text)
    bounds = pairwise([start, *(c for c in cuts if start < c < end), end])
    return Value(tuple(Text(text[a - start : b - start], node, a, src) for a, b in bounds if a < b))


def string_starts(node: ast.Constant | ast.JoinedStr, src: Src) -> list[int]:
    """Where each string after the first of an implicit concatenation over lines starts in the literal's value
    (an f-string's field counts one): none for one string, or strings on one line."""
    if node.end_lineno != node.lineno and (sm := src.locator(node).source_map()) is not None and len(sm.pieces) > 1:
        return sm.piece_starts[1:]
    return []


def spelled_in(known: Value, stmt: ast.stmt, src: Src | None, cut: Value) -> Value:
    """``known`` with only the text ``stmt`` spells in ``src``, a hole (``cut``'s) for each stretch between: what
    a use keeps of a value cut short (its own literals, whatever it joins them to)."""
    lines = range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1)
    pieces: list[Piece] = []
    for p in known.pieces:
        if type(p) is Text and p.start != MADE and p.src is src and p.node.lineno in lines:  # type: ignore[attr-defined]
            pieces.append(p)
        elif not pieces or pieces[-1] is not cut.pieces[0]:
            pieces.append(cut.pieces[0])
    return Value(tuple(pieces), known.type)


def _within_limits(v: Value, node: ast.AST | None, src: Src | None, as_type: str) -> Value:
    """A part of a concatenation, or a hole when it alone is too big (the other parts stay known)."""
    return hole(node, src, as_type=as_type) if len(v.pieces) > MAX_PIECES or v.size > MAX_TEXT else v


def _text_len(p: Piece) -> int:
    return len(p.text) if type(p) is Text else 0


def _close(out: list[Piece], run: list[str]) -> None:
    """The last piece becomes its whole run of one literal."""
    last = out[-1]
    if type(last) is Text and len(run) > 1:
        out[-1] = Text("".join(run), last.node, last.start, last.src)
