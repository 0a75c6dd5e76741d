"""Objects of a project class derived from an outside one: ``class Api(requests.Session)``,
``class Api(httpx.Client)`` that passes its base URL to ``super().__init__(base_url=...)``.

An object of such a class is an object of the outside class when the project's class changes none of the
methods a request goes through (a ``request`` that prefixes a base URL, as requests-toolbelt's
``BaseUrlSession`` does, changes what the URL means). For an HTTP client with a base URL, the base is what
the class's ``__init__`` gives ``super().__init__`` (read there, in its own scope), or, without an
``__init__``, what the call that makes the object gives; inside the class, ``self.get(...)`` is a request
through that client. A class that derives from no outside class makes an object read through its class, as
``self`` is in its methods (``api = Api()``; ``api.BASE``, ``api.url("x")``).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from iri_lint.source.bindings import At, Binding, Kind, ModuleIndex, Scope
from iri_lint.source.calls import (
    CALLS,
    CLIENTS,
    KEYWORD_ONLY,
    REQUEST_METHODS,
    Args,
    request_methods,
    unknown_client,
    unset_environment,
)
from iri_lint.source.env_defaults import with_env_defaults
from iri_lint.source.exports import super_init_call
from iri_lint.source.objects import ClassRef, Instance
from iri_lint.source.values import STR_MEMBER, Client, Const, Method, Ref, Value

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState, Result

__all__ = ["annotated_object", "class_attribute", "enum_members", "handed_client", "inherited_request",
           "inherited_value", "init_client", "made_by_call", "member_value", "mro_binder", "self_attr_by_mro",
           "slot_value", "subclass_object"]

_DOTTED = (ast.Name, ast.Attribute)  # what may name a class
_SETTINGS = frozenset({"pydantic_settings.BaseSettings", "pydantic.BaseSettings", "pydantic.v1.BaseSettings"})
_MAX_CHAIN = 8  # project classes between a class and the outside one it derives from
# what makes an object of a class of the project's own other than what its class body and methods say
_CUSTOMISED = frozenset(("__new__", "__getattribute__"))


def subclass_object(state: ModuleState, cls: Scope, node: ast.AST, *, requests_too: bool = True) -> Result:
    """What calling the project class ``cls`` (of ``state``'s module) makes: an outside class's object, an
    HTTP client with the base URL an ``__init__`` gives, an object of the project's own (``Instance``, made:
    its class derives from nothing else, and neither decorators, a metaclass, ``__new__`` nor ``__getattribute__``
    change what it is), or a hole. Between ``cls`` and the outside class
    may stand project classes (``class Mid(Base)``, ``class Base(httpx.Client): pass``, in this module or
    another), each with one base and no request method; one class of the chain at most has an ``__init__``."""
    init: tuple[ModuleState, Scope] | None = None
    forwarded = False  # an __init__ above the one that gives the base hands its arguments on as they are
    unknown = False  # one above does something else: the object is still such a client, its base a hole
    below: set[str] = set()  # names the classes below bind: an __init__ above reading ``self.<name>`` reads theirs
    first = state, cls
    plain = True  # no class so far changes what making an object or reading its attributes does
    own: set[str] = set()  # the names of the methods the classes so far define
    overridden = False
    for _ in range(_MAX_CHAIN):
        bases = getattr(cls.node, "bases", [])
        plain = plain and cls.parent is not None and not _CUSTOMISED.intersection(cls.names) and \
            not getattr(cls.node, "decorator_list", True) and not getattr(cls.node, "keywords", True)
        if not bases:
            return Instance(first[1], first[0], first[0]) if plain else state.hole(node)
        if len(bases) != 1 or cls.parent is None:
            return state.hole(node)
        own.update(cls.names)
        if "__init__" in cls.names:
            if init is not None and (_forwards(cls) or _hands_on_base(cls)):
                forwarded = True  # (``def __init__(self, base_url, **kw): super().__init__(base_url=base_url, **kw)``)
            elif init is not None and _gives_base_url(init[1]):
                unknown = True  # (an __init__ calling another's: what reaches the client is unknown)
            elif init is not None:
                return state.hole(node)  # (no base URL given below: no client chain, as far as it shows)
            else:
                init = state, cls
                # a class below binds a name this one binds too: what this __init__ reads of ``self`` may be that
                # class's, so the base URL it gives is a hole (docs/design.md: its requests are still checked)
                overridden = any(n in cls.names or cls.attr(n) for n in below)
        below |= {*cls.names, *cls.attrs}
        base = state.value(bases[0], At(cls.parent, cls.node))  # type: ignore[arg-type]
        if type(base) is Ref and (base.qual == "object" or (base.qual in _SETTINGS and init is None)):
            # (pydantic's settings: its str fields' defaults are the values where the environment sets none, and
            # where the call sets none: ``Settings(cdn_root=...)`` gives its own, fixtures246 #3)
            given = base.qual in _SETTINGS and type(node) is ast.Call and bool(node.args or node.keywords)
            return Instance(first[1], first[0], first[0]) if plain and not given else state.hole(node)
        if type(base) is Ref:
            # (a request method of its own changes what a client's request means; a plain class may have a ``get``;
            # what the constructor is given stays the constructor's: ``requests_too=False``, fixtures198 repro 01)
            if requests_too and not own.isdisjoint(request_methods(base.qual)):
                return state.hole(node)
            made = _client_from_init(*init, base.qual, forwarded) if init is not None and base.qual in CLIENTS \
                and not unknown else None
            if made is not None and overridden and made.base is not None:
                made = made._replace(base=first[0].hole(node))
            if unknown and base.qual in CLIENTS:  # (docs/design.md: its requests are checked all the same)
                made = unknown_client(base.qual, node, first[0].src)
            return made if made is not None else Ref(base.qual + "()")
        if type(base) is not ClassRef:
            return state.hole(node)
        state, cls = base.state, base.scope
    return state.hole(node)


def made_by_call(state: ModuleState, made: Result, cls: Scope, node: ast.Call, at: At,
                 home: ModuleState | None = None) -> Result:
    """An object of a client class without an ``__init__`` of its own: the call's arguments make its base
    (``Api(base_url=ROOT)``); one whose ``__init__`` hands its ``base_url`` on, called without it: that
    parameter's default (``home``: the class's module); what ``subclass_object`` made otherwise."""
    if type(made) is Instance:
        return made._replace(made=state)  # (where it is made: what binds its attributes there is read there)
    if type(made) is Client and made.qual[:-2] in CLIENTS and _handed_on(state, cls, node):
        qual = made.qual[:-2]  # (an SDK's ``__init__(self, base_url, **kw)`` handing ``base_url=base_url`` on)
    elif type(made) is Client and home is not None and (default := _base_default(home, cls, node)) is not None:
        return made._replace(base=default[0], base_expr=default[1], src=home.src)  # (fixtures204 repro 01)
    else:
        qual = made.qual[:-2] if type(made) is Ref and made.qual.endswith("()") else ""
        if qual not in CLIENTS or "__init__" in cls.names:
            return made
    values = state.evaluator._state(state.index, state.src, state.path, False)  # (its base is a value)
    args = unset_environment(values._args(node, at), state.evaluator)  # (as the client's own call reads them)
    if type(made) is Client and args.positional and "base_url" not in args.keywords:
        # (the pass-through ``__init__``'s first parameter: the client's keyword, by its name)
        args = args._replace(positional=[], keywords={**args.keywords, "base_url": args.positional[0]})
    return CALLS[qual](args, node, state.src, qual)  # type: ignore[return-value]


def handed_client(state: ModuleState, cls: Scope, call: ast.Call) -> str | None:
    """The outside client (``aiohttp.ClientSession``, ``httpx.Client``) whose base URL ``call`` gives when it makes
    an object of the project class ``cls`` whose chain hands ``base_url`` on as it is; None otherwise."""
    qual = _client_made(state, cls, call)
    return qual if qual is not None and _handed_on(state, cls, call) else None


def init_client(state: ModuleState, cls: Scope, node: ast.AST) -> str | None:
    """The outside client whose base ``cls.__init__`` hands its own ``base_url`` parameter on to as it is: that
    parameter's default is the client's base wherever a call gives none (``def __init__(self,
    base_url=DEFAULT_BASE, **kw)``, fixtures200 repro 04)."""
    return _client_made(state, cls, node) if cls.kind == "class" and _hands_on_base(cls) else None


def _client_made(state: ModuleState, cls: Scope, node: ast.AST) -> str | None:
    """The outside client an object of ``cls`` is, whatever request methods its chain overrides."""
    made = subclass_object(state, cls, node, requests_too=False)
    qual = made.qual[:-2] if type(made) in (Client, Ref) and made.qual.endswith("()") else ""  # type: ignore[union-attr]
    return qual if qual in CLIENTS else None


def _handed_on(state: ModuleState, cls: Scope, call: ast.Call) -> bool:
    """Whether the first ``__init__`` up the chain from ``cls`` hands its ``base_url`` on as it is (``_hands_on_base``)
    and ``call`` gives it as the client's constructor would read it: by keyword, or first where it is the first
    parameter (fixtures190 repro 01: ``ApiSession(base_url=...)``, ``MirrorSession(base_url=...)`` below it)."""
    for _ in range(_MAX_CHAIN):
        if "__init__" in cls.names:
            f = _init_def(cls)
            if f is None or not _hands_on_base(cls):
                return False
            return _gives_base(call, [p.arg for p in (*f.args.posonlyargs, *f.args.args)][1:2] == ["base_url"])
        bases = getattr(cls.node, "bases", [])
        if len(bases) != 1 or cls.parent is None:
            return False
        base = state.value(bases[0], At(cls.parent, cls.node))  # type: ignore[arg-type]
        if type(base) is Ref and base.qual in CLIENTS:  # (no ``__init__`` on the way: the client's own reads the call)
            return _gives_base(call, base.qual not in KEYWORD_ONLY)
        if type(base) is not ClassRef:
            return False
        state, cls = base.state, base.scope
    return False


def _base_default(state: ModuleState, cls: Scope, call: ast.Call) -> tuple[Value, ast.expr] | None:
    """The default of the ``base_url`` parameter the first ``__init__`` up the chain from ``cls`` hands on as it is,
    where ``call`` gives none (``def __init__(self, base_url=DEFAULT_BASE, **kw)``), with its expression."""
    for _ in range(_MAX_CHAIN):
        if "__init__" in cls.names:
            f = _init_def(cls)
            if f is None or not _hands_on_base(cls) or any(k.arg is None for k in call.keywords):
                return None  # (``**options`` may hold it)
            a = f.args
            names = [p.arg for p in (*a.posonlyargs, *a.args)]
            pairs = [*zip(names[len(names) - len(a.defaults):], a.defaults, strict=True),
                     *((p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True))]
            default = next((d for name, d in pairs if name == "base_url"), None)
            if default is None or 0 < (names.index("base_url") if "base_url" in names else 0) <= len(call.args):
                return None  # (no default, or the call gives it by position)
            values = state.evaluator._state(state.index, state.src, state.path, False)  # (its base is a value)
            value = values.value(default, At(cls, f))
            if type(value) is not Value:
                return None  # (an environment read's default where it is unset, as the client's own call reads it)
            return (value if value.known else with_env_defaults(value, state.evaluator) or value), default
        bases = getattr(cls.node, "bases", [])
        if len(bases) != 1 or cls.parent is None:
            return None
        base = state.value(bases[0], At(cls.parent, cls.node))  # type: ignore[arg-type]
        if type(base) is not ClassRef:
            return None
        state, cls = base.state, base.scope
    return None


def _gives_base(call: ast.Call, first: bool) -> bool:
    """Whether ``call`` gives ``base_url`` by keyword, or (``first``: where it is the first parameter) first."""
    return any(k.arg == "base_url" for k in call.keywords) or (
        first and bool(call.args) and type(call.args[0]) is not ast.Starred)


def inherited_request(state: ModuleState, cls: Scope, attr: str, node: ast.AST) -> Result | None:
    """``self.get`` in a class derived from an HTTP client (or a session): a request through the object the
    class makes; None when ``attr`` is not a request method or the class makes no such object."""
    if attr not in REQUEST_METHODS:
        return None
    made = subclass_object(state, cls, node)
    if type(made) is Client:
        return Method(made, attr)
    return Ref(f"{made.qual}.{attr}") if type(made) is Ref else None


def class_attribute(cls: ClassRef, attr: str, node: ast.AST, seen: int = 0) -> Result:
    """``Class.attr``: the class body's value, else the first base's that binds it (``DevConfig.CDN`` of
    ``class DevConfig(Config)``), a base of the module or of another module of the project; a hole when code
    outside the class rebinds it, or the class's attributes are ``enum`` members."""
    state, scope = cls.state, cls.scope
    if state.index.rebound_outside(scope, attr) or enum_members(cls):
        return state.hole(node)
    if attr in scope.names:
        r = state._lookup(scope, attr, None, node)
        return r.retype(STR_MEMBER) if type(r) is Value and r.type == "str" and _str_members(cls) else r
    if len(getattr(scope.node, "bases", ())) > 1:  # (``C(A, B)``: by the method resolution order, not A's chain)
        binder = mro_binder(cls, attr)
        return class_attribute(binder, attr, node, seen + 1) if binder is not None else state.hole(node)
    for base in scope.node.bases if seen < _MAX_CHAIN and scope.parent is not None else ():  # type: ignore[attr-defined]
        other = state.value(base, At(scope.parent, scope.node))  # type: ignore[arg-type]
        if type(other) is ClassRef:
            return class_attribute(other, attr, node, seen + 1)
        break  # (an outside class first: what it binds is not known here)
    return state.hole(node)


def self_attr_by_mro(state: ModuleState, cls: Scope, attr: str, node: ast.AST, seen: int) -> Result:
    """``self.<attr>`` in a method of ``cls``, a class of several bases that binds none: the binding class's first in
    the resolution order (``mro_binder``), read as a base's is; a hole when none is known."""
    binder = mro_binder(ClassRef(cls, state), attr)
    if binder is None:
        return state.hole(node)
    got = binder.state._self_attr(binder.scope, attr, node, seen + 1, True)
    return got if binder.state is state else inherited_value(got, cls, binder, attr, state, node)


def mro_binder(cls: ClassRef, attr: str) -> ClassRef | None:
    """The first class after ``cls`` in its method resolution order (C3, as CPython orders a diamond's classes:
    ``C(A, B)`` with ``A(Root)`` and ``B(Root)`` reads ``B`` before ``Root``) that binds ``attr``, in its body or
    on ``self``; None when none does, a class no project's comes first (what it binds is unknown here) or the
    classes are too many or admit no order."""
    scope = cls.scope
    bases = getattr(scope.node, "bases", []) if scope.parent is not None else []
    first = cls.state.value(bases[0], At(scope.parent, scope.node)) if bases else None  # type: ignore[arg-type]
    if type(first) is ClassRef and (attr in first.scope.names or first.scope.attr(attr)):
        return first  # (the first base comes right after the class in any order: no other base's module is read)
    order = _mro(cls, 0)
    for c in order[1:] if order is not None else ():
        if c is None:
            return None
        if attr in c.scope.names or c.scope.attr(attr):
            return c
    return None


def _mro(cls: ClassRef, depth: int) -> list[ClassRef | None] | None:
    """C3 linearization of the project's classes; an outside base is one None, whose own order is unknown."""
    scope = cls.scope
    bases = getattr(scope.node, "bases", []) if scope.parent is not None else []
    if depth > _MAX_CHAIN or len(bases) > _MAX_CHAIN:
        return None
    seqs: list[list[ClassRef | None]] = []
    heads: list[ClassRef | None] = []
    for b in bases:
        other = cls.state.value(b, At(scope.parent, scope.node))  # type: ignore[arg-type]
        base = other if type(other) is ClassRef else None
        lin: list[ClassRef | None] | None = _mro(base, depth + 1) if base is not None else [None]
        if lin is None:
            return None
        seqs.append(lin)
        heads.append(base)
    seqs.append(heads)
    out: list[ClassRef | None] = [cls]
    while seqs := [q for q in seqs if q]:
        ready = [q[0] for q in seqs if q[0] is None or not any(_same(q[0], t) for r in seqs for t in r[1:])]
        if not ready:
            return None  # (no consistent order: CPython raises TypeError)
        head = ready[0]
        out.append(head)
        if head is None:
            return out  # (what follows an outside class is read through it: unknown here)
        seqs = [q[1:] if _same(q[0], head) else q for q in seqs]
        if len(out) > 4 * _MAX_CHAIN:
            return None
    return out


def _same(a: ClassRef | None, b: ClassRef | None) -> bool:
    return a is not None and b is not None and a.scope is b.scope


def enum_members(cls: ClassRef) -> bool:
    """Whether the class's attributes are members of an ``enum`` class that are no ``str`` (``Ep.API + "v1"``
    raises, ``f"{Ep.API}"`` is ``"Ep.API"``): a base from ``enum`` and none that is ``str``."""
    quals = base_quals(cls)
    return any(q is not None and q.startswith("enum.") for q in quals) and not any(
        q in ("str", "enum.StrEnum") for q in quals)


def member_value(state: ModuleState, node: ast.Attribute, at: At) -> Result | None:
    """``Class.MEMBER.value`` of an ``enum`` class (``Enum``, ``StrEnum``, ``(str, Enum)``): what the class body
    binds the member to; None for another ``.value``."""
    owner = node.value
    if type(owner) is not ast.Attribute or type(owner.value) not in _DOTTED:
        return None
    cls = state.value(owner.value, at)
    if type(cls) is not ClassRef or not any(q is not None and q.startswith("enum.") for q in base_quals(cls)):
        return None
    member, state, scope = owner.attr, cls.state, cls.scope
    if member not in scope.names or state.index.rebound_outside(scope, member):
        return state.hole(node)
    r = state._lookup(scope, member, None, node)
    return r.retype("str") if type(r) is Value and r.type == STR_MEMBER else r


def _str_members(cls: ClassRef) -> bool:
    """Whether the class's attributes are members of a ``(str, Enum)`` class, not a StrEnum (``STR_MEMBER``)."""
    quals = base_quals(cls)
    return "str" in quals and any(q is not None and q.startswith("enum.") for q in quals) and \
        "enum.StrEnum" not in quals


def base_quals(cls: ClassRef) -> list[str | None]:
    """The qualified names of the class's bases (None for a base that names nothing known)."""
    node = cls.scope.node
    if cls.scope.parent is None or not getattr(node, "bases", None):
        return []
    return [getattr(cls.state.value(b, At(cls.scope.parent, node)), "qual", None) for b in node.bases]  # type: ignore[attr-defined, arg-type]


def inherited_value(r: Result, cls: Scope, base_ref: ClassRef, attr: str, state: ModuleState,
                    node: ast.AST) -> Result:
    """What a base class of another module gives ``self.<attr>`` of ``cls``. The base's methods read ``self``
    as theirs: where ``cls`` binds a name the base binds too (``BASE_URL``), text read there may be another's
    (a hole; a client's base URL a hole, its requests still checked), a reference cannot. What a class body up
    the base's chain alone binds ``attr`` to was read when that class was made, whatever ``cls`` overrides."""
    base = base_ref.scope
    if _body_binds(base_ref, attr) or not any(n in base.names or base.attr(n) for n in (*cls.names, *cls.attrs)):
        return r
    if type(r) is Client and r.base is not None:
        return r._replace(base=state.hole(node))
    return r if type(r) is Ref else state.hole(node)


def _body_binds(cls: ClassRef, attr: str) -> bool:
    """Whether the first class up ``cls``'s chain of single bases that binds ``attr`` binds it in its body
    alone (``BASE_URL = ...``, no ``self.BASE_URL = ...`` in a method): no method computes it."""
    for _ in range(_MAX_CHAIN):
        scope = cls.scope
        if scope.attr(attr):
            return False
        if attr in scope.names:
            return True
        bases = getattr(scope.node, "bases", [])
        if len(bases) != 1 or scope.parent is None:
            return False
        base = cls.state.value(bases[0], At(scope.parent, scope.node))  # type: ignore[arg-type]
        if type(base) is not ClassRef:
            return False
        cls = base
    return False


def _init_def(cls: Scope) -> ast.FunctionDef | None:
    """The class's one ``def __init__`` (None: none, or bound more than once)."""
    defs = [b.stmt for b in cls.names.get("__init__", []) if type(b.stmt) is ast.FunctionDef]
    return defs[0] if len(defs) == 1 else None


def _forwards(cls: Scope) -> bool:
    """Whether ``cls.__init__`` (its whole body, a docstring aside) hands its parameters on to
    ``super().__init__`` as they are, each keyword under its own name, ``*args`` and ``**kwargs`` whole."""
    f = _init_def(cls)
    if f is None:
        return False
    body = f.body[1:] if f.body and type(f.body[0]) is ast.Expr and type(f.body[0].value) is ast.Constant else f.body
    call = super_init_call(body[0]) if len(body) == 1 else None
    if call is None:
        return False
    a = f.args
    params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    for x in call.args:
        if not (type(x) is ast.Starred and a.vararg is not None and type(x.value) is ast.Name
                and x.value.id == a.vararg.arg):
            return False
    for kw in call.keywords:
        name = a.kwarg.arg if kw.arg is None and a.kwarg is not None else kw.arg
        if name is None or type(kw.value) is not ast.Name or kw.value.id != name or \
                (kw.arg is not None and name not in params):
            return False
    return True


def _gives_base_url(cls: Scope) -> bool:
    """Whether ``cls.__init__`` gives ``super().__init__`` a ``base_url`` keyword: the chain above it may make
    an HTTP client (read on only then: a class chain of another kind is a hole at once)."""
    f = _init_def(cls)
    return f is not None and any(k.arg == "base_url" for s in f.body if (call := super_init_call(s)) is not None
                                 for k in call.keywords)


def _hands_on_base(cls: Scope) -> bool:
    """Whether ``cls.__init__`` gives ``super().__init__`` its own ``base_url`` parameter as it is
    (``super().__init__(base_url=base_url, headers=...)``), whatever else it gives or does, never binding
    ``base_url`` itself: the base URL is then what the call below gives it by that name."""
    f = _init_def(cls)
    if f is None:
        return False
    calls = [call for s in f.body for call in [super_init_call(s)] if call is not None]
    a = f.args
    if len(calls) != 1 or len(calls[0].args) > 1 or "base_url" not in {p.arg for p in (*a.args, *a.kwonlyargs)}:
        return False
    # (by keyword, or first: aiohttp's first parameter is its base, ``super().__init__(base_url, headers=...)``)
    given = next((k.value for k in calls[0].keywords if k.arg == "base_url"), calls[0].args[0] if calls[0].args
                 else None)
    return type(given) is ast.Name and given.id == "base_url" and not any(
        type(n) is ast.Name and n.id == "base_url" and type(n.ctx) is not ast.Load for n in ast.walk(f))


def _client_from_init(state: ModuleState, cls: Scope, qual: str, keywords_only: bool = False) -> Client | None:
    """The client ``cls.__init__`` makes by calling ``super().__init__(...)`` once, in its body's top level
    (``keywords_only``: through an ``__init__`` that forwards them by name, so positional ones map to no
    known parameter)."""
    defs = [b.stmt for b in cls.names.get("__init__", []) if type(b.stmt) in (ast.FunctionDef, ast.AsyncFunctionDef)]
    if len(defs) != 1:
        return None
    init = defs[0]
    calls = [(s, call) for s in init.body for call in [super_init_call(s)] if call is not None]  # type: ignore[union-attr]
    if len(calls) != 1:
        return None
    stmt, call = calls[0]
    if keywords_only and call.args:
        return None
    values = state.evaluator._state(state.index, state.src, state.path, False)  # (its base is a value)
    made = CALLS[qual](values._args(call, At(state.index.scope(init, cls), stmt)), call, state.src, qual)  # type: ignore[arg-type]
    return made if type(made) is Client else None


def annotated_object(state: ModuleState, scope: Scope, b: Binding, node: ast.AST) -> Result | None:
    """A parameter annotated with the class of a URL API's objects (``session: aiohttp.ClientSession``,
    ``client: httpx.AsyncClient | None``, ``s: requests.Session``): an object of it, a client's base URL unknown
    (whoever calls may give any); None for any other binding."""
    function = scope.node
    if b.kind is not Kind.OTHER or b.stmt is not None or type(node) is not ast.Name or scope.parent is None or \
            type(function) not in (ast.FunctionDef, ast.AsyncFunctionDef) or b not in scope.names.get(node.id, ()):
        return None  # (``node`` names the parameter ``b`` binds: its annotation is looked up by that name)
    a = function.args  # type: ignore[attr-defined]
    given = next((p.annotation for p in (*a.posonlyargs, *a.args, *a.kwonlyargs) if p.arg == node.id), None)
    if type(given) is ast.BinOp and type(given.op) is ast.BitOr:  # (``X | None``)
        given = given.left if type(given.right) is ast.Constant and given.right.value is None else None
    owner = state.value(given, At(scope.parent, function)) if type(given) in (ast.Name, ast.Attribute) else None  # type: ignore[arg-type]
    if type(owner) is not Ref or owner.qual not in state.evaluator.external:
        return None
    if owner.qual in CLIENTS:
        return CALLS[owner.qual](Args([], {}, True), given, state.src, owner.qual)  # type: ignore[arg-type, return-value]
    return Ref(owner.qual + "()")


def slot_value(state: ModuleState, cls: Scope, attr: str, r: Result, node: ast.AST) -> Result:
    """What ``self.<attr>`` of a method of ``cls`` holds: a hole where it is nothing yet (``""`` or ``None``) as the
    class it is inherited from binds it, a slot its subclasses fill; else ``r``, what the class binds."""
    if (type(r) is Const or (type(r) is Value and not r.pieces)) and \
            (slot := _slot_class(state.index, cls, attr)) is not None and not _overrides(state, slot, attr):
        return state.hole(node)
    return r


def _slot_class(index: ModuleIndex, cls: Scope, attr: str) -> Scope | None:
    """The class of this module that ``cls`` first inherits ``attr`` from (itself included) when it binds it to
    ``""`` or ``None`` in its body: a slot its subclasses fill, in any module (bigcommerce's
    ``resource_name = ""``, outside19), so what ``self.`` or ``cls.`` reads there is unknown."""
    for _ in range(_MAX_CHAIN):
        body = cls.names.get(attr)
        if body:
            return cls if any(type(b.value) is ast.Constant and b.value.value in ("", None) for b in body) else None
        if cls.attr(attr):
            return None
        bases = [b for b in map(index.module_class, cls.node.bases) if b is not None]  # type: ignore[attr-defined]
        if len(bases) != 1:
            return None
        cls = bases[0]
    return None


def _overrides(state: ModuleState, cls: Scope, attr: str) -> bool:
    """Whether a class up ``cls``'s chain of single bases, of this module or another, binds ``attr``: ``cls``'s
    ``""`` then overrides a value (``API_PREFIX = ""``: webhooks have none, fixtures182 repro 02), it is one."""
    for _ in range(_MAX_CHAIN):
        node: ast.ClassDef = cls.node  # type: ignore[assignment]
        if len(node.bases) != 1 or cls.parent is None:
            return False
        base = state.value(node.bases[0], At(cls.parent, node))
        if type(base) is not ClassRef:
            return False
        state, cls = base.state, base.scope
        if attr in cls.names or cls.attr(attr):
            return True
    return False
