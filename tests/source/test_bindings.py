"""Where a module binds its names: the module scope's imports, found without indexing the scope."""

from __future__ import annotations

import ast
import pathlib
import sysconfig
import textwrap

import pytest

from iri_lint.source.bindings import Kind, ModuleIndex, module_imports

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
