"""The scan of a module one top-level statement at a time: the source API the editor keeps between edits.

A statement's candidate literals depend on the rest of its module through three things, all carried
here so that a slice of statements is scanned exactly as the whole module's scan reads it: the names
bound before it (imports, ``s = requests.Session()``: which calls are URL APIs), the words among them
whose lines are worth walking (a ``ScanContext``), and the names formatted anywhere in the module
(``URL % x`` makes ``URL``'s value a template: ``Formatted``). The language server
(``iri_lint.lsp.incremental``) keeps a ``ScanContext`` before each statement and the module's
``Formatted`` names, and scans again only the statements an edit touched, starting from theirs.
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .literals import Scanner, ScanOptions, marked_lines
from .locate import SourceFile
from .model import Literal
from .templates import Filling, merge_fillings

Formatted = dict[str, Filling]  # name -> how the module fills it in (%-formatted, .format-ted, .replace needles)


@dataclass(frozen=True, slots=True)
class ScanContext:
    """What scanning a top-level statement takes from the statements before it: the names bound so far
    and the words among them that lead to URL APIs."""

    aliases: dict[str, str]
    words: frozenset[str]


def merge_formatted(groups: Iterable[Formatted]) -> Formatted:
    """The names a module formats, from the names each of its statements formats, merged as one pass
    over the whole module merges them (``filling.find_filled_names``)."""
    out: Formatted = {}
    for group in groups:
        for name, filling in group.items():
            old = out.get(name)
            out[name] = filling if old is None else merge_fillings(old, filling)
    return out


def first_line(stmt: ast.stmt) -> int:
    """A statement's first line, its decorators included."""
    decorators: list[ast.expr] = getattr(stmt, "decorator_list", [])
    return min([stmt.lineno, *(d.lineno for d in decorators)])


class StatementScanner(Scanner):
    """The scanner over consecutive top-level statements of one module, one ``scan`` per statement.

    ``lines``: the whole module (``split_lines``), or the lines of whole top-level statements alone,
    numbered as the statements are. ``marked``: the module's ``marked_lines`` (those inside the
    statements are enough). ``formatted``: the names the whole module formats. ``start``: the context
    before the first statement, from an earlier scan; None when ``statements`` is the whole module (its
    imports are then bound first, as the whole module's scan binds them).
    """

    __slots__ = ("binds", "seen", "snapshot", "words")

    def __init__(self, lines: Sequence[str], statements: Sequence[ast.stmt], opts: ScanOptions, *,
                 marked: Sequence[int], formatted: Formatted, start: ScanContext | None = None,
                 file: str | None = None) -> None:
        super().__init__(SourceFile(list(lines)), opts, file)
        self.binds = 0  # bind() calls so far: the context changed since the last snapshot
        self.words: set[str] = set()  # every name bound to a URL API so far (their lines get walked)
        self.filled = formatted
        first = first_line(statements[0])
        last = max(s.end_lineno or s.lineno for s in statements)
        self.marked = list(marked[bisect_left(marked, first) : bisect_right(marked, last)])
        if start is None:
            self.prepass(ast.Module(body=list(statements), type_ignores=[]))
        else:
            self.aliases = dict(start.aliases)
            self.words = set(start.words)
            if start.words:  # the lines using them, as the scanner marked them when it bound them
                region = SourceFile(list(lines[first - 1 : last]))
                more = [line + first - 1 for line in marked_lines(region, opts, sorted(start.words))]
                self.marked = sorted(set(self.marked).union(more))
        self.seen = -1
        self.snapshot = start or ScanContext({}, frozenset())

    def bind(self, name: str, qual: str) -> None:
        """Record an alias, counting the bindings and the words that lead to URL APIs."""
        self.binds += 1
        if qual.replace("()", "") in self.api_prefixes and self.aliases.get(name) != qual:
            self.words.add(name.rsplit(".", 1)[-1])
        super().bind(name, qual)

    def context(self) -> ScanContext:
        """The names bound so far: what the next statement is scanned with (a new object only when a
        name was bound since the last call)."""
        if self.binds != self.seen:
            self.snapshot = ScanContext(dict(self.aliases), frozenset(self.words))
            self.seen = self.binds
        return self.snapshot

    def scan(self, stmt: ast.stmt) -> list[Literal]:
        """The next statement's candidate literals in source order (with the IRIs in its prose, in text
        mode), as the whole module's scan finds them."""
        if self.texts is not None:
            self.texts = []
        literals = list(self.walk(ast.Module(body=[stmt], type_ignores=[])))
        if self.texts:
            literals.extend(self.texts)
            literals.sort(key=lambda lit: (lit.start.line, lit.start.col))
        return literals
