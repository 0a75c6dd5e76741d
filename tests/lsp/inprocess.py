"""The language server in the test's own process and event loop, for tests that watch what it does
inside (what it parses): messages go in as bodies, as ``lsp.transport`` hands them over, and come
out through a writer that keeps them."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from iri_lint.lsp.server import IriLintServer, create_server


class Writer:
    """pygls' writer: one framed message per ``write``."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.messages.append(json.loads(data.split(b"\r\n\r\n", 1)[1]))

    def close(self) -> None:
        pass


class InProcess:
    def __init__(self, **capabilities: Any) -> None:
        self.server: IriLintServer = create_server(debounce=0)
        self.writer = Writer()
        self.server.protocol.set_writer(self.writer)
        self.next_id = 0
        self.capabilities = capabilities

    def send(self, message: dict[str, Any]) -> None:
        self.server.lsp.receive(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    async def request(self, method: str, params: Any, timeout: float = 15) -> Any:
        self.next_id += 1
        msg_id = self.next_id
        self.send({"id": msg_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.writer.messages:
                if m.get("id") == msg_id and "method" not in m:
                    assert "error" not in m, m
                    return m.get("result")
            await asyncio.sleep(0.002)
        raise AssertionError(f"no answer to {method} within {timeout} s")

    async def start(self) -> None:
        await self.request("initialize", {"processId": None, "rootUri": None, "capabilities": self.capabilities})
        self.notify("initialized", {})

    async def open(self, uri: str, text: str, timeout: float = 15) -> list[dict[str, Any]]:
        """Open a document; its first diagnostics."""
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                              "text": text}})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.writer.messages:
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                    return list(m["params"]["diagnostics"])
            await asyncio.sleep(0.002)
        raise AssertionError(f"no diagnostics for {uri} within {timeout} s")

    async def settle(self, timeout: float = 15) -> None:
        """Wait until the server's background work (lints, the statement table) is done."""
        deadline = time.monotonic() + timeout
        while any(not t.done() for t in self.server._tasks):
            assert time.monotonic() < deadline, "the server is still busy"
            await asyncio.sleep(0.002)
