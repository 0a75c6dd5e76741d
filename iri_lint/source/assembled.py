"""A URL value as the rules check it (issue #27): its text, its holes, where its pieces were joined, and
where each checked character stands in the source.

The rules check the known text with every hole of the value, and every template placeholder still in its
known text (``{id}``, ``{?q}``, ``%s``, ``<id>``: ``templates.apply_templates``), spelled as one ``HOLE``
character and passed as a template hole: a hole stands for valid content of its component. The offsets
the rules report are mapped back through the piece that holds them to the literal that spells them.
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from typing import NamedTuple

from iri_lint.core.context import Assembly
from iri_lint.source.model import HOLE, SourcePos
from iri_lint.source.templates import apply_templates, date_format, strftime_directives
from iri_lint.source.values import MADE, Hole, HoleKind, Piece, Src, Text, Value, may_hold, string_of

__all__ = ["Checked", "checked"]


class Checked(NamedTuple):
    """A value ready for the rules: ``text`` with ``holes``, its ``assembly``, and the way back to pieces."""

    text: str
    holes: tuple[tuple[int, int], ...]
    assembly: Assembly
    starts: tuple[int, ...]  # offset in ``text`` where each piece's part starts
    parts: tuple[tuple[Piece, list[int] | None], ...]  # each piece, and its index map (None: the same)

    def origin(self, i: int) -> tuple[Piece, int] | None:
        """The piece holding ``text[i]`` and the index in the piece's text (0 for a hole)."""
        if not self.parts or i < 0:
            return None
        k = bisect_right(self.starts, i) - 1
        if k >= len(self.parts):
            return None
        piece, index = self.parts[k]
        if isinstance(piece, Hole):
            return piece, 0
        local = i - self.starts[k]
        if index is not None:
            local = index[min(local, len(index) - 1)]
        return piece, min(local, max(len(piece.text) - 1, 0))

    def spelled_origin(self, start: int, end: int, local: Src) -> tuple[Piece, int] | None:
        """The first character of ``text[start:end]`` spelled by the literal of ``local``'s file that spells the
        character after it (a template's password before its ``@``, whose first character is a field filled
        elsewhere: ``":{env}-Secr3t@".format(env=ENV)``); None when that is the first, or there is none."""
        after = self.origin(end)
        if after is None or type(after[0]) is not Text or after[0].start == MADE or not _in(after[0].src, local):
            return None
        for i in range(start, end):
            o = self.origin(i)
            if o is not None and type(o[0]) is Text and o[0].node is after[0].node:
                return o if i > start else None
        return None


def _in(src: Src | None, local: Src) -> bool:
    return src is local or (src is not None and src.path is not None and src.path == local.path)


def position(piece: Piece, k: int, local: Src) -> SourcePos | None:
    """Where character ``k`` of a piece stands in the file of ``local`` (None: in another file)."""
    if not _in(piece.src, local):
        return None
    if isinstance(piece, Hole):
        return piece.position()
    return piece.position(k)


def literal_start(piece: Piece, local: Src) -> SourcePos | None:
    """Where the literal spelling a piece starts (None for holes, made text and other files)."""
    if type(piece) is not Text or piece.start == MADE or not _in(piece.src, local):
        return None
    assert piece.src is not None
    return piece.src.node_position(piece.node)


def query_delimiters(hole: Hole) -> str:
    """The query's delimiters (RFC 3986 sec. 2.2, 3.4: ``&=#+``) a hole's text may hold (``may_hold``); a ``+``
    that ``quote_plus()`` or ``urlencode()`` writes is an encoded space, no delimiter."""
    kept = may_hold(hole, "&=#" if hole.kind is HoleKind.ENCODED else "&=#+")
    return "&=#+" if kept and hole.chars is not None else kept  # (literals holding one: put in unencoded)


def _braced(text: str, holes: list[tuple[int, str | None]]) -> list[tuple[int, str]]:
    """The placeholders braces around a hole make (``"{" + key + "}"``): an expression whose name the code
    chose (RFC 6570 sec. 2.2), at its ``{``."""
    return [(h - 1, "{" + (name or "...") + "}") for h, name in holes
            if h and text[h - 1] == "{" and text.startswith("}", h + 1)]


def checked(value: Value, *, at_api: bool, dropped: tuple[str, str, Value] | None = None,
            printf: frozenset[int] = frozenset(), appends: bool = False, slash_base: bool = False) -> Checked:
    """The text the rules check for ``value``, with the facts of its assembly (``core.context.Assembly``);
    ``printf``: the literals that are printf templates (``filling.printf_templates``), by id."""
    text: list[str] = []
    holes: list[tuple[int, int]] = []
    joins: list[int] = []
    hole_facts: list[tuple[int, str]] = []
    templates: list[tuple[int, str]] = []
    starts: list[int] = []
    parts: list[tuple[Piece, list[int] | None]] = []
    spelled: list[tuple[int, int, tuple[int, int]]] = []
    named: list[tuple[int, str | None]] = []  # (each hole's offset and name)
    n = 0
    for run in _runs(value.pieces):
        if isinstance(run, Hole):
            if n:
                joins.append(n)
            starts.append(n)
            parts.append((run, None))
            text.append(HOLE)
            holes.append((n, n + 1))
            hole_facts.append((n, query_delimiters(run)))
            named.append((n, run.name))
            n += 1
            continue
        whole = "".join(t.text for t in run)  # (a placeholder is read by its grammar across the run)
        tpl = apply_templates(whole, percent_template=bool(printf) and any(id(t.node) in printf for t in run))
        if date_format(tpl.value):  # (a date's format: its directives are placeholders, left as written)
            tpl = tpl._replace(holes=tuple(sorted((*tpl.holes, *strftime_directives(tpl.value)))))
        mapped = tpl.index_map
        for a, b in tpl.holes:
            holes.append((n + a, n + b))
            templates.append((n + a, whole[a:b] if mapped is None else whole[mapped[a] : mapped[b]]))
        lo = 0  # where the piece starts in ``whole``
        for t in run:
            if n and joins[-1:] != [n]:  # (a piece a placeholder took whole adds no join of its own)
                joins.append(n)
            hi = lo + len(t.text)
            if tpl.index_map is None:
                part, index = t.text, None
            else:  # the collapsed text whose characters come from this piece (a placeholder: where it starts)
                first = bisect_left(tpl.index_map, lo)
                last = len(tpl.value) if t is run[-1] else bisect_left(tpl.index_map, hi)
                part = tpl.value[first:last]
                index = [m - lo for m in tpl.index_map[first:last]] + [len(t.text)]
            starts.append(n)
            parts.append((t, index))
            if t.spelled:
                spelled.append((n, n + len(part), (id(t.node), string_of(t))))
            elif part == "/" and _path_join(t.node):  # (the '/' posixpath.join puts between parts: the code's own)
                spelled.append((n, n + 1, (id(t.node), -1)))
            text.append(part)
            n += len(part)
            lo = hi
    whole_text = "".join(text)
    templates = sorted((*templates, *_braced(whole_text, named)))
    urljoin = None
    if dropped is not None:
        kind, lost, ref = dropped
        at = _find(value, ref, starts, parts)
        if at is None and n:
            at = n - 1  # (the resolution removed the whole reference, ".": where it went, at the end)
        if at is not None:
            urljoin = (at, kind, lost)
    assembly = Assembly(tuple(joins), tuple(hole_facts), tuple(templates), at_api, urljoin, tuple(spelled), appends,
                        slash_base)
    return Checked(whole_text, tuple(holes), assembly, tuple(starts), tuple(parts))


def _path_join(node: ast.AST) -> bool:
    """Whether ``node`` is a call of a function named ``join`` (``posixpath.join``, ``os.path.join``), which puts
    a '/' between its parts (no ``urljoin``, no client's request: the '/' they make is the model's)."""
    if type(node) is not ast.Call:
        return False
    func = node.func
    return (func.attr if type(func) is ast.Attribute else getattr(func, "id", None)) == "join"


def _runs(pieces: tuple[Piece, ...]) -> list[Hole | list[Text]]:
    """The pieces, each hole alone and each run of text one literal spells in order together (``{{x}}`` that
    ``.format`` made the pieces ``{`` and ``x}``): what the template grammar reads as one text."""
    runs: list[Hole | list[Text]] = []
    for p in pieces:
        if isinstance(p, Hole):
            runs.append(p)
            continue
        last = runs[-1] if runs else None
        t = last[-1] if type(last) is list else None
        if t is not None and p.start != MADE and t.start != MADE and p.node is t.node and p.src is t.src and \
                p.start >= t.start + len(t.text):
            last.append(p)  # type: ignore[union-attr]
        else:
            runs.append([p])
    return runs


def _find(value: Value, ref: Value, starts: list[int], parts: list[tuple[Piece, list[int] | None]]) -> int | None:
    """Where the reference's first known character landed in the resolved value; the first of its literal's
    characters the resolution kept, when it dropped that one (a dot segment: ``./items``)."""
    first = next((p for p in ref.pieces if type(p) is Text and p.start != MADE), None)
    if first is None:
        return None
    kept = None
    for s, (p, index) in zip(starts, parts, strict=True):
        if type(p) is Text and p.node is first.node and p.src is first.src:
            if p.start <= first.start < p.start + len(p.text):
                local = first.start - p.start
                if index is not None:
                    local = index.index(local) if local in index else 0
                return s + local
            if kept is None and p.start > first.start:
                kept = s
    return kept
