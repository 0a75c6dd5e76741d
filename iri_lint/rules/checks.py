"""The analyses behind the rules; each is registered with the codes it can produce."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from ..core import errors as E
from ..core.chars import HEXDIG, char_label, is_ucschar
from ..data.schemes import REGISTERED
from .engine import Ctx, Raw, analysis
from .model import Edit


def _pct(c: str) -> str:
    return "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))


# ------------------------------------------------------------------ IRI1xx: the parser's errors

_ENCODE = frozenset({E.SPACE, E.DELIMITER, E.UNWISE, E.PRIVATE_USE, E.NON_ASCII_IN_URI})
_REMOVE = frozenset({E.CONTROL, E.SPECIAL, E.TAG, E.NONCHARACTER, E.SURROGATE})


@analysis(*E.SYNTAX_CODES)
def syntax(ctx: Ctx) -> Iterator[Raw]:
    """RFC 3987 sec. 2.2 / 3987bis sec. 6.3: one finding per syntax error, fixes where obvious."""
    text = ctx.ref.text
    for err in ctx.ref.errors:
        edits = None
        if err.position < len(text) and ctx.ref.original is None:
            c = text[err.position]
            if err.code in _ENCODE:
                edits = (Edit(err.position, err.position + 1, _pct(c)),)
            elif err.code in _REMOVE:
                edits = (Edit(err.position, err.position + 1, ""),)
            elif err.code == E.PERCENT:
                edits = (Edit(err.position, err.position + 1, "%25"),)
        yield Raw(err.code, err.position, err.end, err.message, edits)


# ------------------------------------------------------------------ IRI301-302: Unicode forms


@analysis("IRI301", "IRI302")
def unicode_forms(ctx: Ctx) -> Iterator[Raw]:
    """Sec. 5.3.2.2 (NFC) and 7.5 (NFKC): report the first span that changes, fix the whole IRI."""
    text = ctx.ref.text
    if text.isascii():
        return
    for code, form in (("IRI301", "NFC"), ("IRI302", "NFKC")):
        if code not in ctx.enabled or unicodedata.is_normalized(form, text):
            continue
        normal = unicodedata.normalize(form, text)
        start = 0
        while start < min(len(text), len(normal)) and text[start] == normal[start]:
            start += 1
        end_t, end_n = len(text), len(normal)
        while end_t > start and end_n > start and text[end_t - 1] == normal[end_n - 1]:
            end_t -= 1
            end_n -= 1
        # widen to whole characters with their combining marks
        while start > 0 and unicodedata.combining(text[start]):
            start -= 1
        snippet = ", ".join(char_label(c) for c in text[start:end_t][:3])
        yield Raw(code, start, max(end_t, start + 1),
                  f"not in {form} ({snippet}); {form} would write "
                  f"{normal[start:end_n]!r}" + (" (RFC 3987 sec. 5.3.2.2)" if form == "NFC"
                                                 else " (RFC 3987 sec. 7.5)"),
                  (Edit(start, end_t, normal[start:end_n]),))


# ------------------------------------------------------------------ IRI401-402, 405: %-encoded octets


def pct_runs(text: str) -> Iterator[tuple[int, int, bytes]]:
    """Maximal runs of valid ``%HH`` escapes: (start, end, octets)."""
    i, n = 0, len(text)
    while True:
        i = text.find("%", i)
        if i < 0:
            return
        start = i
        octets = bytearray()
        while i + 2 < n and text[i] == "%" and text[i + 1] in HEXDIG and text[i + 2] in HEXDIG:
            octets.append(int(text[i + 1 : i + 3], 16))
            i += 3
        if octets:
            yield start, i, bytes(octets)
        else:
            i += 1


# second-byte ranges that make a well-formed-looking sequence overlong, a surrogate or > U+10FFFF
_SMUGGLING = {0xC0: (0x80, 0xBF), 0xC1: (0x80, 0xBF), 0xE0: (0x80, 0x9F), 0xED: (0xA0, 0xBF),
              0xF0: (0x80, 0x8F), 0xF4: (0x90, 0xBF)}


def _utf8_problems(octets: bytes) -> Iterator[tuple[int, int, str]]:
    """(octet start, octet end, "overlong"|"not-utf8") for each bad sequence (RFC 3629)."""
    k, n = 0, len(octets)
    while k < n:
        b = octets[k]
        if b < 0x80:
            k += 1
            continue
        length = 2 if 0xC0 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF7 else 0
        tail = octets[k + 1 : k + length] if length else b""
        conts = len(tail) == length - 1 and all(0x80 <= t <= 0xBF for t in tail)
        if length and conts and b in _SMUGGLING and _SMUGGLING[b][0] <= tail[0] <= _SMUGGLING[b][1]:
            yield k, k + length, "overlong"
            k += length
        elif length and conts and b <= 0xF4:
            k += length
        else:
            yield k, k + 1, "not-utf8"
            k += 1


@analysis("IRI401", "IRI402", "IRI405")
def percent_octets(ctx: Ctx) -> Iterator[Raw]:
    """Sec. 3.2, 6.4, 8: percent-encoded octets that are not UTF-8, or smuggle delimiters."""
    text = ctx.ref.text
    if "%" not in text:
        return
    for start, end, octets in pct_runs(text):
        if octets.isascii():
            continue
        problems = list(_utf8_problems(octets))
        for k0, k1, what in problems:
            s, e = start + 3 * k0, start + 3 * k1
            hexes = text[s:e]
            if what == "overlong":
                yield Raw("IRI402", s, e, f"{hexes} is overlong or invalid UTF-8 (encodes a "
                          "surrogate, a code point above U+10FFFF, or a character in too many "
                          "octets); such escapes smuggle delimiters past filters (RFC 3987 sec. 8)")
            else:
                yield Raw("IRI401", s, e, f"{hexes} is not UTF-8, so this IRI has no IRI form "
                          "(RFC 3987 sec. 6.4); percent-encode the UTF-8 octets of the intended "
                          "character instead (e.g. %C3%A9 for U+00E9)")
        if not problems and "IRI405" in ctx.enabled:
            decoded = octets.decode("utf-8")
            if all(c.isascii() or is_ucschar(c) for c in decoded) and not decoded.isascii():
                # keep ASCII octets encoded: only non-ASCII characters are decoded (sec. 3.2 step 1)
                rep = "".join(c if not c.isascii() else _pct(c) for c in decoded)
                yield Raw("IRI405", start, end, f"{text[start:end]} is the UTF-8 of "
                          f"{decoded!r}; the IRI can show it as text (RFC 3987 sec. 3.2)",
                          (Edit(start, end, rep),))


# ------------------------------------------------------------------ IRI6xx: scheme checks

HOST_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})
_COMMON = ("http", "https", "ftp", "ws", "wss", "mailto", "file")


def _typos(word: str) -> Iterator[str]:
    """Every string one edit (insert, delete, substitute, transpose) away from ``word``."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(len(word) + 1):
        for c in letters:
            yield word[:i] + c + word[i:]
        if i < len(word):
            yield word[:i] + word[i + 1 :]
            for c in letters:
                yield word[:i] + c + word[i + 1 :]
        if i < len(word) - 1:
            yield word[:i] + word[i + 1] + word[i] + word[i + 2 :]


SCHEME_TYPOS: dict[str, str] = {}
for _good in _COMMON:
    for _bad in _typos(_good):
        if _bad not in REGISTERED and _bad not in _COMMON and len(_bad) > 1:
            SCHEME_TYPOS.setdefault(_bad, _good)
for _good in ("http", "https"):
    SCHEME_TYPOS.setdefault(_good + _good[-1], _good)  # "httpp", "httpss"


@analysis("IRI601", "IRI602", "IRI603", "IRI604")
def scheme_checks(ctx: Ctx) -> Iterator[Raw]:
    """Scheme-specific restrictions: hosts, port range, typos, registration."""
    ref = ctx.ref
    text = ref.text
    if ref.scheme is None:
        # "http//host" and "https//host": the colon went missing
        for good in ("https", "http"):
            if text.lower().startswith(good + "//") and len(text) > len(good) + 2:
                yield Raw("IRI603", 0, len(good) + 2, f"{text[:len(good) + 2]!r} has lost its ':'; "
                          f"write '{good}://'", (Edit(len(good), len(good), ":"),))
                break
        return
    scheme = text[ref.scheme.start : ref.scheme.end]
    low = scheme.lower()
    after = ref.scheme.end + 1
    if low in HOST_SCHEMES:
        if ref.authority is None or (ref.host is not None and len(ref.host) == 0):
            rest = text[after:]
            stripped = rest.lstrip("/\\")
            edits = None
            if stripped and not stripped.startswith(("?", "#")):
                edits = (Edit(after, len(text) - len(stripped), "//"),)
            slashes = len(rest) - len(rest.lstrip("/\\"))
            shape = f"{scheme}:" + rest[:slashes]
            yield Raw("IRI601", ref.scheme.start, after + max(slashes, 0),
                      f"{low}: IRIs need a host, but '{shape}' is followed by "
                      f"{'no host' if not stripped else 'a path'}; write '{low}://host/...'", edits)
    if ref.port is not None and len(ref.port) and text[ref.port.start : ref.port.end].isdigit():
        port = int(text[ref.port.start : ref.port.end])
        if port > 65535:
            yield Raw("IRI602", ref.port.start, ref.port.end, f"port {port} is above 65535 and "
                      "cannot be connected to")
    good = SCHEME_TYPOS.get(low)
    if good is not None:
        yield Raw("IRI603", ref.scheme.start, ref.scheme.end, f"'{scheme}:' looks like a typo of "
                  f"'{good}:'", (Edit(ref.scheme.start, ref.scheme.end, good),))
    elif low in ("http", "https") and text.startswith("\\\\", after):
        yield Raw("IRI603", ref.scheme.end, after + 2, f"'{scheme}:\\\\' uses backslashes; write "
                  f"'{low}://'", (Edit(after, after + 2, "//"),))
    if ref.scheme.end > 0 and low not in REGISTERED and good is None and scheme.isascii() \
            and not ref.errors:
        yield Raw("IRI604", ref.scheme.start, ref.scheme.end, f"scheme '{scheme}' is not in the "
                  "IANA URI scheme registry")
