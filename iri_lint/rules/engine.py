"""check(): run the enabled rules' checks on one IRI, and turn what they find into findings.

The engine owns what is the same for every rule: selection, the facts the checks share, moving
results of a preprocessed IRI onto the caller's text, template holes, de-duplication, the cap of
findings per rule, fixes and their safety, and text mode.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import accumulate, pairwise

from ..core.chars import HEXDIG, starts_header_line
from ..core.context import Assembly, UriOnly
from ..core.grammar import Profile
from ..core.joiners import JOINERS
from ..core.reference import IRIReference
from ..core.scanner import scan
from .facts import Facts, braces_around
from .model import Edit, Finding, Fix, FixSafety, Needs, Raw, Rule, UseContext, fix_safety, with_edits
from .registry import DEFAULT_CODES, RULES, RULES_BY_CODE, TEXT_RULE_OF, full_rule


def _sanitize(message: str) -> str:
    """Messages are one line and never carry invisible or reordering characters themselves."""
    if message.isprintable():  # exactly: no Cc, Cf, Cs, Co, Cn, nor separators other than space
        return message
    out = []
    for c in message:
        if c in "\r\n":
            out.append(" ")
        elif unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp") or (
            c != " " and unicodedata.category(c) == "Zs"
        ):
            out.append(f"<U+{ord(c):04X}>")
        else:
            out.append(c)
    return "".join(out)


def _in_original(raw: Raw, ref: IRIReference) -> Raw:
    """A result over a preprocessed text (3987bis sec. 6) moved onto the caller's text.

    An edit moves only when it covers whole characters of the caller's text; otherwise (it would
    rewrite part of what one character was preprocessed into) the fix is dropped.
    """
    origin = ref.origin
    assert origin is not None
    start, end = ref.original_span(raw.start, raw.end)
    edits: tuple[Edit, ...] | None = None
    if raw.edits is not None:
        n = len(ref.text)

        def whole(i: int) -> bool:
            return i == 0 or i == n or origin[i - 1] != origin[i]

        if all(whole(e.start) and whole(e.end) for e in raw.edits):
            edits = tuple(Edit(*ref.original_span(e.start, e.end), e.replacement) for e in raw.edits)
    return Raw(start, end, raw.message, edits, raw.fix_text)


def _finding(rule: Rule, raw: Raw, facts: Facts) -> Finding:
    fix = None
    if raw.edits is not None and rule.fix_level is not None:
        ref = facts.ref
        before = ref.text if ref.original is None else ref.original
        value = with_edits(before, raw.edits)
        safety = fix_safety(rule.fix_level, facts.context)
        if facts.uri_only_api and before.isascii() and not value.isascii():
            safety = FixSafety.UNSAFE  # the context cannot take it: that API raises on non-ASCII (sec. 3.1)
        fix = Fix(raw.edits, value, rule.fix_level, safety, raw.fix_text or rule.fix_text)
    return Finding(rule.code, rule.name, _sanitize(raw.message), raw.start, raw.end, rule.severity, fix)


def select_codes(select: Iterable[str] | None = None, ignore: Iterable[str] | None = None,
                 extend_select: Iterable[str] | None = None) -> frozenset[str]:
    """Rule codes enabled by flake8-style prefixes ("IRI", "IRI2", "IRI301", or rule names).

    An opt-in rule is enabled only when named by its code, its name, or a prefix longer than
    ``IRI`` (as flake8-bugbear gates B9xx): ``IRI`` alone means the default set, so that
    ``flake8 --select IRI`` and ``iri-lint check`` agree. ``ALL`` enables every rule.
    """

    explicit = _by_length(select or ())
    for code, n in _by_length(extend_select or ()).items():
        explicit[code] = max(n, explicit.get(code, -1))
    ignored = _by_length(ignore or ())
    codes = (set(DEFAULT_CODES) if select is None else set()) | set(explicit)
    # flake8's decision (style_guide.DecisionEngine): a code both selected by name or prefix and ignored is
    # the longer match's (a tie ignores), so "extend-select = IRI806" beats a per-file "IRI8"; a default
    # code no selection names is on unless ignored
    return frozenset(c for c in codes if c not in ignored or explicit.get(c, -1) > ignored[c])


def _by_length(items: Iterable[str]) -> dict[str, int]:
    """The codes the items name, each with the length of the longest item naming it (a rule's name: its
    code's; ``ALL``: 0; ``IRI``: the default set)."""
    out: dict[str, int] = {}
    for item in items:
        item = item.strip()
        if not item:
            continue
        by_name = {r.code for r in RULES if r.name == item}
        prefix = item.upper()
        if by_name:
            named, n = by_name, 6
        elif prefix == "ALL":  # every rule, opt-in ones too (ruff's spelling)
            named, n = {r.code for r in RULES}, 0
        elif prefix == "IRI":
            named, n = set(DEFAULT_CODES), 3
        else:
            named, n = {r.code for r in RULES if r.code.startswith(prefix)}, len(prefix)
        for code in named:
            out[code] = max(n, out.get(code, -1))
    return out


def _overlaps_hole(start: int, end: int, holes: tuple[tuple[int, int], ...], reach: list[int],
                   edge: bool = True) -> bool:
    """Whether a finding over ``start:end`` touches one of ``holes`` (sorted by start; ``reach[i]``: the
    furthest end of ``holes[:i + 1]``), at its edge too when ``edge``: a finding at a hole's edge may be
    caused by the placeholder's unknown content ('%' + hole). A bisection: a literal of n holes and n
    findings costs n log n, not n * n."""
    i = bisect_left(reach, start) if edge else bisect_right(reach, start)
    if i == len(holes):
        return False  # every hole ends before the finding starts
    stop = max(end, start + 1)
    return holes[i][0] <= stop if edge else holes[i][0] < stop


def check(text: str, *, kind: str = "IRI-reference", profile: str | Profile = "iri",
          context: UseContext | str | None = None, select: Iterable[str] | None = None,
          ignore: Iterable[str] | None = None, holes: tuple[tuple[int, int], ...] = (),
          uri_only_api: UriOnly | bool = False) -> list[Finding]:
    """Every finding of the enabled rules for ``text``, in order of position."""
    enabled = select_codes(select, ignore)
    ref = scan(text, kind, profile)
    return list(_run(Facts(ref, UseContext(context) if context is not None else UseContext.UNKNOWN,
                           uri_only_api, enabled, holes)))


def check_ref(ref: IRIReference, *, context: UseContext = UseContext.UNKNOWN,
              enabled: frozenset[str] = DEFAULT_CODES, holes: tuple[tuple[int, int], ...] = (),
              uri_only_api: UriOnly | bool = False, idna_versions: bool = True,
              assembly: Assembly | None = None, by_shape: bool = False) -> list[Finding]:
    """check() for an already scanned IRI (the linter's hot path); ``idna_versions``: report labels
    that only IDNA2008 rejects (see ``Facts``); ``assembly``: how a URL value was put together (the
    assembly rules read it); ``by_shape``: an IRI only by its text (a literal starting with a scheme, used
    nowhere as a URL), which may end where a hole's neighbour stands (``f"https://h/{a}|{b}"``: a record)."""
    facts = Facts(ref, context, uri_only_api, enabled, holes, idna_versions=idna_versions, assembly=assembly)
    facts.by_shape = by_shape
    return list(_run(facts))


@functools.lru_cache(maxsize=256)
def checks_for(enabled: frozenset[str], present: int = -1) -> tuple[Rule, ...]:
    """The enabled rules that have a check, in registry order, less those that need something
    (``Rule.needs``) the IRI does not have (``present``: the ``Needs`` it has; -1: everything).
    A rule's module is imported here, the first time its check is to run."""
    return tuple(full_rule(r.code) for r in RULES if r.has_check and r.code in enabled
                 and (r.needs is None or r.needs & present))


_ERRORS, _NON_ASCII, _PERCENT, _USERINFO, _ASSEMBLY = map(
    int, (Needs.ERRORS, Needs.NON_ASCII, Needs.PERCENT, Needs.USERINFO, Needs.ASSEMBLY))
# the assembly rules point at holes and placeholders themselves: template holes never drop their findings
_AT_HOLES = frozenset(r.code for r in RULES if r.needs == Needs.ASSEMBLY)
# (a joiner, ZWJ or ZWNJ, is right or wrong by the characters beside it, IDNA's CONTEXTJ: a hole may hold them)
_JOINERS = "".join(sorted(JOINERS))
# a character that is wrong in every IRI whatever stands next to it (a space, a control, a quote, an
# unwise character such as '|' or '^', a tag, a special or a private-use character outside the query (a path's
# hole holds no '?', the convention for structure), a noncharacter, a lone surrogate; a bidi formatting or
# isolate character, plain or percent-encoded, RFC 3987 sec. 4.1; an invisible character or a delimiter's
# lookalike, sec. 8): a hole beside it cannot make it right, only one over it can. Not '<' or '>': around a
# hole they may be a placeholder's brackets ('<{name}>') or delimit an IRI in text (RFC 3986 appendix C)
_OWN_CHARACTER = frozenset({"IRI101", "IRI102", "IRI103", "IRI104", "IRI105", "IRI106", "IRI107", "IRI108",
                            "IRI109", "IRI201",
                            "IRI202", "IRI203", "IRI504", "IRI505",
                            # a scheme's typo: its text and delimiter are wrong whatever host follows ("http//" +
                            # ENV_HOST, fixtures167 repro 03)
                            "IRI603"})
_BRACKETS = frozenset("<>")
# findings about their first character whatever a hole beside or after it holds: a '%' after an IPv6 address in
# '[...]' starts a zone (IRI118); a non-ASCII character an ASCII-only API is given raises there (IRI404); a '#'
# inside the fragment is no fragment character (IRI114 at a '#', RFC 3986 sec. 3.5)
_AT_ITS_CHARACTER = {"IRI118": "", "IRI404": "", "IRI114": "#"}  # code -> the character it must be ("": any)
# findings about a component's known text: a password partly a placeholder ('Tr0ub%dor', 'Spring{YEAR}!x') is
# still a credential in the source (fixtures181 repro 01); one that is holes and punctuation only is a template's
_KNOWN_TEXT_STANDS = frozenset({"IRI506"})
# findings about percent-encodings that are whole in known text: lowercase hex (IRI305), unreserved characters
# encoded (IRI306), an IRI's characters encoded (IRI405); a hole beside them is another character
_WHOLE_IN_ITS_SPAN = frozenset({"IRI305", "IRI306", "IRI405"})
# a '%' is malformed by the two characters after it alone (RFC 3986 sec. 2.1), whatever a hole before it holds:
# '{pct}%&sort=top' as much as '50%&sort=top' (fixtures174 repro 01); a hole there may mend it, unless a known
# character that is no hex digit comes first ('%/{x}'): _HoleFilter._mends_percent
# an IRI found by its shape alone may end at a hole: an unwise character after it is a record's separator
# ("https://h/{repo}|{title}", RFC 3986 appendix C: what cannot be in a URI ends it in text)
_OWN_CHARACTER_BY_SHAPE = _OWN_CHARACTER - {"IRI103"}
# one mistake, one finding (issue #26): where a rule names the cause, the findings that only follow
# from it at the same place are dropped. 'http:\\host' lost its '//' (IRI603): that it has no host
# (IRI601) and a '\' in its path (IRI103) are the same mistake.
_CONSEQUENCES: dict[str, frozenset[str]] = {
    "IRI603": frozenset({"IRI601", "IRI103", "IRI309", "IRI116"}),  # (and 'http//h' has no scheme at all)
    # a piece joined to the authority: what it makes of the port (its characters, its range), after an IP
    # literal, or of the host (a label IDNA refuses, or that mixes scripts or directions), and a space it brings
    # into the host, follow from the join (a fix of the space would encode it in the host); a delimiter's
    # look-alike there is a spoof of its own (IRI504: `SITE + "\u2215evil.com/"`)
    "IRI801": frozenset({"IRI101", "IRI112", "IRI114", "IRI204", "IRI205", "IRI403", "IRI501", "IRI602"}),
    # a URL joined after another's "https://": the empty port its scheme's ':' makes, and the scheme written twice
    # (IRI603 on one literal), follow from the join
    "IRI808": frozenset({"IRI309", "IRI603"}),
    # a printf placeholder left unfilled ('%s' of a '%%s' a '%' made) is no malformed percent-encoding too
    "IRI805": frozenset({"IRI110"}),
    # a password's '/', '?' or '#' that cut the authority: the host list after it lands in the path or the query,
    # where its brackets are misplaced only because of the cut (fixtures173 repro 05)
    "IRI112": frozenset({"IRI114"}),
    # a join that drops the URL before its absolute path (posixpath.join(CDN, "/x")): that the value has no scheme
    # left follows from the join
    "IRI804": frozenset({"IRI116"}),
    # a private-use character, a noncharacter or a lone surrogate has no script but Unknown: that a label or
    # a component mixes it with Latin follows from the character, which is the fault
    **dict.fromkeys(("IRI106", "IRI108", "IRI109"), frozenset({"IRI501", "IRI507"})),
    # a bidi control, a full-width form, a delimiter's look-alike or an invisible character in a scheme (a BOM
    # before "http:", yt-dlp's commonmistakes test): the character is the fault, its being no scheme's follows
    **dict.fromkeys(("IRI201", "IRI504", "IRI505"), frozenset({"IRI111"})),
    # so are a port's full-width digits (`:８４４３`, a Japanese IME's): the form is the fault, not the port
    "IRI503": frozenset({"IRI111", "IRI112"}),
    # a sequence NFC changes (a decomposed 'e' + U+0301) NFKC changes as much: not a compatibility character too
    "IRI301": frozenset({"IRI302"}),
}
# what a header an injection writes after a CR or LF holds (IRI104 names the injection: fixtures179 repro 04)
_IN_INJECTED_HEADER = frozenset({"IRI101", "IRI102", "IRI103", "IRI114"})
# causes whose consequences stand elsewhere in the authority: an '@' joined after a host and its port makes them
# the userinfo, whose "password" (the port's digits, IRI506) only follows from the join
_CONSEQUENCES_IN_AUTHORITY: dict[str, frozenset[str]] = {"IRI801": frozenset({"IRI506"})}


def consequences(code: str) -> frozenset[str]:
    """The codes a finding of ``code`` hides at its own place, as what only follows from it."""
    return _CONSEQUENCES.get(code, frozenset())


def _without_consequences(found: list[tuple[str, Raw]], ref: IRIReference) -> list[tuple[str, Raw]]:
    """``found`` less each finding that overlaps a finding of its cause (``_CONSEQUENCES``), or stands in the
    authority of one (``_CONSEQUENCES_IN_AUTHORITY``)."""
    causes = [(r.start, r.end, _CONSEQUENCES[code]) for code, r in found if code in _CONSEQUENCES]
    text = ref.text  # (a header an injection writes: what is wrong in its line follows from the line break)
    causes += [(r.start, len(text), _IN_INJECTED_HEADER) for code, r in found
               if code == "IRI104" and starts_header_line(text, r.start)]
    authority = ref.authority
    if authority is not None and ref.origin is None:  # (offsets of ref.text)
        causes += [(authority.start, authority.end, _CONSEQUENCES_IN_AUTHORITY[code]) for code, r in found
                   if code in _CONSEQUENCES_IN_AUTHORITY and ref.text[r.start : r.start + 1] == "@"]
    if not causes:
        return found
    return [(code, r) for code, r in found
            if not any(code in hidden and r.start < end and start < r.end for start, end, hidden in causes)]


def _present(ref: IRIReference) -> int:
    """The ``Needs`` that ``ref`` has, as an int (flag arithmetic on plain ints is cheap)."""
    text = ref.text
    return ((_ERRORS if ref.error_records else 0) | (0 if text.isascii() else _NON_ASCII)
            | (_PERCENT if "%" in text else 0) | (0 if ref.userinfo is None else _USERINFO))


class _HoleFilter:
    """Which findings template holes drop: one over a hole or at its edge, where what fills the hole may
    mend it; a character wrong whatever stands next to it (``_OWN_CHARACTER``) only under a hole."""

    def __init__(self, facts: Facts) -> None:
        ref = facts.ref
        self.text = ref.original if ref.original is not None else ref.text
        self.holes = tuple(sorted(facts.holes))  # (a literal's holes come in the order its templates found them)
        self.reach = list(accumulate((h[1] for h in self.holes), max))
        self.own = _OWN_CHARACTER_BY_SHAPE if facts.by_shape else _OWN_CHARACTER
        self.braces = braces_around(self.text, self.holes)

    def drops(self, code: str, start: int, end: int) -> bool:
        """Whether a finding of ``code`` over ``start:end`` (offsets of the caller's text) is dropped."""
        if code in _AT_HOLES:
            return False
        if start in self.braces and end - start <= 1:
            return True
        if code in _KNOWN_TEXT_STANDS and self._known_word(start, end):
            return False
        text = self.text
        if (which := _AT_ITS_CHARACTER.get(code)) is not None and text.startswith(which, start):
            return _overlaps_hole(start, start + 1, self.holes, self.reach, False)
        if code == "IRI110" and text.startswith("%", start):
            return self._mends_percent(start)
        if code == "IRI403" and (text[end - 1 : end] == "-" or text[start : start + 1] == "-"):
            # (a host label's known hyphen at an end: a DNS name's fault whatever a hole holds on the label's other
            # side, ``tenant + "-.example.com"``)
            at = end - 1 if text[end - 1 : end] == "-" else start
            return _overlaps_hole(at, at + 1, self.holes, self.reach, False)
        if code in _WHOLE_IN_ITS_SPAN or (code == "IRI307" and text[end - 1 : end] == "/"):
            # (a percent-encoding's triplets, a dot segment closed by its '/': what a hole beside them holds cannot
            # change them; one before a leading '.' may make it no segment of its own)
            return _overlaps_hole(start - (text[start : start + 1] == "."), end, self.holes, self.reach, False)
        if code == "IRI114" and text.startswith("[", start) and start and not text[start - 1].isspace():
            # (what stands before a '[' makes it an IP literal's, a hole after it cannot; at the start, or after a
            # space, it may be a delimiter around a URL the hole holds, RFC 3986 appendix C)
            return _overlaps_hole(start - 1, start + 1, self.holes, self.reach, False)
        return _overlaps_hole(start, end, self.holes, self.reach, code not in self.own
                              or text[start : start + 1] in _BRACKETS
                              or (code == "IRI505" and not text[start:end].strip(_JOINERS)))

    def _known_word(self, start: int, end: int) -> bool:
        """Whether ``start:end`` holds a letter or a digit outside the holes."""
        covered: set[int] = set()
        for a, b in self.holes[bisect_right(self.reach, start):]:
            if a >= end:
                break
            covered.update(range(max(a, start), min(b, end)))
        text = self.text
        return any(text[k].isalnum() for k in range(start, end) if k not in covered)

    def _mends_percent(self, start: int) -> bool:
        """Whether a hole over a '%' (a LIKE pattern's wildcard) or in the two characters after it may make it
        right: one after a known character that is no hex digit (or the end) is too late."""
        for at in (start, start + 1, start + 2):
            if _overlaps_hole(at, at + 1, self.holes, self.reach, False):
                return True
            if at > start and self.text[at : at + 1] not in HEXDIG:  # (the end too: "" is no hex digit)
                return False
        return False


def _run(facts: Facts) -> Iterator[Finding]:
    found: list[tuple[str, Raw]] = []
    ref = facts.ref
    holes = _HoleFilter(facts) if facts.holes else None
    if holes is not None and ref.origin is None:  # (a preprocessed IRI's offsets are moved after the checks)
        facts.dropped = holes.drops
    present = _present(ref) | (_ASSEMBLY if facts.assembly is not None else 0)
    for checked in checks_for(facts.enabled, present):
        facts.code = checked.code
        assert checked.check is not None
        for r in checked.check(facts):
            found.append((checked.code, r))
    if ref.origin is not None:
        found = [(code, _in_original(r, ref)) for code, r in found]
    if holes is not None:
        drops = holes.drops
        found = [(code, r) for code, r in found if not drops(code, r.start, r.end)]
    if len(found) > 1:
        found = _without_consequences(found, facts.ref)
    found.sort(key=lambda f: (f[1].start, f[0]))
    seen: set[tuple[str, int]] = set()
    per_code: dict[str, int] = {}
    kept: list[tuple[str, Raw]] = []
    limit = facts.limit
    for code, r in found:
        if (code, r.start) in seen:
            continue
        seen.add((code, r.start))
        per_code[code] = per_code.get(code, 0) + 1
        if per_code[code] <= limit:
            kept.append((code, r))
    for code, n in facts.skipped.items():
        per_code[code] = per_code.get(code, 0) + n
    last = {code: i for i, (code, _) in enumerate(kept)}
    for i, (code, r) in enumerate(kept):
        more = per_code[code] - limit
        if more > 0 and last[code] == i:
            r = r._replace(message=f"{r.message} (and {more} more {code} in this IRI)")
        yield _finding(full_rule(code), r, facts)


def not_analysed(exc: BaseException, length: int) -> Finding:
    """IRI100 on a whole value whose analysis failed: the error is reported, the file goes on."""
    rule = RULES_BY_CODE["IRI100"]
    detail = _sanitize(f"{type(exc).__name__}: {exc}")[:300]
    return Finding(rule.code, rule.name, f"iri-lint could not analyse this literal ({detail}); "
                   "please report it", 0, length, rule.severity, None)


def named_codes(items: Iterable[str]) -> frozenset[str]:
    """The codes ``items`` name on purpose: by code, name, a prefix longer than ``IRI``, or ``ALL``."""
    names = {i.strip() for i in items}
    if any(n.upper() == "ALL" for n in names):
        return frozenset(r.code for r in RULES)
    prefixes = tuple(n.upper() for n in names if len(n) > len("IRI"))
    return frozenset(r.code for r in RULES if r.name in names or r.code.startswith(prefixes))


# reported in default mode only where the literal is used as an IRI (it holds non-ASCII text or
# names an identifier, e.g. an rdflib namespace): '%E9' is right but rarely actionable in an ASCII URL.
# Naming the code (--extend-select IRI401) reports it everywhere. IRI403 reports a label only IDNA2003
# reads (the versions' difference) only when named (``check_ref``'s ``idna_versions``), wherever it is.
IRI_USE_ONLY = frozenset({"IRI401"})


TEXT_CODES: frozenset[str] = frozenset(r.code for r in RULES if r.text_of is not None)


def text_rules(base: frozenset[str], enabled: frozenset[str], ignore: Iterable[str] = ()) -> frozenset[str]:
    """The rules run on IRIs found in prose: the enabled ones; a text family selected on its own
    (``--select IRI710``) brings its family's default rules, less what ``ignore`` names."""
    out = set(base - TEXT_CODES)
    ignored = select_codes(list(ignore)) if ignore else frozenset()
    for code in enabled & TEXT_CODES:
        family = RULES_BY_CODE[code].text_of  # IRI710 -> the syntax rules
        if not any(RULES_BY_CODE[c].family == family for c in out):
            out |= {c for c in DEFAULT_CODES if RULES_BY_CODE[c].family == family} - ignored
    return frozenset(out)


def text_finding(f: Finding, enabled: frozenset[str]) -> Finding | None:
    """A finding on an IRI inside prose, reported under its family's IRI7x0 code (or None if off)."""
    rule = TEXT_RULE_OF.get(RULES_BY_CODE[f.code].family)
    if rule is None or rule.code not in enabled:
        return None
    return Finding(rule.code, rule.name, _sanitize(f"in text: {f.code} {f.name}: {f.message}"),
                   f.start, f.end, rule.severity, None)


_MORE = re.compile(r" \(and ([0-9]++) more IRI[0-9]++ in this IRI\)$")


def merged(group: list[Finding], value: str, where: str = "literal") -> Finding:
    """One rule's findings of one cause (a literal) as the first, saying how many more there are, with a fix
    that makes every change of the group's fixes, when none overlap."""
    f = group[0]
    if len(group) < 2:
        return f
    m = _MORE.search(group[-1].message)
    more = len(group) - 1 + (int(m.group(1)) if m else 0)
    fixes = [g.fix for g in group if g.fix is not None]
    fix = f.fix
    if fix is not None and len(fixes) > 1:
        edits = tuple(e for g in fixes for e in g.edits)
        made = _applied(value, edits)
        if made is not None:
            unsafe = any(g.safety is FixSafety.UNSAFE for g in fixes)
            fix = replace(fix, edits=edits, value=made, safety=FixSafety.UNSAFE if unsafe else fix.safety)
    # ("places": a finding may span a run of characters, which its own message counts)
    places = "place" if more == 1 else "places"
    return replace(f, message=f"{f.message} (and {more} more {places} in this {where})", fix=fix)


def _applied(value: str, edits: tuple[Edit, ...]) -> str | None:
    """``value`` with every one of ``edits`` made; None when two overlap (no one fix makes both)."""
    ordered = sorted(edits, key=lambda e: e.start)
    if any(a.end > b.start for a, b in pairwise(ordered)):
        return None
    return with_edits(value, ordered)


def apply_fixes(text: str, fixes: Iterable[Fix]) -> str:
    """Apply several fixes to ``text``, each whole or not at all: a fix with an edit that overlaps one
    already taken is skipped, and an edit already taken (the same fix twice, or two fixes making the
    same edit) is made once.

    Laws (tested with hypothesis): one fix gives its value (``apply_fixes(t, [f]) == f.value`` for the
    ``t`` it was found in), and duplicates change nothing (``apply_fixes(t, [f, f]) == f.value``;
    ``apply_fixes(t, fs + fs) == apply_fixes(t, fs)``).
    """
    chosen: list[Edit] = []
    taken: set[Edit] = set()
    for fix in fixes:
        edits = sorted(set(fix.edits) - taken, key=lambda e: (e.start, e.end))
        if all(e.end <= c.start or c.end <= e.start for e in edits for c in chosen if
               not (e.start == e.end == c.start == c.end)):
            chosen.extend(edits)
            taken.update(edits)
    return with_edits(text, chosen)
