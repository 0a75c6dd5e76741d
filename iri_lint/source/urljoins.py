"""What ``urljoin`` calls drop of their bases' paths (IRI804), wherever the values they give go.

A ``urljoin`` result (or a URL object's ``.join``) reaches a URL API through names, ``+``, formats; the
evaluator notes each call that
drops part of its base's path by the literal its reference starts in, and a URL value holding that
reference as the call left it (after the part of the base it kept) is the call's.
"""

from __future__ import annotations

import ast

from iri_lint.source import assembly
from iri_lint.source.bindings import At
from iri_lint.source.blocks import inside
from iri_lint.source.calls import URLJOINS, Args, known_text, urljoin_drops
from iri_lint.source.values import MADE, Method, Text, Value, dotted, each_choice

__all__ = ["HELPERS", "POSIX", "UrljoinNotes", "reads_frame"]

POSIX = "posixpath absolute"  # the kind of drop a posixpath.join makes (IRI804's message names it)
# one a helper's own text decides: its module reports it where it returns it when the helper is named for a URL
# (``values_check``), not again at each caller, though it explains their value
HELPERS = f"{POSIX}, a helper's own"


class UrljoinNotes:
    """The ``urljoin`` calls of one evaluation that drop part of their base's path."""

    __slots__ = ("_by_call", "_by_literal")

    def __init__(self) -> None:
        # the literal spelling a reference's first character -> (kind, what is dropped, reference, result,
        # whether a ``urljoin`` call made it: that call is checked itself, where it stands)
        self._by_literal: dict[int, tuple[str, str, Value, Value, bool]] = {}
        self._by_call: dict[int, tuple[str, str, Value]] = {}  # id() of a urljoin call -> what it drops

    def note(self, args: Args, resolved: Value, call: object, *, in_helper: bool = False) -> None:
        """A ``urljoin`` call (the node ``call``) with these arguments gave ``resolved`` (RFC 3986 sec. 5.2);
        ``in_helper``: in a helper read at a call, its parameters holding the call's arguments, which its own
        module's check of the call does not know: the value it gives is what carries the fault."""
        found = urljoin_drops(args)
        if found is not None:
            self._by_call[id(call)] = found
        self._record(found, resolved, call=not in_helper)

    def note_call(self, qual: str, args: Args, resolved: object, call: ast.Call, at: At) -> None:
        """A call of a join the model carries out gave ``resolved``: what it drops, if anything (``urljoin``,
        RFC 3986 sec. 5.2; ``posixpath.join``, a part that starts with ``/``)."""
        if type(resolved) is not Value:
            return
        if qual in URLJOINS:
            self.note(args, resolved, call, in_helper=reads_frame(call, at) and not _decided_here(args, call, at))
        elif qual == "posixpath.join":
            self.note_posix(args, resolved, HELPERS if reads_frame(call, at) and _posix_decided_here(args, call, at)
                            else POSIX)

    def of_call(self, call: object) -> tuple[str, str, Value] | None:
        """What the ``urljoin`` call ``call`` drops, once its value was asked for (even a reference the
        resolution removes whole: ``"."``)."""
        return self._by_call.get(id(call))

    def note_method(self, method: Method, args: Args, resolved: object) -> None:
        """A URL object's ``.join(ref)`` (yarl's, httpx's: the same resolution) gave ``resolved``."""
        if method.attr != "join" or type(method.owner) is not Value or method.owner.type == "str" or \
                type(resolved) is not Value:
            return
        (ref,) = args.pick(("url",))
        if ref is not None and type(ref[0]) is Value and not args.unknown:
            found = assembly.urljoin_drops(method.owner, ref[0])
            self._record(None if found is None else (f"join {found[0]}", found[1], ref[0]), resolved, call=False)

    def note_posix(self, args: Args, resolved: Value, kind: str = POSIX) -> None:
        """``posixpath.join(url, ..., "/x")``: a part that starts with ``/`` throws away all before it, the URL's
        scheme and host too (``posixpath.join("https://cdn.example/static", "/img/a.png")`` is ``/img/a.png``)."""
        parts = [known_text(item) for item in args.positional or ()]
        for k in range(len(parts) - 1, 0, -1):
            part = parts[k]
            if part is not None and part.flat().startswith("/") and not part.is_hole(0):
                # (a base that is a choice, ``CDN if x else API``: the first of its values that is a URL)
                url = next((c for p in parts[:k] if p is not None for c in each_choice(p) or (p,) if "://" in c.flat()),
                           None)
                if url is not None:
                    self._record((kind, url.flat(), part), resolved, call=False)
                return

    def _record(self, found: tuple[str, str, Value] | None, resolved: Value, *, call: bool) -> None:
        if found is not None:
            first = next((p for p in found[2].pieces if type(p) is Text and p.start != MADE), None)
            if first is not None:
                self._by_literal[id(first.node)] = (*found, resolved, call)

    def dropped(self, value: Value) -> tuple[str, str, Value] | None:
        """What a ``urljoin`` whose result ``value`` holds dropped of its base's path: the first reference
        found there as the resolution left it, after the part of the base it kept (the same literal may
        reach other values without the ``urljoin``). Only a URL object's ``.join``: a ``urljoin`` call is
        checked where it stands (``of_call``)."""
        if not self._by_literal:
            return None
        pieces = value.pieces
        for k, p in enumerate(pieces):
            if type(p) is Text and p.start != MADE:
                found = self._by_literal.get(id(p.node))
                if found is None:
                    continue
                kind, lost, ref, resolved, by_call = found
                if by_call:
                    continue
                made = resolved.pieces
                j = next((j for j, q in enumerate(made) if type(q) is Text and q.node is p.node), 0)
                if (k and j and made[j - 1] == pieces[k - 1]) or (kind.startswith(POSIX) and not j and made[0] == p):
                    return kind, lost, ref  # (posixpath.join's value starts at the absolute part)
        return None

    def clear(self) -> None:
        self._by_literal.clear()
        self._by_call.clear()

def _decided_here(args: Args, call: ast.Call, at: At) -> bool:
    """Whether what a ``urljoin`` in a helper drops is decided by the helper's own text: the base a value of
    its module with no hole, the reference starting with a literal of the call (``urljoin(CDN, "files/" +
    name)``): its module's own check of the call finds it, so the helper's callers do not report it again
    (fixtures202 repro 01). Not a base the frame gives (a loop's item, ``for m in MIRRORS: urljoin(m, "x")``:
    the call alone is no value, fixtures203 repro 03)."""
    given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "base"), None)
    if given is None or _reads(given, at):
        return False
    base, ref = args.pick(("base", "url"))
    if base is None or ref is None or type(base[0]) is not Value or type(ref[0]) is not Value:
        return False
    first = ref[0].pieces[0] if ref[0].pieces else None
    return type(first) is Text and first.start != MADE and inside(first.node, call) and \
        all(type(p) is Text for p in base[0].pieces)  # (a base the helper's module knows whole: fixtures209 repro 03)


def _posix_decided_here(args: Args, call: ast.Call, at: At) -> bool:
    """Whether what a ``posixpath.join`` in a helper drops is decided by the helper's own text, its absolute part
    starting with a literal of the call and every part before it known whole (``posixpath.join(CDN, "/idx/" +
    name)``): a URL-named helper's own module checks its return, so its callers in other modules do not report it
    again (fixtures202 repro 01)."""
    parts = [known_text(item) for item in args.positional or ()]
    k = next((k for k in range(len(parts) - 1, 0, -1) if (p := parts[k]) is not None and p.flat().startswith("/")), 0)
    first = p.pieces[0] if k and (p := parts[k]) is not None and p.pieces else None
    return type(first) is Text and first.start != MADE and inside(first.node, call) and \
        all(p is not None and all(type(q) is Text for q in p.pieces) for p in parts[:k]) and \
        not any(_reads(a, at) for a in call.args[:k])


def reads_frame(call: ast.Call, at: At) -> bool:
    """Whether a call's arguments read a parameter of the helper read at a call (``at.frame``): what the call
    gives there is the caller's, which the helper's own module does not know (or a loop's item, a choice)."""
    return any(_reads(a, at) for a in (*call.args, *(k.value for k in call.keywords)))


def _reads(expr: ast.expr, at: At) -> bool:
    """Whether ``expr`` reads a name the frame gives (a parameter, a loop's item, a module name's choice)."""
    frame = at.frame
    return frame is not None and any((type(n) is ast.Name and n.id in frame) or
                                     (type(n) is ast.Attribute and dotted(n) in frame) for n in ast.walk(expr))
