"""Typing into a document over LSP: incremental diagnostics equal a fresh open's; stale runs publish nothing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import pytest_lsp
from lsp_util import SERVER, accept_registrations, change_doc, open_doc, summary
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]  # slow: each test starts a server process

HERE = Path(__file__).resolve().parent
SOURCE = (HERE / "fixtures" / "incremental_module.py.txt").read_text(encoding="utf-8")


async def start(client: LanguageClient, workspace: Path, options: object = None) -> None:
    accept_registrations(client)
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=workspace.as_uri(),
        initialization_options=options))


@pytest_lsp.fixture(config=SERVER)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


def position(text: str, offset: int) -> types.Position:
    """The UTF-16 position of an offset (the fixture's lines end in \\n)."""
    before = text[:offset]
    column = before[before.rfind("\n") + 1 :]
    return types.Position(line=before.count("\n"), character=len(column.encode("utf-16-le")) // 2)


async def test_typed_diagnostics_equal_a_fresh_open(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path, {"select": ["ALL"]})
    uri = (tmp_path / "typed.py").as_uri()
    text = SOURCE
    await open_doc(client, uri, text)
    rng = random.Random(7)
    for version in range(2, 14):
        # one keystroke (or a pasted line) at a place an editor's user would type: inside a string
        quotes = [i for i, c in enumerate(text) if c == '"' and text[i - 1] != "\\"]
        at = rng.choice(quotes)
        typed = rng.choice(["%zz", "a", " ", "é", "😀", "\n# noqa\n" if text[at - 1] == "\n" else "b"])
        edit = types.TextEdit(range=types.Range(start=position(text, at), end=position(text, at)), new_text=typed)
        text = text[:at] + typed + text[at:]
        got = await change_doc(client, uri, version, [edit])
        fresh = await open_doc(client, (tmp_path / f"fresh{version}.py").as_uri(), text)
        assert summary(got) == summary(fresh), version
        assert [d.message for d in got] == [d.message for d in fresh]


async def test_a_form_feed_does_not_shift_later_changes(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path)
    text = '# page one\f\nurl = "http://example.com/ok"\n'  # pygls' own copy: line 1's edit on line 2
    uri = (tmp_path / "ff.py").as_uri()
    assert await open_doc(client, uri, text) == []
    at = types.Position(line=1, character=len('url = "http://example.com/'))
    diags = await change_doc(client, uri, 2, [types.TextEdit(range=types.Range(start=at, end=at), new_text="%zz")])
    assert summary(diags) == [("IRI110", 1, at.character, 1, at.character + 1)]


async def test_stale_runs_publish_nothing(client: LanguageClient, tmp_path: Path) -> None:
    await start(client, tmp_path, {"debounce": 0})  # every change starts a run at once
    published: list[types.PublishDiagnosticsParams] = []
    features = client.protocol.fm._features  # count publications: wrap pytest-lsp's own handler
    original = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def counting(params: types.PublishDiagnosticsParams) -> None:
        published.append(params)
        original(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = counting
    big = "import requests\n\n" + "".join(
        f'def f{i}():\n    return requests.get("http://example.com/{i}/%zz")\n\n\n' for i in range(600))
    uri = (tmp_path / "big.py").as_uri()
    await open_doc(client, uri, big)
    published.clear()
    for version in range(2, 8):  # each edits the import line: a whole-file run each, superseded by the next
        big = big.replace("import requests", f"import requests  # {version}", 1) if version == 2 else \
            big.replace(f"# {version - 1}", f"# {version}", 1)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=big)]))
    for _ in range(1500):
        if published and published[-1].version == 7:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.3)
    versions = [p.version or 0 for p in published]
    assert versions[-1] == 7 and versions == sorted(set(versions)), versions  # never an older one after a newer
    assert len(published[-1].diagnostics) == 600
