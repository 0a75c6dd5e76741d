"""Settings come from the workspace's pyproject.toml and are reloaded when it changes."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_util import SERVER, accept_registrations, next_diagnostics, open_doc
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio

TEXT = 'import requests\n\nrequests.get("http://example.com/%e2%82%ac")\nrequests.get("http://example.com/%zz")\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.iri-lint]\nextend-select = ["IRI305"]\n', encoding="utf-8")
    (tmp_path / "pkg").mkdir()
    return tmp_path


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim"), root_uri=workspace.as_uri()))
    yield
    await lsp_client.shutdown_session()


def codes(diags: list[types.Diagnostic]) -> list[str]:
    return [str(d.code) for d in diags]


async def notify_changed(client: LanguageClient, pyproject: Path) -> None:
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]))


async def test_reload_on_watched_file_change(client: LanguageClient, workspace: Path) -> None:
    uri = (workspace / "pkg" / "mod.py").as_uri()
    assert codes(await open_doc(client, uri, TEXT)) == ["IRI305", "IRI305", "IRI110"]
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text('[tool.iri-lint]\nignore = ["IRI110"]\n', encoding="utf-8")
    before = client.diagnostics[uri]
    await notify_changed(client, pyproject)
    assert codes(await next_diagnostics(client, uri, before)) == []


async def test_reload_on_save_and_per_file_ignores(client: LanguageClient, workspace: Path) -> None:
    uri = (workspace / "pkg" / "mod.py").as_uri()
    assert codes(await open_doc(client, uri, TEXT)) == ["IRI305", "IRI305", "IRI110"]
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text('[tool.iri-lint]\nper-file-ignores = { "pkg/*" = ["IRI1"] }\n', encoding="utf-8")
    before = client.diagnostics[uri]
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=pyproject.as_uri())))
    assert codes(await next_diagnostics(client, uri, before)) == []


async def test_bad_config_is_reported_and_defaults_used(client: LanguageClient, workspace: Path) -> None:
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text('[tool.iri-lint]\nno-such-option = 1\n', encoding="utf-8")
    uri = (workspace / "pkg" / "mod.py").as_uri()
    assert codes(await open_doc(client, uri, TEXT)) == ["IRI110"]
    assert any("no-such-option" in m.message for m in client.messages)


async def test_excluded_files_get_no_diagnostics(client: LanguageClient, workspace: Path) -> None:
    (workspace / "pyproject.toml").write_text('[tool.iri-lint]\nextend-exclude = ["pkg"]\n', encoding="utf-8")
    assert await open_doc(client, (workspace / "pkg" / "mod.py").as_uri(), TEXT) == []
    assert codes(await open_doc(client, (workspace / "top.py").as_uri(), TEXT)) == ["IRI110"]
