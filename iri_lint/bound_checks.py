"""What the binding of a name reports itself (issue #27), so that a use of the name does not report it again.

A URL-named name's value is checked where it is bound (``GAP_URL = CDN + "/a b"``), another module's literal
where it is spelled: a use that reads it (``requests.get(GAP_URL + "/x")``) reports what only its join or its
API makes. These checks re-read a value as that binding, or that module, reads it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from .core.scanner import scan
from .rules.engine import check_ref
from .rules.model import Finding, UseContext
from .source.assembled import Checked, checked
from .source.bindings import At, Kind, Scope
from .source.candidates import (
    SEPARATOR,
    iri_text,
    is_absolute_literal,
    is_delimited,
    is_url_name,
    looks_like_prose,
    looks_like_regex,
)
from .source.env_defaults import with_env_defaults
from .source.evaluate import ModuleState
from .source.helpers import returned_alone
from .source.template_names import last_name
from .source.urlvalues import UrlValue
from .source.values import MADE, Piece, Text, Value, holds, same_piece

if TYPE_CHECKING:
    from .values_check import ValueChecker

__all__ = ["at_an_end", "bound_once", "found_where_bound", "has_alone", "offsets_of", "reported_there", "separated",
           "whitespace_at_an_end"]


def reported_there(piece: object) -> bool:
    """Whether another module reports a problem of this piece itself: its literal is an absolute IRI as that
    module's literals take one (``is_absolute_candidate``: ``"admin:Zq9xT7"`` is none), and not a template
    by its name, which that module leaves to where it is filled."""
    if type(piece) is not Text:
        return False
    node = piece.node
    if type(node) is not ast.Constant or type(node.value) is not str:
        return False
    return is_absolute_literal(node.value)


def separated(text: str, at: int, *, url_name: bool = False) -> bool:
    """Whether character ``at`` of a literal is outside the IRIs its module reads in it (``literals``): whitespace
    at an end separates (``"http://h:9000 "``), and a text of words is prose there (unless the literal is bound
    to a URL-named name); only the use's join or API makes them one URL."""
    if looks_like_regex(text) or is_delimited(text):
        return True
    if SEPARATOR.search(text) is None:
        return False
    items = iri_text(text)
    if items.listed:
        return not any(a <= at < b for a, b in items.items)
    return not url_name if items.injection else looks_like_prose(text, url_context=url_name)


def found_where_bound(use: UrlValue, code: str, piece: Piece, k: int, checker: ValueChecker,
                      memo: dict[tuple[object, ...], list[Finding]], state: ModuleState, nth: int = 0) -> bool:
    """Whether a module binding a URL-named name the use reads (``GAP_URL`` in ``GAP_URL + "/x"``, or through a
    local name bound once, ``base = GAP_URL if f else BASE``), or a URL-named helper it calls, finds the problem
    at character ``k`` of ``piece`` there: it checks that value as a URL-named target's, without the use's API
    (``urlopen``'s ASCII), where the environment leaves its reads unset too, and reports it in its own file."""
    if use.at is None:
        return False
    url_names = tuple(checker.config.url_names)
    for expr, at in ((use.expr, use.at), *_bound_once(use.expr, use.at, url_names)):
        for n in ast.walk(expr):
            if not isinstance(n, ast.expr):
                continue
            name = last_name(n.func if type(n) is ast.Call else n)
            if name is None or not is_url_name(name, url_names):
                continue
            # (a helper's value as its module checks it, its parameters unknown: what it reports there)
            r = returned_alone(state, n, at) if type(n) is ast.Call else state.value(n, at)
            if type(r) is not Value or not holds(r, piece):
                continue
            if len(r.pieces) == 1 and reported_there(piece) and \
                    separated(piece.node.value, piece.start + k, url_name=True):  # type: ignore[union-attr]
                continue  # bound to the literal alone: its module checks the IRI in it, not what separates it
            unset = with_env_defaults(r, state.evaluator)  # (``ENV_URL = os.getenv("ROOT", "https://h") + "v2/"``)
            if any(v is not None and has_alone(v, code, piece, k, checker, memo, nth if n is use.expr else 0)
                   for v in (r, unset)):  # (the name alone: the same occurrences of a piece)
                return True
    return False


def _bound_once(expr: ast.expr, at: At, url_names: tuple[str, ...]) -> tuple[tuple[ast.expr, At], ...]:
    """The value and place of each name ``expr`` reads that is no URL name and is bound once by ``=`` (``base``
    of ``base = GAP_URL if flag else BASE``): the URL-named names it reads reach the use through it."""
    return tuple(bound for n in ast.walk(expr) if type(n) is ast.Name and not is_url_name(n.id, url_names)
                 and (bound := bound_once(n.id, at)) is not None)


def bound_once(name: str, at: At) -> tuple[ast.expr, At] | None:
    """The value and place of the one ``=`` that binds ``name`` where ``at`` reads it (past class bodies, as a
    function reads names), None for a name bound otherwise or more than once."""
    scope: Scope | None = at.scope
    while scope is not None and (name not in scope.names or scope.kind == "class") and scope.parent is not None:
        scope = scope.parent
    bindings = scope.names.get(name, []) if scope is not None else []
    if len(bindings) != 1 or (b := bindings[0]).kind is not Kind.ASSIGN or b.value is None or scope is None:
        return None
    return b.value, At(b.scope or scope, b.stmt)


def has_alone(r: Value, code: str, piece: Piece, k: int, checker: ValueChecker,
              memo: dict[tuple[object, ...], list[Finding]], nth: int = 0) -> bool:
    """Whether value ``r``, checked alone as a URL-named target's, has the problem ``code`` at character ``k`` of
    ``piece`` (its ``nth`` occurrence there)."""
    c = checked(r, at_api=False)
    ats = [i for i in offsets_of(c, piece) if (o := c.origin(i)) is not None and spot(*o) == spot(piece, k)]
    if not ats:
        return False
    enabled = checker.enabled if not c.text.isascii() else checker.in_ascii
    key = ("bound", c.text, c.holes, c.assembly, enabled)
    found = memo.get(key)
    if found is None:
        found = memo[key] = check_ref(scan(c.text, "IRI-reference", checker.config.profile),
                                      context=UseContext.UNKNOWN, enabled=enabled, holes=c.holes,
                                      idna_versions=checker.idna_versions, assembly=c.assembly)
    at = ats[min(nth, len(ats) - 1)]
    return any(g.code == code and g.start == at and not at_an_end(g, c) for g in found)


def at_an_end(f: Finding, c: Checked) -> bool:
    """Whether a finding is whitespace at an end of an absolute IRI's value, or of one a hole begins that more text
    follows (which the hole may make absolute, ``"{}/feed.xml\\n".format(base)``: fixtures242): at a URL-named
    target it separates the IRI from the text around it (3987bis sec. 6.3), as a literal's does there
    (``candidates.iri_text``); only a URL API takes it into the URL."""
    return whitespace_at_an_end(f, c.text, c.holes)


def whitespace_at_an_end(f: Finding, text: str, holes: Sequence[tuple[int, int]]) -> bool:
    """``at_an_end`` of a text with template ``holes``: a literal's at a URL-named target (fixtures242 #2)."""
    if not ((f.start == 0 or f.end == len(text)) and f.end > f.start and not text[f.start : f.end].strip()):
        return False
    core = text.strip()
    first = len(text) - len(text.lstrip())
    return is_absolute_literal(core) or any(a == first and b < first + len(core) for a, b in holes)


def spot(piece: Piece, k: int) -> int:
    """Where character ``k`` of a piece is in its literal (an f-string's pieces share one node)."""
    return piece.start + k if type(piece) is Text and piece.start != MADE else k


def offsets_of(c: Checked, piece: Piece) -> Iterator[int]:
    """The offsets of ``c.text`` that ``piece`` spells."""
    for n, (p, _) in enumerate(c.parts):
        if same_piece(p, piece):
            yield from range(c.starts[n], c.starts[n + 1] if n + 1 < len(c.starts) else len(c.text))
