"""Jupyter notebooks (nbformat 4): code cells as one Python text, positions back to cells, fixes written back.

The Python text holds every code cell in order, each ending with a newline, so that imports in one
cell give context to calls in later ones. IPython syntax is not Python: a line magic (``%time``),
a shell line (``!ls``, ``x = !ls``), a help line (``obj?``) that starts a logical line becomes ``pass``
at its indentation (and the lines it continues with a backslash blank lines), and a cell magic
(``%%bash``) blanks its whole cell, except the magics whose body is Python (``%%time``, ``%%timeit``,
``%%capture``, ``%%prun``). Lines and columns of everything else are unchanged, so a finding's
position in the text is its position in the cell.

Writing back touches nothing but the JSON strings of the changed source lines: the raw file is
read with the standard library's JSON scanner (``json.decoder.scanstring``, ``raw_decode``) to find
where each cell's ``source`` sits, the changed strings are re-encoded the way the file encodes
strings, and the result must load to the same document with only those sources changed.
"""

from __future__ import annotations

import bisect
import json
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.lazy import lazy_regex
from .locate import split_lines

PYTHON_CELL_MAGICS = frozenset(("time", "timeit", "capture", "prun"))
_blank = lazy_regex(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# the standard library's JSON string scanner (C-accelerated), not in the typeshed stubs
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_help = lazy_regex(r"(?:\?{1,2}[A-Za-z_][\w.]*|[A-Za-z_][\w.]*\?{1,2})\s*\Z")
_assign_magic = lazy_regex(r"[A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*[ \t]*=[ \t]*[!%]")
_indent = lazy_regex(r"[ \t]*")
_escaped_non_ascii = lazy_regex(r"\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])")


class NotebookError(ValueError):
    """The file is not a notebook iri-lint can read; the message says why."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One code cell: where its source is in the Python text and in the raw file."""

    index: int  # 1-based, counting every cell (as editors number them)
    source: str  # the cell's source as stored
    first_line: int  # 1-based line of the Python text where the cell starts
    lines: tuple[str, ...]  # its lines in the Python text (IPython lines replaced), each ending with a newline
    masked: frozenset[int]  # 0-based lines that are not the cell's own text (IPython, or a cell that does not parse)
    value_span: tuple[int, int]  # raw offsets of the "source" value
    items: tuple[tuple[int, int], ...] | None  # raw spans of its strings when the value is an array

    @property
    def end_line(self) -> int:
        """The first line of the Python text after this cell."""
        return self.first_line + len(self.lines)


@dataclass(frozen=True)
class Notebook:
    """A notebook's raw text, its code cells, and the Python text they make."""

    raw: str  # the file's text (without a BOM)
    bom: bool
    cells: tuple[Cell, ...]
    text: str
    ensure_ascii: bool  # the file escapes non-ASCII characters in strings (\\u00e9)
    _line_starts: list[int] = field(default_factory=list, repr=False, compare=False)

    def cell_at(self, line: int) -> tuple[Cell, int]:
        """The cell holding line ``line`` (1-based) of the Python text, and the line within it."""
        starts = [c.first_line for c in self.cells]
        i = max(bisect.bisect_right(starts, line) - 1, 0)
        cell = self.cells[i]
        return cell, min(line - cell.first_line, max(len(cell.lines) - 1, 0)) + 1

    def file_position(self, cell: Cell, line: int, col: int, *, end: bool = False) -> tuple[int, int]:
        """Where the character at ``line`` (1-based) and ``col`` (code points) of ``cell`` is in the raw file:
        1-based line and 0-based code point column of the raw text. ``end``: the position just after the
        character before it (it differs where the source's strings meet)."""
        offset = sum(len(s) for s in split_lines(cell.source)[: line - 1]) + col
        spans = cell.items if cell.items is not None else (cell.value_span,)
        for start, stop in spans:
            value = scanstring(self.raw, start + 1)[0]
            if offset < len(value) + end or (start, stop) == spans[-1]:
                raw = _raw_offset(self.raw, start, min(offset, len(value)))
                break
            offset -= len(value)
        else:  # pragma: no cover  (spans is never empty)
            raw = cell.value_span[0]
        if not self._line_starts:
            self._line_starts.extend([0, *(m.end() for m in re.finditer("\n", self.raw))])
        row = bisect.bisect_right(self._line_starts, raw) - 1
        return row + 1, raw - self._line_starts[row]

    def masking(self, indexes: set[int]) -> Notebook:
        """The same notebook with the cells of ``indexes`` left out of the Python text (lines kept)."""
        cells = []
        for c in self.cells:
            if c.index in indexes:
                c = replace(c, lines=tuple("\n" for _ in c.lines), masked=frozenset(range(len(c.lines))))
            cells.append(c)
        return replace(self, cells=tuple(cells), text="".join(line for c in cells for line in c.lines),
                       _line_starts=[])

    def cell_texts(self) -> list[tuple[Cell, str]]:
        """Each cell with its own Python text (IPython lines replaced), to parse alone."""
        return [(c, "".join(c.lines)) for c in self.cells]

    def write(self, new_text: str) -> bytes | str:
        """The file's bytes with the cells changed as in ``new_text``; or why that cannot be done."""
        new_lines = split_lines(new_text)
        if len(new_lines) != len(split_lines(self.text)):
            return "a fix changed the number of lines in a cell"
        out = self.raw
        sources: dict[int, str] = {}
        for cell in sorted(self.cells, key=lambda c: c.value_span[0], reverse=True):
            lines = new_lines[cell.first_line - 1 : cell.end_line - 1]
            source = _cell_source(cell, lines)
            if source is None:
                return f"a fix changed IPython syntax or a masked line in cell {cell.index}"
            if source == cell.source:
                continue
            sources[cell.index] = source
            out = _replace_source(out, cell, source, self.ensure_ascii)
        if not sources:
            return self.encode(self.raw)
        if not _only_sources_changed(self.raw, out, sources):
            return "the rewritten notebook did not load back to the same document"
        return self.encode(out)

    def encode(self, raw: str) -> bytes:
        return ("\ufeff" if self.bom else "").encode("utf-8") + raw.encode("utf-8")


def read_notebook(data: bytes) -> Notebook:
    """Parse a ``.ipynb`` file; NotebookError when it is not a JSON notebook of format 4."""
    try:
        raw = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not a notebook: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    bom = raw.startswith("\ufeff")
    raw = raw[1:] if bom else raw
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise NotebookError(f"not a notebook: invalid JSON{where}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("cells"), list):
        raise NotebookError("not a notebook: no list of cells (nbformat 4)")
    bad = next((i for i, cell in enumerate(doc["cells"], start=1) if not isinstance(cell, dict)), None)
    if bad is not None:  # nbformat 4: every cell is an object; anything else is not a notebook to pass as clean
        raise NotebookError(f"not a notebook: cell {bad} is not an object")
    if not isinstance(doc.get("nbformat", 4), int) or doc.get("nbformat", 4) < 4:
        raise NotebookError(f"nbformat {doc.get('nbformat')} notebooks are not supported (convert with nbconvert)")
    spans = _source_spans(raw)
    if len(spans) != len(doc["cells"]):
        raise NotebookError("not a notebook: its cells could not be located")
    python = _is_python(doc)
    cells: list[Cell] = []
    line = 1
    for i, (cell, span) in enumerate(zip(doc["cells"], spans, strict=True), start=1):
        if not (python and isinstance(cell, dict) and cell.get("cell_type") == "code" and span is not None):
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            joined = "".join(source)
        elif isinstance(source, str):
            joined = source
        else:
            raise NotebookError(f"not a notebook: cell {i}'s source is not text")
        lines, masked = python_lines(joined)
        cells.append(Cell(i, joined, line, tuple(lines), frozenset(masked), span[0], span[1]))
        line += len(lines)
    text = "".join(s for c in cells for s in c.lines)
    ensure_ascii = raw.isascii() and bool(_escaped_non_ascii().search(raw))
    return Notebook(raw, bom, tuple(cells), text, ensure_ascii)


def _is_python(doc: dict[str, Any]) -> bool:
    """Whether the notebook's kernel runs Python (no language stated: assume it does)."""
    meta = doc.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    for key, sub in (("kernelspec", "language"), ("language_info", "name")):
        value = meta.get(key, {}).get(sub) if isinstance(meta.get(key), dict) else None
        if isinstance(value, str) and value:
            return value.lower() == "python"
    return True


# ---------------------------------------------------------------- IPython syntax


def python_lines(source: str) -> tuple[list[str], set[int]]:
    """The cell's lines with IPython syntax replaced by ``pass``, each ending with a newline, and the
    0-based indexes of the replaced lines."""
    lines = split_lines(source)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n"
    first = next((i for i, s in enumerate(lines) if s.strip()), None)
    forced: set[int] = set()
    if first is not None and lines[first].lstrip().startswith("%%"):
        magic = lines[first].lstrip()[2:].split(None, 1)
        if not (magic and magic[0] in PYTHON_CELL_MAGICS):
            return ["\n" for _ in lines], set(range(len(lines)))
        forced.add(first)
    if not forced and not any(_is_ipython(s) for s in lines):
        return lines, set()  # nearly every cell: nothing to tokenize for
    replaced = _LogicalLines(lines, forced).run()
    return [replaced.get(i, s) for i, s in enumerate(lines)], set(replaced)


class _LogicalLines:
    """IPython's rule for its escapes (``%``, ``!``, ``?``, ``x = !...``): they count only where a logical
    line starts, as IPython's own transformers decide with ``tokenize``. The cell's lines are fed to the
    standard tokenizer one at a time, and each is judged when the tokenizer asks for it, from the tokens
    it gave so far: a line starts a logical line when the last token ended one (NEWLINE, or NL outside
    brackets) on the line just before. So a ``%`` line inside a multi-line string, inside brackets or
    after a backslash is Python, and an IPython line is fed as ``pass``, which keeps the tokenizer going."""

    def __init__(self, lines: list[str], forced: set[int]) -> None:
        self.lines = lines
        self.forced = forced  # a ``%%time`` line: IPython syntax wherever it is
        self.replaced: dict[int, str] = {}
        self.next = 0  # the line the tokenizer gets next
        self.start = 0  # the line that starts the next logical line
        self.depth = 0  # open brackets
        self.joined = False  # the line before was IPython syntax ending with a backslash

    def run(self) -> dict[int, str]:
        """Implements the rule: tokenize the whole cell; the lines replaced, by index."""
        while self.next < len(self.lines):
            at = self.next
            try:
                for tok in tokenize.generate_tokens(self.readline):
                    self.see(tok)
            except (tokenize.TokenError, SyntaxError):
                # not Python at some point (or IPython syntax we do not know): go on from the next line
                # as the start of a logical line, so each line is still read once (linear in the cell)
                self.start, self.depth = self.next, 0
            if self.next == at:  # pragma: no cover  (the tokenizer always reads a line before it fails)
                self.readline()
        return self.replaced

    def see(self, tok: tokenize.TokenInfo) -> None:
        """Follow brackets and where logical lines end."""
        if tok.type == tokenize.OP and tok.string in "([{":
            self.depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            self.depth = max(self.depth - 1, 0)
        elif tok.type == tokenize.NEWLINE or (tok.type == tokenize.NL and not self.depth):
            self.start = tok.end[0]  # tokenize's rows are 1-based: the 0-based index of the next line

    def readline(self) -> str:
        """The next line for the tokenizer: the line itself, or ``pass`` (blank for a line joined to it)."""
        i = self.next
        if i >= len(self.lines):
            return ""
        self.next += 1
        line = self.lines[i]
        if self.joined:  # IPython joins the backslash continuations of its line
            self.replaced[i] = "\n"
        elif i in self.forced or (i == self.start and not self.depth and _is_ipython(line)):
            self.replaced[i] = _pass_line(line)
        else:
            return line
        self.joined = line.rstrip("\r\n").endswith("\\")
        return self.replaced[i]


def _is_ipython(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and (stripped[0] in "%!" or bool(_help().match(stripped))
                               or bool(_assign_magic().match(stripped)))


def _pass_line(line: str) -> str:
    indent = _indent().match(line)
    return (indent.group() if indent else "") + "pass\n"


# ---------------------------------------------------------------- the raw JSON


def _ws(raw: str, i: int) -> int:
    m = _blank().match(raw, i)
    return m.end() if m else i


def _expect(raw: str, i: int, char: str) -> int:
    if raw[i : i + 1] != char:
        raise NotebookError(f"not a notebook: expected {char!r} at offset {i}")
    return i + 1


def _members(raw: str, i: int) -> list[tuple[str, int, int]]:
    """(key, value start, value end) for each member of the object at ``i``."""
    i = _ws(raw, _expect(raw, _ws(raw, i), "{"))
    out: list[tuple[str, int, int]] = []
    if raw[i : i + 1] == "}":
        return out
    while True:
        key, i = scanstring(raw, _expect(raw, i, '"'))
        i = _ws(raw, _expect(raw, _ws(raw, i), ":"))
        _, end = _DECODER.raw_decode(raw, i)
        out.append((key, i, end))
        i = _ws(raw, end)
        if raw[i : i + 1] == "}":
            return out
        i = _ws(raw, _expect(raw, i, ","))


def _elements(raw: str, i: int) -> list[tuple[int, int]]:
    """The spans of the elements of the array at ``i``."""
    i = _ws(raw, _expect(raw, i, "["))
    out: list[tuple[int, int]] = []
    if raw[i : i + 1] == "]":
        return out
    while True:
        _, end = _DECODER.raw_decode(raw, i)
        out.append((i, end))
        i = _ws(raw, end)
        if raw[i : i + 1] == "]":
            return out
        i = _ws(raw, _expect(raw, i, ","))


def _source_spans(raw: str) -> list[tuple[tuple[int, int], tuple[tuple[int, int], ...] | None] | None]:
    """For each cell, the span of its "source" value and, for an array, of each string in it."""
    try:
        cells: list[tuple[int, int]] = []
        for key, start, _end in (_members(raw, 0)):
            if key == "cells":
                cells = _elements(raw, start)  # a repeated key: the last one wins, as in json.loads
        out: list[tuple[tuple[int, int], tuple[tuple[int, int], ...] | None] | None] = []
        for start, _end in cells:
            span = None
            if raw[start] == "{":
                for key, vs, ve in (_members(raw, start)):
                    if key == "source":
                        items = tuple(_elements(raw, vs)) if raw[vs] == "[" else None
                        span = ((vs, ve), items)
            out.append(span)
        return out
    except (ValueError, IndexError) as exc:
        raise NotebookError(f"not a notebook: {exc}") from None


def _raw_offset(raw: str, token: int, k: int) -> int:
    """The raw offset of the ``k``-th decoded character of the JSON string starting at ``token``."""
    i = token + 1
    for _ in range(k):
        if raw[i] != "\\":
            i += 1
        elif raw[i + 1] != "u":
            i += 2
        elif 0xD800 <= int(raw[i + 2 : i + 6], 16) < 0xDC00 and raw[i + 6 : i + 8] == "\\u":
            i += 12
        else:
            i += 6
    return i


def _cell_source(cell: Cell, lines: list[str]) -> str | None:
    """The cell's new source from its lines in the fixed text; None when a masked line changed."""
    orig = split_lines(cell.source)
    added = bool(orig) and not orig[-1].endswith(("\n", "\r"))
    if added:
        orig[-1] += "\n"  # as python_lines did
    out = []
    for i, line in enumerate(lines):
        if i in cell.masked:
            if line != cell.lines[i] or i >= len(orig):
                return None
            out.append(orig[i])
        else:
            out.append(line)
    source = "".join(out)
    if added:
        if not source.endswith("\n"):
            return None
        source = source[:-1]
    return source


_after_newline = lazy_regex(r"[^\n]*\n|[^\n]+")


def _items_like(old_items: list[str], source: str) -> list[str]:
    """``source`` split into strings as the file splits its sources: nbformat's ``splitlines``, or after
    each ``\\n`` only (as JupyterLab does)."""
    if "".join(old_items).splitlines(keepends=True) != old_items:
        return _after_newline().findall(source)
    return source.splitlines(keepends=True)


def _replace_source(raw: str, cell: Cell, source: str, ensure_ascii: bool) -> str:
    def dump(s: str) -> str:
        return json.dumps(s, ensure_ascii=ensure_ascii)

    start, end = cell.value_span
    if cell.items is None:
        return raw[:start] + dump(source) + raw[end:]
    old = [scanstring(raw, s + 1)[0] for s, _ in cell.items]
    new = _items_like(old, source)
    if len(new) == len(old):
        for (s, e), a, b in sorted(zip(cell.items, old, new, strict=True), reverse=True):
            if a != b:
                raw = raw[:s] + dump(b) + raw[e:]
        return raw
    # the number of lines changed: write the array again, laid out as it was
    first = cell.items[0][0] if cell.items else end - 1
    lead = raw[start + 1 : first] if cell.items else ""
    tail = raw[cell.items[-1][1] : end - 1] if cell.items else ""
    return raw[:start] + "[" + lead + ("," + lead).join(dump(x) for x in new) + tail + "]" + raw[end:]


def _only_sources_changed(old_raw: str, new_raw: str, sources: dict[int, str]) -> bool:
    try:
        old, new = json.loads(old_raw), json.loads(new_raw)
    except (json.JSONDecodeError, RecursionError):
        return False
    for index, source in sources.items():
        cell = new["cells"][index - 1]
        value = cell.get("source")
        got = "".join(value) if isinstance(value, list) else value
        if got != source:
            return False
        old["cells"][index - 1]["source"] = value
    return bool(old == new)
