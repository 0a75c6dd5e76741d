"""IRI -> URI (RFC 3987 sec. 3.1; 3987bis sec. 3.3-3.6) and URI -> IRI (sec. 3.2; 3987bis 3.7).

Choices where the RFCs leave room (SHOULD / MAY), each documented where it is made:

- Hex digits of every percent-encoding we *produce* are uppercase (3.1 step 2.2 SHOULD).
  Existing ``%hh`` triplets are never touched by ``to_uri`` (3.1 note), so it is the identity
  on URIs and idempotent.
- ASCII not allowed in URIs (space ``< > " { } | \\ ^ ` ``, controls): ``encode_ascii="fail"``
  (default) raises, as 3.1 says a conversion that does not convert them SHOULD fail;
  ``encode_ascii="encode"`` percent-encodes them as the MAY of 3.1 and 3987bis 3.3 allow.
  ``#``, ``%``, ``[`` and ``]`` are never converted (3.1 MUST NOT).
  Characters outside ``ucschar`` and ``iprivate`` (non-characters, specials, C1 controls) fail
  like the ASCII ones; the 3987bis tag characters (its ``iprivate`` of the query) are mapped.
- Host: percent-encoded by default (3987bis 3.4.1 SHOULD). ``idna=True`` applies the MAY of
  3.1 / 3987bis 3.4.2 for schemes in :data:`SCHEMES` that use DNS names: UTS #46 mapping
  (non-transitional, STD3 rules as 3.1 asks for UseSTD3ASCIIRules) and IDNA2008 ToASCII via
  the ``idna`` package, label by label. A failure fails the whole conversion (3987bis 3.4.2;
  we never substitute an invalid host name).
- ``to_iri`` re-encodes, besides what sec. 2.2 and 4.1 forbid, the sec. 6.1 look-alikes of
  space: Unicode separators (Zs, Zl, Zp) and the invisible or display-changing characters that
  Nameprep prohibits (RFC 3491 sec. 5: C.2.2 without ZWJ/ZWNJ, C.7, C.8); the bidi controls
  include the isolates and ALM added to Unicode after RFC 3987 (``chars.BIDI_CONTROLS``).
  Private-use characters are appropriate only in the query (sec. 2.2, ``iprivate``).
- ``to_iri(decode_idna=True)`` applies 3987bis 3.7 step 6 (a SHOULD there, a MAY in RFC 3987
  3.2.1); off by default, as in RFC 3987.
- The round trip ``to_uri(to_iri(u))`` gives ``u`` back up to what sec. 3.2 allows to change:
  the case of hex digits and percent-encoded unreserved characters (``%7e`` comes back as ``~``,
  ``%c3%bc`` as ``%C3%BC``); ``to_iri(to_uri(i))`` is :func:`~.normalize.equivalent` to a valid
  ``i`` at the syntax level. ``to_iri`` is idempotent and creates no escape (around a ``%`` not
  followed by two hex digits it decodes nothing). These laws are tested with hypothesis.
"""

from __future__ import annotations

import unicodedata
from typing import Literal, NamedTuple

from .chars import (
    BIDI_CONTROLS,
    NOT_ALLOWED_ASCII,
    UNRESERVED,
    Group,
    char_label,
    group,
    is_pct_triplet,
    pct_encode,
)
from .reference import HostKind, IRIReference
from .scanner import scan

__all__ = ["SCHEMES", "IDNAError", "MappingError", "SchemeInfo", "has_idna_form", "to_iri", "to_uri", "uri_edits"]


class SchemeInfo(NamedTuple):
    """What scheme-based normalization (RFC 3987 sec. 5.3.3) and IDNA need to know of a scheme."""

    default_port: int | None
    dns_host: bool = True  # reg-name is a DNS name (RFC 3987 sec. 3.1, 3987bis 3.4.2)
    empty_path_is_root: bool = False  # "" with an authority equals "/" (RFC 3986 sec. 6.2.3)


# Small table from the scheme specs (default port, DNS host, empty path == "/").
SCHEMES: dict[str, SchemeInfo] = {
    "http": SchemeInfo(80, empty_path_is_root=True),  # RFC 9110 4.2.1, 4.2.3
    "https": SchemeInfo(443, empty_path_is_root=True),  # RFC 9110 4.2.2, 4.2.3
    "ws": SchemeInfo(80, empty_path_is_root=True),  # RFC 6455 3
    "wss": SchemeInfo(443, empty_path_is_root=True),  # RFC 6455 3
    "ftp": SchemeInfo(21),  # RFC 1738 3.2
    # RFC 8089 sec. 2: auth-path = [ file-auth ] path-absolute; its host names no DNS lookup of ours
    "file": SchemeInfo(None, dns_host=False, empty_path_is_root=True),
    "gopher": SchemeInfo(70),  # RFC 4266
    "telnet": SchemeInfo(23),  # RFC 4248
    "ssh": SchemeInfo(22),  # IANA provisional
    "sftp": SchemeInfo(22),  # IANA provisional
    "ldap": SchemeInfo(389),  # RFC 4516
    "nntp": SchemeInfo(119),  # RFC 5538
    "imap": SchemeInfo(143),  # RFC 5092
    "pop": SchemeInfo(110),  # RFC 2384
    "rtsp": SchemeInfo(554),  # RFC 2326
    "rsync": SchemeInfo(873),  # RFC 5781
    "vnc": SchemeInfo(5900),  # RFC 7869
    "ipp": SchemeInfo(631),  # RFC 3510
    "ipps": SchemeInfo(631),  # RFC 7472
    "coap": SchemeInfo(5683, empty_path_is_root=True),  # RFC 7252 6.1, 6.3
    "coaps": SchemeInfo(5684, empty_path_is_root=True),  # RFC 7252 6.2
    "coap+tcp": SchemeInfo(5683, empty_path_is_root=True),  # RFC 8323 8.1
    "coaps+tcp": SchemeInfo(5684, empty_path_is_root=True),  # RFC 8323 8.2
    "coap+ws": SchemeInfo(80, empty_path_is_root=True),  # RFC 8323 8.3
    "coaps+ws": SchemeInfo(443, empty_path_is_root=True),  # RFC 8323 8.4
}

# Label separators that UTS #46 maps to U+002E (IDNA2003 / RFC 3490 sec. 3.1)
DOTS = frozenset(".\u3002\uff0e\uff61")
# RFC 3987 sec. 6.1 b: invisible or display-changing characters that Nameprep prohibits
# (RFC 3491 sec. 5 / RFC 3454 tables C.2.2, C.7, C.8), beyond the separators. ZWJ and ZWNJ
# (also in C.2.2) are kept: words of Persian and Indic scripts need them.
_INVISIBLE = frozenset(
    "\u0340\u0341\u06dd\u070f\u180e\u200b\u2060\u2061\u2062\u2063\ufeff"
    + "".join(map(chr, range(0x206A, 0x2070)))  # C.8 deprecated format characters
    + "".join(map(chr, range(0x2FF0, 0x2FFC)))  # C.7 ideographic description characters
    + "".join(map(chr, range(0x1D173, 0x1D17B)))  # C.2.2 musical format characters
)
_SEPARATOR_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
_URI_ASCII = frozenset(chr(c) for c in range(0x21, 0x7F)) - NOT_ALLOWED_ASCII  # incl. % # [ ]


class MappingError(ValueError):
    """An IRI cannot be mapped to a URI (RFC 3987 sec. 3.1): ``position`` and ``char`` say where."""

    def __init__(self, message: str, *, position: int, char: str = "") -> None:
        super().__init__(message)
        self.position = position
        self.char = char


class IDNAError(MappingError):
    """IDNA ToASCII failed for a host label (3987bis sec. 3.4.2): the IRI cannot be resolved."""

    def __init__(self, label: str, reason: str, *, position: int) -> None:
        super().__init__(f"host label {label!r} cannot be converted with IDNA: {reason} "
                         "(3987bis sec. 3.4.2)", position=position)
        self.label = label
        self.reason = reason


def is_dns_scheme(scheme: str | None) -> bool:
    """Whether reg-names of ``scheme`` are DNS names (RFC 3987 sec. 3.1, 3987bis 3.4.2)."""
    info = SCHEMES.get(scheme.lower()) if scheme else None
    return info is not None and info.dns_host


def is_appropriate(c: str, *, in_query: bool) -> bool:
    """Whether a decoded non-ASCII character may appear literally (RFC 3987 sec. 3.2 step 4)."""
    g = group(c)
    if g is Group.IPRIVATE:
        return in_query  # sec. 2.2: iprivate only in iquery
    if g is not Group.UCSCHAR:
        return False  # controls, specials, non-characters, tags, surrogates (sec. 2.2)
    if c in BIDI_CONTROLS or c in _INVISIBLE:
        return False  # sec. 4.1, 6.1
    return unicodedata.category(c) not in _SEPARATOR_CATEGORIES  # sec. 6.1 b


def may_decode(c: str, *, in_query: bool) -> bool:
    """Whether URI-to-IRI conversion shows an escaped character as itself (sec. 3.2 step 4): an appropriate one
    that is no full-width or half-width form, which sec. 6.1 b says to avoid (one already written as itself
    stays so: IRI503 reports it)."""
    return is_appropriate(c, in_query=in_query) and not unicodedata.decomposition(c).startswith(("<wide>", "<narrow>"))


# ---------------------------------------------------------------- IRI -> URI


def _idna_host(text: str, start: int, end: int) -> str:
    """ToASCII on each non-ASCII label of a reg-name (RFC 3987 sec. 3.1, 3987bis 3.4.2)."""
    out: list[str] = []
    label_start = start
    for i in range(start, end + 1):
        if i < end and text[i] not in DOTS:
            continue
        label = text[label_start:i]
        if label.isascii():
            out.append(label)  # ASCII (also percent-encoded) labels: already URI characters
        else:
            out.append(_label_to_ascii(label, label_start))
        if i < end:
            out.append(".")  # sec. 3.1: U+002E as the label separator
        label_start = i + 1
    return "".join(out)


def idna2003_host(host: str) -> str | None:
    """A reg-name by IDNA2003 (RFC 3490, Python's ``idna`` codec, which its socket module resolves names with:
    ``☃.net`` is ``xn--n3h.net``, which IDNA2008 refuses); None when that refuses it too."""
    if "%" in host:
        return None
    try:
        mapped = host.encode("idna")
        same = mapped.decode("idna") == host.lower()  # (nameprep may map a label to another name: not that one)
    except UnicodeError:
        return None
    return mapped.decode("ascii") if same else None


def has_idna_form(label: str) -> bool:
    """Whether a host label has an IDNA form (ToASCII, UTS #46): RFC 5893's Bidi Rule refuses a label that mixes
    directions (``שלוםabc``), and IDNA2008 some code points."""
    try:
        _label_to_ascii(label, 0)
    except IDNAError:
        return False
    return True


def _label_to_ascii(label: str, position: int) -> str:
    decoded = pct_decode_utf8(label)
    if decoded is None:
        raise IDNAError(label, "its percent-encoding is not UTF-8", position=position)
    import idna as _idna  # lazy boundary (c): IDNA's tables, for a non-ASCII label

    try:
        return _idna.encode(decoded, uts46=True, std3_rules=True, transitional=False).decode("ascii")
    except (_idna.IDNAError, UnicodeError) as exc:
        raise IDNAError(label, str(exc) or type(exc).__name__, position=position) from None


def pct_decode_utf8(s: str) -> str | None:
    """Decode every %HH of ``s`` as UTF-8; None when the octets are not UTF-8."""
    if "%" not in s:
        return s
    out = bytearray()
    i, n = 0, len(s)
    while i < n:
        if is_pct_triplet(s, i, n):
            out.append(int(s[i + 1 : i + 3], 16))
            i += 3
        else:
            out += s[i].encode("utf-8", "surrogatepass")
            i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def to_uri(iri: str, *, idna: bool = False,
           encode_ascii: Literal["fail", "encode"] = "fail") -> str:
    """Map an IRI reference to a URI reference (RFC 3987 sec. 3.1 step 2; 3987bis 3.3-3.6).

    ``idna``: convert a DNS host by IDNA (3987bis 3.4.2 MAY) instead of percent-encoding
    (3.4.1 SHOULD); raises :class:`IDNAError` naming the label when that fails.
    ``encode_ascii``: ``"fail"`` raises :class:`MappingError` on space, ``< > " { } | \\ ^ ` ``
    and controls (3.1 SHOULD fail); ``"encode"`` percent-encodes them (3.1 MAY, 3987bis 3.3).
    Lone surrogates have no UTF-8 form and always raise.
    """
    if encode_ascii not in ("fail", "encode"):
        raise ValueError(f"encode_ascii must be 'fail' or 'encode', not {encode_ascii!r}")
    if iri.isascii() and not _needs_ascii_encoding(iri):
        return iri  # already a URI (as far as characters go): the identity (sec. 3.1)
    ref = scan(iri)
    host_idna = idna and ref.host is not None and ref.host_kind is HostKind.REG_NAME \
        and not iri.isascii() and is_dns_scheme(ref.get("scheme"))
    out: list[str] = []
    if host_idna:
        assert ref.host is not None
        out.append(_encode_range(iri, 0, ref.host.start, encode_ascii))
        host = _idna_host(iri, ref.host.start, ref.host.end)
        out.append(_encode_range(host, 0, len(host), encode_ascii, offset=ref.host.start))
        out.append(_encode_range(iri, ref.host.end, len(iri), encode_ascii))
    else:
        out.append(_encode_range(iri, 0, len(iri), encode_ascii))
    return "".join(out)


def uri_edits(ref: IRIReference, *, encode_ascii: Literal["fail", "encode"] = "fail") -> list[tuple[int, int, str]]:
    """The URI to send for ``ref``, as (start, end, replacement) of each run of ``ref.text`` it changes.

    ``to_uri(text, idna=True)``, but a DNS host that IDNA2008 rejects is written by IDNA2003 (Python's codec, as
    its socket module resolves it), and one that both reject percent-encoded (3987bis sec. 3.4.1), instead of
    failing the conversion: the one form the linter suggests (rule IRI404) and the
    editor shows. ``encode_ascii`` and the errors raised as in :func:`to_uri`.
    """
    text = ref.text
    edits: list[tuple[int, int, str]] = []
    host = ref.host if ref.host_kind is HostKind.REG_NAME and is_dns_scheme(ref.get("scheme")) else None
    if host is not None and text[host.start : host.end].isascii():
        host = None  # (an ASCII host is copied like the rest; an empty one would stop the walk below)
    if host is not None:
        mapped: str | None
        try:  # 3987bis sec. 3.4.2: by IDNA, so that DNS can resolve it
            mapped = _idna_host(text, host.start, host.end)
        except IDNAError:  # (IDNA2008 refuses it: IDNA2003, Python's own codec, as its socket module resolves it)
            mapped = idna2003_host(text[host.start : host.end])
        if mapped is not None:
            edits.append((host.start, host.end, _encode_range(mapped, 0, len(mapped), encode_ascii, host.start)))
        else:
            host = None
    i, n = 0, len(text)
    while i < n:  # every other run of characters a URI cannot hold: percent-encoded UTF-8 (sec. 3.1 step 2)
        if host is not None and i == host.start:
            i = host.end
        elif text[i] in _URI_ASCII:
            i += 1
        else:
            j = i + 1
            while j < n and text[j] not in _URI_ASCII and not (host is not None and j == host.start):
                j += 1
            edits.append((i, j, _encode_range(text, i, j, encode_ascii)))
            i = j
    edits.sort()
    return edits


def _needs_ascii_encoding(s: str) -> bool:
    return any(c not in _URI_ASCII for c in s)


def _encode_range(text: str, start: int, end: int, encode_ascii: str, offset: int = 0) -> str:
    out: list[str] = []
    run = start  # start of the current run of characters copied as they are
    for i in range(start, end):
        c = text[i]
        if c in _URI_ASCII:
            continue
        g = group(c)
        if g is Group.SURROGATE:
            raise MappingError(f"{char_label(c)} at {i + offset} is a lone surrogate, which has no "
                               "UTF-8 form (RFC 3629); it cannot be mapped to a URI",
                               position=i + offset, char=c)
        if not (g is Group.UCSCHAR or g is Group.IPRIVATE or g is Group.TAG) and encode_ascii == "fail":
            why = ("is not allowed in URIs; RFC 3987 sec. 3.1: a conversion that does not "
                   "percent-encode it SHOULD fail (pass encode_ascii='encode' to encode it)")
            if c >= "\x80":
                why = "is not an IRI character (RFC 3987 sec. 2.2); pass encode_ascii='encode' to encode it"
            raise MappingError(f"{char_label(c)} at {i + offset} {why}", position=i + offset, char=c)
        out.append(text[run:i])
        out.append(pct_encode(c))
        run = i + 1
    out.append(text[run:end])
    return "".join(out)


# ---------------------------------------------------------------- URI -> IRI

_UTF8_SECOND = {  # Unicode Table 3-7: the strict range of the second octet, by lead octet
    **{b: (0x80, 0xBF) for b in range(0xC2, 0xE0)},
    0xE0: (0xA0, 0xBF),
    **{b: (0x80, 0xBF) for b in range(0xE1, 0xED)},
    0xED: (0x80, 0x9F),
    0xEE: (0x80, 0xBF),
    0xEF: (0x80, 0xBF),
    0xF0: (0x90, 0xBF),
    0xF1: (0x80, 0xBF),
    0xF2: (0x80, 0xBF),
    0xF3: (0x80, 0xBF),
    0xF4: (0x80, 0x8F),
}


def _utf8_length(octets: list[int], i: int) -> int:
    """Length of the strictly legal UTF-8 sequence at ``octets[i]``, or 0 (sec. 3.2 step 3)."""
    lead = octets[i]
    rng = _UTF8_SECOND.get(lead)
    if rng is None:
        return 0  # ASCII is handled elsewhere; C0, C1 (overlong) and F5-FF never lead
    need = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    if i + need > len(octets) or not rng[0] <= octets[i + 1] <= rng[1]:
        return 0
    if any(not 0x80 <= octets[j] <= 0xBF for j in range(i + 2, i + need)):
        return 0
    return need


def decode_octets(octets: list[int], *, in_query: bool, shown: bool = False) -> str:
    """Steps 3-5 of RFC 3987 sec. 3.2 on a run of non-ASCII octets: characters or ``%HH``; ``shown``: for an IRI
    people read (``to_iri``), which keeps encoded too what sec. 6.1 b says to avoid (``may_decode``); the
    comparison ladder decodes every appropriate character, its canonical form."""
    decodes = may_decode if shown else is_appropriate
    out: list[str] = []
    i, n = 0, len(octets)
    while i < n:
        length = _utf8_length(octets, i)
        if length:
            c = bytes(octets[i : i + length]).decode("utf-8")
            if decodes(c, in_query=in_query):
                out.append(c)
            else:
                out.append(pct_encode(c))  # step 4: re-encoded, uppercase hex
            i += length
        else:
            out.append(f"%{octets[i]:02X}")  # step 3: not strictly legal UTF-8
            i += 1
    return "".join(out)


def _to_iri_range(text: str, start: int, end: int, in_query: bool, out: list[str]) -> None:
    """Steps 2-5 of RFC 3987 sec. 3.2 on ``text[start:end]``."""
    i = start
    run = start
    while i < end:
        if not is_pct_triplet(text, i, end):
            i += 1
            continue
        out.append(text[run:i])
        octets: list[int] = []
        while is_pct_triplet(text, i, end):
            b = int(text[i + 1 : i + 3], 16)
            stray = _after_stray_percent(text, i)
            if b < 0x80 or stray:
                if octets:
                    out.append(decode_octets(octets, in_query=in_query, shown=True))
                    octets = []
                c = chr(b)
                # step 2: "%", reserved and not-allowed ASCII stay encoded, as written
                out.append(c if c in UNRESERVED and not stray else text[i : i + 3])
            else:
                octets.append(b)
            i += 3
        if octets:
            out.append(decode_octets(octets, in_query=in_query, shown=True))
        run = i
    out.append(text[run:end])


def _after_stray_percent(text: str, i: int) -> bool:
    """Whether the triplet at ``i`` is one of the two characters after a ``%`` that starts none.

    Step 2 converts only "%" followed by two hex digits; such a stray "%" (malformed input) keeps
    the two characters after it as written, or decoding could make it start an escape the input did
    not hold (``%3%30`` would give ``%30``, which converts again to ``0``).
    """
    return "%" in text[max(i - 2, 0) : i]  # (a "%" there starts no triplet: text[i] is "%", not hex)


def _ace_to_unicode(host: str) -> str:
    """3987bis 3.7 step 6: ToUnicode on each ``xn--`` label; labels that fail stay as they are."""
    import idna as _idna  # lazy boundary (c): IDNA's tables, for a host that may hold an ``xn--`` label

    labels = host.split(".")
    for k, label in enumerate(labels):
        if label[:4].lower() == "xn--":
            try:
                u = _idna.decode(label)
            except (_idna.IDNAError, UnicodeError):
                continue
            if all(is_appropriate(c, in_query=False) for c in u if c >= "\x80"):
                labels[k] = u
    return ".".join(labels)


def to_iri(uri: str, *, decode_idna: bool = False) -> str:
    """Convert a URI reference to an IRI reference (RFC 3987 sec. 3.2 steps 1-5).

    Never guesses an encoding other than UTF-8 (``%E9`` stays ``%E9``). With ``decode_idna``,
    ``xn--`` labels of DNS hosts are shown in Unicode (3987bis sec. 3.7 step 6); the result then
    maps back to the original URI only through ``to_uri(..., idna=True)``.

    Laws, for any string (tested with hypothesis): the conversion is idempotent
    (``to_iri(to_iri(u)) == to_iri(u)``), and it never creates an escape: a ``%`` not followed by two
    hex digits (invalid in a URI, but found in real input) is still not followed by two in the
    result, as step 2 decodes no percent-encoding among the two characters after it (``%3%30`` stays
    ``%3%30``; decoding would give ``%30``, a new escape); every other ``%`` of the result starts a
    percent-encoding of the input, kept or re-encoded by steps 2-4.
    """
    if "%" not in uri and not decode_idna:
        return uri
    ref = scan(uri)
    out: list[str] = []
    n = len(uri)
    q_start = ref.query.start if ref.query is not None else n
    q_end = ref.query.end if ref.query is not None else n
    if decode_idna and ref.host is not None and ref.host_kind is HostKind.REG_NAME \
            and is_dns_scheme(ref.get("scheme")):
        _to_iri_range(uri, 0, ref.host.start, False, out)
        host: list[str] = []
        _to_iri_range(uri, ref.host.start, ref.host.end, False, host)
        out.append(_ace_to_unicode("".join(host)))
        _to_iri_range(uri, ref.host.end, q_start, False, out)
    else:
        _to_iri_range(uri, 0, q_start, False, out)
    _to_iri_range(uri, q_start, q_end, True, out)
    _to_iri_range(uri, q_end, n, False, out)
    return "".join(out)
