"""str.format, format_map and % on values: parsed as CPython parses them, filled where the argument is known."""

from __future__ import annotations

import ast
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.source.formatting import (
    Arg,
    Field,
    FormatError,
    format_fields,
    format_value,
    percent_fields,
    percent_value,
)
from iri_lint.source.values import Const, HoleKind, Value, made

NODE = ast.Constant("x")


def text(s: str) -> Value:
    return made(s, NODE, None)


def unknown(name: str | None = None) -> Arg:
    return Arg(None, None, name)


def known(s: str) -> Arg:
    return Arg(text(s), None)


def cpython_parts(s: str) -> list[tuple[str, str | None, str | None, str | None]]:
    """``string.Formatter().parse`` with adjacent literal texts merged (it splits at ``{{``)."""
    out: list[tuple[str, str | None, str | None, str | None]] = []
    for lit, name, spec, conv in string.Formatter().parse(s):
        if out and out[-1][1] is None:
            out[-1] = (out[-1][0] + lit, name, spec, conv)
        else:
            out.append((lit, name, spec, conv))
    return out


def our_parts(s: str) -> list[tuple[str, str | None, str | None, str | None]]:
    out: list[tuple[str, str | None, str | None, str | None]] = []
    lit = ""
    for part in format_fields(s):
        if type(part) is tuple:
            lit += s[part[0]: part[1]]
            continue
        assert type(part) is Field
        field = s[part.start + 1: part.end - 1]
        name = field.split("!", 1)[0].split(":", 1)[0] if "[" not in field else None
        out.append((lit, name, part.spec, part.conversion or None))
        lit = ""
    if lit:
        out.append((lit, None, None, None))
    return out


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from("{}[]:!ab0 .s"), max_size=14))
def test_format_templates_parse_as_cpython_parses_them(s: str) -> None:
    try:
        expected = cpython_parts(s)
    except ValueError:
        with pytest.raises(FormatError):
            format_fields(s)
        return
    try:
        ours = our_parts(s)
    except FormatError:
        # CPython's parse checks no numbering; str.format does: the mixed ones raise there (or on an attribute the
        # argument lacks, read before the numbering is: '{.0}{0}')
        with pytest.raises((ValueError, IndexError, KeyError, AttributeError)):
            s.format(*range(20), **{k: 0 for k in ("a", "b", "a0", "ab")})
        return
    assert [(lit, spec, conv) for lit, _, spec, conv in ours] == [(lit, spec, conv) for lit, _, spec, conv in expected]
    for (_, name, _, _), (_, cname, _, _) in zip(ours, expected, strict=True):
        assert name is None or name == cname


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(st.sampled_from("ab/:?{}%"), min_size=1, max_size=4).map(lambda t: ("lit", t)),
                          st.sampled_from(["{}", "{0}", "{1}", "{a}", "{b!s}"]).map(lambda t: ("field", t))),
                max_size=6),
       st.lists(st.text(st.sampled_from("xy/ é"), max_size=3), min_size=2, max_size=2))
def test_law_known_format_equals_python(parts: list[tuple[str, str]], args: list[str]) -> None:
    tmpl = "".join(t.replace("{", "{{").replace("}", "}}") if k == "lit" else t for k, t in parts)
    kwargs = {"a": args[0], "b": args[1]}
    try:
        expected = tmpl.format(*args, **kwargs)
    except (ValueError, IndexError, KeyError):
        assert format_value(text(tmpl), [known(a) for a in args], {k: known(v) for k, v in kwargs.items()},
                            NODE, None).opaque
        return
    got = format_value(text(tmpl), [known(a) for a in args], {k: known(v) for k, v in kwargs.items()}, NODE, None)
    assert got.text == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(st.sampled_from("ab/:?{}%"), min_size=1, max_size=4).map(lambda t: ("lit", t)),
                          st.sampled_from(["%s", "%d", "%i", "%(a)s"]).map(lambda t: ("field", t))),
                max_size=5),
       st.lists(st.one_of(st.text(st.sampled_from("xy/ é"), max_size=3), st.integers(-5, 500)), max_size=4))
def test_law_known_percent_equals_python(parts: list[tuple[str, str]], args: list[str | int]) -> None:
    tmpl = "".join(t.replace("%", "%%") if k == "lit" else t for k, t in parts)

    def arg(a: str | int) -> Arg:
        return known(a) if isinstance(a, str) else Arg(Const(a, NODE), None)

    for py, ours in ((tuple(args), [arg(a) for a in args]),
                     ({"a": args[0]} if args else {}, {"a": arg(args[0])} if args else {})):
        try:
            expected = tmpl % py
        except (TypeError, ValueError, KeyError):
            continue  # (we may still fill what Python would reject with a type error: %d of a string)
        got = percent_value(text(tmpl), ours, NODE, None)
        # a hole is never wrong ("%s" % {} is the dict's repr); a plain tuple of strings and numbers is known
        assert got.text == expected or (got.text is None and isinstance(py, dict)), (tmpl, py)


@pytest.mark.parametrize(("tmpl", "fields"), [
    ("http://h/{id}", ["{id}"]),
    ("http://h/{0:>4}/{}", None),  # mixed numbering raises: a hole
    ("http://h/{a.b}/{c[0]}", ["{a.b}", "{c[0]}"]),
    ("{{x}}/{y!r}", ["{y!r}"]),
])
def test_unknown_arguments_leave_holes_that_keep_the_field(tmpl: str, fields: list[str] | None) -> None:
    got = format_value(text(tmpl), None, None, NODE, None)
    if fields is None:
        assert got.opaque
        return
    holes = [h for _, h in got.holes()]
    assert [h.field for h in holes] == fields
    assert all(h.kind is HoleKind.FIELD for h in holes)


def test_a_field_with_a_spec_is_a_hole_with_the_spec() -> None:
    got = format_value(text("http://h:{:>5}/{port:d}"), [known("a")], {"port": Arg(Const(80, NODE), None)}, NODE, None)
    assert got.flat() == "http://h:0/80"
    (_, h), = got.holes()
    assert h.spec == ">5" and h.field == "{:>5}"


def test_an_unknown_name_keeps_its_name() -> None:
    got = format_value(text("/users/{}"), [unknown("uid")], {}, NODE, None)
    (_, h), = got.holes()
    assert h.name == "uid" and h.field == "{}"


@pytest.mark.parametrize(("tmpl", "args", "flat"), [
    ("/a/%s/%s", unknown(), "/a/0/0"),  # an unknown operand may be a tuple of the right length
    ("/a/%s", unknown("x"), "/a/0"),
    ("/a/%(id)s?%%", unknown(), "/a/0?%"),
    ("/a/%5s", [known("x")], "/a/0"),
    ("/a/%s", [known("x"), known("y")], None),  # not all arguments converted
    ("/a/%", [], None),  # incomplete format
    ("/a/%(id)s", {"other": known("x")}, None),  # KeyError
])
def test_percent_with_unknown_or_wrong_arguments(tmpl: str, args: object, flat: str | None) -> None:
    got = percent_value(text(tmpl), args, NODE, None)  # type: ignore[arg-type]
    if flat is None:
        assert got.opaque
    else:
        assert got.flat() == flat


def test_percent_fields_parse_keys_with_parentheses_and_length_modifiers() -> None:
    parts = percent_fields("a%(x(y)z)s%ld%%")
    fields = [p for p in parts if type(p) is Field]
    assert [(f.key, f.spec) for f in fields] == [("x(y)z", "s"), (None, "ld")]
