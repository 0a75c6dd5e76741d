"""The base protocol's framer (lsp/transport.py), without a server: bytes in, bodies and errors out."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from iri_lint.lsp.transport import MAX_HEADER, Framer, FramingError


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def feed_all(framer: Framer, chunks: list[bytes]) -> list[bytes | FramingError]:
    return [got for chunk in chunks for got in framer.feed(chunk)]


def cut(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


bodies = st.lists(st.binary(max_size=60), max_size=6)
cuts = st.lists(st.integers(min_value=0, max_value=10_000), max_size=12)


@given(bodies, cuts)
def test_bodies_come_out_whole_however_the_bytes_arrive(messages: list[bytes], where: list[int]) -> None:
    data = b"".join(frame(m) for m in messages)
    assert feed_all(Framer(), cut(data, where)) == messages


# what a broken client writes between messages: anything without a whole Content-Length line
junk = st.binary(max_size=80).filter(lambda b: b"\n" not in b)


@given(bodies, junk, cuts)
def test_after_junk_the_next_message_is_read(messages: list[bytes], garbage: bytes, where: list[int]) -> None:
    """Bytes that are no header (a body sent without one, a negative length, ...) cost one error and
    themselves; every message after them comes out."""
    data = b"X-No-Colon\r\n\r\n" + garbage + b"".join(frame(m) for m in messages)
    got = feed_all(Framer(), cut(data, where))
    assert isinstance(got[0], FramingError)
    assert got[1:] == messages


def test_a_body_without_header_before_a_message() -> None:
    request = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}).encode()
    got = feed_all(Framer(), [b"\r\n" + request + frame(request)])
    assert got == [FramingError("no Content-Length header"), request]


def test_lengths_that_cannot_be_read() -> None:
    framer = Framer(max_body=100)
    for header, why in [(b"Content-Length: 101", "over the limit"), (b"Content-Length: 99999999999999999999",
                                                                    "over the limit"),
                        (b"Content-Length: -5", "not a number"), (b"Content-Length: +5", "not a number"),
                        (b"Content-Length: 5_0", "not a number"), (b"Content-Length: \xd9\xa5", "not a number"),
                        (b"Content-Length: 5\r\nContent-Length: 6", "disagree")]:
        got = feed_all(framer, [header + b"\r\n\r\n{}" + frame(b"{}")])
        assert len(got) == 2 and why in got[0], (header, got)
        assert got[1] == b"{}"


def test_fields_are_read_as_http_reads_them() -> None:
    got = feed_all(Framer(), [b"CONTENT-LENGTH :\t2 \r\ncontent-type: x\r\ncontent-length: 2\r\n\r\n{}"])
    assert got == [b"{}"]


def test_bare_line_feeds_end_header_lines() -> None:
    assert feed_all(Framer(), [b"Content-Length: 2\n\n{}"]) == [b"{}"]


def test_a_header_line_is_bounded() -> None:
    framer = Framer()
    got = feed_all(framer, [b"X: " + b"a" * MAX_HEADER, b"a" * 10])
    assert len(got) == 1 and "longer than" in got[0]
    assert len(framer.buffer) <= 200  # the rest is being skipped, not kept
    assert feed_all(framer, [b"a" * 100_000 + frame(b"{}")]) == [b"{}"]


def test_skipping_keeps_memory_bounded() -> None:
    framer = Framer(max_body=10)
    feed_all(framer, [b"Content-Length: 11\r\n\r\n"])
    for _ in range(100):
        assert feed_all(framer, [b"x" * 10_000]) == []
        assert len(framer.buffer) <= 200
