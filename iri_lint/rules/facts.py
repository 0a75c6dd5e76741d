"""What the rules know about one IRI: the scanned reference, how it is used, and the facts several
rules read (the syntax errors in runs, the normalization ladder's trace, the bidi and security
problems, the escaped octets), each computed on first use and once per IRI.

A rule never re-parses: it reads these. Where a hostile IRI has thousands of problems of one kind,
a fact builds the first ``MAX_PER_CODE`` of each kind and counts the rest (``Found.skipped``); a
rule passes that count on with ``Facts.skip`` so the report can say how many more there are.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import cached_property
from operator import attrgetter
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

from ..core.budget import Budget
from ..core.chars import BIDI_FORMATTING, BIDI_ISOLATES
from ..core.context import Assembly, UriOnly, UseContext
from ..core.errors import Kind
from ..core.reference import ErrorRecord, IRIReference, Span

if TYPE_CHECKING:  # each analysis's module is imported when a rule first asks for it (docs/design.md)
    from ..core.bidi import BidiProblem
    from ..core.normalize import Normalization
    from ..core.security import SecurityProblem
    from .mapping.octets import OctetProblem

MAX_PER_CODE = 100  # findings of one rule in one IRI; a hostile literal must not flood the report
# what a check builds of one rule in one IRI before it only counts: the engine would cut the rest
# (tests raise it to compare with building everything)
BUILT_PER_CODE = MAX_PER_CODE

T = TypeVar("T")


class Found(NamedTuple, Generic[T]):
    """Problems of one analysis, and how many of each budget key it counted but did not build."""

    problems: Sequence[T]
    skipped: dict[str, int]


class SyntaxFacts(NamedTuple):
    """The syntax errors as the rules report them: whitespace around the IRI as a whole, the rest in
    runs of adjacent errors of one kind and component."""

    idx: list[int]  # indices into ``error_records`` of the errors not in the surrounding whitespace
    runs: dict[Kind, list[tuple[int, int]]]  # kind -> its first ``Facts.built`` runs ``idx[i:j]``, in text order
    counts: dict[Kind, int]  # kind -> how many runs it has
    edges: list[tuple[Kind, int, int, str]]  # (kind of its first error, start, end, "before"|"after")


_MISSING_SCHEME = Kind.MISSING_SCHEME  # a module global: an Enum class attribute costs 7x more to read

# schemes whose registered grammar takes printable ASCII in the path as it is: the Wi-Fi Alliance's "WIFI:"
# (IANA, provisional; WPA3 specification, Wi-Fi URI: printable = %x20-3a / %x3c-7e, special characters escaped
# with a backslash, which QR scanners read), where a space, '"' or '\\' is the scheme's own, not an IRI error
_PRINTABLE_PATH = frozenset(("wifi",))
_PRINTABLE_KINDS = frozenset((Kind.SPACE, Kind.DELIMITER, Kind.UNWISE))

# the keys a security problem is budgeted under: mixed scripts in the host apart from elsewhere
MIXED_IN_HOST = "mixed-script-host"

# steps of the ladder only a scheme-based normalization takes (RFC 3987 sec. 5.3.3)
SCHEME_LEVEL_CODES = frozenset({"IRI308", "IRI309", "IRI310", "IRI311", "IRI312"})


def braces_around(text: str, holes: Sequence[tuple[int, int]]) -> frozenset[int]:
    """The offsets of the braces around a hole (``"{" + key + "}"``): a template's expression whose name is known
    at run time (RFC 6570 sec. 2.2), filled before any request as a literal's ``{name}`` is (outside26 repro 01)."""
    return frozenset(i for a, b in holes if a and text[a - 1 : a] == "{" and text[b : b + 1] == "}" for i in (a - 1, b))


def _without_braces_around(ref: IRIReference, holes: Sequence[tuple[int, int]]) -> IRIReference:
    """``ref`` less the errors at the braces around a hole (``"{" + key + "}"``): an expression whose name the code
    chose (RFC 6570 sec. 2.2), no brace of a run of them (fixtures187 repro 04: in ``"{" + k + "}}"`` the
    second ``}`` alone is IRI103's)."""
    braced = braces_around(ref.text, holes)
    if not braced or not any(r.start in braced or r.end - 1 in braced for r in ref.error_records):
        return ref
    kept = []
    for r in ref.error_records:
        start, end = r.start + (r.start in braced), r.end - (r.end - 1 in braced)
        if start < end:
            same = (start, end) == (r.start, r.end)
            kept.append(r if same else r._replace(start=start, end=end, run=end - start > 1))
    return ref._replace(error_records=tuple(kept))


class Facts:
    """One IRI and the facts about it that rules share, each computed when a rule first asks."""

    def __init__(self, ref: IRIReference, context: UseContext = UseContext.UNKNOWN,
                 uri_only_api: UriOnly | bool = False, enabled: frozenset[str] = frozenset(),
                 holes: tuple[tuple[int, int], ...] = (), idna_versions: bool = True,
                 assembly: Assembly | None = None) -> None:
        self.ref = _without_braces_around(ref, holes) if holes and ref.original is None and ref.error_records else ref
        # how a URL value was assembled (None: one literal, checked alone); its offsets are the caller's text's, so
        # not where 3987bis sec. 6's preprocessing moved characters (a tab a Web Address strips): unread there
        self.assembly = assembly if ref.origin is None or all(o == i for i, o in enumerate(ref.origin)) else None
        self.context = context
        self.uri_only_api = uri_only_api  # passed to an API that sends only ASCII (urlopen)
        self.enabled = enabled
        self.holes = holes  # template holes: findings touching them are dropped
        self.by_shape = False  # an IRI only by its text (``engine.check_ref``)
        # IRI403 on an xn-- label that IDNA2003 reads and IDNA2008 rejects (a live name such as xn--n3h.net):
        # off for an ASCII literal not used as an IRI, unless IRI403 is named (the invalid A-labels stay)
        self.idna_versions = idna_versions
        self.limit = MAX_PER_CODE  # the engine's cap
        self.built = BUILT_PER_CODE  # what a check builds before it only counts
        self.code = ""  # the rule whose check runs now (set by the engine)
        # findings of a rule its check counted but did not build: past ``limit`` of that rule in
        # position order the engine would cut them anyway (not with holes, which may drop earlier ones)
        self.skipped: dict[str, int] = {}
        # with template holes, whether the engine drops a finding of (code, start, end); a check that asks it
        # first may count, not build, what the engine keeps past ``built`` (None: no holes, or not asked)
        self.dropped: Callable[[str, int, int], bool] | None = None

    def skip(self, n: int) -> None:
        """Count ``n`` findings of the running rule that its check did not build."""
        if n > 0:
            self.skipped[self.code] = self.skipped.get(self.code, 0) + n

    def budget(self, key: Callable[[str, int], str] | None = None) -> Budget | None:
        """``built`` problems per key built, the rest counted; None with template holes, which may
        drop earlier findings."""
        return None if self.holes else Budget(self.built, key)

    @property
    def may_skip(self) -> bool:
        """Whether a check may count, not build, findings past ``built`` (not with holes)."""
        return not self.holes

    @cached_property
    def shown(self) -> str:
        """The IRI's text as a message quotes it: each template hole as ``…``, of the same length (so offsets
        and edits hold), not as the character it is checked as (``0``)."""
        text = self.ref.text
        if not self.holes:
            return text
        parts: list[str] = []
        at = 0
        for start, end in sorted(self.holes):
            start = max(start, at)  # (overlapping holes: each character once)
            parts += (text[at:start], "\u2026" * (end - start))
            at = max(at, end)
        return "".join((*parts, text[at:]))

    @cached_property
    def syntax(self) -> SyntaxFacts:
        """RFC 3987 sec. 2.2 / 3987bis sec. 6.3 errors: the surrounding whitespace, then runs."""
        ref = self.ref
        recs = ref.error_records
        lead, trail = surrounding_whitespace(ref)
        edges = []
        for start, end, where in ((0, lead, "before"), (trail, len(ref.text), "after")):
            if start < end:
                first = next((r for r in recs if start <= r[0] < end and r[2] != _MISSING_SCHEME), None)
                if first is not None:
                    edges.append((first.kind, start, end, where))
        # errors on the surrounding whitespace are reported above, as a whole
        idx = [k for k, r in enumerate(recs) if lead <= r[0] < trail or r[2] == _MISSING_SCHEME]
        scheme = ref.scheme
        if scheme is not None and ref.text[scheme.start : scheme.end].lower() in _PRINTABLE_PATH:
            idx = [k for k in idx if not (recs[k][2] in _PRINTABLE_KINDS and recs[k][3] == "path")]
        runs: dict[Kind, list[tuple[int, int]]] = {}
        counts: dict[Kind, int] = {}
        cap = self.built if self.may_skip else len(idx)  # past it, hostile input: count, keep nothing
        for i, j in _adjacent_runs(recs, idx):
            kind = recs[idx[i]][2]
            n = counts.get(kind, 0)
            counts[kind] = n + 1
            if n < cap:
                runs.setdefault(kind, []).append((i, j))
        return SyntaxFacts(idx, runs, counts, edges)

    @cached_property
    def ladder(self) -> Normalization | None:
        """The steps of the comparison ladder (sec. 5.3.2, and 5.3.3 when a rule of it is enabled)
        for an absolute IRI without errors, or None."""
        ref = self.ref
        if ref.error_records or ref.scheme is None or ref.original is not None:
            return None
        from ..core.normalize import normalize_trace
        return normalize_trace(ref.text, level="scheme" if self.enabled & SCHEME_LEVEL_CODES else "syntax")

    @cached_property
    def bidi(self) -> Found[BidiProblem]:
        """Sec. 4.1 and 4.2 problems (4.4 Example 10's too when IRI206 is enabled), by kind."""
        from ..core.bidi import bidi_problems
        budget = self.budget()
        # (an edge that is a formatting or isolate character is IRI201's or IRI202's alone: removing it mends both)
        left = (BIDI_FORMATTING if "IRI201" in self.enabled else frozenset()) | \
            (BIDI_ISOLATES if "IRI202" in self.enabled else frozenset())
        problems = bidi_problems(self.ref, advisory="IRI206" in self.enabled, edges_left=left, budget=budget)
        return Found(problems, {} if budget is None else budget.skipped)

    @cached_property
    def security(self) -> Found[SecurityProblem]:
        """Spoofing risks and leaks (sec. 6.1, 7.5, 8; UTS #39), budgeted by kind, mixed scripts in
        the host (``MIXED_IN_HOST``) apart from elsewhere."""
        ref = self.ref
        if ref.text.isascii() and (ref.userinfo is None or ":" not in (ref.get("userinfo") or "")):
            return Found((), {})  # every check but the password's is about non-ASCII characters
        host = ref.host

        def key(kind: str, pos: int) -> str:
            in_host = host is not None and host.start <= pos < host.end
            return MIXED_IN_HOST if kind == "mixed-script" and in_host else kind

        from ..core.security import security_problems
        budget = self.budget(key)
        problems = security_problems(self.ref, budget=budget)
        return Found(problems, {} if budget is None else budget.skipped)

    @cached_property
    def octets(self) -> Found[OctetProblem]:
        """Escaped octets that are not UTF-8, or overlong (sec. 3.2, 6.4, 8), by kind."""
        from .mapping.octets import high_escape, octet_problems
        text = self.ref.text
        if "%" not in text or high_escape().search(text) is None:
            return Found((), {})
        budget = self.budget()
        problems = octet_problems(text, budget)
        return Found(problems, {} if budget is None else budget.skipped)

    def in_host(self, span: Span) -> bool:
        """Whether ``span`` starts in the host."""
        host = self.ref.host
        return host is not None and host.start <= span.start < host.end


def _adjacent_runs(recs: tuple[ErrorRecord, ...], idx: list[int]) -> list[tuple[int, int]]:
    """Each run ``idx[i:j]`` of records that touch one another and share a kind and component."""
    starts = []
    end, kind, component = -1, "", None
    for i, k in enumerate(idx):
        rec = recs[k]
        if rec[0] != end or rec[2] != kind or rec[3] != component:
            starts.append(i)
            kind, component = rec[2], rec[3]
        end = rec[1]
    starts.append(len(idx))
    return list(itertools.pairwise(starts))


_WHITESPACE = " \t\n\r\f\v"
_RUN = attrgetter("run")


def surrounding_whitespace(ref: IRIReference) -> tuple[int, int]:
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
