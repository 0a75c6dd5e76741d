"""Which attributes a module binds on objects from outside their classes (issue #27).

An object a project class makes is read through its class (``api = Api()``: ``api.BASE`` is ``Api.BASE``)
only where nothing may have bound the attribute on the object itself: ``api.BASE = ...``, ``setattr(api,
...)``, ``api.__dict__.update(...)``, ``vars(api)[...] = ...``. That is read from the module's text, one
search per dot, so it errs one way only: a word in a string or a comment makes one more hole.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from iri_lint.source.bindings import ATTRIBUTE_BINDING
from iri_lint.source.marks import matching_open
from iri_lint.source.values import Seq, Table

if TYPE_CHECKING:
    import ast

    from iri_lint.source.bindings import Binding, Scope
    from iri_lint.source.evaluate import ModuleState, Result
    from iri_lint.source.objects import Instance
    from iri_lint.source.values import Src

__all__ = ["EVERY", "as_changed_in_place", "attributes_set_on_objects", "binds_any", "containers_changed",
           "globals_rebound", "rebinds_module_attribute", "rebound_on"]

# any attribute may be bound (a ``setattr``, ``__dict__`` or ``vars`` in the text)
EVERY: dict[str, frozenset[str]] = {"*": frozenset()}
_DYNAMIC = ("setattr(", "__dict__", "vars(")
_RECEIVERS = frozenset(("self", "cls"))  # (a class's own methods bind those: the class's scope reads them)


@functools.lru_cache(maxsize=256)
def attributes_set_on_objects(text: str) -> dict[str, frozenset[str]]:
    """The attributes ``text`` binds on anything but ``self``/``cls``, each with the words before its dot
    (empty after ``)`` or ``]``); ``EVERY`` when it may bind any."""
    if any(word in text for word in _DYNAMIC):
        return EVERY
    return _bound_attributes(text)


@functools.lru_cache(maxsize=1024)  # (asked at each ``settings.X`` a value reads: one scan of the text each)
def rebinds_module_attribute(text: str, attr: str) -> bool:
    """Whether a module's text may bind ``attr`` on a module it imports (``settings.API_ROOT = ...``, a test's
    ``monkeypatch.setattr(settings, "API_ROOT", ...)``, ``mock.patch("pkg.settings.API_ROOT", ...)``): the name,
    or a string naming it, with the assignment or the ``setattr``/``patch``, or a keyword of Django's
    ``override_settings`` (it errs one way: one more hole)."""
    if any(word in text for word in _REBINDERS) and any(f"{q}{attr}{q}" in text or f".{attr}{q}" in text
                                                        for q in "\"'"):
        return True
    if any(word in text for word in _KEYWORD_REBINDERS) and f"{attr}=" in text:
        return True  # (Django's ``@override_settings(API_ROOT=...)``, ``with self.settings(API_ROOT=...)``)
    return attr in _bound_attributes(text)


# what binds an attribute named by a string: ``setattr``, pytest's ``monkeypatch.setattr``, ``mock.patch("m.X")``,
# ``mock.patch.object(m, "X")``
_REBINDERS = ("setattr(", "patch(", "patch.object(")
# what binds settings by keyword for a test: Django's ``override_settings`` and ``TestCase.settings``
_KEYWORD_REBINDERS = ("override_settings(", ".settings(")


@functools.lru_cache(maxsize=256)
def _bound_attributes(text: str) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    i = text.find(".")
    while i >= 0:
        m = ATTRIBUTE_BINDING.match(text, i)  # (``.x =``, ``.x +=``: from the dot)
        if m is not None:
            receiver = _receiver(text, i)
            if receiver not in _RECEIVERS:
                found.setdefault(m.group(1), set()).add(receiver)
        i = text.find(".", i + 1)
    return {attr: frozenset(words) for attr, words in found.items()}


def rebound_on(obj: Instance, attr: str, using: ModuleState) -> bool:
    """Whether the module using an object, the one that made it or its class's may bind ``attr`` on it: on
    anything but a class of that module (``K.ROOT = ...`` is that class's own: ``ModuleIndex.rebound_outside``)."""
    for state in (using, obj.made, obj.state):
        index = state.index if state is not None else None
        if index is None or index.text is None:
            return True
        found = attributes_set_on_objects(index.text)
        if found is EVERY or not found.get(attr, frozenset()) <= index.classes().keys():
            return True
    return False


def binds_any(cls: Scope, src: Src, attr: str = "") -> bool:
    """Whether a class's own statements may bind any attribute of its objects (``setattr(self, k, v)``,
    ``self.__dict__.update(kw)``), or name ``attr`` among the fields a framework renders before its methods run
    (Airflow's ``template_fields = ("report_url", ...)``): read from its lines."""
    node = cls.node
    first, last = getattr(node, "lineno", 1), getattr(node, "end_lineno", None)
    if last is None:
        return True
    text = "\n".join(src.file.lines[first - 1 : last])  # (one search per word: a class is read at each attribute)
    if any(word in text for word in _DYNAMIC):
        return True
    return bool(attr) and "template_fields" in text and (f'"{attr}"' in text or f"'{attr}'" in text)


def _receiver(text: str, dot: int) -> str:
    """The word right before a dot (empty after ``)``, ``]`` or a space-separated other character)."""
    j = dot
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    k = j
    while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
        k -= 1
    return text[k:j]


# what rebinds a module's own names by name at run time: any name (``globals().update(d)``, ``exec(code)``,
# ``setattr(sys.modules[__name__], k, v)``), or the one a ``globals()[...] = v`` subscript names
_ANY_GLOBAL = re.compile(r"globals\(\)\.(?:update|setdefault)\(|(?<![\w.])exec\(|sys\.modules\[__name__\]")
_NAMED_GLOBAL = re.compile(r"globals\(\)\[\s*+['\"]([A-Za-z_]\w*+)['\"]\s*+\]")
_SUBSCRIPT = "globals()["


@functools.lru_cache(maxsize=256)
def globals_rebound(text: str) -> frozenset[str] | None:
    """The module-level names a module's text rebinds by name (``globals()["HOST"] = ...``); None when it may
    rebind any. Read from the text, so it errs one way only: one more hole. Linear: each subscript's line is
    read up to the next subscript."""
    if "globals()" not in text and "exec(" not in text and "sys.modules" not in text:
        return frozenset()
    if _ANY_GLOBAL.search(text) is not None:
        return None
    names: set[str] = set()
    i = text.find(_SUBSCRIPT)
    while i >= 0:
        nxt = text.find(_SUBSCRIPT, i + 1)
        end = text.find("\n", i)
        end = min(e for e in (end, nxt, len(text)) if e >= 0)
        eq = text.find("=", i, end)
        if eq > 0 and text[eq + 1 : eq + 2] != "=" and text[eq - 1] not in "=!<>" and \
                text[i:eq].rstrip(" \t+-*/%&|^@").endswith("]"):  # (an assignment, augmented too; no comparison)
            m = _NAMED_GLOBAL.match(text, i)
            if m is None:
                return None  # (a key computed at run time: any name)
            names.add(m.group(1))
        i = nxt
    return frozenset(names)


# what changes a list or dict in place: growing it at its end keeps its first items (``parts.append(x)``), the
# rest may change any item; an item's assignment or deletion (``parts[0] = x``, ``del d["k"]``) too
_GROWERS = re.compile(r"\.[ \t]*+(?:append|extend)[ \t]*+\(")
_CHANGERS = re.compile(
    r"\.[ \t]*+(?:insert|remove|pop|popitem|clear|sort|reverse|update|setdefault|__setitem__|__delitem__)[ \t]*+\(")
_ITEM_STORE = re.compile(r"\][ \t]*+(?:[-+*/%&|^@]|\*\*|//|<<|>>)?=(?!=)")
_ITEM_DELETE = re.compile(r"\bdel[ \t]++([A-Za-z_]\w*+)[ \t]*+\[")
_BRACKETS_BACK = 200  # how far back an item store's ``[`` is looked for (further: any container may change)


@functools.lru_cache(maxsize=256)
def containers_changed(text: str) -> tuple[frozenset[str], frozenset[str] | None]:
    """The names (or attributes) a module's text grows at their end in place (``.append``/``.extend``), and
    those it may change otherwise (another mutating method, an item's assignment or deletion; None: any).
    Read from the text, so it errs one way only: one more hole. Linear: each store's brackets are read back at
    most ``_BRACKETS_BACK`` characters."""
    grown = {_receiver(text, m.start()) for m in _GROWERS.finditer(text)}
    changed = {_receiver(text, m.start()) for m in _CHANGERS.finditer(text)}
    changed.update(m.group(1) for m in _ITEM_DELETE.finditer(text))
    for m in _ITEM_STORE.finditer(text):
        opening = matching_open(text, m.start(), "[]", _BRACKETS_BACK, one_line=True)
        if opening < 0:
            return frozenset(grown), None
        changed.add(_receiver(text, opening))
    return frozenset(grown), frozenset(changed)


def as_changed_in_place(r: Result, b: Binding, scope: Scope, text: str | None, src: Src) -> Result | None:
    """What a list or dict display bound by ``b`` in ``scope`` holds where the scope's text (a module's: all of
    it) may change it in place (None: unknown, a hole): a list grown at its end keeps its first items (an open
    ``Seq``). ``r`` otherwise."""
    if type(r) not in (Seq, Table) or b.stmt is None or type(b.value).__name__ not in ("List", "Dict"):
        return r
    if scope.kind != "module":
        first, last = getattr(scope.node, "lineno", 1), getattr(scope.node, "end_lineno", None)
        text = None if last is None else "\n".join(src.file.lines[first - 1 : last])
    if text is None:
        return None
    grown, changed = containers_changed(text)
    names = _target_names(b.stmt)
    if changed is None or not names.isdisjoint(changed):
        return None
    if names.isdisjoint(grown):
        return r
    return r._replace(open=True) if type(r) is Seq else None


def _target_names(stmt: ast.stmt) -> frozenset[str]:
    """The names and attributes an assignment binds (one level of tuple targets)."""
    targets = list(getattr(stmt, "targets", ())) or [getattr(stmt, "target", None)]
    out: set[str] = set()
    for t in targets:
        for e in getattr(t, "elts", None) or [t]:
            word = getattr(e, "id", None) or getattr(e, "attr", None)
            if word:
                out.add(word)
    return frozenset(out)
