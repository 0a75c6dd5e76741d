"""A scanned IRI reference (RFC 3987 sec. 2.2): its components as spans over the text, and its errors."""

from __future__ import annotations

import enum
from typing import NamedTuple

from .errors import Detail, IRISyntaxError, Kind, error_message
from .grammar import COMPONENTS, Profile


class HostKind(enum.StrEnum):
    """RFC 3986 sec. 3.2.2 host forms."""

    REG_NAME = "reg-name"
    IPV4 = "ipv4"
    IPV6 = "ipv6"
    IPVFUTURE = "ipvfuture"


class Span(NamedTuple):
    """Half-open code point range [start, end) in the IRI text (immutable; ``len`` is its length)."""

    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start

    def __bool__(self) -> bool:
        return True  # an empty component is present: test ``is not None``, never truthiness


class ErrorRecord(NamedTuple):
    """One syntax error as the scanner finds it: a fact, no message (those are written when shown)."""

    start: int
    end: int
    kind: Kind
    component: str | None
    detail: Detail | None  # None: the error is the character at ``start`` (a run of them, with ``run``)
    run: bool = False  # ``[start, end)`` is a run of such characters


class Preprocessing(NamedTuple):
    """One change a 3987bis sec. 6 preprocessing made: at ``position`` of the original text."""

    position: int
    char: str
    action: str  # "percent-encode" | "strip" | "convert"
    replacement: str


class IRIReference(NamedTuple):
    """A scanned IRI reference: components as spans over ``text`` (None when absent), every error.

    Immutable and cheap to build (a named tuple: the linter makes one per literal).

    For the ``leiri`` and ``web-address`` profiles (3987bis sec. 6) ``text`` is the preprocessed
    string and ``original`` the caller's; ``origin[i]`` is the index in ``original`` that
    ``text[i]`` came from (one more entry for the end). Spans and ``error_records`` are over
    ``text``; ``errors`` are over ``original``, naming its characters.
    """

    text: str
    kind: str
    profile: Profile
    scheme: Span | None
    authority: Span | None
    userinfo: Span | None
    host: Span | None
    host_kind: HostKind | None
    port: Span | None
    path: Span
    query: Span | None
    fragment: Span | None
    error_records: tuple[ErrorRecord, ...] = ()
    original: str | None = None
    preprocessing: tuple[Preprocessing, ...] = ()
    origin: tuple[int, ...] | None = None

    @property
    def is_valid(self) -> bool:
        return not self.error_records

    @property
    def is_absolute(self) -> bool:
        return self.scheme is not None

    @property
    def errors(self) -> tuple[IRISyntaxError, ...]:
        """Every syntax problem, in order of position."""
        return tuple(self.error(i) for i in range(len(self.error_records)))

    def error(self, index: int) -> IRISyntaxError:
        """The ``index``-th of ``error_records`` as an IRISyntaxError with its message."""
        text, rec, profile = self.error_subject(index)
        start, end = self.original_span(*self.error_records[index][:2])
        return IRISyntaxError(rec.kind, start, error_message(text, profile, rec), end=end, component=rec.component)

    def error_subject(self, index: int) -> tuple[str, ErrorRecord, Profile]:
        """The text, record and profile that describe the ``index``-th error: the caller's text
        where 3987bis sec. 6 preprocessing wrote its character differently (a space as %20)."""
        rec = self.error_records[index]
        if self.origin is None or self.original is None:
            return self.text, rec, self.profile
        start, end = self.original_span(rec.start, rec.end)
        if rec.detail is None and start < len(self.original) and self.original[start] != self.text[rec.start]:
            return self.original, rec._replace(start=start, end=end), Profile.IRI_BIS
        return self.text, rec, Profile.IRI_BIS

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the caller's text that ``text[start:end]`` came from (3987bis sec. 6)."""
        origin = self.origin
        if origin is None:
            return start, end
        if not self.text and self.original:
            return 0, len(self.original)  # all of it was stripped (3987bis sec. 6.2 step 1)
        o_start = origin[start]
        return o_start, (origin[end - 1] + 1 if end > start else o_start)

    def get(self, name: str) -> str | None:
        """The text of component ``name`` (one of ``grammar.COMPONENTS``), or None when absent."""
        span: Span | None = getattr(self, name)
        return None if span is None else self.text[span.start : span.end]

    def components(self) -> dict[str, str | None]:
        """Every component's text, by name."""
        return {name: self.get(name) for name in COMPONENTS}

    @property
    def segments(self) -> tuple[Span, ...]:
        """Path segments (RFC 3986 sec. 3.3), without the "/" separators."""
        out = []
        text, (start, end) = self.text, self.path
        if start < end and text[start] == "/":
            start += 1
        elif start == end:
            return ()
        while True:
            slash = text.find("/", start, end)
            if slash < 0:
                out.append(Span(start, end))
                return tuple(out)
            out.append(Span(start, slash))
            start = slash + 1

    def __repr__(self) -> str:
        return (f"IRIReference({self.text!r}, kind={self.kind!r}, profile={self.profile.value!r}, "
                f"errors={len(self.error_records)})")
