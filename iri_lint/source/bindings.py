"""Where a module binds its names: scopes, their bindings in statement order, and attributes of ``self``.

Read from the ast only, lazily: a function's or a class's scope is indexed when a name in it is first
looked up. Every walk is an explicit stack (no recursion on the tree), so deep code costs linear time."""

from __future__ import annotations

import ast
import enum
import functools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate, repeat
from operator import add
from typing import NamedTuple

from iri_lint.source.blocks import DEFS, TRY, Span, StmtPos, on_lines, statements, statements_on

__all__ = ["ATTRIBUTE_BINDING", "At", "Binding", "Kind", "ModuleIndex", "Order", "Scope", "StmtPos", "binds_a_number",
           "defined_by_def", "dunder_all", "rebound_inside"]


class Kind(enum.Enum):
    """How a statement binds a name."""

    ASSIGN = "="  # name = value (element by element from a tuple or list display)
    AUG = "+="  # name += value
    IMPORT = "import"  # import m / from m import n
    WITH = "with"  # with value as name
    OTHER = "other"  # a parameter, a loop target, def, class, del, except-as, match, walrus, other ops
    STAR = "*"  # from m import *: may bind any name


class Binding(NamedTuple):
    """One binding of a name (or of ``self.<attr>``) in a scope."""

    kind: Kind
    stmt: ast.stmt | None  # None: a parameter (bound before the first statement)
    value: ast.expr | None  # ASSIGN, AUG, WITH: the expression
    block: int  # id() of the statement list holding ``stmt``
    at: int  # its index there
    pos: tuple[int, int]  # (line, column) of ``stmt``: source order
    imported: tuple[str | None, str | None, int] | None = None  # IMPORT: (module, name, level)
    scope: Scope | None = None  # where ``value`` is evaluated, when not the scope holding the binding


class Order:
    """One name's bindings in a scope, indexed by source position and per statement list (logarithmic
    lookups), each with the last binding up to it that sets the name afresh."""

    __slots__ = ("blocks", "by_pos", "positions")

    def __init__(self, bindings: list[Binding], echoes: Iterable[Binding] = ()) -> None:
        self.by_pos = sorted(bindings, key=lambda b: b.pos)
        self.positions = [b.pos for b in self.by_pos]
        # block -> (indexes, bindings, for each: where the last non-``+=`` binding up to it stands, or -1);
        # ``echoes``: the bindings of a ``finally:`` block again, in the block of its ``try`` (``Scope.echoes``)
        self.blocks: dict[int, tuple[list[int], list[Binding], list[int]]] = {}
        for b in sorted((b for b in (*bindings, *echoes) if b.stmt is not None), key=lambda b: (b.block, b.at)):
            ats, bs, resets = self.blocks.setdefault(b.block, ([], [], []))
            ats.append(b.at)
            bs.append(b)
            resets.append(len(bs) - 1 if b.kind is not Kind.AUG else resets[-1] if resets else -1)

    def before(self, pos: tuple[int, int]) -> list[Binding]:
        """The bindings whose statements start before ``pos``."""
        return self.by_pos[: bisect_left(self.positions, pos)]

    def between(self, lo: tuple[int, int], hi: tuple[int, int], skip: Sequence[Span] = ()) -> list[Binding]:
        """The bindings that start strictly between two positions, less those within the spans ``skip``."""
        out = self.by_pos[bisect_right(self.positions, lo) : bisect_left(self.positions, hi)]
        return [b for b in out if not any(a <= b.pos < z for a, z in skip)]

    def within(self, stmt: ast.stmt) -> list[Binding]:
        """The bindings inside a statement (its first position included)."""
        start = bisect_left(self.positions, (stmt.lineno, stmt.col_offset))
        end = bisect_left(self.positions, (stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0))
        return self.by_pos[start:end]

    def after(self, pos: tuple[int, int]) -> int:
        """How many bindings start after ``pos``."""
        return len(self.positions) - bisect_right(self.positions, pos)


# statements that bind no name themselves (their nested statements are indexed on their own)
_NO_BINDINGS = frozenset((ast.Expr, ast.Return, ast.Pass, ast.Raise, ast.Assert, ast.Break, ast.Continue, ast.If,
                          ast.While))
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_NOWHERE = (0, 0)
_new_tuple = tuple.__new__  # (a StmtPos per statement, a Binding per binding: without NamedTuple.__new__'s call)
_TYPE_ALIAS = getattr(ast, "TypeAlias", None)


class At(NamedTuple):
    """Where an expression is evaluated: its scope, its statement, names a comprehension or lambda around it
    binds (holes), and in a helper's return read at a call, its parameters' values there (``source.helpers``)."""

    scope: Scope
    stmt: ast.stmt | None
    hidden: frozenset[str] = frozenset()
    frame: dict[str, object] | None = None


class Scope:
    """A module, class or function body: its bindings by name, and where each statement stands."""

    __slots__ = ("_attr_found", "_attrs", "_names", "_orders", "_positions", "echoes", "globals", "index", "kind",
                 "loop_variables", "node", "nonlocals", "parent", "receiver", "stars")

    def __init__(self, index: ModuleIndex, node: ast.AST, kind: str, parent: Scope | None) -> None:
        self.index = index
        self.node = node
        self.kind = kind  # "module" | "class" | "function"
        self.parent = parent  # the lexically enclosing scope
        self._names: dict[str, list[Binding]] | None = None
        self._positions: dict[int, StmtPos] = {}
        # a ``finally:`` block's own bindings (not those nested deeper) as bindings of the statement list holding
        # its ``try``, at the try's index: they run last, whatever the try's body and handlers did
        self.echoes: dict[str, list[Binding]] = {}
        self._attrs: dict[str, list[Binding]] | None = None
        self._attr_found: dict[str, list[Binding]] = {}  # attribute -> its bindings (``attr``)
        self._orders: dict[str, Order] = {}
        self.stars: list[Binding] = []
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        # a method: the name its instance (or class, for a classmethod) goes by; None otherwise
        self.receiver: str | None = None
        self.loop_variables: frozenset[str] | None = None  # the names its ``for`` binds (``source.loops``)
        if kind == "function" and parent is not None and parent.kind == "class":
            self.receiver = _receiver(node)  # type: ignore[arg-type]

    @property
    def names(self) -> dict[str, list[Binding]]:
        """Name -> its bindings in this scope (``Binding.pos`` gives their source order)."""
        if self._names is None:
            self._names = {}
            _index_scope(self)
        return self._names

    def order(self, name: str, stars_for: Callable[[Scope, str], Iterable[Binding]] | None = None) -> Order:
        """A name's bindings here, each star import that may bind it (``stars_for``) as an import of it."""
        found = self._orders.get(name)
        if found is None:
            stars = [b._replace(imported=(b.imported[0], name, b.imported[2]))
                     for b in (self.stars if stars_for is None else stars_for(self, name)) if b.imported is not None]
            found = Order([*self.names.get(name, ()), *stars], self.echoes.get(name, ()))
            if not self.stars:  # (which stars bind it is read from other files: each file's own dependencies)
                self._orders[name] = found
        return found

    def position(self, stmt: ast.stmt) -> StmtPos | None:
        """Where a statement of this scope stands (None: not a statement of this scope)."""
        _ = self.names
        return self._positions.get(id(stmt))

    @property
    def body(self) -> list[ast.stmt]:
        return self.node.body  # type: ignore[attr-defined, no-any-return]

    @property
    def attrs(self) -> dict[str, list[Binding]]:
        """A class: ``self.<attr>`` / ``cls.<attr>`` -> its bindings in the methods (each with its method's scope)."""
        if self._attrs is None:
            self._attrs = {}
            if self.kind == "class":
                for method in _methods(self.node):  # type: ignore[arg-type]
                    scope = self.index.scope(method, self)
                    if scope.receiver is not None:
                        _index_attrs(scope, scope.receiver, self._attrs)
        return self._attrs

    def attr(self, name: str) -> list[Binding]:
        """A class: the bindings of ``self.<name>`` / ``cls.<name>`` in its methods, as ``attrs`` has them.

        A binding's statement holds the attribute's name on one of its lines: where the text spells every
        identifier as the ast does (ASCII), only the methods' statements spanning those lines are read."""
        if self._attrs is not None:
            return self._attrs.get(name, [])
        found = self._attr_found.get(name)
        if found is None:
            lines = self.index.word_lines(self.node, name) if self.kind == "class" else []
            if lines is None:
                return self.attrs.get(name, [])
            out: dict[str, list[Binding]] = {}
            for method in _methods(self.node) if lines else ():  # type: ignore[arg-type]
                if on_lines(method, lines):
                    scope = self.index.scope(method, self)
                    if scope.receiver is not None:
                        _index_attrs(scope, scope.receiver, out, lines)
            found = self._attr_found[name] = out.get(name, [])
        return found

    def __repr__(self) -> str:
        return f"Scope({self.kind} {getattr(self.node, 'name', '')})"


def _receiver(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The first parameter of a method (``self`` / ``cls``); None for a static method."""
    for d in node.decorator_list:
        if isinstance(d, ast.Name) and d.id == "staticmethod":
            return None
    params = [*node.args.posonlyargs, *node.args.args]
    return params[0].arg if params else None


def _methods(node: ast.ClassDef) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions defined in a class body (under ``if``/``try`` too)."""
    for stmt, _, _, _ in statements(node.body):
        if isinstance(stmt, _FUNCS):
            yield stmt


def _names_in(target: ast.AST) -> Iterator[str]:
    """The names a target (or a match pattern) binds."""
    todo = [target]
    while todo:
        node = todo.pop()
        if type(node) is ast.Name:
            yield node.id
        elif type(node) in (ast.MatchAs, ast.MatchStar) and node.name:  # type: ignore[attr-defined]
            yield node.name  # type: ignore[attr-defined]
        elif type(node) is ast.MatchMapping and node.rest:
            yield node.rest
        if type(node) not in (ast.Attribute, ast.Subscript):
            todo.extend(ast.iter_child_nodes(node))


class _Binder:
    """Adds the bindings of one statement to a scope's table (or to a class's ``self.<attr>`` table)."""

    __slots__ = ("attr_of", "echo", "out", "pos", "scope", "stmt")

    def __init__(self, scope: Scope, out: dict[str, list[Binding]], attr_of: str | None) -> None:
        self.scope = scope
        self.out = out
        self.attr_of = attr_of  # index ``self.<attr>`` targets of this receiver instead of names
        self.stmt: ast.stmt | None = None
        self.pos = StmtPos(0, 0, None, False)
        # a statement of a ``finally:`` block (not nested deeper): where its ``try`` stands, as it binds there too
        self.echo: StmtPos | None = None

    def key(self, target: ast.AST) -> str | None:
        if self.attr_of is None:
            return target.id if isinstance(target, ast.Name) else None
        if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == self.attr_of):
            return target.attr
        return None

    def add(self, key: str, kind: Kind, value: ast.expr | None = None,
            imported: tuple[str | None, str | None, int] | None = None) -> None:
        pos = self.pos
        scope = self.scope if self.attr_of is not None else None
        stmt = self.stmt
        at = (stmt.lineno, stmt.col_offset) if stmt is not None else _NOWHERE
        self.out.setdefault(key, []).append(_new_tuple(Binding, (kind, stmt, value, pos.block, pos.at, at, imported,
                                                                  scope)))
        echo = self.echo
        if echo is not None:  # (``try: w = A`` ``finally: w = B``: the try statement ends with w = B)
            self.scope.echoes.setdefault(key, []).append(_new_tuple(Binding, (
                kind, stmt, value, echo.block, echo.at, at, imported, scope)))

    def target(self, target: ast.AST, kind: Kind, value: ast.expr | None) -> None:
        """Bind a target; a tuple or list target takes a display's elements one by one."""
        key = self.key(target)
        if key is not None:
            self.add(key, kind, value)
            return
        t = type(target)
        if t in (ast.Tuple, ast.List):
            elts = target.elts  # type: ignore[attr-defined]
            vals = value.elts if type(value) in (ast.Tuple, ast.List) else None  # type: ignore[union-attr]
            starred = any(type(e) is ast.Starred for e in elts)
            for k, elt in enumerate(elts):
                same = vals is not None and not starred and len(vals) == len(elts)
                self.target(elt, kind if same else Kind.OTHER, vals[k] if same else None)  # type: ignore[index]
        elif t is ast.Starred:
            self.target(target.value, Kind.OTHER, None)  # type: ignore[attr-defined]
        elif self.attr_of is None and t not in (ast.Attribute, ast.Subscript):
            for name in _names_in(target):
                self.add(name, Kind.OTHER)

    def others(self, targets: list[ast.AST]) -> None:
        for t in targets:
            self.target(t, Kind.OTHER, None)

    def statement(self, stmt: ast.stmt, pos: StmtPos, class_body: bool) -> None:  # noqa: C901 - one branch per binding statement type of the ast
        self.stmt, self.pos = stmt, pos
        t = type(stmt)
        if t is ast.Assign:
            for target in stmt.targets:  # type: ignore[attr-defined]
                self.target(target, Kind.ASSIGN, stmt.value)  # type: ignore[attr-defined]
        elif t is ast.AnnAssign:
            if stmt.value is not None:  # type: ignore[attr-defined]
                field = class_body and not _class_constant(stmt.annotation, self.scope.node)  # type: ignore[attr-defined]
                self.target(stmt.target, Kind.OTHER if field else Kind.ASSIGN, stmt.value)  # type: ignore[attr-defined]
        elif t is ast.AugAssign:
            add = type(stmt.op) is ast.Add  # type: ignore[attr-defined]
            self.target(stmt.target, Kind.AUG if add else Kind.OTHER, stmt.value)  # type: ignore[attr-defined]
        elif t in (ast.For, ast.AsyncFor):
            self.others([stmt.target])  # type: ignore[attr-defined]
        elif t in (ast.With, ast.AsyncWith):
            for item in stmt.items:  # type: ignore[attr-defined]
                if item.optional_vars is not None:
                    self.target(item.optional_vars, Kind.WITH, item.context_expr)
        elif t is ast.Delete:
            self.others(stmt.targets)  # type: ignore[attr-defined]
        elif self.attr_of is not None:
            return
        elif t in DEFS:
            self.add(stmt.name, Kind.OTHER)  # type: ignore[attr-defined]
        elif t is _TYPE_ALIAS:  # type X = ... (Python 3.12)
            self.target(stmt.name, Kind.OTHER, None)  # type: ignore[attr-defined]
        elif t is ast.Import:
            for a in stmt.names:  # type: ignore[attr-defined]
                if a.asname:
                    self.add(a.asname, Kind.IMPORT, imported=(a.name, None, 0))
                else:
                    top = a.name.split(".", 1)[0]
                    self.add(top, Kind.IMPORT, imported=(top, None, 0))
        elif t is ast.ImportFrom:
            for a in stmt.names:  # type: ignore[attr-defined]
                if a.name == "*":
                    self.scope.stars.append(Binding(Kind.STAR, stmt, None, self.pos.block, self.pos.at,
                                                    (stmt.lineno, stmt.col_offset),
                                                    (stmt.module, None, stmt.level)))  # type: ignore[attr-defined]
                else:
                    self.add(a.asname or a.name, Kind.IMPORT,
                             imported=(stmt.module, a.name, stmt.level))  # type: ignore[attr-defined]
        elif t is ast.Global:
            self.scope.globals.update(stmt.names)  # type: ignore[attr-defined]
        elif t is ast.Nonlocal:
            self.scope.nonlocals.update(stmt.names)  # type: ignore[attr-defined]
        elif t in TRY:
            for h in stmt.handlers:  # type: ignore[attr-defined]
                if h.name:
                    self.add(h.name, Kind.OTHER)
        elif t is ast.Match:
            for case in stmt.cases:  # type: ignore[attr-defined]
                for name in _names_in(case.pattern):
                    self.add(name, Kind.OTHER)


_DATACLASSES = {"dataclass", "define", "frozen", "mutable", "attrs", "s"}  # (the stdlib's, pydantic's, attrs')


def _class_constant(annotation: ast.expr, cls: ast.AST) -> bool:
    """``ClassVar[...]``, ``Final[...]`` but in a dataclass (its ``__init__`` sets it), or a ``str`` of pydantic's
    settings (the value where the environment sets none, as ``os.getenv``'s default): no field an object replaces."""
    name = _last_name(annotation.value if type(annotation) is ast.Subscript else annotation)
    decorators = {_last_name(d.func if type(d) is ast.Call else d) for d in getattr(cls, "decorator_list", ())}
    settings = name == "str" and any(_last_name(b) == "BaseSettings" for b in getattr(cls, "bases", ()))
    return name == "ClassVar" or (name == "Final" and not decorators & _DATACLASSES) or settings


def _last_name(node: ast.expr) -> str:
    return node.attr if type(node) is ast.Attribute else node.id if type(node) is ast.Name else ""


def _lines_with(text: str, needle: str) -> list[int] | None:
    """The sorted 1-based lines of ``text`` holding ``needle``, in one pass; None when a lone CR may end lines."""
    if needle not in text:
        return []
    if "\r" in text:
        return None
    out = []
    line, last = 1, 0
    i = text.find(needle)
    while i >= 0:
        line += text.count("\n", last, i)
        last = i
        out.append(line)
        i = text.find(needle, i + 1)
    return out


@functools.cache
def _declaration(word: str) -> re.Pattern[str]:
    """A ``global`` / ``nonlocal`` statement: its names, and a backslash when it goes on."""
    return re.compile(rf"(?m)(?:^|;)[ \t]*+{word}[ \t]++([\w \t,]*+)(\\?)")


def _walrus_targets(stmt: ast.stmt) -> Iterator[str]:
    """Names bound by ``:=`` in a statement's own expressions (not in nested statements or lambdas)."""
    todo: list[ast.AST] = [c for c in ast.iter_child_nodes(stmt) if not isinstance(c, ast.stmt)]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.NamedExpr):
            yield node.target.id
        if type(node) is not ast.Lambda:
            todo.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.stmt))


def _index_scope(scope: Scope) -> None:
    """Fill a scope's name table and statement positions."""
    names = scope._names
    assert names is not None
    binder = _Binder(scope, names, None)
    node = scope.node
    if scope.kind == "function":
        a = node.args  # type: ignore[attr-defined]
        params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(p for p in (a.vararg, a.kwarg) if p)]
        for p in params:
            names.setdefault(p.arg, []).append(Binding(Kind.OTHER, None, None, 0, -1, _NOWHERE))
    walrus = scope.index.walrus_lines
    class_body = scope.kind == "class"
    positions = scope._positions
    for stmt, pos, _, _ in statements(scope.body):
        positions[id(stmt)] = pos
        parent = pos.parent
        binder.echo = positions.get(id(parent)) if type(parent) in TRY and \
            pos.block == id(parent.finalbody) else None  # type: ignore[union-attr]
        if type(stmt) not in _NO_BINDINGS:
            binder.statement(stmt, pos, class_body)
        if walrus is None or (walrus and on_lines(stmt, walrus)):
            binder.stmt, binder.pos = stmt, pos
            for name in _walrus_targets(stmt):
                binder.add(name, Kind.OTHER)


def _word_char(c: str) -> bool:
    """What ``\\w`` is in an ASCII identifier."""
    return c.isalnum() or c == "_"


_EVERY: frozenset[str] = frozenset({"*"})  # (``setattr(K, ...)``: any attribute)
# ``.x =``, ``.x +=``, on one line: a comment's or a float's '.' at a line's end is no attribute of the next line's
# name (fixtures188 repro 01: ``# Copied from the address bar.`` above ``INDEX_URL = ...``)
ATTRIBUTE_BINDING = re.compile(r"[ \t]*+\.[ \t]*+(\w+)[ \t]*+(?:<<|>>|//|\*\*|[-+*/%@&|^])?+=(?!=)")
_FIRST_ARGUMENT = re.compile(r"\s*+\(\s*+(\w+)")


def _attributes_bound(text: str, name: str) -> frozenset[str]:
    """The attributes of ``name`` that ``text`` binds (``name.attr = ...``, ``name.attr += ...``); _EVERY when
    it passes ``name`` to ``setattr``. One literal search per word: a regex led by ``\\b`` would try every
    position of the text, once per (class, attribute) asked."""
    if any(first == name for first in _after_word(text, "setattr", _FIRST_ARGUMENT)):
        return _EVERY
    # (and those bound on an object's class whichever it is: ``type(self).ROOT = ...``, ``self.__class__.ROOT``)
    words = (name, "__class__", "type(self)")
    return frozenset(a for word in words for a in _after_word(text, word, ATTRIBUTE_BINDING))


def _bound_on_parameter(function: ast.FunctionDef) -> frozenset[str]:
    """The attributes a function binds on its first parameter (a class decorator's class); _EVERY if it setattr()s."""
    params = [*function.args.posonlyargs, *function.args.args]
    if not params:
        return frozenset()
    p, out = params[0].arg, set()
    for n in ast.walk(function):
        if type(n) is ast.Attribute and type(n.ctx) is ast.Store and type(n.value) is ast.Name and n.value.id == p:
            out.add(n.attr)
        elif type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == "setattr" and n.args and \
                type(n.args[0]) is ast.Name and n.args[0].id == p:
            return _EVERY
    return frozenset(out)


def _after_word(text: str, word: str, tail: re.Pattern[str]) -> Iterator[str]:
    """The first group of ``tail`` where it matches right after ``word`` as a whole word in ``text``."""
    i = text.find(word)
    while i >= 0:
        end = i + len(word)
        if not (i and _word_char(text[i - 1])):
            m = tail.match(text, end)
            if m is not None:
                yield m.group(1)
        i = text.find(word, end)


def _index_attrs(method: Scope, receiver: str, out: dict[str, list[Binding]], lines: list[int] | None = None) -> None:
    """A method's bindings of ``<receiver>.<attr>`` (in every block of its body; with ``lines``, those spanning one)."""
    binder = _Binder(method, out, receiver)
    if lines is None:
        for stmt, pos, _, _ in statements(method.body):
            binder.statement(stmt, pos, False)
    else:
        for stmt, pos in statements_on(method.body, lines):
            binder.statement(stmt, pos, False)


class ModuleIndex:
    """The scopes of one module, built on demand."""

    __slots__ = ("_classes", "_globals", "_nonlocals", "_rebound", "_scopes", "_starts", "_subclasses", "module",
                 "text", "tree", "walrus_lines")

    def __init__(self, tree: ast.Module, text: str | None = None) -> None:
        self.tree = tree
        self.text = text
        # the lines holding ":=" (None: any line may; empty: no walrus anywhere)
        self.walrus_lines: list[int] | None = None if text is None else _lines_with(text, ":=")
        self._scopes: dict[int, Scope] = {}
        self.module = Scope(self, tree, "module", None)
        self._globals: frozenset[str] | None = None
        self._nonlocals: frozenset[str] | None = None
        self._classes: dict[str, list[ast.ClassDef]] | None = None
        self._subclasses: dict[str, list[ast.ClassDef]] | None = None
        self._rebound: dict[str, frozenset[str]] = {}  # class -> the attributes bound from outside it
        self._starts: list[int] | None = None  # where each line starts (``word_lines``)

    def close(self) -> None:
        """Break the cycles between the index and its scopes once the module is done with: refcounting then
        frees a linted file's index at once, instead of the cyclic gc, whose full passes over a run's
        live objects cost more than the values themselves."""
        for scope in (self.module, *self._scopes.values()):
            del scope.index
            scope._names = scope._attrs = None  # (their bindings name their scopes)
            scope._orders.clear()
            scope._attr_found.clear()
            scope.stars.clear()
        self._scopes.clear()

    def scope(self, node: ast.AST, parent: Scope) -> Scope:
        """The scope of a ``def`` or ``class`` statement nested in ``parent``."""
        s = self._scopes.get(id(node))
        if s is None:
            kind = "class" if type(node) is ast.ClassDef else "function"
            s = self._scopes[id(node)] = Scope(self, node, kind, parent)
        return s

    def _declared(self, word: str, kind: type[ast.Global | ast.Nonlocal]) -> frozenset[str]:
        """The names of every ``global`` / ``nonlocal`` statement: read from the text when there is one (a
        word in a string or comment only adds a name: a hole more, never a wrong value)."""
        text = self.text
        if text is not None:
            if word not in text:
                return frozenset()
            found = _declaration(word).findall(text)
            if not any(tail for _, tail in found):  # (a continued line: read the tree)
                return frozenset(n.strip() for names, _ in found for n in names.split(","))
        return frozenset(n for node in ast.walk(self.tree) if type(node) is kind for n in node.names)

    @property
    def declared_global(self) -> frozenset[str]:
        """Names some function declares ``global`` (so it may rebind them at any time)."""
        if self._globals is None:
            self._globals = self._declared("global", ast.Global)
        return self._globals

    @property
    def declared_nonlocal(self) -> frozenset[str]:
        """Names some function declares ``nonlocal``."""
        if self._nonlocals is None:
            self._nonlocals = self._declared("nonlocal", ast.Nonlocal)
        return self._nonlocals

    def word_lines(self, node: ast.AST, word: str) -> list[int] | None:
        """The sorted lines of ``node`` holding the identifier ``word`` as a whole word; None when the text
        cannot tell: no text, a carriage return in it (lines may end there), or non-ASCII text in ``node``
        (an identifier may be spelled there otherwise than the ast has it, NFKC-normalised)."""
        starts = self._line_starts()
        if starts is None:
            return None
        first = node.lineno  # type: ignore[attr-defined]
        last = node.end_lineno or first  # type: ignore[attr-defined]
        text = self.text
        assert text is not None
        lo, hi = starts[first - 1], starts[last] if last < len(starts) else len(text)
        if not text[lo:hi].isascii():
            return None
        out: list[int] = []
        line, seen = first, lo
        i = text.find(word, lo, hi)
        while i >= 0:
            end = i + len(word)
            if not (i and _word_char(text[i - 1])) and not (end < len(text) and _word_char(text[end])):
                line += text.count("\n", seen, i)
                seen = i
                if not out or out[-1] != line:
                    out.append(line)
            i = text.find(word, end, hi)
        return out

    def _line_starts(self) -> list[int] | None:
        """Where each line of the text starts (None: no text, or a carriage return in it)."""
        if self._starts is None:
            text = self.text
            if text is None or "\r" in text:
                return None
            self._starts = list(accumulate(map(add, map(len, text.split("\n")), repeat(1)), initial=0))
        return self._starts

    def classes(self) -> dict[str, list[ast.ClassDef]]:
        """The module-level classes by name."""
        if self._classes is None:
            self._classes = {}
            for stmt, _, _, _ in statements(self.tree.body):
                if type(stmt) is ast.ClassDef:
                    self._classes.setdefault(stmt.name, []).append(stmt)
        return self._classes

    def subclasses(self, name: str) -> list[ast.ClassDef]:
        """The module-level classes naming ``name`` among their bases (``class B(A)``: B for A)."""
        if self._subclasses is None:
            self._subclasses = {}
            for defs in self.classes().values():
                for d in defs:
                    for base in dict.fromkeys(b.id for b in d.bases if type(b) is ast.Name):
                        self._subclasses.setdefault(base, []).append(d)
        return self._subclasses.get(name, [])

    def rebound_outside(self, cls: Scope, attr: str) -> bool:
        """Whether the module may bind ``<Class>.<attr>`` from outside the class (``K.ROOT = ...``,
        ``setattr(K, ...)``): read from the text (a word in a string or comment only makes a hole more);
        without the text, whether the class is named anywhere else but its bases."""
        name = getattr(cls.node, "name", None)
        if name is None or self.text is None:
            return True
        bound = self._rebound.get(name)
        if bound is None:
            # (and under the module's other names for the class, ``K = Api``; by a decorator of this module, on
            # its parameter: ``def rebase(cls): cls.BASE = ...``)
            aliases = [s.targets[0].id for s in self.tree.body if type(s) is ast.Assign and len(s.targets) == 1
                       and type(s.targets[0]) is ast.Name and type(s.value) is ast.Name and s.value.id == name]
            every = [_attributes_bound(self.text, n) for n in (name, *aliases)]
            every += [_bound_on_parameter(f) for d in cls.node.decorator_list if type(d) is ast.Name  # type: ignore[attr-defined]
                      for f in self.tree.body if type(f) is ast.FunctionDef and f.name == d.id]
            bound = self._rebound[name] = _EVERY if _EVERY in every else frozenset().union(*every)
        return bound is _EVERY or attr in bound

    def module_class(self, node: ast.expr) -> Scope | None:
        """The scope of a module-level class named by ``node`` (one definition only)."""
        if type(node) is not ast.Name:
            return None
        defs = self.classes().get(node.id, [])
        return self.scope(defs[0], self.module) if len(defs) == 1 else None

    def overridden(self, cls: Scope, attr: str) -> bool:
        """Whether a class of the module derived from ``cls`` binds ``attr`` (then ``self`` may be one)."""
        name = getattr(cls.node, "name", None)
        for d in self.subclasses(name) if name is not None else ():
            if d is not cls.node:
                sub = self.scope(d, self.module)
                if attr in sub.names or sub.attr(attr) or self.overridden(sub, attr):
                    return True
        return False


def dunder_all(scope: Scope) -> frozenset[str] | None:
    """The names a module's ``__all__`` lists, when one assignment of a list or tuple of strings sets it."""
    bindings = scope.names.get("__all__")
    if not bindings or len(bindings) != 1 or bindings[0].kind is not Kind.ASSIGN:
        return None
    value = bindings[0].value
    if not isinstance(value, (ast.List, ast.Tuple)):
        return None
    names = [e.value for e in value.elts if isinstance(e, ast.Constant) and type(e.value) is str]
    return frozenset(names) if len(names) == len(value.elts) else None


def rebound_inside(scope: Scope, name: str) -> bool:
    """Whether a function nested in a function's body declares ``name`` nonlocal (it may rebind it)."""
    return any(type(n) is ast.Nonlocal and name in n.names for n in ast.walk(scope.node) if n is not scope.node)


def defined_by_def(scope: Scope, name: str) -> bool:
    """Whether a scope binds ``name`` only by ``def`` statements."""
    bindings = scope.names.get(name, [])
    return bool(bindings) and all(type(b.stmt) in (ast.FunctionDef, ast.AsyncFunctionDef) for b in bindings)


_COUNTERS = ("range", "enumerate")  # builtins whose loops bind an integer (enumerate: the first target)


def binds_a_number(b: Binding, scope: Scope, node: ast.AST) -> bool:
    """Whether a binding gives the name ``node`` reads an integer: the counter of a loop over ``range()``, the
    index ``enumerate()`` gives, or a parameter annotated ``int``, or not annotated with an integer default
    (``rows=100``; the builtins not rebound around it)."""
    if b.kind is not Kind.OTHER or type(node) is not ast.Name:
        return False
    name, stmt = node.id, b.stmt
    if type(stmt) in (ast.For, ast.AsyncFor):
        it, target = stmt.iter, stmt.target  # type: ignore[union-attr]
        if type(it) is not ast.Call or type(it.func) is not ast.Name or it.func.id not in _COUNTERS or \
                _bound_around(scope, it.func.id):
            return False
        if it.func.id == "enumerate":
            target = target.elts[0] if type(target) is ast.Tuple and target.elts else None
        return type(target) is ast.Name and target.id == name
    if stmt is None and type(scope.node) in (ast.FunctionDef, ast.AsyncFunctionDef) and not _bound_around(scope, "int"):
        a = scope.node.args  # type: ignore[attr-defined]
        positional = [*a.posonlyargs, *a.args]
        defaults = dict(zip(positional[len(positional) - len(a.defaults):], a.defaults, strict=True))
        defaults.update((p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None)
        for p in (*positional, *a.kwonlyargs):
            if p.arg == name:
                d = defaults.get(p)
                return (type(p.annotation) is ast.Name and p.annotation.id == "int") or (
                    p.annotation is None and type(d) is ast.Constant and type(d.value) is int)
    return False


def _bound_around(scope: Scope | None, name: str) -> bool:
    while scope is not None:
        if name in scope.names:
            return True
        scope = scope.parent
    return False
