"""Template placeholders inside a literal's value: %-format, str.format/RFC 6570, ${VAR}, Jinja, routes.

One compiled search finds the next placeholder, so the regex engine skips text (and any run of
characters that start no placeholder) in C; Python runs once per placeholder. Every pattern is
possessive and the few that would scan the same text again from many starts (``%(`` names or
route parameters holding another start, ``{%`` without ``%}``, braces nested deeper than
``_DEPTH``) are settled once in Python, so hostile input stays linear.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from iri_lint.core.lazy import lazy_regex
from iri_lint.source.model import HOLE

Span = tuple[int, int, "str | None"]

# printf conversion (Python %-formatting) after the "%" and the optional "(name)"
_TAIL = r"[#0 +\-]*+(?:\*|\d++)?(?:\.(?:\*|\d*+))?[hlL]?[diouxXeEfFgGcrsa%]"
_tail_re = lazy_regex(_TAIL)
_route = lazy_regex(r"<(?:[A-Za-z_]\w*+(?:\([^)>]*+\))?:)?[A-Za-z_]\w*+>")
_START = re.compile(r"[%{$<]")
_params_end = lazy_regex(r"[)>]")
_close_pairs = lazy_regex(r"(?:\}\})++")
_DEPTH = 4  # brace nesting the search matches by itself; deeper groups are settled by _BraceRuns


def _balanced(depth: int) -> str:
    """A possessive pattern for a ``{...}`` group with at most ``depth`` levels of braces."""
    group = r"\{[^{}]*+\}"
    for _ in range(depth - 1):
        group = r"\{(?:[^{}]++|" + group + r")*+\}"
    return group


_BAL = _balanced(_DEPTH)
_NAME = r"%\((?:[^)%]++|%(?!\())*+"  # a %(name) up to its ")" or to a "%(" inside it
_brace_cand = lazy_regex(r"\$\{|\{(?!%)")
# runs of structural braces: those not inside a group of at most _DEPTH levels
_run_re = lazy_regex(
    rf"(?:[^{{}}]++|{_BAL})*+"
    rf"(?:(\{{(?:\{{+(?=\{{{{{_DEPTH}}})|[^{{}}]*+(?!{_BAL})\{{)*+)|(\}}(?:[^{{}}]*+\}})*+))"
)

# states of the %(name) and <conv(params):name> searches
_ALIVE, _UNTIL, _DEAD = 0, 1, 2
_PATTERNS: dict[tuple[bool, bool, bool, bool, int, int], re.Pattern[str]] = {}
_ESCAPES = {"pct_esc": "%", "brace_esc": "{"}  # runs of "%%" or "{{": one character each
_NEVER = 1 << 62
_DEEPER = rf"(?=(?:[^{{}}]*+\{{){{{_DEPTH}}})"  # _DEPTH more "{" before any "}": too deep a group


def _skip(
    pct: bool, fmt: bool, jinja: bool, braces: bool, names: int, stops: str, others: str
) -> str:
    """Everything up to the next placeholder or token (``others``), as one step.

    Runs of starts that fail for a reason seen at a glance go by in one regex operation; any
    other start is tried (``(?!others)``) as the search itself would.
    """
    # "x+(?=...)" gives back at most one character
    rules = [r"%+(?=%)", r"%[0-9A-Fa-f]{2}"] if not pct else []  # "%%", "%2F" are text
    rules += [r"%(?![#0 +\-*\d.hlLdiouxXeEfFgGcrsa%(])", r"<+(?![A-Za-z_])"]  # nothing follows
    if names == _DEAD:
        rules.append(r"%(?=\()")
    if not braces:  # no "}" after here: every "{" and "$" fails ("{{" is text in .format)
        rules += [r"\{(?!\{)", r"\$++"] if fmt else [r"[{$]++"]
        junk = "%{$<" if fmt else "%<"
    else:
        junk = "%{$<"
        if not fmt:  # (a run of "{{" is a run of escapes)
            rules.append(rf"\{{+(?=\{{{{{_DEPTH}}})")  # gives back at most _DEPTH: linear
        rules += [
            r"\{(?![%" + ("{" if fmt else "") + "])" + _DEEPER,  # too deep a group
            r"\$+(?!\{)",
            r"\$(?=\{" + _DEEPER[3:],
        ]
        if not jinja:
            rules.append(r"\{(?=%)")
    rules.append(rf"(?!{others})[%{{$<]")
    rule = "|".join(rules)
    return rf"(?:{rule})(?:[^{junk}{stops}]++|{rule})*+"


def _pattern(
    pct: bool, fmt: bool, jinja: bool, braces: bool, names: int, params: int
) -> re.Pattern[str]:
    """The search for the next placeholder (named group = kind) in one state of the scan."""
    jinja = jinja and braces
    key = (pct, fmt, jinja, braces, names, params)
    pat = _PATTERNS.get(key)
    if pat is None:
        holes = [rf"%(?!\(){_TAIL}" if pct else rf"%(?![(%]|[0-9A-Fa-f]{{2}}){_TAIL}"]
        tokens = []  # what Python settles (see _Scan._token)
        if names == _ALIVE:
            holes.append(rf"{_NAME}\){_TAIL}")
            tokens.append(("name_nested", rf"{_NAME}%\("))
        if jinja:  # a tag up to the first "%}"; with none after it, none after any later "{%"
            holes.append(r"\{%(?:[^%]++|%(?!\}))*+%\}")
            tokens.append(("jinja_dead", r"\{%"))
        if braces:
            holes.append(rf"\{{(?![%{'{' if fmt else ''}]){_BAL[2:]}")
            holes.append(rf"\${_BAL}")
        if params == _ALIVE:
            holes.append(r"<(?:[A-Za-z_]\w*+(?:\([^)><]*+\))?:)?[A-Za-z_]\w*+>")
            tokens.append(("route_nested", r"<[A-Za-z_]\w*+\([^)><]*+<"))
        else:
            holes.append(r"<(?:[A-Za-z_]\w*+:)?[A-Za-z_]\w*+>")
        stops = (")" if names == _UNTIL else "") + (")>" if params == _UNTIL else "")
        if stops:
            tokens.append(("stop", f"[{stops}]"))
        alts = [("pct_esc", r"(?:%%)++")] if pct else []  # before "%" + conversion "%"
        alts.append(("hole", "(?:" + "|".join(holes) + ")"))
        if fmt:
            alts.append(("brace_esc", r"(?:\{\{)++"))
        alts += tokens
        others = "|".join(rx for _, rx in alts)
        alts.append(("skip", _skip(pct, fmt, jinja, braces, names, stops, others)))
        # the lookahead lets the engine skip, in C, text where nothing can start
        guard = f"(?=[%{{$<{stops}])"
        pat = _PATTERNS[key] = re.compile(guard + "(?:" + "|".join(f"(?P<{n}>{rx})" for n, rx in alts) + ")")
    return pat


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
    every_syntax: bool = False,
) -> Templated:
    """Replace every placeholder of ``value`` by ``HOLE``; keep existing (f-string) holes.

    ``percent_template``: the literal is the left operand of ``%`` (``%%`` is a literal ``%``
    and every conversion is a placeholder); otherwise a conversion that is also a valid
    percent-encoding (``%2F``) is kept as text. ``format_template``: the literal is the
    receiver of ``.format`` (``{{``/``}}`` are literal braces). Placeholder guesses are kept only
    where formatting happens (see ``_where_formatting_happens``); ``every_syntax`` keeps every
    placeholder syntax found (the recognizer alone, as its reference tests see it).
    """
    spans = _spans(value, percent_template, format_template)
    if spans and not every_syntax:
        spans = _where_formatting_happens(value, spans, percent_template, format_template)
    if not spans:
        return Templated(value, tuple(holes), None)
    old = sorted({a for a, _ in holes})
    parts: list[str] = []
    index_map: list[int] = []
    new_holes: list[tuple[int, int]] = []
    k = 0  # next old hole
    pos = 0
    for a, b, text in spans:
        if k < len(old) and old[k] < a:
            k = _keep_holes(old, k, pos, a, len(index_map) - pos, new_holes)
        index_map.extend(range(pos, a))
        parts.append(value[pos:a])
        if text is None:
            new_holes.append((len(index_map), len(index_map) + 1))
            parts.append(HOLE)
            index_map.append(a)
        else:  # a run of escapes that stand for literal text (%% or {{ or }})
            parts.append(text * ((b - a) // 2))
            index_map.extend(range(a, b, 2))
        pos = b
    _keep_holes(old, k, pos, len(value), len(index_map) - pos, new_holes)
    index_map.extend(range(pos, len(value) + 1))
    parts.append(value[pos:])
    return Templated("".join(parts), tuple(new_holes), index_map)


def _keep_holes(
    old: list[int], k: int, pos: int, end: int, shift: int, out: list[tuple[int, int]]
) -> int:
    """Move the old holes before ``end`` to ``out`` (shifted), dropping those inside a placeholder."""
    while k < len(old) and old[k] < end:
        if old[k] >= pos:
            out.append((old[k] + shift, old[k] + shift + 1))
        k += 1
    return k


def placeholder_spans(
    value: str, *, percent_template: bool = False, format_template: bool = False
) -> list[tuple[int, int, str | None]]:
    """Spans (start, end, literal text or None for a placeholder) of template syntax in value."""
    out: list[tuple[int, int, str | None]] = []
    for a, b, text in _spans(value, percent_template, format_template):
        if text is None or b - a == 2:
            out.append((a, b, text))
        else:
            out.extend((j, j + 2, text) for j in range(a, b, 2))
    return out


def _spans(value: str, pct: bool, fmt: bool) -> list[Span]:
    """Like :func:`placeholder_spans`, but a run of escapes is one span."""
    spans = _Scan(value, pct, fmt).run() if _START.search(value) else []
    if fmt:
        spans = _literal_close_braces(value, spans)
    return spans


_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+://")
_COMMON_CONVERSIONS = frozenset("sdirf")  # %s %d %i %r %f: templates even where the % is elsewhere


def _where_formatting_happens(value: str, spans: list[Span], pct: bool, fmt: bool) -> list[Span]:
    """Keep the placeholder guesses that formatting can fill (issue #14): a ``{name}`` field only in
    a ``.format`` template; a rarer printf conversion (``%e``, ``%.x``) only in a %-formatted or
    logged literal; a ``<route>`` parameter never in an absolute IRI (only in relative paths, as
    route decorators write them). ``${VAR}``, Jinja and the common ``%s``-style conversions stay."""
    absolute = _ABSOLUTE.match(value) is not None
    out: list[Span] = []
    for a, b, text in spans:
        if text is None:
            head = value[a]
            if head == "{" and not fmt and value[a + 1 : a + 2] not in ("{", "%"):
                continue
            if head == "%" and not pct and value[a + 1 : a + 2] != "(" and value[b - 1] not in _COMMON_CONVERSIONS:
                continue
            if head == "<" and absolute:
                continue
        out.append((a, b, text))
    return out


class _Scan:
    """Left-to-right placeholder search; the first placeholder found wins and is skipped over."""

    __slots__ = ("braces", "fmt", "jinja", "last_close", "names", "names_until", "params",
                 "params_until", "pct", "pos", "settled", "spans", "until", "value", "win")

    def __init__(self, value: str, pct: bool, fmt: bool) -> None:
        self.value = value
        self.pct = pct
        self.fmt = fmt
        self.jinja = True  # False once a "{%" has no "%}" after it
        self.names = self.params = _ALIVE
        self.names_until = self.params_until = 0  # in state _UNTIL: starts before this fail
        self.until = _NEVER  # the nearest of those bounds
        self.braces: _BraceRuns | None = None
        self.last_close = -1  # braces after it are all unbalanced
        self.settled = 0  # braces before it are known to open no deep group
        self.pos = 0  # where the search goes on
        self.win = 0  # start of the stretch where nothing matched so far (deep braces)
        self.spans: list[Span] = []

    def run(self) -> list[Span]:
        """All placeholder spans, in order (a run of escapes as one span)."""
        value = self.value
        spans = self.spans
        has_brace = "{" in value
        self.last_close = value.rfind("}") if has_brace else -1
        self._revive()
        while True:
            pat = _pattern(self.pct, self.fmt, self.jinja, self.pos <= self.last_close,
                           self.names, self.params)
            pos, win, until = self.pos, self.win, self.until
            for m in pat.finditer(value, pos):
                kind = m.lastgroup
                start, pos = m.span()
                if kind != "skip":  # a skipped stretch stays in the window for deep braces
                    if has_brace and self._deep_braces(win, start):
                        break  # a deeper group swallowed the match
                    if kind == "hole":
                        spans.append((start, pos, None))
                    elif kind in _ESCAPES:
                        spans.append((start, pos, _ESCAPES[kind]))
                    else:
                        self._token(kind, start, m.group())
                        break
                    win = pos
                if pos >= until:
                    self.pos, self.win = pos, win
                    self._revive()
                    break
            else:
                if has_brace:
                    self._deep_braces(win, len(value))
                return spans

    def _token(self, kind: str | None, i: int, token: str) -> None:
        """Settle what the regex leaves to Python, then search on from the right place."""
        end = 0
        if kind == "stop":
            self.pos = self.win = i + 1
        else:
            if kind == "name_nested":
                end = self._nested_name(i)
            elif kind == "route_nested":
                end = self._nested_route(i, token)
            else:  # "jinja_dead": no "%}" after this "{%"
                self.jinja = False
            if end:
                self.spans.append((i, end, None))
            self.pos = self.win = end or i + 1
        self._revive()

    def _nested_name(self, i: int) -> int:
        """``%(a%(b)s``: the name runs to the first ``)``; every ``%(`` before it shares the outcome."""
        close = self.value.find(")", i + 2)
        tail = _tail_re().match(self.value, close + 1) if close >= 0 else None
        if tail is not None:
            return tail.end()
        self.names, self.names_until = (_UNTIL, close) if close >= 0 else (_DEAD, 0)
        return 0

    def _nested_route(self, i: int, token: str) -> int:
        """``<c(<x):y>``: parameters run to the first ``)`` or ``>``, shared by every start before it."""
        rm = _route().match(self.value, i)
        if rm is not None:
            return rm.end()
        stop = _params_end().search(self.value, i + token.index("("))
        self.params, self.params_until = (_UNTIL, stop.start()) if stop else (_DEAD, 0)
        return 0

    def _revive(self) -> None:
        """Starts at or after an ``_UNTIL`` bound are decided afresh."""
        if self.names == _UNTIL and self.pos >= self.names_until:
            self.names = _ALIVE
        if self.params == _UNTIL and self.pos >= self.params_until:
            self.params = _ALIVE
        self.until = min(self.names_until if self.names == _UNTIL else _NEVER,
                         self.params_until if self.params == _UNTIL else _NEVER,
                         self.last_close + 1 if self.pos <= self.last_close else _NEVER)

    def _deep_braces(self, win: int, limit: int) -> bool:
        """Brace placeholders in ``[win, limit)``, where the search matched nothing.

        Every ``{`` there is unbalanced or opens a group deeper than ``_DEPTH``; ``_BraceRuns``
        tells which, a run of unbalanced ones at a time. True if a group reaches past ``limit``
        (the search then goes on after it).
        """
        value = self.value
        p = max(win, self.settled)
        if p >= limit or p > self.last_close:
            return False
        if value.find("{", p, limit) < 0 and not value.startswith("${", limit - 1):
            return False
        while p < limit:
            m = _brace_cand().search(value, p, limit + 1)
            if m is None or m.start() >= limit:
                break
            s = m.start()
            c = s + 1 if value[s] == "$" else s
            if c > self.last_close:
                break
            if self.braces is None:
                self.braces = _BraceRuns(value, c, self.last_close + 1)
            partner = self.braces.partner(c)
            if partner >= 0:
                self.spans.append((s, partner + 1, None))
                p = partner + 1
            else:
                nxt = self.braces.first_matched(c)
                nxt = nxt - 1 if value[nxt - 1] == "$" and nxt - 1 > c else nxt
                self.settled = nxt  # the "{" before it in this run are unbalanced too
                p = min(nxt, limit)
        if p <= limit:
            return False
        self.pos = self.win = p
        self._revive()
        return True


class _BraceRuns:
    """Which ``{`` are balanced, by runs of structural braces from ``start`` to the end.

    A group of at most ``_DEPTH`` levels is opaque (removing a balanced group changes no other
    pairing); what remains is split into runs of ``{`` or ``}`` and paired run by run.
    """

    __slots__ = ("batches", "counts", "ends", "first", "starts", "unmatched", "value")

    def __init__(self, value: str, start: int, end: int) -> None:
        self.value = value
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.counts: list[int] = []  # > 0: a run of "{", < 0: a run of "}"
        pos = start
        while (m := _run_re().match(value, pos, end)) is not None:
            g = 1 if m.start(1) >= 0 else 2
            a, pos = m.span(g)
            self.starts.append(a)
            self.ends.append(pos)
            self.counts.append(value.count("{", a, pos) if g == 1 else -value.count("}", a, pos))
        self.unmatched = [max(c, 0) for c in self.counts]
        # per run of "{": (lowest, highest index, run of "}", index of the highest one's partner)
        self.batches: list[list[tuple[int, int, int, int]]] = [[] for _ in self.counts]
        self.first: list[int] = [-1] * len(self.counts)  # see first_in_run
        self._pair()

    def _pair(self) -> None:
        """Pair the runs: each ``}`` closes the latest open ``{`` (a stack of runs)."""
        stack: list[int] = []
        unmatched = self.unmatched
        for r, count in enumerate(self.counts):
            if count > 0:
                stack.append(r)
                continue
            k = 0
            while k < -count and stack:
                top = stack[-1]
                t = min(-count - k, unmatched[top])
                hi = unmatched[top] - 1
                self.batches[top].append((hi - t + 1, hi, r, k))
                unmatched[top] -= t
                k += t
                if not unmatched[top]:
                    stack.pop()

    def partner(self, c: int) -> int:
        """Offset of the ``}`` that closes the structural ``{`` at ``c`` (-1: none)."""
        r = bisect_right(self.starts, c) - 1
        if r < 0 or c >= self.ends[r] or self.counts[r] < 0:
            return -1  # not a structural "{" (no "}" after it, so the scan found no run)
        first = self.first_matched(c)
        if c < first:
            return -1
        # the first balanced "{" is what the scan meets (one count for any other, then its
        # group covers the rest of the run)
        a = self.starts[r]
        k = self.unmatched[r] if c == first else self.value.count("{", a, c)
        for lo, hi, cr, ck in self.batches[r]:
            if lo <= k <= hi:
                return self._nth(cr, ck + hi - k)
        raise AssertionError("a balanced brace without a batch")

    def first_matched(self, c: int) -> int:
        """The first balanced ``{`` of the run holding ``c``, or the run's end if none is."""
        r = bisect_right(self.starts, c) - 1
        if r < 0 or c >= self.ends[r] or self.counts[r] < 0:
            return c + 1
        if self.first[r] < 0:
            u = self.unmatched[r]
            self.first[r] = self.ends[r] if u == self.counts[r] else self._nth(r, u)
        return self.first[r]

    def _nth(self, r: int, k: int) -> int:
        """Offset of the ``k``-th brace (from 0) of run ``r``."""
        a, b, count = self.starts[r], self.ends[r], abs(self.counts[r])
        if b - a == count:
            return a + k
        ch = "{" if self.counts[r] > 0 else "}"
        lo, hi = a, b - 1  # smallest x with k + 1 braces in [a, x]
        while lo < hi:
            mid = (lo + hi) // 2
            if self.value.count(ch, a, mid + 1) > k:
                hi = mid
            else:
                lo = mid + 1
        return lo


def _literal_close_braces(value: str, spans: list[Span]) -> list[Span]:
    """In a .format template, ``}}`` outside fields is a literal ``}`` (a run of them: one span)."""
    out: list[Span] = []
    pos = 0
    for a, b, t in [*spans, (len(value), len(value), None)]:
        if value.find("}}", pos, a) >= 0:
            out.extend((m.start(), m.end(), "}") for m in _close_pairs().finditer(value, pos, a))
        if a < len(value) or b > a:
            out.append((a, b, t))
        pos = b
    return out
