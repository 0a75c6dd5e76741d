"""check(): run the analyses a selection needs on one IRI, and turn their results into findings."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator

from ..core.grammar import Profile
from ..core.reference import IRIReference
from ..core.scanner import scan
from .analysis import MAX_PER_CODE, Ctx, Raw
from .catalog import DEFAULT_CODES, RULES, RULES_BY_CODE
from .checks import ANALYSES
from .model import Edit, Finding, Fix, FixSafety, UseContext, fix_safety


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


def _apply(text: str, edits: tuple[Edit, ...]) -> str:
    out, pos = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        out.append(text[pos : e.start])
        out.append(e.replacement)
        pos = e.end
    out.append(text[pos:])
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
    return Raw(raw.code, start, end, raw.message, edits, raw.fix_text)


def _finding(raw: Raw, ctx: Ctx) -> Finding:
    rule = RULES_BY_CODE[raw.code]
    fix = None
    if raw.edits is not None and rule.fix_level is not None:
        before = ctx.ref.text if ctx.ref.original is None else ctx.ref.original
        value = _apply(before, raw.edits)
        safety = fix_safety(rule.fix_level, ctx.context)
        if ctx.uri_only_api and before.isascii() and not value.isascii():
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

    def expand(items: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for item in items:
            item = item.strip()
            if not item:
                continue
            by_name = {r.code for r in RULES if r.name == item}
            prefix = item.upper()
            if prefix == "ALL":  # every rule, opt-in ones too (ruff's spelling)
                out |= {r.code for r in RULES}
            else:
                out |= by_name or (set(DEFAULT_CODES) if prefix == "IRI" else
                                   {r.code for r in RULES if r.code.startswith(prefix)})
        return out

    codes = set(DEFAULT_CODES) if select is None else expand(select)
    if extend_select:
        codes |= expand(extend_select)
    if ignore:
        codes -= expand(ignore)
    return frozenset(codes)


def _overlaps_hole(start: int, end: int, holes: tuple[tuple[int, int], ...]) -> bool:
    # a finding at a hole's edge may be caused by the placeholder's unknown content
    return any(start <= h_end and h_start <= max(end, start + 1) for h_start, h_end in holes)


def check(text: str, *, kind: str = "IRI-reference", profile: str | Profile = "iri",
          context: UseContext | str | None = None, select: Iterable[str] | None = None,
          ignore: Iterable[str] | None = None, holes: tuple[tuple[int, int], ...] = (),
          uri_only_api: bool = False) -> list[Finding]:
    """Every finding of the enabled rules for ``text``, in order of position."""
    enabled = select_codes(select, ignore)
    ref = scan(text, kind, profile)
    ctx = Ctx(ref, UseContext(context) if context is not None else UseContext.UNKNOWN,
              uri_only_api, enabled, holes)
    return list(_run(ctx))


def check_ref(ref: IRIReference, *, context: UseContext = UseContext.UNKNOWN,
              enabled: frozenset[str] = DEFAULT_CODES, holes: tuple[tuple[int, int], ...] = (),
              uri_only_api: bool = False, idna_versions: bool = True) -> list[Finding]:
    """check() for an already scanned IRI (the linter's hot path); ``idna_versions``: report xn-- labels
    that only IDNA2008 rejects (see ``Ctx``)."""
    return list(_run(Ctx(ref, context, uri_only_api, enabled, holes, idna_versions=idna_versions)))


def _run(ctx: Ctx) -> Iterator[Finding]:
    raws: list[Raw] = []
    for codes, fn in ANALYSES:
        if codes & ctx.enabled:
            raws.extend(r for r in fn(ctx) if r.code in ctx.enabled)
    if ctx.ref.origin is not None:
        raws = [_in_original(r, ctx.ref) for r in raws]
    if ctx.holes:
        raws = [r for r in raws if not _overlaps_hole(r.start, r.end, ctx.holes)]
    raws.sort(key=lambda r: (r.start, r.code))
    seen: set[tuple[str, int]] = set()
    per_code: dict[str, int] = {}
    kept: list[Raw] = []
    for r in raws:
        if (r.code, r.start) in seen:
            continue
        seen.add((r.code, r.start))
        per_code[r.code] = per_code.get(r.code, 0) + 1
        if per_code[r.code] <= MAX_PER_CODE:
            kept.append(r)
    for code, n in ctx.skipped.items():
        per_code[code] = per_code.get(code, 0) + n
    for r in kept:
        more = per_code[r.code] - MAX_PER_CODE
        if more > 0 and r is _last_of(kept, r.code):
            r = Raw(r.code, r.start, r.end, f"{r.message} (and {more} more {r.code} in this IRI)", r.edits,
                    r.fix_text)
        yield _finding(r, ctx)


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
# Naming the code (--extend-select IRI401) reports it everywhere. IRI403 is the same for IDNA2003-era
# names only (``check_ref``'s ``idna_versions``); an invalid A-label is reported everywhere.
IRI_USE_ONLY = frozenset({"IRI401"})


def text_code(code: str) -> str:
    """The text-mode code (IRI7x0) that reports ``code``'s family inside prose (RFC 3987 sec. 7.3)."""
    return f"IRI7{code[3]}0"


TEXT_CODES: frozenset[str] = frozenset(r.code for r in RULES if r.code.startswith("IRI7"))


def text_rules(base: frozenset[str], enabled: frozenset[str], ignore: Iterable[str] = ()) -> frozenset[str]:
    """The rules run on IRIs found in prose: the enabled ones; a text family selected on its own
    (``--select IRI710``) brings its family's default rules, less what ``ignore`` names."""
    out = set(base - TEXT_CODES)
    ignored = select_codes(list(ignore)) if ignore else frozenset()
    for code in enabled & TEXT_CODES:
        family = code[4]  # IRI710 -> "1": the IRI1xx rules
        if not any(c[3] == family for c in out):
            out |= {c for c in DEFAULT_CODES if c[3] == family} - ignored
    return frozenset(out)


def text_finding(f: Finding, enabled: frozenset[str]) -> Finding | None:
    """A finding on an IRI inside prose, reported under its family's IRI7x0 code (or None if off)."""
    rule = RULES_BY_CODE.get(text_code(f.code))
    if rule is None or rule.code not in enabled:
        return None
    return Finding(rule.code, rule.name, _sanitize(f"in text: {f.code} {f.name}: {f.message}"),
                   f.start, f.end, rule.severity, None)




def _last_of(raws: list[Raw], code: str) -> Raw:
    return next(r for r in reversed(raws) if r.code == code)


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
    return _apply(text, tuple(chosen))
