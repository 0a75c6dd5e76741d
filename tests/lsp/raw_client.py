"""A bare LSP client for protocol-level tests: raw bytes to a ``python -m iri_lint.lsp`` subprocess.

pytest-lsp frames every message correctly; these tests need to send what a broken or hostile client
sends (no ``Content-Length``, a negative or enormous one, bodies that are not JSON-RPC) and to see
the process's exit code.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

SERVER_COMMAND = [sys.executable, "-m", "iri_lint.lsp", "--debounce", "20"]


def frame(message: object) -> bytes:
    """One message as the base protocol frames it (``Content-Length`` header, blank line, JSON body)."""
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def rss_kib(pid: int) -> int:
    """Resident set size of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


class RawServer:
    """The server in a subprocess; what it writes is parsed into messages by a thread."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        self.proc = subprocess.Popen([*SERVER_COMMAND, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stderr = b""
        self.next_id = 1000
        self.threads = [threading.Thread(target=self._read, daemon=True),
                        threading.Thread(target=self._drain_stderr, daemon=True)]
        for thread in self.threads:
            thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        stream = self.proc.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line == b"\r\n":
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None, "the server sent a message without Content-Length"
            self.messages.put(json.loads(stream.read(length)))

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        fd = self.proc.stderr.fileno()
        for chunk in iter(lambda: os.read(fd, 65536), b""):
            self.stderr += chunk

    # ---------------------------------------------------------------- sending

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def notify(self, method: str, params: object = None) -> None:
        self.send(frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def send_request(self, method: str, params: object = None) -> int:
        self.next_id += 1
        self.send(frame({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        return self.next_id

    def close_stdin(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    # ---------------------------------------------------------------- receiving

    def next_message(self, timeout: float = 15) -> dict[str, Any] | None:
        """The next message the server sent (None: its stdout closed); AssertionError on a timeout."""
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"nothing from the server within {timeout} s") from None

    def response(self, msg_id: int | str | None, timeout: float = 15) -> dict[str, Any]:
        """The response to request ``msg_id`` (other messages on the way are dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0.01, deadline - time.monotonic()))
            assert message is not None, f"the server closed its output before answering {msg_id!r}"
            if "method" not in message and "id" in message and message["id"] == msg_id:  # (null: JSON-RPC sec. 5)
                return message

    def request(self, method: str, params: object = None, timeout: float = 15) -> dict[str, Any]:
        return self.response(self.send_request(method, params), timeout)

    def initialize(self, root: Path | None = None, **capabilities: object) -> dict[str, Any]:
        got = self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri() if root else None,
                                          "capabilities": capabilities})
        self.notify("initialized", {})
        return got

    def wait(self, timeout: float = 15) -> int:
        """The exit code, once the process ends."""
        return self.proc.wait(timeout)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        """End the process if it is still running (a test's clean-up)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        for thread in self.threads:  # (they end at the end of the output)
            thread.join(10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except BrokenPipeError:  # (stdin with unsent bytes)
                    pass
