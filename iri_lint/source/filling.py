"""The names a module fills in (``NAME % x``, ``NAME.format(...)``, ``NAME.replace("ID", x)``,
``day.strftime(NAME)``, ``f"... LIKE '{NAME}'"``): the literal values bound to them are templates of that kind
(``%%`` is a ``%``, ``{{`` a brace, ``ID`` a hole, ``%Y`` a date's year, a LIKE pattern's ``%`` any text).
Filled as ``NAME[key]``, the strings inside the name's displays are."""

from __future__ import annotations

import ast
import functools
import string
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from iri_lint.core.lazy import lazy_regex
from iri_lint.source.candidates import says_template
from iri_lint.source.locate import SourceFile
from iri_lint.source.marks import spans_lines, word_starts
from iri_lint.source.templates import NO_FILLING, Filling, may_be_filled, merge_fillings

_FILLING = frozenset(("format", "format_map", "replace"))
_DATING = "strftime"  # ``day.strftime(NAME)``, ``time.strftime(NAME)``: the name is the argument
_LIKE_WORDS = ("LIKE", "ILIKE", "like", "ilike")  # (an f-string's SQL puts a pattern after one)
_FILLING_WORDS = tuple(sorted((*_FILLING, _DATING, *_LIKE_WORDS)))
_FORMATTED = Filling(fmt=True)
_PCT_FORMATTED = Filling(pct=True)
_DATED = Filling(dated=True)
LIKE_PATTERN = Filling(replaced=("%",))  # SQL's LIKE: '%' matches any text (a hole), as ``.replace("%", x)`` would


def find_filled_names(tree: ast.AST) -> dict[str, Filling]:
    """Every name filled in somewhere in ``tree``."""
    filled: dict[str, Filling] = {}
    for node in ast.walk(tree):
        _note(node, filled)
    return filled


def filled_names(tree: ast.AST, source: SourceFile) -> dict[str, Filling]:
    """``find_filled_names`` of a module, walking only the statements and expressions that span a ``%`` or
    the word ``format``, ``format_map``, ``replace``, ``strftime`` or ``LIKE``: the operator or the method name
    of any filling stands on one of those lines. (The whole tree was most of the flake8 plugin's time: nearly
    every module has a ``%`` somewhere, in a logging call's format string as often as not.)"""
    filled: dict[str, Filling] = {}
    text = source.text
    if not may_be_filled(text):
        return filled
    offsets = source.line_offsets
    lines = sorted(set(map(functools.partial(bisect_right, offsets), word_starts(text, _FILLING_WORDS)))
                   | _lines_holding("%", text, offsets) | _lines_holding("like_", text, offsets))
    for node in _spanning(tree, lines):  # (in any order: what a name's fillings merge to does not depend on it)
        _note(node, filled)
    return filled


def _spanning(tree: ast.AST, lines: list[int]) -> Iterator[ast.AST]:
    """``tree`` and each node under it that spans one of the sorted ``lines``, through nodes that do."""
    return (node for node, _ in _spanning_in(tree, lines))


_LEAVES = (ast.Name, ast.Constant)  # (nothing is filled in under them)
_NO_FILLING_FIELDS = frozenset(("ctx", "op", "ops", "type_ignores"))  # (operators, contexts: no node to note)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(t: type) -> tuple[str, ...]:
    """The fields of a node type that may hold a filling."""
    fields = _FIELDS.get(t)
    if fields is None:
        fields = _FIELDS[t] = tuple(f for f in t._fields if f not in _NO_FILLING_FIELDS)  # type: ignore[attr-defined]
    return fields


def _spans(node: ast.AST, lines: list[int]) -> bool:
    """Whether a node spans one of the sorted ``lines`` (a node without a position, such as a comprehension's
    ``for`` or a call's ``arguments``, may)."""
    if isinstance(node, ast.stmt):
        return spans_lines(node, lines)
    first = getattr(node, "lineno", None)
    if first is None:
        return True
    i = bisect_left(lines, first)
    return i < len(lines) and lines[i] <= (getattr(node, "end_lineno", None) or first)


# (per tree, as long as it lives: an editor's statement-by-statement relints make a tree per version)
_PRINTF: weakref.WeakKeyDictionary[ast.Module, frozenset[int]] = weakref.WeakKeyDictionary()


def printf_templates(tree: ast.Module, file: SourceFile) -> frozenset[int]:
    """The string literals a module binds, in any scope and in a join too, to names it %-formats
    (``SEGMENT_FMT = "seg_%05d.ts"`` and ``SEGMENT_FMT % n``) or that say they hold a template (``SEGMENT_FMT``
    %-formatted in another module, or nowhere: fixtures180 repro 02), by id: printf templates wherever their
    value goes, so ``%05d`` is a conversion there, not ``%05`` and a ``d``."""
    found = _PRINTF.get(tree)
    if found is None:
        found = _PRINTF[tree] = _printf_templates(tree, file)
    return found


def _printf_templates(tree: ast.Module, file: SourceFile) -> frozenset[int]:
    filled = filled_names(tree, file)
    pct = {n for n, f in filled.items() if f.pct}
    other = {n for n, f in filled.items() if not f.pct and f != NO_FILLING}  # (``FMT.format(host)``: no printf)
    text = file.text
    lines = sorted(_lines_holding("%", text, file.line_offsets)) if "%" in text else []
    out: set[int] = set()
    bound: list[tuple[ast.Assign | ast.AnnAssign, ast.AST | None, str]] = []
    local: dict[int, set[str]] = {}  # id() of a function -> the names it %-formats itself
    for node, func in _spanning_in(tree, lines) if lines else ():  # (a conversion's '%' is on a line it spans)
        t = type(node)
        if t in (ast.Assign, ast.AnnAssign) and (how := _bound_to(node, pct, other)):  # type: ignore[arg-type]
            bound.append((node, func, how))  # type: ignore[arg-type]
        elif t is ast.BinOp and type(node.op) is ast.Mod and type(node.left) is ast.Name and func is not None:  # type: ignore[attr-defined]
            local.setdefault(id(func), set()).add(node.left.id)  # type: ignore[attr-defined]
    for node, func, how in bound:
        targets = node.targets if type(node) is ast.Assign else [node.target]  # type: ignore[union-attr]
        if how == "%" and func is not None and not any(type(t) is ast.Name and t.id in local.get(id(func), ())
                                                       for t in targets):
            continue  # (a function's local, %-formatted only in another function: outside48 repro 01)
        # (its literals, a join's too: ``PART_URL_TMPL = CDN + "/part_%05d.m4s"``, fixtures182 repro 01; by its
        # name alone, not one with a '{': a .format template's, wherever it is filled, fixtures187 repro 02)
        out.update(id(n) for n in _flowing(node.value) if type(n) is ast.JoinedStr or  # type: ignore[arg-type]
                   (type(n) is ast.Constant and type(n.value) is str and "%" in n.value
                    and (how == "%" or "{" not in n.value)))
    return frozenset(out)


def _flowing(expr: ast.expr) -> Iterator[ast.expr]:
    """The expressions whose text a value is made of: through joins and choices, not into a call's arguments
    (``URL("http://h/?%F0%9D%95%A6=1")``: the object's text, not a template of the name's)."""
    todo = [expr]
    while todo:
        e = todo.pop()
        yield e
        t = type(e)
        if t is ast.BinOp:
            todo += (e.left, e.right)  # type: ignore[attr-defined]
        elif t is ast.IfExp:
            todo += (e.body, e.orelse)  # type: ignore[attr-defined]
        elif t is ast.BoolOp:
            todo += e.values  # type: ignore[attr-defined]


def _spanning_in(tree: ast.AST, lines: list[int]) -> Iterator[tuple[ast.AST, ast.AST | None]]:
    """``tree`` and each node under it that spans one of the sorted ``lines``, through nodes that do, each with
    the function (or lambda) it stands in, None at a module's or a class's top level."""
    todo: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    while todo:
        node, func = todo.pop()
        yield node, func
        inner = node if type(node) in _FUNCTIONS else func
        for field in _fields(type(node)):
            v = getattr(node, field, None)
            if type(v) is list:
                todo += [(c, inner) for c in v if isinstance(c, ast.AST) and type(c) not in _LEAVES
                         and _spans(c, lines)]
            elif isinstance(v, ast.AST) and type(v) not in _LEAVES and _spans(v, lines):
                todo.append((v, inner))


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _bound_to(stmt: ast.Assign | ast.AnnAssign, names: set[str], other: set[str]) -> str:
    """"%" when a statement binds a name that is %-formatted (``names``), "name" when one that says it holds a
    template and is filled no other way here (``other``: ``CPU_ALERT_FMT.format(host)`` reads no ``%``,
    fixtures185 repro 04), else ""."""
    targets = [t.id for t in (stmt.targets if type(stmt) is ast.Assign else [stmt.target])  # type: ignore[union-attr]
               if type(t) is ast.Name] if stmt.value is not None else []
    return "%" if any(t in names for t in targets) else \
        "name" if any(says_template(t) and t not in other for t in targets) else ""


def _lines_holding(needle: str, text: str, offsets: list[int]) -> set[int]:
    """The 1-based lines of ``text`` (``offsets``: where each starts) that hold ``needle``: one search
    per such line, however many times it holds it (a hostile literal: 100,000 '%' on one line)."""
    lines = set()
    i = text.find(needle)
    while i >= 0:
        line = bisect_right(offsets, i)
        lines.add(line)
        i = text.find(needle, offsets[line]) if line < len(offsets) else -1
    return lines


def _note(node: ast.AST, filled: dict[str, Filling]) -> None:
    """Record in ``filled`` what ``node`` does to a name: ``NAME.format(...)``, ``NAME % x``,
    ``NAME.replace("ID", x)`` (each also as ``NAME[key]``), and where SQL puts it after ``LIKE``."""
    t = type(node)
    if t is ast.Call and type(node.func) is ast.Attribute:  # type: ignore[attr-defined]
        func = node.func  # type: ignore[attr-defined]
        if func.attr == _DATING and node.args:  # type: ignore[attr-defined]
            _add(filled, node.args[0], _DATED)  # type: ignore[attr-defined]
        elif func.attr == "replace":
            args = node.args  # type: ignore[attr-defined]
            needle = args[0].value if args and type(args[0]) is ast.Constant else None
            if isinstance(needle, str) and needle:
                _add(filled, func.value, Filling(replaced=(needle,)))
        elif func.attr in _FILLING:
            _add(filled, func.value, _FORMATTED)
        elif func.attr in SQL_RUNS or func.attr in _COLLECTING:  # (a name given to a bind parameter SQL puts after
            for value in like_values(node):  # type: ignore[arg-type]  # LIKE, or to a like_patterns collection)
                whole = func.attr in _MANY and any(value is a for a in node.args)  # type: ignore[attr-defined]
                _add(filled, value, LIKE_PATTERN._replace(items=True) if whole else LIKE_PATTERN)
    elif t is ast.BinOp and type(node.op) is ast.Mod:  # type: ignore[attr-defined]
        left = node.left  # type: ignore[attr-defined]
        while type(left) is ast.Call and type(left.func) is ast.Attribute and left.func.attr in _FILLING:
            left = left.func.value  # NAME.replace(...) % x: NAME is %-formatted too
        _add(filled, left, _PCT_FORMATTED)
    if t in _SQL_NODES:
        _note_like(node, filled)


_SQL_NODES = (ast.Call, ast.BinOp, ast.JoinedStr)
_COLLECTING = frozenset(("add", "append", "extend", "update"))
_MANY = frozenset(("extend", "update"))  # (given an iterable: its items are the patterns)
_ITEMS = (ast.List, ast.Tuple, ast.Set)


def like_values(call: ast.Call) -> list[ast.expr]:
    """The arguments a call makes LIKE patterns, whose '%' is any text: the bind parameters a query's SQL puts right
    after ``LIKE``; what a collection whose name says it holds LIKE patterns is given (pyvo's
    ``self.like_patterns.add(...)``)."""
    func = call.func
    if type(func) is not ast.Attribute:
        return []
    if func.attr in SQL_RUNS:
        return list(like_parameters(call))
    if func.attr not in _COLLECTING or not _holds_like_patterns(func.value):
        return []
    many = func.attr in _MANY  # (``extend([...])``, ``update({...})``: the display's items)
    return [e for a in call.args for e in (a.elts if many and type(a) in _ITEMS else (a,))]  # type: ignore[attr-defined]


def _holds_like_patterns(node: ast.expr) -> bool:
    """Whether a collection's name says it holds LIKE patterns (``like_patterns``, ``self.ilike_filters``)."""
    name = _dotted(node)
    words = name.rsplit(".", 1)[-1].lower().split("_") if name is not None else []
    return len(words) > 1 and words[0] in ("like", "ilike")


def _note_like(node: ast.AST, filled: dict[str, Filling]) -> None:
    """The names SQL text puts right after ``LIKE``: ``f"... LIKE '{NAME}'"``, ``"... LIKE '%s'" % NAME``,
    ``"... LIKE '" + NAME``, ``"... LIKE '{}'".format(NAME)``: LIKE patterns, whose '%' is any text."""
    t = type(node)
    if t is ast.JoinedStr:
        before = None
        for part in node.values:  # type: ignore[attr-defined]
            if type(part) is ast.FormattedValue and before is not None and ends_with_like(before):
                _add(filled, part.value, LIKE_PATTERN)
            before = part.value if type(part) is ast.Constant and type(part.value) is str else None
    elif t is ast.BinOp:
        left, right = node.left, node.right  # type: ignore[attr-defined]
        if type(node.op) is ast.Add and type(left) is ast.BinOp and type(left.op) is ast.Add:  # type: ignore[attr-defined]
            left = left.right  # ("... WHERE " + col + " LIKE '" + NAME: the piece right before it)
        if type(left) is not ast.Constant or type(left.value) is not str:
            return
        if type(node.op) is ast.Add and ends_with_like(left.value):  # type: ignore[attr-defined]
            _add(filled, right, LIKE_PATTERN)
        elif type(node.op) is ast.Mod:  # type: ignore[attr-defined]
            for arg in _printf_after_like(left.value, right):
                _add(filled, arg, LIKE_PATTERN)
    elif type(func := getattr(node, "func", None)) is ast.Attribute and func.attr == "format" and \
            type(func.value) is ast.Constant and type(func.value.value) is str:
        for arg in _formatted_after_like(func.value.value, node):  # type: ignore[arg-type]
            _add(filled, arg, LIKE_PATTERN)


# a printf conversion (Python's %-formatting): its mapping key, if any
_conversion = lazy_regex(r"%(?:\(([^)]*+)\))?+[-#0 +]*+(?:\*|[0-9]++)?+(?:\.(?:\*|[0-9]++))?+[a-zA-Z%]")


def _printf_after_like(template: str, right: ast.expr) -> list[ast.expr]:
    """The operands ``template % right`` puts right after ``LIKE``: the one, a tuple's by position, a dict's by
    key (``"... LIKE '%s' AND day = '%s'" % (PAT, day)``)."""
    out: list[ast.expr] = []
    conversions = [m for m in _conversion().finditer(template) if m.group() != "%%"]
    for k, m in enumerate(conversions):
        if ends_with_like(template[: m.start()]):
            if m.group(1) is not None and type(right) is ast.Dict:
                out += [v for key, v in zip(right.keys, right.values, strict=True)
                        if type(key) is ast.Constant and key.value == m.group(1)]
            elif type(right) is ast.Tuple and k < len(right.elts):
                out.append(right.elts[k])
            elif type(right) not in (ast.Tuple, ast.Dict) and len(conversions) == 1:
                out.append(right)  # (one operand for one conversion; for more, it is a tuple we cannot see)
    return out


def _formatted_after_like(template: str, call: ast.Call) -> list[ast.expr]:
    """The arguments ``template.format(...)`` puts right after ``LIKE`` (its fields by position or keyword)."""
    out: list[ast.expr] = []
    auto = 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return out
    for text, field, _, _ in fields:
        if field is None:
            continue
        name = field.split(".", 1)[0].split("[", 1)[0]
        index = auto if name == "" else int(name) if name.isdigit() else None
        auto += name == ""
        if ends_with_like(text):
            if index is not None and index < len(call.args):
                out.append(call.args[index])
            elif index is None:
                out += [k.value for k in call.keywords if k.arg == name]
    return out


def _add(filled: dict[str, Filling], node: ast.expr, filling: Filling) -> None:
    """``filling`` for the name ``node`` is, or whose items it reads (``NAME[key][0]``)."""
    items = False
    while type(node) is ast.Subscript:
        node, items = node.value, True
    name = _dotted(node)
    if name is not None:
        filled[name] = merge_fillings(filled.get(name, NO_FILLING), filling._replace(items=True) if items else filling)


_like_end = lazy_regex(r"(?i)(?<![\w])i?like\s*'?%?\Z")  # (on a few last characters: no search over input)


def ends_with_like(sql: str) -> bool:
    """Whether SQL text ends with ``LIKE`` (or ``ILIKE``) and perhaps the quote and ``%`` that open a pattern:
    what is put after it is a LIKE pattern, where ``%`` is a wildcard, not a percent-encoding."""
    return _like_end().search(sql[-12:]) is not None


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, with ``()`` after a call of such a chain that holds a
    call itself (``s().x``): the scanner's dotted name before any import is bound."""
    parts: list[str] = []
    while True:
        t = type(node)
        if t is ast.Attribute:
            parts.append(node.attr)  # type: ignore[attr-defined]
            node = node.value  # type: ignore[attr-defined]
        elif t is ast.Name:
            parts.append(node.id)  # type: ignore[attr-defined]
            break
        elif t is ast.Call:
            inner = _dotted(node.func)  # type: ignore[attr-defined]
            if inner is None or "()" not in inner:
                return None
            parts.append(inner + "()")
            break
        else:
            return None
    parts.reverse()
    return ".".join(parts)


# DB-API's cursor.execute(sql, params), SQLAlchemy's Connection.execute(text(sql), params), asyncpg's fetch*
SQL_RUNS = frozenset(("execute", "executemany", "exec_driver_sql", "fetch", "fetchrow", "fetchval"))
# DB-API's bind parameters (format, pyformat, qmark, named, numeric paramstyles; asyncpg's $1), each with the LIKE
# before it, if any
_bind = lazy_regex(r"(?i)((?<![\w])i?like\s++)?+(?:%s|%\((\w++)\)s|\?|(?<!:):([A-Za-z_]\w*+)|\$([0-9]++))")


def _last_name(func: ast.expr) -> str | None:
    return func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else None


def _like_placeholders(sql: str) -> tuple[set[int], set[str]]:
    """The positions (from 0) and the names of the bind parameters ``sql`` puts right after ``LIKE``."""
    positions: set[int] = set()
    names: set[str] = set()
    k = 0
    for m in _bind().finditer(sql):
        like = m.group(1) is not None
        if m.group(2) or m.group(3):
            if like:
                names.add(m.group(2) or m.group(3))
        elif m.group(4):
            if like:
                positions.add(int(m.group(4)) - 1)
        else:
            if like:
                positions.add(k)
            k += 1
    return positions, names


def like_parameters(call: ast.Call) -> list[ast.expr]:
    """The values a query run gives to the bind parameters its SQL (a literal, or SQLAlchemy's ``text()`` of one)
    puts right after ``LIKE``: LIKE patterns (``cur.execute("... LIKE %s", ("ivo://cds.vizier/%",))``); the
    others (``url = %s``) are not."""
    sql = call.args[0] if call.args else None
    if type(sql) is ast.Call and sql.args and _last_name(sql.func) == "text":
        sql = sql.args[0]
    if type(sql) is not ast.Constant or type(sql.value) is not str:
        return []
    positions, names = _like_placeholders(sql.value)
    if not positions and not names:
        return []
    rest = call.args[1:]
    keywords = [k.value for k in call.keywords if k.arg in ("parameters", "params", "args")]
    if rest and type(rest[0]) not in DISPLAYS:  # (asyncpg's fetch(sql, *args): the values themselves)
        out, given = [a for i, a in enumerate(rest) if i in positions], keywords
    else:
        out, given = [], [*rest[:1], *keywords]
    for g in given:
        rows = g.elts if type(g) is ast.List and g.elts and all(type(e) in DISPLAYS for e in g.elts) else [g]
        for row in rows:  # (executemany's rows)
            if type(row) is ast.Dict:
                out += [v for key, v in zip(row.keys, row.values, strict=True)
                        if type(key) is ast.Constant and key.value in names]
            elif type(row) in (ast.Tuple, ast.List):
                out += [e for i, e in enumerate(row.elts) if i in positions]  # type: ignore[attr-defined]
    return out


DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict)


def holds_template(value: ast.expr | None, url: bool) -> bool:
    """Whether the template kind of a name's filling can reach a string literal of ``value``: as the value
    itself or a branch of ``x if c else y``, or inside a display (a URL name's elements, or any name's items
    that are filled as ``NAME[key]``). A ``%`` or ``.format`` value sets the kind of its own literal
    (``_binop``, ``_call``), whatever the name's."""
    t = type(value)
    if t is ast.Constant or t is ast.JoinedStr:
        return True
    if t is ast.IfExp:
        return holds_template(value.body, False) or holds_template(value.orelse, False)  # type: ignore[union-attr]
    return t in DISPLAYS and any(holds_template(item, False) for item in display_items(value))  # type: ignore[arg-type]


def display_items(value: ast.expr) -> list[ast.expr]:
    """The values a display holds, nested displays opened (``{"a": ("x", None)}``: ``"x"``, ``None``)."""
    out: list[ast.expr] = []
    todo = [value]
    while todo:
        node = todo.pop()
        t = type(node)
        if t is ast.Dict:
            todo += [v for v in reversed(node.values)]  # type: ignore[attr-defined]
        elif t in DISPLAYS:
            todo += reversed(node.elts)  # type: ignore[attr-defined]
        elif node is not value:
            out.append(node)
    return out
