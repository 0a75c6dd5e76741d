"""The result cache of ``iri-lint check`` re-checks a file when any file its URL values were read from changes,
whatever the path the value took: a one-return helper of another module, a notebook's cells, a class base,
a star import (read through a module another file read first), ``import pkg.mod as m``, a client made in
another module (fixtures95 repro 03, fixtures99 repro 04; docs/design.md, "The project's other modules")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import CLI

CONF = 'HOST = "https://pay.example.com"\n'
CONF_FIXED = 'HOST = "https://pay.example.com/"\n'
VERSIONED = 'HOST = "https://pay.example.com/api/v2"\n'
VERSIONED_FIXED = 'HOST = "https://pay.example.com/api/v2/"\n'


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "proj"
    _write(root, {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "", **files})
    return root


def _check(cli: CLI, root: Path, cache: Path, *more: str) -> str:
    r = cli("check", "--output-format", "concise", "--cache-dir", str(cache), *more, str(root))
    assert r.err == "", r.err
    return r.out


def _dependencies(cache: Path) -> dict[str, list[list[str]]]:
    """Each cached file's dependencies, by its name: [path, sha256] each."""
    (table,) = cache.glob("*/*.json")
    return {Path(k).name: e[6] for k, e in json.loads(table.read_text())["files"].items()}


def _stale_after(cli: CLI, root: Path, tmp_path: Path, edit: dict[str, str], finding: str) -> None:
    """``finding`` is reported, then no longer once ``edit`` is written, with the cache on (as without it)."""
    cache = tmp_path / "cache"
    assert finding in _check(cli, root, cache), "the finding to be dropped"
    assert finding in _check(cli, root, cache), "served from the cache"
    _write(root, edit)
    assert _check(cli, root, cache, "--no-cache") == ""
    assert _check(cli, root, cache) == ""


HELPERS = "from pkg.conf import HOST\n\n\ndef host_url(path):\n    return HOST + path\n"
USE_HELPER = ('import requests\n\nfrom pkg.helpers import host_url\n\n\ndef status():\n'
              '    return requests.get(host_url("status"))\n')


def test_a_value_read_through_another_modules_helper_depends_on_what_the_helper_reads(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path) -> None:
    """fixtures95 repro 03: ``host_url("status")``, a helper of pkg.helpers returning ``HOST + path``, HOST
    from pkg.conf: editing conf.py re-checks use.py, which imports only pkg.helpers."""
    root = tmp_path / "proj"  # (the repro's files, as they are)
    _write(root, {"pyproject.toml": "", "pkg/__init__.py": "", "pkg/conf.py": CONF, "pkg/helpers.py": HELPERS,
                  "pkg/use.py": USE_HELPER})
    _stale_after(cli, root, tmp_path, {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:7:35: IRI801")


# Other paths by which a module's values read another file: each case's files, the edit, the finding it drops
PATHS: dict[str, tuple[dict[str, str], dict[str, str], str]] = {
    "a helper through `import pkg.helpers as h`": (
        {"pkg/conf.py": CONF, "pkg/helpers.py": HELPERS,
         "pkg/use.py": 'import requests\nimport pkg.helpers as h\nrequests.get(h.host_url("status"))\n'},
        {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:3:"),
    "a constant through `import pkg.conf as c`": (
        {"pkg/conf.py": CONF, "pkg/use.py": 'import requests\nimport pkg.conf as c\nrequests.get(c.HOST + "status")\n'},
        {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:3:"),
    "a class attribute of another module's class": (
        {"pkg/conf.py": CONF, "pkg/base.py": "from pkg.conf import HOST\n\n\nclass Base:\n    URL = HOST\n",
         "pkg/use.py": 'import requests\nfrom pkg.base import Base\nrequests.get(Base.URL + "status")\n'},
        {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:3:"),
    "a class base from another module": (
        {"pkg/conf.py": CONF, "pkg/base.py": "from pkg.conf import HOST\n\n\nclass Base:\n    URL = HOST\n",
         "pkg/use.py": ("import requests\nfrom pkg.base import Base\n\n\nclass Users(Base):\n"
                        '    def get(self):\n        return requests.get(self.URL + "status")\n')},
        {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:7:"),
    "a helper method of a class base from another module": (
        {"pkg/conf.py": CONF,
         "pkg/base.py": ("from pkg.conf import HOST\n\n\nclass Base:\n    def url(self, path):\n"
                         "        return HOST + path\n"),
         "pkg/use.py": ("import requests\nfrom pkg.base import Base\n\n\nclass Users(Base):\n"
                        '    def get(self):\n        return requests.get(self.url("status"))\n')},
        {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:7:"),
    "a star import": (
        {"pkg/conf.py": CONF, "pkg/use.py": 'import requests\nfrom pkg.conf import *\nrequests.get(HOST + "status")\n'},
        {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:3:"),
    # (a client's base URL is checked where that module gives it: what the request's own reference does to it
    # is the request's, IRI804 of an aiohttp base that resolves it)
    "a client made in another module": (
        {"pkg/conf.py": VERSIONED,
         "pkg/clients.py": "import aiohttp\nfrom pkg.conf import HOST\napi = aiohttp.ClientSession(base_url=HOST)\n",
         "pkg/use.py": 'from pkg.clients import api\napi.get("status")\n'},
        {"pkg/conf.py": VERSIONED_FIXED}, "pkg/use.py:2:10: IRI804"),
    "an object of a client class of another module": (
        {"pkg/conf.py": VERSIONED,
         "pkg/clients.py": ("import aiohttp\nfrom pkg.conf import HOST\n\n\nclass Api(aiohttp.ClientSession):\n"
                            "    def __init__(self):\n        super().__init__(base_url=HOST)\n"),
         "pkg/use.py": 'from pkg.clients import Api\nApi().get("status")\n'},
        {"pkg/conf.py": VERSIONED_FIXED}, "pkg/use.py:2:12: IRI804"),
    "an object of another module's class, its helper method": (
        {"pkg/conf.py": CONF,
         "pkg/api.py": ("from pkg.conf import HOST\n\n\nclass Api:\n    def url(self, path):\n"
                        "        return HOST + path\n\n\napi = Api()\n"),
         "pkg/use.py": 'import requests\nfrom pkg.api import api\nrequests.get(api.url("status"))\n'},
        {"pkg/conf.py": CONF_FIXED}, "pkg/use.py:3:"),
}


@pytest.mark.parametrize("case", list(PATHS))
def test_every_path_a_value_takes_to_another_file_is_a_dependency(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path, case: str) -> None:
    files, edit, where = PATHS[case]
    root = _project(tmp_path, files)
    _stale_after(cli, root, tmp_path, edit, where)


def test_a_star_import_read_by_a_second_file_depends_on_every_star_module(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path) -> None:
    """Two files read HOST through pkg.mid's star imports: the second too depends on pkg.extra, which binds
    no HOST yet (the first file's reading of mid's stars must not stand in for the second's), and a module
    that starts binding it there is read (in this process too: no order of mid's names is kept past a file)."""
    use = 'import requests\nfrom pkg.mid import HOST\nrequests.get(HOST + "status")\n'
    root = _project(tmp_path, {"pkg/conf.py": CONF, "pkg/extra.py": "OTHER = 1\n",
                               "pkg/mid.py": "from pkg.conf import *\nfrom pkg.extra import *\n",
                               "pkg/a_use.py": use, "pkg/b_use.py": use})
    cache = tmp_path / "cache"
    first = _check(cli, root, cache)
    assert "a_use.py:3:" in first and "b_use.py:3:" in first
    assert {Path(p).name for p, _ in _dependencies(cache)["b_use.py"]} == {"mid.py", "conf.py", "extra.py"}
    _write(root, {"pkg/extra.py": "OTHER = 1\n" + CONF_FIXED})
    assert _check(cli, root, cache, "--no-cache") == ""
    assert _check(cli, root, cache) == ""


CONFIG = 'CDN = "https://cdn.example.net"\nSEG = "/a b.png"\n'
TWIN = "import requests\nfrom pkg.config import CDN, SEG\nrequests.get(CDN + SEG)\n"
NOTEBOOK = """{"cells": [{"cell_type": "code", "execution_count": null, "id": "c1", "metadata": {}, "outputs": [],
  "source": ["import requests\\n", "from pkg.config import CDN, SEG\\n", "requests.get(CDN + SEG)"]}],
 "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
"""


def test_a_notebook_depends_on_the_modules_its_cells_read(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """fixtures99 repro 04: a notebook's cached result records the files its values read, as a .py file's."""
    root = tmp_path / "proj"  # (the repro's files, as they are)
    _write(root, {"pyproject.toml": "[project]\nname = \"pkg\"\n", "pkg/__init__.py": "", "pkg/config.py": CONFIG,
                  "nb.ipynb": NOTEBOOK, "twin.py": TWIN})
    _stale_after(cli, root, tmp_path, {"pkg/config.py": 'CDN = "https://cdn.example.net"\nSEG = "/ab.png"\n'},
                 "nb.ipynb:cell 1:3:20: IRI101")


def test_a_notebooks_cached_result_lists_its_dependencies(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The notebook's entry carries the same dependencies as the .py file with the same cells."""
    root = _project(tmp_path, {"pkg/config.py": CONFIG, "nb.ipynb": NOTEBOOK, "twin.py": TWIN})
    cache = tmp_path / "cache"
    _check(cli, root, cache)
    deps = _dependencies(cache)
    assert deps["nb.ipynb"] == deps["twin.py"] and [Path(p).name for p, _ in deps["twin.py"]] == ["config.py"]
