"""The functions and methods that build URLs, modelled on values: what each call returns (issue #27).

A function is found by the qualified name its callee resolves to through the module's imports
(``from urllib.parse import urljoin as j`` makes ``j(...)`` the entry ``urllib.parse.urljoin``); a
method by its name on a string or URL value. Any other call's result is a hole.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import uses_relative  # (Python's own list of what its urljoin resolves against, not a copy)

from iri_lint.source import assembly
from iri_lint.source.blocks import names_from
from iri_lint.source.env_defaults import with_env_defaults
from iri_lint.source.formatting import Arg, format_value, printed
from iri_lint.source.url_apis import ENVIRONMENT
from iri_lint.source.values import (
    STR_MEMBER,
    Client,
    Const,
    Hole,
    HoleKind,
    Method,
    Ref,
    Seq,
    Src,
    Table,
    Value,
    as_text,
    concat,
    dotted,
    each_choice,
    hole,
    made,
)

if TYPE_CHECKING:
    from iri_lint.source.evaluate import Evaluator

__all__ = [
    "CALLS",
    "CLIENTS",
    "JOINS_OF_URLS",
    "KEYWORD_ONLY",
    "METHODS",
    "PATH_JOINS",
    "REQUEST_METHODS",
    "URLJOINS",
    "Args",
    "known_text",
    "partials_bound",
    "percent_args",
    "request_methods",
    "to_arg",
    "unset_environment",
    "urljoin_drops",
]

Item = tuple[object, ast.expr]  # an argument's result and its expression


class Args(NamedTuple):
    """A call's arguments, evaluated."""

    positional: list[Item] | None  # None: a ``*args`` makes the positions unknown
    keywords: dict[str, Item]
    more: bool  # a ``**kwargs``: keywords not written out are unknown

    def pick(self, names: tuple[str, ...]) -> list[Item | None]:
        """The arguments of parameters ``names``, given by position or keyword (None: not given)."""
        out: list[Item | None] = [None] * len(names)
        for k, item in enumerate(self.positional or ()):
            if k < len(names):
                out[k] = item
        for k, name in enumerate(names):
            if name in self.keywords:
                out[k] = self.keywords[name]
        return out

    @property
    def unknown(self) -> bool:
        """Whether starred arguments hide what is passed."""
        return self.positional is None or self.more


_KEPT = (HoleKind.ENCODED, HoleKind.NUMBER)  # what a field keeps knowing of a hole it formats


def to_arg(r: object, node: ast.AST) -> Arg:
    """A formatting argument: text (a string value with something known, or known to be percent-encoded:
    ``quote(term)``, which a field keeps as it is, or the choices of ``a if c else b``), a constant, or unknown."""
    if type(r) is Value and r.type == "str" and (not r.opaque or r.pieces[0].kind in _KEPT or  # type: ignore[union-attr]
                                                 r.pieces[0].chars is not None or  # type: ignore[union-attr]
                                                 r.pieces[0].choices):  # type: ignore[union-attr]
        return Arg(r, node, dotted(node))
    if type(r) is Const:
        return Arg(r, node, dotted(node))
    name = dotted(node)
    if name is None and type(r) is Value and r.opaque:
        name = r.pieces[0].name  # type: ignore[union-attr]
    return Arg(None, node, name)


def percent_args(r: object, node: ast.expr) -> list[Arg] | dict[str, Arg] | Arg:
    """The arguments ``%`` formats: a tuple's items, a dict's, or one value (``r`` is ``node``'s)."""
    if type(r) is Seq and not r.open:  # (an open one, ``(a, *rest)``, holds values unknown in number: a hole)
        return [to_arg(v, n) for v, n in zip(r.items, r.nodes, strict=True)]
    if type(r) is Table:
        return {k: to_arg(v, n) for k, (v, n) in r.items.items()}
    return to_arg(r, node)


def known_text(item: Item | None) -> Value | None:
    """A string argument's value (None when not a string, or not given)."""
    if item is None:
        return None
    r = as_text(item[0])  # (str operations read a member's value)
    return r if type(r) is Value and r.type == "str" else None


def _url_text(item: Item | None) -> Value | None:
    """A string or URL object argument's text (``base_url`` takes either: aiohttp's ``StrOrURL``)."""
    r = item[0] if item is not None else None
    if type(r) is not Value:
        return None
    return r if r.type == "str" else r.retype("str")


def _known(item: Item | None) -> str | None:
    v = known_text(item)
    return v.text if v is not None else None


Handler = Callable[[Args, ast.Call, Src, str], object]
MethodHandler = Callable[[Value, Args, ast.Call, Src], object]


URLJOINS = ("urllib.parse.urljoin", "requests.compat.urljoin")  # RFC 3986 sec. 5.2 resolution
PATH_JOINS = frozenset((*URLJOINS, "posixpath.join"))  # what they give is one path or URL, whatever it holds


def _urljoin(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    base, url = args.pick(("base", "url"))
    b, u = known_text(base), known_text(url)
    if b is None or u is None:
        return hole(node, src)
    if (refs := each_choice(u)) is not None:  # (``"users" if x else "/users"``: a hole keeping each resolution)
        joined = tuple(_python_urljoin(_chosen_base(b, c), c, node, src) for c in refs)
        return Value((Hole(HoleKind.VALUE, node, src, choices=joined),))
    return _python_urljoin(_chosen_base(b, u), u, node, src)


def _python_urljoin(b: Value, u: Value, node: ast.Call, src: Src) -> Value:
    """What urllib's ``urljoin`` makes: RFC 3986 resolution; against a base whose scheme it does not resolve against,
    the reference alone (``urljoin("gs://bucket/", "x.csv")`` is ``"x.csv"``), read after a hole: IRI804 says the
    call drops the base, where it stands, and a URL API given it has no other scheme to miss (IRI116)."""
    if unresolved_scheme(b) is not None and _relative(u):
        return concat([hole(node, src), u], node, src)
    return assembly.urljoin(b, u, node, src)


def unresolved_scheme(base: Value) -> str | None:
    """The scheme of a base urllib's ``urljoin`` resolves no reference against (one ``urllib.parse.uses_relative``
    lacks: ``s3``, ``gs``, ``redis``, ``git+https``), which then returns the reference alone; None for any other
    base, or one whose scheme is not known text."""
    flat = base.flat()
    span = assembly.split(flat).scheme
    if span is None or any(i <= span[1] for i, _ in base.holes()):
        return None
    scheme = flat[: span[1]].lower()
    return scheme if scheme not in uses_relative else None


def _relative(ref: Value) -> bool:
    """Whether a reference is known to have no scheme of its own (its first character known, no ':' before a '/')."""
    return bool(ref.pieces) and not ref.is_hole(0) and assembly.split(ref.flat()).scheme is None


def _chosen_base(b: Value, u: Value) -> Value:
    """A base that is a module name bound in branches (``source.choices``): the first value it may hold that
    the reference drops part of, else its first (fixtures206 repro 06); any other base as it is."""
    choices = each_choice(b)
    return next((c for c in choices if assembly.urljoin_drops(c, u)), choices[0]) if choices else b


def unset_environment(args: Args, evaluator: Evaluator) -> Args:
    """A join's arguments where the environment leaves its variables unset: an ``os.getenv(name, default)``
    hole in one, whose default is an absolute URL (a literal, or a name of the read's module), is that default:
    ``urljoin(ISSUER, ".well-known/...")`` drops what the default's path would lose (fixtures177 repro 01)."""
    def unset(item: Item) -> Item:
        r = item[0]
        return (with_env_defaults(r, evaluator) or r, item[1]) if type(r) is Value and not r.known else item

    positional = None if args.positional is None else [unset(item) for item in args.positional]
    return Args(positional, {k: unset(item) for k, item in args.keywords.items()}, args.more)


def urljoin_drops(args: Args) -> tuple[str, str, Value] | None:
    """What ``urljoin(base, url)`` with these arguments drops of the base's path
    (``assembly.urljoin_drops``), with the reference."""
    base, url = args.pick(("base", "url"))
    b, u = known_text(base), known_text(url)
    if b is None or u is None:
        return None
    for ref in each_choice(u) or (u,):  # (a reference with choices: the first that makes the base lose a segment)
        if (scheme := unresolved_scheme(b)) is not None and _relative(ref):
            return "unresolved", scheme, ref  # (``urljoin("gs://bucket/", "x.csv")``: the whole base)
        found = assembly.urljoin_drops(b, ref)  # (a base with choices: the first that loses a segment, as resolved)
        if found is not None:
            return found[0], found[1], ref
    return None


def _posix_join(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    if args.unknown or args.keywords or not args.positional:
        return hole(node, src)
    parts = [known_text(item) for item in args.positional]
    if any(p is None for p in parts):
        return hole(node, src)
    return assembly.posix_join(parts, node, src)  # type: ignore[arg-type]


def _unsplit(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    """``urlunsplit((scheme, netloc, path, query, fragment))``, ``urlunparse`` with ``params`` after the path: a
    tuple or list display of strings (a hole where an item is no string)."""
    (components,) = args.pick(("components",))
    r = None if components is None or args.unknown else components[0]
    if type(r) is not Seq or r.open or len(r.items) != (5 if qual.endswith("unsplit") else 6):
        return hole(node, src)
    parts: list[Value] = []
    for item in zip(r.items, r.nodes, strict=True):
        v = known_text(item)
        parts.append(v if v is not None else hole(item[1], src))
    params = parts.pop(3) if len(parts) == 6 else None
    scheme, netloc, path, query, fragment = parts
    return assembly.unsplit(scheme, netloc, path, params, query, fragment, node, src)


def _quote(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    string, safe = args.pick(("string", "safe"))
    safe_text = None if safe is None else (_known(safe) or "")
    value = known_text(string)
    name = dotted(string[1]) if string is not None else None
    return assembly.quoted(None if value is None or value.opaque else value, safe_text, node, src,
                           plus=qual.endswith("_plus"), name=name)


def _urlencode(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    query = args.pick(("query",))[0]
    return hole(node, src, kind=HoleKind.ENCODED, name=dotted(query[1]) if query else None, safe="=&+")


def _number(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    """``int(x)``, ``len(x)``, ``round(x)``, ...: an integer, whose text is digits (and a sign)."""
    integer = qual != "round" or len(node.args) + len(node.keywords) == 1  # (round(x, 2) is a float)
    return hole(node, src, kind=HoleKind.NUMBER if integer else HoleKind.VALUE)


_PARTIAL = frozenset(("partial",))


def partials_bound(tree: ast.Module) -> Iterator[str]:
    """The module-level names bound to a call of ``partial`` (``functools.partial(...)``, ``partial(...)``, as
    ``from functools import partial as p`` names it): functions of their own, read through ``_partial``."""
    names = {"partial"} | names_from(tree, "functools", _PARTIAL)
    for s in tree.body:
        func = s.value.func if type(s) is ast.Assign and type(s.value) is ast.Call else None
        if (type(func) is ast.Name and func.id in names) or (type(func) is ast.Attribute and func.attr == "partial"):
            yield from (t.id for t in s.targets if type(t) is ast.Name)  # type: ignore[attr-defined]


def _field_default(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    """pydantic's ``Field(default)`` / ``Field(default=...)`` in a class body: the field's default (a settings
    class's ``str`` field reads it; ``...``, a required field, has none)."""
    (default,) = args.pick(("default",))
    if default is None or (type(default[0]) is Const and default[0].value is Ellipsis):
        return hole(node, src)
    return default[0]


def _partial(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    """``functools.partial(requests.get, timeout=5)``: calling it calls the function with the same arguments; one
    that fixes a positional argument or the URL moves or hides them (a hole)."""
    given = args.positional
    if given is not None and len(given) == 1 and type(given[0][0]) in (Ref, Method) and "url" not in args.keywords:
        return given[0][0]
    return hole(node, src)


def _str(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    if not args.unknown and not args.positional and not args.keywords:
        return Value()
    (obj,) = args.pick(("object",))
    if obj is None or args.unknown:
        return hole(node, src)
    r = obj[0]
    if type(r) is Value and r.type != STR_MEMBER:
        return r.retype("str")
    text = printed(r)
    return made(text, obj[1], src) if text is not None else hole(node, src)  # (made by the argument, here)


def _environment(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    """``os.getenv(name, default)``: text unknown here (the environment's, or the default)."""
    return hole(node, src)


def _url_object(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    (val,) = args.pick(("url",) if qual == "httpx.URL" else ("val",))
    v = known_text(val)
    if v is None or args.unknown:
        return hole(node, src, as_type=qual)
    return v.retype(qual)


def _client(merge: str, keyword_only: bool) -> Handler:
    def make(args: Args, node: ast.Call, src: Src, qual: str) -> object:
        item = args.keywords.get("base_url") if keyword_only else args.pick(("base_url",))[0]
        base = _url_text(item)
        if item is not None and base is None:
            base = hole(item[1], src)
        if base is None and args.unknown:
            base = hole(node, src)
        return Client(qual + "()", base, merge, item[1] if item is not None else None, src)
    return make


# string.Template's placeholders: ``$name``, ``${name}`` (its default idpattern, ASCII, either case)
_TEMPLATE_FIELD = re.compile(r"\$(?:\{([_a-zA-Z][_a-zA-Z0-9]*+)\}|([_a-zA-Z][_a-zA-Z0-9]*+))")
TEMPLATE = "string.Template"
_MAX_FIELDS = 64


def _template(args: Args, node: ast.Call, src: Src, qual: str) -> object:
    """``string.Template(text)``: the text, as a template object that ``substitute`` fills."""
    (text,) = args.pick(("template",))
    v = known_text(text)
    return hole(node, src, as_type=TEMPLATE) if v is None or args.unknown else v.retype(TEMPLATE)


def _substitute(safe: bool) -> MethodHandler:
    def fill(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
        """``Template.substitute(mapping, **kw)`` (``safe_substitute``: a placeholder with no value stays): each
        ``$name``/``${name}`` of the known text is the value given for it."""
        mapping = args.positional[0][0] if args.positional else None
        if owner.type != TEMPLATE or args.unknown or (mapping is not None and type(mapping) is not Table) or \
                len(args.positional or ()) > 1 or "$$" in (text := owner.flat()):
            return hole(node, src)
        given = {**(mapping.items if type(mapping) is Table else {}), **args.keywords}
        out = owner.retype("str")
        fields = sorted({m.group() for m in _TEMPLATE_FIELD.finditer(text)}, key=len, reverse=True)
        if len(fields) > _MAX_FIELDS:
            return hole(node, src)  # (each is a pass over the text: a bound keeps a hostile template linear)
        for field in fields:
            item = given.get(field.strip("${}"))
            if item is None:
                if safe:
                    continue
                return hole(node, src)  # (KeyError: nothing is made)
            by = known_text(item)
            out = assembly.replace(out, field, by if by is not None else hole(item[1], src), -1, node, src)
        return out
    return fill


CALLS: dict[str, Handler] = {
    **dict.fromkeys(URLJOINS, _urljoin),
    "posixpath.join": _posix_join,
    **dict.fromkeys(("urllib.parse.urlunsplit", "urllib.parse.urlunparse"), _unsplit),
    # (Django's ``urlencode`` template filter is ``quote(value, safe="/")``; ``django.utils.http.urlencode``, a query)
    **dict.fromkeys(("urllib.parse.quote", "urllib.parse.quote_plus", "requests.utils.quote",
                     "requests.compat.quote", "requests.compat.quote_plus",
                     "django.template.defaultfilters.urlencode"), _quote),
    **dict.fromkeys(("urllib.parse.urlencode", "requests.compat.urlencode", "django.utils.http.urlencode"),
                    _urlencode),
    "str": _str,
    "functools.partial": _partial,
    **dict.fromkeys(("pydantic.Field", "pydantic.fields.Field"), _field_default),
    **dict.fromkeys(("int", "len", "ord", "hash", "id", "round"), _number),  # (float() may print 'inf' or '1e+20')
    **dict.fromkeys(ENVIRONMENT, _environment),
    **dict.fromkeys(("yarl.URL", "httpx.URL"), _url_object),
    TEMPLATE: _template,
}
# HTTP clients with a base URL: how a request URL meets it, and whether base_url is keyword-only
_CLIENTS = {"httpx.Client": ("append", True), "httpx.AsyncClient": ("append", True),
            "aiohttp.ClientSession": ("resolve", False)}
# the calls whose arguments are read as the environment's defaults where it leaves them unset: their structure
# depends on the base (``unset_environment``)
JOINS_OF_URLS = frozenset((*URLJOINS, "posixpath.join", *_CLIENTS))
CALLS.update({name: _client(merge, keyword_only) for name, (merge, keyword_only) in _CLIENTS.items()})
CLIENTS = frozenset(_CLIENTS)  # the calls that make objects a URL API is a method of
KEYWORD_ONLY = frozenset(q for q, (_, keyword_only) in _CLIENTS.items() if keyword_only)  # (httpx's base_url=)


def unknown_client(qual: str, node: ast.AST, src: Src | None) -> Client:
    """A client of ``qual`` whose base URL is not known here: its requests are checked with the base a hole."""
    return Client(qual + "()", hole(node, src), _CLIENTS[qual][0], None, src)


# the methods a request goes through in each HTTP client of the URL API table: a subclass that defines one may
# change what a request's URL means; a method of another name overrides nothing (a chat bot's ``send`` on an
# aiohttp session: fixtures198 repro 02)
_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
_HTTPX = frozenset(("request", "send", "build_request", "stream", *_VERBS))
_AIOHTTP = frozenset(("request", "_request", "ws_connect", "_ws_connect", *_VERBS))
_REQUEST_METHODS_OF = {"aiohttp.ClientSession": _AIOHTTP, "httpx.Client": _HTTPX, "httpx.AsyncClient": _HTTPX,
                       "requests.Session": frozenset(("request", "prepare_request", "send", *_VERBS))}
REQUEST_METHODS = frozenset().union(*_REQUEST_METHODS_OF.values())


def request_methods(qual: str) -> frozenset[str]:
    """The request methods of the outside class ``qual`` (all of the table's clients' for another)."""
    return _REQUEST_METHODS_OF.get(qual, REQUEST_METHODS)


def _format(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
    if owner.type != "str":
        return hole(node, src)
    positional = None if args.positional is None else [to_arg(r, n) for r, n in args.positional]
    keywords = None if args.more else {k: to_arg(r, n) for k, (r, n) in args.keywords.items()}
    return format_value(owner, positional, keywords, node, src)


def _format_map(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
    (mapping,) = args.pick(("mapping",))
    if owner.type != "str" or mapping is None:
        return hole(node, src)
    table = mapping[0]
    keywords = {k: to_arg(r, n) for k, (r, n) in table.items.items()} if type(table) is Table else None
    return format_value(owner, [], keywords, node, src)


def _join(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
    (other,) = args.pick(("iterable",) if owner.type == "str" else ("url",))
    if other is None or args.unknown:
        return hole(node, src, as_type=owner.type)
    if owner.type != "str":  # yarl.URL.join / httpx.URL.join: RFC 3986 resolution
        ref = other[0]
        if type(ref) is not Value:
            return hole(node, src, as_type=owner.type)
        return assembly.urljoin(owner, ref, node, src, as_type=owner.type)
    seq = other[0]
    if type(seq) is not Seq or (seq.open and not seq.items):
        return hole(node, src)
    items = [known_text((r, n)) for r, n in zip(seq.items, seq.nodes, strict=True)]
    if any(v is None for v in items):
        return hole(node, src)  # not strings: a TypeError at run time
    joined = assembly.join(owner, items, node, src)  # type: ignore[arg-type]
    return concat([joined, hole(node, src)], node, src) if seq.open else joined  # (the separator, the rest)


def _strip(left: bool, right: bool) -> MethodHandler:
    def run(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
        (chars,) = args.pick(("chars",))
        if owner.type != "str" or args.unknown:
            return hole(node, src)
        text = None
        if chars is not None and not (type(chars[0]) is Const and chars[0].value is None):
            text = _known(chars)
            if text is None:
                return hole(node, src)
        return assembly.strip(owner, text, node, src, left=left, right=right)
    return run


def _affix(suffix: bool) -> MethodHandler:
    def run(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
        (item,) = args.pick(("suffix" if suffix else "prefix",))
        affix = _known(item)
        if owner.type != "str" or affix is None:
            return hole(node, src)
        return assembly.removeaffix(owner, affix, node, src, suffix=suffix)
    return run


def _replace(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
    """``text.replace(old, new[, count])``: a template filled a field at a time (``T.replace("{owner}", o)``)
    keeps what is not filled yet."""
    old, new, count = args.pick(("old", "new", "count"))
    needle = _known(old)
    by = None if new is None else known_text(new)
    if by is None and new is not None:
        by = hole(new[1], src)  # (an object's text; an empty text is known: it deletes)
    n = -1 if count is None else count[0].value if type(count[0]) is Const and type(count[0].value) is int else None
    if owner.type != "str" or args.unknown or needle is None or by is None or n is None:
        return hole(node, src)
    return assembly.replace(owner, needle, by, n, node, src)


def _with_path(owner: Value, args: Args, node: ast.Call, src: Src) -> object:
    (path,) = args.pick(("path",))
    p = known_text(path)
    if owner.type != "yarl.URL" or p is None:
        return hole(node, src, as_type=owner.type)
    return assembly.yarl_with_path(owner, p, node, src, dotted(path[1]) if path else None)


METHODS: dict[str, MethodHandler] = {
    "substitute": _substitute(False),
    "safe_substitute": _substitute(True),
    "format": _format,
    "format_map": _format_map,
    "join": _join,
    "strip": _strip(True, True),
    "lstrip": _strip(True, False),
    "rstrip": _strip(False, True),
    "removesuffix": _affix(True),
    "removeprefix": _affix(False),
    "replace": _replace,
    "with_path": _with_path,
}
