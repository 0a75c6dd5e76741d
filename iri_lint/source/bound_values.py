"""What a URL-named target is given to hold as a value, where its expression is not that value itself (issue #27).

``img_url = lambda: CDN + "img"`` names a function whose one return is the URL, as ``def img_url()`` would; a
dataclass field's ``field(default=CDN + "docs")`` (attrs' ``attr.ib``, pydantic's ``Field``) is the default a
plain ``= CDN + "docs"`` gives, and ``default_factory=lambda: ...`` (attrs' ``factory=``) the value each object is
made with; a target annotated with pydantic's ``HttpUrl`` holds a URL whatever its name. pytest's
``parametrize("url", [HOST + "/a", ...])`` binds each item of its list to the test's ``url`` in turn."""

from __future__ import annotations

import ast
import re

__all__ = ["held_value", "parametrized", "params", "says_url_type"]

_FIELDS = frozenset(("field", "Field", "ib", "attrib", "Option", "Argument"))  # (dataclasses, pydantic, attrs, typer)


def held_value(value: ast.expr) -> tuple[ast.expr, frozenset[str]]:
    """The expression whose value a target bound to ``value`` holds or makes, with the lambda parameters it may
    read (holes there); ``value`` itself, and none, for any other expression."""
    if type(value) is ast.Call and (word := _last_word(value.func)) in _FIELDS:
        given = {k.arg: k.value for k in value.keywords if k.arg is not None}
        if "default" in given:
            return given["default"], frozenset()
        if value.args and word != "field" and type(value.args[0]) is not ast.Starred:
            return value.args[0], frozenset()  # (pydantic's ``Field(HOST + "b")``, attrs', typer's: first)
        if type(factory := given.get("default_factory", given.get("factory"))) is ast.Lambda:
            value = factory  # (attrs names it ``factory``)
    return (value.body, params(value.args)) if type(value) is ast.Lambda else (value, frozenset())


# pydantic's URL types (``pydantic.networks``): a target or parameter annotated with one holds a URL, whatever its name
_WORDS = re.compile(r"[A-Za-z_]\w*+")
_URL_TYPES = frozenset({"AnyUrl", "AnyHttpUrl", "HttpUrl", "AnyWebsocketUrl", "WebsocketUrl", "FileUrl", "FtpUrl"})


def says_url_type(annotation: ast.expr | None) -> bool:
    """Whether an annotation names one of pydantic's URL types (``HttpUrl``, ``Optional[AnyHttpUrl]``,
    ``list[HttpUrl]``, ``"HttpUrl"``): the value is a URL as much as a URL-named target's (fixtures240, 242)."""
    if type(annotation) is ast.Constant and type(annotation.value) is str:  # (a forward reference, ``"HttpUrl"``)
        return any(word in _URL_TYPES for word in _WORDS.findall(annotation.value[:200]))
    return annotation is not None and any(
        (type(n) is ast.Name and n.id in _URL_TYPES) or (type(n) is ast.Attribute and n.attr in _URL_TYPES)
        for n in ast.walk(annotation))


def params(args: ast.arguments) -> frozenset[str]:
    """The names a function's or a lambda's parameters bind."""
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]
    return frozenset(a.arg for a in every)


def _last_word(func: ast.expr) -> str | None:
    return func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None


_DISPLAYS = (ast.List, ast.Tuple)


def parametrized(call: ast.Call) -> list[tuple[str, ast.expr]]:
    """The (argument name, item) pairs pytest's ``parametrize(argnames, argvalues)`` binds, for a list or tuple
    display of argvalues (of several names, each item's display at its place; ``pytest.param(...)``'s values);
    none for another call or shape."""
    func = call.func
    if type(func) is not ast.Attribute or func.attr != "parametrize":
        return []
    given = dict(zip(("argnames", "argvalues"), call.args[:2], strict=False))  # (by position or by keyword)
    given.update((k.arg, k.value) for k in call.keywords if k.arg in ("argnames", "argvalues"))
    if len(given) != 2:
        return []
    first, values = given["argnames"], given["argvalues"]
    if type(first) is ast.Constant and type(first.value) is str:
        names = [n.strip() for n in first.value.split(",")]
    elif type(first) in _DISPLAYS and all(type(e) is ast.Constant and type(e.value) is str for e in first.elts):  # type: ignore[attr-defined]
        names = [e.value for e in first.elts]  # type: ignore[attr-defined]
    else:
        return []
    if type(values) not in _DISPLAYS:
        return []
    out: list[tuple[str, ast.expr]] = []
    for item in values.elts:  # type: ignore[attr-defined]
        if type(item) is ast.Call and _last_word(item.func) == "param":
            parts: list[ast.expr] = item.args
        elif len(names) == 1:
            parts = [item]
        else:
            parts = item.elts if type(item) in _DISPLAYS else []
        if len(parts) == len(names) and not any(type(p) is ast.Starred for p in parts):
            out += zip(names, parts, strict=True)
    return out

