"""Where a module binds its names: the module scope's imports, found without indexing the scope."""

from __future__ import annotations

import ast
import pathlib
import sysconfig
import textwrap

import pytest

from iri_lint.source.bindings import Binding, Kind, ModuleIndex
from iri_lint.source.blocks import module_imports

STDLIB = pathlib.Path(sysconfig.get_paths()["stdlib"])
SAMPLE = """\
    import a.b, c as d
    try:
        from .e import f
    except ImportError:
        from g import *
    else:
        import h
    finally:
        import i
    if x:
        import j
    elif y:
        for k in z:
            import l
        else:
            import m
    while w:
        with n:
            import o
    match v:
        case 1:
            import p
    def q():
        import r
    class S:
        import t
"""


def _bound_imports(tree: ast.Module) -> set[int]:
    """The import statements behind the module scope's bindings (star imports included)."""
    scope = ModuleIndex(tree).module
    bound = [b for bs in scope.names.values() for b in bs if b.kind is Kind.IMPORT] + scope.stars
    return {id(b.stmt) for b in bound}


@pytest.mark.parametrize("name", ["argparse.py", "typing.py", "ssl.py", "pydoc.py", "tarfile.py", "os.py"])
def test_module_imports_are_those_the_module_scope_binds(name: str) -> None:
    tree = ast.parse((STDLIB / name).read_text(encoding="utf-8"))
    assert {id(s) for s in module_imports(tree)} == _bound_imports(tree)


def test_module_imports_in_every_kind_of_block_but_functions_and_classes() -> None:
    tree = ast.parse(textwrap.dedent(SAMPLE))
    found = [s.lineno for s in module_imports(tree)]
    assert sorted(found) == [1, 3, 5, 7, 9, 11, 14, 16, 19, 22]
    assert set(map(id, module_imports(tree))) == _bound_imports(tree)


def _plain(bindings: list[Binding]) -> list[tuple[object, ...]]:
    """Bindings with their method's node for its scope (each index makes its own scopes)."""
    return [(*b[:-1], b.scope.node if b.scope is not None else None) for b in bindings]


def _classes(tree: ast.Module) -> list[ast.ClassDef]:
    return [n for n in ast.walk(tree) if type(n) is ast.ClassDef]


@pytest.mark.parametrize("name", ["argparse.py", "tarfile.py", "http/client.py", "logging/__init__.py",
                                  "asyncio/base_events.py", "email/message.py"])
def test_one_attributes_bindings_are_those_of_the_whole_index(name: str) -> None:
    """``Scope.attr`` reads only the statements on the attribute's lines; it finds what ``attrs`` finds, in the
    same order (the first of bindings that agree gives the value)."""
    text = (STDLIB / name).read_text(encoding="utf-8")
    tree = ast.parse(text)
    whole, lazy = ModuleIndex(tree, text), ModuleIndex(tree, text)
    for node in _classes(tree):
        parent_whole, parent_lazy = whole.module, lazy.module  # (the parent scope plays no part here)
        full = whole.scope(node, parent_whole).attrs
        one = lazy.scope(node, parent_lazy)
        for attr in [*full, "not_bound_anywhere", "self", "__init__"]:
            assert _plain(one.attr(attr)) == _plain(full.get(attr, [])), (node.name, attr)


def test_one_attribute_where_the_text_cannot_tell() -> None:
    """Non-ASCII text in the class (an identifier there may be written otherwise), a carriage return, or
    no text: the whole index is read."""
    src = "class A:\n    def f(self):\n        self.ﬁle = 1\n        self.x = 2\n"  # U+FB01: 'fi' after NFKC
    tree = ast.parse(src)
    (cls,) = _classes(tree)
    for text in (src, src.replace("\n", "\r\n"), None):
        index = ModuleIndex(tree, text)
        scope = index.scope(cls, index.module)
        assert [b.stmt.lineno for b in scope.attr("file")] == [3]  # type: ignore[union-attr]
        assert [b.stmt.lineno for b in scope.attr("x")] == [4]  # type: ignore[union-attr]


@pytest.mark.parametrize("test", ["TYPE_CHECKING", "typing.TYPE_CHECKING", "t.TYPE_CHECKING"])
def test_a_type_checking_block_binds_nothing_at_run_time(test: str) -> None:
    """``if TYPE_CHECKING:`` never runs: its imports and assignments leave the name unbound (a hole), and its
    ``else:`` is what binds."""
    src = f"if {test}:\n    from .settings import HOST\n    X = 'a'\nelse:\n    X = 'b'\nif DEBUG:\n    Y = 'c'\n"
    scope = ModuleIndex(ast.parse(src)).module
    assert "HOST" not in scope.names
    assert [b.pos[0] for b in scope.names["X"]] == [5]
    assert [b.pos[0] for b in scope.names["Y"]] == [7]  # any other condition may run
    assert [s.lineno for s in module_imports(ast.parse(src))] == []
