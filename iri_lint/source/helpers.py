"""Calls of the project's helpers: ``self._url("users", uid)``, ``endpoint("items")`` (issue #27).

A function of the module or of another module of the project (imported by name), or nested in the calling
function or an enclosing one, or a method of the class a method is in, called by its name or through
``self``/``cls``, whose body is one ``return`` (after its docstring; or after a few plain assignments, put
together by ``source.returns``), is read at the call: its parameters hold the call's arguments (their defaults
when not given, read where the ``def`` stands; ``*parts`` the other positional arguments), the rest of its names
what they hold where it is defined. Anything else makes the call a hole, as every other call of the project's
functions is: a decorator (but ``staticmethod``/``classmethod``, ``lru_cache``), ``**kwargs`` in the definition,
``*`` or ``**`` in the call, the helper's name bound twice or by a subclass of the caller's class, a return that
binds a name (``:=``, a comprehension, a ``lambda``), a call of the helper in itself, ``async def`` (its call is a
coroutine).
The parameters a call's positional arguments bind are read from any such ``def``, whatever its body,
``async def`` too (``parameters_bound``): only a decorator may change what they are.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, NamedTuple

from iri_lint.source.bindings import At, Scope
from iri_lint.source.blocks import names_from
from iri_lint.source.mutations import rebound_on
from iri_lint.source.objects import ClassRef, Instance
from iri_lint.source.returns import one_return, return_statement
from iri_lint.source.values import Seq, Value

Function = ast.FunctionDef | ast.AsyncFunctionDef

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState, Result

    # a helper, its def's scope, whether the receiver fills its first parameter, its module, an object filling it
    _Found = tuple[Function, Scope, bool, ModuleState, Instance | None]

__all__ = ["Helper", "display", "helper_call", "helper_of", "only_shown", "parameters_bound", "returned_alone"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_MAX_BASES = 8  # classes up a chain of single bases a method is looked for in
_BINDS = (ast.NamedExpr, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Await,
          ast.Yield, ast.YieldFrom)


class Helper(NamedTuple):
    """A function another module of the project defines (``from pkg.urls import endpoint``): read at its calls
    when its body is one return, its parameters bound by their arguments whatever its body."""

    state: ModuleState  # its module's
    function: Function


def helper_of(state: ModuleState, scope: Scope, name: str) -> Helper | None:
    """The function a module's ``name`` is, read from another module; None when it is none (or decorated)."""
    function = _only_def(scope, name, state)
    if function is None or _kind(function, state) != "function":
        return None
    return Helper(state, function)


def helper_call(state: ModuleState, node: ast.Call, at: At, callee: object) -> Result | None:
    """The value of ``node``, a call of a helper: of the module's, when ``callee`` (what its callee holds) is a
    hole, or another module's ``Helper``; None when it calls none (see the module)."""
    found = _found(state, node, at, callee)
    if found is None:
        return None
    function, parent, skip_first, owner, receiver = found
    returned = _single_return(function)
    scope = owner.index.scope(function, parent)
    if returned is None or scope is at.scope:  # (the helper calling itself)
        return None
    frame = _frame(state, owner, function, parent, node, at, skip_first)
    if frame is None:
        return None
    if receiver is not None:  # (``api.url(...)``: its ``self`` is that very object)
        frame[[*function.args.posonlyargs, *function.args.args][0].arg] = receiver
    return owner.value(returned.value, At(scope, return_statement(returned), frame=frame))  # type: ignore[arg-type]


def returned_alone(state: ModuleState, node: ast.Call, at: At) -> Result | None:
    """What the helper ``node`` calls returns as its own module checks it (its parameters unknown, its ``self``
    its class's), not with this call's arguments; None when it calls none."""
    found = _found(state, node, at, state.value(node.func, at))
    if found is None:
        return None
    function, parent, _, owner, _ = found
    returned = _single_return(function)
    if returned is None:
        return None
    return owner.value(returned.value, At(owner.index.scope(function, parent), return_statement(returned)))  # type: ignore[arg-type]


def parameters_bound(state: ModuleState, node: ast.Call, at: At) -> list[tuple[str, ast.expr]]:
    """The parameters of the project's function a call names that its positional arguments bind, each with
    its argument (``with_retry(CDN + "img")`` binds ``url``), up to a starred argument; none when it names
    none (the functions and methods ``helper_call`` finds, whatever their body, ``async def`` too)."""
    found = _found(state, node, at, state.value(node.func, at))
    if found is None:
        return []
    function, skip_first = found[0], found[2]
    params = [*function.args.posonlyargs, *function.args.args][1 if skip_first else 0 :]
    out: list[tuple[str, ast.expr]] = []
    for param, arg in zip(params, node.args, strict=False):
        if type(arg) is ast.Starred:
            break
        out.append((param.arg, arg))
    return out


# (not a stream's ``write``: a sitemap's writer writes URLs, which are worth checking)
_SHOWING = frozenset(("print", "debug", "info", "warning", "warn", "error", "critical", "exception", "echo"))


def only_shown(state: ModuleState, node: ast.Call, at: At, param: str) -> bool:
    """Whether the function a call names uses its parameter ``param`` only inside the arguments of ``print``, a
    logging call or ``click.echo``: a label shown to a reader (``start(url + " ** cloned **")`` with
    ``def start(url): print("Test @ %s" % url)``, outside15 repro 01), not a URL it uses."""
    found = _found(state, node, at, state.value(node.func, at))
    if found is None:
        return False
    function = found[0]
    shown: set[int] = set()
    for call in ast.walk(function):
        if type(call) is ast.Call and (call.func.id if type(call.func) is ast.Name else call.func.attr
                                       if type(call.func) is ast.Attribute else None) in _SHOWING:
            shown.update(id(n) for a in (*call.args, *(k.value for k in call.keywords)) for n in ast.walk(a))
    uses = [n for n in ast.walk(function) if type(n) is ast.Name and n.id == param]
    return bool(uses) and all(id(n) in shown for n in uses)


def _found(state: ModuleState, node: ast.Call, at: At, callee: object) -> _Found | None:
    helper = callee if type(callee) is Helper else None
    if helper is None and not (type(callee) is Value and callee.opaque):
        return None
    return _helper(state, node.func, at) if helper is None else \
        (helper.function, helper.state.index.module, False, helper.state, None)


def _helper(state: ModuleState, func: ast.expr, at: At) -> _Found | None:
    """The helper a call's callee names, the scope its ``def`` stands in, whether the call's receiver fills its
    first parameter, and the state of its module; None when it names none."""
    if type(func) is ast.Name:
        scope: Scope | None = at.scope
        while scope is not None and scope.kind != "module":  # (a local or enclosing name: its one ``def`` there)
            if func.id in scope.names or func.id in scope.globals:
                local = _only_def(scope, func.id) if scope.kind == "function" and func.id not in scope.globals \
                    and func.id not in at.hidden else None
                return None if local is None or _kind(local, state) != "function" else \
                    (local, scope, False, state, None)
            scope = scope.parent
        module = state.index.module
        if func.id in at.hidden or func.id in state.index.declared_global:
            return None
        function = _only_def(module, func.id, state)
        return None if function is None or _kind(function, state) != "function" else (function, module, False, state,
                                                                                      None)
    if type(func) is not ast.Attribute:
        return None
    method, cls = at.scope, at.scope.parent
    receiver = func.value.id if type(func.value) is ast.Name else ""
    if method.kind != "function" or cls is None or cls.kind != "class" or method.receiver != receiver or \
            len(method.names.get(receiver, ())) != 1:
        return _object_method(state, func, at)  # (not a method's receiver: maybe an object the project made)
    attr = func.attr
    bound = at.frame.get(receiver) if at.frame is not None else None
    if type(bound) is not Instance:
        bound = None
    else:  # (in a helper read for a subclass's call: ``self`` is that class's, not this one's)
        state, cls = bound.state, bound.scope
    if (bound is None or bound.made is None) and (state.index.overridden(cls, attr)
                                                  or state.index.rebound_outside(cls, attr)):
        return None
    # (the base's helper reads ``self`` as this class's, which the call gives it: a name both bind is this one's)
    found = _defining_class(state, cls, attr, exact=True)
    function = _only_def(found[1], attr) if found is not None else None
    if found is None or function is None:
        return None
    kind = _kind(function)
    receives = _kind(method.node)  # type: ignore[arg-type]
    if kind == "static":
        return function, found[1], False, found[0], None
    if kind == "class" or (kind == "function" and receives == "function"):
        # (``self.m()`` of a method, ``cls.m()`` of a class's; a base's ``m`` reads ``self`` or ``cls`` as this
        # class's, and as its own subclasses': not as its other subclasses', siblings of this one)
        own = bound if bound is not None else Instance(cls, state) if found[1] is not cls else None
        return function, found[1], True, found[0], own
    return None


def _object_method(state: ModuleState, func: ast.Attribute, at: At) -> _Found | None:
    """The helper ``func`` names through an object a class of the project made (``api.url``, ``Api().url``),
    or a static or class method through the class (``Api.build``); None when it names none."""
    owner = state.value(func.value, at)
    t = type(owner)
    if not ((t is Instance and owner.made is not None) or t is ClassRef):  # type: ignore[union-attr]
        return None
    # (an object's class, or the class itself, ``Charge.class_url()``: its ``cls`` is that very class)
    found = _defining_class(owner.state, owner.scope, func.attr, exact=True)  # type: ignore[union-attr]
    function = _only_def(found[1], func.attr) if found is not None else None
    if found is None or function is None:
        return None
    in_place = type(func.value) is ast.Call  # (``Api().url(...)``: no statement ran between making and calling)
    if t is Instance and not in_place and any(rebound_on(owner, n, state) for n in (*found[1].names, *found[1].attrs)):  # type: ignore[arg-type]
        return None  # (its methods read ``self``, whose attributes the object may have its own of)
    kind = _kind(function)
    if kind == "static":
        return function, found[1], False, found[0], None
    if kind == "function" and t is Instance:
        made: Instance = owner  # type: ignore[assignment]
        return function, found[1], True, found[0], made._replace(fresh=in_place)
    if kind == "class":  # (``Charge.class_url()``, a base's: its ``cls`` is the class called through)
        calling = Instance(owner.scope, owner.state) if found[1] is not owner.scope else None  # type: ignore[union-attr]
        return function, found[1], True, found[0], calling
    return None  # (``Api.url(obj, ...)``: an instance method through the class)


def _defining_class(state: ModuleState, cls: Scope, attr: str, *,
                    exact: bool = False) -> tuple[ModuleState, Scope] | None:
    """The class whose ``def`` a receiver's ``attr`` is: ``cls``, or up a chain of single bases of the project
    (``class Users(BaseClient)``, the base in this module or another) none of whose classes below it binds a
    name it binds too (its methods, reading ``self``, would read theirs; ``exact``: they are given an object
    of ``cls`` as their ``self``, whose attributes are read from ``cls`` down); None when it is no such ``def``."""
    below: set[str] = set()
    for _ in range(_MAX_BASES):
        if cls.attr(attr):
            return None  # (``self.<attr> = ...`` in a method: an attribute, not the method)
        if attr in cls.names:
            reads = _receiver_reads(cls, attr)  # (a name the subclasses bind that it never reads is no matter)
            collides = not exact and any((reads is None or n in reads) and (n in cls.names or cls.attr(n))
                                         for n in below)
            return None if collides or state.index.rebound_outside(cls, attr) else (state, cls)
        below |= {*cls.names, *cls.attrs}
        node: ast.ClassDef = cls.node  # type: ignore[assignment]
        if len(node.bases) != 1 or node.keywords or cls.parent is None:
            return None  # (several bases: the method resolution order decides; a metaclass may)
        base = state.value(node.bases[0], At(cls.parent, node))  # (a class of this module or another)
        if type(base) is not ClassRef:
            return None
        state, cls = base.state, base.scope
    return None


def _receiver_reads(cls: Scope, name: str) -> frozenset[str] | None:
    """The attributes method ``name``'s one return reads of its receiver (``self.BASE_URL``); None when it uses
    the receiver otherwise (passes it, calls ``getattr`` on it: it may read any name) or is no such method."""
    function = _only_def(cls, name)
    returned = _single_return(function) if function is not None else None
    params = [*function.args.posonlyargs, *function.args.args] if function is not None else []
    if returned is None or not params or _kind(function) == "static":  # type: ignore[arg-type]
        return None
    receiver = params[0].arg
    uses = [n for n in ast.walk(returned) if type(n) is ast.Name and n.id == receiver]
    attrs = [n.attr for n in ast.walk(returned) if type(n) is ast.Attribute and type(n.value) is ast.Name and
             n.value.id == receiver]
    return frozenset(attrs) if len(attrs) == len(uses) else None


def _only_def(scope: Scope, name: str, state: ModuleState | None = None) -> Function | None:
    """The one ``def`` or ``async def`` binding ``name`` in ``scope`` (None: bound otherwise, or more than once,
    or maybe by a star import: one that binds no such name, as ``state`` reads it, is no matter)."""
    bindings = scope.names.get(name, [])
    stmt = bindings[0].stmt if len(bindings) == 1 else None
    if not isinstance(stmt, _FUNCTIONS) or (scope.stars and (state is None or state._stars_for(scope, name))):
        return None
    return stmt


def _kind(function: Function, state: ModuleState | None = None) -> str | None:
    """"function", "static" or "class" by its decorators; None for any other decorator but, in ``state``'s module,
    ``functools``' caches, which return what the function does (``@lru_cache def get_settings(): return ...``)."""
    decorators = [d for d in function.decorator_list if state is None or not _caches(d, state)]
    names = [d.id for d in decorators if type(d) is ast.Name]
    if len(names) != len(decorators) or len(names) > 1:
        return None
    return {(): "function", ("staticmethod",): "static", ("classmethod",): "class"}.get(tuple(names))


def _caches(decorator: ast.expr, state: ModuleState) -> bool:
    """``@cache``, ``@lru_cache``, ``@functools.lru_cache(maxsize=None)``, imported from ``functools``."""
    d = decorator.func if type(decorator) is ast.Call else decorator
    if type(d) is ast.Attribute:
        return d.attr in _CACHES and type(d.value) is ast.Name and d.value.id == "functools"
    return type(d) is ast.Name and d.id in names_from(state.index.tree, "functools", _CACHES)


_CACHES = frozenset(("cache", "lru_cache"))


def _single_return(function: Function) -> ast.Return | None:
    """The ``return`` that is the function's whole body (``returns.one_return``), binding no name; none of an
    ``async def`` (its call is a coroutine)."""
    returned = one_return(function) if type(function) is ast.FunctionDef else None
    if returned is None or any(type(n) in _BINDS for n in ast.walk(returned)):
        return None
    return returned


def _frame(state: ModuleState, owner: ModuleState, function: Function, parent: Scope, node: ast.Call,
           at: At, skip_first: bool) -> dict[str, object] | None:
    """Each parameter's value for this call (read at the call, in ``state``; a default where the ``def`` stands,
    in ``owner``); None when the call's arguments cannot be matched to them."""
    a = function.args
    if a.kwarg is not None or any(type(x) is ast.Starred for x in node.args) or \
            any(kw.arg is None for kw in node.keywords):
        return None
    positional = [*a.posonlyargs, *a.args]
    defaults: dict[str, ast.expr] = dict(zip([p.arg for p in positional[len(positional) - len(a.defaults):]],
                                             a.defaults, strict=True))
    defaults.update((p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None)
    if skip_first:
        if not positional:
            return None
        positional = positional[1:]
    if len(node.args) > len(positional) and a.vararg is None:
        return None
    frame: dict[str, object] = {p.arg: state.value(x, at) for p, x in zip(positional, node.args, strict=False)}
    if a.vararg is not None:  # (``*parts``: the other positional arguments, a tuple)
        more = node.args[len(positional):]
        frame[a.vararg.arg] = Seq(tuple(state.value(x, at) for x in more), tuple(more))
    by_keyword = {p.arg for p in (*a.args, *a.kwonlyargs)} - {p.arg for p in a.posonlyargs}
    for kw in node.keywords:
        if kw.arg not in by_keyword or kw.arg in frame:
            return None
        frame[kw.arg] = state.value(kw.value, at)
    where = At(parent, function)
    for p in (*positional, *a.kwonlyargs):
        if p.arg not in frame:
            if p.arg not in defaults:
                return None
            frame[p.arg] = owner.value(defaults[p.arg], where)
    return frame


def display(state: ModuleState, node: ast.Tuple | ast.List, at: At) -> Result:
    """A tuple or list display: its items, a starred one's spliced in when it is a display known item by item
    (a helper's ``*parts``, a tuple constant); open after the first one that is not (``Seq.open``)."""
    items: list[object] = []
    nodes: list[ast.expr] = []
    for e in node.elts:
        if type(e) is ast.Starred:
            r = state.value(e.value, at)
            if type(r) is not Seq or r.open:  # (what follows stands where the unknown items end)
                return Seq(tuple(items + list(r.items if type(r) is Seq else ())),
                           tuple(nodes + list(r.nodes if type(r) is Seq else ())), open=True)
            items += r.items
            nodes += r.nodes
        else:
            items.append(state.value(e, at))
            nodes.append(e)
    return Seq(tuple(items), tuple(nodes))
