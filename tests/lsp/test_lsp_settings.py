"""Settings from the editor (initializationOptions, workspace/didChangeConfiguration) over pyproject.toml's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsp_util import SERVER, accept_registrations, open_doc
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from iri_lint.config import Config
from iri_lint.lint import lint_text

pytestmark = pytest.mark.asyncio

# IRI305 (lowercase hex, opt-in) once for two, IRI110 (bad percent) once; profile "uri" adds one for the "é"
TEXT = ('import requests\n\nrequests.get("http://example.com/%e2%82%ac")\n'
        'requests.get("http://example.com/%zz")\nrequests.get("http://example.com/caf\u00e9")\n')


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.iri-lint]\nextend-select = ["IRI305"]\n', encoding="utf-8")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "strict.toml").write_text('[tool.iri-lint]\nprofile = "uri"\n', encoding="utf-8")
    (tmp_path / "other" / "pyproject.toml").write_text("[tool.iri-lint]\n", encoding="utf-8")
    return tmp_path


def codes(diags: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diags)


async def start(client: LanguageClient, workspace: Path, options: Any = None, vscode: bool = True) -> None:
    accept_registrations(client)
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code" if vscode else "neovim"),
        root_uri=workspace.as_uri(), initialization_options=options))


@pytest_lsp.fixture(config=SERVER)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.slow  # a server process per test; the others here keep the quick loop's coverage
async def test_without_settings_pyproject_rules(client: LanguageClient, workspace: Path) -> None:
    await start(client, workspace)
    assert codes(await open_doc(client, (workspace / "m.py").as_uri(), TEXT)) == want(PYPROJECT)


PYPROJECT = Config(extend_select=("IRI305",))


def want(config: Config) -> list[str]:
    """What ``iri-lint check`` reports on TEXT with ``config``: the server must agree."""
    return sorted(f.code for f in lint_text(TEXT, config))


@pytest.mark.parametrize(("options", "config"), [  # layered on pyproject.toml as check's command line is
    ({"ignore": ["IRI305"]}, Config(extend_select=("IRI305",), ignore=("IRI305",))),
    ({"select": ["IRI3"]}, Config(select=("IRI3",), extend_select=("IRI305",))),
    ({"extend-select": ["IRI3"], "ignore": "IRI110"}, Config(extend_select=("IRI305", "IRI3"), ignore=("IRI110",))),
    ({"profile": "uri"}, Config(extend_select=("IRI305",), profile="uri")),
    ({"iri-lint": {"profile": "uri", "ignore": ["IRI3"]}},  # wrapped in its section
     Config(extend_select=("IRI305",), profile="uri", ignore=("IRI3",))),
    ({"configPath": "other/strict.toml"}, Config(profile="uri")),  # instead of the nearest pyproject.toml
    ({"configPath": "other", "select": ["IRI4"]}, Config(select=("IRI4",))),  # a folder: its pyproject.toml
])
@pytest.mark.slow  # a server process per test; the others here keep the quick loop's coverage
async def test_initialization_options(client: LanguageClient, workspace: Path, options: dict[str, Any],
                                      config: Config) -> None:
    assert want(config) != want(PYPROJECT)
    await start(client, workspace, options)
    assert codes(await open_doc(client, (workspace / "m.py").as_uri(), TEXT)) == want(config)


async def test_unknown_settings_are_reported_and_left_out(client: LanguageClient, workspace: Path) -> None:
    await start(client, workspace, {"ignore": ["IRI305", "IRI999"], "colour": "red", "profile": "nope"})
    assert codes(await open_doc(client, (workspace / "m.py").as_uri(), TEXT)) == want(
        Config(extend_select=("IRI305",), ignore=("IRI305",)))
    messages = [m.message for m in client.messages]
    for word in ("colour", "nope", "IRI999"):
        assert any(word in m for m in messages), messages


async def settled(client: LanguageClient, uri: str, expected: list[str], timeout: float = 15) -> None:
    """Wait until the diagnostics for ``uri`` have ``expected`` codes (publications may cross settings)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while codes(list(client.diagnostics.get(uri) or ())) != expected:
        assert asyncio.get_running_loop().time() < deadline, (codes(list(client.diagnostics.get(uri) or ())), expected)
        await asyncio.sleep(0.01)


@pytest.mark.slow  # a server process per test; the others here keep the quick loop's coverage
async def test_did_change_configuration_pushed(client: LanguageClient, workspace: Path) -> None:
    await start(client, workspace, {"ignore": ["IRI110"]})
    uri = (workspace / "m.py").as_uri()
    assert codes(await open_doc(client, uri, TEXT)) == want(Config(extend_select=("IRI305",), ignore=("IRI110",)))
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"iri-lint": {"profile": "uri", "ignore": ["IRI305"]}}))  # over initializationOptions' ignore
    await settled(client, uri, want(Config(profile="uri", ignore=("IRI305",), extend_select=("IRI305",))))
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"iri-lint": {}}))
    await settled(client, uri, want(Config(extend_select=("IRI305",), ignore=("IRI110",))))  # back to those


async def test_did_change_configuration_pulled(client: LanguageClient, workspace: Path) -> None:
    client.set_configuration({"select": ["IRI3"]}, section="iri-lint")
    await start(client, workspace)  # the server asks for its section once initialized
    uri = (workspace / "m.py").as_uri()
    await open_doc(client, uri, TEXT)
    await settled(client, uri, want(Config(select=("IRI3",), extend_select=("IRI305",))))
    client.set_configuration({"select": ["IRI4"]}, section="iri-lint")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await settled(client, uri, want(Config(select=("IRI4",), extend_select=("IRI305",))))
