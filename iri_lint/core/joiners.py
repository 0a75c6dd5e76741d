"""Joiners in IRIs: where RFC 5892 Appendix A.1 and A.2 (CONTEXTJ) allow ZWNJ and ZWJ.

An allowed joiner (after a virama, or a ZWNJ between joining letters) is part of how a word is
written, not an invisible trick (RFC 3987 sec. 7.5); the security pass blanks those out before
it reports invisible characters. The verdicts are idna's own (``valid_contextj``): the joining
type of a character is learnt by asking idna about short probe labels, so the rules applied are
exactly those the resolver will apply.
"""

from __future__ import annotations

import functools
import re

from .components import Component, ComponentTable, char_class, distinct_chars, unused_chars
from .lazy import lazy_regex

__all__ = ["JOINERS", "ZWJ", "ZWNJ", "joiner_allowed", "joiners_blanked", "stand_ins"]


ZWNJ, ZWJ = "\u200c", "\u200d"
JOINERS = frozenset((ZWNJ, ZWJ))
_joiner = lazy_regex(f"[{ZWNJ}{ZWJ}]")
_CONTEXT = 128  # characters either side that the CONTEXTJ rules may look at
# joining types D and T (ArabicShaping.txt), to ask idna how it sees a character
_BEH, _FATHATAN = "\u0628", "\u064b"


def joiner_allowed(text: str, comp: Component | None, pos: int) -> bool:
    """RFC 5892 Appendix A.1/A.2 (CONTEXTJ): ZWNJ/ZWJ after a virama or between joining letters."""
    start, end = (comp.span.start, comp.span.end) if comp is not None else (0, len(text))
    lo, hi = max(start, pos - _CONTEXT), min(end, pos + _CONTEXT + 1)
    return _contextj(text[lo:hi], pos - lo) is True


def _contextj(label: str, pos: int) -> bool | None:
    """idna's CONTEXTJ verdict for the joiner at ``pos``; None when idna raises (no name)."""
    from idna.core import IDNAError, valid_contextj  # lazy boundary (c): IDNA's tables, for a joiner

    try:
        return bool(valid_contextj(label, pos))
    except (IDNAError, ValueError):
        return None


@functools.lru_cache(maxsize=1 << 14)
def _joining(c: str) -> str:
    """How idna's CONTEXTJ rules see ``c`` (RFC 5892 A.1, A.2), asked with probe labels.

    Letters: "V" virama, "?" no name (idna raises when it precedes a joiner), "L" joins to
    the left (L, D), "R" to the right (R, D), "T" transparent.
    """
    flags = ""
    after = _contextj(c + ZWJ, 1)
    if after is None:
        flags += "?"
    elif after:
        flags += "V"
    if _contextj(c + _FATHATAN + ZWNJ + _BEH, 2):
        flags += "L"
    if _contextj(_BEH + ZWNJ + _FATHATAN + c, 1):
        flags += "R"
    if "L" not in flags and _contextj(_BEH + c + _FATHATAN + ZWNJ + _BEH, 3):
        flags += "T"
    return flags


@functools.cache
def _idna_follows_rfc5892() -> bool:
    """Whether idna's CONTEXTJ scan stops at a non-transparent character, as RFC 5892 A.1 says.

    Older idna releases scan on; then every joiner is asked about one by one.
    """
    return (_joining(_BEH) == "LR" and _joining(_FATHATAN) == "T"
            and _contextj(_BEH + "a" + ZWNJ + _BEH, 2) is False)


def stand_ins(text: str) -> list[str]:
    """Characters ``text`` does not have: for an allowed ZWNJ, an allowed ZWJ, and a mark."""
    return unused_chars(distinct_chars(text), 3)


def _blank_allowed(s: str, flags: dict[str, str], ok: str, ahead: str, ok_zwj: str = "") -> str:
    """``s`` with each joiner that CONTEXTJ allows within ``s`` replaced by ``ok`` (a ZWJ by
    ``ok_zwj`` if given), positions kept.

    RFC 5892 A.1/A.2: a joiner after a virama; a ZWNJ after (L|D) T* and before T* (R|D), each
    within the 128 characters ``joiner_allowed`` shows idna. ``flags`` covers ``s``'s
    characters; ``ok``, ``ok_zwj`` and ``ahead`` are characters ``s`` does not have.
    """
    def cls(flag: str) -> str:
        return char_class(c for c, f in flags.items() if flag in f)

    viramas = cls("V")
    if viramas != char_class(()):
        # one joiner at a time: a joiner after another is not after the virama either way
        s = re.sub(f"(?<={viramas}){ZWNJ}", ok, s)
        s = re.sub(f"(?<={viramas}){ZWJ}", ok_zwj or ok, s)
    if ZWNJ not in s:
        return s
    t = cls("T")
    skip = f"{t}{{0,{_CONTEXT - 1}}}+"
    # what follows, forwards; then what precedes, by reading the text backwards
    s = re.sub(f"{ZWNJ}(?={skip}{cls('R')})", ahead, s)
    if ahead not in s:
        return s
    named = cls("?")
    backwards = re.sub(f"{ahead}(?!{named})(?={skip}{cls('L')})", ok, s[::-1])
    return backwards[::-1].replace(ahead, ZWNJ)


def joiners_blanked(text: str, table: ComponentTable) -> str:
    """``text`` with the joiners CONTEXTJ allows (in their component) replaced by stand-ins
    (``stand_ins``: one for ZWNJ, one for ZWJ), positions kept."""
    distinct = distinct_chars(text)
    ok, ok_zwj, ahead = stand_ins(text)
    if not _idna_follows_rfc5892():
        pieces, i = [], 0
        for m in _joiner().finditer(text):
            k = table.index(m.start())
            if joiner_allowed(text, None if k < 0 else table.component(k), m.start()):
                pieces += [text[i:m.start()], ok if m.group() == ZWNJ else ok_zwj]
                i = m.end()
        return "".join([*pieces, text[i:]])
    flags = {c: f for c in distinct if (f := _joining(c))}
    blanked = _blank_allowed(text, flags, ok, ahead, ok_zwj)
    # idna sees a joiner's component only; the whole text gives the same answer unless a
    # character next to the component could take part (never at ASCII delimiters)
    n, pieces, i = len(text), [], 0
    for k in table.holding(_joiner()):
        s, e = table.starts[k], table.ends[k]
        if (s > 0 and text[s - 1] in flags) or (e < n and text[e] in flags):
            pieces += [blanked[i:s], _blank_allowed(text[s:e], flags, ok, ahead, ok_zwj)]
            i = e
    return "".join([*pieces, blanked[i:]]) if pieces else blanked
