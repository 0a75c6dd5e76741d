"""URL values through the rules (issue #27): what reaches a URL API, a URL-named target or a URL-named
function's return, checked as assembled, each finding placed at the literal piece that holds it.

A module's literals are checked one by one first (``lint.lint_tree``); here the values built from them
(``source.urlvalues``) are checked with their holes as template holes and the facts of their assembly
(``core.context.Assembly``) for the assembly rules (IRI8xx). One cause gives one finding: a finding of
a rule in a literal that already has one of that rule (from its own check, or from an earlier value) is
dropped, as is a second one of a rule at one hole. A character in another module's piece is that
module's to report, when its literal is an absolute IRI whose own check finds it there, as is a join made
there in the value of a URL-named name; otherwise the finding is placed in this file, at the name that
brings the piece in (``_bringer``), else at the use; so is a problem the join makes in a constant of this
module that the use names (``_made_by_join``), once per use. A value's fix is made in the literal that
spells what it changes, when that literal is written in the use's own expression: no other value reaches
it (``_piece_fix``).
"""

from __future__ import annotations

import ast
import functools
import gc
import os
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import NamedTuple, TypeVar

from .bound_checks import at_an_end, bound_once, found_where_bound, has_alone, offsets_of, reported_there, separated
from .config import Config
from .core.chars import HEXDIG
from .core.scanner import scan
from .rules.engine import check_ref, merged
from .rules.model import Edit, Family, Finding, Fix, UseContext, with_edits
from .rules.registry import RULES, RULES_BY_CODE
from .source.assembled import Checked, checked, literal_start, position
from .source.calls import PATH_JOINS
from .source.candidates import (
    is_absolute_literal,
    is_bare_prefix,
    is_host_port,
    is_route_name,
    is_scp_address,
    is_url_name,
    links_an_iri,
)
from .source.evaluate import ModuleState
from .source.filling import filled_names, printf_templates
from .source.locate import SourceFile, written_within
from .source.loops import held_item
from .source.marks import ScanOptions
from .source.model import HOLE, Literal, Reason, SourcePos, Spelled
from .source.notations import no_url, starts_as_reference
from .source.packages import forget_packages
from .source.piece_edits import spelling_literal
from .source.placeholders import with_placeholders
from .source.project import Project as Project  # re-exported: what lint_tree takes
from .source.project import find_root
from .source.template_names import in_template, last_name, names_template
from .source.templates import placeholder_spans, strftime_directives
from .source.url_apis import UrlApi
from .source.urljoins import HELPERS
from .source.urlvalues import ModuleValues, UrlValue
from .source.values import MADE, Hole, HoleKind, Piece, Ref, Src, Text, Value, dotted, holds, same_piece

_PROJECT: list[Project] = []
_LITERALS = (ast.Constant, ast.JoinedStr)
ASSEMBLY_CODES = frozenset(r.code for r in RULES if r.family is Family.ASSEMBLY)
# an assembly rule about the use, not the value's assembly: a template that reaches a URL API unfilled, a query in
# the base a client appends each request to, or resolves it against (the module spelling it cannot know it)
AT_USE_CODES = frozenset(("IRI805", "IRI810", "IRI812"))


_FREEZE_AFTER_READS = [True]  # (False in a long-lived process: see long_lived_process)


def _freeze_due(project: Project) -> bool:
    """Whether to freeze again: a collection first costs a pass over what came since the last freeze, so
    freeze a quarter more modules at a time (a few dozen freezes in the largest runs). Counted in modules
    parsed, not files: a module the project dropped and read again is a new tree, as long-lived as the first
    (a process linting a tree again, as a benchmark's rounds do, otherwise kept every tree it read after its
    first pass in reach of the collector: 5.1, 7.9 and 10.5 s for three passes over run.py's corpus)."""
    return project.loads >= project.frozen_at + max(1, project.frozen_at // 4)


def long_lived_process() -> None:
    """Never freeze the gc in this process (the editor's server): objects frozen are never collected as
    cyclic garbage, so a process that lives for days would keep every document state alive at a freeze."""
    _FREEZE_AFTER_READS[0] = False


def packages_changed(paths: Iterable[str]) -> bool:
    """Whether a file created, changed or deleted may make a folder a package or stop it being one, so that every
    relative import may name another module (the editor's long-lived process); then the folders are read again."""
    if changed := any(os.path.basename(p) == "__init__.py" for p in paths):
        forget_packages()
    return changed


def default_project() -> Project:
    """The process's project modules (one per process: a run of flake8 or of ``iri-lint check``, each
    worker its own); a module is read again only when its file changed on disk."""
    if not _PROJECT:  # (the editor's server lints documents, not files read from disk: it lends no tree)
        _PROJECT.append(Project(lends=_FREEZE_AFTER_READS[0], remembers_missing=_FREEZE_AFTER_READS[0]))
    return _PROJECT[0]


class PieceFix(NamedTuple):
    """A value's fix as the literal that spells what it changes sees it: that literal, and the fix's edits
    on its checked value (``source.piece_edits``)."""

    literal: Literal
    fix: Fix
    pct: bool = False  # the literal is the left operand of ``%`` (its locator says so too, until detached)
    fmt: bool = False  # ``.format`` is called on it


class ValueFinding(NamedTuple):
    """A finding of a value, placed in the file; its fix (on the value) is made in ``piece_fix``'s literal."""
    finding: Finding
    literal: Literal
    start: SourcePos
    end: SourcePos
    piece_fix: PieceFix | None = None
    spelled: Spelled | None = None  # placed at a name: where another module spells the character


class ValueChecker(NamedTuple):
    """What ``lint._Checker`` decided for the file: the rules enabled where a value is used as an IRI,
    and where it is an ASCII URL."""

    config: Config
    enabled: frozenset[str]
    in_ascii: frozenset[str]
    idna_versions: bool


def value_findings(tree: ast.Module, lines: Sequence[str] | SourceFile, checker: ValueChecker,
                   causes: set[tuple[str, SourcePos]], *, path: str | None, options: ScanOptions,
                   marked: list[int] | None, project: Project | None = None,
                   depends_on: set[str] | None = None) -> list[ValueFinding]:
    """The findings of a module's URL values not already among its literals' (``causes``: (code, start of
    the literal) of each finding so far; updated)."""
    uses = placed_findings(tree, lines, checker, path=path, options=options, marked=marked, project=project,
                           depends_on=depends_on)
    return [found for _, placed in uses for found in first_of_each_cause(placed, causes)]


Cause = tuple[str, SourcePos]  # (code, the literal spelling it: where it starts), or the use's start
F = TypeVar("F")


def first_of_each_cause(placed: Sequence[tuple[Cause, F]], causes: set[Cause]) -> Iterator[F]:
    """One finding per cause: those whose cause is not in ``causes`` yet (updated), in order."""
    for cause, found in placed:
        if cause not in causes:
            causes.add(cause)
            yield found


def placed_findings(tree: ast.Module, lines: Sequence[str] | SourceFile, checker: ValueChecker, *, path: str | None,
                    options: ScanOptions, marked: list[int] | None, project: Project | None = None,
                    depends_on: set[str] | None = None,
                    within: tuple[int, int] | None = None) -> list[tuple[int, list[tuple[Cause, ValueFinding]]]]:
    """Each use of a URL value (on lines ``within`` only, when given) with the line it starts on and its
    findings, each with its cause, in source order; ``first_of_each_cause`` keeps one per cause."""
    if path is not None and project is None:
        project = default_project()
    values = ModuleValues(tree, lines, path=path if project is not None else None, project=project, options=options)
    uses = list(values.url_values(marked, within=within))
    local = values.state.src
    memo: dict[tuple[object, ...], list[Finding]] = {}
    placed = [(getattr(use.expr, "lineno", 0), _placed(use, local, checker, memo, values.state)) for use in uses]
    if depends_on is not None:
        depends_on |= values.depends_on
    values.state.evaluator.close()
    if project is not None and path is not None:
        project.done(path)
    else:
        values.state.index.close()
    if _FREEZE_AFTER_READS[0] and project is not None and _freeze_due(project):
        # the project's parsed modules live as long as the run: out of the cyclic gc's reach, whose full
        # passes over them cost more than the values themselves (13.3 CPU s instead of 25.5 on the tuning
        # group's 6,606 files); they are still freed by refcounting when the project drops them. Collected
        # first, or the garbage there is (the host's: flake8's) would never be freed: 9 MiB in 90 files
        gc.collect()
        gc.freeze()
        project.frozen_at = project.loads
    return placed


def _placed(use: UrlValue, local: Src, checker: ValueChecker, memo: dict[tuple[object, ...], list[Finding]],
            state: ModuleState) -> list[tuple[Cause, ValueFinding]]:
    api = use.api
    context = api.context if api is not None else UseContext.UNKNOWN
    uri_only = api.uri_only if api is not None else False
    c = _checked(use, state)
    # (an API with no base takes only an absolute URL; a value whose start is unknown may begin with a scheme)
    kind = "IRI-reference" if api is None or (api.relative and not (api.absolute and _known_start(c))) else "IRI"
    at_api = use.reason is Reason.URL_API
    if (api is not None and not api.takes(c.text)) or is_route_name(c.text, at_api) or is_host_port(c.text) or \
            (is_bare_prefix(c.text) and not (at_api and c.text)) or \
            (not at_api and (no_url(c.text, c.holes) or is_scp_address(c.text))
             and _outside_callee(use, state) not in PATH_JOINS):  # (a path join's or urljoin's value is one URL)
        return []  # a view's name, an address, a prefix, a local path: no URL (as ``literals`` decides for one literal)
    used_as_iri = not c.text.isascii() or (context is UseContext.IDENTIFIER and api is not None)
    enabled = checker.enabled if used_as_iri else checker.in_ascii
    on_base = use.client is not None and use.client.base is not None  # (a client's base URL + the literal)
    # a relative literal at an API or returned by a URL-named function: the literal scan, which resolves less
    # (``self.driver.get("/x")``, the driver bound in a classmethod) and reads no returns, may not have checked
    # it; what both find is one cause, kept once (a class statement's keyword: no literal scan reads it either)
    own_check = type(use.expr) in _LITERALS and type(use.node) is not ast.ClassDef and \
        not (at_api and not is_absolute_literal(c.text)) and \
        not (type(use.node) is ast.Return and not is_absolute_literal(_literal_start(use.expr))
             and not links_an_iri(_literal_text(use.expr)))  # (a Markdown link to an IRI: read anywhere)
    if (own_check and not _fields_known(use) and not on_base) or names_template(use.expr):
        # the literal itself (``literals`` checked it, with what it knows of it), or a name that says it
        # holds a template (whatever its placeholders look like): only what assembly gets wrong
        enabled &= ASSEMBLY_CODES
    if use.only is not None:
        enabled &= use.only
    c = _with_dates(use, c, state)
    idna_versions = checker.idna_versions or (api is not None and api.idna2008)
    key = (c.text, kind, context, c.holes, c.assembly, uri_only, idna_versions, enabled)
    findings = memo.get(key)
    if findings is None:
        ref = scan(c.text, kind, checker.config.profile)
        holes = with_placeholders(ref, c.holes)  # (``uri.rsplit("/", 1)[0] + "/[secret]"``: as a literal's)
        findings = memo[key] = check_ref(ref, context=context, enabled=enabled, holes=holes, uri_only_api=uri_only,
                                         idna_versions=idna_versions, assembly=c.assembly)
    if not findings:
        return []
    at = local.node_position(use.expr)
    # a template filled by % or .format before its use: what is left of its text is the URL's own
    filled = _fills(use.expr) or any(type(p) is Hole and p.kind is HoleKind.FIELD for p in use.value.pieces)
    # a URL-named name's value assembled in another module, or a URL-named helper's (``health_url()``,
    # ``self._url(...)``): that module checks it where it binds the name, or where the helper returns it
    name = _helper_name(use, state) if type(use.expr) is ast.Call else last_name(use.expr)
    by_url_name = name is not None and is_url_name(name, tuple(checker.config.url_names))
    placed: dict[Cause, list[tuple[Finding, Piece, SourcePos, ast.expr | None]]] = {}  # one cause's findings, in order
    for f in findings:
        o = c.origin(f.start)
        if o is None or (not at_api and at_an_end(f, c)):
            continue
        piece, k = (c.spelled_origin(f.start, f.end, local) if f.code in _SPELLED_FAULTS else None) or o
        if (f.code not in ASSEMBLY_CODES and not filled and in_template(piece)) or \
                _template_spells(c, f, use, checker, memo):
            continue  # a template's own text (only assembly is at fault), or a password its literal reports itself
        if c.assembly.urljoin is not None and f.start == c.assembly.urljoin[0] and use.dropped is not None:
            piece, k = _as_written(use.dropped[2], piece, k)  # the reference, from its first character
        start = position(piece, k, local)
        # (a value's second hole of one name, ``?uid={uid}`` after ``/users/{uid}``: at its own name, not the first)
        nth = _occurrence(c, f.start, piece) if type(piece) is Hole else 0
        if _reported_elsewhere(use, f.code, piece, k, start is None, by_url_name, checker, memo, state, nth):
            continue
        named: ast.expr | None = None
        if start is None or nth or _at_use(use, piece, k, f.code, checker, memo):
            named = _bringer(use, piece, state, nth) or use.expr  # at the name that brings it, once per use
            # (or where a join of this module made it, once)
            named = (start is None and _in_binding(use, named, piece, k, f.code, checker, memo, state)) or named
            start = local.node_position(named)
            cause = (f.code, start)
        else:
            cause = (f.code, literal_start(piece, local) or start)
        placed.setdefault(cause, []).append((f, piece, start, named))
    if not placed:
        return []
    lit = _literal(use, c, local, at, context, kind)
    out: list[tuple[Cause, ValueFinding]] = []
    for cause, group in placed.items():
        f, piece, start, named = group[0]
        f = merged([g[0] for g in group], c.text, "literal" if position(piece, 0, local) is not None else "value")
        f, spelled = _spelled_elsewhere(f, c, local) if named is not None else (f, None)
        fixed = _piece_fix(f.fix, c, use.expr, local) if f.fix is not None else None
        end = _end(c, f, piece, local, start) if named is None else _node_end(named, local)
        out.append((cause, ValueFinding(f if fixed is not None else replace(f, fix=None), lit, start, end, fixed,
                                        spelled)))
    return out


def _known_start(c: Checked) -> bool:
    """Whether the value starts with known text of a reference (no hole or placeholder at 0)."""
    return 0 not in c.assembly.unknown and starts_as_reference(c.text, c.holes)


def _checked(use: UrlValue, state: ModuleState) -> Checked:
    """The use's value as the rules check it; a literal its module %-formats is a printf template there (``%05d``
    a conversion, not ``%05``: fixtures97, repro 02)."""
    printf = frozenset().union(*(printf_templates(st.index.tree, st.src.file) for st in state.evaluator.states.values())
                               ) if any(type(p) is Text and "%" in p.text for p in use.value.pieces) else frozenset()
    # (a join's argument is one URL, but its template is filled later, where the join's value goes: not yet at an API)
    at_api = use.reason is Reason.URL_API and (use.api is None or use.api.name not in PATH_JOINS)
    return checked(use.value, at_api=at_api, dropped=use.dropped, printf=printf,
                   appends=use.api is not None and use.api.appends,
                   slash_base=use.api is not None and use.api.slash_base)


def _spelled_elsewhere(f: Finding, c: Checked, local: Src) -> tuple[Finding, Spelled | None]:
    """A finding placed at the name that brings another module's piece says where that piece spells the
    character (in its message, and as data for the reports): the reader at ``requests.get(CDN + RLO_SEG)``
    sees only the name."""
    past = f.start >= len(c.text) > 0  # (past the last character: an empty path at the value's end, IRI310)
    o = c.origin(len(c.text) - 1 if past else f.start)
    if o is None or type(o[0]) is not Text or o[0].src is None or o[0].src.path is None or \
            position(o[0], o[1], local) is not None:
        return f, None
    if (at := o[0].position(o[1] + past)) is None:
        return f, None
    spelled = o[0].src.path
    before = o[0].src.file.line_text(at.line)[: at.col]
    # (from the project root, as a run from there names files: `pkg/settings.py`, not `../settings.py`)
    where = os.path.relpath(spelled, find_root(os.path.dirname(os.path.abspath(local.path)))) if local.path \
        else spelled
    return replace(f, message=f"{f.message} (spelled in {where}:{at.line}:{at.col + 1})"), Spelled(
        os.path.abspath(spelled), at.line, at.col, "" if before.isascii() else before)


def _piece_fix(fix: Fix, c: Checked, expr: ast.expr, local: Src) -> PieceFix | None:
    """A value's fix, made in the one literal written in the use's expression that spells all it changes
    (``source.piece_edits``); none when a value that is not yet at a URL API holds a template placeholder,
    which a later ``%`` or ``.format`` of the whole value would read the fix's ``%`` or braces into (at the API
    nothing fills it any more: the fix is the literal's own, as ``urlopen("https://h.example/{u}/café")``'s)."""
    if (c.assembly.templates and not c.assembly.at_api) or _makes_empty_segment(c.text, fix.edits):
        return None
    got = spelling_literal(c, [(e.start, e.end) for e in fix.edits], expr, local)
    if got is None:
        return None
    lit, spans = got
    edits = tuple(Edit(a, b, e.replacement) for (a, b), e in zip(spans, fix.edits, strict=True))
    loc = lit.locator
    return PieceFix(lit, replace(fix, edits=edits, value=with_edits(lit.value, edits)),
                    loc is not None and loc.percent_template, loc is not None and loc.format_template)


def _makes_empty_segment(text: str, edits: Iterable[Edit]) -> bool:
    """Whether a fix puts a ``/`` beside one the value holds (``BASE_SLASH + "\u2215etc"`` -> ``//etc``): a
    path the fix's rung does not prove the same, an empty segment IRI802 reports (fixtures137, repro 01)."""
    return any((e.replacement.startswith("/") and text[e.start - 1 : e.start] == "/") or
               (e.replacement.endswith("/") and text[e.end : e.end + 1] == "/") for e in edits)


def _occurrence(c: Checked, at: int, piece: Piece) -> int:
    """How many parts of the checked value before offset ``at`` are ``piece`` too (a parameter's hole twice in
    ``f"/users/{uid}?uid={uid}"``)."""
    k = bisect_right(c.starts, at) - 1
    return sum(1 for p, _ in c.parts[: max(k, 0)] if same_piece(p, piece))


def _bringer(use: UrlValue, piece: Piece, state: ModuleState, nth: int = 0) -> ast.expr | None:
    """The name or attribute of the use's expression that brings a piece spelled in another module (``SPACE``
    in ``"https://t.example" + SPACE``): the ``nth`` in source order (outermost first) whose value holds it."""
    client = use.client
    if client is not None and client.base is not None and client.base_expr is not None and \
            client.src is state.src and holds(client.base, piece):
        # the base_url given where the client is made: the name in it, as that call's own check places it
        return _bringer(use._replace(client=None, expr=client.base_expr), piece, state) or client.base_expr
    if use.at is None or type(use.expr) in (ast.Name, ast.Attribute):
        return None  # (the use's own start)
    found: list[ast.expr] = []
    for n in ast.walk(use.expr):
        if type(n) in (ast.Name, ast.Attribute, ast.Call) and n is not use.expr:
            r = state.value(n, use.at)  # type: ignore[arg-type]
            if holds(r, piece):  # (a value, or a dict's or a tuple's: ``**DEFAULTS``, ``"%s:%d" % ADDR``)
                found.append(n)  # type: ignore[arg-type]
    # the innermost: the argument ``term`` of ``link(term)`` that brings its hole, the call ``clean(t)`` itself
    # when the helper made the piece
    found = sorted((n for n in found if not any(m is not n and written_within(m, n) for m in found)),
                   key=lambda n: (n.lineno, n.col_offset))
    return found[min(nth, len(found) - 1)] if found else None


def _node_end(node: ast.expr, local: Src) -> SourcePos:
    """Where an expression of this file ends: a finding placed at a name covers the name."""
    line = node.end_lineno or node.lineno
    return SourcePos(line, local.file.char_col(line, node.end_col_offset or 0))


def _as_written(ref: Value, piece: Piece, k: int) -> tuple[Piece, int]:
    """A ``urljoin`` reference's first character, which its resolution may have dropped (``./items``)."""
    first = next((p for p in ref.pieces if type(p) is Text and p.start != MADE), None)
    return (first, 0) if first is not None else (piece, k)


def _fields_known(use: UrlValue) -> bool:
    """Whether an f-string's value holds text its fields were found to hold (``f"{API}/{NAME}"``), which its
    literal's own check saw as holes."""
    return type(use.expr) is ast.JoinedStr and any(type(p) is Text and p.node is not use.expr for p in use.value.pieces)


def _fills(expr: ast.expr) -> bool:
    """Whether the use's expression fills a template: ``t % args``, ``t.format(...)``, ``t.format_map(...)``."""
    if type(expr) is ast.BinOp:
        return type(expr.op) is ast.Mod
    return type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in ("format", "format_map")


def _outside_callee(use: UrlValue, state: ModuleState) -> str | None:
    """The qualified name of the outside function the use's expression calls (``posixpath.join``); None when it
    is no call, or a call of the project's (a helper: ``source.helpers``)."""
    if type(use.expr) is not ast.Call or use.at is None:
        return None
    callee = state.value(use.expr.func, use.at)
    return callee.qual if type(callee) is Ref else None


def _helper_name(use: UrlValue, state: ModuleState) -> str | None:
    """The name of the project's helper the use's call is (``health_url()``, ``self._url(...)``: its return is
    checked where it is defined when the name says URL); None for a call of an outside function."""
    return None if use.at is None or _outside_callee(use, state) is not None else last_name(use.expr.func)  # type: ignore[attr-defined]


def _literal_start(expr: ast.expr) -> str:
    """The text a literal (or an f-string) starts with, up to its first field: what the literal scan reads."""
    first = expr.values[0] if type(expr) is ast.JoinedStr and expr.values else expr
    return first.value if type(first) is ast.Constant and type(first.value) is str else ""


def _literal_text(expr: ast.expr) -> str:
    """A literal's (or an f-string's) whole text, its fields spelled as ``HOLE``: what the literal scan reads."""
    if type(expr) is ast.Constant:
        return expr.value if type(expr.value) is str else ""
    return "".join(v.value if type(v) is ast.Constant and type(v.value) is str else HOLE
                   for v in getattr(expr, "values", ()))


def _left_there(use: UrlValue, piece: object, k: int, code: str, checker: ValueChecker,
                memo: dict[tuple[object, ...], list[Finding]]) -> bool:
    """Whether the module spelling a piece reports a problem of its character ``k`` itself."""
    return reported_there(piece) and not in_template(piece) and not _unseen_escape(use.expr, piece, k) and \
        not separated(piece.node.value, piece.start + k) and _found_alone(piece, k, code, checker, memo)  # type: ignore[arg-type,attr-defined]


def _reported_elsewhere(use: UrlValue, code: str, piece: Piece, k: int, other_module: bool, by_url_name: bool,
                        checker: ValueChecker, memo: dict[tuple[object, ...], list[Finding]],
                        state: ModuleState, nth: int = 0) -> bool:
    """Whether another place reports the problem at character ``k`` of ``piece`` (its ``nth`` occurrence in the
    value): the other module that spells it, or the binding of a URL-named name the use reads (``next_url =
    "/d/?c=" + code``: not again at ``redirect(next_url)``), which is checked itself; or the module that gives a
    client its base (fixtures95, repro 02)."""
    if (client := use.client) is not None and client.base is not None and client.src is not state.src and \
            holds(client.base, piece):
        return True  # (the base of a client another module makes: its ``base_url`` is a use there)
    if other_module:  # (a URL-named helper's own posixpath.join: its module reports it where it is returned)
        own = RULES_BY_CODE[code].family is not Family.ASSEMBLY
        return (own and _left_there(use, piece, k, code, checker, memo)) or (code not in AT_USE_CODES and (
            (not own and (by_url_name or code == "IRI813") and type(use.expr) is not ast.Call) or
            (code == "IRI804" and by_url_name and use.dropped is not None and use.dropped[0] == HELPERS) or
            found_where_bound(use, code, piece, k, checker, memo, state)))
    if type(piece) is not Hole:
        return False
    args = (*use.expr.args, *(k.value for k in use.expr.keywords)) if type(use.expr) is ast.Call else ()
    for a in args if by_url_name else ():  # (the helper's return is checked, with its parameters as holes)
        if piece.name == dotted(a) is not None or (written_within(piece.node, a) and _alone_in(a, use, state)):
            return True  # (the argument is that hole: what the helper's check finds; a name's: made once)
    return not written_within(piece.node, use.expr) and \
        found_where_bound(use, code, piece, k, checker, memo, state, nth)


def _alone_in(arg: ast.expr, use: UrlValue, state: ModuleState) -> bool:
    """Whether a helper's argument is one hole (``order_id``, ``str(n)``): its check sees what this one does;
    not with text of the argument around it (``api_url("search?q=" + term)``: fixtures145, repro 02)."""
    r = state.value(arg, use.at) if use.at is not None else None
    return type(r) is not Value or len(r.pieces) < 2


def _at_use(use: UrlValue, piece: Piece, k: int, code: str, checker: ValueChecker,
            memo: dict[tuple[object, ...], list[Finding]]) -> bool:
    """Whether a problem in a piece of this file is the use's, placed at the name bringing the piece: one a join makes
    in a constant the use only names (not a loop's item, a use of its own), or one at a hole bound elsewhere."""
    if type(piece) is Text:
        return not held_item(use.at, piece.node) and _made_by_join(use, piece, k, code, checker, memo)
    return type(piece) is Hole and not written_within(piece.node, use.expr)


# a fault in what a constant spells, whatever the join makes of it: a password is removed where it is written
_SPELLED_FAULTS = frozenset(("IRI506",))
# a percent-encoding's own fault (lowercase hex, an unreserved or an IRI's character encoded): its literal's, though
# the literal alone, a relative piece, is checked by no normalization rule (fixtures236 #2: once, not at each call)
_OWN_ENCODINGS = frozenset(("IRI305", "IRI306", "IRI405"))


def _made_by_join(use: UrlValue, piece: Text, k: int, code: str, checker: ValueChecker,
                  memo: dict[tuple[object, ...], list[Finding]]) -> bool:
    """Whether a problem at character ``k`` of a constant of this module, which the use only names, is one
    the join makes: the constant's literal, checked alone (an absolute IRI, or a reference), does not have it
    (``HEB + "abc"``, ``HEB + NUM`` with ``NUM = "42"``); a space of ``SEG = "a b"`` is the literal's own."""
    if code in _SPELLED_FAULTS or code in _OWN_ENCODINGS or type(use.expr) in (ast.Name, ast.Attribute) or \
            all(type(p) is Text and p.node is piece.node for p in use.value.pieces):
        return False  # no join at the use: the constant's own problem here (an IDNA2008 API's), or the one a
        # binding's join made (its literal, as that binding's check places it), placed in the literal
    node = piece.node
    return not written_within(node, use.expr) and RULES_BY_CODE[code].family is not Family.ASSEMBLY and \
        type(node) is ast.Constant and type(node.value) is str and \
        not _found_alone(piece, k, code, checker, memo, use.api)


def _template_spells(c: Checked, f: Finding, use: UrlValue, checker: ValueChecker,
                     memo: dict[tuple[object, ...], list[Finding]]) -> bool:
    """Whether a literal spelling part of a password has it alone: a template's, reported at its literal
    (``"...:{env}-Secr3t@".format(env=ENV)``), not again at ``ENV``'s ``prod`` (fixtures185 repro 01)."""
    return f.code in _SPELLED_FAULTS and any(
        (o := c.origin(i)) is not None and type(o[0]) is Text and type(o[0].node) is ast.Constant and
        _left_there(use, o[0], o[1], f.code, checker, memo) for i in range(f.start, max(f.end, f.start + 1)))


def _found_alone(piece: Text, k: int, code: str, checker: ValueChecker,
                 memo: dict[tuple[object, ...], list[Finding]], api: UrlApi | None = None) -> bool:
    """Whether the piece's literal, checked alone as its module checks it (or at ``api``, as this use's), has the
    finding at character ``k``: one the join makes (``HEB + "abc"`` mixing directions, ``E + "\\u0301"`` no
    longer NFC) is not; one the use's API makes of it (``urlopen(IDN + "/x")`` sends ASCII only) is."""
    text: str = piece.node.value  # type: ignore[attr-defined]
    key = ("alone", text, api)
    found = memo.get(key)
    if found is None:
        enabled = checker.enabled if not text.isascii() else checker.in_ascii
        kind = "IRI" if is_absolute_literal(text) else "IRI-reference"  # ("42", "/a b": a relative piece)
        found = memo[key] = check_ref(
            scan(text, kind, checker.config.profile), context=UseContext.UNKNOWN if api is None else api.context,
            enabled=enabled, uri_only_api=api is not None and api.uri_only,
            idna_versions=checker.idna_versions or (api is not None and api.idna2008))
    at = piece.start + k
    return any(f.code == code and f.start <= at < max(f.end, f.start + 1) for f in found)


def _with_dates(use: UrlValue, c: Checked, state: ModuleState) -> Checked:
    """``c`` with a strftime directive a hole where the module gives the URL-named name to ``strftime``
    (``day.strftime(STRF_URL)``): its value is a date's template however it is built (``source.filling``)."""
    if use.reason is not Reason.URL_NAME or use.name is None or "%" not in c.text or \
            use.name not in _dated_names(state.index.tree, state.src.file):
        return c
    return c._replace(holes=(*c.holes, *strftime_directives(c.text)))


@functools.lru_cache(maxsize=1)  # (one module's at a time: its URL-named values are checked together)
def _dated_names(tree: ast.Module, file: SourceFile) -> frozenset[str]:
    return frozenset(n for n, f in filled_names(tree, file).items() if f.dated)


def _in_binding(use: UrlValue, named: ast.expr, piece: Piece, k: int, code: str, checker: ValueChecker,
                memo: dict[tuple[object, ...], list[Finding]], state: ModuleState) -> ast.expr | None:
    """Where a join of this module made the problem another module's piece has at the name ``named`` brings it:
    ``API = HOST + V1`` (``V1`` from settings) already makes the ``//`` that ``requests.get(API + "/x")`` shows,
    so it is placed at ``V1`` in that binding, once for every use (one cause); None when the name's binding (one
    assignment, in this module) does not have it alone, when the piece alone has it, or for a template left
    unfilled (IRI805: at the use)."""
    if type(named) is not ast.Name or use.at is None or code in AT_USE_CODES or \
            (type(piece) is Text and type(piece.node) is ast.Constant and type(piece.node.value) is str and
             _found_alone(piece, k, code, checker, memo, use.api)):
        return None  # (a problem of the piece's own, an RLO's: the use's, as the name only brings it)
    if (bound := bound_once(named.id, use.at)) is None:
        return None
    value, at = bound
    r = state.value(value, at)
    if type(r) is not Value or not holds(r, piece) or not has_alone(r, code, piece, k, checker, memo):
        return None
    return _bringer(use._replace(expr=value, at=at, client=None), piece, state)


def _unseen_escape(expr: ast.expr, piece: object, k: int) -> bool:
    """Whether the use's ``.format`` or ``%`` made a piece's character from an escape of its template that the
    module spelling it cannot have reported: a brace of ``{{``/``}}`` (not knowing it ``.format``-ted, it read
    a placeholder there), or a ``%`` of ``%%`` that a placeholder follows within its two characters (those
    decide it: ``"…/50%%%s" % "zz"`` is ``…/50%zz``; a placeholder before it mends nothing, ``"…/%d%%"`` is seen)."""
    if type(piece) is not Text or piece.start == MADE or not _fills(expr):
        return False
    spelled = getattr(piece.node, "value", None)
    at = piece.start + k
    if type(spelled) is not str:
        return False
    if type(expr) is ast.Call:
        return spelled[at : at + 2] in ("{{", "}}")
    return spelled[at : at + 2] == "%%" and any(
        text is None and (a == at + 2 or (a == at + 3 and spelled[at + 2] in HEXDIG))
        for a, _, text in placeholder_spans(spelled, percent_template=True))


def _end(c: Checked, f: Finding, piece: object, local: Src, start: SourcePos) -> SourcePos:
    """Where a finding ends: after its last character in the piece it starts in (one past the joined scheme of
    IRI808's ``"https://" + HOST``, which goes on in the next piece: fixtures225 #1); after a hole's expression
    when the finding is at the hole (IRI806: ``... + term``)."""
    if type(piece) is Hole and piece.node is not None and position(piece, 0, local) == start:
        line = getattr(piece.node, "end_lineno", None)
        if line is not None:
            return SourcePos(line, local.file.char_col(line, getattr(piece.node, "end_col_offset", 0) or 0))
    if f.end <= f.start + 1:
        return SourcePos(start.line, start.col + 1) if f.end > f.start and type(piece) is Text else start
    o = c.origin(f.end - 1)
    if o is not None and o[0] is not piece:
        at = max((i for i in offsets_of(c, piece) if f.start <= i < f.end), default=None)  # type: ignore[arg-type]
        o = c.origin(at) if at is not None else None
    if o is None or o[0] is not piece:
        return start
    last = position(o[0], o[1], local)
    return start if last is None else SourcePos(last.line, last.col + 1)


def _literal(use: UrlValue, c: Checked, local: Src, at: SourcePos, context: UseContext, kind: str) -> Literal:
    """The use as the reports show it: the assembled text, from the expression's start to its end."""
    expr = use.expr
    line = getattr(expr, "end_lineno", None) or at.line
    end = SourcePos(line, local.file.char_col(line, getattr(expr, "end_col_offset", 0) or 0))
    api = use.api
    return Literal(value=c.text, reason=use.reason, context=context, kind=kind, start=at, end=end, holes=c.holes,
                   api=api.name if api is not None else None, uri_only_api=api.uri_only if api is not None else False,
                   idna2008_api=api is not None and api.idna2008, placeholders=c.assembly.templates)
