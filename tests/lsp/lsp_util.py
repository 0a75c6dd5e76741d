"""Helpers for driving the iri-lint language server from tests (imported by the tests/lsp modules)."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Sequence

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

# the real server, over stdio, in a subprocess; 20 ms debounce keeps the tests quick
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "iri_lint.lsp", "--debounce", "20"])


def utf16_offset(text: str, pos: types.Position) -> int:
    """Code point offset of an LSP (UTF-16) position, computed independently of the server's code."""
    lines = text.split("\n")
    offset = sum(len(line) + 1 for line in lines[: pos.line])
    units = 0
    for i, c in enumerate(lines[pos.line] if pos.line < len(lines) else ""):
        if units >= pos.character:
            return offset + i
        units += 2 if ord(c) > 0xFFFF else 1
    return offset + len(lines[pos.line]) if pos.line < len(lines) else len(text)


def apply_text_edits(text: str, edits: Sequence[types.TextEdit]) -> str:
    """What an editor does with a TextEdit list (all ranges refer to the original text)."""
    spans = sorted(((utf16_offset(text, e.range.start), utf16_offset(text, e.range.end), e.new_text) for e in edits),
                   reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_of(edit: types.WorkspaceEdit | None, uri: str) -> list[types.TextEdit]:
    """The text edits a workspace edit makes to ``uri`` (documentChanges or changes form)."""
    assert edit is not None
    out: list[types.TextEdit] = []
    for change in edit.document_changes or ():
        assert isinstance(change, types.TextDocumentEdit)
        if change.text_document.uri == uri:
            out.extend(e for e in change.edits if isinstance(e, types.TextEdit))
    out.extend((edit.changes or {}).get(uri, ()))
    return out


async def next_diagnostics(client: LanguageClient, uri: str, before: object = None,
                           timeout: float = 15) -> list[types.Diagnostic]:
    """Wait until the server publishes diagnostics for ``uri`` (a list other than ``before``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = client.diagnostics.get(uri)
        if got is not None and got is not before:
            return list(got)
        await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics for {uri} within {timeout}s")


async def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1) -> list[types.Diagnostic]:
    before = client.diagnostics.get(uri)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)))
    return await next_diagnostics(client, uri, before)


async def change_doc(client: LanguageClient, uri: str, version: int,
                     changes: Sequence[types.TextEdit] | str) -> list[types.Diagnostic]:
    """Send a change (incremental edits, or a whole new text) and wait for the new diagnostics."""
    before = client.diagnostics.get(uri)
    events: list[types.TextDocumentContentChangeEvent]
    if isinstance(changes, str):
        events = [types.TextDocumentContentChangeWholeDocument(text=changes)]
    else:  # later edits first, so earlier ranges stay valid
        ordered = sorted(changes, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
        events = [types.TextDocumentContentChangePartial(range=e.range, text=e.new_text) for e in ordered]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=events))
    return await next_diagnostics(client, uri, before)


def summary(diags: Sequence[types.Diagnostic]) -> list[tuple[str, int, int, int, int]]:
    """(code, start line, start char, end line, end char) per diagnostic, for exact comparisons."""
    return [(str(d.code), d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
            for d in diags]


def accept_registrations(client: LanguageClient) -> list[types.RegistrationParams]:
    """Answer client/registerCapability like an editor does; returns the list the requests go to."""
    seen: list[types.RegistrationParams] = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
    def register(params: types.RegistrationParams) -> None:
        seen.append(params)

    return seen
