"""One cheap pass over a module's ast tree that yields the candidate IRI literals."""

from __future__ import annotations

import ast
import functools
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from iri_lint.source.bound_values import says_url_type
from iri_lint.source.candidates import (
    MESSAGE_FUNCTIONS,
    PIECE_METHODS,
    REGEX_FUNCTIONS,
    REGEX_KEYWORD_FUNCTIONS,
    REGEX_METHOD_KEYWORDS,
    REGEX_METHODS,
    ROUTE_KEYWORDS,
    ROUTERS,
    SCHEME_START,
    SEPARATOR,
    embedded_iris,
    has_scheme,
    iri_text,
    is_absolute_literal,
    is_bare_prefix,
    is_delimited,
    is_host_port,
    is_route_name,
    is_scp_address,
    is_url_name,
    links_an_iri,
    looks_like_prose,
    looks_like_regex,
    option_dest,
    says_query,
    says_template,
    string_key,
)
from iri_lint.source.child_contexts import CHILD_MARKERS, membership
from iri_lint.source.filling import (
    DISPLAYS,
    LIKE_PATTERN,
    display_items,
    filled_names,
    holds_template,
    like_values,
)
from iri_lint.source.locate import Locator, PartLocator, SourceFile, piece_ends_at
from iri_lint.source.marks import DEFAULT_OPTIONS, spans_lines
from iri_lint.source.marks import ScanOptions as ScanOptions  # re-exported: the scan's options
from iri_lint.source.marks import marked_lines as marked_lines  # re-exported
from iri_lint.source.model import HOLE, Literal, Reason, SourcePos
from iri_lint.source.notations import is_other_notation, starts_as_reference
from iri_lint.source.packages import package_of
from iri_lint.source.scopes import says_scope, scope_items
from iri_lint.source.templates import Filling, Templated, apply_templates, date_format, strftime_directives
from iri_lint.source.text import embedded_literals
from iri_lint.source.url_apis import DEFAULT_URL_APIS, ENVIRONMENT, UrlApi, compat_qual, env_default, parse_extra_api
from iri_lint.source.uses import DATED, EXCLUDED, FMT, MESSAGE, SCOPE, TEXT, Ctx

_LOG_METHODS = frozenset(("debug", "info", "warning", "warn", "error", "critical", "exception"))
_SKIP_FIELDS = frozenset(
    ("ctx", "op", "ops", "type_comment", "kind", "id", "arg", "name", "asname", "module",
     "level", "conversion", "is_async", "attr", "names", "type_ignores")
)  # fmt: skip
_FIELDS: dict[type, tuple[str, ...]] = {}
_STR = (str, bytes)
_IMPORTS = (ast.Import, ast.ImportFrom)
_NESTING = (ast.Try, ast.If, *([ast.TryStar] if hasattr(ast, "TryStar") else []))
_STMTS = frozenset(
    c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.stmt)
)


def _fields(t: type) -> tuple[str, ...]:
    """The fields of node type ``t`` that may hold nodes, last first (the walk pushes them so)."""
    f = _FIELDS.get(t)
    if f is None:
        f = _FIELDS[t] = tuple(x for x in reversed(t._fields) if x not in _SKIP_FIELDS)  # type: ignore[attr-defined]
    return f


# list fields that may hold None or names besides nodes (the others hold nodes only)
_MIXED_LISTS = frozenset(
    (t, f) for t, f in ((ast.Dict, "keys"), (ast.arguments, "kw_defaults"),
                        (getattr(ast, "MatchClass", None), "kwd_attrs")) if t is not None
)


def find_literals(
    tree: ast.AST, lines: Sequence[str] | SourceFile, *, options: ScanOptions | None = None,
    marked: list[int] | None = None, file: str | None = None,
) -> Iterator[Literal]:
    """Yield the candidate IRI literals of a module, in source order.

    ``lines``: the module's lines, or its ``SourceFile`` (shared with the caller's other passes);
    ``marked``: the file's ``marked_lines`` when the caller already computed them (before parsing);
    ``file``: where the module is (its relative imports name modules of its package).
    """
    opts = options or DEFAULT_OPTIONS
    source = lines if isinstance(lines, SourceFile) else SourceFile(list(lines))
    scanner = Scanner(source, opts, file)
    scanner.fill_tree = tree  # the names it fills in are found when an assignment first needs them
    if opts.prefilter:
        scanner.marked = marked if marked is not None else marked_lines(source, opts)
        if not scanner.marked:
            return iter(())
    if scanner.texts is None:
        return scanner.run(tree)
    return _with_texts(scanner, tree)


def _with_texts(scanner: Scanner, tree: ast.AST) -> Iterator[Literal]:
    """Text mode: the scan's literals and the IRIs found in prose, in source order."""
    found = list(scanner.run(tree))
    found.extend(scanner.texts or ())
    found.sort(key=lambda lit: (lit.start.line, lit.start.col))
    return iter(found)


@functools.lru_cache(maxsize=64)
def _api_tables(extra_url_apis: tuple[str, ...]) -> tuple[dict[str, UrlApi], frozenset[str]]:
    """The URL APIs by qualified name, and the names that can lead to one ("requests",
    "requests.Session", "urllib.request", ...): built once per option set, read-only."""
    apis = list(DEFAULT_URL_APIS) + [parse_extra_api(s) for s in extra_url_apis]
    prefixes = frozenset(".".join(parts[:k]) for api in apis for parts in [api.name.replace("()", "").split(".")]
                         for k in range(1, len(parts) + 1))
    return {api.name: api for api in apis}, prefixes


class Scanner:
    """The scan of one module: the names bound so far (imports, URL API objects), the lines worth walking,
    the names the module fills in; ``walk`` yields the candidate literals of a tree with that state
    (``iri_lint.source.statements`` keeps it across a module's top-level statements, for the editor)."""

    __slots__ = ("aliases", "api_prefixes", "apis", "ctx", "extra", "file", "fill_tree", "filled", "marked",
                 "marked_words", "opts", "source", "stale", "texts", "url_names")

    def __init__(self, source: SourceFile, opts: ScanOptions, file: str | None = None) -> None:
        self.source = source
        self.opts = opts
        self.file = file  # where the module is: a relative import names a module of its package
        self.url_names = tuple(n.lower() for n in opts.url_names)
        self.apis, self.api_prefixes = _api_tables(opts.extra_url_apis)
        self.aliases: dict[str, str] = {}  # local dotted name -> qualified name
        self.ctx: dict[int, Ctx] = {}  # id(expr) -> how its parent uses it
        self.marked: list[int] | None = None  # lines worth walking (None: walk everything)
        self.extra: list[str] = []  # local names bound to URL APIs (their lines are marked too)
        self.marked_words: set[str] = set()  # those whose lines are marked already, or about to be
        self.stale = False
        # text mode (RFC 3987 sec. 7.3): IRIs found inside prose, merged into the output at the end
        self.texts: list[Literal] | None = [] if opts.include_docstrings else None
        # names filled in later (NAME.format(...), NAME % x, NAME.replace("ID", x)): their literal
        # values are templates of that kind. Given ``fill_tree``, they are found on first need
        # (``filled_for``); otherwise ``filled`` is all there is (``find_filled_names``)
        self.filled: dict[str, Filling] = {}
        self.fill_tree: ast.AST | None = None

    def bind(self, name: str, qual: str) -> None:
        """Record an alias; names bound to URL APIs make their later lines worth walking."""
        if qual.replace("()", "") in self.api_prefixes and self.aliases.get(name) != qual:
            word = name.rsplit(".", 1)[-1]
            # once per word: a test binds ``resp`` anew in every function, and its lines stay the same
            if word not in self.marked_words:
                self.marked_words.add(word)
                self.extra.append(word)
                self.stale = self.marked is not None
        self.aliases[name] = qual

    def worth_walking(self, node: ast.stmt) -> bool:
        """Whether a statement spans a marked line (decorators included)."""
        marked = self.marked
        if marked is None:
            return True
        if self.stale:
            self.stale = False
            more = marked_lines(self.source, self.opts, self.extra)
            self.extra = []
            self.marked = marked = sorted(set(marked).union(more))
        return spans_lines(node, marked)

    def prepass(self, tree: ast.AST) -> None:
        """Bind module-level imports (also under try/if) before pruning by marked lines."""
        body = list(getattr(tree, "body", ()))
        while body:
            node = body.pop()
            if type(node) is ast.Import:
                _import(self, node)
            elif type(node) is ast.ImportFrom:
                _import_from(self, node)
            elif isinstance(node, _NESTING):
                for f in ("body", "orelse", "finalbody", "handlers"):
                    body.extend(getattr(node, f, ()))
            elif type(node) is ast.ExceptHandler:
                body.extend(node.body)

    def filled_for(self, name: str) -> Filling | None:
        """How ``name`` is filled in somewhere in the module; the first call finds every name filled in
        ``fill_tree`` (``filling.filled_names``)."""
        tree, self.fill_tree = self.fill_tree, None
        if tree is not None:
            self.filled = filled_names(tree, self.source)
        return self.filled.get(name)

    def run(self, tree: ast.AST) -> Iterator[Literal]:
        """The candidate literals of a whole module: its imports bound first, then the walk."""
        if self.marked is not None:
            self.prepass(tree)
        return self.walk(tree)

    def walk(self, tree: ast.AST) -> Iterator[Literal]:  # noqa: C901 - the walk of every node, dispatch inline (issue #28 asks)
        """The candidate literals under ``tree`` in source order, read with the names bound so far."""
        stack: list[ast.AST] = [tree]
        pop = stack.pop
        push = stack.append
        Constant, JoinedStr, Name = ast.Constant, ast.JoinedStr, ast.Name
        handlers = _HANDLERS
        stmts = _STMTS
        mixed = _MIXED_LISTS
        while stack:
            node = pop()
            t = type(node)
            if t is Constant:
                lit = self._constant(node)  # type: ignore[arg-type]
                if lit is not None:
                    if lit.__class__ is list:
                        yield from lit
                    else:
                        yield lit  # type: ignore[misc]
                continue
            if t is JoinedStr:
                lit = self._fstring(node)  # type: ignore[arg-type]
                if lit is not None:
                    if lit.__class__ is list:
                        yield from lit
                    else:
                        yield lit  # type: ignore[misc]
                for part in reversed(node.values):  # type: ignore[attr-defined]
                    if type(part) is ast.FormattedValue:
                        push(part.value)
                continue
            if t in stmts and t not in _IMPORTS and not self.worth_walking(node):  # type: ignore[arg-type]
                continue
            h = handlers.get(t)
            if h is not None:
                h(self, node)
            # children pushed last field first, each list reversed: popped in source order
            fields = _FIELDS.get(t)
            if fields is None:
                fields = _fields(t)
            for f in fields:
                v = getattr(node, f, None)
                if v.__class__ is list:
                    if (t, f) in mixed:
                        stack.extend([x for x in reversed(v) if isinstance(x, ast.AST)])
                    elif v:
                        stack.extend(reversed(v))
                elif v is not None and v.__class__ is not Name and isinstance(v, ast.AST):
                    push(v)  # (a lone name holds nothing to find: a fifth of the nodes, not pushed)

    # -- names ---------------------------------------------------------------------------

    def dotted(self, node: ast.expr) -> str | None:
        """``a.b.c`` for a Name/Attribute chain, with ``()`` for calls; None otherwise."""
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
                inner = self.qualname(node.func)  # type: ignore[attr-defined]
                if inner is None:
                    return None
                parts.append(inner + "()")
                break
            else:
                return None
        parts.reverse()
        return ".".join(parts)

    def qualname(self, node: ast.expr) -> str | None:
        """Resolve a callee through the module's imports and simple assignments."""
        d = self.dotted(node)
        if d is None:
            return None
        aliases = self.aliases
        if d in aliases:
            return aliases[d]
        # longest dotted prefix that is an alias: "ur.urlopen", "self.session.get"
        cut = len(d)
        while True:
            cut = d.rfind(".", 0, cut)
            if cut <= 0:
                return d if "()" in d else None
            head = d[:cut]
            if head in aliases:
                return compat_qual(aliases[head] + d[cut:])

    def is_url_name(self, name: str | None) -> bool:
        return name is not None and is_url_name(name.rsplit(".", 1)[-1], self.url_names)

    # -- marking -------------------------------------------------------------------------

    def mark(self, node: ast.expr | None, ctx: Ctx) -> None:
        """Record how a child expression is used (strings, templates, conditionals)."""
        if node is None:
            return
        t = type(node)
        if t is ast.Constant or t is ast.JoinedStr:
            old = self.ctx.get(id(node))
            if old is None or (old.reason is None and not old.excluded):
                self.ctx[id(node)] = ctx
        elif t is ast.BinOp or t is ast.Call:
            self.ctx.setdefault(id(node), ctx)
        elif t is ast.IfExp:
            self.mark(node.body, ctx)  # type: ignore[attr-defined]
            self.mark(node.orelse, ctx)  # type: ignore[attr-defined]
        elif t is ast.BoolOp:  # (``a or b``: either may be the value; ``a and b``: ``b``, when ``a`` is true)
            for v in node.values if type(node.op) is ast.Or else node.values[-1:]:  # type: ignore[attr-defined]
                self.mark(v, ctx)

    def mark_url_value(self, value: ast.expr | None, ctx: Ctx) -> None:
        """A URL-named target: its value, or each element of a literal collection."""
        if value is None:
            return
        if type(value) in (ast.List, ast.Tuple, ast.Set):
            for elt in value.elts:  # type: ignore[attr-defined]
                self.mark(elt, ctx)
        else:
            self.mark(value, ctx)

    def _text(self, node: ast.expr, raw: str, holes: Sequence[tuple[int, int]], ctx: Ctx) -> None:
        """Text mode: collect the IRIs inside a docstring or prose literal (RFC 3987 sec. 7.3)."""
        if self.texts is None or ":" not in raw:
            return
        self.texts.extend(embedded_literals(node, self.source, raw, holes, percent_template=ctx.pct,
                                            format_template=ctx.fmt))

    # -- leaves --------------------------------------------------------------------------

    def _constant(self, node: ast.Constant) -> Literal | list[Literal] | None:
        v = node.value
        ctx = self.ctx.pop(id(node), None)
        if v.__class__ is not str:
            if v.__class__ is not bytes or not self.opts.include_bytes:
                return None
            v = v.decode("latin-1")
        if ctx is None:
            if ":" not in v or (SCHEME_START.match(v) is None and not has_scheme(v) and not links_an_iri(v)):
                return None
            ctx = _NO_CTX
        elif ctx.excluded:
            if ctx is TEXT:
                self._text(node, v, (), ctx)
            return None
        return self._candidate(node, v, (), ctx)

    def _fstring(self, node: ast.JoinedStr) -> Literal | list[Literal] | None:
        ctx = self.ctx.pop(id(node), None)
        parts: list[str] = []
        holes: list[tuple[int, int]] = []
        n = 0
        for part in node.values:
            if type(part) is ast.Constant and isinstance(part.value, str):
                parts.append(part.value)
                n += len(part.value)
            else:
                parts.append(HOLE)
                holes.append((n, n + 1))
                n += 1
        value = "".join(parts)
        if ctx is None:
            if not has_scheme(value) and not links_an_iri(value):
                return None
            ctx = _NO_CTX
        elif ctx.excluded:
            if ctx is TEXT:
                self._text(node, value, holes, ctx)
            return None
        return self._candidate(node, value, holes, ctx)

    def _candidate(
        self, node: ast.expr, raw: str, holes: Sequence[tuple[int, int]], ctx: Ctx
    ) -> Literal | list[Literal] | None:
        api = ctx.api
        url_ctx = ctx.reason is not None and (api is None or api.relative)
        # an argument of a URL API is one URL whatever it holds: never guessed to be a regex, markup,
        # prose or a list of IRIs (its spaces and control characters are findings)
        whole = ctx.reason is Reason.URL_API
        if not raw or (not whole and (looks_like_regex(raw) or is_delimited(raw) or is_other_notation(raw))):
            return None
        tpl = apply_templates(raw, holes, percent_template=ctx.pct, format_template=ctx.fmt)
        if ctx.replaced:
            tpl = tpl._replace(holes=tpl.holes + _occurrences(tpl.value, ctx.replaced))
        if ctx.dated or date_format(tpl.value):
            tpl = tpl._replace(holes=tpl.holes + strftime_directives(tpl.value))
        value = tpl.value
        if not whole and tpl.holes and is_delimited(value, tpl.holes):
            return None
        if (is_bare_prefix(value) and not (whole and value)) or (api is not None and not api.takes(value)):
            return None  # a prefix to build URLs from (a URL API given one alone gets no URL), or a local path
        if ctx.listed and not whole and SEPARATOR.search(value) is not None:  # (its IRIs, each alone)
            return self._items(node, tpl, scope_items(value), ctx, url_ctx)
        if not whole and (links := embedded_iris(value)) is not None:  # (a chain's last link, a link's target)
            # (a link's destination is a reference, which may be relative: CommonMark, RFC 3986 sec. 4.1)
            return self._items(node, tpl, links, ctx, True)
        if not whole and SEPARATOR.search(value) is not None:
            # a text may hold several IRIs; what a URL API takes is one URL (``whole``)
            text = iri_text(value, tpl.holes)
            if text.listed:  # a list of IRIs: each one is checked, the separators are not findings
                return self._items(node, tpl, text.items, ctx, url_ctx)
            # (header injection is a URL's fault where a URL is expected; elsewhere "URL\r\nName: value" is text: a
            # robots.txt, a message, an HTTP head a test expects)
            if (text.injection and not url_ctx) or \
                    (not text.injection and (ctx.message or looks_like_prose(value, url_context=url_ctx)
                                             or (not url_ctx and self._split_after_word(node, tpl)))):
                if self.texts is not None:
                    self._text(node, raw, holes, ctx)
                return None
        if not url_ctx and not is_absolute_literal(value):
            return None
        if url_ctx and (is_route_name(value, whole) or is_host_port(value) or (not whole and is_scp_address(value))):
            return None
        source = self.source
        locator = Locator(node, source, tpl.index_map, percent_template=ctx.pct, format_template=ctx.fmt,
                          percent_escapes=tpl.percent_escapes)
        start = SourcePos(node.lineno, source.char_col(node.lineno, node.col_offset))
        end_line = node.end_lineno or node.lineno
        end = SourcePos(end_line, source.char_col(end_line, node.end_col_offset or 0))
        return _literal(node, value, tpl.holes, ctx, url_ctx, locator, start, end)

    def _split_after_word(self, node: ast.expr, tpl: Templated) -> bool:
        """An IRI and one word that the author wrote as two pieces split at the space between them (``"https://h/x "
        "Backend"``, a test's expected text): text, not one IRI with a space."""
        value = tpl.value
        end = value.find(" ")
        if end < 0 or " " in value[end + 1:] or "\n" in value or not (0 < end < len(value) - 1):
            return False
        raw = end if tpl.index_map is None else tpl.index_map[end]
        return piece_ends_at(node, self.source, raw)

    def _items(self, node: ast.expr, tpl: Templated, items: Sequence[tuple[int, int]], ctx: Ctx,
               url_ctx: bool) -> list[Literal]:
        """One literal per IRI of a text that holds IRIs, placed through the whole literal's locator."""
        whole = Locator(node, self.source, tpl.index_map, percent_template=ctx.pct, format_template=ctx.fmt,
                        percent_escapes=tpl.percent_escapes)
        out = []
        spans = sorted(tpl.holes)
        starts = [h0 for h0, _ in spans]
        for a, b in items:
            # (each item's own holes, found by bisection: 25,000 items each walking 25,000 holes was quadratic)
            holes = tuple((h0 - a, h1 - a) for h0, h1 in spans[bisect_left(starts, a) : bisect_left(starts, b)]
                          if h1 <= b)
            loc = PartLocator(whole, a)
            out.append(_literal(node, tpl.value[a:b], holes, ctx, url_ctx, loc, loc.position(0), loc.position(b - a)))
        return out


def _literal(node: ast.expr, value: str, holes: tuple[tuple[int, int], ...], ctx: Ctx, url_ctx: bool,
             locator: Locator, start: SourcePos, end: SourcePos) -> Literal:
    api = ctx.api
    return Literal(
        value=value,
        reason=ctx.reason if ctx.reason is not None else Reason.ABSOLUTE,
        context=ctx.use,
        kind="IRI" if not url_ctx or (api is not None and api.absolute and starts_as_reference(value, holes))
        else "IRI-reference",  # (an API with no base takes only absolute URLs)
        start=start,
        end=end,
        holes=holes,
        api=api.name if api is not None else None,
        uri_only_api=api.uri_only if api is not None else False,
        idna2008_api=api is not None and api.idna2008,
        position_of=locator.position,
        is_fstring=type(node) is ast.JoinedStr,
        locator=locator,
    )


_NO_CTX = Ctx()
_LIKE = _NO_CTX.with_template(replaced=LIKE_PATTERN.replaced)  # (a LIKE pattern given to a query: see filling)


def _occurrences(value: str, needles: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """Where each needle stands in ``value``: the spans a ``.replace`` fills in."""
    out = []
    for needle in needles:
        i = value.find(needle)
        while i >= 0:
            out.append((i, i + len(needle)))
            i = value.find(needle, i + len(needle))
    return tuple(sorted(out))


# -- handlers for parent nodes -------------------------------------------------------------


def _import(s: Scanner, node: ast.Import) -> None:
    for a in node.names:
        if a.asname:
            s.bind(a.asname, compat_qual(a.name))
        else:
            top = a.name.split(".", 1)[0]
            s.bind(top, top)


def _import_from(s: Scanner, node: ast.ImportFrom) -> None:
    module = node.module
    if node.level:  # ``from .http import fetch``: by its package's name (a configured URL API may be one)
        package = package_of(s.file, node.level) if s.file is not None else None
        if package is None:
            return
        module = f"{package}.{module}" if module else package
    elif not module:
        return
    for a in node.names:
        s.bind(a.asname or a.name, compat_qual(f"{module}.{a.name}"))


def _call(s: Scanner, node: ast.Call) -> None:  # noqa: C901 - one branch per way a call passes a URL
    func = node.func
    own = s.ctx.pop(id(node), None)
    if (func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else None) in ROUTERS:
        _route(s, node)
        return
    if type(func) is ast.Attribute:
        attr = func.attr
        if attr in PIECE_METHODS:
            for arg in node.args:
                s.mark(arg, EXCLUDED)
            if attr == "replace" and node.args and type(a := node.args[0]) is ast.Constant and \
                    isinstance(a.value, str) and a.value:  # what it replaces is not in the value: a hole
                s.mark(func.value, own.with_template(pct=own.pct, fmt=own.fmt, replaced=(*own.replaced, a.value))
                       if own else Ctx(replaced=(a.value,)))
        elif attr in ("format", "format_map"):
            s.mark(func.value, own.with_template(fmt=True) if own else FMT)
        elif attr == "strftime" and node.args:  # (``day.strftime(fmt)``, ``time.strftime(fmt)``): a date's
            s.mark(node.args[0], own.with_template(dated=True) if own else DATED)  # template, and the URL if any
        elif attr in _LOG_METHODS and node.args:  # logging %-formats its message with the args, if any
            s.mark(node.args[0], Ctx(pct=len(node.args) > 1, message=True))
        elif attr in ("assertIn", "assertNotIn") and len(node.args) >= 2:
            membership(s, node.args[0], node.args[1])
        elif likes := like_values(node):  # (a query's LIKE patterns, a collection of them: '%' is any text there)
            for value in likes:
                s.mark(value, _LIKE)
        elif attr in REGEX_METHODS:  # (unittest's: the regex after the text or the exception)
            for arg in (*node.args[1:2], *(k.value for k in node.keywords if k.arg in REGEX_METHOD_KEYWORDS)):
                s.mark(arg, EXCLUDED)
    qual = s.qualname(func)
    if (qual or (func.id if type(func) is ast.Name else None)) in MESSAGE_FUNCTIONS and node.args:  # (print)
        s.mark(node.args[0], MESSAGE)
    if qual is not None:
        if qual in ENVIRONMENT and own is not None and own.reason is not None:
            s.mark(env_default(node, qual), own)  # (what the code uses when the variable is unset, where it is used)
        if qual in REGEX_FUNCTIONS or qual in REGEX_KEYWORD_FUNCTIONS:
            if node.args and qual in REGEX_FUNCTIONS:
                s.mark(node.args[0], EXCLUDED)
            for kw in node.keywords:
                if kw.arg == "pattern" or kw.arg == "match":
                    s.mark(kw.value, EXCLUDED)
        api = s.apis.get(qual)
        if api is not None:
            api = api.at_call(node)
            ctx = Ctx(Reason.URL_API, api.context, api)
            for i in api.args:
                if i < len(node.args):
                    s.mark(node.args[i], ctx)
            for kw in node.keywords:
                if kw.arg in api.keywords:
                    s.mark(kw.value, ctx)
    for kw in node.keywords:
        if kw.arg is not None and s.is_url_name(kw.arg):
            s.mark_url_value(kw.value, Ctx(Reason.URL_NAME))
        elif kw.arg is not None and says_scope(kw.arg):
            s.mark_url_value(kw.value, SCOPE)
    if node.keywords and s.is_url_name(option_dest(node)):  # (``add_argument("--mirror-url", default=...)``)
        for kw in node.keywords:
            if kw.arg == "default":
                s.mark_url_value(kw.value, Ctx(Reason.URL_NAME))


def _route(s: Scanner, node: ast.Call) -> None:
    """A router's call (``@app.route("/x")``, ``path("a/<int:id>/", view)``): its pattern and name are
    no IRIs; what other keywords hold (``redirect_to=``, ``url=``) still may be."""
    for arg in node.args:
        s.mark(arg, EXCLUDED)
    for kw in node.keywords:
        if kw.arg in ROUTE_KEYWORDS:
            s.mark(kw.value, EXCLUDED)
        elif kw.arg is not None and s.is_url_name(kw.arg):
            s.mark_url_value(kw.value, Ctx(Reason.URL_NAME))


def _filled(ctx: Ctx, filling: Filling) -> Ctx:
    """``ctx`` for a literal whose name is filled in so."""
    return ctx.with_template(pct=filling.pct, fmt=filling.fmt, replaced=filling.replaced, dated=filling.dated)


def _assign_target(s: Scanner, target: ast.expr, value: ast.expr | None, typed: bool = False) -> None:
    name = s.dotted(target)
    if name is None:  # (``item["image_urls"] = [...]``: a key names it, as in a dict display; nothing is bound)
        key = string_key(target)
        if key is not None and s.is_url_name(key):
            s.mark_url_value(value, EXCLUDED if says_template(key) else Ctx(Reason.URL_NAME))
        return
    url = typed or s.is_url_name(name)
    # the names filled in are looked for only when a template could reach a string literal here
    filled = s.filled_for(name) if holds_template(value, url) else None
    if says_template(name) or says_query(name):  # a template whatever its placeholders look like (issue #27), or XPath
        for item in display_items(value) if value is not None and type(value) in DISPLAYS else (value,):  # (dicts)
            s.mark(item, EXCLUDED)
    elif not url and says_scope(name):
        s.mark_url_value(value, SCOPE)
    elif filled is not None and filled.items and value is not None and type(value) in DISPLAYS:  # (``NAME[k]``)
        ctx = _filled(Ctx(Reason.URL_NAME) if url and type(value) is not ast.Dict else _NO_CTX, filled)
        for item in display_items(value):
            s.mark(item, ctx)
    elif url:
        ctx = Ctx(Reason.URL_NAME)
        s.mark_url_value(value, ctx if filled is None else _filled(ctx, filled))
    elif filled is not None:
        s.mark(value, _filled(_NO_CTX, filled))
    if type(value) is ast.Call:
        qual = s.qualname(value.func)
        if qual is not None:
            s.bind(name, qual + "()")


def _assign(s: Scanner, node: ast.Assign) -> None:
    for target in node.targets:
        _assign_target(s, target, node.value)


def _loop(s: Scanner, node: ast.For | ast.AsyncFor | ast.comprehension) -> None:
    """``for pat in ["ivo://.../epntap#table-2.%"]``: each item of a display is bound to the name (outside9)."""
    if type(node.iter) in (ast.List, ast.Tuple, ast.Set):
        for elt in node.iter.elts:  # type: ignore[attr-defined]
            _assign_target(s, node.target, elt)


def _one_target(s: Scanner, node: ast.AnnAssign | ast.NamedExpr) -> None:
    """``url: str = value``, ``endpoint: HttpUrl = value`` and ``(url := value)``."""
    _assign_target(s, node.target, node.value, says_url_type(getattr(node, "annotation", None)))


def _with(s: Scanner, node: ast.With | ast.AsyncWith) -> None:
    for item in node.items:
        if item.optional_vars is not None and type(item.context_expr) is ast.Call:
            name = s.dotted(item.optional_vars)
            qual = s.qualname(item.context_expr.func)
            if name is not None and qual is not None:
                s.bind(name, qual + "()")


def _function(s: Scanner, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    pairs = list(zip(positional[len(positional) - len(a.defaults) :], a.defaults, strict=True))
    pairs += [(arg, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d]
    for arg, default in pairs:
        if s.is_url_name(arg.arg) or says_url_type(arg.annotation):
            s.mark_url_value(default, Ctx(Reason.URL_NAME))
    for arg in (*positional, *a.kwonlyargs):  # (``def f(s: requests.Session)``: its object, as ``s = Session()``)
        if (note := _annotation(arg.annotation)) is not None and (qual := s.qualname(note)) in s.api_prefixes:
            s.bind(arg.arg, qual + "()")  # (only a URL API's class: the aliases are the module's, not the function's)


def _annotation(node: ast.expr | None) -> ast.expr | None:
    """A parameter's annotation, a forward reference's (``"httpx.Client"``) as the expression it spells."""
    if type(node) is ast.Constant and type(node.value) is str and len(node.value) < 200:
        try:
            return ast.parse(node.value.strip(), mode="eval").body
        except (SyntaxError, ValueError):
            return None
    return node


_HANDLERS: dict[type, Callable[[Scanner, Any], None]] = {
    ast.Import: _import,
    ast.ImportFrom: _import_from,
    ast.Call: _call,
    ast.Assign: _assign,
    ast.AnnAssign: _one_target,
    ast.NamedExpr: _one_target,
    ast.With: _with,
    ast.AsyncWith: _with,
    **CHILD_MARKERS,
    **dict.fromkeys((ast.For, ast.AsyncFor, ast.comprehension), _loop),
    ast.FunctionDef: _function,
    ast.AsyncFunctionDef: _function,
    ast.Lambda: _function,
}
