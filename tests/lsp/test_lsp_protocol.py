"""The base protocol and JSON-RPC under a broken or hostile client: raw bytes to a server subprocess.

Whatever arrives, the server stays alive and keeps listening, and every request gets an answer
(JSON-RPC 2.0 sec. 5: an error object, with a null id when the id cannot be read); ``exit`` ends the
process with 0 after ``shutdown`` and 1 without it (LSP 3.17, "Exit Notification").
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any, BinaryIO

import pytest
from raw_client import SERVER_COMMAND, RawServer, frame

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


@pytest.fixture(scope="module")
def server() -> Iterator[RawServer]:
    """One server for the tests that leave it running (each ends with it reading messages again)."""
    got = RawServer()
    try:
        assert "capabilities" in got.initialize()["result"]
        yield got
    finally:
        got.stop()


@pytest.fixture
def own_server() -> Iterator[RawServer]:
    """A server for a test that ends it."""
    got = RawServer()
    try:
        assert "capabilities" in got.initialize()["result"]
        yield got
    finally:
        got.stop()


def assert_still_listening(server: RawServer) -> None:
    """A well-formed request after the bad input gets its answer."""
    got = server.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.py"},
                                                "position": {"line": 0, "character": 0}})
    assert got == {"jsonrpc": "2.0", "id": server.next_id, "result": None}, got
    assert server.alive()


@pytest.mark.parametrize("header", [
    b"Content-Length: 99999999999999999999\r\n",  # more than any message, more than an index
    b"Content-Length: -5\r\n",
    b"Content-Length: five\r\n",
    b"Content-Length: 5\r\nContent-Length: 7\r\n",  # two that disagree
    b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n",  # none at all
    b"",  # a blank line where the headers should be
])
def test_a_bad_header_is_answered_and_the_server_reads_on(server: RawServer, header: bytes) -> None:
    lost = frame({"jsonrpc": "2.0", "id": 5, "method": "shutdown"}).split(b"\r\n\r\n", 1)[1]
    server.send(header + b"\r\n" + lost)
    error = server.response(None)["error"]
    assert error["code"] == PARSE_ERROR and "Content-Length" in error["message"]
    assert server.alive()
    assert_still_listening(server)


def test_a_header_line_without_end_is_cut_off(server: RawServer) -> None:
    server.send(b"X-Junk: " + b"a" * 100_000 + b"\r\n\r\n")
    assert server.response(None)["error"]["code"] == PARSE_ERROR
    assert_still_listening(server)


def test_headers_are_read_as_http_reads_them(server: RawServer) -> None:
    """Field names in any case, spaces around the value (RFC 9110 sec. 5.1, 5.5)."""
    body = frame({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": "file:///nowhere.py"}, "position": {"line": 0, "character": 0}}}).split(b"\r\n\r\n")[1]
    server.send(b"content-length:  %d \r\n\r\n%s" % (len(body), body))
    assert server.response(3) == {"jsonrpc": "2.0", "id": 3, "result": None}


@pytest.mark.parametrize(("body", "code"), [
    (b"{not json", PARSE_ERROR),
    (b"\xff\xfe", PARSE_ERROR),
    (b"[1, 2]", INVALID_REQUEST),  # LSP has no batches
    (b'"hello"', INVALID_REQUEST),
    (b'{"jsonrpc": "2.0"}', INVALID_REQUEST),
    (b'{"id": 4, "method": "shutdown"}', INVALID_REQUEST),  # no "jsonrpc"
    (b'{"jsonrpc": "2.0", "id": 4, "method": 5}', INVALID_REQUEST),
])
def test_a_body_that_is_no_request_is_answered(server: RawServer, body: bytes, code: int) -> None:
    server.send(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    got = server.response(4 if b'"id": 4' in body else None)
    assert got["error"]["code"] == code, got
    assert_still_listening(server)


def test_a_request_with_invalid_params_gets_an_error(server: RawServer) -> None:
    msg_id = server.send_request("textDocument/hover", {"bogus": 1})
    error = server.response(msg_id)["error"]
    assert error["code"] == INVALID_PARAMS
    assert_still_listening(server)


def test_a_notification_with_invalid_params_is_dropped(server: RawServer) -> None:
    server.notify("textDocument/didOpen", {"textDocument": 5})
    assert_still_listening(server)


def test_requests_after_shutdown_get_an_error(own_server: RawServer) -> None:
    server = own_server
    assert "error" not in server.request("shutdown")
    hover = server.request("textDocument/hover", {"textDocument": {"uri": "file:///x.py"},
                                                  "position": {"line": 0, "character": 0}})
    assert hover["error"]["code"] == INVALID_REQUEST
    assert server.request("shutdown")["error"]["code"] == INVALID_REQUEST
    server.notify("exit")
    assert server.wait() == 0


@pytest.mark.slow  # a server process of its own (the others here keep the quick loop's coverage)
def test_exit_without_shutdown_exits_1(own_server: RawServer) -> None:
    own_server.notify("exit")  # stdin stays open: the server must not wait for its end
    assert own_server.wait(10) == 1


@pytest.mark.slow  # a server process of its own (the others here keep the quick loop's coverage)
def test_exit_after_shutdown_exits_0_even_with_stdin_open(own_server: RawServer) -> None:
    server = own_server
    assert "error" not in server.request("shutdown")
    server.notify("exit")
    assert server.wait(10) == 0


def test_end_of_input_without_exit_ends_the_server(own_server: RawServer) -> None:
    """The client died: the server must not outlive it (1: it was not shut down)."""
    server = own_server
    server.close_stdin()
    assert server.wait(10) == 1


@pytest.mark.slow  # a server process of its own (the others here keep the quick loop's coverage)
def test_a_body_cut_short_by_the_end_of_input_ends_the_server(own_server: RawServer) -> None:
    own_server.send(b"Content-Length: 100\r\n\r\n{}")
    own_server.close_stdin()
    assert own_server.wait(10) == 1


def test_tcp_reads_with_the_same_reader() -> None:
    """``--tcp``: a bad header is answered, the server reads on, and ``exit`` ends it with its code."""
    with socket.socket() as probe:  # a free port (another process may take it first: then retry)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([*SERVER_COMMAND, "--tcp", "--port", str(port)], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=15)
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not listen"
                time.sleep(0.1)
        with conn:
            reader = conn.makefile("rb")
            conn.sendall(b"Content-Length: -1\r\n\r\n" + frame({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}))
            answers = [read_frame(reader), read_frame(reader)]
            assert answers[0]["error"]["code"] == PARSE_ERROR and answers[0]["id"] is None
            assert answers[1] == {"jsonrpc": "2.0", "id": 1, "result": None}
            conn.sendall(frame({"jsonrpc": "2.0", "method": "exit"}))
            assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def read_frame(stream: BinaryIO) -> dict[str, Any]:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    got: dict[str, Any] = json.loads(stream.read(length))
    return got
