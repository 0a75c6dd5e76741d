"""Percent-encoded octets that are not UTF-8 (RFC 3987 sec. 3.2, 6.4) or are overlong (sec. 8),
found with regexes over the text: linear, with Python-level work only for the problems built."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from ...core.budget import Budget, take_matches
from ...core.lazy import lazy_regex


class OctetProblem(NamedTuple):
    """Escapes ``[start, end)``: one octet that is not UTF-8, or an overlong sequence."""

    start: int
    end: int
    kind: str  # "not-utf8" | "overlong"


def _hex(lo: int, hi: int) -> str:
    """A regex for the escapes ``%HH`` of the octets lo..hi, in either case of hex digit."""
    alts = []
    for high in range(lo >> 4, (hi >> 4) + 1):
        a, b = max(lo, high << 4) & 15, min(hi, (high << 4) | 15) & 15
        alts.append(f"{high:X}[{''.join(f'{x:X}' for x in range(a, b + 1))}]")
    return f"%(?i:{'|'.join(alts)})"


high_escape = lazy_regex("%(?i:[89A-F][0-9A-F])")  # an escaped octet from 0x80 up


class _Octets(NamedTuple):
    utf8: tuple[re.Pattern[str], ...]
    overlong: tuple[re.Pattern[str], ...]
    any_overlong: re.Pattern[str]
    not_utf8: re.Pattern[str]


@functools.cache
def _octet_regexes() -> _Octets:
    """Compiled on first use (only IRIs with escaped octets from 0x80 up need them)."""
    cont = _hex(0x80, 0xBF)
    overlong = tuple(re.compile(p) for p in (
        f"{_hex(0xC0, 0xC1)}{cont}",
        f"(?:{_hex(0xE0, 0xE0)}{_hex(0x80, 0x9F)}|{_hex(0xED, 0xED)}{_hex(0xA0, 0xBF)}){cont}",
        f"(?:{_hex(0xF0, 0xF0)}{_hex(0x80, 0x8F)}|{_hex(0xF4, 0xF4)}{_hex(0x90, 0xBF)}){cont}{cont}",
    ))
    return _Octets(
        # RFC 3629: the escaped well-formed UTF-8 sequences, by length; blanked with as many NULs
        # they keep the positions of the rest
        tuple(re.compile(p) for p in (
            f"{_hex(0xC2, 0xDF)}{cont}",
            f"(?:{_hex(0xE0, 0xE0)}{_hex(0xA0, 0xBF)}|{_hex(0xE1, 0xEC)}{cont}|{_hex(0xED, 0xED)}"
            f"{_hex(0x80, 0x9F)}|{_hex(0xEE, 0xEF)}{cont}){cont}",
            f"(?:{_hex(0xF0, 0xF0)}{_hex(0x90, 0xBF)}|{_hex(0xF1, 0xF3)}{cont}|{_hex(0xF4, 0xF4)}"
            f"{_hex(0x80, 0x8F)}){cont}{cont}",
        )),
        # well-formed-looking sequences that are overlong, a surrogate or above U+10FFFF, by
        # length: one IRI402 each
        overlong,
        re.compile("|".join(p.pattern for p in overlong)),
        re.compile(_hex(0x80, 0xFF)),  # once the sequences above are blanked: one IRI401 each
    )


def _blanked(text: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    """``text`` with the matches of ``patterns`` (of 2, 3, 4 escapes) replaced by NULs."""
    for size, pattern in enumerate(patterns, 2):
        if pattern.search(text):
            text = pattern.sub("\0" * 3 * size, text)
    return text


def octet_problems(text: str, budget: Budget | None) -> list[OctetProblem]:
    """(start, end, "overlong"|"not-utf8") for the bad sequences of escaped octets in ``text``,
    in text order: an overlong one whole, else each octet that no sequence takes (RFC 3629).
    Python-level work only for those the budget takes.

    Every octet from 0xC0 up starts a sequence of its own, so with the UTF-8 sequences blanked
    the overlong ones are found by one regex, and with those blanked too, the rest is not UTF-8.
    """
    rx = _octet_regexes()
    text = _blanked(text, rx.utf8)
    out = [OctetProblem(m.start(), m.end(), "overlong") for _, m in take_matches(
        budget, text, [("overlong", rx.any_overlong.pattern)],
        lambda _, pos: len(rx.any_overlong.findall(text, pos)))]
    rest = _blanked(text, rx.overlong)
    out += (OctetProblem(m.start(), m.end(), "not-utf8") for _, m in take_matches(
        budget, rest, [("not-utf8", rx.not_utf8.pattern)], lambda _, pos: len(rx.not_utf8.findall(rest, pos))))
    out.sort()
    return out
