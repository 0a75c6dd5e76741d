"""The analyses behind the rules; each is registered with the codes it can produce."""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from collections.abc import Iterator
from encodings import idna as _idna2003
from operator import attrgetter
from typing import Literal, NamedTuple

from ..core import errors as E
from ..core.bidi import bidi_problems, encode_component
from ..core.budget import Budget, take_matches
from ..core.chars import char_label, is_digits, pct_encode
from ..core.mapping import MappingError, is_dns_scheme, uri_edits
from ..core.normalize import normalize_trace
from ..core.reference import ErrorRecord, HostKind, IRIReference, Span
from ..core.schemes import scheme_typos
from ..core.security import is_spoof_label, security_problems
from ..data.schemes import REGISTERED
from .analysis import MAX_PER_CODE, Analysis, Ctx, Raw
from .model import Edit

# ------------------------------------------------------------------ IRI1xx: the parser's errors

_ENCODE = frozenset({E.SPACE, E.DELIMITER, E.UNWISE, E.PRIVATE_USE, E.NON_ASCII_IN_URI})
_REMOVE = frozenset({E.CONTROL, E.SPECIAL, E.TAG, E.NONCHARACTER, E.SURROGATE})


def _budget(ctx: Ctx, code_of: dict[str, str]) -> Budget | None:
    """A budget of MAX_PER_CODE problems per code (``code_of``: kind -> code) for an analysis whose
    codes no other analysis gives; None with template holes, which may drop earlier findings."""
    return None if ctx.holes else Budget(MAX_PER_CODE, lambda kind, _pos: code_of[kind])


def _count_skipped(ctx: Ctx, budget: Budget | None) -> None:
    """Tell the engine how many findings of each code the budget counted but did not build."""
    if budget is not None:
        for code, n in budget.skipped.items():
            ctx.skipped[code] = ctx.skipped.get(code, 0) + n


_START = attrgetter("start")
_RUN = attrgetter("run")


def syntax(ctx: Ctx) -> Iterator[Raw]:
    """RFC 3987 sec. 2.2 / 3987bis sec. 6.3: one finding per run of adjacent errors of one kind."""
    ref = ctx.ref
    recs = ref.error_records  # (position, end, code, component, ...): no message built until shown
    lead, trail = _surrounding_whitespace(ref)
    yield from _whitespace_edges(ref, lead, trail)
    # errors on the surrounding whitespace were reported above, as a whole
    idx = [k for k, r in enumerate(recs) if lead <= r[0] < trail or r[2] == E.MISSING_SCHEME]
    shown: dict[str, int] = {}
    may_skip = not ctx.holes
    for i, j in _adjacent_runs(recs, idx):
        first = recs[idx[i]]
        code = first[2]
        count = shown[code] = shown.get(code, 0) + 1
        if count > MAX_PER_CODE and may_skip:
            continue  # hostile input: count, build nothing
        more = "" if j - i == 1 else "; 1 more such character follows" if j - i == 2 else \
            f"; {j - i - 1} more such characters follow"
        yield Raw(code, first[0], recs[idx[j - 1]][1], ref.error(idx[i]).message + more,
                  _syntax_edits(ref, tuple(recs[k] for k in idx[i:j])))
    for code, count in shown.items():
        if count > MAX_PER_CODE and may_skip:
            ctx.skipped[code] = ctx.skipped.get(code, 0) + count - MAX_PER_CODE


def _error_at(ref: IRIReference, start: int, code: str) -> bool:
    """Whether an error record of ``code`` starts at ``start`` (the records are sorted by start)."""
    recs = ref.error_records
    k = bisect.bisect_left(recs, start, key=_START)
    while k < len(recs) and recs[k].start == start:
        if recs[k].code == code:
            return True
        k += 1
    return False


def _adjacent_runs(recs: tuple[ErrorRecord, ...], idx: list[int]) -> list[tuple[int, int]]:
    """Each run ``idx[i:j]`` of records that touch one another and share a code and component."""
    starts = []
    end, code, component = -1, "", None
    for i, k in enumerate(idx):
        rec = recs[k]
        if rec[0] != end or rec[2] != code or rec[3] != component:
            starts.append(i)
            code, component = rec[2], rec[3]
        end = rec[1]
    starts.append(len(idx))
    return list(itertools.pairwise(starts))


_WHITESPACE = " \t\n\r\f\v"


def _surrounding_whitespace(ref: IRIReference) -> tuple[int, int]:
    """Where an IRI's leading whitespace ends and its trailing whitespace starts (none: 0, len)."""
    text = ref.text
    core = text.strip(_WHITESPACE)
    if ref.original is not None or not core or len(core) == len(text):
        return 0, len(text)  # preprocessing strips or encodes it; all blank is not an IRI at all
    lead = len(text) - len(text.lstrip(_WHITESPACE))
    trail = lead + len(core)
    # a run of bad characters across an edge is reported as one; a structural error ('[' never
    # closed, a fragment where none may be) may end where the text does, whitespace and all
    for rec in filter(_RUN, ref.error_records):
        if rec.start < lead < rec.end:
            lead = rec.start
        if rec.start < trail < rec.end:
            trail = rec.end
    return lead, trail


def _whitespace_edges(ref: IRIReference, lead: int, trail: int) -> Iterator[Raw]:
    """3987bis sec. 6.3: whitespace around an IRI is not part of it; remove each side as a whole."""
    text = ref.text
    for start, end, where in ((0, lead, "before"), (trail, len(text), "after")):
        if start == end:
            continue
        recs = [r for r in ref.error_records if start <= r[0] < end and r[2] != E.MISSING_SCHEME]
        if not recs:
            continue
        chars = text[start:end]
        what = char_label(chars[0]) if len(set(chars)) == 1 else "whitespace"
        count = f"{len(chars)} characters of " if len(chars) > 1 else ""
        yield Raw(recs[0][2], start, end,
                  f"{count}{what} {where} the IRI: whitespace is not part of an IRI and delimits it "
                  "in text (3987bis sec. 6.3, RFC 3987 sec. 7.3); remove it",
                  (Edit(start, end, ""),), fix_text=f"Remove the whitespace {where} the IRI.")


def _syntax_edits(ref: IRIReference, run: tuple[ErrorRecord, ...]) -> tuple[Edit, ...] | None:
    """Percent-encode or remove each character of a run of errors; None when no edit is certain."""
    if ref.original is not None:
        return None  # preprocessed (LEIRI, Web Address): positions are not the text's
    text = ref.text
    edits: list[Edit] = []
    for pos, end, code, *_ in run:
        if pos >= len(text):
            return None
        span = text[pos:end]
        if code == E.PERCENT and span != "%" * len(span):
            span = "%"  # a malformed '%' spans its partial hex digits: only the '%' changes
        if code in _ENCODE:
            edits.append(Edit(pos, pos + len(span), pct_encode(span)))
        elif code in _REMOVE:
            edits.append(Edit(pos, pos + len(span), ""))
        elif code == E.PERCENT:
            edits.append(Edit(pos, pos + len(span), "%25" * len(span)))
        else:
            return None
    return tuple(edits) or None


# ------------------------------------------------------------------ IRI301-302: Unicode forms


def unicode_forms(ctx: Ctx) -> Iterator[Raw]:
    """Sec. 5.3.2.2 (NFC) and 7.5 (NFKC): report the first span that changes, fix the whole IRI."""
    text = ctx.ref.text
    if text.isascii():
        return
    forms: tuple[tuple[str, Literal["NFC", "NFKC"]], ...] = (("IRI301", "NFC"), ("IRI302", "NFKC"))
    for code, form in forms:
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


_PCT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})++")


def pct_runs(text: str) -> Iterator[tuple[int, int, bytes]]:
    """Maximal runs of valid ``%HH`` escapes: (start, end, octets)."""
    for m in _PCT_RUN.finditer(text):
        yield m.start(), m.end(), bytes.fromhex(m.group().replace("%", ""))


def _hex(lo: int, hi: int) -> str:
    """A regex for the escapes ``%HH`` of the octets lo..hi, in either case of hex digit."""
    alts = []
    for high in range(lo >> 4, (hi >> 4) + 1):
        a, b = max(lo, high << 4) & 15, min(hi, (high << 4) | 15) & 15
        alts.append(f"{high:X}[{''.join(f'{x:X}' for x in range(a, b + 1))}]")
    return f"%(?i:{'|'.join(alts)})"


_HIGH = re.compile("%(?i:[89A-F][0-9A-F])")


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


def _octet_problems(text: str, budget: Budget | None) -> list[tuple[int, int, str]]:
    """(start, end, "overlong"|"not-utf8") for the bad sequences of escaped octets in ``text``,
    in text order: an overlong one whole, else each octet that no sequence takes (RFC 3629).
    Python-level work only for those the budget takes.

    Every octet from 0xC0 up starts a sequence of its own, so with the UTF-8 sequences blanked
    the overlong ones are found by one regex, and with those blanked too, the rest is not UTF-8.
    """
    rx = _octet_regexes()
    text = _blanked(text, rx.utf8)
    out = [(m.start(), m.end(), "overlong") for _, m in take_matches(
        budget, text, [("overlong", rx.any_overlong.pattern)],
        lambda _, pos: len(rx.any_overlong.findall(text, pos)))]
    rest = _blanked(text, rx.overlong)
    out += ((m.start(), m.end(), "not-utf8") for _, m in take_matches(
        budget, rest, [("not-utf8", rx.not_utf8.pattern)], lambda _, pos: len(rx.not_utf8.findall(rest, pos))))
    out.sort()
    return out


def percent_octets(ctx: Ctx) -> Iterator[Raw]:
    """Sec. 3.2, 6.4, 8: percent-encoded octets that are not UTF-8, or smuggle delimiters."""
    text = ctx.ref.text
    if "%" not in text or _HIGH.search(text) is None:
        return
    budget = _budget(ctx, {"overlong": "IRI402", "not-utf8": "IRI401"})
    problems = _octet_problems(text, budget)
    _count_skipped(ctx, budget)
    for s, e, what in problems:
        hexes = text[s:e]
        if what == "overlong":
            yield Raw("IRI402", s, e, f"{hexes} is overlong or invalid UTF-8 (encodes a "
                      "surrogate, a code point above U+10FFFF, or a character in too many "
                      "octets); such escapes smuggle delimiters past filters (RFC 3987 sec. 8)")
        else:
            yield Raw("IRI401", s, e, f"{hexes} is not UTF-8, so this IRI has no IRI form "
                      "(RFC 3987 sec. 6.4); percent-encode the UTF-8 octets of the intended "
                      "character instead (e.g. %C3%A9 for U+00E9)")


# ------------------------------------------------------------------ IRI6xx: scheme checks

HOST_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})
_DOTTED_NAME = re.compile(r"(?:[A-Za-z0-9-]++\.)++[A-Za-z]{2,63}")  # a DNS name, not a file path


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
        if ref.authority is not None and ref.host is not None and len(ref.host) == 0 and \
                not _error_at(ref, ref.host.start, E.IP_LITERAL):  # "http://::1/": IRI113 says it
            start, end = (ref.authority.start - 2, ref.authority.end) if len(ref.authority) else \
                (after, after + 2)
            shown = text[start:end]
            # "https:///example.com/" lost a host to a third '/'; "ftp:///some_path" is a path
            first = text[ref.path.start + 1 : ref.path.end].split("/", 1)[0]
            edits = (Edit(end, end + 1, ""),) if not len(ref.authority) and _DOTTED_NAME.fullmatch(first) else None
            yield Raw("IRI601", start, end, f"{low}: IRIs need a host, but the authority {shown!r} "
                      f"has none; write '{low}://host/...'", edits)
        elif ref.authority is None:
            rest = text[after:]
            stripped = rest.lstrip("/\\")
            edits = None
            # restore '//' only before what reads as a host ('http:/example.com/'), never before a
            # path or userinfo ('http:path', 'http:@'): the fix must not invent a host
            first = re.split(r"[/?#\\]", stripped, maxsplit=1)[0]
            if _DOTTED_NAME.fullmatch(first.rsplit(":", 1)[0] if first.count(":") == 1 else first):
                edits = (Edit(after, len(text) - len(stripped), "//"),)
            slashes = len(rest) - len(rest.lstrip("/\\"))
            shape = f"{scheme}:" + rest[:slashes]
            yield Raw("IRI601", ref.scheme.start, after + max(slashes, 0),
                      f"{low}: IRIs need a host, but '{shape}' is followed by "
                      f"{'no host' if not stripped else 'a path'}; write '{low}://host/...'", edits)
    if ref.port is not None and len(ref.port) and is_digits(text[ref.port.start : ref.port.end]):
        port = int(text[ref.port.start : ref.port.end])
        if port > 65535:
            yield Raw("IRI602", ref.port.start, ref.port.end, f"port {port} is above 65535 and "
                      "cannot be connected to")
    typo_of = scheme_typos().get(low)
    if typo_of is not None:
        yield Raw("IRI603", ref.scheme.start, ref.scheme.end, f"'{scheme}:' looks like a typo of "
                  f"'{typo_of}:'", (Edit(ref.scheme.start, ref.scheme.end, typo_of),))
    elif low in ("http", "https") and text.startswith("\\\\", after):
        yield Raw("IRI603", ref.scheme.end, after + 2, f"'{scheme}:\\\\' uses backslashes; write "
                  f"'{low}://'", (Edit(after, after + 2, "//"),))
    if ref.scheme.end > 0 and low not in REGISTERED and typo_of is None and scheme.isascii() \
            and not ref.error_records:
        yield Raw("IRI604", ref.scheme.start, ref.scheme.end, f"scheme '{scheme}' is not in the "
                  "IANA URI scheme registry")


# ------------------------------------------------------------------ IRI2xx: bidi (sec. 4)

_BIDI_CODES = {"formatting-char": "IRI201", "isolate-char": "IRI202", "percent-encoded-control": "IRI203",
               "mixed-direction": "IRI204", "rtl-edge": "IRI205", "digit-component": "IRI206"}


def bidi(ctx: Ctx) -> Iterator[Raw]:
    """Sec. 4.1 forbidden characters and the sec. 4.2 structure rules, per component."""
    budget = _budget(ctx, _BIDI_CODES)
    problems = bidi_problems(ctx.ref, advisory="IRI206" in ctx.enabled, budget=budget)
    _count_skipped(ctx, budget)
    for p in problems:
        code = _BIDI_CODES[p.kind]
        edits = None
        if code in ("IRI201", "IRI202"):
            edits = (Edit(p.span.start, p.span.end, ""),)
        elif code in ("IRI204", "IRI205"):
            start, end, rep = encode_component(ctx.ref, p.component)
            edits = (Edit(start, end, rep),)
        yield Raw(code, p.span.start, p.span.end, p.message, edits)


# ------------------------------------------------------------------ IRI3xx, IRI405: the ladder's steps

_STEP_CODES = {"case-scheme": "IRI303", "case-host": "IRI304", "percent-hex-case": "IRI305",
               "percent-unreserved": "IRI306", "dot-segments": "IRI307", "default-port": "IRI308",
               "empty-port": "IRI309", "empty-path": "IRI310", "percent-nonascii": "IRI405"}
_STEP_MESSAGES = {
    "IRI303": "scheme {old!r} is not lowercase; the normal form is {new!r} (RFC 3987 sec. 5.3.2.1)",
    "IRI304": "host {old!r} is not lowercase; the normal form is {new!r} (RFC 3987 sec. 5.3.2.1)",
    "IRI305": "percent-encoding {old!r} has lowercase hex digits; write {new!r} (RFC 3987 sec. 5.3.2.1)",
    "IRI306": "{old!r} percent-encodes unreserved characters; write {new!r} (RFC 3987 sec. 5.3.2.3)",
    "IRI307": "path has dot-segments; {old!r} resolves to {new!r} (RFC 3986 sec. 5.2.4)",
    "IRI308": "{old!r} is the scheme's default port; remove it (RFC 3987 sec. 5.3.3)",
    "IRI309": "empty port {old!r}; remove the ':' (RFC 3987 sec. 5.3.3)",
    "IRI310": "empty path after the host; the normal form has '/' (RFC 3987 sec. 5.3.3)",
    "IRI311": "ACE label {old!r} reads as {new!r}; IRIs can show it in Unicode (RFC 3987 sec. 5.3.3)",
    "IRI312": "host label {old!r} is not in its IDNA-mapped form {new!r} (RFC 3987 sec. 5.3.3, UTS #46)",
    "IRI405": "{old} is the UTF-8 of {new!r}; the IRI can show it as text (RFC 3987 sec. 3.2)",
}
_LADDER_CODES = frozenset(_STEP_CODES.values()) | {"IRI311", "IRI312"}


def ladder(ctx: Ctx) -> Iterator[Raw]:
    """Sec. 5.3.2 and 5.3.3: one finding per change a normalization step makes; the fix is its output."""
    ref = ctx.ref
    if ref.error_records or ref.scheme is None or ref.original is not None:
        return
    scheme_level = bool(ctx.enabled & {"IRI308", "IRI309", "IRI310", "IRI311", "IRI312"})
    trace = normalize_trace(ref.text, level="scheme" if scheme_level else "syntax")
    text = ref.text
    for step in trace.steps:
        whole = _WHOLE_COMPONENT.get(step.name)
        if whole is not None:  # one finding for the component, quoting all of it
            whole_code, name = whole
            span = getattr(ref, name)
            if whole_code in ctx.enabled and span is not None and step.edits:
                old = text[span.start : span.end]
                # only what was case in the text itself (not a letter an earlier step decoded from %41)
                changes = [(e.source, e.replacement) for e in step.edits
                           if text[e.source.start : e.source.end].lower() == e.replacement]
                new = _apply_within(text, span.start, span.end, changes)
                if new != old:
                    message = _STEP_MESSAGES[whole_code].format(old=old + ":" if name == "scheme" else old,
                                                                new=new + ":" if name == "scheme" else new)
                    yield Raw(whole_code, span.start, span.end, message, (Edit(span.start, span.end, new),))
            continue
        for e in step.edits:
            start, end = e.source.start, e.source.end
            old = text[start:end]
            code = _STEP_CODES.get(step.name)
            if step.name == "idn-host":
                code = "IRI311" if old[:4].lower() == "xn--" else "IRI312"
            if code is None or code not in ctx.enabled:
                continue
            if ctx.uri_only_api and not e.replacement.isascii():
                continue  # that API sends only ASCII: its form is the URI's, IRI404's rule (sec. 3.1)
            if code == "IRI311" and any(is_spoof_label(label) for label in e.replacement.split(".")):
                continue  # never propose showing a spoof: the A-label is the safe form (IRI502)
            if code == "IRI405" and "%" not in old:
                continue  # encoding of literal characters: other rules report those characters
            message = _STEP_MESSAGES[code].format(old=old, new=e.replacement)
            yield Raw(code, start, max(end, start + 1) if end > start else start, message,
                      (Edit(start, end, e.replacement),))


# steps reported once for their whole component (the scheme, the host), not once per changed run
_WHOLE_COMPONENT = {"case-scheme": ("IRI303", "scheme"), "case-host": ("IRI304", "host")}


def _apply_within(text: str, start: int, end: int, edits: list[tuple[Span, str]]) -> str:
    """``text[start:end]`` with the edits that fall inside it applied."""
    out, pos = [], start
    for src, rep in sorted(edits):
        if start <= src.start and src.end <= end:
            out.append(text[pos : src.start])
            out.append(rep)
            pos = src.end
    out.append(text[pos:end])
    return "".join(out)


# ------------------------------------------------------------------ IRI403-404: IDNA and URI-only APIs


def idna_hosts(ctx: Ctx) -> Iterator[Raw]:
    """3987bis sec. 3.4.2: each non-ASCII or ``xn--`` label of a DNS host must pass IDNA2008 + UTS #46."""
    ref = ctx.ref
    if ref.host is None or ref.host_kind is not HostKind.REG_NAME or not is_dns_scheme(ref.get("scheme")):
        return
    host = ref.get("host") or ""
    if host.isascii() and "xn--" not in host.lower():
        return
    if any(r.component == "host" for r in ref.error_records):
        return  # the host's syntax error (a control, a surrogate) is the cause, reported once
    # a label's verdict depends only on its text: judge each distinct label once, and past
    # MAX_PER_CODE failing labels only count the rest (hostile hosts repeat one label 30k times)
    verdicts: dict[str, str | None] = {}
    may_skip = not ctx.holes
    built = skipped = 0
    pos = ref.host.start
    for label in host.replace("\u3002", ".").replace("\uff0e", ".").replace("\uff61", ".").split("."):
        if label and (not label.isascii() or label[:4].lower() == "xn--") and "%" not in label:
            if label in verdicts:
                why = verdicts[label]
            else:
                why = None
                import idna as _idna  # lazy boundary (c): IDNA's tables, for an IDN label

                try:
                    if label.isascii():
                        _idna.decode(label)
                    else:
                        _idna.encode(label, uts46=True, std3_rules=True, transitional=False)
                except (_idna.IDNAError, UnicodeError, ValueError) as exc:
                    why = str(exc or type(exc).__name__)
                    if label.isascii() and not ctx.idna_versions and _idna2003_label(label):
                        why = None  # a name IDNA2003 reads: the versions differ (opt-in), the A-label is valid
                verdicts[label] = why
            if why is not None:
                if may_skip and built >= MAX_PER_CODE:
                    skipped += 1
                else:
                    built += 1
                    yield Raw("IRI403", pos, pos + len(label),
                              f"host label {label!r} is not a valid A-label: {why} (RFC 5891 sec. 5.4; "
                              "neither IDNA2008 nor IDNA2003 reads it)" if label.isascii() and not
                              _idna2003_label(label) else
                              f"host label {label!r} fails IDNA: {why} (3987bis sec. 3.4.2)")
        pos += len(label) + 1
    if skipped:
        ctx.skipped["IRI403"] = ctx.skipped.get("IRI403", 0) + skipped


def _idna2003_label(label: str) -> bool:
    """Whether IDNA2003 (RFC 3490 ToUnicode, Python's ``idna`` codec) reads the A-label ``label``."""
    try:
        _idna2003.ToUnicode(label)
    except (UnicodeError, ValueError):
        return False
    return True


def uri_only_api(ctx: Ctx) -> Iterator[Raw]:
    """Sec. 3.1: an API that encodes the request as ASCII needs the IRI mapped to its URI first."""
    ref = ctx.ref
    text = ref.text
    if not ctx.uri_only_api or text.isascii() or ref.error_records:
        return
    try:  # (the editor's hover shows the same URI)
        edits = [Edit(start, end, new) for start, end, new in uri_edits(ref)]
    except MappingError:  # (a valid IRI always maps; be safe)
        return
    first = next(k for k, c in enumerate(text) if not c.isascii())
    uri = "".join(_apply_sorted(text, edits))
    yield Raw("IRI404", first, first + 1, f"this API sends only ASCII and raises UnicodeEncodeError on "
              f"{char_label(text[first])}; pass the mapped URI {uri!r} (RFC 3987 sec. 3.1)", tuple(edits))


def _apply_sorted(text: str, edits: list[Edit]) -> Iterator[str]:
    pos = 0
    for e in sorted(edits, key=lambda e: e.start):
        yield text[pos : e.start]
        yield e.replacement
        pos = e.end
    yield text[pos:]


# ------------------------------------------------------------------ IRI5xx: security (sec. 7.5, 8; UTS #39)

_SECURITY_CODES = {"mixed-script": "IRI501", "confusable-host": "IRI502", "fullwidth": "IRI503",
                   "delimiter-lookalike": "IRI504", "invisible": "IRI505", "userinfo-password": "IRI506"}


def security(ctx: Ctx) -> Iterator[Raw]:
    """Spoofing and leaks: mixed scripts, confusables, width forms, look-alikes, invisibles, passwords."""
    ref = ctx.ref
    if ref.text.isascii() and (ref.userinfo is None or ":" not in (ref.get("userinfo") or "")):
        return
    host = ref.host

    def code_of(kind: str, pos: int) -> str:
        code = _SECURITY_CODES[kind]
        if code == "IRI501" and not (host is not None and host.start <= pos < host.end):
            code = "IRI507"  # outside the host: common on real links (e.g. Wikipedia titles), opt-in
        return code

    budget = None if ctx.holes else Budget(MAX_PER_CODE, code_of)
    problems = security_problems(ref, budget=budget)
    _count_skipped(ctx, budget)
    for p in problems:
        code = code_of(p.kind, p.span.start)
        edits = None if p.replacement is None else (Edit(p.span.start, p.span.end, p.replacement),)
        yield Raw(code, p.span.start, p.span.end, p.message, edits)


# ------------------------------------------------------------------ the table the engine runs

# Every analysis with the rule codes it can produce, in the order they run; the engine runs one only
# when one of its codes is enabled (tests/rules/test_catalog.py checks the codes against the catalog).
ANALYSES: tuple[tuple[frozenset[str], Analysis], ...] = (
    (frozenset(E.SYNTAX_CODES), syntax),
    (frozenset({"IRI301", "IRI302"}), unicode_forms),
    (frozenset({"IRI401", "IRI402"}), percent_octets),
    (frozenset({"IRI601", "IRI602", "IRI603", "IRI604"}), scheme_checks),
    (frozenset(_BIDI_CODES.values()), bidi),
    (frozenset(_LADDER_CODES), ladder),
    (frozenset({"IRI403"}), idna_hosts),
    (frozenset({"IRI404"}), uri_only_api),
    (frozenset({*_SECURITY_CODES.values(), "IRI507"}), security),
)
