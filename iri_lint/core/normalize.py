"""The comparison ladder of RFC 3987 sec. 5.3 as first-class steps, each with a trace.

Levels: ``simple`` (5.3.1, the string itself), ``syntax`` (5.3.2), ``scheme`` (5.3.3). Each level
runs the steps of the levels below it first, so the levels are monotone: strings equal at a lower
level are equal at a higher one. Every step is a pure function of the string, and ``normalize``
is idempotent.

Choices (the RFCs leave room; each is made once, here):

- Character normalization (NFC, 5.3.2.2) is never applied: equivalence MUST assume
  pre-normalized IRIs. A rule reports non-NFC text instead.
- Percent-encoding (5.3.2.3): the normal form is the *IRI form*. Percent-encoded UTF-8 of a
  character that may appear literally is decoded (exactly as :func:`~.mapping.to_iri` does),
  and a literal non-ASCII character that may not (bidi controls, look-alikes of space,
  private use outside the query, non-characters ...) is percent-encoded, as
  :func:`~.mapping.to_uri` would. So two IRIs that map to the same URI up to hex case and
  encoded unreserved characters have the same normal form. Octets that are not UTF-8 stay
  encoded (uppercase). A string with a malformed ``%`` is not percent-decoded at all: decoding
  next to a stray ``%`` could create new triplets and break idempotence.
- Case (5.3.2.1): ASCII letters of the host are lowercased outside ``%HH``, also in a host
  with non-ASCII labels (the mapped URI's host is case-insensitive, RFC 3986 sec. 3.2.2);
  non-ASCII letters only change through UTS #46 in ``idn-host``.
- Dot-segments (5.3.2.4) are removed from every path of an IRI with a scheme, rootless ones too
  (``urn:a/../b`` is ``urn:/b``, exactly what RFC 3986 sec. 5.2.2 resolution gives), and from a
  relative reference's path that starts with ``/``; a relative ``a/../b`` keeps its dots (they
  still act on the base). When removal leaves a path starting with ``//`` and there is no
  authority, ``/.`` is kept before it.
- A stray ``%`` switches percent-decoding off, and dot-segment removal may then remove it: the
  ladder is run again until nothing changes (at most three passes), so one call of
  :func:`normalize` always reaches the fixed point.
- Scheme-based (5.3.3), for the schemes of :data:`~.mapping.SCHEMES`: a default port is removed
  (compared as a number, so ``:080`` is port 80); an empty port is removed for every scheme
  (RFC 3986 sec. 3.2.3 and 6.2.3 say so generically); an empty path with an authority becomes
  ``/`` where the scheme says so (``file:`` too: RFC 8089 sec. 2 makes the path after an
  authority absolute), and a ``file:`` host ``localhost`` is the empty host (RFC 8089 sec. 2);
  DNS hosts are compared after UTS #46 mapping with ``xn--`` and Unicode labels equal, and shown
  in Unicode (5.3.3 SHOULD NOT convert to ACE "for legibility"). A label that fails IDNA stays as
  it is. Empty ``?`` and ``#`` are never dropped.
- Fragments: ``equivalent(..., ignore_fragment=True)`` drops them before comparing, for
  comparisons that select a network action (5.1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from .chars import Group, group, is_digits, is_pct_triplet, pct_encode
from .mapping import DOTS, SCHEMES, decode_octets, is_appropriate, is_dns_scheme
from .reference import HostKind, IRIReference, Span
from .resolve import remove_dot_segments
from .scanner import scan

__all__ = [
    "LEVELS",
    "Normalization",
    "Step",
    "StepEdit",
    "equivalent",
    "normalize",
    "normalize_trace",
]

Level = Literal["simple", "syntax", "scheme"]
LEVELS: tuple[str, ...] = ("simple", "syntax", "scheme")


@dataclass(frozen=True, slots=True)
class StepEdit:
    """One change of a step: ``span`` of ``Step.before`` becomes ``replacement``.

    ``source`` is the same place in the text given to :func:`normalize_trace`, for findings.
    """

    span: Span
    replacement: str
    source: Span


@dataclass(frozen=True, slots=True)
class Step:
    """One ladder step that changed the IRI: what, which section, and where."""

    name: str  # e.g. "percent-hex-case"
    section: str  # e.g. "RFC 3987 sec. 5.3.2.1"
    level: str  # "syntax" | "scheme"
    description: str
    before: str
    after: str
    edits: tuple[StepEdit, ...]

    @property
    def spans(self) -> tuple[Span, ...]:
        """The changed spans of ``before``."""
        return tuple(e.span for e in self.edits)

    @property
    def source_spans(self) -> tuple[Span, ...]:
        """The changed spans, as positions in the original input."""
        return tuple(e.source for e in self.edits)


@dataclass(frozen=True, slots=True)
class Normalization:
    """The result of :func:`normalize_trace`: the normal form and the steps that made it."""

    original: str
    value: str
    level: str
    steps: tuple[Step, ...]

    @property
    def changed(self) -> bool:
        return self.value != self.original


_RawEdit = tuple[int, int, str]
_StepFn = Callable[[str, IRIReference], list[_RawEdit]]


# ---------------------------------------------------------------- helpers


def _merge(edits: list[_RawEdit]) -> list[_RawEdit]:
    """Join edits that touch each other into one (a run of triplets is one finding)."""
    out: list[_RawEdit] = []
    for s, e, r in edits:
        if out and out[-1][1] == s:
            ps, _, pr = out[-1]
            out[-1] = (ps, e, pr + r)
        else:
            out.append((s, e, r))
    return out


def _minimal(start: int, old: str, new: str, *, whole_segments: bool = False) -> _RawEdit:
    """The smallest edit turning ``old`` (at ``start``) into ``new``; ``whole_segments``: starting where a path
    segment does (``v2/../`` of ``/v2/../v1``, not ``2/../v``, which ``v1`` and ``v2`` sharing a ``v`` gives)."""
    p = 0
    limit = min(len(old), len(new))
    while p < limit and old[p] == new[p]:
        p += 1
    if whole_segments:
        p = old.rfind("/", 0, p) + 1
    q = 0
    while q < limit - p and old[len(old) - 1 - q] == new[len(new) - 1 - q]:
        q += 1
    return (start + p, start + len(old) - q, new[p : len(new) - q])


def _has_malformed_percent(text: str) -> bool:
    i = text.find("%")
    n = len(text)
    while i >= 0:
        if not is_pct_triplet(text, i, n):
            return True
        i = text.find("%", i + 3)
    return False


def _triplets(text: str) -> list[int]:
    """Start offsets of every pct-encoded triplet (RFC 3986 sec. 2.1)."""
    out: list[int] = []
    n = len(text)
    i = text.find("%")
    while i >= 0:
        if is_pct_triplet(text, i, n):
            out.append(i)
            i = text.find("%", i + 3)
        else:
            i = text.find("%", i + 1)
    return out


# ---------------------------------------------------------------- syntax-based steps (5.3.2)


def _case_scheme(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.2.1: the scheme is case-insensitive; lowercase it."""
    scheme = ref.get("scheme")
    if scheme is None or not scheme.isascii() or scheme == scheme.lower():
        return []
    assert ref.scheme is not None
    return [_minimal(0, scheme, scheme.lower())]


def _percent_hex_case(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.2.1: hex digits of percent-encodings in uppercase."""
    edits = []
    for i in _triplets(text):
        t = text[i : i + 3]
        if t != t.upper():
            edits.append((i, i + 3, t.upper()))
    return _merge(edits)


def _percent_unreserved(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.2.3, RFC 3986 sec. 2.3: decode percent-encoded unreserved characters."""
    if _has_malformed_percent(text):
        return []
    edits = []
    for i in _triplets(text):
        c = chr(int(text[i + 1 : i + 3], 16))
        if c.isascii() and (c.isalnum() or c in "-._~"):
            edits.append((i, i + 3, c))
    return _merge(edits)


def _percent_nonascii(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.2.3: align percent-encoded and literal non-ASCII on the IRI form."""
    if _has_malformed_percent(text):
        return []
    q = ref.query
    edits: list[_RawEdit] = []
    n = len(text)
    i = 0
    scheme_end = ref.scheme.end if ref.scheme is not None else 0
    while i < n:
        c = text[i]
        if c == "%" and is_pct_triplet(text, i, n) and text[i + 1] in "89ABCDEFabcdef":
            start = i
            octets: list[int] = []
            while is_pct_triplet(text, i, n) and text[i + 1] in "89ABCDEFabcdef":
                octets.append(int(text[i + 1 : i + 3], 16))
                i += 3
            in_query = q is not None and q.start <= start < q.end
            new = decode_octets(octets, in_query=in_query)
            if new != text[start:i]:
                edits.append((start, i, new))
            continue
        if c >= "\x80" and i >= scheme_end:
            in_query = q is not None and q.start <= i < q.end
            if not is_appropriate(c, in_query=in_query) and group(c) is not Group.SURROGATE:
                edits.append((i, i + 1, pct_encode(c)))  # as to_uri would (sec. 3.1)
        i += 1
    return _merge(edits)


def _case_host(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.2.1: ASCII letters of the host in lowercase (not inside ``%HH``), in its US-ASCII
    only labels: a non-ASCII label's case is its IDNA mapping's (sec. 5.3.3, the ``idn-host`` step)."""
    if ref.host is None:
        return []
    edits: list[_RawEdit] = []
    for start, end in _ascii_labels(text, ref.host):
        i = start
        while i < end:
            if is_pct_triplet(text, i, end):
                i += 3
                continue
            c = text[i]
            if "A" <= c <= "Z":
                edits.append((i, i + 1, c.lower()))
            i += 1
    return _merge(edits)


def _ascii_labels(text: str, host: Span) -> Iterator[tuple[int, int]]:
    """The spans of the host's US-ASCII only labels (all of it when it is), split at the dots of UTS #46."""
    if text[host.start : host.end].isascii():
        yield host.start, host.end
        return
    start = host.start
    for i in range(host.start, host.end + 1):
        if i == host.end or text[i] in DOTS:
            if text[start:i].isascii():
                yield start, i
            start = i + 1


def _dot_segments(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.2.4: remove_dot_segments (RFC 3986 sec. 5.2.4) on an IRI's path.

    Every path of an IRI with a scheme, rootless ones too, as resolution does (sec. 5.2.2);
    a relative reference's rootless path is left alone (its dots still mean something).
    """
    path = ref.path
    old = text[path.start : path.end]
    if "." not in old or not (old.startswith("/") or ref.scheme is not None):
        return []
    new = remove_dot_segments(old)
    if ref.authority is None and new.startswith("//"):
        new = "/." + new  # keep it a path, not an authority
    if new == old:
        return []
    return [_minimal(path.start, old, new, whole_segments=True)]


# ---------------------------------------------------------------- scheme-based steps (5.3.3)


def _scheme_info(ref: IRIReference) -> str:
    scheme = ref.get("scheme")
    return scheme.lower() if scheme else ""


def _empty_port(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.3: an empty ``:port`` is elided."""
    if ref.port is None or len(ref.port) or ref.authority is None:
        return []
    return [(ref.port.start - 1, ref.port.end, "")]


def _default_port(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.3: a ``:port`` equal to the scheme's default is elided."""
    info = SCHEMES.get(_scheme_info(ref))
    port = ref.get("port")
    if info is None or info.default_port is None or not port or not is_digits(port):
        return []
    if int(port) != info.default_port:
        return []
    assert ref.port is not None
    return [(ref.port.start - 1, ref.port.end, "")]


def _empty_path(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.3: an empty path with an authority is "/" for http-like schemes."""
    info = SCHEMES.get(_scheme_info(ref))
    if info is None or not info.empty_path_is_root or ref.authority is None or len(ref.path):
        return []
    return [(ref.path.start, ref.path.start, "/")]


def _file_localhost(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 8089 sec. 2: a ``file:`` authority "localhost" is the local machine, "exactly as if no
    authority were present": ``file://localhost/x`` is ``file:///x``."""
    host = ref.host
    if _scheme_info(ref) != "file" or host is None or ref.userinfo is not None or ref.port is not None \
            or text[host.start : host.end].lower() != "localhost":
        return []
    return [(host.start, host.end, "")]


def _display_label(label: str) -> str | None:
    """A DNS label in its UTS #46-mapped Unicode form, or None when IDNA rejects it."""
    import idna as _idna  # lazy boundary (c): IDNA's tables, for an IDN label

    try:
        if label.isascii():
            return str(_idna.decode(label))
        ace = _idna.encode(label, uts46=True, std3_rules=True, transitional=False)
        return str(_idna.decode(ace))
    except (_idna.IDNAError, UnicodeError, ValueError):
        return None


def _idn_host(text: str, ref: IRIReference) -> list[_RawEdit]:
    """RFC 3987 sec. 5.3.3: IDN labels after UTS #46 mapping, ``xn--`` shown as Unicode."""
    # edits stay sorted: a label edit always ends before its separator edit
    if ref.host is None or ref.host_kind is not HostKind.REG_NAME or not is_dns_scheme(ref.get("scheme")):
        return []
    edits: list[_RawEdit] = []
    start, end = ref.host.start, ref.host.end
    label_start = start
    for i in range(start, end + 1):
        if i < end and text[i] not in DOTS:
            continue
        label = text[label_start:i]
        if not label.isascii() or label[:4].lower() == "xn--":
            new = _display_label(label)
            if new is not None and new != label and "." not in new:
                edits.append((label_start, i, new))
        if i < end and text[i] != ".":
            edits.append((i, i + 1, "."))  # UTS #46 maps the ideographic full stops to "."
        label_start = i + 1
    return edits


_SYNTAX_STEPS: tuple[tuple[str, str, str, _StepFn], ...] = (
    ("case-scheme", "RFC 3987 sec. 5.3.2.1", "scheme in lowercase", _case_scheme),
    ("percent-hex-case", "RFC 3987 sec. 5.3.2.1", "percent-encoding hex digits in uppercase",
     _percent_hex_case),
    ("percent-unreserved", "RFC 3987 sec. 5.3.2.3; RFC 3986 sec. 2.3",
     "percent-encoded unreserved characters decoded", _percent_unreserved),
    ("percent-nonascii", "RFC 3987 sec. 5.3.2.3, 3.2",
     "percent-encoded UTF-8 shown as characters; characters not allowed literally encoded",
     _percent_nonascii),
    ("case-host", "RFC 3987 sec. 5.3.2.1", "host in lowercase", _case_host),
    ("dot-segments", "RFC 3987 sec. 5.3.2.4; RFC 3986 sec. 5.2.4", "dot-segments removed",
     _dot_segments),
)
_SCHEME_STEPS: tuple[tuple[str, str, str, _StepFn], ...] = (
    ("empty-port", "RFC 3987 sec. 5.3.3; RFC 3986 sec. 3.2.3", "empty port removed", _empty_port),
    ("default-port", "RFC 3987 sec. 5.3.3", "default port of the scheme removed", _default_port),
    ("empty-path", "RFC 3987 sec. 5.3.3; RFC 8089 sec. 2", "empty path with an authority becomes /",
     _empty_path),
    ("file-localhost", "RFC 8089 sec. 2", "file://localhost/ is file:/// (the local machine)", _file_localhost),
    ("idn-host", "RFC 3987 sec. 5.3.3; UTS #46", "IDN host labels mapped and shown in Unicode",
     _idn_host),
)


# ---------------------------------------------------------------- driver


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")


def normalize_trace(iri: str, *, level: Level = "syntax") -> Normalization:
    """Normalize ``iri`` up to ``level`` of the ladder (RFC 3987 sec. 5.3), with every step."""
    _check_level(level)
    if level == "simple":
        return Normalization(iri, iri, level, ())
    plan = [(s, "syntax") for s in _SYNTAX_STEPS]
    if level == "scheme":
        plan += [(s, "scheme") for s in _SCHEME_STEPS]
    trace = _Trace(iri)
    # a stray "%" stops percent-decoding until dot-segment removal drops it: run again
    for _ in range(_PASSES if _has_malformed_percent(iri) else 1):
        done = len(trace.steps)
        for step, step_level in plan:
            trace.run(step, step_level)
        if len(trace.steps) == done:
            break
    return Normalization(iri, trace.text, level, tuple(trace.steps))


_PASSES = 3  # pass 1 may remove the stray "%"; pass 2 decodes; pass 3 finds nothing to do


class _Trace:
    """The text being normalized, the steps so far, and where each character came from."""

    def __init__(self, iri: str) -> None:
        self.text = iri
        self.ref = scan(iri)
        self.steps: list[Step] = []
        # ostart[i], oend[i]: the span of the original input that character i came from
        self.ostart: list[int] | None = None
        self.oend: list[int] | None = None

    def run(self, step: tuple[str, str, str, _StepFn], step_level: str) -> None:
        name, section, description, fn = step
        text = self.text
        raw = fn(text, self.ref)
        if not raw:
            return
        if self.ostart is None or self.oend is None:
            self.ostart = list(range(len(text) + 1))
            self.oend = list(range(1, len(text) + 1))
        ostart, oend = self.ostart, self.oend
        parts: list[str] = []
        edits: list[StepEdit] = []
        new_start: list[int] = []
        new_end: list[int] = []
        pos = 0
        for s, e, r in raw:
            parts.append(text[pos:s])
            new_start += ostart[pos:s]
            new_end += oend[pos:s]
            src = Span(ostart[s], oend[e - 1]) if e > s else Span(ostart[s], ostart[s])
            edits.append(StepEdit(Span(s, e), r, src))
            parts.append(r)
            new_start += [src.start] * len(r)
            new_end += [src.end] * len(r)
            pos = e
        parts.append(text[pos:])
        new_start += ostart[pos:]  # includes the end sentinel
        new_end += oend[pos:]
        after = "".join(parts)
        self.steps.append(Step(name, section, step_level, description, text, after, tuple(edits)))
        self.text, self.ostart, self.oend = after, new_start, new_end
        self.ref = scan(after)


def normalize(iri: str, *, level: Level = "syntax") -> str:
    """The normal form of ``iri`` at ``level`` (RFC 3987 sec. 5.3.2 syntax, 5.3.3 scheme)."""
    return normalize_trace(iri, level=level).value


def _drop_fragment(iri: str) -> str:
    ref = scan(iri)
    return iri if ref.fragment is None else iri[: ref.fragment.start - 1]


def equivalent(a: str, b: str, *, level: Level = "syntax", ignore_fragment: bool = False) -> bool:
    """Whether ``a`` and ``b`` are equivalent at ``level`` of the ladder (RFC 3987 sec. 5.1, 5.3).

    ``simple`` is character-for-character comparison (5.3.1, required for identifiers);
    ``ignore_fragment`` drops fragments first, for comparisons before a network action (5.1).
    """
    _check_level(level)
    if ignore_fragment:
        a, b = _drop_fragment(a), _drop_fragment(b)
    if a == b:
        return True
    if level == "simple":
        return False
    return normalize(a, level=level) == normalize(b, level=level)
