"""Placeholders that examples write into an IRI's components: they stand for valid content.

Documentation, sample settings and logs write an IRI with a stand-in where a real value goes:
an all-caps token for a whole host or port (``http://API-HOST:API-PORT/``), the word ``port`` for the
port (``http://host:port/``), or a redaction marker
for a whole user, password, host, path segment or query value (``https://[Filtered]@host/``, ``?token=[REDACTED]``,
``***``). Template syntax (``{port}``, ``<Region>``) is ``templates``'; these need the components.
"""

from __future__ import annotations

import re

from iri_lint.core.reference import IRIReference, Span
from iri_lint.source.notations import REDACTED as _REDACTED

# an all-caps token: words of capitals and digits joined by "_" or "-" (HOST, API-PORT, YOUR_HOST)
_CAPS = re.compile(r"[A-Z][A-Z0-9]*+(?:[_\-][A-Z0-9]++)*+")
_QUERY_VALUE = re.compile(r"(?<==)[^&;#]++")
_SEGMENT = re.compile(r"/([^/]*+)")
# a secret shown by its first and last characters (apprise's privacy mode: "u...m" for "user@myaccount.com")
_ELLIPSIS_MASK = re.compile(r"[^\W_]\.\.\.[^\W_]")


def with_placeholders(ref: IRIReference, holes: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """``holes`` and the placeholders of examples in ``ref`` (holes as template placeholders are), in order."""
    extra = example_placeholders(ref)
    return tuple(sorted(holes + extra)) if extra else holes


def example_placeholders(ref: IRIReference) -> tuple[tuple[int, int], ...]:
    """Spans of ``ref.text`` that are placeholders of examples (see the module docstring)."""
    text = ref.text
    out: list[tuple[int, int]] = []
    for part in (ref.host, ref.port):
        if part is not None and len(part) and text[part.start].isupper() and _CAPS.fullmatch(text, *part):
            out.append(part)
    if ref.port is not None and text[ref.port.start : ref.port.end].lower() == "port":
        out.append(ref.port)  # the component named in its own place: "http://host:port/"
    elif ref.port is not None and ("*" in text or "..." in text) and (
            _REDACTED.fullmatch(text, *ref.port) or _ELLIPSIS_MASK.fullmatch(text, *ref.port)):
        out.append(ref.port)  # a password masked where no '@' follows ("clicksend://user:****", "sender:u...m")
    if "[" in text and ref.host is not None and _REDACTED.fullmatch(text, *ref.host):
        out.append(ref.host)  # ("postgresql://[REDACTED]@[REDACTED]/[REDACTED]": a sanitizer's replacement)
    if "[" in text and ref.path is not None:
        out.extend(m.span(1) for m in _SEGMENT.finditer(text, *ref.path) if _REDACTED.fullmatch(m.group(1)))
    if ("[" in text or "*" in text) and ref.userinfo is not None:
        colon = text.find(":", *ref.userinfo)
        parts = (ref.userinfo,) if colon < 0 else (Span(ref.userinfo.start, colon), Span(colon + 1, ref.userinfo.end))
        out.extend(p for p in parts if _REDACTED.fullmatch(text, *p))
    if ("[" in text or "*" in text) and ref.query is not None:
        if _REDACTED.fullmatch(text, *ref.query):
            out.append(ref.query)
        out.extend(m.span() for m in _QUERY_VALUE.finditer(text, *ref.query) if _REDACTED.fullmatch(m.group()))
    if ref.origin is not None:  # spans over the caller's text (3987bis sec. 6 preprocessing)
        out = [ref.original_span(a, b) for a, b in out]
    return tuple(sorted(out))
