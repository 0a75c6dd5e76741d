"""The layers of docs/design.md import only downward: core <- source, rules <- pipeline <- front ends.

Every import is read from the source (module-level and inside functions), so a lazy import cannot
hide an upward edge. A violation names the file, the line and the layer it may not reach.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "iri_lint"

# layer -> the iri_lint layers it may import (itself included); the map in docs/design.md
ALLOWED: dict[str, set[str]] = {
    "data": {"data"},
    "core": {"core", "data"},
    "source": {"source", "core", "data"},
    "rules": {"rules", "core", "data"},
    "pipeline": {"pipeline", "rules", "source", "core", "data"},  # config, lint, noqa, fix, fileio
    "front": {"front", "pipeline", "rules", "source", "core", "data", "package"},  # cli, flake8, lsp
}
PIPELINE = {"config", "lint", "noqa", "fix", "fileio"}
FRONT = {"cli", "flake8_plugin", "lsp", "__main__"}
# third-party packages a layer may not use: the IRI core knows no linter and no CST
FORBIDDEN = {"core": {"flake8", "libcst", "pygls", "lsprotocol"}, "source": {"flake8", "pygls"},
             "rules": {"flake8", "libcst", "pygls"}, "data": {"flake8", "libcst", "pygls"}}


def layer_of(module: str) -> str:
    """The layer of a dotted module name inside iri_lint ("iri_lint.core.scanner" -> "core")."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    if top in ("core", "data", "source", "rules"):
        return top
    if top in PIPELINE:
        return "pipeline"
    if top in FRONT:
        return "front"
    return "package"  # iri_lint/__init__.py: the public facade, above everything


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        out.append((name, path))
    return out


def imports(name: str, path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in the file."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                if node.module is None:  # from . import checks
                    out += [(node.lineno, f"{target}.{a.name}") for a in node.names]
                    continue
                out.append((node.lineno, target))
            else:
                out.append((node.lineno, node.module or ""))
    return out


@pytest.mark.parametrize(("name", "path"), modules(), ids=[m for m, _ in modules()])
def test_imports_point_down_the_layers(name: str, path: Path) -> None:
    layer = layer_of(name)
    if layer == "package":
        return
    bad = []
    for line, target in imports(name, path):
        top = target.split(".")[0]
        if top == "iri_lint":
            to = layer_of(target)
            if to not in ALLOWED[layer]:
                bad.append(f"{path.name}:{line} imports {target} ({layer} -> {to})")
        elif top in FORBIDDEN.get(layer, ()):
            bad.append(f"{path.name}:{line} imports {target}, which the {layer} layer must not use")
    assert not bad, bad


def test_no_module_is_longer_than_700_lines() -> None:
    long = {name: n for name, path in modules() if (n := len(path.read_text(encoding="utf-8").splitlines())) > 700
            and not name.startswith("iri_lint.data")}  # generated tables
    assert not long, long


# Imported inside the function that needs them, and only these: the optional dependencies (the
# lsp, icu and hsts extras, playwright in the tests) and libcst (only a fix runs it). Every
# iri_lint module is imported at module level: a module that is costly to import is made cheap (its
# regexes compiled and tables built on first use), and a cycle is broken by moving what both need.
LAZY_THIRD_PARTY = frozenset({"libcst", "pygls", "lsprotocol", "icu", "playwright", "hstspreload"})
OPTIONAL = frozenset({"libcst", "pygls", "lsprotocol", "icu", "playwright", "hstspreload"})
STDLIB = frozenset(sys.stdlib_module_names)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def placed_imports(name: str, path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(module-level imports that run, imports inside functions): (line, absolute module) each.

    Imports under ``if TYPE_CHECKING:`` never run and count as neither; ``importlib.import_module``
    with a literal name counts as an import where it is called."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    top: list[tuple[int, str]] = []
    inner: list[tuple[int, str]] = []

    def resolve(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        if not node.level:
            return [node.module or ""]
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
        return [f"{target}.{a.name}" for a in node.names] if node.module is None else [target]

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for stmt in child.orelse:
                    visit(stmt, in_function)
                continue
            out = inner if in_function else top
            if isinstance(child, ast.Import | ast.ImportFrom):
                out += [(child.lineno, m) for m in resolve(child)]
            elif (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                  and child.func.attr == "import_module" and child.args
                  and isinstance(child.args[0], ast.Constant) and isinstance(child.args[0].value, str)):
                out.append((child.lineno, child.args[0].value))
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return top, inner


# The reporters of formats a check on a few files never writes, imported when their format is asked for
# (iri_lint.cli.output, the inventory command): a pre-commit run must start fast (tests/cli/test_startup.py).
ON_DEMAND = frozenset({"iri_lint.cli.sarif", "iri_lint.cli.gitlab", "iri_lint.cli.junit", "iri_lint.cli.html_report",
                       "iri_lint.cli.inventory", "iri_lint.cli.inventory_run"})
ON_DEMAND_FROM = frozenset({"iri_lint.cli.output", "iri_lint.cli"})


def _optional_gateways() -> set[str]:
    """iri_lint modules that import an optional dependency at module level (``lsp.server``: pygls).
    Importing one is importing that dependency: it may be done inside a function too."""
    return {name for name, path in modules()
            if any(m.split(".")[0] in OPTIONAL for _, m in placed_imports(name, path)[0])}


@pytest.mark.parametrize(("name", "path"), modules(), ids=[m for m, _ in modules()])
def test_no_function_level_import_but_the_heavy_optional_ones(name: str, path: Path) -> None:
    gateways = _optional_gateways()
    bad = []
    for line, target in placed_imports(name, path)[1]:
        top = target.split(".")[0]
        if top == "iri_lint":
            if target not in gateways and not (target in ON_DEMAND and name in ON_DEMAND_FROM):
                bad.append(f"{path.name}:{line} imports {target} inside a function: import it at module level")
        elif top not in STDLIB and top not in LAZY_THIRD_PARTY:
            bad.append(f"{path.name}:{line} imports {target} inside a function: only {sorted(LAZY_THIRD_PARTY)} "
                       "may wait for the function that needs them")
    assert not bad, bad


def _private_uses(path: Path) -> list[str]:
    """Private names (one leading underscore) this module takes from another: imported by name,
    or read as an attribute of an imported module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    bad.append(f"{path.name}:{node.lineno} imports {a.name} from {node.module or '.'}")
                modules.add(a.asname or a.name)  # `from . import checks` binds a module
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            bad.append(f"{path.name}:{node.lineno} reads {node.value.id}.{node.attr}")
    return bad


@pytest.mark.parametrize(("name", "path"), [m for m in modules() if layer_of(m[0]) in ("core", "rules")],
                         ids=[m for m, _ in modules() if layer_of(m) in ("core", "rules")])
def test_no_private_name_crosses_a_module_in_core_and_rules(name: str, path: Path) -> None:
    """A module's private names are its own: what another module needs is public (no underscore)."""
    assert not _private_uses(path)
