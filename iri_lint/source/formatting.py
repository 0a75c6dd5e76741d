"""``str.format``, ``format_map`` and ``%`` applied to values: literal text keeps its literal, fields are filled.

The templates are parsed as CPython parses them (``Objects/stringlib/unicode_format.h`` for
``str.format``, ``PyUnicode_Format`` for ``%``), in one pass. A field whose argument is known and
needs no formatting (``{}``, ``{0}``, ``{name}``, ``%s``, ``!s``; ``d`` for an integer) is replaced by
the argument's pieces; any other field becomes a hole that keeps the field's syntax and spec. A
template Python would reject (``"{"``, ``"%"`` at the end, a wrong argument count) is one hole: the
code raises there. A hole inside a template is taken as text without braces or ``%``.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from iri_lint.source.values import Const, HoleKind, Src, Value, concat, hole, made

__all__ = ["Arg", "FormatError", "format_fields", "format_value", "number_with_spec", "percent_fields", "percent_value",
           "text_with_spec", "with_spec_suffix"]


class FormatError(ValueError):
    """The template would raise at run time."""


class Arg(NamedTuple):
    """A formatting argument: its value (None: unknown, of any type), its expression and dotted name."""

    value: Value | Const | None
    node: ast.AST | None
    name: str | None = None


class Field(NamedTuple):
    """A replacement field at flat offsets [start, end) of its template."""

    start: int
    end: int
    key: str | int | None  # a keyword, a position, or None: not a plain name (``a.b``, ``a[0]``, ``*``)
    conversion: str  # "" (none), "s", "r", "a"
    spec: str  # the format spec ("" none); for %: flags, width, precision and conversion


Part = tuple[int, int] | Field  # literal text [start, end) of the template, or a field


def format_fields(s: str) -> list[Part]:
    """The literal runs and fields of a ``str.format`` template, in order (``{{`` is the first brace)."""
    out: list[Part] = []
    n = len(s)
    i = lit = 0
    auto: bool | None = None  # whether fields are numbered automatically (mixing raises)
    counter = 0
    while i < n:
        c = s[i]
        if c != "{" and c != "}":
            i += 1
            continue
        if i + 1 < n and s[i + 1] == c:  # "{{" / "}}": the first brace is the text
            out.append((lit, i + 1))
            i = lit = i + 2
            continue
        if c == "}":
            raise FormatError("Single '}' encountered in format string")
        if i + 1 >= n:
            raise FormatError("Single '{' encountered in format string")
        if lit < i:
            out.append((lit, i))
        name, conversion, spec, end = _parse_field(s, i + 1)
        first = name.split(".", 1)[0].split("[", 1)[0]
        key: str | int | None
        if not first:
            if auto is False:
                raise FormatError("cannot switch from manual field specification to automatic field numbering")
            auto, key, counter = True, counter, counter + 1
        elif first.isdigit() and first.isascii():
            if auto is True:
                raise FormatError("cannot switch from automatic field numbering to manual field specification")
            auto, key = False, int(first)
        else:
            key = first
        if first != name:
            key = None  # an attribute or an item of the argument
        out.append(Field(i, end, key, conversion, spec))
        i = lit = end
    if lit < n:
        out.append((lit, n))
    return out


def _parse_field(s: str, i: int) -> tuple[str, str, str, int]:  # noqa: C901 - str.format's field grammar, one character at a time
    """``parse_field``: the field name, conversion and spec after the ``{`` at ``i - 1``; the end offset."""
    n = len(s)
    start = i
    c = ""
    while i < n:
        c = s[i]
        i += 1
        if c == "{":
            raise FormatError("unexpected '{' in field name")
        if c == "[":
            close = s.find("]", i)
            i = n if close < 0 else close
            c = ""
            continue
        if c in "}:!":
            break
    else:
        c = ""
    name = s[start : i - 1] if c else s[start:i]
    if c == "}":
        return name, "", "", i
    if c not in ("!", ":"):
        raise FormatError("expected '}' before end of string")
    conversion = ""
    if c == "!":
        if i >= n:
            raise FormatError("end of string while looking for conversion specifier")
        conversion = s[i]
        i += 1
        if i < n:
            c = s[i]
            i += 1
            if c == "}":
                return name, conversion, "", i
            if c != ":":
                raise FormatError("expected ':' after conversion specifier")
    spec_start = i
    depth = 1
    while i < n:
        c = s[i]
        i += 1
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if not depth:
                return name, conversion, s[spec_start : i - 1], i
    raise FormatError("unmatched '{' in format spec")


_FLAGS = frozenset("-+ #0")
_CONVERSIONS = frozenset("diouxXeEfFgGcrsa")


def percent_fields(s: str) -> list[Part]:
    """The literal runs and conversions of a ``%`` template (``%%`` is its first ``%``)."""
    out: list[Part] = []
    n = len(s)
    lit = 0
    i = s.find("%")
    while i >= 0:
        if lit < i:
            out.append((lit, i))
        j = i + 1
        key: str | None = None
        if j < n and s[j] == "(":  # a mapping key, parentheses nested
            depth, k = 1, j + 1
            while k < n and depth:
                depth += {"(": 1, ")": -1}.get(s[k], 0)
                k += 1
            if depth:
                raise FormatError("incomplete format key")
            key, j = s[j + 1 : k - 1], k
        spec_start = j
        while j < n and s[j] in _FLAGS:
            j += 1
        j, star = _width(s, j)
        if j < n and s[j] == ".":  # precision
            j, star2 = _width(s, j + 1)
            star = star or star2
        while j < n and s[j] in "hlL":
            j += 1
        if j >= n:
            raise FormatError("incomplete format")
        conv = s[j]
        j += 1
        if conv == "%" and j == i + 2:
            out.append((i, i + 1))  # "%%": a literal "%"
        elif conv in _CONVERSIONS:
            if star:
                raise FormatError("'*' takes an argument of its own")  # (not followed: a hole)
            out.append(Field(i, j, key, "", s[spec_start:j]))
        else:
            raise FormatError(f"unsupported format character {conv!r}")
        lit = j
        i = s.find("%", j)
    if lit < n:
        out.append((lit, n))
    return out


def _width(s: str, j: int) -> tuple[int, bool]:
    """Skip a width or precision (digits, or ``*``: taken from the arguments) at ``j``."""
    if j < len(s) and s[j] == "*":
        return j + 1, True
    while j < len(s) and "0" <= s[j] <= "9":
        j += 1
    return j, False


def _hole_offsets(template: Value) -> list[int]:
    return [i for i, _ in template.holes()]


def _touches_hole(holes: list[int], a: int, b: int) -> bool:
    k = bisect_left(holes, a)
    return k < len(holes) and holes[k] < b


def printed(c: object, *, digits: bool = False) -> str | None:
    """What ``str()`` prints of a known number, bool or None (``digits``: what ``%d`` / ``{:d}`` print of an int or
    a bool); None for any other value."""
    if type(c) is not Const:
        return None
    v = c.value
    if type(v) is int or type(v) is bool:
        return str(int(v)) if digits else str(v)
    return str(v) if not digits and (type(v) is float or v is None) else None


_WIDEST = 64  # (a width or precision past it: no URL holds such a padding, and the text would be long)


def number_with_spec(c: object, spec: str, *, percent: bool = False) -> str | None:
    """What a known int or bool prints with a spec (``{SEASON:3d}``, ``"%3d"``: a width pads it with spaces,
    fixtures186 repro 01); None for another value, a locale's (``n``), a ``*`` width or one past ``_WIDEST``."""
    v = c.value if type(c) is Const else None
    if type(v) not in (int, bool) or "n" in spec or "*" in spec or _wide(spec):
        return None
    try:
        return ("%" + spec) % (int(v),) if percent else format(int(v), spec)  # type: ignore[call-overload]
    except (ValueError, TypeError, OverflowError):
        return None


def text_with_spec(r: object, conversion: str, spec: str, *, percent: bool = False) -> str | None:
    """What a known string prints through a conversion and a spec (``{name!r}``, ``{name:>6}``, ``"%-6s"``: the
    quotes and the padding are the URL's text, fixtures215 A1); None for another value, a text with a hole, a
    nested field, or a width past ``_WIDEST``. ``percent``: ``spec`` is a printf conversion's, its type last."""
    text = r.text if type(r) is Value and r.type == "str" else None
    if text is None or "*" in spec or "{" in spec or _wide(spec):
        return None
    try:
        if percent:
            return ("%" + spec) % (text,) if spec[-1:] in ("s", "r", "a") else None
        shown = repr(text) if conversion == "r" else ascii(text) if conversion == "a" else text
        return format(shown, spec)
    except (ValueError, TypeError):
        return None


def _wide(spec: str) -> bool:
    """Whether a spec holds a width or precision past ``_WIDEST`` (or one too long to read)."""
    return any(len(w) > 2 or int(w) > _WIDEST for w in "".join(ch if ch.isdigit() else " " for ch in spec).split())


def with_spec_suffix(field: Value, spec: str, node: ast.AST, src: Src | None) -> Value:
    """An unknown number's field with what its spec always ends it with: the percent type's ``%`` (Python's format
    specification mini-language: ``f"{share:.0%}"`` is ``50%``; fixtures189 repro 02), a nested field's width or
    precision whatever it is (``{share:.{digits}%}``, fixtures190 repro 04)."""
    if not spec.endswith("%") or _wide(spec):
        return field
    try:
        percent_type = format(0.5, re.sub(r"\{[^{}]*+\}", "1", spec)).endswith("%")
    except (ValueError, TypeError):
        return field
    return concat([field, made("%", node, src)], node, src) if percent_type else field


def _filled(arg: Arg | None, field: Field, template: Value, src: Src | None, *, percent: bool) -> Value:
    """What a field becomes: the argument's pieces, its digits, or a hole keeping the field."""
    value = arg.value if arg is not None else None
    spec = field.spec
    plain = spec == "s" if percent else not spec and field.conversion in ("", "s")
    if type(value) is Value and plain and value.type == "str":
        return value
    if arg is not None and arg.node is not None and \
            (text := text_with_spec(value, field.conversion, spec, percent=percent)) is not None:
        return made(text, arg.node, src)  # (a known string quoted or padded: made by the argument)
    if type(value) is Const:
        # (made by the argument, here: the constant's own node may be another module's)
        by, made_in = (arg.node, src) if arg is not None and arg.node is not None else (value.node, None)
        digits = spec in ("d", "i", "u") if percent else not field.conversion and spec == "d"
        text = printed(value) if plain else printed(value, digits=True) if digits else \
            number_with_spec(value, spec, percent=percent) if not field.conversion else None
        if text is not None:
            return made(text, by, made_in)
    syntax = template.flat()[field.start : field.end]
    shown = (("!" + field.conversion) if field.conversion else "") + spec
    node = arg.node if arg is not None else None
    unknown = hole(node, src, kind=HoleKind.FIELD, name=arg.name if arg is not None else None, field=syntax, spec=shown)
    return with_spec_suffix(unknown, spec, node, src) if not percent and node is not None else unknown


def format_value(template: Value, args: Sequence[Arg] | None, kwargs: Mapping[str, Arg] | None,
                 node: ast.AST, src: Src | None) -> Value:
    """``template.format(*args, **kwargs)``; ``args``/``kwargs`` None: not known (each field a hole)."""
    try:
        parts = format_fields(template.flat())
    except FormatError:
        return hole(node, src)
    holes = _hole_offsets(template)
    out: list[Value] = []
    for part in parts:
        if type(part) is tuple:
            out.append(template.slice(*part))
            continue
        assert type(part) is Field
        if _touches_hole(holes, part.start, part.end):
            return hole(node, src)  # a field spelled partly by a hole: no telling what it is
        key = part.key
        arg: Arg | None = None
        if type(key) is int and args is not None:
            if key >= len(args):
                return hole(node, src)  # IndexError at run time
            arg = args[key]
        elif type(key) is str and kwargs is not None:
            arg = kwargs.get(key)
            if arg is None and args is not None:
                return hole(node, src)  # KeyError at run time (both sides are known)
        out.append(_filled(arg, part, template, src, percent=False))
    return concat(out, node, src)


def percent_value(template: Value, args: Sequence[Arg] | Mapping[str, Arg] | Arg | None, node: ast.AST,  # noqa: C901 - printf-style %: one branch per argument shape
                  src: Src | None) -> Value:
    """``template % args``: a sequence is a tuple, a mapping a dict, an ``Arg`` one value; None unknown."""
    try:
        parts = percent_fields(template.flat())
    except FormatError:
        return hole(node, src)
    holes = _hole_offsets(template)
    fields = [p for p in parts if type(p) is Field]
    keyed = any(f.key is not None for f in fields)
    seq: list[Arg] | None = None
    mapping: Mapping[str, Arg] | None = None
    if isinstance(args, Arg):
        if args.value is not None or len(fields) == 1:  # (an unknown operand may be a tuple)
            seq = [args]
    elif isinstance(args, Mapping):
        mapping = args
    elif args is not None:
        seq = list(args)
    if keyed and seq is not None and args is not None and not isinstance(args, Arg):
        return hole(node, src)  # TypeError at run time: "format requires a mapping"
    if not keyed and seq is not None and len(seq) != len(fields):
        return hole(node, src)  # TypeError at run time: not all arguments converted / not enough
    out: list[Value] = []
    k = 0
    for part in parts:
        if type(part) is tuple:
            out.append(template.slice(*part))
            continue
        assert type(part) is Field
        if _touches_hole(holes, part.start, part.end):
            return hole(node, src)
        arg: Arg | None = None
        if part.key is not None:
            if mapping is not None:
                arg = mapping.get(str(part.key))
                if arg is None:
                    return hole(node, src)  # KeyError at run time
        elif seq is not None and k < len(seq):
            arg = seq[k]
            k += 1
        out.append(_filled(arg, part, template, src, percent=True))
    return concat(out, node, src)
