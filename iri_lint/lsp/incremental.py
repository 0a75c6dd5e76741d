"""Re-lint only the top-level statements an edit touched; every answer equals ``lint_text``'s.

After a full lint a document keeps its top-level statements (their lines, findings, and the
``ScanContext`` each was scanned in: names bound before it, words whose lines are walked) and
what is file-wide (the names formatted anywhere, ``marked_lines``). A new text is compared with
the last one line by line; the statements the changed lines touch, with one line of margin and
the gaps around them, are parsed alone, shifted to file lines and linted with the context the
old statements had (``lint_statements``, through ``iri_lint.source.statements``' scanner). Findings
of the other statements move with the line delta. The whole file is linted again instead when the
slice cannot stand for it:

* no earlier parse of the document, or the slice does not parse on its own;
* the changed statements (old or new) hold an import outside functions and classes (the module's
  import table, bound before the scan, feeds every statement);
* the slice leaves a different context behind it (it binds other names, e.g. ``s = requests.Session()``),
  or formats other names (``URL % x`` makes ``URL``'s value a template wherever it is);
* file-wide switches flip (the text test of the formatted-names pass), or the file holds a lone CR
  (``\\r``: the noqa pass reads its lines differently) or ``barry_as_FLUFL`` (it changes the parser).

The file-level noqa comment is read from the whole text every time, as ``lint_text`` does.

URL values (issue #27) cross statements: each statement keeps the findings of the values used in it, and
the module's tree is kept (for the ``KEPT_TREES`` documents linted last). After an edit, only the values
used in the changed statements are found again when those statements export what they did
(``source.exports``: what another statement's value can read of them), no finding kept stands in them,
no ``global``/``nonlocal`` is near them and no other file a value was read from changed; otherwise every
value of the module is. One finding per cause is then kept, in the order of the uses, as ``lint_text``
keeps it.
"""

from __future__ import annotations

import ast
import os
import re
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from iri_lint.config import Config
from iri_lint.lint import (
    SourceError,
    SourceFinding,
    lint_text,
    literal_checker,
    parse_source,
    scan_options,
    value_uses,
    with_values,
)
from iri_lint.noqa import file_noqa, is_noqa, noqa_lines
from iri_lint.source.exports import export_signature
from iri_lint.source.filling import find_filled_names
from iri_lint.source.literals import marked_lines
from iri_lint.source.locate import SourceFile, split_lines
from iri_lint.source.marks import api_call_lines
from iri_lint.source.model import Literal, SourcePos
from iri_lint.source.piece_edits import literal_of
from iri_lint.source.project import file_stamp
from iri_lint.source.statements import Formatted, ScanContext, StatementScanner, first_line, merge_formatted
from iri_lint.source.templates import may_be_filled
from iri_lint.unused_noqa import UNUSED_NOQA
from iri_lint.values_check import Cause, PieceFix, first_of_each_cause

_LONE_CR = re.compile(r"\r(?!\n)")


@dataclass(slots=True)
class _Statement:
    first: int  # 1-based lines in the current text, decorators included
    last: int
    findings: list[SourceFinding]  # as linted, ``shift`` lines ago
    formatted: Formatted
    imports: bool  # binds names for the whole module (see _module_imports)
    shift: int = 0
    # the findings of the URL values used in it, each with its cause, before one per cause is kept (positions
    # in the current text: a value's finding may stand in another statement, so they move one by one)
    values: list[tuple[Cause, SourceFinding]] = field(default_factory=list)


@dataclass(slots=True)
class _Baseline:
    """The last text that parsed, statement by statement."""

    text: str
    lines: list[str]
    statements: list[_Statement]
    contexts: list[ScanContext]  # before each statement, then after the last
    filled: Formatted  # the names the module formats
    gate: bool  # the text test of the formatted-names pass
    marked: list[int]  # its ``literal`` marks, or without any its URL API calls' lines (``lint_text``'s)
    literal: list[int]  # its ``marked_lines``
    body: list[ast.stmt] | None  # the module's statements, in the current text's lines (None: let go)
    depends_on: dict[str, tuple[int, int, int] | None]  # other files the values were read from: their stamps


@dataclass(slots=True)
class LintRun:
    """How the last text was linted, for the trace."""

    mode: str  # "incremental", "full", "unchanged"
    why: str = ""  # why not incremental
    linted: int = 0  # statements linted
    statements: int = 0  # statements in the file
    seconds: float = 0.0
    values: str = ""  # whose URL values were found again: "slice" (the changed statements'), "module" (all)

    def describe(self) -> str:
        what = f"{self.linted} of {self.statements} statements" if self.statements else "the whole file"
        values = f", values of the {self.values}" if self.values else ""
        return f"{self.mode}, {what}{values}" + (f"; {self.why}" if self.why else "")


class _Fallback(Exception):
    """Lint the whole file instead (the message says why)."""


def _module_imports(stmt: ast.stmt) -> bool:
    """Whether the statement holds an import outside any function or class: the scanner binds those for the whole
    module before it walks it (imports in functions are ordinary bindings, compared through a slice's context)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.expr):
            stack.extend(ast.iter_child_nodes(node))
    return False


# documents whose module tree stays between edits (about 60x the text each: 12 MB for 5,000 lines), the most
# recently linted last; another document's next edit parses its module again
KEPT_TREES = 4
_KEPT: list[_Baseline] = []


_KEPT_LOCK = threading.Lock()  # (the server lints documents in worker threads)


def _keep_tree(base: _Baseline) -> None:
    """Keep ``base``'s tree as the most recent; let the oldest kept go past ``KEPT_TREES``."""
    with _KEPT_LOCK:
        for k, b in enumerate(_KEPT):
            if b is base:
                del _KEPT[k]
                break
        _KEPT.append(base)
        while len(_KEPT) > KEPT_TREES:
            _KEPT.pop(0).body = None


_LINE_FIELDS: dict[type, tuple[tuple[str, ...], bool]] = {}


def _shift_lines(nodes: list[ast.stmt], delta: int) -> None:
    """``ast.increment_lineno`` of each node, in half its time (a field table per node type, no
    generators): what the lines below an edit cost when it adds or removes lines."""
    stack: list[ast.AST] = list(nodes)
    while stack:
        node = stack.pop()
        t = type(node)
        table = _LINE_FIELDS.get(t)
        if table is None:
            table = _LINE_FIELDS[t] = (tuple(f for f in t._fields if f != "ctx"), "lineno" in t._attributes)
        fields, has_lines = table
        if has_lines:
            node.lineno += delta  # type: ignore[attr-defined]
            if node.end_lineno is not None:  # type: ignore[attr-defined]
                node.end_lineno += delta  # type: ignore[attr-defined]
        for f in fields:
            v = getattr(node, f, None)
            if type(v) is list:
                stack += [x for x in v if isinstance(x, ast.AST)]
            elif isinstance(v, ast.AST):
                stack.append(v)


def _detached(found: list[SourceFinding]) -> list[SourceFinding]:
    """The findings without their literals' ties to the text they were found in (its lines, its AST): the table
    keeps them for diagnostics, which read positions and findings only (hovers and fixes lint their statement
    again, ``view``). Else each statement keeps the lines it was last linted in: 0.5 MB each in 5,000 lines."""
    return [replace(sf, literal=_no_ties(sf.literal), piece_fix=_piece_detached(sf.piece_fix)) for sf in found]


def _no_ties(lit: Literal) -> Literal:
    return replace(lit, position_of=None, locator=None)


def _piece_detached(pf: PieceFix | None) -> PieceFix | None:
    """A value's fix without its literal's ties to the text (``StatementView`` finds the literal again)."""
    return None if pf is None else pf._replace(literal=_no_ties(pf.literal))


def _shifted(sf: SourceFinding, by: int) -> SourceFinding:
    # (the literal moved too: a value's finding is told from its literal's by the literal's start)
    pf = sf.piece_fix
    return replace(sf, literal=_lines_shifted(sf.literal, by), start=SourcePos(sf.start.line + by, sf.start.col),
                   end=SourcePos(sf.end.line + by, sf.end.col),
                   piece_fix=None if pf is None else pf._replace(literal=_lines_shifted(pf.literal, by)))


def _lines_shifted(lit: Literal, by: int) -> Literal:
    return replace(lit, start=SourcePos(lit.start.line + by, lit.start.col),
                   end=SourcePos(lit.end.line + by, lit.end.col))


def _fix_in_view(sf: SourceFinding, tree: ast.Module, source: SourceFile) -> SourceFinding:
    """A value's finding whose fix edits the view's own literal (found again where it starts), as a code
    action makes it on the view's text; without its fix when that literal is not the one it was."""
    pf = sf.piece_fix
    if pf is None:
        return sf
    at = pf.literal.start
    for node in ast.walk(tree):
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and node.lineno == at.line and \
                source.char_col(node.lineno, node.col_offset) == at.col:
            lit = literal_of(node, source, pct=pf.pct, fmt=pf.fmt)
            if lit is not None and lit.value == pf.literal.value and lit.end == pf.literal.end:
                return replace(sf, piece_fix=pf._replace(literal=lit))
            break
    return replace(sf, finding=replace(sf.finding, fix=None), piece_fix=None)


@dataclass(slots=True)
class IncrementalLinter:
    """Lints successive texts of one document (``lint_text(text, config, path=path, file=file)`` each time)."""

    config: Config
    path: str | None = None
    base: _Baseline | None = None
    file: str | None = None  # where the document is on disk, when ``path`` (per-file settings') is not that
    last: LintRun = field(default_factory=lambda: LintRun("full"))
    check: Callable[[], object] | None = None
    nothing: str | None = None  # the last text linted when it holds nothing IRI-like (no statement table)
    fresh: bool = True  # nothing linted yet
    values: tuple[str, list[SourceFinding]] | None = None  # the last text's URL values' findings

    def lint(self, text: str, check: Callable[[], object] | None = None) -> list[SourceFinding]:
        """The findings for ``text``; raises SourceError as ``lint_text`` does. ``check`` is called
        now and then (between statements): it may raise to give up on a text nobody needs any more."""
        started = time.perf_counter()
        self.check = check
        self.nothing = None
        self.fresh = False
        try:
            if UNUSED_NOQA in self.config.codes_for(self.path):  # (it needs every finding before noqa)
                self.base, self.last = None, LintRun("full", "IRI901 reads the whole file's noqa comments")
                return lint_text(text, self.config, path=self.path, file=self.file)
            if self.base is None:
                raise _Fallback("first lint")
            found = self._incremental(text)
        except _Fallback as why:
            found = self._full(text, str(why))
        finally:
            self.last.seconds = time.perf_counter() - started
        return found

    def first_lint(self, text: str, check: Callable[[], object] | None = None) -> list[SourceFinding]:
        """``lint_text``'s findings, without the statement table ``lint`` keeps (building it costs about
        0.4x more): a document just opened gets its diagnostics sooner, and ``lint`` builds the table
        after. ``check`` is called once, at the end."""
        started = time.perf_counter()
        self.fresh = False
        try:
            found = lint_text(text, self.config, path=self.path, file=self.file)
        finally:
            self.last = LintRun("full", "first lint, the statement table comes after",
                                seconds=time.perf_counter() - started)
        if check is not None:
            check()
        return found

    def reads(self, paths: set[str]) -> bool:
        """Whether the last lint's URL values may have read one of the files ``paths`` (real; a first lint: any)."""
        base = self.base
        if base is None:
            return not self.fresh and self.nothing is None
        return any(os.path.realpath(p) in paths for p in base.depends_on)

    def forget(self) -> None:
        if self.base is not None:
            self.base.body = None
        self.base = None

    # ---------------------------------------------------------------- the whole file

    def _full(self, text: str, why: str) -> list[SourceFinding]:
        self.last = LintRun("full", why)
        config, path = self.config, self.path
        enabled = config.codes_for(path)
        lines = split_lines(text)
        literal = marked_lines(SourceFile(lines), scan_options(config, enabled)) if enabled else []
        marked = literal or (api_call_lines(SourceFile(lines), scan_options(config, enabled)) if enabled else [])
        if not marked:
            self.base, self.nothing = None, text
            return []
        if self.check is not None:
            self.check()
        tree = parse_source(text, path or "<unknown>")  # SourceError: the last good baseline stays
        if _LONE_CR.search(text) or "barry_as_FLUFL" in text:  # no slices for such a file: lint_text's own way
            self.base = None
            self.last.linted = self.last.statements = len(tree.body)
            return lint_text(text, config, path=path, file=self.file)
        got = lint_statements(lines, tree.body, config, path=path, marked=marked, check=self.check,
                              file=self.file)
        statements = [_Statement(first_line(s), s.end_lineno or s.lineno, _detached(found), formatted,
                                 _module_imports(s))
                      for s, found, formatted in zip(tree.body, got.findings, got.formatted, strict=True)]
        if self.base is not None:
            self.base.body = None  # (the document's earlier tree, perhaps still among the kept)
        self.base = _Baseline(text, lines, statements, got.contexts, got.filled, may_be_filled(text), marked,
                              literal, tree.body, {})
        _keep_tree(self.base)
        self._evaluate(None)
        self.last.linted = self.last.statements = len(statements)
        return self._assemble(text, self._collect())

    # ---------------------------------------------------------------- only what changed

    def _incremental(self, text: str) -> list[SourceFinding]:
        base = self.base
        assert base is not None
        if text == base.text:
            if any(file_stamp(path) != stamp for path, stamp in base.depends_on.items()):
                raise _Fallback("a file its values were read from changed")
            self.last = LintRun("unchanged", statements=len(base.statements))
            return self._assemble(text, self._collect())
        if _LONE_CR.search(text) or "barry_as_FLUFL" in text:
            raise _Fallback("a lone CR or barry_as_FLUFL in the file")
        if may_be_filled(text) != base.gate:
            raise _Fallback("the formatted-names test flipped")
        old, new = base.lines, split_lines(text)
        n_old, n_new = len(old), len(new)
        limit = min(n_old, n_new)
        p = 0
        while p < limit and old[p] == new[p]:
            p += 1
        s = 0
        while s < limit - p and old[n_old - 1 - s] == new[n_new - 1 - s]:
            s += 1
        delta = n_new - n_old
        i, j, first, last = self._region(p + 1, n_old - s)
        if any(st.imports for st in base.statements[i : j + 1]):
            raise _Fallback("the edit touches an import")
        try:
            tree = ast.parse("".join(new[first - 1 : last + delta]))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise _Fallback("the changed statements do not parse alone") from None
        imports = [_module_imports(st) for st in tree.body]
        if any(imports):
            raise _Fallback("the edit touches an import")
        ast.increment_lineno(tree, first - 1)
        marked, literal = self._marks(text, new, first, last, delta)
        if not marked:  # lint_text does not even parse such a text
            self.last = LintRun("full", "nothing IRI-like left", 0, 0)
            self.nothing = text
            return []
        got = lint_statements(new, tree.body, self.config, path=self.path, marked=marked, file=self.file,
                              start=base.contexts[i], filled=base.filled, check=self.check)
        after = base.contexts[j + 1]
        if got.contexts[-1] is not after and (got.contexts[-1].aliases != after.aliases
                                              or got.contexts[-1].words != after.words):
            raise _Fallback("the changed statements bind other names")
        was = [st.formatted for st in base.statements[i : j + 1]]
        if base.gate and merge_formatted(got.formatted) != merge_formatted(was):
            raise _Fallback("the changed statements format other names")
        fresh = [_Statement(first_line(st), st.end_lineno or st.lineno, _detached(found), formatted, False)
                 for st, found, formatted in zip(tree.body, got.findings, got.formatted, strict=True)]
        # the values outside the slice stay when it exports what it did (source.exports): read before the
        # old statements' lines move
        whole, kept = self._spliced(text, i, j, tree.body, "".join(old[first - 1 : last]),
                                    "".join(new[first - 1 : last + delta]), delta)
        tail = base.statements[j + 1 :]
        for st in tail:
            st.first += delta
            st.last += delta
            st.shift += delta
        base.statements = base.statements[:i] + fresh + tail
        base.body = whole
        _keep_tree(base)
        base.contexts = base.contexts[:i] + got.contexts[:-1] + base.contexts[j + 1 :]
        base.text, base.lines, base.marked, base.literal = text, new, marked, literal
        moved = kept and self._move_values(first, last, delta, base.statements[:i] + tail)
        self._evaluate((first, last + delta) if moved else None)
        self.last = LintRun("incremental", linted=len(fresh), statements=len(base.statements),
                            values="slice" if moved else "module")
        return self._assemble(text, self._collect())

    # ---------------------------------------------------------------- URL values

    def _spliced(self, text: str, i: int, j: int, fresh: list[ast.stmt], old_text: str, new_text: str,
                 delta: int) -> tuple[list[ast.stmt], bool]:
        """The new text's module statements, old statements i..j replaced by ``fresh`` (those below moved
        by ``delta`` lines), and whether the values used outside them are kept (``_values_kept``)."""
        base = self.base
        assert base is not None
        body = base.body
        if body is None:  # its tree was let go (_keep_tree): the whole module again
            try:
                return ast.parse(text).body, False
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                raise _Fallback("the text does not parse as a whole") from None
        kept = self._values_kept(body[i : j + 1], fresh, old_text, new_text)
        below = body[j + 1 :]
        if delta:
            _shift_lines(below, delta)
        return body[:i] + fresh + below, kept

    def _values_kept(self, old: list[ast.stmt], new: list[ast.stmt], old_text: str, new_text: str) -> bool:
        """Whether the values used outside an edited slice are what they were: it exports the same names and
        attributes, no ``global``/``nonlocal`` word was near it (the evaluator reads those from the text), and
        no other file a value was read from changed."""
        base = self.base
        assert base is not None
        if any(w in t for t in (old_text, new_text) for w in ("global", "nonlocal")):
            return False
        if any(file_stamp(path) != stamp for path, stamp in base.depends_on.items()):
            return False
        return list(map(export_signature, old)) == list(map(export_signature, new))

    @staticmethod
    def _move_values(first: int, last: int, delta: int, others: list[_Statement]) -> bool:
        """Move the value findings of the statements outside old lines first..last with the lines below them;
        False when one of them stands inside those lines (it must be found again)."""
        def moved(pos: SourcePos) -> SourcePos | None:
            if pos.line < first:
                return pos
            return SourcePos(pos.line + delta, pos.col) if pos.line > last else None

        for st in others:
            if not st.values or (not delta and all(
                    not first <= p.line <= last for cause, sf in st.values
                    for p in (cause[1], sf.start, sf.end, sf.literal.start, sf.literal.end))):
                continue  # (nothing to move)
            out = []
            for (code, at), sf in st.values:
                pf = sf.piece_fix
                edited = (pf.literal.start, pf.literal.end) if pf is not None else ()
                points = [moved(p) for p in (at, sf.start, sf.end, sf.literal.start, sf.literal.end, *edited)]
                if None in points:
                    return False
                a, start, end, lit_start, lit_end, *piece = points
                assert a is not None and start is not None and end is not None
                assert lit_start is not None and lit_end is not None
                if pf is not None and piece[0] is not None and piece[1] is not None:
                    pf = pf._replace(literal=replace(pf.literal, start=piece[0], end=piece[1]))
                out.append(((code, a), replace(sf, start=start, end=end, piece_fix=pf,
                                               literal=replace(sf.literal, start=lit_start, end=lit_end))))
            st.values = out
        return True

    def _evaluate(self, within: tuple[int, int] | None) -> None:
        """Find the values used on lines ``within`` (the statements there are fresh), or in the whole module
        (None), and give each statement the findings of the uses in it."""
        base = self.base
        assert base is not None
        self.values = None  # (what ``_values`` kept for this text is stale: another file may have changed)
        sts = base.statements
        if within is None:
            for st in sts:
                st.values = []
            base.depends_on = {}
        depends: set[str] = set()
        assert base.body is not None
        uses = value_uses(ast.Module(body=base.body, type_ignores=[]), base.lines, self.config, path=self.path,
                          file=self.file, marked=base.marked, within=within, depends_on=depends)
        firsts = [st.first for st in sts]
        for line, placed in uses:
            sts[max(bisect_right(firsts, line) - 1, 0)].values += [
                (cause, replace(sf, piece_fix=_piece_detached(sf.piece_fix))) for cause, sf in placed]
        for path in depends - base.depends_on.keys():  # (a slice's values may read other files too)
            base.depends_on[path] = file_stamp(path)

    def _region(self, c1: int, c2: int) -> tuple[int, int, int, int]:
        """Statements i..j (none when i == j + 1) and the old lines first..last, the gaps around them
        included, to lint again when old lines c1..c2 changed (c2 == c1 - 1: lines were inserted)."""
        base = self.base
        assert base is not None
        sts = base.statements
        n = len(sts)
        # a line of margin each side: an edit next to a statement may join it
        i = bisect_left([st.last for st in sts], c1 - 1)
        j = bisect_right([st.first for st in sts], c2 + 1) - 1
        while True:
            while 0 < i < n and sts[i - 1].last >= sts[i].first:
                i -= 1  # statements sharing a line (a; b) go together
            while 0 <= j < n - 1 and sts[j + 1].first <= sts[j].last:
                j += 1
            if i > 0 and base.lines[sts[i - 1].last - 1].rstrip("\r\n").endswith("\\"):
                i -= 1  # a backslash carries that statement's line into the slice
                continue
            break
        first = sts[i - 1].last + 1 if i > 0 else 1
        last = sts[j + 1].first - 1 if j + 1 < n else len(base.lines)
        return i, j, first, last

    def _marks(self, text: str, new: list[str], first: int, last: int, delta: int) -> tuple[list[int], list[int]]:
        """The new text's marks as ``lint_text`` has them, and its ``marked_lines``: these computed on the
        slice only when that gives the same lines; without any, the URL API calls' lines of the whole text."""
        opts = scan_options(self.config, self.config.codes_for(self.path))
        if len(text.lower()) != len(text):  # marked_lines then matches names differently, file-wide
            literal = marked_lines(SourceFile(new), opts)
        else:
            base = self.base
            assert base is not None
            old = base.literal
            inside = marked_lines(SourceFile(new[first - 1 : last + delta]), opts)
            literal = [*old[: bisect_left(old, first)], *(m + first - 1 for m in inside),
                       *(m + delta for m in old[bisect_right(old, last) :])]
        return literal or api_call_lines(SourceFile(new), opts), literal

    # ---------------------------------------------------------------- answers

    def _collect(self) -> list[SourceFinding]:
        assert self.base is not None
        out: list[SourceFinding] = []
        for st in self.base.statements:
            out.extend([_shifted(f, st.shift) for f in st.findings] if st.shift else st.findings)
        return out

    def _values(self, text: str, found: list[SourceFinding]) -> list[SourceFinding]:
        """The findings of the document's URL values: one per cause not among the literals' ``found``, in the
        order of their uses, line-level noqa applied (as ``lint_text`` gives them); once per text."""
        if (base := self.base) is None:
            return []
        if self.values is None or self.values[0] is not text:
            causes = {(f.code, f.literal.start) for f in found}
            more = [sf for st in base.statements for sf in first_of_each_cause(st.values, causes)]
            if more and "noqa" in text.lower():
                mapping = noqa_lines(text)
                more = [f for f in more if not is_noqa(f.code, mapping.get(f.line))]
            self.values = (text, more)
        return self.values[1]

    def _assemble(self, text: str, found: list[SourceFinding], values: bool = True) -> list[SourceFinding]:
        if values:
            found = with_values(found, self._values(text, found))
        if found and "noqa" in text.lower():
            whole = file_noqa(text)
            if whole is not None:
                found = [f for f in found if whole and not f.code.startswith(tuple(whole))]
        if found and self.config.per_file_ignores:  # (as ``lint_tree``: after the rules ran, as flake8 does)
            found = [f for f in found if f.code in self.config.codes_for(self.path)]
        found.sort(key=lambda f: (f.line, f.col, f.code))
        return found

    def view(self, text: str, first: int, last: int) -> StatementView | None:
        """The top-level statements on lines first..last of ``text`` (the last text linted), linted again
        on their own lines with the context they have in the file: what a hover or a code action reads,
        without parsing the file. None when there is no statement table for ``text``."""
        base = self.base
        if base is None or base.text != text:
            return StatementView("", 0, 0, [], [], []) if text == self.nothing else None
        sts = base.statements
        n = len(sts)
        k0 = bisect_left([st.last for st in sts], first)
        k1 = bisect_right([st.first for st in sts], last) - 1
        if k0 > k1:  # between statements: blank lines and comments hold no literal
            return StatementView("", 0, 0, [], [], [])
        while k0 > 0 and (sts[k0 - 1].last >= sts[k0].first
                          or base.lines[sts[k0 - 1].last - 1].rstrip("\r\n").endswith("\\")):
            k0 -= 1  # statements sharing a line (a; b), or a backslash carrying a line into the first
        while k1 < n - 1 and sts[k1 + 1].first <= sts[k1].last:
            k1 += 1
        a = sts[k0].first
        b = sts[k1 + 1].first - 1 if k1 + 1 < n else len(base.lines)  # (the gap after: noqa comments)
        lines = base.lines[a - 1 : b]
        piece = "".join(lines)
        try:
            tree = ast.parse(piece)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        if len(tree.body) != k1 - k0 + 1:
            return None
        marked = [m - a + 1 for m in base.marked[bisect_left(base.marked, a) : bisect_right(base.marked, b)]]
        got = lint_statements(lines, tree.body, self.config, path=self.path, marked=marked, file=self.file,
                              start=base.contexts[k0], filled=base.filled)
        source = SourceFile(list(lines))
        inside = [_fix_in_view(_shifted(f, 1 - a), tree, source) for f in self._values(text, self._collect())
                  if a <= f.start.line <= b]
        found = self._assemble(text, [f for group in got.findings for f in group] + inside, values=False)
        spans = [(first_line(st), st.end_lineno or st.lineno) for st in tree.body]
        offset = sum(map(len, base.lines[: a - 1]))
        return StatementView(piece, offset, a - 1, [lit for group in got.literals for lit in group], found, spans)


@dataclass(slots=True)
class StatementView:
    """Top-level statements of a document linted on their own (``IncrementalLinter.view``).

    Their literals and findings count lines and offsets in ``text``, which is the document's from line
    ``line_delta + 1``, code point ``offset``: fixes made and verified on it are the document's, moved
    by ``offset`` (a statement parses alone as it parses in the file)."""

    text: str
    offset: int
    line_delta: int
    literals: list[Literal]
    findings: list[SourceFinding]  # as lint_text gives them, lines counted in the view
    spans: list[tuple[int, int]]  # each statement's first and last line in the view

    def statement_of(self, line: int) -> tuple[int, int] | None:
        """The first and last line of the statement holding view line ``line``."""
        k = bisect_right([first for first, _ in self.spans], line) - 1
        return self.spans[k] if k >= 0 and self.spans[k][1] >= line else None

    def literal_at(self, offset: int) -> Literal | None:
        """The (first) literal whose source span holds view offset ``offset``."""
        for lit in self.literals:
            src = lit.locator.source if lit.locator is not None else None
            if src is not None and src.offset(lit.start.line, lit.start.col) <= offset <= src.offset(
                    lit.end.line, lit.end.col):
                return lit
        return None

    def in_document(self, sf: SourceFinding) -> SourceFinding:
        """``sf`` with document lines (for a diagnostic)."""
        return _shifted(sf, self.line_delta) if self.line_delta else sf


# ---------------------------------------------------------------------------- a slice of a module

@dataclass(slots=True)
class StatementFindings:
    """``lint_statements``' answer, statement by statement."""

    findings: list[list[SourceFinding]]  # line-level noqa applied; a file-level noqa comment is the caller's
    contexts: list[ScanContext]  # the context before each statement, then the one after the last
    formatted: list[Formatted]  # the names each statement formats (what it adds to the module's)
    filled: Formatted  # the module's formatted names, to pass back in with later slices
    literals: list[list[Literal]] = field(default_factory=list)  # every candidate, with findings or not (hovers)


def lint_statements(lines: Sequence[str], statements: Sequence[ast.stmt], config: Config, *,
                    marked: Sequence[int], path: str | None = None, start: ScanContext | None = None,
                    filled: Formatted | None = None, honour_noqa: bool = True,
                    check: Callable[[], object] | None = None, file: str | None = None) -> StatementFindings:
    """Lint consecutive top-level statements of a module exactly as ``lint_text`` lints them in it.

    ``lines``: the whole module (``split_lines``); the statements carry file line numbers (parse a slice
    and ``ast.increment_lineno`` it), and the findings come back in file coordinates. (Or the lines of
    whole top-level statements alone, numbered from 1 as parsed: then all is in their numbers.)
    ``marked``: the module's ``marked_lines`` (those inside the statements are enough). ``start`` and
    ``filled``: the context before the first statement and the module's formatted names, from an
    earlier call; leave them out when ``statements`` is the whole module. The caller keeps what is
    file-wide: ``enabled`` and ``marked`` being empty (``lint_text`` returns nothing), the file-level
    noqa comment, sorting.
    ``check`` is called before each statement: it may raise to stop a lint nobody needs any more.
    """
    enabled = config.codes_for(path, per_file=False)  # (per-file ignores: the caller's, after the rules ran)
    checker = literal_checker(config, enabled)
    out = StatementFindings([], [], [], filled or {})
    if not statements:
        out.contexts.append(start or ScanContext({}, frozenset()))
        return out
    for stmt in statements:  # the names each statement formats (what one pass over the module finds)
        if check is not None:
            check()
        out.formatted.append(find_filled_names(stmt))
    if filled is None:  # the whole module: its formatted names, if its text can hold any
        out.filled = merge_formatted(out.formatted) if may_be_filled("".join(lines)) else {}
    scanner = StatementScanner(lines, statements, scan_options(config, enabled), marked=marked,
                               formatted=out.filled, start=start, file=file or path)
    for stmt in statements:
        if check is not None:
            check()
        out.contexts.append(scanner.context())
        literals = scanner.scan(stmt)
        out.literals.append(literals)
        out.findings.append([f for lit in literals for f in checker.findings(lit)])
    out.contexts.append(scanner.context())
    if honour_noqa and any(out.findings):
        first = first_line(statements[0])
        last = max(s.end_lineno or s.lineno for s in statements)
        out.findings = _without_noqa(lines, first, last, out.findings)
    return out


def _without_noqa(lines: Sequence[str], first: int, last: int,
                  findings: list[list[SourceFinding]]) -> list[list[SourceFinding]]:
    """The findings of lines first..last without those their ``# noqa`` comments silence."""
    end = last
    while end < len(lines) and lines[end - 1].rstrip("\r\n").endswith("\\"):
        end += 1  # a backslash carries the last logical line on, onto a blank or comment line
    text = "".join(lines[first - 1 : end])
    if "noqa" not in text.lower():  # these lines hold every comment flake8 reads for the statements
        return findings
    # (the backslash may have been a comment's: then the extra line need not tokenize alone)
    mapping = noqa_lines(text) or noqa_lines("".join(lines[first - 1 : last]))
    return [[f for f in group if not is_noqa(f.code, mapping.get(f.line - first + 1))] for group in findings]


def lint_whole(text: str, config: Config, path: str | None = None) -> list[SourceFinding]:
    """``lint_text`` through a fresh ``IncrementalLinter`` (what the tests compare against)."""
    return IncrementalLinter(config, path).lint(text)


__all__ = ["IncrementalLinter", "LintRun", "SourceError", "StatementView", "lint_whole"]
