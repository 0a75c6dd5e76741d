"""Where URL values are used (issue #27): what reaches a URL API, a URL-named target, a URL-named return.

``url_values(tree, lines, ...)`` walks a module once and yields, for each such place, the value that
arrives there (assembled by ``evaluate``), where it is used and why. A request through an HTTP client
with a ``base_url`` yields the URL the client will request. Values of which nothing is known (one hole)
are not yielded.
"""

from __future__ import annotations

import ast
import functools
import os
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from iri_lint.source import assembly
from iri_lint.source.bindings import Scope
from iri_lint.source.blocks import module_imports
from iri_lint.source.bound_values import held_value, parametrized, params, says_url_type
from iri_lint.source.calls import URLJOINS, partials_bound
from iri_lint.source.candidates import inner_urls, is_key_name, is_url_name, listed_urls, option_dest, string_key
from iri_lint.source.env_defaults import with_env_defaults
from iri_lint.source.evaluate import At, Evaluator, ModuleState, Result
from iri_lint.source.extensions import extended_next, guarded, path_values
from iri_lint.source.helpers import only_shown, parameters_bound
from iri_lint.source.locate import SourceFile
from iri_lint.source.loops import loop_over
from iri_lint.source.marks import (
    DEFAULT_OPTIONS,
    ScanOptions,
    api_words,
    call_lines,
    imported_names,
    last_word,
    marked_lines,
    may_give_base,
    names_class,
)
from iri_lint.source.model import Reason
from iri_lint.source.objects import ClassRef
from iri_lint.source.packages import package_of
from iri_lint.source.project import Project
from iri_lint.source.subclassing import base_quals, handed_client, init_client
from iri_lint.source.url_apis import DEFAULT_URL_APIS, ENVIRONMENT, UrlApi, compat_qual, env_default, parse_extra_api
from iri_lint.source.values import Client, Method, Ref, Src, Value, concat, dotted, each_choice, holds

__all__ = ["ModuleValues", "UrlValue", "url_apis", "url_values"]

_CHOICES = (ast.IfExp, ast.BoolOp, ast.Call)
_MAX_CHOICES = 16


class UrlValue(NamedTuple):
    """A value where it is used as a URL."""

    value: Value
    reason: Reason  # URL_API or URL_NAME
    node: ast.AST  # the call, assignment, parameter, dict display or return statement
    expr: ast.expr  # the expression whose value it is
    api: UrlApi | None = None  # the URL API it reaches
    name: str | None = None  # the URL-named target, keyword, parameter, key or function
    client: Client | None = None  # the client whose base URL the value was merged with
    # ``urljoin(base, ref)`` that drops part of the base's path: ("relative" or "absolute", what it drops,
    # the reference's value)
    dropped: tuple[str, str, Value] | None = None
    at: At | None = None  # where ``expr`` is evaluated (its parts' values are asked again at the same place)
    only: frozenset[str] | None = None  # the codes checked here, when not all (a ``urljoin`` call: IRI804)


@functools.lru_cache(maxsize=16)
def url_apis(extra_url_apis: tuple[str, ...] = ()) -> tuple[dict[str, UrlApi], frozenset[str], frozenset[str]]:
    """The URL API table by qualified name, the names leading to one (imports of them are never read from
    the project), and the last words of their names (a method call worth resolving)."""
    apis = {api.name: api for api in (*DEFAULT_URL_APIS, *map(parse_extra_api, extra_url_apis))}
    prefixes = frozenset(".".join(parts[:k]) for name in apis for parts in [name.replace("()", "").split(".")]
                         for k in range(1, len(parts) + 1))
    return apis, prefixes, api_words(extra_url_apis)


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DISPLAYS = (ast.List, ast.Tuple, ast.Set)
_ASSEMBLED = (ast.BinOp, ast.JoinedStr, ast.Call)  # (what a positional argument is when it builds a URL)
_JOINS = (ast.BinOp, ast.JoinedStr)
Entry = tuple[ast.AST, At]
_SITES = frozenset((ast.ClassDef, ast.Call, ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.AugAssign, ast.Return,
                    ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Dict, ast.For, ast.AsyncFor))


def _spans(node: ast.AST, marked: list[int]) -> bool:
    """Whether a node spans one of the sorted ``marked`` lines (a definition's decorators included; a node
    with no position, such as a comprehension's ``for``, always does)."""
    first = getattr(node, "lineno", None)
    if first is None:
        return True
    for d in getattr(node, "decorator_list", ()):
        first = min(first, d.lineno)
    i = bisect_left(marked, first)
    return i < len(marked) and marked[i] <= (getattr(node, "end_lineno", None) or first)


def _expression(node: ast.AST, marked: list[int] | None, full: bool) -> bool | None:
    """Whether to walk an expression: None when it spans no marked line, True to walk all of it (``full``,
    or it stands on one line, a marked one), False to test its parts in turn."""
    if full or marked is None:
        return True
    first: int | None = getattr(node, "lineno", None)
    if first is None:
        return False
    last: int = getattr(node, "end_lineno", None) or first
    i = bisect_left(marked, first)
    if i == len(marked) or marked[i] > last:
        return None
    return first == last


_SKIP = frozenset(("ctx", "op", "ops", "type_comment", "kind", "id", "arg", "name", "asname", "module", "level",
                   "conversion", "is_async", "attr", "names", "type_ignores", "kwd_attrs"))
_FIELDS: dict[type, tuple[str, ...]] = {}
_LEAVES = (ast.Name, ast.Constant)  # (a Constant's value is no node)


def _children(node: ast.AST, leaves: bool) -> list[ast.AST]:
    """The child nodes (``ast.iter_child_nodes``, a table of fields per type; no names, constants unless ``leaves``)."""
    t = type(node)
    fields = _FIELDS.get(t)
    if fields is None:
        fields = _FIELDS[t] = tuple(f for f in t._fields if f not in _SKIP)
    out: list[ast.AST] = []
    for f in fields:
        v = getattr(node, f, None)
        if v.__class__ is list:
            out += [x for x in v if isinstance(x, ast.AST) and (leaves or x.__class__ not in _LEAVES)]
        elif isinstance(v, ast.AST) and (leaves or v.__class__ not in _LEAVES):
            out.append(v)
    return out


def walk(state: ModuleState, marked: list[int] | None = None, types: frozenset[type] | None = None,
         whole: Callable[[ast.AST], bool] | None = None) -> Iterator[Entry]:
    """The nodes of the module (of ``types``: names and constants only when None) with where each is
    evaluated, in source order, without recursion. With ``marked`` lines, a statement spanning none of
    them is skipped, except inside a definition for which ``whole`` is true."""
    index = state.index
    leaves = types is None
    lines = marked if marked is not None else []
    stack: list[tuple[ast.AST, At, bool]] = [(index.tree, At(index.module, None), marked is None)]
    pop, push = stack.pop, stack.append
    while stack:
        node, at, full = pop()
        t = type(node)
        if types is None or t in types:
            yield node, at
        if t in _FUNCS or t is ast.ClassDef:
            inside = full or (whole is not None and whole(node))
            stack += reversed(_in_definition(node, at, index.scope(node, at.scope), marked, full, inside, leaves))
        elif t is ast.Lambda:
            hidden = at.hidden | params(node.args)  # type: ignore[attr-defined]
            push((node.body, _at(at.scope, at.stmt, hidden), full))  # type: ignore[attr-defined]
            push((node.args, at, full))  # type: ignore[attr-defined]
        elif t in _COMPREHENSIONS:
            inner = _in_comprehension(node, at)
            for child in reversed(_children(node, leaves)):
                whole_line = _expression(child, marked, full)
                if whole_line is not None:
                    push((child, inner, whole_line))
        else:
            # (pushed last child first: popped in source order)
            for child in reversed(_children(node, leaves)):
                if isinstance(child, ast.stmt):
                    if full or _spans(child, marked):  # type: ignore[arg-type]
                        push((child, _at(at.scope, child, at.hidden), full))
                elif full:
                    push((child, at, True))
                else:
                    # a use's name stands on a marked line, in every expression around it (in a function
                    # walked whole, an ``except`` clause holds statements too): ``_expression``, inline
                    first = getattr(child, "lineno", None)
                    if first is None:
                        push((child, at, False))
                        continue
                    last = getattr(child, "end_lineno", None) or first
                    i = bisect_left(lines, first)
                    if i < len(lines) and lines[i] <= last:
                        push((child, at, first == last))


def _in_comprehension(node: ast.AST, at: At) -> At:
    """Where a comprehension's parts are evaluated: its variables hidden; in a class body, where the class
    stands (the class's names are not seen inside it; its first iterable aside, taken the same)."""
    names = {n.id for g in node.generators for n in ast.walk(g.target) if type(n) is ast.Name}  # type: ignore[attr-defined]
    scope = at.scope
    if scope.kind == "class" and scope.parent is not None:
        return _at(scope.parent, scope.node, at.hidden | names)  # type: ignore[arg-type]
    return _at(scope, at.stmt, at.hidden | names)


def _at(scope: Scope, stmt: ast.stmt | None, hidden: frozenset[str]) -> At:
    """``At(scope, stmt, hidden)``, made without the named tuple's ``__new__`` (one per statement walked)."""
    return _new_tuple(At, (scope, stmt, hidden, None))


_new_tuple = tuple.__new__


def _in_definition(node: ast.AST, at: At, body: Scope, marked: list[int] | None, full: bool, inside: bool,
                   leaves: bool) -> list[tuple[ast.AST, At, bool]]:
    """What ``walk`` walks of a ``def`` or ``class``: its decorators, parameters and bases where it stands,
    the statements of its body (``inside``: all of them) in its own scope."""
    out = []
    outer = _at(at.scope, node, at.hidden)  # type: ignore[arg-type]
    empty: frozenset[str] = frozenset()
    for child in _children(node, leaves):
        if not isinstance(child, ast.stmt):
            whole_line = _expression(child, marked, full)
            if whole_line is not None:
                out.append((child, outer, whole_line))
        elif inside or _spans(child, marked):  # type: ignore[arg-type]
            out.append((child, _at(body, child, empty), inside))
    return out


class ModuleValues:
    """The values of one module: of any expression (``value_of``), of a module-level name (``name``), and
    where URLs are used (``url_values``).

    ``lines`` are the module's lines as ``locate.split_lines`` gives them (or its ``SourceFile``); ``path``
    and a ``Project`` (one per run) let names imported from the project's other modules be read. Each
    ``ModuleValues`` gets a fresh ``Evaluator`` unless given one."""

    __slots__ = ("_imported", "_places", "_url_names_taken", "aliases", "apis", "callees", "leaves", "options",
                 "prefixes", "state", "url_names")

    def __init__(self, tree: ast.Module, lines: Sequence[str] | SourceFile, *, path: str | None = None,
                 project: Project | None = None, options: ScanOptions | None = None,
                 evaluator: Evaluator | None = None, text: str | None = None) -> None:
        self.options = opts = options or DEFAULT_OPTIONS
        self.apis, self.prefixes, self.leaves = url_apis(tuple(opts.extra_url_apis))
        if evaluator is None:
            evaluator = Evaluator(project, self.prefixes)
        file = lines if isinstance(lines, SourceFile) else SourceFile(list(lines))
        src = Src(file, path)
        text = text if text is not None else file.text
        self.state = evaluator.state(tree, src, path, text)
        self.callees = evaluator.state(tree, src, path, text, callee=True)  # what calls are
        self.url_names = tuple(n.lower() for n in opts.url_names)
        self._places: dict[int, At] | None = None
        self._url_names_taken: frozenset[str] | None = None
        self.aliases = self._aliases()
        # the other names its imports bind (``*`` for a star import), in functions too, but the standard library's:
        # a helper of the project may be one (whether it is, and takes a URL, is read at a call given a join)
        self._imported = imported_names(text) - self.aliases

    def _aliases(self) -> frozenset[str]:
        """Module-level names imported from the URL APIs' modules (``from requests import get as fetch``): read
        from the module's import statements, not its index of every binding (which a module whose values
        look up no module-level name never needs)."""
        out = set()
        for stmt in module_imports(self.state.index.tree):
            if isinstance(stmt, ast.Import):
                for a in stmt.names:
                    name = a.asname or a.name.split(".", 1)[0]
                    if compat_qual(a.name if a.asname else name) in self.prefixes:
                        out.add(name)
            else:  # (a relative import by its package's name: a configured API may be a module of the project)
                package = (package_of(self.state.path, stmt.level) if self.state.path else None) if stmt.level else ""
                for a in stmt.names if package is not None else ():
                    if a.name != "*" and compat_qual(".".join(p for p in (package, stmt.module, a.name) if p)) \
                            in self.prefixes:
                        out.add(a.asname or a.name)
        out.update(partials_bound(self.state.index.tree))  # (``fetch = partial(requests.get, timeout=5)``)
        return frozenset(out)

    def marked(self, known: Sequence[int] | None = None, within: tuple[int, int] | None = None) -> list[int]:
        """The lines a use of a URL can stand on: a URL-like name, a URL API's name, or a name imported
        from one (whole statements spanning one are walked; a URL-named function's returns too).

        ``known``: the file's ``marks.marked_lines`` when the caller has them (the literal scan does);
        ``within``: only those on lines first..last (the words are read there only)."""
        source = self.state.src.file
        first = 1
        if within is not None:
            first, last = within
            source = SourceFile(source.lines[first - 1 : last])
            if known is not None:
                known = known[bisect_left(known, first) : bisect_right(known, last)]
        lines = {m + first - 1 for m in marked_lines(source, self.options)} if known is None else set(known)
        # (a URL API is used where it is called; a helper taking a URL where it may be given a join)
        lines.update(m + first - 1 for m in call_lines(source.text, source.line_offsets, self.leaves | self.aliases,
                                                        self._url_taking(), self._imported))
        return sorted(lines)

    def _url_taking(self) -> frozenset[str]:
        """The module's functions and its classes' methods that take a URL-named positional parameter: a join
        given to one where it is called is checked there (``parameters_bound``)."""
        if self._url_names_taken is not None:
            return self._url_names_taken
        out = set()
        stack: list[ast.stmt] = list(self.state.index.tree.body)
        while stack:
            stmt = stack.pop()
            if type(stmt) is ast.ClassDef:
                stack += stmt.body
            elif type(stmt) in _FUNCS and any(self._is_url_name(a.arg) for a in (
                    *stmt.args.posonlyargs, *stmt.args.args)):  # type: ignore[attr-defined]
                out.add(stmt.name)  # type: ignore[attr-defined]
        self._url_names_taken = frozenset(out)
        return self._url_names_taken

    def value_of(self, node: ast.expr) -> Result:
        """What an expression of the module holds when its statement runs."""
        if self._places is None:
            self._places = {id(n): at for n, at in walk(self.state)}
        return self.state.value(node, self._places[id(node)])

    @property
    def depends_on(self) -> frozenset[str]:
        """The other files of the project the values found so far were read from (real paths): a cache of
        this module's results must be dropped when one of them changes.

        Those of every module state of the evaluation, not only this module's: a helper's return, a class's
        attribute, a client's base are read in their own module's state after the name that led there was
        read (the evaluator is this module's own, so each state is one of its values' reads)."""
        deps: set[str] = set()
        for st in self.state.evaluator.states.values():
            deps |= st.deps
            if st.path is not None:
                deps.add(st.path)
        own = self.state.path
        return frozenset(deps - {own, os.path.realpath(own)} if own else deps)

    def name(self, name: str) -> Result:
        """A module-level name's value once the module has run."""
        scope = self.state.index.module
        return self.state._lookup(scope, name, None, None)  # type: ignore[arg-type]

    def _url_function(self, node: ast.AST) -> bool:
        return type(node) in _FUNCS and self._is_url_name(node.name)  # type: ignore[attr-defined]

    def _is_url_name(self, name: str | None) -> bool:
        return name is not None and is_url_name(name.rsplit(".", 1)[-1], self.url_names)

    def url_values(self, marked: Sequence[int] | None = None,  # noqa: C901 - one branch per kind of URL use
                   within: tuple[int, int] | None = None) -> Iterator[UrlValue]:
        """Every place the module uses a value as a URL, in source order (``marked``, ``within``: ``marked``)."""
        state = self.state
        lines = self.marked(marked, within) if self.options.prefilter else \
            None if within is None else list(range(within[0], within[1] + 1))
        for node, at in walk(state, lines, _SITES, self._url_function):
            state.new_use()
            self.callees.new_use()
            t = type(node)
            if t is ast.Call:
                yield from self._call(node, at)  # type: ignore[arg-type]
            elif t is ast.Assign:
                for target in node.targets:  # type: ignore[attr-defined]
                    yield from self._target(target, node.value, node, at)  # type: ignore[attr-defined]
            elif (t is ast.AnnAssign and node.value is not None) or t is ast.NamedExpr:  # type: ignore[attr-defined]
                yield from self._target(node.target, node.value, node, at)  # type: ignore[attr-defined]
            elif t is ast.AugAssign and type(node.op) is ast.Add:  # type: ignore[attr-defined]
                name = dotted(node.target)  # type: ignore[attr-defined]
                if self._is_url_name(name) and not extended_next(node, at) and not guarded(at, node, name):
                    before, more = state.value(node.target, at), state.value(node.value, at)  # type: ignore[attr-defined]
                    more = state.hole(node.value) if type(more) is Ref else more  # type: ignore[attr-defined]  # (see _sum)
                    if type(before) is Value and type(more) is Value:
                        v = concat([before, more], node, state.src)
                        yield from self._found(v, Reason.URL_NAME, node, node.value, at, name=name)  # type: ignore[attr-defined]
            elif t is ast.Return and node.value is not None:  # type: ignore[attr-defined]
                scope = at.scope
                fname = getattr(scope.node, "name", None) if scope.kind == "function" else None
                if self._is_url_name(fname):
                    yield from self._named(node.value, node, at, fname)  # type: ignore[attr-defined]
            elif t in _FUNCS or t is ast.Lambda:  # (a lambda's defaults too: ``lambda url=CDN + "img": ...``)
                yield from self._defaults(node, at)  # type: ignore[arg-type]
            elif (t is ast.For or t is ast.AsyncFor) and type(node.iter) in _DISPLAYS:  # type: ignore[attr-defined]
                for elt in node.iter.elts:  # type: ignore[attr-defined]  # (each item: ``for url in [HOST + "x"]``)
                    yield from self._target(node.target, elt, node, at)  # type: ignore[attr-defined]
            elif t is ast.ClassDef:  # (its keywords go to ``__init_subclass__``: ``class C(Base, docs_url=...)``)
                for kw in node.keywords:  # type: ignore[attr-defined]
                    if kw.arg is not None and self._is_url_name(kw.arg):
                        yield from self._each(kw.value, at, node, kw.arg)
            elif t is ast.Dict:
                for key, value in zip(node.keys, node.values, strict=True):  # type: ignore[attr-defined]
                    if (type(key) is ast.Constant and type(key.value) is str and is_key_name(key.value)
                            and self._is_url_name(key.value)):
                        yield from self._each(value, at, node, key.value)

    def _found(self, r: Result, reason: Reason, node: ast.AST, expr: ast.expr, at: At, *,
               api: UrlApi | None = None, name: str | None = None, client: Client | None = None,
               dropped: tuple[str, str, Value] | None = None, whole: bool = True) -> Iterator[UrlValue]:
        if type(r) is Value and reason is Reason.URL_NAME and \
                (inner := inner_urls(t := r.flat()) or listed_urls(t, name, self.url_names)):
            for a, b in inner:  # (each alone: '"' + CDN + '"' shows a URL, a Markdown badge holds two)
                yield from self._found(r.slice(a, b), reason, node, expr, at, api=api, name=name, client=client,
                                       dropped=dropped)
            return
        if type(r) is Value and dropped is None and client is None and whole and \
                (loop := loop_over(expr, at, self.state.value, r)) is not None:  # (not: ``expr`` is a path's piece)
            for item in loop[1]:  # (each item in turn: ``for path in ("/a", "/b"): get(BASE + path)``; "": a value)
                each = at._replace(frame={**(at.frame or {}), loop[0]: item})
                yield from self._found(self.state.value(expr, each) if loop[0] else item, reason, node, expr, each,
                                       api=api, name=name)
            return
        if type(r) is Value and dropped is None and (not r.opaque or type(expr) is not ast.Call) and \
                (unset := with_env_defaults(r, self.state.evaluator)) is not None:
            r = unset  # (where the variables are unset: ``os.getenv("SITE_URL", "https://h/") + "/x"``, a request too)
        if type(r) is Value and not r.opaque and not (r.cut and reason is Reason.URL_NAME):  # (display text)
            if dropped is None and client is None:
                dropped = self.state.evaluator.urljoins.dropped(r)
            yield UrlValue(r, reason, node, expr, api, name, client, dropped, at)
        elif type(expr) in _CHOICES:  # (each alternative is no choice: the recursion is one step deep)
            for alt in self._alternatives(expr, at):
                yield from self._found(self.state.value(alt, at), reason, node, alt, at, api=api, name=name,
                                       client=client)

    def _alternatives(self, expr: ast.expr, at: At) -> list[ast.expr]:
        """The expressions one of which a choice evaluates to, each of which may reach the use: both branches of
        ``a if c else b``, each operand of ``a or b``, the last of ``a and b``, the default of
        ``os.getenv(name, default)`` (at most ``_MAX_CHOICES``, in source order)."""
        out: list[ast.expr] = []
        stack = [expr]
        while stack and len(out) < _MAX_CHOICES:
            e = stack.pop()
            t = type(e)
            if t is ast.IfExp:  # (a test known texts decide takes one branch: ``CDN if "://" in CDN else ...``)
                taken = self._decided(e.test, at)  # type: ignore[attr-defined]
                stack += (e.orelse, e.body) if taken is None else (e.body if taken else e.orelse,)  # type: ignore[attr-defined]
            elif t is ast.BoolOp and type(e.op) is ast.Or:  # type: ignore[attr-defined]
                stack += reversed(e.values)  # type: ignore[attr-defined]
            elif t is ast.BoolOp:  # (``a and b``: ``b`` when ``a`` is true; ``a`` only when false, no URL)
                stack.append(e.values[-1])  # type: ignore[attr-defined]
            elif t is ast.Call and (default := self._default_of(e, at)) is not None:  # type: ignore[arg-type]
                stack.append(default)
            elif e is not expr:
                out.append(e)
        return out

    def _decided(self, test: ast.expr, at: At) -> bool | None:
        """A branch's test when known texts decide it: ``a in b``, ``a not in b``, ``b.startswith(a)``,
        ``b.endswith(a)``, and ``not`` of one; None for any other."""
        t = type(test)
        if t is ast.UnaryOp and type(test.op) is ast.Not:  # type: ignore[attr-defined]
            inner = self._decided(test.operand, at)  # type: ignore[attr-defined]
            return None if inner is None else not inner
        if t is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.In, ast.NotIn):  # type: ignore[attr-defined]
            a, b = self._text(test.left, at), self._text(test.comparators[0], at)  # type: ignore[attr-defined]
            return None if a is None or b is None else (a in b) is (type(test.ops[0]) is ast.In)  # type: ignore[attr-defined]
        if t is ast.Call and type(f := test.func) is ast.Attribute and f.attr in (  # type: ignore[attr-defined]
                "startswith", "endswith") and len(test.args) == 1 and not test.keywords:  # type: ignore[attr-defined]
            a, b = self._text(test.args[0], at), self._text(f.value, at)  # type: ignore[attr-defined]
            return None if a is None or b is None else (b.startswith(a) if f.attr == "startswith" else b.endswith(a))
        return None

    def _text(self, expr: ast.expr, at: At) -> str | None:
        """What ``expr`` holds when it is known text."""
        r = self.state.text(expr, at)
        return r.text if r is not None and r.type == "str" else None

    def _default_of(self, call: ast.Call, at: At) -> ast.expr | None:
        """The default of ``os.getenv(name, default)`` / ``os.environ.get(...)``: what the code uses when the
        variable is not set."""
        func = call.func
        if not (type(func) is ast.Name or (type(func) is ast.Attribute and func.attr in ("getenv", "get", "str"))):
            return None  # (``from os import getenv as ge``: by what the name imports)
        callee = self.callees.value(func, at)
        return env_default(call, callee.qual) if type(callee) is Ref and callee.qual in ENVIRONMENT else None

    def _each(self, value: ast.expr, at: At, node: ast.AST, name: str | None) -> Iterator[UrlValue]:
        """A URL-named target's value, or each element of a display assigned to it (a dict's values:
        ``project_urls={"Docs": DOCS + "/"}``)."""
        t = type(value)
        exprs = value.elts if t in _DISPLAYS else value.values if t is ast.Dict else [value]  # type: ignore[attr-defined]
        for e in exprs:
            yield from self._named(e, node, at, name)

    def _named(self, expr: ast.expr, node: ast.AST, at: At, name: str | None) -> Iterator[UrlValue]:
        """A URL-named target's or function's value; of a name branches bind or extend, each path's too."""
        r = self.state.value(expr, at)
        for site, site_expr, site_at, v, _ in path_values(self.state, expr, at, r):
            yield from self._found(v, Reason.URL_NAME, site or node, site_expr, site_at, name=name, whole=False)
        yield from self._found(r, Reason.URL_NAME, node, expr, at, name=name)

    def _target(self, target: ast.expr, value: ast.expr, node: ast.AST, at: At) -> Iterator[UrlValue]:
        name = dotted(target) or string_key(target)  # (``item["image_urls"] = ...``: a key, as a dict display's)
        if (self._is_url_name(name) or says_url_type(getattr(node, "annotation", None))) and \
                not guarded(at, node, name, value):
            held, hidden = held_value(value)  # (a lambda's body, ``img_url = lambda: ...``; a field's default)
            yield from self._each(held, at if held is value else _at(at.scope, at.stmt, at.hidden | hidden), node, name)
        for e in value.elts if type(value) in _DISPLAYS and not self._is_url_name(name) else ():  # type: ignore[attr-defined]
            if type(e) is ast.Constant and type(e.value) is str and e.value.count("://") > 1 and \
                    type(r := self.state.value(e, at)) is Value and len(r.pieces) > 1:  # (two URLs lost a ',')
                yield UrlValue(r, Reason.URL_NAME, node, e, at=at, only=_RUN_CODES)

    def _defaults(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, at: At) -> Iterator[UrlValue]:
        a = node.args
        positional = [*a.posonlyargs, *a.args]
        pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults, strict=True))
        pairs += [(arg, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]
        client = init_client(self.state, at.scope, node) if getattr(node, "name", "") == "__init__" else None
        for arg, default in pairs:
            if arg.arg == "base_url" and client is not None:  # (the client's base where a call gives none)
                yield from self._found(self.state.value(default, at), Reason.URL_API, node, default, at,
                                       api=self.apis.get(client))
            elif self._is_url_name(arg.arg) or says_url_type(arg.annotation):  # (typer's ``Option(HOST + "/v1")``)
                yield from self._each(held_value(default)[0], at, node, arg.arg)  # (a lambda's: its body's)

    def _own(self, func: ast.expr) -> bool:
        """Whether a callee taking URLs is one of the module's own functions or methods (not an imported name, nor
        a function of an imported module, nor a name a star import may bind)."""
        if type(func) is ast.Attribute:
            return func.attr not in self._imported and _root(func.value) not in self._imported and not (
                "*" in self._imported and _root(func.value) != "self")
        return type(func) is not ast.Name or (func.id not in self._imported and (
            "*" not in self._imported or func.id in self._url_taking()))

    def _gives_text(self, node: ast.Call, at: At) -> bool:
        """Whether a positional argument joins known text (``get1(HOST + "b2")``), in a call whose callee may be a
        helper (an exception's class, ``raise Invalid(f"...")``, binds no URL)."""
        return type(at.stmt) is not ast.Raise and any(
            _joins(a) and type(r := self.state.value(a, at)) is Value and r.size for a in node.args)

    def _takes_urls(self, func: ast.expr, at: At) -> bool:
        """Whether a callee may take a URL-named parameter: one of the module's functions or methods that does, a
        name the module imports, a function of a module it imports, or a method of an object an imported class
        makes (which of those do is read at the call)."""
        if type(func) is ast.Attribute and (_root(func.value) in self._imported or "*" in self._imported
                                            or self._made_by_imported(func.value, at)):
            return True  # (``helpers.fetch(...)``, ``pkg.utils.fetch(...)``: a module the module imports)
        name = func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else None
        return name in self._url_taking() or name in self._imported or (type(func) is ast.Name and
                                                                          "*" in self._imported)

    def _made_by_imported(self, receiver: ast.expr, at: At) -> bool:
        """Whether a method's receiver is an object made by a name the module imports, in place or bound once in
        the scope (``Poster(t).send(...)``, ``poster = Poster(t)``: fixtures183 repro 02)."""
        bound = None
        if type(receiver) is ast.Name:
            bound = at.scope.names.get(receiver.id, ()) or self.state.index.module.names.get(receiver.id, ())
        elif type(receiver) is ast.Attribute and type(receiver.value) is ast.Name and receiver.value.id == "self" and \
                at.scope.kind == "function" and (cls := at.scope.parent) is not None and cls.kind == "class":
            bound = cls.attr(receiver.attr)  # (``self.poster = Poster(t)`` in a method: fixtures185 repro 03)
        if bound is not None:
            if len(bound) != 1 or bound[0].value is None:
                return False
            receiver = bound[0].value
        func = receiver.func if type(receiver) is ast.Call else None  # (a class's call, as the pre-check reads it)
        return func is not None and _root(func) in self._imported and names_class(last_word(func))

    def _callee(self, call: ast.Call, at: At) -> tuple[UrlApi | None, Client | None]:
        """The URL API a call reaches (through a client: with the client)."""
        func = call.func
        t = type(func)
        if isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(sup := func.value, ast.Call) \
                and isinstance(sup.func, ast.Name) and sup.func.id == "super":  # (``super().__init__(...)``)
            return self._base_class_api(at, call), None
        if t is ast.Name:
            if func.id not in self.leaves and func.id not in self.aliases:  # type: ignore[attr-defined]
                return None, None  # (len(), print(), a local helper: not worth a lookup)
        elif t is not ast.Attribute or func.attr not in self.leaves:  # type: ignore[attr-defined]
            return None, None
        callee = self.callees.value(func, at)
        if type(callee) is Ref:
            return self.apis.get(callee.qual), None
        if type(callee) is Method and type(callee.owner) is Client:
            return self.apis.get(f"{callee.owner.qual}.{callee.attr}"), callee.owner
        return None, None

    def _base_class_api(self, at: At, call: ast.Call) -> UrlApi | None:
        """In ``__init__`` of a class derived from a client whose base each request is appended to
        (``class Translator(httpx.Client)``), that client's constructor: ``super().__init__(base_url=...)`` makes it;
        so it does through a project class between them that hands ``base_url`` on as it is."""
        cls = at.scope.parent
        if at.scope.kind != "function" or cls is None or cls.kind != "class":
            return None
        apis = [self.apis.get(q) for q in base_quals(ClassRef(cls, self.state)) if q is not None]
        api = next((api for api in apis if api is not None and (api.appends or api.slash_base)), None)
        bases = getattr(cls.node, "bases", [])
        if api is None and len(bases) == 1 and cls.parent is not None and \
                type(base := self.state.value(bases[0], At(cls.parent, cls.node))) is ClassRef:  # type: ignore[arg-type]
            api = self._handed_api(base, call)
        return api

    def _handed_api(self, cls: ClassRef, call: ast.Call) -> UrlApi | None:
        """The constructor of the client a call of the project class ``cls`` makes, whose ``base_url`` the call gives
        (``ApiSession(base_url=...)``, or first: ``super().__init__(base_url=base_url, **kw)`` below it)."""
        qual = handed_client(cls.state, cls.scope, call)
        api = self.apis.get(qual) if qual is not None else None
        if api is None or not (api.appends or api.slash_base):
            return None
        by_keyword = any(k.arg == "base_url" for k in call.keywords)
        return api._replace(args=()) if by_keyword else api._replace(args=(0,), keywords=())  # (first: ``_handed_on``)

    def _argument(self, node: ast.Call, expr: ast.expr, at: At, api: UrlApi, client: Client | None
                  ) -> Iterator[UrlValue]:
        """What a URL API's argument gives it; of a name branches extend before the call, each path's value, where
        its last ``+=`` stands (``source.extensions``)."""
        r = self.state.value(expr, at)
        for site, site_expr, site_at, v, name in path_values(self.state, expr, at, r):
            yield from self._sent(v, node, site or node, site_expr, site_at, api, client, name, whole=False)
        yield from self._sent(r, node, node, expr, at, api, client, None)

    def _sent(self, r: Result, call: ast.Call, site: ast.AST, expr: ast.expr, at: At, api: UrlApi,
              client: Client | None, name: str | None, *, whole: bool = True) -> Iterator[UrlValue]:
        """A value a URL API is given, through a client resolved against its base."""
        dropped = None
        if client is not None and client.base is not None and type(r) is Value:
            if client.merge == "resolve":  # (aiohttp: RFC 3986 resolution, as urljoin's)
                lost = assembly.urljoin_drops(client.base, r)
                dropped = None if lost is None else (f"base_url {lost[0]}", lost[1], r)
                end = assembly.refused_base(client.base) if lost is not None else None
                if end is not None and (client.src is self.state.src or end.src is self.state.src):
                    # (no request is resolved against a base the session refuses: the base's fault, IRI812 where
                    # the session is made here, or at the base spelled here however the session got it,
                    # ``super().__init__(...)``; both elsewhere: this request's IRI804 says so)
                    dropped = None
                    if client.src is not self.state.src:
                        yield UrlValue(client.base, Reason.URL_API, site, expr, self.apis.get(_SESSION), at=at,
                                       only=_BASE_CODES)
            r = assembly.client_request(client, r, call, self.state.src)
        yield from self._found(r, Reason.URL_API, site, expr, at, api=api, client=client, dropped=dropped, name=name,
                               whole=whole)

    def _url_keywords(self, node: ast.Call, at: At, used: set[str]) -> Iterator[UrlValue]:
        """The values of a call's URL-named keywords (not those its URL API took), and the default of a
        command-line option so named (``add_argument("--mirror-url", default=...)``: ``args.mirror_url``'s)."""
        for kw in node.keywords:
            if kw.arg is not None and kw.arg not in used and self._is_url_name(kw.arg):
                yield from self._each(kw.value, at, node, kw.arg)
            elif kw.arg == "default" and self._is_url_name(dest := option_dest(node)):
                yield from self._each(kw.value, at, node, dest)

    def _call(self, node: ast.Call, at: At) -> Iterator[UrlValue]:
        api, client = self._callee(node, at)
        api = api.at_call(node) if api is not None else None
        if api is None and names_class(last_word(node.func)) and may_give_base(node) and \
                type(cls := self.state.value(node.func, at)) is ClassRef:
            api = self._handed_api(cls, node)  # (a project class's client: its base)
        used: set[str] = set()
        if api is not None:
            exprs: list[tuple[ast.expr, str | None]] = [(node.args[i], None) for i in api.args if i < len(node.args)
                     and not any(type(a) is ast.Starred for a in node.args[: i + 1])]
            exprs += [(kw.value, kw.arg) for kw in node.keywords if kw.arg in api.keywords]
            for expr, keyword in exprs:
                if keyword:
                    used.add(keyword)
                yield from self._argument(node, expr, at, api, client)
            if api.name in URLJOINS:  # what it drops is the call's fault, wherever its result goes (or none)
                r, dropped = self.state.value(node, at), self.state.evaluator.urljoins.of_call(node)
                if type(r) is Value and dropped is not None:
                    if r.opaque and (refs := each_choice(r)):  # (a reference with choices: the one that drops)
                        r = next((c for c in refs if any(holds(c, p) for p in dropped[2].pieces)), r)
                    if not r.opaque:  # (opaque: its reference is a loop's variable, noted with each item in turn)
                        yield UrlValue(r, Reason.URL_API, node, node, api, None, None, dropped, at, _URLJOIN_CODES)
        yield from self._url_keywords(node, at, used)
        for name, item in parametrized(node):  # (``@pytest.mark.parametrize("url", [HOST + "/a"])``: the test's url)
            if self._is_url_name(name):
                yield from self._each(item, at, node, name)
        if api is None and any(type(a) in _ASSEMBLED for a in node.args) and self._takes_urls(node.func, at) and (
                self._own(node.func) or self._gives_text(node, at)):  # (another module's: read only then)
            for name, arg in parameters_bound(self.state, node, at):  # (a join given to ``fetch(url)``)
                if self._is_url_name(name) and not only_shown(self.state, node, at, name):
                    yield from self._each(arg, at, node, name)


def _joins(arg: ast.expr) -> bool:
    """Whether an argument joins text: ``+``, ``%``, an f-string, ``"{}/x".format(...)``, ``"/".join(...)``,
    ``urljoin(...)``, or gives a URL-named helper's value (``item_url(x)``); another call's result is not read to
    find out (it may be any helper's)."""
    t = type(arg)
    if t is ast.Call:
        func = arg.func  # type: ignore[attr-defined]
        name = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
        return name in _JOINING or is_url_name(name, _URL_WORDS)
    return t in _JOINS


def _root(node: ast.expr) -> str | None:
    """The name an attribute chain starts from (``pkg`` of ``pkg.utils``)."""
    while type(node) is ast.Attribute:
        node = node.value
    return node.id if type(node) is ast.Name else None


_URL_WORDS = ("url", "uri", "href")  # (as the text pre-check reads them: ``marks._JOINED_TEXT``)
_JOINING = frozenset(("format", "format_map", "join", "urljoin"))


_URLJOIN_CODES, _RUN_CODES = frozenset(("IRI804",)), frozenset(("IRI801", "IRI813"))  # (IRI801: at the host)
_SESSION, _BASE_CODES = "aiohttp.ClientSession", frozenset(("IRI812",))


def url_values(tree: ast.Module, lines: Sequence[str] | SourceFile, *, path: str | None = None,
               project: Project | None = None, options: ScanOptions | None = None,
               marked: Sequence[int] | None = None) -> Iterator[UrlValue]:
    """The values a module uses as URLs (see ``ModuleValues``); ``project`` (one per run) reads the names it imports
    from the project's other modules, ``path`` says where it is, ``marked``: its ``marks.marked_lines``, if known."""
    return ModuleValues(tree, lines, path=path, project=project, options=options).url_values(marked)
