"""The server's memory stays flat over a long session (issue #30 item 16): what a notification or a
closed document leaves behind must be freed, or an editor's server grows all day."""

from __future__ import annotations

import gc
import itertools
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from raw_client import RawServer, frame, rss_kib

from iri_lint.config import Config
from iri_lint.lsp.incremental import IncrementalLinter

needs_proc = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc (Linux)")

TEXT = 'import requests\n\nURL = "http://example.com/a b"\nrequests.get(URL)\n'
# it grew by 43 MB before: pygls kept every notification's Future (about 2 MB per 1,000 edits) and
# the server a lock per document ever opened (2 MB for these 5,000); now by well under 0.1 MB
GROWTH_LIMIT_KIB = 1024


def did_open(uri: str, version: int = 1) -> dict[str, object]:
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "python", "version": version, "text": TEXT}}}


def did_change(uri: str, version: int) -> dict[str, object]:
    """Even versions type an "x" into the IRI, odd ones delete it: the text does not grow."""
    at = {"line": 2, "character": 26}
    after = {"line": 2, "character": 27}
    change = {"range": {"start": at, "end": at}, "text": "x"} if version % 2 == 0 else \
        {"range": {"start": at, "end": after}, "text": ""}
    return {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}}


def did_close(uri: str) -> dict[str, object]:
    return {"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}}


def hover(server: RawServer, uri: str) -> None:
    """A request after the notifications sent so far: answered once they are handled (and linted)."""
    got = server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 8}})
    assert "error" not in got, got


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RawServer]:
    got = RawServer(cwd=tmp_path)
    try:
        got.initialize(tmp_path)
        yield got
    finally:
        got.stop()


def session(server: RawServer, root: Path, edits: int, documents: int, start: int = 0) -> None:
    """``edits`` changes to one document, then ``documents`` distinct files opened and closed; a hover
    every 100 messages lints the current text and waits for the server to catch up."""
    uri = (root / "typed.py").as_uri()
    if not start:
        server.send(frame(did_open(uri)))
    batch = []
    for k in range(start + 1, start + edits + 1):
        batch.append(frame(did_change(uri, k + 1)))
        if k % 100 == 0:
            server.send(b"".join(batch))
            batch = []
            hover(server, uri)
    server.send(b"".join(batch))
    for k in range(start, start + documents):
        other = (root / f"file_{k}.py").as_uri()
        batch.append(frame(did_open(other)))
        if k % 50 == 0:
            server.send(b"".join(batch))
            batch = []
            hover(server, other)
        batch.append(frame(did_close(other)))
    server.send(b"".join(batch))
    hover(server, uri)


@pytest.mark.slow
@needs_proc
def test_memory_stays_flat_over_edits_and_documents(server: RawServer, tmp_path: Path) -> None:
    """Two equal windows of 10,000 edits and 5,000 documents opened and closed: memory that grows with
    the messages grows in both; a one-time step (the interpreter's table of interned strings, which
    every new file name passes through, resized once: about 0.6 MB) shows in one at most."""
    session(server, tmp_path, edits=2_000, documents=1_000)  # warm up: caches, allocator arenas
    rss = [rss_kib(server.proc.pid)]
    for start in (2_000, 12_000):
        session(server, tmp_path, edits=10_000, documents=5_000, start=start)
        rss.append(rss_kib(server.proc.pid))
    grown = [b - a for a, b in itertools.pairwise(rss)]
    print(f"RSS {rss} KiB", file=sys.stderr)
    assert min(grown) < GROWTH_LIMIT_KIB, f"grew by {grown} KiB"


@pytest.mark.slow  # stress: a long file
def test_edits_all_over_a_long_file_keep_one_copy_of_it() -> None:
    """Each statement linted again after an edit must not keep the lines of that version alive: after
    typing into 50 statements of a 2,000-line module, the linter holds a copy or two of it (7x the
    text; it held one per statement: 12 MB here, 320x the text)."""
    block = ('\n\nclass Client{n}:\n    base_url = "http://svc{n}.example.com/%zz/"\n'
             + "".join(f"\n    def get{k}(self):\n        return self.base_url + '{k}'\n" for k in range(12)))
    lines = "".join(block.format(n=n) for n in range(50)).split("\n")
    sites = [i for i, line in enumerate(lines) if "base_url = " in line]
    linter = IncrementalLinter(Config())
    tracemalloc.start()  # (before the first lint: the module tree it keeps is replaced piece by piece)
    try:
        assert len(linter.lint("\n".join(lines))) == 50
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for i in sites:  # type a character into each IRI
            lines[i] = lines[i][:-2] + "x" + lines[i][-2:]
            assert len(linter.lint("\n".join(lines))) == 50
            assert linter.last.mode == "incremental"
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    text_size = len("\n".join(lines))
    print(f"{grown} bytes for a {text_size}-character text", file=sys.stderr)
    assert grown < 20 * text_size, f"{grown} bytes for a {text_size}-character text"
