"""Evaluate string expressions to values without running code (issue #27, docs/design.md, "URL values").

``ModuleState.value(expr, at)`` gives what an expression holds at a statement: literals, f-strings, ``+``, ``%``,
``.format``, joins, ``urljoin``, URL objects and HTTP clients, through names bound in the function, the module, the
class (``self.x``) and the project's other modules; what cannot be known is a hole. Names are looked up as Python
does; every result is cached; evaluation stops at ``MAX_DEPTH`` nested steps (a hole) and a chain of ``+`` is
flattened with an explicit stack, so hostile code costs linear time and never a recursion error.
"""

from __future__ import annotations

import ast
import builtins
import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import Any

from iri_lint.source import assembly, bindings, mutations
from iri_lint.source.bindings import At, Binding, Kind, ModuleIndex, Order, Scope, defined_by_def, rebound_inside
from iri_lint.source.blocks import Span, inside, item_before, way_to
from iri_lint.source.calls import CALLS, CLIENTS, JOINS_OF_URLS, METHODS, Args, percent_args, unset_environment
from iri_lint.source.choices import ifexp_value, with_choices
from iri_lint.source.formatting import number_with_spec, percent_value, printed, text_with_spec, with_spec_suffix
from iri_lint.source.helpers import Helper, display, helper_call, helper_of
from iri_lint.source.mutations import binds_any, globals_rebound, rebinds_module_attribute, rebound_on
from iri_lint.source.numeric import as_number
from iri_lint.source.objects import ClassRef, Instance, ModuleRef
from iri_lint.source.packages import package_of
from iri_lint.source.project import Project, ProjectModule
from iri_lint.source.slicing import subscript_value
from iri_lint.source.stars import StarReads, stars_binding, stars_order
from iri_lint.source.subclassing import (
    annotated_object,
    class_attribute,
    inherited_request,
    inherited_value,
    made_by_call,
    member_value,
    self_attr_by_mro,
    slot_value,
    subclass_object,
)
from iri_lint.source.url_apis import compat_qual
from iri_lint.source.urljoins import UrljoinNotes
from iri_lint.source.values import (
    MAX_FSTRING_PARTS,
    MAX_PIECES,
    STR_MEMBER,
    Client,
    Const,
    HoleKind,
    Method,
    Ref,
    Seq,
    Src,
    Table,
    Value,
    arithmetic,
    as_text,
    concat,
    dotted,
    fstring_value,
    hole,
    literal_text,
    made,
    spelled_in,
)

__all__ = ["MAX_DEPTH", "WORK_PER_LINE", "At", "ClassRef", "Evaluator", "Instance", "ModuleRef", "ModuleState",
           "Result", "dotted"]

MAX_DEPTH = 48  # nested evaluation steps (names through names, calls in calls); deeper is a hole
WORK_PER_LINE = 16  # a module's evaluation budget, in pieces made and bindings folded, per line of it
USE_ALLOWANCE = 1024  # what a use may still cost past the module's budget: a huge constant is a hole, the uses
# after it are still followed (a chain of doublings; a constant a use: linear all the same)


Result = Value | Const | Ref | ModuleRef | ClassRef | Instance | Method | Client | Seq | Table | Helper


_BUSY = object()  # in a memo while being computed: a cycle reads it as a hole
_RESETS = (Kind.ASSIGN, Kind.IMPORT, Kind.WITH, Kind.OTHER, Kind.STAR)
_AGREEING = (Kind.ASSIGN, Kind.IMPORT, Kind.WITH, Kind.STAR)  # (bindings whose values may agree)
_BUILTINS = frozenset(dir(builtins))
_STR_ATTRIBUTES = frozenset(dir(str))
_BINDS_FIRST = (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor)  # bind before their body runs
_NO_CALLEES = frozenset((ast.Constant, ast.JoinedStr, ast.BinOp, ast.Dict, ast.List, ast.Tuple, ast.Set,
                         ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Compare, ast.BoolOp,
                         ast.UnaryOp, ast.Lambda, ast.Subscript))  # expressions no URL API object comes from


class Evaluator:
    """One file's evaluation: the project (whose parsed modules a whole run shares), the depth reached, and the
    state of every module the file's values are read from. A fresh one per linted file keeps its values
    independent of the files before it (the flake8 plugin sees one file at a time)."""

    __slots__ = ("cuts", "depth", "external", "project", "stars", "states", "urljoins")

    def __init__(self, project: Project | None = None, external: frozenset[str] = frozenset()) -> None:
        self.project = project
        self.external = external  # qualified names known to be outside any project (the URL APIs)
        self.depth = 0
        self.cuts = 0  # holes a limit made (depth, budget): a value that met one is not kept for later uses
        self.states: dict[tuple[int, bool], ModuleState] = {}
        self.stars = StarReads()  # what the star imports met export, and which are being read
        self.urljoins = UrljoinNotes()  # what the ``urljoin`` calls met drop of their bases' paths

    def state(self, tree: ast.Module, src: Src, path: str | None = None, text: str | None = None, *,
              callee: bool = False) -> ModuleState:
        """The state of a module the caller parsed (the project will not read it); ``callee``: see ``ModuleState``."""
        if self.project is not None and path is not None:
            return self.of(self.project.add(path, tree, src, text), callee)
        return self._state(ModuleIndex(tree, text), src, path, callee)

    def close(self) -> None:
        """Let the states go now: their values refer back to them (a class's value to its module's state),
        so without this every linted file's tree would wait for the cyclic gc (or, frozen, never go)."""
        self.urljoins.clear()
        for st in self.states.values():
            st.memo.clear()
            st.bound.clear()
            st.after.clear()
        self.states.clear()

    def of(self, module: ProjectModule, callee: bool = False) -> ModuleState:
        """The state of a project module."""
        return self._state(module.scopes, module.src, module.path, callee)

    def _state(self, index: ModuleIndex, src: Src, path: str | None, callee: bool) -> ModuleState:
        st = self.states.get((id(index), callee))
        if st is None:
            st = self.states[(id(index), callee)] = ModuleState(self, index, src, path, callee)
        return st


class ModuleState:
    """Evaluation in one module: its scopes, its file, and the values found so far."""

    __slots__ = ("after", "bound", "budget", "callee", "deps", "evaluator", "index", "memo", "path", "src")

    def __init__(self, evaluator: Evaluator, index: ModuleIndex, src: Src, path: str | None,
                 callee: bool = False) -> None:
        self.evaluator = evaluator
        # only what a callee is: a module, a class, a client, a function by name. Strings, numbers and
        # displays are holes at once (a call's owner is rarely one, and then no URL API); its own memos
        self.callee = callee
        self.index = index
        self.src = src
        self.path = path
        self.memo: dict[tuple[int, str, int], object] = {}  # (scope, name, statement) -> value there
        self.bound: dict[int, Result] = {}  # binding's expression -> its value
        self.after: dict[tuple[int, int], Value] = {}  # (reset, ``+=``) -> the value once that ``+=`` ran
        self.deps: set[str] = set()  # the project files its values were read from (real paths)
        # pieces and bindings this module's values may cost in all: linear in its size, whatever it holds
        self.budget = WORK_PER_LINE * len(src.file.lines) + MAX_PIECES

    # -- expressions -----------------------------------------------------------------------

    def value(self, node: ast.expr, at: At) -> Result:
        """What ``node`` holds when its statement ``at.stmt`` runs."""
        ev = self.evaluator
        if self.callee and type(node) in _NO_CALLEES:
            return self.hole(node)
        if ev.depth >= MAX_DEPTH or (self.budget <= 0 and type(node) is not ast.Constant):  # (a literal costs nothing)
            return self._cut(node)
        ev.depth += 1
        try:
            handler = _EXPRESSIONS.get(type(node))
            r = handler(self, node, at) if handler is not None else self.hole(node)
        finally:
            ev.depth -= 1
        if type(r) is Value:
            self.budget -= len(r.pieces)
            if self.budget < 0 and len(r.pieces) > 1:
                # (what is past the budget goes no further, a value known already too; what its statement spells
                # stays, when finding it costs a use no more than its allowance)
                return self._cut(node, r if len(r.pieces) <= USE_ALLOWANCE else None, at)
        return r

    def _cut(self, node: ast.AST, known: Value | None = None, at: At | None = None) -> Value:
        """A hole where a limit cut the evaluation short (depth 48 in one use need not be 48 in the next); of a
        known value, what its statement spells stays, a hole for each stretch between."""
        self.evaluator.cuts += 1
        stmt = at.stmt if at is not None else None
        return self.hole(node) if known is None or stmt is None else spelled_in(known, stmt, self.src, self.hole(node))

    def new_use(self) -> None:
        """A use of a URL starts: it may cost ``USE_ALLOWANCE`` whatever the uses before it spent."""
        self.budget = max(self.budget, USE_ALLOWANCE)

    def hole(self, node: ast.AST | None, **kw: object) -> Value:
        """A hole standing for ``node`` (named after it when it is a name)."""
        name = kw.pop("name", None) or (dotted(node) if node is not None else None)
        return hole(node, self.src, name=name, **kw)  # type: ignore[arg-type]

    def text(self, node: ast.expr, at: At) -> Value | None:
        """The value of ``node`` when it is a string (a pure hole counts: it may be one)."""
        return r if type(r := self.value(node, at)) is Value else None

    def _constant(self, node: ast.Constant, at: At) -> Result:
        if type(v := node.value) is str:
            return literal_text(v, node, self.src) if v else Value()
        return self.hole(node) if type(v) is bytes else Const(v, node)

    def _fstring(self, node: ast.JoinedStr, at: At) -> Result:
        if len(node.values) > MAX_FSTRING_PARTS:
            return self.hole(node)  # (no URL has so many fields: the literal's own check reads it, in linear time)
        return fstring_value(node, self.src, lambda part: self._field(part, at))

    def _field(self, part: ast.FormattedValue, at: At) -> Value:
        """One ``{...}`` of an f-string."""
        spec = part.format_spec
        shown = "" if part.conversion == -1 else "!" + chr(part.conversion)
        if isinstance(spec, ast.JoinedStr):
            shown += ":" + "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in spec.values)
        if shown in ("", "!s", ":d"):  # (str() of the value, or an int's digits)
            r = self.value(part.value, at)
            if type(r) is Value and shown != ":d" and r.type != STR_MEMBER:
                return r.retype("str")
            if (text := printed(r, digits=shown == ":d")) is not None:
                return made(text, part.value, self.src)
        else:  # (a known number's padding, ``{SEASON:3d}``; a known string's, or its quotes: ``{name!r}``)
            r = self.value(part.value, at)
            text = number_with_spec(r, shown[1:]) if shown[:1] == ":" else None
            if text is not None or (text := text_with_spec(r, shown[1:2] if shown[:1] == "!" else "",
                                                           shown.partition(":")[2])) is not None:
                return made(text, part.value, self.src)
        return with_spec_suffix(self.hole(part.value, kind=HoleKind.FIELD, spec=shown), shown[1:], part.value, self.src)

    def _binop(self, node: ast.BinOp, at: At) -> Result:
        op = type(node.op)
        if op is ast.Add:
            return self._sum(node, at)
        if op is ast.Mod:
            left = self.value(node.left, at)
            if type(left) is not Value or left.type != "str" or arithmetic((left,)) is HoleKind.NUMBER:
                return self.hole(node, kind=arithmetic((left, self.value(node.right, at))))
            return percent_value(left, percent_args(self.value(node.right, at), node.right), node, self.src)
        if op is ast.Div:
            left = self.value(node.left, at)
            if type(left) is Value and left.type == "yarl.URL":
                right = self.text(node.right, at)
                if right is not None:
                    return assembly.yarl_child(left, right, node, self.src, dotted(node.right))
        return self.hole(node, kind=arithmetic((self.value(node.left, at), self.value(node.right, at)))
                         if op in (ast.Sub, ast.Mult, ast.FloorDiv) else HoleKind.VALUE)  # (integers of integers)

    def _sum(self, node: ast.BinOp, at: At) -> Result:
        """``a + b + ...``: the operands gathered with an explicit stack, then joined once."""
        operands: list[ast.expr] = []
        stack: list[ast.expr] = [node]
        while stack:
            n = stack.pop()
            if type(n) is ast.BinOp and type(n.op) is ast.Add:
                stack.append(n.right)
                stack.append(n.left)
            else:
                operands.append(n)
        values: list[Value] = []
        for operand in operands:
            r = as_text(self.value(operand, at))
            if type(r) is Ref:  # an outside object (``os.path.basename(p)``) beside text: a str, or the sum raises
                r = self.hole(operand)
            if type(r) is not Value or r.type != "str":  # numbers, lists, URL objects: not a string concatenation
                return self.hole(node, kind=arithmetic(itertools.chain(  # (the operands read so far: not twice)
                    values, (r,), (self.value(o, at) for o in operands[len(values) + 1 :]))))
            values.append(r)
        return concat(values, node, self.src)

    def _display(self, node: ast.Tuple | ast.List, at: At) -> Result:
        return display(self, node, at)

    def _dict(self, node: ast.Dict, at: At) -> Result:
        if not all(type(k) is ast.Constant and type(k.value) is str for k in node.keys):
            return self.hole(node)
        return Table({k.value: (self.value(v, at), v) for k, v in zip(node.keys, node.values, strict=True)})  # type: ignore[union-attr]

    # -- names -----------------------------------------------------------------------------

    def _name(self, node: ast.Name, at: At) -> Result:
        name = node.id
        if name in at.hidden:
            return self.hole(node)
        if at.frame is not None and name in at.frame:
            return at.frame[name]  # type: ignore[return-value]
        scope: Scope | None = at.scope
        stmt, first = at.stmt, True  # (where the lookup runs in the scope: a class body runs where it stands)
        while scope is not None:
            if scope.kind == "class" and not first:
                scope = scope.parent  # a class body is not an enclosing scope of its methods
                continue
            if name in scope.globals:
                scope, stmt, first = self.index.module, None, False
            if name in scope.nonlocals:
                return self.hole(node)
            bindings = scope.names.get(name)
            if bindings or scope.stars:
                if bindings and scope.receiver == name and len(bindings) == 1 and bindings[0].stmt is None:
                    assert scope.parent is not None
                    return Instance(scope.parent, self)  # self / cls of a method
                if bindings or (scope.kind == "module" and stars_order(self, scope, name).by_pos):
                    return self._lookup(scope, name, stmt, node)  # (else: no star binds it)
            stmt = scope.node if first and scope.kind == "class" else None  # type: ignore[assignment]
            first, scope = False, scope.parent
        return Ref(name) if name in _BUILTINS else self.hole(node)

    def _lookup(self, scope: Scope, name: str, stmt: ast.stmt | None, node: ast.AST) -> Result:
        """A name's value where ``stmt`` runs in ``scope`` (None: after the scope has run)."""
        pos = scope.position(stmt) if stmt is not None else None
        key = (id(scope), name, id(stmt) if pos is not None else 0)
        memo = self.memo
        found = memo.get(key)
        if found is _BUSY:
            return self.hole(node)  # a cycle: a = b; b = a
        if found is not None:
            return found  # type: ignore[return-value]
        if scope.kind == "function" and name in self.index.declared_nonlocal and rebound_inside(scope, name):
            return self.hole(node)  # a nested function may rebind it whenever it is called
        if scope.kind == "module" and self.index.text is not None and \
                ((rebound := globals_rebound(self.index.text)) is None or name in rebound):
            return self.hole(node)  # (``globals()["HOST"] = ...``, ``exec(...)``: bound by name at run time)
        memo[key] = _BUSY
        cuts = self.evaluator.cuts
        try:
            order = stars_order(self, scope, name)
            r = self._final(scope, name, order, node) if pos is None else self._at(scope, order, stmt, node)  # type: ignore[arg-type]
            r = with_choices(self, as_number(r, scope, name, node), scope, order, node, pos is None)  # (digits)
        finally:
            del memo[key]
        if self.evaluator.cuts == cuts:
            memo[key] = r
        return r

    def _at(self, scope: Scope, order: Order, stmt: ast.stmt, node: ast.AST) -> Result:
        """The last binding setting the name on the way to ``stmt``, then its ``+=``s; a hole if another may run."""
        chain, skip = way_to(stmt, scope.position)
        use = (stmt.lineno, stmt.col_offset)
        inner: list[tuple[list[Binding], int]] = []  # ``+=`` met on the way in, level by level outwards
        reset: Binding | None = None
        tail: list[Binding] = []
        r_level = 0
        for j, (s, p) in enumerate(chain):
            entry = order.blocks.get(p.block)
            if entry is None:
                continue
            ats, bs, resets = entry
            # a with/for around the use binds before its body runs; the use's own statement binds after it
            hi = bisect_right(ats, p.at) if j and type(s) in _BINDS_FIRST else bisect_left(ats, p.at)
            while not j and hi < len(ats) and ats[hi] == p.at and item_before(s, bs[hi], node):
                hi += 1  # (an earlier item of the use's own ``with`` binds before a later item runs)
            if not hi:
                continue
            r = resets[hi - 1]
            if r < 0:
                inner.append((bs, hi))
                continue
            # (what is folded, and each binding between the reset and the use, which is read)
            count = hi - r + sum(n for _, n in inner) + order.after(bs[r].pos) - order.after(use)
            if count > self.budget:
                return self._cut(node)
            self.budget -= count
            reset, tail, r_level = bs[r], bs[r + 1 : hi], j
            break
        if reset is None:  # nothing sets it on the way: what is bound before the use, or in a loop around it
            loops = [s for (s, _), (_, p) in zip(chain[1:], chain, strict=False) if p.in_loop_body]
            self.budget -= len(order.by_pos)
            earlier = order.before(use)
            if loops:
                seen = {id(b) for b in earlier}
                earlier = [*earlier, *(b for b in order.within(loops[-1]) if id(b) not in seen)]
            return self._agree(scope, earlier, node)
        fold = [reset, *tail, *(b for bs, n in reversed(inner) for b in bs[:n])]
        agreed: Result | None = None
        if len(order.between(reset.pos, use, skip)) != len(fold) - 1:  # bound in a branch in between
            agreed = self._agreeing(scope, order, fold, use, node, skip)
            if type(agreed) is Value and agreed.opaque:
                return agreed
        # the outermost loop around the use that does not hold the reset: what it binds runs again before the use
        for m in range(r_level, 0, -1):
            if chain[m - 1][1].in_loop_body:
                if any(b is not reset for b in order.within(chain[m][0])):  # (not the loop's own target)
                    return self.hole(node)
                break
        return agreed if agreed is not None else self._fold(scope, fold, node)

    def _agreeing(self, scope: Scope, order: Order, fold: list[Binding], use: tuple[int, int],
                  node: ast.AST, skip: list[Span] | None = None) -> Result:
        """A name bound again in a branch between its last plain binding and a use (``if flag: w = X``): a
        hole, unless every binding from that one on gives the same text and none is a ``+=``."""
        if len(fold) > 1:
            return self.hole(node)
        return self._agree(scope, [fold[0], *order.between(fold[0].pos, use, skip or ())], node)

    def _final(self, scope: Scope, name: str, order: Order, node: ast.AST) -> Result:
        """A name's value once its scope has run (a module constant read by a function or another module)."""
        index = self.index
        if scope.kind == "module" and name in index.declared_global:
            return self.hole(node)  # a function may rebind it at any time
        entry = order.blocks.get(id(scope.body))
        if entry is None or entry[2][-1] < 0:
            return self._agree(scope, order.by_pos, node)
        _, bs, resets = entry
        r = resets[-1]
        if order.after(bs[r].pos) != len(bs) - r - 1:  # bound again in a branch or loop: known if all agree
            return self._agreeing(scope, order, bs[r:], (1 << 62, 0), node)  # (a use after all)
        return self._fold(scope, bs[r:], node)

    def _fold(self, scope: Scope, chain: list[Binding], node: ast.AST) -> Result:
        """A reset binding's value, then each ``+=`` after it. The value after each ``+=`` is kept: the
        next use folds on from there (what a run of ``url += ...`` costs is linear in its length)."""
        first = self._binding(scope, chain[0], node)
        if len(chain) == 1:
            return first
        first = self.hole(node) if type(first) is Ref else as_text(first)  # (an outside object ``+=`` text: a str)
        if type(first) is not Value or first.type != "str":
            return self.hole(node)
        reset = id(chain[0].stmt)
        start, value = 0, first
        for i in range(len(chain) - 1, 0, -1):
            done = self.after.get((reset, id(chain[i].value)))
            if done is not None:
                start, value = i, done
                break
        mores = [value]
        for b in chain[start + 1 :]:
            if b.kind is not Kind.AUG or self.budget <= 0:
                return self.hole(node) if b.kind is not Kind.AUG else self._cut(node)
            more = as_text(self._bound(b, scope))
            more = self.hole(b.value) if type(more) is Ref else more
            if type(more) is not Value or more.type != "str":
                return self.hole(node)
            mores.append(more)
            self.budget -= len(more.pieces)
        value = concat(mores, node, self.src)  # (one concatenation: a piece at a time would copy the run n times)
        self.budget -= len(value.pieces)
        self.after[(reset, id(chain[-1].value))] = value
        return value

    def _agree(self, scope: Scope, bindings: list[Binding], node: ast.AST) -> Result:
        """Bindings in branches: their value when every one of them gives the same known text (read up to the
        first that differs: a use after many branches reads few of them)."""
        if len(bindings) < 2:
            return self._binding(scope, bindings[0], node) if bindings else self.hole(node)
        if bindings[0].kind is Kind.IMPORT and all(b.kind is Kind.IMPORT for b in bindings):
            values = [self._binding(scope, b, node) for b in bindings]
            if all(type(v) is not Value for v in values):
                # try: import a / except ImportError: import b: the same function or class under two names
                return values[min(range(len(bindings)), key=lambda k: bindings[k].pos)]
        first = self._binding(scope, bindings[0], node) if bindings[0].kind in _AGREEING else self.hole(node)
        for b in bindings[1:] if type(first) in (Value, Ref) else ():
            v = self._binding(scope, b, node) if b.kind in _AGREEING else None
            if not (first.same(v) if type(first) is Value and type(v) is Value else v == first):
                return self.hole(node)
        return first if type(first) in (Value, Ref) else self.hole(node)

    def _binding(self, scope: Scope, b: Binding, node: ast.AST) -> Result:
        """The value one binding gives its name."""
        if b.kind in (Kind.IMPORT, Kind.STAR):  # (a star import in a name's order imports that name)
            assert b.imported is not None
            return self._import(*b.imported, node)
        if b.kind is Kind.OTHER and type(b.stmt) is ast.ClassDef:
            return ClassRef(self.index.scope(b.stmt, scope), self)
        if b.kind in (Kind.ASSIGN, Kind.WITH) and b.value is not None:
            r = self._bound(b, scope)
            if b.kind is Kind.WITH and not (type(r) is Client or (
                    type(r) is Ref and r.qual.replace("()", "") in self.evaluator.external)):
                return self.hole(node)  # what __enter__ returns: the same object for clients and sessions
            return r
        return annotated_object(self, scope, b, node) or \
            self.hole(node, kind=HoleKind.NUMBER if bindings.binds_a_number(b, scope, node) else HoleKind.VALUE)

    def _bound(self, b: Binding, scope: Scope) -> Result:
        """The value of a binding's expression at its statement (once per binding)."""
        assert b.value is not None
        if (r := self.bound.get(key := id(b.value))) is None:
            cuts = self.evaluator.cuts
            r = mutations.as_changed_in_place(self.value(b.value, At(b.scope or scope, b.stmt)), b, b.scope or scope,
                                              self.index.text, self.src)
            r = self.hole(b.value) if r is None else r  # (``parts.sort()``: a display changed in place)
            if self.evaluator.cuts == cuts:
                self.bound[key] = r
        return r

    # -- attributes, classes and modules ---------------------------------------------------------

    def _attribute(self, node: ast.Attribute, at: At) -> Result:
        if at.frame and (key := dotted(node)) in at.frame:
            return at.frame[key]  # type: ignore[return-value]  # (one of a module name's choices: ``source.choices``)
        attr = node.attr
        if attr == "value" and (member := member_value(self, node, at)) is not None:
            return member  # (``Api.BASE.value``: what an enum's member stands for)
        owner = self.value(node.value, at)
        t = type(owner)
        if t is Ref:
            return Ref(compat_qual(f"{owner.qual}.{attr}"))  # type: ignore[union-attr]
        if t is Value and owner.type == STR_MEMBER and attr == "value":  # type: ignore[union-attr]
            return owner.retype("str")  # type: ignore[union-attr]
        owner = as_text(owner)
        if (t is Value and not owner.opaque) or t is Client:  # type: ignore[union-attr]
            if t is Value and owner.type == "str" and attr not in _STR_ATTRIBUTES:  # type: ignore[union-attr]
                return self.hole(node)  # (``member.value``: the owner is no str after all, an Enum's member)
            return Method(owner, attr)  # type: ignore[arg-type]
        if t is Instance:
            fresh = owner.fresh or type(node.value) is ast.Call  # type: ignore[union-attr]
            if owner.made is not None and not fresh and rebound_on(owner, attr, self):  # type: ignore[union-attr, arg-type]
                return self.hole(node)  # (``api.BASE = ...``: the object's own, not its class's)
            return owner.state._self_attr(owner.scope, attr, node, exact=owner.made is not None)  # type: ignore[union-attr]
        if t is ClassRef:
            return class_attribute(owner, attr, node)  # type: ignore[arg-type]
        if t is ModuleRef:
            return self._module_attr(owner, attr, node)  # type: ignore[arg-type]
        return self.hole(node)

    def _self_attr(self, cls: Scope, attr: str, node: ast.AST, seen: int = 0, exact: bool = False) -> Result:
        """``self.<attr>`` in a method of ``cls``: the class body's value and every ``self.<attr> = ...`` of
        its methods must agree; inherited from a base class of the module when the class binds none.
        ``exact``: of an object of that very class (``Api()``: a class derived from it is no matter)."""
        if any(inside(node, b.value) for b in cls.attr(attr)):  # (``self.url = self.url + "/v2"``: not memoized)
            return self._class_attr(cls, attr, node, seen, exact)
        key = (id(cls), attr, -2 if exact else -1)
        if (found := self.memo.get(key)) is _BUSY:
            return self.hole(node)
        if found is not None:
            return found  # type: ignore[return-value]
        self.memo[key] = _BUSY
        cuts = self.evaluator.cuts
        try:
            r = self._class_attr(cls, attr, node, seen, exact)
            r = r if exact else slot_value(self, cls, attr, r, node)  # (``= ""`` in a base's body: subclasses fill it)
        finally:
            del self.memo[key]
        if self.evaluator.cuts == cuts:
            self.memo[key] = r
        return r

    def _class_attr(self, cls: Scope, attr: str, node: ast.AST, seen: int, exact: bool) -> Result:
        if (not exact and self.index.overridden(cls, attr)) or self.index.rebound_outside(cls, attr) or \
                binds_any(cls, self.src, attr):
            return self.hole(node)  # a subclass binds it (self may be one of those), code outside the class, any
        body = cls.names.get(attr, [])
        assigned = [b for b in cls.attr(attr) if not inside(node, b.value)]
        if not assigned:
            if body:
                return self._lookup(cls, attr, None, node)
            made = inherited_request(self, cls, attr, node)  # (a request through the client the class chain makes)
            if made is None and len(cls.node.bases) > 1 and cls.parent is not None:  # type: ignore[attr-defined]
                return self_attr_by_mro(self, cls, attr, node, seen)  # (``C(A, B)``: by the resolution order)
            for base in cls.node.bases if seen < MAX_DEPTH and made is None else ():  # type: ignore[attr-defined]
                base_scope = self.index.module_class(base)
                if base_scope is not None:  # (its other subclasses are no matter: self is one of cls's)
                    return self._self_attr(base_scope, attr, node, seen + 1, True)
                # a class of another module of the project (``class Users(Base)``, ``Base`` imported)
                other = self.value(base, At(cls.parent, cls.node)) if cls.parent is not None else None  # type: ignore[arg-type]
                if type(other) is ClassRef:
                    got = other.state._self_attr(other.scope, attr, node, seen + 1, True)
                    return inherited_value(got, cls, other, attr, self, node)
            return made or self.hole(node)
        both = [*body, *assigned]
        if len(both) == 1 and both[0].kind in (Kind.ASSIGN, Kind.WITH):
            return self._binding(cls, both[0], node)
        return self._agree(cls, both, node)

    def _module_attr(self, module: ModuleRef, attr: str, node: ast.AST) -> Result:
        """``settings.HOST`` of a project module (a hole if this one may bind it), a submodule, an outside name."""
        qual = f"{module.name}.{attr}" if module.name else None
        if self.index.text is not None and rebinds_module_attribute(self.index.text, attr):
            return self.hole(node)  # (a test's ``settings.HOST = ...`` or ``monkeypatch.setattr``)
        r = self._read(module.path, attr, qual, node)
        if r is not None:
            return r
        project = self.evaluator.project
        if module.path.endswith("__init__.py") and project is not None:
            sub = project.find(module.path, None, 1, attr)
            if sub is not None:
                return ModuleRef(qual, sub)
        return Ref(qual) if qual else self.hole(node)

    def _import(self, module: str | None, name: str | None, level: int, node: ast.AST) -> Result:
        """What ``import m`` / ``from m import name`` binds: read from the project's file, else a reference by name."""
        qual = compat_qual(".".join(p for p in (module, name) if p)) if not level else None
        ev = self.evaluator
        project = ev.project
        if qual is not None and (qual in ev.external or project is None or self.path is None):
            return Ref(qual)
        if project is None or self.path is None:
            return self.hole(node)
        if level and name is not None:  # ``from .http import fetch``: a URL API named by its package's name
            package = package_of(self.path, level)
            absolute = ".".join(p for p in (package, module, name) if p)
            if package is not None and absolute in ev.external:
                return Ref(absolute)
        missing: list[str] = []  # (files looked for in vain: one created later is a module of the project)
        if name is None:  # import module
            path = project.find(self.path, module, 0, probed=missing)
            self.deps.update(missing)
            return ModuleRef(module, path) if path is not None else Ref(qual or "")
        # ``from pkg import X``: what pkg binds, else its submodule X; ``from . import X``: the submodule first
        sub = project.find(self.path, module, level, name, missing) if not module else None
        path = project.find(self.path, module, level, probed=missing) if module or (level and sub is None) else None
        if path is not None and path == project.realpath(self.path):  # (``from pkg import utils`` in pkg/__init__.py)
            path = None  # the package imports its submodule: its own name is not bound there yet
        r = self._read(path, name, qual, node) if path is not None else None
        if r is None:
            sub = sub if not module else project.find(self.path, module, level, name, missing)
        self.deps.update(missing)
        return r if r is not None else ModuleRef(qual, sub) if sub is not None else Ref(qual) if qual is not None \
            else self.hole(node)

    def _read(self, path: str, name: str, qual: str | None, node: ast.AST) -> Result | None:
        """``name`` as the project module at ``path`` binds it once it has run; None when it binds no such
        name. The module, and what its value was read from, become dependencies of this one."""
        ev, project = self.evaluator, self.evaluator.project
        assert project is not None
        self.deps.add(path)
        if ev.depth >= MAX_DEPTH:
            return self.hole(node)  # a chain of modules re-exporting a name counts as nesting too
        loaded = project.load(path)
        if loaded is None:
            return self.hole(node)  # a module that cannot be read or parsed: every name is a hole
        ev.depth += 1
        try:
            st = ev.of(loaded, self.callee)
            st.new_use()  # (what a use reads there may cost an allowance too: one exploding constant is a hole)
            scope = st.index.module
            if name not in scope.names and not (scope.stars and stars_order(st, scope, name).by_pos):
                return None
            helper = helper_of(st, scope, name)  # (a function: read at its calls, or known by its name as APIs are)
            if helper is not None or (qual is not None and defined_by_def(scope, name)):
                return helper if helper is not None else Ref(qual)  # type: ignore[arg-type]
            r = st._lookup(scope, name, None, node)
        finally:
            ev.depth -= 1
        self.deps |= st.deps
        return r

    def _stars_for(self, scope: Scope, name: str) -> list[Binding]:
        """The star imports of ``scope`` that may bind ``name`` (``stars.stars_binding``)."""
        return stars_binding(self, scope, name, MAX_DEPTH)

    def _call(self, node: ast.Call, at: At) -> Result:
        callee = self.value(node.func, at)
        if type(callee) is Ref:
            handler = CALLS.get(callee.qual)
            if handler is None:
                return Ref(callee.qual + "()")  # an object of that class, or a function's result
            values = self
            if self.callee:  # of the calls modelled only a client's constructor makes an API's owner
                if callee.qual not in CLIENTS and callee.qual != "functools.partial":
                    return self.hole(node)
                values = self.evaluator._state(self.index, self.src, self.path, False)  # (its base is a value)
            args = values._args(node, at)
            args = unset_environment(args, self.evaluator) if callee.qual in JOINS_OF_URLS else args  # (env unset)
            r = handler(args, node, self.src, callee.qual)
            self.evaluator.urljoins.note_call(callee.qual, args, r, node, at)
            return r  # type: ignore[return-value]
        if type(callee) is Method and type(callee.owner) is Value:
            method = METHODS.get(callee.attr)
            if method is not None:
                args = self._args(node, at)
                r = method(callee.owner, args, node, self.src)
                self.evaluator.urljoins.note_method(callee, args, r)
                return r  # type: ignore[return-value]
        if type(callee) is ClassRef:
            made = subclass_object(callee.state, callee.scope, node)
            return made_by_call(self, made, callee.scope, node, at, callee.state)
        return helper_call(self, node, at, callee) or self.hole(node)  # (a helper of the project's, or a hole)

    def _args(self, node: ast.Call, at: At) -> Args:
        """A call's arguments, evaluated."""
        positional: list[tuple[object, ast.expr]] | None = []
        for a in node.args:
            if type(a) is ast.Starred:  # (``"{}{}".format(*PARTS)``: a display's items are the arguments)
                if type(seq := self.value(a.value, at)) is Seq and not seq.open:
                    positional.extend(zip(seq.items, seq.nodes, strict=True))  # type: ignore[union-attr]
                    continue
                positional = None
                break
            positional.append((self.value(a, at), a))  # type: ignore[union-attr]
        keywords: dict[str, tuple[object, ast.expr]] = {}
        more = False
        for kw in node.keywords:
            r = self.value(kw.value, at)
            if kw.arg is not None:
                keywords[kw.arg] = (r, kw.value)
            elif type(r) is Table:  # (``**{"realm-name": realm}``, ``**params``: its keys are keywords)
                keywords.update(r.items)
            else:
                more = True
        return Args(positional, keywords, more)


_EXPRESSIONS: dict[type, Callable[[ModuleState, Any, At], Result]] = {
    ast.Constant: ModuleState._constant, ast.JoinedStr: ModuleState._fstring, ast.BinOp: ModuleState._binop,
    ast.Name: ModuleState._name, ast.Attribute: ModuleState._attribute, ast.Call: ModuleState._call,
    ast.Tuple: ModuleState._display, ast.List: ModuleState._display, ast.Dict: ModuleState._dict, ast.IfExp:
    ifexp_value, ast.NamedExpr: lambda st, n, at: st.value(n.value, at), ast.Subscript: subscript_value,
}

