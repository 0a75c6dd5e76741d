"""Settings come from the workspace's pyproject.toml and are reloaded when it changes."""

from __future__ import annotations

import asyncio
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


@pytest_lsp.fixture(config=SERVER)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
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
    assert codes(await open_doc(client, uri, TEXT)) == ["IRI305", "IRI110"]
    pyproject = workspace / "pyproject.toml"
    pyproject.write_text('[tool.iri-lint]\nignore = ["IRI110"]\n', encoding="utf-8")
    before = client.diagnostics[uri]
    await notify_changed(client, pyproject)
    assert codes(await next_diagnostics(client, uri, before)) == []


@pytest.mark.slow  # a server process per test; the others here keep the quick loop's coverage
async def test_reload_on_save_and_per_file_ignores(client: LanguageClient, workspace: Path) -> None:
    uri = (workspace / "pkg" / "mod.py").as_uri()
    assert codes(await open_doc(client, uri, TEXT)) == ["IRI305", "IRI110"]
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


async def test_an_unreadable_pyproject_is_reported_and_defaults_used(client: LanguageClient,
                                                                     workspace: Path) -> None:
    """A pyproject.toml that is not TOML (half-typed in the editor) is said once, as a bad key is; the
    documents are still linted, with the default settings."""
    (workspace / "pyproject.toml").write_text("[tool.iri-lint\n", encoding="utf-8")
    for name in ("mod.py", "other.py"):
        assert codes(await open_doc(client, (workspace / "pkg" / name).as_uri(), TEXT)) == ["IRI110"]
    said = [m.message for m in client.messages if "pyproject.toml" in m.message]
    assert len(said) == 1 and said[0].startswith(f"iri-lint: {workspace / 'pyproject.toml'}: ")


async def test_excluded_files_get_no_diagnostics(client: LanguageClient, workspace: Path) -> None:
    (workspace / "pyproject.toml").write_text('[tool.iri-lint]\nextend-exclude = ["pkg"]\n', encoding="utf-8")
    assert await open_doc(client, (workspace / "pkg" / "mod.py").as_uri(), TEXT) == []
    assert codes(await open_doc(client, (workspace / "top.py").as_uri(), TEXT)) == ["IRI110"]


async def test_a_document_is_excluded_as_check_excludes_it(client: LanguageClient, workspace: Path) -> None:
    """The excludes match as ``iri-lint check`` matches them (iri_lint.files): a pattern with a slash may
    match the end of the absolute path, as in a walk or with ``--force-exclude``."""
    (workspace / "pyproject.toml").write_text('[tool.iri-lint]\nextend-exclude = ["*/pkg/gen_*.py"]\n',
                                              encoding="utf-8")
    assert await open_doc(client, (workspace / "pkg" / "gen_a.py").as_uri(), TEXT) == []
    assert codes(await open_doc(client, (workspace / "pkg" / "a.py").as_uri(), TEXT)) == ["IRI110"]


@pytest.mark.slow  # a server process per test; the others here keep the quick loop's coverage
async def test_utf8_positions_when_the_client_prefers_them(client: LanguageClient, workspace: Path) -> None:
    # Neovim offers utf-8 first: the server takes it, and columns count bytes
    text = 'E = "😀"; u = "http://example.com/%zz"\n'
    diags = await open_doc(client, (workspace / "top.py").as_uri(), text)
    start = diags[0].range.start
    assert (start.line, start.character) == (0, len(text[: text.index("%")].encode("utf-8")))


@pytest_lsp.fixture(config=SERVER)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
async def bare_client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A workspace without a pyproject.toml; per-file-ignores from the editor."""
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim"), root_uri=tmp_path.as_uri(),
        initialization_options={"perFileIgnores": {"pkg/*": ["IRI1"]}}))
    yield
    await lsp_client.shutdown_session()


async def test_without_a_pyproject_per_file_settings_match_the_path_in_the_workspace(
        bare_client: LanguageClient, tmp_path: Path) -> None:
    """As ``iri-lint check`` matches them against the path from the current folder when no pyproject.toml
    configures a file, the server matches them against the path from the workspace's folder."""
    (tmp_path / "pkg").mkdir()
    assert codes(await open_doc(bare_client, (tmp_path / "pkg" / "mod.py").as_uri(), TEXT)) == []
    assert codes(await open_doc(bare_client, (tmp_path / "top.py").as_uri(), TEXT)) == ["IRI110"]


@pytest_lsp.fixture(config=SERVER)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
async def patient_client(lsp_client: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=workspace.as_uri(),
        initialization_options={"debounce": 400}))  # ms; overrides the command line's 20
    yield
    await lsp_client.shutdown_session()


@pytest.mark.slow  # a server process per test; the others here keep the quick loop's coverage
async def test_changes_are_debounced(patient_client: LanguageClient, workspace: Path) -> None:
    client = patient_client
    published: list[types.PublishDiagnosticsParams] = []
    features = client.protocol.fm._features  # count publications: wrap pytest-lsp's own handler
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def counting(params: types.PublishDiagnosticsParams) -> None:
        published.append(params)
        original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = counting
    uri = (workspace / "top.py").as_uri()
    await open_doc(client, uri, TEXT)  # opening lints at once, without waiting
    published.clear()
    before = client.diagnostics[uri]
    for version in range(2, 7):  # five quick edits: one lint, of the last version
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=TEXT + "#" * version)]))
    await next_diagnostics(client, uri, before)
    await asyncio.sleep(0.6)
    assert [p.version for p in published] == [6]
