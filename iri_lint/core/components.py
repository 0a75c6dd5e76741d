"""The components of an IRI for the bidi and security checks: RFC 3987 sec. 4.2's list (userinfo,
each host label, path segments and their extensions, query names and values, the fragment), as one
table both passes share.

Hostile IRIs have tens of thousands of components and the passes look at few of them, so the
table holds kinds and offsets in lists and builds objects on demand; questions about every
component are answered by one regex over the joined component texts.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from .reference import HostKind, IRIReference, Span

__all__ = ["COMPONENT_NAMES", "Component", "ComponentTable", "char_class", "component_table", "distinct_chars",
           "unused_chars"]


class Component(NamedTuple):
    """A component for bidi purposes (RFC 3987 sec. 4.2), as a span over the IRI text.

    ``kind`` is one of "userinfo" (or "user" and "password"), "label", "segment", "extension",
    "query-name", "query-value", "fragment".
    """

    kind: str
    span: Span
    text: str


COMPONENT_NAMES = {  # how messages name the components of sec. 4.2
    "userinfo": "userinfo",
    "label": "host label",
    "segment": "path segment",
    "extension": "file extension",
    "query-name": "query name",
    "query-value": "query value",
    "fragment": "fragment",
    "user": "user name",
    "password": "password",
}


# ------------------------------------------------------------------ distinct characters


@functools.lru_cache(maxsize=4)
def distinct_chars(text: str) -> frozenset[str]:
    """The distinct characters of ``text`` (one C-level pass; the bidi and security passes share it)."""
    return frozenset(text)


def char_class(chars: Iterable[str], *, negate: bool = False, ranges: str = "") -> str:
    """A regex character class of exactly ``chars`` (escaped) and ``ranges`` (a class body such
    as "A-Za-z"); an empty one never matches."""
    body = re.escape("".join(sorted(chars))) + ranges
    if negate:
        return f"[^{body}]" if body else "[\\s\\S]"
    return f"[{body}]" if body else "[^\\s\\S]"


# ------------------------------------------------------------------ components (sec. 4.2)


@functools.cache
def _separators(seps: str) -> re.Pattern[str]:
    return re.compile(f"({char_class(seps)})")


class ComponentTable:
    """The components of RFC 3987 sec. 4.2 as lists of kinds, starts and ends, in text order.

    Hostile IRIs have tens of thousands of components and the passes look at few of them, so
    ``Component`` objects are made on demand.
    """

    __slots__ = ("_joined", "_spans", "ends", "kinds", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.kinds: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self._spans: dict[int, Span] = {}
        self._joined: tuple[str, str, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.starts)

    def add(self, kind: str, start: int, end: int) -> None:
        """Append a component; empty ones are not components."""
        if start < end:
            self.kinds.append(kind)
            self.starts.append(start)
            self.ends.append(end)

    def span(self, k: int) -> Span:
        """The span of component ``k`` (one object per component)."""
        span = self._spans.get(k)
        if span is None:
            span = self._spans[k] = Span(self.starts[k], self.ends[k])
        return span

    def component(self, k: int) -> Component:
        """Component ``k``."""
        return Component(self.kinds[k], self.span(k), self.text[self.starts[k] : self.ends[k]])

    def index(self, pos: int) -> int:
        """Index of the component holding ``pos``, or -1."""
        k = bisect.bisect_right(self.starts, pos) - 1
        return k if k >= 0 and pos < self.ends[k] else -1

    def holding(self, char: re.Pattern[str], start: int = 0, end: int | None = None) -> Iterator[int]:
        """Indices of the components that hold a match of the one-character pattern ``char``."""
        text, starts, ends = self.text, self.starts, self.ends
        pos, end = start, len(text) if end is None else end
        while (m := char.search(text, pos, end)) is not None:
            k = bisect.bisect_right(starts, m.start()) - 1
            if k >= 0 and m.start() < ends[k]:
                yield k
                pos = ends[k]
            elif k + 1 < len(starts):  # outside every component (scheme, port, IP literal)
                pos = starts[k + 1]
            else:
                return

    def joined(self) -> tuple[str, str, list[int]]:
        """The component texts, each after a separator the text lacks; the separator; offsets.

        One regex over the joined texts answers a question for every component at C speed
        (``at_starts``, ``matching``).
        """
        if self._joined is None:
            (sep,) = unused_chars(distinct_chars(self.text), 1)
            joined = sep + sep.join(map(self.text.__getitem__, map(slice, self.starts, self.ends)))
            sizes = map(operator.add, map(operator.sub, self.ends, self.starts), itertools.repeat(1))
            self._joined = (joined, sep, list(itertools.accumulate(sizes, initial=1)))
        return self._joined

    def at_starts(self, body: str) -> re.Pattern[str]:
        """A pattern for ``body`` at component starts in ``joined()`` (right after a separator)."""
        return re.compile(f"{re.escape(self.joined()[1])}(?:{body})")

    def matching(self, pattern: re.Pattern[str], joined: str, first: int = 0,
                 last: int | None = None) -> Iterator[int]:
        """Indices in [first, last) of the components where ``pattern`` (from ``at_starts``)
        matches ``joined`` (``joined()``, or a same-length mapping of it)."""
        offsets = self.joined()[2]
        end = offsets[len(self) if last is None else last] - 1
        for m in pattern.finditer(joined, offsets[first] - 1, end):
            yield bisect.bisect_right(offsets, m.start() + 1) - 1


def unused_chars(distinct: frozenset[str], n: int) -> list[str]:
    """``n`` characters from U+E000 up (private use first) that are not in ``distinct``."""
    candidates = map(chr, itertools.chain(range(0xF0000, 0x110000), range(0xE000, 0xF0000)))
    out = list(itertools.islice((c for c in candidates if c not in distinct), n))
    assert len(out) == n, "a text with every code point from U+E000 up"
    return out


_START, _END = operator.attrgetter("start"), operator.attrgetter("end")


@functools.lru_cache(maxsize=8)
def component_table(ref: IRIReference, *, split_userinfo: bool = False) -> ComponentTable:
    """The components of ``ref`` (RFC 3987 sec. 4.2), made once per pass and reused.

    ``split_userinfo``: the user name and the password (RFC 3986 sec. 3.2.1) as two components,
    for the security checks (a Latin user name with a Cyrillic password mixes nothing).
    """
    text = ref.text
    table = ComponentTable(text)
    if ref.userinfo is not None and split_userinfo:
        _add_split(table, ref.userinfo, {":": "password"}, "user")
    elif ref.userinfo is not None:
        table.add("userinfo", ref.userinfo.start, ref.userinfo.end)
    if ref.host is not None and ref.host_kind is HostKind.REG_NAME:
        # RFC 3490 treats each label as a component (sec. 4.2)
        _add_split(table, ref.host, {".": "label"}, "label")
    _add_segments(table, ref.segments)
    if ref.query is not None:
        _add_split(table, ref.query, _QUERY_KINDS, "query-name")
    if ref.fragment is not None:
        table.add("fragment", ref.fragment.start, ref.fragment.end)
    return table


_QUERY_KINDS = {"&": "query-name", ";": "query-name", "=": "query-value"}


def _add_split(table: ComponentTable, span: Span, kind_after: dict[str, str], first: str) -> None:
    """The non-empty pieces of ``span`` cut at the (one-character) keys of ``kind_after``, each of
    the kind its separator gives (``first`` for the first), all at once."""
    value = table.text[span.start : span.end]
    if len(kind_after) == 1:  # one separator: str.split, one kind after it
        ((sep, kind),) = kind_after.items()
        pieces = value.split(sep)
        kinds = [first] + [kind] * (len(pieces) - 1)
    else:
        parts = _separators("".join(kind_after)).split(value)
        pieces = parts[0::2]
        kinds = [first, *map(kind_after.__getitem__, parts[1::2])]
    sizes = list(map(len, pieces))
    starts = list(itertools.accumulate(map(operator.add, sizes, itertools.repeat(1)), initial=span.start))
    ends = list(map(operator.add, starts, sizes))
    full = list(map(operator.lt, starts, ends))
    table.kinds += itertools.compress(kinds, full)
    table.starts += itertools.compress(starts, full)
    table.ends += itertools.compress(ends, full)


def _add_segments(table: ComponentTable, segments: Sequence[Span]) -> None:
    """Path segments, each with its extension as a component of its own (sec. 4.2)."""
    starts, ends = list(map(_START, segments)), list(map(_END, segments))
    dots = list(map(table.text.rfind, itertools.repeat("."), starts, ends))
    if max(dots, default=-1) < 0:  # no extension anywhere: all segments at once, empty ones left out
        full = list(map(operator.lt, starts, ends))
        table.kinds += ["segment"] * sum(full)
        table.starts += itertools.compress(starts, full)
        table.ends += itertools.compress(ends, full)
        return
    for s, e, dot in zip(starts, ends, dots, strict=True):
        # "the extensions in a resource name can be treated as separate components" (sec. 4.2);
        # a leading dot (".htaccess") or a trailing one is not an extension
        if s < dot < e - 1:
            table.add("segment", s, dot)
            table.add("extension", dot + 1, e)
        else:
            table.add("segment", s, e)


