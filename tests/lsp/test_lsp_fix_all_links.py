"""The editor's "fix all" follows ``--fix``'s rule: never for a symlink resolving outside the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsp_util import SERVER, accept_registrations, open_doc
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]  # slow: each test starts a server process

TEXT = 'import urllib.request\n\nurllib.request.urlopen("https://example.com/caf\u00e9")\n'  # a safe fix


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.py").write_text(TEXT, encoding="utf-8")
    (ws / "link.py").symlink_to(outside / "victim.py")
    (ws / "pkg").mkdir()
    (ws / "pkg" / "real.py").write_text(TEXT, encoding="utf-8")
    (ws / "inner_link.py").symlink_to(ws / "pkg" / "real.py")
    return ws


@pytest_lsp.fixture(config=SERVER)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
async def client(lsp_client: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")]))
    yield
    await lsp_client.shutdown_session()


async def fix_all_actions(client: LanguageClient, uri: str) -> list[types.CodeAction | types.Command]:
    everything = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=99, character=0))
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=everything,
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    return list(got or [])


@pytest.mark.parametrize(("name", "offered"), [("pkg/real.py", True), ("inner_link.py", True), ("link.py", False)])
async def test_fix_all_only_inside_the_workspace(client: LanguageClient, workspace: Path, name: str,
                                                 offered: bool) -> None:
    uri = (workspace / name).as_uri()
    diags = await open_doc(client, uri, TEXT)
    assert {d.code for d in diags} == {"IRI404"}, diags  # checked either way
    assert bool(await fix_all_actions(client, uri)) is offered
