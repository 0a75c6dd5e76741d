"""Constants imported from the project's own modules: found from the importing file, read once, never run."""

from __future__ import annotations

import ast
import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

from iri_lint.source.evaluate import Evaluator
from iri_lint.source.helpers import Helper
from iri_lint.source.locate import split_lines
from iri_lint.source.project import MAX_MODULE_BYTES, Project, find_root
from iri_lint.source.urlvalues import ModuleValues
from iri_lint.source.values import HoleKind, Ref, Value


def tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")


def probes(path: Path, project: Project, evaluator: Evaluator | None = None) -> list[Any]:
    """The value of the argument of every ``probe(...)`` call of the file."""
    src = path.read_text(encoding="utf-8")
    t = ast.parse(src)
    mv = ModuleValues(t, split_lines(src), path=str(path), project=project, evaluator=evaluator)
    calls = sorted((n for n in ast.walk(t) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                    and n.func.id == "probe"), key=lambda n: n.lineno)
    return [mv.value_of(c.args[0]) for c in calls]


def flats(path: Path, project: Project) -> list[str | None]:
    return [v.flat() if type(v) is Value and not v.opaque else None for v in probes(path, project)]


PKG = {
    "pyproject.toml": "",
    "pkg/__init__.py": "",
    "pkg/base.py": 'ROOT = "https://api.example"\n',
    "pkg/settings.py": """\
        from .base import ROOT
        HOST = ROOT + "/v2"
        CDN = "https://cdn.example"
        if DEBUG:
            MAYBE = "http://localhost"
        else:
            MAYBE = "https://prod.example"
        def helper():
            pass
    """,
}


def test_constants_from_the_projects_modules(tmp_path: Path) -> None:
    tree(tmp_path, {**PKG, "pkg/app.py": """\
        from pkg.settings import HOST, CDN as C, MAYBE, helper
        from . import settings
        import pkg.settings as s
        import pkg.settings
        from .settings import HOST as H2
        probe(HOST + "/users")
        probe(settings.CDN + "/img/a b.png")
        probe(s.HOST)
        probe(pkg.settings.CDN)
        probe(H2)
        probe(C)
        probe(MAYBE)
        probe(helper)
    """})
    project = Project()
    got = probes(tmp_path / "pkg/app.py", project)
    assert [v.flat() if type(v) is Value and not v.opaque else None for v in got[:-1]] == [
        "https://api.example/v2/users", "https://cdn.example/img/a b.png", "https://api.example/v2",
        "https://cdn.example", "https://api.example/v2", "https://cdn.example", None]
    # a function: its ``def`` (what its parameters are), not read at calls (its body is no one return)
    assert type(got[-1]) is Helper and got[-1].function.name == "helper"
    # the known characters point into the module that spells them
    v = got[1]
    src, pos = v.position(v.flat().index(" "))
    assert src.path == str(tmp_path / "pkg/app.py") and (pos.line, pos.col) == (7, 28)
    src, pos = v.position(0)
    assert src.path == os.path.realpath(tmp_path / "pkg/settings.py") and (pos.line, pos.col) == (3, 7)
    src, pos = got[0].position(0)
    assert src.path == os.path.realpath(tmp_path / "pkg/base.py") and (pos.line, pos.col) == (1, 8)
    assert project.read_twice == 0
    # settings, base, and pkg/__init__ (``pkg.settings`` is an attribute of pkg before it is a submodule)
    assert set(project.reads) == {os.path.realpath(tmp_path / f) for f in ("pkg/settings.py", "pkg/base.py",
                                                                         "pkg/__init__.py")}


def test_what_a_module_depends_on(tmp_path: Path) -> None:
    tree(tmp_path, {**PKG, "pkg/a.py": "import requests\nfrom pkg.settings import HOST\nrequests.get(HOST)\n",
                    "pkg/b.py": "import requests\nfrom .settings import CDN\nrequests.get(CDN)\n",
                    "pkg/c.py": "import requests\nrequests.get('https://c')\n"})
    project = Project()
    deps = {}
    for name in ("a", "b", "c"):
        path = tmp_path / f"pkg/{name}.py"
        src = path.read_text()
        mv = ModuleValues(ast.parse(src), split_lines(src), path=str(path), project=project)
        assert len(list(mv.url_values())) == 1
        deps[name] = {os.path.relpath(p, tmp_path) for p in mv.depends_on}
    # a's HOST is read from settings and, through it, from base; b's CDN only from settings
    assert deps == {"a": {"pkg/settings.py", "pkg/base.py"}, "b": {"pkg/settings.py"}, "c": set()}


def test_each_file_is_read_once_per_run(tmp_path: Path) -> None:
    tree(tmp_path, {**PKG, "pkg/a.py": "from pkg.settings import HOST\nprobe(HOST)\n",
                    "pkg/b.py": "from .settings import HOST, CDN\nprobe(HOST + CDN)\n"})
    project = Project()
    evaluator = Evaluator(project)
    assert flats(tmp_path / "pkg/a.py", project) == ["https://api.example/v2"]
    probes(tmp_path / "pkg/b.py", project, evaluator)
    probes(tmp_path / "pkg/b.py", project, evaluator)
    assert project.files_read == 2 and project.read_twice == 0


def test_src_layout_and_no_marker(tmp_path: Path) -> None:
    tree(tmp_path / "a", {"setup.cfg": "", "src/lib/__init__.py": "", "src/lib/conf.py": 'URL = "https://h"\n',
                          "src/lib/use.py": "from lib.conf import URL\nprobe(URL)\n"})
    assert flats(tmp_path / "a/src/lib/use.py", Project()) == ["https://h"]
    # no pyproject, setup.* or .git above: the folder above the top package is the root
    tree(tmp_path / "b", {"top/__init__.py": "", "top/sub/__init__.py": "", "top/conf.py": 'URL = "https://t"\n',
                          "top/sub/use.py": "from top.conf import URL\nfrom ..conf import URL as U\nprobe(URL)\n"
                                            "probe(U)\n"})
    if find_root(str(tmp_path / "b/top/sub")) == str(tmp_path / "b"):  # (unless tmp itself is in a repository)
        assert flats(tmp_path / "b/top/sub/use.py", Project()) == ["https://t", "https://t"]


def test_a_module_that_does_not_parse_is_a_hole(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "", "conf.py": 'URL = "https://h"\ndef (:\n', "use.py": "from conf import URL\n"
                    "import conf\nprobe(URL + '/x')\nprobe(conf.URL)\n"})
    project = Project()
    assert flats(tmp_path / "use.py", project) == ["0/x", None]
    assert project.files_read == 1 and project.read_twice == 0


def test_a_huge_module_is_a_hole(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "", "use.py": "from conf import URL\nprobe(URL)\n"})
    (tmp_path / "conf.py").write_text('URL = "https://h"\n#' + "x" * MAX_MODULE_BYTES + "\n", encoding="utf-8")
    assert flats(tmp_path / "use.py", Project()) == [None]


def test_cycles_between_modules_are_holes(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "",
                    "a.py": "from b import Y\nX = Y + '/a'\nprobe(X)\n",
                    "b.py": "from a import X\nY = X + '/b'\n",
                    "c.py": "from c import Z\nprobe(Z)\n"})
    project = Project()
    (x,) = probes(tmp_path / "a.py", project)
    assert x.text is None and x.flat().endswith("/b/a")  # (at run time: an ImportError; unknown here)
    assert flats(tmp_path / "c.py", project) == [None]
    assert project.read_twice == 0


def test_a_long_cycle_of_modules_stays_linear(tmp_path: Path) -> None:
    n = 200
    files = {"pyproject.toml": ""}
    for k in range(n):
        files[f"m{k}.py"] = f"from m{(k + 1) % n} import X\nX = X + '/{k}'\n"
    files["use.py"] = "from m0 import X\nprobe(X)\n"
    tree(tmp_path, files)
    project = Project()
    (v,) = probes(tmp_path / "use.py", project)
    assert type(v) is Value and v.text is None  # a hole somewhere, no RecursionError
    assert project.read_twice == 0 and project.files_read <= n


def test_star_imports_bind_what_their_project_module_exports(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "", "base.py": 'URL = "https://h"\nOTHER = "https://b"\n',
                    "settings.py": "from base import *\nOTHER = 'https://o'\n",
                    "use.py": "from base import *\nfrom settings import URL, OTHER\nprobe(URL)\nprobe(OTHER)\n",
                    "after.py": "from settings import OTHER\nfrom base import *\nprobe(OTHER)\n",
                    "kept.py": "from settings import URL\nfrom os.path import *\nprobe(URL)\n",
                    "broken.py": "def (:\n", "unread.py": "URL = 'https://u'\nfrom broken import *\nprobe(URL)\n"})
    assert flats(tmp_path / "use.py", Project()) == ["https://h", "https://o"]  # URL: re-exported by settings
    assert flats(tmp_path / "after.py", Project()) == ["https://b"]  # base's star import rebinds it
    assert flats(tmp_path / "kept.py", Project()) == ["https://h"]  # an installed module's binds none of ours
    assert flats(tmp_path / "unread.py", Project()) == [None]  # a module that does not parse may bind any


def test_a_builtin_stays_one_after_a_star_import_that_does_not_bind_it(tmp_path: Path) -> None:
    """``from s import *`` of a project module read whole binds its names only: ``str`` is still the builtin
    (fixtures34, repro 01); so it is after a star import of a module that cannot be read, which may bind
    any name but an imported one or a builtin (fixtures64: ``quote`` and ``str`` taken for holes)."""
    tree(tmp_path, {"pyproject.toml": "", "s.py": 'HOST = "https://e.example"\n', "broken.py": "def (:\n",
                    "use.py": "from s import *\nprobe(str(HOST) + 'img')\nprobe(str('https://x') + '/y')\n",
                    "unread.py": "from urllib.parse import quote\nfrom broken import *\n"
                                 "probe(str('https://x') + '/y')\nprobe('https://x/?q=' + quote(q))\n"
                                 "probe(HOST + '/y')\nfrom s import HOST as H2\nfrom broken import *\n"
                                 "probe(H2 + '/z')\n"})
    assert flats(tmp_path / "use.py", Project()) == ["https://e.exampleimg", "https://x/y"]
    unread = probes(tmp_path / "unread.py", Project())
    assert flats(tmp_path / "unread.py", Project())[:1] == ["https://x/y"]
    assert unread[1].pieces[-1].kind is HoleKind.ENCODED  # quote() is still quote()
    assert unread[2].pieces[0].kind is HoleKind.VALUE  # HOST may come from the broken module
    assert unread[3].pieces[0].kind is HoleKind.VALUE  # a project's setting: what a local settings overrides


def test_an_imported_name_stays_through_a_star_import_of_a_module_that_star_imports_a_missing_one(
        tmp_path: Path) -> None:
    """``from .config import *`` where ``config`` does ``try: from .local import *`` of an absent module:
    ``requests`` imported before is still requests (fixtures66, repro 02), and a constant the readable
    module binds still comes from it."""
    tree(tmp_path, {"pyproject.toml": "", "app/__init__.py": "",
                    "app/config/__init__.py": 'from .base import *\ntry:\n    from .local import *\n'
                                              'except ImportError:\n    pass\n',
                    "app/config/base.py": 'CDN = "https://cdn.example.net"\n',
                    "app/client.py": "import requests\nfrom .config import *\nprobe(requests)\nprobe(CDN)\n"})
    found = probes(tmp_path / "app/client.py", Project())
    assert found[0] == Ref("requests")
    assert type(found[1]) is Value and found[1].opaque  # (CDN: the missing module may bind a constant)


def test_a_submodule_imported_by_name_stays_through_a_star_import_of_a_missing_module(tmp_path: Path) -> None:
    """``from pkg import settings`` names a module, as ``import pkg.settings as s2`` does: a failed
    ``try: from .local_overrides import *`` does not rebind it (fixtures78, repro 01)."""
    tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/settings.py": 'HOST = "https://u.example"\n',
                    "pkg/use.py": "import pkg.settings as s2\nfrom pkg import settings\nfrom . import settings as s3\n"
                                  "try:\n    from .local_overrides import *\nexcept ImportError:\n    pass\n"
                                  "probe(settings.HOST)\nprobe(s2.HOST)\nprobe(s3.HOST)\n"})
    assert flats(tmp_path / "pkg/use.py", Project()) == ["https://u.example"] * 3


def test_nothing_outside_the_project_is_read(tmp_path: Path) -> None:
    tree(tmp_path, {"outside.py": 'URL = "https://h"\n', "proj/pyproject.toml": "",
                    "proj/pkg/__init__.py": "", "proj/pkg/use.py": "from ...outside import URL\nprobe(URL)\n"})
    project = Project()
    assert flats(tmp_path / "proj/pkg/use.py", project) == [None]
    assert project.files_read == 0


def test_the_linted_file_is_never_read_back(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "", "a.py": "from b import Y\nX = 'https://a'\nprobe(Y)\n",
                    "b.py": "from a import X\nY = X + '/b'\n"})
    project = Project()
    assert flats(tmp_path / "a.py", project) == ["https://a/b"]
    assert set(project.reads) == {os.path.realpath(tmp_path / "b.py")}


def test_url_api_names_are_never_looked_up_in_the_project(tmp_path: Path) -> None:
    # linting requests' own source: ``import requests`` is its own package, yet requests.get stays the API
    tree(tmp_path, {"pyproject.toml": "", "requests/__init__.py": "from .api import get\n",
                    "requests/api.py": "def get(url):\n    pass\n",
                    "tests/t.py": "import requests\nprobe(requests.get)\n"})
    project = Project()
    (r,) = probes(tmp_path / "tests/t.py", project)
    assert r == Ref("requests.get")
    assert project.files_read == 0


@pytest.mark.parametrize("name", ["__init__", "mod"])
def test_submodules_and_packages(tmp_path: Path, name: str) -> None:
    tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/conf/__init__.py": 'A = "https://a"\n',
                    "pkg/conf/mod.py": 'B = "https://b"\n',
                    "use.py": "from pkg.conf import A, mod\nimport pkg.conf.mod\nprobe(A)\nprobe(mod.B)\n"
                              "probe(pkg.conf.mod.B)\n"})
    assert flats(tmp_path / "use.py", Project()) == ["https://a", "https://b", "https://b"]


def test_a_run_keeps_what_it_read_not_every_file_it_linted(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "", "a.py": "A = 'https://a'\nprobe(A)\n", "b.py": "from a import A\nprobe(A)\n"})
    project = Project()
    assert flats(tmp_path / "a.py", project) == ["https://a"]
    assert flats(tmp_path / "b.py", project) == ["https://a"]  # a.py is read now: only b.py's tree was kept
    assert project.reads == {os.path.realpath(tmp_path / "a.py"): 1}


def test_past_the_module_limit_a_module_is_read_again_and_counted(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "", "m1.py": "X = 'https://1'\n", "m2.py": "Y = 'https://2'\n",
                    "use.py": "from m1 import X\nfrom m2 import Y\nprobe(X)\nprobe(Y)\n",
                    "use2.py": "from m1 import X\nprobe(X)\n"})
    project = Project(max_modules=1)
    assert flats(tmp_path / "use.py", project) == ["https://1", "https://2"]
    assert flats(tmp_path / "use2.py", project) == ["https://1"]
    assert project.read_twice == 1 and project.files_read == 2


def test_a_kept_module_drops_the_function_bodies_no_value_reads(tmp_path: Path) -> None:
    """A project module is kept without the bodies of functions another module's values never read (most
    of its tree); a method binding an attribute is kept, with the names it binds on the way."""
    tree(tmp_path, {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/clients.py": """\
            ROOT = "https://api.example"

            def helper(x):
                '''Not read.'''
                y = x + 1
                log(y)
                return y

            class Client:
                kind = ROOT + "/k"

                def __init__(self):
                    base = ROOT + "/v2"
                    self.url = base + "/items"

                def other(self):
                    url = self.url
                    log(url)
                    return requests.get(url)
        """,
        "pkg/other.py": """            ROOT = "https://api.example"

            def rebinds():
                global ROOT
                ROOT = "x"
        """,
        "use.py": """\
            from pkg.clients import Client
            probe(Client.kind)
        """,
    })
    project = Project()
    module = project.load(str(tmp_path / "pkg" / "clients.py"))
    assert module is not None
    defs = {n.name: n for n in ast.walk(module.scopes.tree) if isinstance(n, ast.FunctionDef)}
    assert [type(s).__name__ for s in defs["helper"].body] == ["Expr"]  # the docstring alone
    assert [type(s).__name__ for s in defs["other"].body] == ["Pass"]
    assert len(defs["__init__"].body) == 2
    assert flats(tmp_path / "use.py", project) == ["https://api.example/k"]
    other = project.load(str(tmp_path / "pkg" / "other.py"))
    assert other is not None
    (rebinds,) = (n for n in ast.walk(other.scopes.tree) if isinstance(n, ast.FunctionDef))
    assert len(rebinds.body) == 2  # (it declares global: kept whole)


def test_digests_of_the_modules_read_only_when_hashed(tmp_path: Path) -> None:
    """A result cache keys on the bytes of each module read (``digests``); a run without one does not hash."""
    import hashlib

    tree(tmp_path, {**PKG, "pkg/app.py": "from pkg.settings import CDN\nprobe(CDN)\n"})
    settings = os.path.realpath(tmp_path / "pkg/settings.py")
    hashed, unhashed = Project(), Project(hashed=False)
    assert flats(tmp_path / "pkg/app.py", hashed) == flats(tmp_path / "pkg/app.py", unhashed) == ["https://cdn.example"]
    assert hashed.digests[settings] == hashlib.sha256((tmp_path / "pkg/settings.py").read_bytes()).hexdigest()
    assert unhashed.digests[settings] is None and set(unhashed.reads) == set(hashed.reads)


def test_keep_root_lets_go_of_the_modules_of_other_roots(tmp_path: Path) -> None:
    """Modules are read for files under their own root only: checking another project's files lets them go
    (read again if a file of their root comes after all), and the values stay the same."""
    for name in ("a", "b"):
        tree(tmp_path / name, {**PKG, "pkg/app.py": "from pkg.settings import CDN\nprobe(CDN)\n",
                               "pkg/more.py": "from pkg.settings import HOST\nprobe(HOST)\n"})
    project = Project()
    order = ["a/pkg/app.py", "a/pkg/more.py", "b/pkg/app.py", "b/pkg/more.py", "a/pkg/app.py"]
    got = []
    for name in order:
        project.keep_root(str(tmp_path / name))
        got += flats(tmp_path / name, project)
        project.done(str(tmp_path / name))
    assert got == ["https://cdn.example", "https://api.example/v2"] * 2 + ["https://cdn.example"]
    reads = {os.path.relpath(p, tmp_path): n for p, n in project.reads.items()}
    assert reads == {"a/pkg/settings.py": 2, "a/pkg/base.py": 1, "b/pkg/settings.py": 1, "b/pkg/base.py": 1}


def test_a_package_wins_over_a_module_of_its_name_as_pythons_path_finder_decides(tmp_path: Path) -> None:
    tree(tmp_path, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/urls.py": 'URL = "https://module"\n',
                    "pkg/urls/__init__.py": 'URL = "https://package"\n',
                    "use.py": "from pkg.urls import URL\nprobe(URL)\n"})
    assert flats(tmp_path / "use.py", Project()) == ["https://package"]


def test_a_workspace_member_reads_its_own_package_before_the_roots(tmp_path: Path) -> None:
    """A workspace root with a package ``app`` holds a member (no marker of its own) whose package is also
    ``app``: for the member's files to run, the member's folder is on sys.path, not the root."""
    tree(tmp_path, {"pyproject.toml": "", "app/__init__.py": "", "app/settings.py": 'URL = "https://root"\n',
                    "member/app/__init__.py": "", "member/app/settings.py": 'URL = "https://member"\n',
                    "member/app/main.py": "from app.settings import URL\nprobe(URL)\n"})
    assert flats(tmp_path / "member" / "app" / "main.py", Project()) == ["https://member"]


def test_a_module_read_for_a_value_is_parsed_once_when_linted_after(tmp_path: Path, monkeypatch: Any) -> None:
    """A file another file's values read, linted next in the same run, borrows the project's tree whole
    (parsed once, not twice); its findings are those of its own parse, and the project keeps its stubs."""
    from iri_lint.config import Config
    from iri_lint.lint import lint_text

    files = {
        "pyproject.toml": "",
        "pkg/__init__.py": "",
        "pkg/clients.py": """\
            import requests
            ROOT = "https://api.example"

            def helper(x):
                y = ROOT + "/a b" + x
                log(y)
                return requests.get(y)

            class Client:
                kind = ROOT + "k"
        """,
        "pkg/use.py": """\
            import requests
            from pkg.clients import ROOT, Client
            requests.get(ROOT + "/x y")
            requests.get(Client.kind)
        """,
    }
    tree(tmp_path, files)
    parses: list[str] = []
    real_parse = ast.parse
    def counted_parse(text: str, *args: Any, **kwargs: Any) -> ast.Module:
        parses.append(text)
        parsed: ast.Module = real_parse(text, *args, **kwargs)
        return parsed

    monkeypatch.setattr(ast, "parse", counted_parse)
    texts = {name: (tmp_path / name).read_text(encoding="utf-8") for name in ("pkg/use.py", "pkg/clients.py")}

    def run(project: Project) -> list[list[tuple[int, int, str]]]:
        return [[(f.line, f.col, f.code) for f in lint_text(texts[name], Config(), path=str(tmp_path / name),
                                                                project=project, file=str(tmp_path / name))]
                for name in ("pkg/use.py", "pkg/clients.py")]

    lending = Project()
    found = run(lending)
    assert parses.count(texts["pkg/clients.py"]) == 1
    parses.clear()
    assert run(Project(lends=False)) == found
    assert parses.count(texts["pkg/clients.py"]) == 2
    assert found == [[(3, 23, "IRI101"), (4, 13, "IRI801")], [(5, 18, "IRI101")]]
    module = lending.load(str(tmp_path / "pkg" / "clients.py"))  # (kept, its unread body dropped again)
    assert module is not None and lending.loads == 1
    (helper,) = (n for n in ast.walk(module.scopes.tree) if isinstance(n, ast.FunctionDef))
    assert [type(s).__name__ for s in helper.body] == ["Pass"]


def test_a_relative_path_is_the_working_folders_of_each_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One process checking two trees with the same layout (a test run, an API caller) by relative paths: each
    check reads its own tree's modules, not the first tree's (a cached real path of a relative one had)."""
    for name, host in (("one", "https://one.example"), ("two", "https://two.example")):
        tree(tmp_path / name, {"pyproject.toml": "", "settings.py": f'HOST = "{host}"\n',
                               "use.py": "from settings import HOST\nprobe(HOST)\n"})
    project = Project()
    seen = []
    for name in ("one", "two"):
        monkeypatch.chdir(tmp_path / name)
        src = Path("use.py").read_text(encoding="utf-8")
        t = ast.parse(src)
        mv = ModuleValues(t, split_lines(src), path="use.py", project=project)
        (call,) = [n for n in ast.walk(t) if isinstance(n, ast.Call)]
        v = mv.value_of(call.args[0])
        seen.append(v.flat() if type(v) is Value else None)
    assert seen == ["https://one.example", "https://two.example"]
