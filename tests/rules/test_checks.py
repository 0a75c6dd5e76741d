"""Helpers of the analyses, against straightforward references."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from iri_lint.rules.checks import pct_runs

_HEX = set("0123456789abcdefABCDEF")


def _reference_pct_runs(text: str) -> list[tuple[int, int, bytes]]:
    """Maximal runs of %HH, found one character at a time (RFC 3986 sec. 2.1)."""
    out, i, n = [], 0, len(text)
    while i < n:
        start, octets = i, bytearray()
        while i + 2 < n and text[i] == "%" and text[i + 1] in _HEX and text[i + 2] in _HEX:
            octets.append(int(text[i + 1 : i + 3], 16))
            i += 3
        if octets:
            out.append((start, i, bytes(octets)))
        else:
            i += 1
    return out


@given(st.text(st.sampled_from(list("%%%4fFgA0é/")), max_size=60))
def test_pct_runs_agrees_with_the_reference(text: str) -> None:
    assert list(pct_runs(text)) == _reference_pct_runs(text)


def test_pct_runs_on_hostile_input() -> None:
    n = 50_000
    assert list(pct_runs("%" * n)) == []
    assert list(pct_runs("%C3%A9" * n)) == [(0, 6 * n, b"\xc3\xa9" * n)]
    assert len(list(pct_runs("%41x" * n))) == n
