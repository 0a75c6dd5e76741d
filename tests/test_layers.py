"""The layers of docs/design.md import only downward: core <- source, rules; files <- pipeline <- front
ends <- the command; and no front end imports another.

Every import is read from the source (module-level and inside functions), so a lazy import cannot
hide an upward edge. A violation names the file, the line and the layer it may not reach.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "iri_lint"

# layer -> the iri_lint layers it may import (itself included); the map in docs/design.md
ALLOWED: dict[str, set[str]] = {
    "data": {"data"},
    "core": {"core", "data"},
    "source": {"source", "core", "data"},
    "rules": {"rules", "core", "data"},
    "files": {"files"},  # the files of a project on disk: knows nothing of linting
    "pipeline": {"pipeline", "files", "rules", "source", "core", "data"},  # config, lint, noqa, fix, values_check
    "front": {"front", "pipeline", "files", "rules", "source", "core", "data", "package"},  # cli, flake8, lsp
    "command": {"command", "front", "package"},  # iri_lint.__main__: the iri-lint script, to a front end
}
PIPELINE = {"config", "lint", "noqa", "unused_noqa", "fix", "fix_status", "options", "values_check", "bound_checks"}
# each front end, by its top-level modules: none imports another (what they share is below them)
FRONT_ENDS = {"cli": "cli", "lsp": "lsp", "flake8_plugin": "flake8", "flake8_engine": "flake8"}
# third-party packages a layer may not use: the IRI core knows no linter and no CST
FORBIDDEN = {"core": {"flake8", "libcst", "pygls", "lsprotocol"}, "source": {"flake8", "pygls"},
             "rules": {"flake8", "libcst", "pygls"}, "data": {"flake8", "libcst", "pygls"},
             "files": {"flake8", "libcst", "pygls", "lsprotocol"}}


def layer_of(module: str) -> str:
    """The layer of a dotted module name inside iri_lint ("iri_lint.core.scanner" -> "core")."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    if top in ("core", "data", "source", "rules", "files"):
        return top
    if top in PIPELINE:
        return "pipeline"
    if top in FRONT_ENDS:
        return "front"
    if top == "__main__":
        return "command"
    return "package"  # iri_lint/__init__.py: the public facade, above everything


def front_end_of(module: str) -> str | None:
    """The front end a dotted module name belongs to ("iri_lint.lsp.server" -> "lsp"), or None."""
    parts = module.split(".")
    return FRONT_ENDS.get(parts[1]) if len(parts) > 1 else None


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


@pytest.mark.parametrize(("name", "path"), modules(), ids=[m for m, _ in modules()])
def test_no_front_end_imports_another(name: str, path: Path) -> None:
    """The CLI, the language server and the flake8 plugin share what lies below them (iri_lint.files for
    files and settings); ``iri-lint server`` reaches the server through the script (iri_lint.__main__)."""
    mine = front_end_of(name)
    if mine is None:
        return
    bad = [f"{path.name}:{line} imports {target} (front end {mine} -> {other})"
           for line, target in imports(name, path)
           if target.startswith("iri_lint.") and (other := front_end_of(target)) not in (None, mine)]
    assert not bad, bad


def test_no_module_is_longer_than_700_lines() -> None:
    long = {name: n for name, path in modules() if (n := len(path.read_text(encoding="utf-8").splitlines())) > 700
            and not name.startswith("iri_lint.data")}  # generated tables
    assert not long, long


# Every module imports what it uses at module level, except at the lazy boundaries of docs/design.md
# ("Lazy boundaries"), each one import at a seam: the module holding the seam -> what it imports there,
# inside a function. Nothing else waits. A module that is costly to import is made cheap instead (its
# regexes compiled and tables built on first use), and a cycle is broken by moving what both sides need.
COMPUTED = "<a module named at run time>"  # importlib.import_module(name) of a name it computes
LAZY_BOUNDARIES: dict[str, frozenset[str]] = {
    # (a) the flake8 entry point: the engine, at the first file of a run whose text could hold an IRI
    "iri_lint.flake8_plugin": frozenset({"iri_lint.flake8_engine"}),
    # (b) each subcommand of iri-lint, and what only some runs of one need: fixing (libcst as fix.py's
    # second parser), notebooks, the report formats a check on a few files never writes
    "iri_lint.__main__": frozenset({"iri_lint.cli", "iri_lint.lsp"}),  # the script: the CLI, or the server
    "iri_lint.cli": frozenset({"iri_lint.cli.check", "iri_lint.cli.explain", "iri_lint.cli.inspect",
                               "iri_lint.cli.inventory_run", "iri_lint.cli.version"}),
    "iri_lint.lsp": frozenset({"iri_lint.lsp.server"}),  # the language server, with pygls and lsprotocol
    "iri_lint.cli.run": frozenset({"iri_lint.cli.fix_flow", "iri_lint.cli.notebook_job"}),
    "iri_lint.source.cst": frozenset({"libcst", "libcst.metadata"}),
    "iri_lint.cli.output": frozenset({"iri_lint.cli.sarif", "iri_lint.cli.gitlab", "iri_lint.cli.junit",
                                      "iri_lint.cli.html_report", "iri_lint.cli.inventory"}),
    # (c) the rule families' data tables, at the first IRI that needs them (a non-ASCII or ACE label, a
    # joiner, a character to map or to show in display order): IDNA's and UTS #46's, the confusables,
    # the bidi algorithm, ICU
    "iri_lint.core.mapping": frozenset({"idna"}),
    "iri_lint.core.normalize": frozenset({"idna"}),
    "iri_lint.core.joiners": frozenset({"idna.core"}),
    "iri_lint.core.security": frozenset({"idna.core", "iri_lint.data.confusables", "icu"}),
    "iri_lint.core.bidi": frozenset({"bidi"}),
    "iri_lint.rules.mapping.iri403_idna_failure": frozenset({"idna", "encodings.idna", "stringprep"}),
    # (c) the analyses the rules share, each at the first IRI a rule asks it of (rules.facts)
    "iri_lint.rules.facts": frozenset({"iri_lint.core.normalize", "iri_lint.core.bidi", "iri_lint.core.security",
                                       "iri_lint.rules.mapping.octets"}),
    # (c) a rule's module, at its first check (the rest of a run reads the generated rules/index.py)
    "iri_lint.rules.registry": frozenset({COMPUTED}),
    # the facades' names, each from its module when first read
    "iri_lint.core.lazy": frozenset({COMPUTED}),
    # (e) optional extras, at the rule that needs them: Chromium's HSTS preload list (the hsts extra)
    "iri_lint.rules.scheme.iri605_http_to_hsts_host": frozenset({"hstspreload"}),
}
# (d) the standard library's modules that are costly to import and that only a rare path uses, in the
# function on that path (anywhere)
STDLIB_ON_DEMAND = frozenset({"concurrent.futures", "configparser", "csv", "datetime", "difflib", "fcntl",
                              "hashlib", "ipaddress", "multiprocessing", "signal", "subprocess", "threading",
                              "tomllib"})
# The package facades: Python runs a package's __init__ before any of its modules, so these name their API
# with ``core.lazy.lazy_exports`` (each name imported from its module when first read).
FACADES = frozenset({"iri_lint", "iri_lint.core"})


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def placed_imports(name: str, path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(module-level imports that run, imports inside functions): (line, absolute module) each.

    Imports under ``if TYPE_CHECKING:`` never run and count as neither; ``importlib.import_module``
    counts as an import where it is called, of its literal name or else of ``COMPUTED``."""
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
                  and child.func.attr == "import_module" and child.args):
                arg = child.args[0]
                literal = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                out.append((child.lineno, literal or COMPUTED))
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return top, inner


@pytest.mark.parametrize(("name", "path"), modules(), ids=[m for m, _ in modules()])
def test_no_function_level_import_but_at_a_lazy_boundary(name: str, path: Path) -> None:
    allowed = LAZY_BOUNDARIES.get(name, frozenset())
    bad = [f"{path.name}:{line} imports {target} inside a function: import it at module level, or document a "
           "lazy boundary (docs/design.md) and add it to LAZY_BOUNDARIES"
           for line, target in placed_imports(name, path)[1]
           if target not in allowed and target not in STDLIB_ON_DEMAND]
    assert not bad, bad


def test_every_lazy_boundary_is_in_the_code_and_in_the_design_notes() -> None:
    """The table and docs/design.md name only seams that exist: a boundary removed from the code leaves both."""
    where = dict(modules())
    design = (PACKAGE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    section = design.split("## Lazy boundaries", 1)[1].split("\n## ", 1)[0]
    stale = []
    for name, targets in LAZY_BOUNDARIES.items():
        inner = {t for _, t in placed_imports(name, where[name])[1]}
        stale += [f"{name} -> {t}" for t in sorted(targets - inner)]
        if f"`{name.removeprefix('iri_lint.')}`" not in section:
            stale.append(f"{name} is not named in docs/design.md's Lazy boundaries")
    for target in sorted(STDLIB_ON_DEMAND):
        if f"`{target}`" not in section:
            stale.append(f"{target} is not named in docs/design.md's Lazy boundaries")
    assert not stale, stale


def _facade_tables(path: Path) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """((module, name) imported under TYPE_CHECKING, (module, name) in the lazy_exports table) of a facade."""
    typed: set[tuple[str, str]] = set()
    lazy: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and _is_type_checking(node):
            typed |= {("." * n.level + (n.module or ""), a.name) for n in node.body
                      if isinstance(n, ast.ImportFrom) for a in n.names}
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "lazy_exports":
            table = node.args[1]
            assert isinstance(table, ast.Dict)
            for k, v in zip(table.keys, table.values, strict=True):
                assert isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
                assert isinstance(k.value, str) and isinstance(v.value, str)
                lazy |= {(k.value, n) for n in v.value.split()}
    return typed, lazy


@pytest.mark.parametrize(("name", "path"), modules(), ids=[m for m, _ in modules()])
def test_only_the_facades_name_their_api_lazily(name: str, path: Path) -> None:
    """The facades' tables are what mypy sees (their TYPE_CHECKING imports), and resolve to the same objects;
    no other module names anything lazily."""
    typed, lazy = _facade_tables(path)
    if name not in FACADES:
        assert not lazy, f"{name} calls lazy_exports: only the package facades {sorted(FACADES)} may"
        return
    assert lazy and lazy == typed, sorted(lazy ^ typed)
    facade = importlib.import_module(name)
    for module, attr in sorted(lazy):
        home = importlib.import_module(module, name)
        assert getattr(facade, attr) is getattr(home, attr), (name, attr)
    assert set(facade.__all__) - {"__version__"} == {attr for _, attr in lazy}
    # importing a module sets it on its package: a lazy name shared with a module would become the module
    children = {m.rsplit(".", 1)[-1] for m, _ in modules() if m.rsplit(".", 1)[0] == name}
    shared = {attr for _, attr in lazy} & children
    assert not shared, shared
    assert set(facade.__all__) <= set(dir(facade))


def _private_uses(name: str, path: Path) -> list[str]:
    """Private names (one leading underscore) this module takes from another module of iri_lint:
    imported by name, or read as an attribute of an imported module. (Other packages' are theirs to
    judge: ``os._exit`` is documented.)"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ours = {target for _, target in imports(name, path) if target.split(".")[0] == "iri_lint"}
    modules: set[str] = set()
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "iri_lint"):
            for a in node.names:
                if a.name.startswith("_") and not a.name.startswith("__"):
                    bad.append(f"{path.name}:{node.lineno} imports {a.name} from {node.module or '.'}")
                modules.add(a.asname or a.name)  # `from . import checks` binds a module
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names if a.name in ours)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = _dotted(node.value)
            if owner is not None and owner.split(".")[0] in modules:
                bad.append(f"{path.name}:{node.lineno} reads {owner}.{node.attr}")
    return bad


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of a chain of names, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


@pytest.mark.parametrize(("name", "path"), modules(), ids=[m for m, _ in modules()])
def test_no_private_name_crosses_a_module(name: str, path: Path) -> None:
    """A module's private names are its own, in every layer: what another module needs is public (no
    underscore), never a private class subclassed or a private function called from elsewhere."""
    assert not _private_uses(name, path)


def test_the_private_name_check_sees_both_forms(tmp_path: Path) -> None:
    """The check above finds a private name imported from iri_lint or read off an imported module of it,
    and leaves other packages' alone."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom iri_lint.source.literals import _Scanner\nfrom . import fix\n"
                   "import iri_lint.lint\nos._exit(0)\nfix._private()\niri_lint.lint._Checker\n")
    found = _private_uses("iri_lint.cli.bad", bad)
    assert sorted(found) == ["bad.py:2 imports _Scanner from iri_lint.source.literals",
                             "bad.py:6 reads fix._private", "bad.py:7 reads iri_lint.lint._Checker"]


# public classes defined in two modules (one meaning each, issue #28): none but these, left to the branch
# that owns them (source.bindings' Kind is the value model's, core.errors' Kind the scanner's)
SHARED_CLASS_NAMES = {"Kind": {"iri_lint.core.errors", "iri_lint.source.bindings"}}


def test_no_public_class_name_means_two_things() -> None:
    """A public class name names one class in the package: ``Settings`` of the CLI, the editor and flake8
    were three, ``Edit`` of the rules and of the normalization ladder two."""
    homes: dict[str, set[str]] = {}
    for name, path in modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                homes.setdefault(node.name, set()).add(name)
    shared = {cls: where for cls, where in homes.items() if len(where) > 1}
    assert shared == SHARED_CLASS_NAMES
