"""The LSP base protocol ("Base Protocol" of LSP 3.17): header fields, a blank line, a JSON body.

pygls 2.1.1 reads it in ``pygls.io_.run_async``, and a client that breaks the framing breaks the
server (docs/pygls-upstream.md): a ``Content-Length`` too large for an index kills it, one it does
not match exactly (``-5``, missing, ``content-length``) makes it read every later message as
headers, and stay deaf. This reader is ours: ``Framer`` turns bytes into message bodies and
framing errors, with no I/O, and after an error it finds the next ``Content-Length`` line and
reads on. ``run_stdio`` and ``run_tcp`` feed it and hand each body to the protocol
(``lsp.protocol``), until the client says ``exit`` or goes away.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, Protocol

log = logging.getLogger("iri_lint.lsp")

MAX_BODY = 64 * 1024 * 1024  # bytes: a bigger message (a 64 MB file) is refused, not read into memory
MAX_HEADER = 8 * 1024  # bytes in one header line
CHUNK = 64 * 1024

_LINE_END = re.compile(rb"\r?\n")
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]++")  # a field name (RFC 9110 sec. 5.1, 5.6.2)
_LENGTH = re.compile(rb"[0-9]{1,20}")
# where to read on after a framing error: a whole Content-Length line (JSON strings hold no raw line
# break, so this never matches inside a body a client wrote as one line)
_RESYNC = re.compile(rb"(?i)content-length[ \t]{0,16}+:[ \t]{0,16}+[0-9]{1,20}+[ \t]{0,16}+\r?\n")
_RESYNC_KEEP = 128  # bytes kept when no such line is in the buffer yet: one may be arriving


class FramingError(str):
    """Why the bytes read could not be framed as a message (they are skipped)."""


class Framer:
    """Bytes in, message bodies (``bytes``) and ``FramingError``s out, in order."""

    def __init__(self, max_body: int = MAX_BODY) -> None:
        self.max_body = max_body
        self.buffer = bytearray()
        self.fields: list[tuple[bytes, bytes]] = []  # header fields read so far
        self.length: int | None = None  # reading a body of this many bytes
        self.lost = False  # after an error: looking for the next Content-Length line

    def feed(self, data: bytes) -> Iterator[bytes | FramingError]:
        """Add ``data``; yield every message (or error) it completes."""
        self.buffer += data
        while True:
            if self.lost and not self._resync():
                return
            if self.length is not None:
                if len(self.buffer) < self.length:
                    return
                body = bytes(self.buffer[: self.length])
                del self.buffer[: self.length]
                self.length = None
                yield body
                continue
            got = self._header_line()
            if got is None:
                return
            if isinstance(got, FramingError):
                yield self._fail(got)
                continue
            if got:
                name, colon, value = got.partition(b":")
                if not colon or not _TOKEN.fullmatch(name.rstrip(b" \t")):
                    yield self._fail(FramingError(f"a header line is not 'Name: value': {_show(got)}"))
                else:  # (names are case-insensitive, spaces around a value are no part of it: sec. 5.5)
                    self.fields.append((name.rstrip(b" \t").lower(), value.strip(b" \t")))
                continue
            why = self._start_body()  # a blank line: the headers are complete
            if why is not None:
                yield self._fail(why)

    def _header_line(self) -> bytes | FramingError | None:
        """The next header line without its end; None until one is complete."""
        m = _LINE_END.search(self.buffer, 0, MAX_HEADER + 2)
        if m is None:
            if len(self.buffer) > MAX_HEADER:
                return FramingError(f"a header line longer than {MAX_HEADER} bytes")
            return None
        line = bytes(self.buffer[: m.start()])
        del self.buffer[: m.end()]
        return line

    def _start_body(self) -> FramingError | None:
        values = {value for name, value in self.fields if name == b"content-length"}
        self.fields = []
        if not values:
            return FramingError("no Content-Length header")
        if len(values) > 1:
            return FramingError(f"Content-Length headers that disagree: {', '.join(sorted(map(_show, values)))}")
        value = values.pop()
        if not _LENGTH.fullmatch(value):
            return FramingError(f"Content-Length is not a number of bytes: {_show(value)}")
        length = int(value)
        if length > self.max_body:
            return FramingError(f"Content-Length {length} is over the limit of {self.max_body} bytes")
        self.length = length
        return None

    def _fail(self, why: FramingError) -> FramingError:
        self.fields, self.length, self.lost = [], None, True
        return why

    def _resync(self) -> bool:
        """Drop bytes up to the next Content-Length line; whether one was found."""
        m = _RESYNC.search(self.buffer)
        if m is None:
            del self.buffer[: max(0, len(self.buffer) - _RESYNC_KEEP)]
            return False
        del self.buffer[: m.start()]
        self.lost = False
        return True


def _show(value: bytes) -> str:
    text = value[:40].decode("ascii", "backslashreplace")
    return repr(text + ("..." if len(value) > 40 else ""))


class Receiver(Protocol):
    """What the reader hands its messages to (``lsp.protocol.IriLintProtocol``)."""

    exit_code: int | None

    def receive(self, body: bytes) -> None: ...

    def framing_error(self, why: str) -> None: ...

    def ended(self) -> int: ...


async def pump(read: Callable[[], Awaitable[bytes]], receiver: Receiver) -> int:
    """Read and dispatch messages until ``exit`` or the end of the input; the exit code."""
    framer = Framer()
    while True:
        data = await read()
        if not data:
            log.info("the client closed the connection")
            return receiver.ended()
        for frame in framer.feed(data):
            if isinstance(frame, FramingError):
                log.error("cannot read a message: %s; skipped to the next header", frame)
                receiver.framing_error(frame)
            else:
                receiver.receive(frame)
            if receiver.exit_code is not None:
                return receiver.exit_code


def _stdin_reader(fd: int) -> Callable[[], Awaitable[bytes]]:
    """Chunks of ``fd``, read by a daemon thread: a read blocked on a silent client must not keep the
    process from exiting (an executor's thread would), and ``os.read`` holds no lock that interpreter
    shutdown needs (``sys.stdin.buffer``'s does)."""
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue(maxsize=2)  # the client waits while we are busy

    def run() -> None:
        while True:
            try:
                data = os.read(fd, CHUNK)
            except OSError:
                data = b""
            try:
                asyncio.run_coroutine_threadsafe(chunks.put(data), loop).result()
            except RuntimeError:  # the loop is closed: the server is exiting
                return
            if not data:
                return

    threading.Thread(target=run, name="iri-lint stdin", daemon=True).start()
    return chunks.get


def run_stdio(receiver: Receiver) -> int:
    """Serve over stdin (the protocol writes to stdout); the exit code."""

    async def main() -> int:
        return await pump(_stdin_reader(sys.stdin.fileno()), receiver)

    return _run(main)


def run_tcp(receiver: Receiver, host: str, port: int, on_connect: Callable[[asyncio.StreamWriter], None]) -> int:
    """Listen on ``host:port``, serve the first client to connect; the exit code."""

    async def main() -> int:
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        clients = 0

        async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal clients
            clients += 1
            if clients > 1:  # (one protocol, one client)
                writer.close()
                return
            on_connect(writer)
            try:
                code = await pump(lambda: reader.read(CHUNK), receiver)
            except Exception as exc:  # (a reset connection)
                log.error("the connection failed: %s", exc)
                code = 1
            if not done.done():
                done.set_result(code)

        server = await asyncio.start_server(connected, host, port)
        log.info("listening on %s", ", ".join(str(s.getsockname()) for s in server.sockets))
        async with server:
            return await done

    return _run(main)


def _run(main: Callable[[], Coroutine[Any, Any, int]]) -> int:
    try:
        return asyncio.run(main())
    except BrokenPipeError:
        log.error("the client is gone (broken pipe)")
        return 1
    except KeyboardInterrupt:
        return 1
