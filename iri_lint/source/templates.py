"""Template placeholders inside a literal's value: %-format, str.format/RFC 6570, ${VAR}, Jinja, routes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from iri_lint.source.model import HOLE

# printf conversion (Python %-formatting); possessive quantifiers keep matching linear
_PRINTF = re.compile(
    r"%(?:\([^)]*+\))?[#0 +\-]*+(?:\*|\d++)?(?:\.(?:\*|\d*+))?[hlL]?[diouxXeEfFgGcrsa%]"
)
_HEX2 = re.compile(r"%[0-9A-Fa-f]{2}")
_ROUTE = re.compile(r"<(?:[A-Za-z_]\w*+(?:\([^)>]*+\))?:)?[A-Za-z_]\w*+>")
_START = re.compile(r"[%{$<]")


@dataclass(slots=True)
class Templated:
    """A value with placeholders collapsed to ``HOLE``."""

    value: str
    holes: tuple[tuple[int, int], ...]
    index_map: list[int] | None  # new index -> index in the input value (None: unchanged)


def apply_templates(
    value: str,
    holes: Sequence[tuple[int, int]] = (),
    *,
    percent_template: bool = False,
    format_template: bool = False,
) -> Templated:
    """Replace every placeholder of ``value`` by ``HOLE``; keep existing (f-string) holes.

    ``percent_template``: the literal is the left operand of ``%`` (``%%`` is a literal ``%``
    and every conversion is a placeholder); otherwise a conversion that is also a valid
    percent-encoding (``%2F``) is kept as text. ``format_template``: the literal is the
    receiver of ``.format`` (``{{``/``}}`` are literal braces).
    """
    spans = placeholder_spans(
        value, percent_template=percent_template, format_template=format_template
    )
    if not spans:
        return Templated(value, tuple(holes), None)
    parts: list[str] = []
    index_map: list[int] = []
    new_holes: list[tuple[int, int]] = []
    old_holes = {a for a, _ in holes}
    pos = 0
    for a, b, text in spans:
        for i in range(pos, a):
            if i in old_holes:
                new_holes.append((len(index_map), len(index_map) + 1))
            index_map.append(i)
        parts.append(value[pos:a])
        if text is None:
            new_holes.append((len(index_map), len(index_map) + 1))
            parts.append(HOLE)
            index_map.append(a)
        else:  # an escape that stands for literal text (%% or {{)
            parts.append(text)
            index_map.extend([a] * len(text))
        pos = b
    for i in range(pos, len(value)):
        if i in old_holes:
            new_holes.append((len(index_map), len(index_map) + 1))
        index_map.append(i)
    index_map.append(len(value))
    return Templated("".join(parts) + value[pos:], tuple(new_holes), index_map)


def placeholder_spans(
    value: str, *, percent_template: bool = False, format_template: bool = False
) -> list[tuple[int, int, str | None]]:
    """Spans (start, end, literal text or None for a placeholder) of template syntax in value."""
    spans: list[tuple[int, int, str | None]] = []
    pos = 0
    n = len(value)
    while pos < n:
        m = _START.search(value, pos)
        if m is None:
            break
        i = m.start()
        c = value[i]
        end = 0
        text: str | None = None
        if c == "%":
            if value.startswith("%%", i):
                if percent_template:
                    end, text = i + 2, "%"
            elif percent_template or not _HEX2.match(value, i):
                pm = _PRINTF.match(value, i)
                if pm:
                    end = pm.end()
        elif c == "{":
            if format_template and value.startswith("{{", i):
                end, text = i + 2, "{"
            elif value.startswith("{%", i):
                close = value.find("%}", i + 2)
                end = close + 2 if close >= 0 else 0
            else:
                end = _match_braces(value, i)
        elif c == "$":
            if value.startswith("${", i):
                end = _match_braces(value, i + 1)
        else:  # "<"
            rm = _ROUTE.match(value, i)
            if rm:
                end = rm.end()
        if end:
            spans.append((i, end, text))
            pos = end
        else:
            pos = i + 1
    if format_template:
        spans = _literal_close_braces(value, spans)
    return spans


def _match_braces(value: str, i: int) -> int:
    """End of the balanced ``{...}`` starting at ``value[i]`` (0 if unbalanced)."""
    depth = 0
    for j in range(i, len(value)):
        c = value[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return 0


def _literal_close_braces(
    value: str, spans: list[tuple[int, int, str | None]]
) -> list[tuple[int, int, str | None]]:
    """In a .format template, ``}}`` outside fields is a literal ``}``."""
    out: list[tuple[int, int, str | None]] = []
    pos = 0
    for a, b, t in [*spans, (len(value), len(value), None)]:
        j = value.find("}}", pos, a)
        while j >= 0:
            out.append((j, j + 2, "}"))
            j = value.find("}}", j + 2, a)
        if a < len(value) or b > a:
            out.append((a, b, t))
        pos = b
    return out
