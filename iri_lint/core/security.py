"""Spoofing risks of RFC 3987 sec. 6.1, 7.5, 8 and 3987bis sec. 9, per UTS #39; RFC 3986 3.2.1.

Data: Script_Extensions, categories and decompositions from ``unicodedataplus``; the UTS #46
mapping from ``idna``; when the optional ``icu`` module (``iri-lint[icu]``) imports, ICU's
SpoofChecker for UTS #39 skeletons and ICU's Default_Ignorable_Code_Point. Without ICU,
confusables are found only as labels mixing Latin with Cyrillic or Greek, and
Default_Ignorable_Code_Point is derived (see ``is_default_ignorable``).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import unicodedataplus as ucd
from idna.core import IDNAError, uts46_remap, valid_contextj

from .bidi import COMPONENT_NAMES, Component, bidi_components, visible
from .chars import BIDI_CONTROLS, GEN_DELIMS, NOT_ALLOWED_ASCII, char_label
from .parse import HostKind, IRIReference, Span

__all__ = [
    "KINDS",
    "SecurityProblem",
    "icu_available",
    "is_default_ignorable",
    "security_problems",
    "skeleton",
]

KINDS = (
    "mixed-script",
    "confusable-host",
    "fullwidth",
    "delimiter-lookalike",
    "invisible",
    "userinfo-password",
)


@dataclass(frozen=True, slots=True)
class SecurityProblem:
    """One spoofing risk: ``kind`` (see KINDS), ``span``, its ``component``, and a suggestion.

    ``replacement``, when set, is suggested text for ``span`` (never applied blindly: any change
    to the characters of an IRI changes its identity, RFC 3987 sec. 5.1).
    """

    kind: str
    span: Span
    component: Span
    message: str
    replacement: str | None = None


# ------------------------------------------------------------------ ICU (optional)


@functools.cache
def _icu() -> ModuleType | None:
    try:
        return importlib.import_module("icu")
    except ImportError:
        return None


@functools.cache
def _spoof_checker() -> Any:
    icu = _icu()
    return None if icu is None else icu.SpoofChecker()


def _clear_caches() -> None:
    """Forget ICU and everything derived from it (tests switch ICU off and on)."""
    for f in (_icu, _spoof_checker, is_default_ignorable, _delimiter_for, _ascii_prototypes):
        f.cache_clear()


def icu_available() -> bool:
    """Whether ICU (UTS #39 confusables) is importable."""
    return _icu() is not None


def skeleton(text: str) -> str | None:
    """The UTS #39 sec. 4 skeleton of ``text``, or None without ICU."""
    checker = _spoof_checker()
    return None if checker is None else str(checker.getSkeleton(0, text))


# ------------------------------------------------------------------ character properties


def _uts46(c: str) -> str | None:
    """UTS #46 mapping of one character ("" when ignored), None when disallowed."""
    try:
        return uts46_remap(c, std3_rules=False)
    except (IDNAError, ValueError):
        return None


@functools.cache
def is_default_ignorable(c: str) -> bool:
    """Unicode Default_Ignorable_Code_Point (invisible; 3987bis sec. 9, UTS #39 sec. 3.1).

    From ICU when available; otherwise derived as Unicode derives it (DerivedCoreProperties):
    format characters (Cf) except the visible prepended concatenation marks, variation
    selectors, and the characters UTS #46 ignores (soft hyphen, fillers, joiners ...).
    Unassigned code points of the reserved ranges are not covered by the fallback.
    """
    icu = _icu()
    if icu is not None:
        return bool(icu.Char.hasBinaryProperty(c, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))
    if c.isascii():
        return False
    cat = ucd.category(c)
    if cat == "Cf":
        # Unicode leaves out the visible ones: prepended concatenation marks (U+0600 ...), the
        # Egyptian hieroglyph format controls, and the interlinear annotation characters
        # U+FFF9-FFFB (specials, which the parser reports)
        return (ucd.grapheme_cluster_break(c) != "Prepend"
                and ucd.block(c) != "Egyptian Hieroglyph Format Controls"
                and not 0xFFF9 <= ord(c) <= 0xFFFB)
    if cat == "Mn" and "VARIATION SELECTOR" in ucd.name(c, ""):
        return True
    return cat in ("Mn", "Lo") and _uts46(c) == ""


# Targets: the delimiters that structure an IRI (RFC 3986 2.2 gen-delims, "%", and the query's
# "&", "=", ";"), and the ASCII that 3987bis sec. 6.3 excludes (space, delims, unwise).
_TARGETS = frozenset(GEN_DELIMS | NOT_ALLOWED_ASCII | frozenset("%.&=;"))


@functools.cache
def _delimiter_for(c: str) -> str | None:
    """The ASCII delimiter ``c`` looks like, by NFKC, UTS #46 mapping or UTS #39 skeleton."""
    for form in (ucd.normalize("NFKC", c), _uts46(c), skeleton(c)):
        if form is not None and len(form) == 1 and form in _TARGETS:
            return form
    return None


def _is_wide_or_narrow(c: str) -> bool:
    return str(ucd.decomposition(c)).startswith(("<wide>", "<narrow>"))


# ------------------------------------------------------------------ scripts (UTS #39 sec. 5)

_COMMON = frozenset(("Zyyy", "Zinh"))
# UTS #39 sec. 5.1 augmentation: the writing systems that combine scripts
_AUGMENT = {
    "Hani": ("Hanb", "Jpan", "Kore"),
    "Hira": ("Jpan",),
    "Kana": ("Jpan",),
    "Hang": ("Kore",),
    "Bopo": ("Hanb",),
}
# UTS #39 sec. 5.2 Highly Restrictive: the allowed combinations with Latin
_ALLOWED_COMBINATIONS = (
    frozenset(("Latn", "Hani", "Hira", "Kana")),  # Japanese
    frozenset(("Latn", "Hani", "Bopo")),  # Chinese
    frozenset(("Latn", "Hani", "Hang")),  # Korean
)
_SCRIPT_NAMES = {
    codes[0]: name.replace("_", " ") for name, codes in ucd.property_value_aliases["script"].items()
}


@functools.cache
def _scx(c: str) -> frozenset[str] | None:
    """Augmented Script_Extensions of ``c``; None for Common and Inherited (all scripts)."""
    if c.isascii():
        return frozenset(("Latn",)) if c.isalpha() else None
    scripts = ucd.script_extensions(c)
    if len(scripts) == 1 and scripts[0] in _COMMON:
        return None
    out = set(scripts)
    for s in scripts:
        out.update(_AUGMENT.get(s, ()))
    return frozenset(out)


def _letters(text: str, start: int, end: int) -> list[tuple[int, frozenset[str]]]:
    """(position, script set) of the characters of [start, end) that have a script."""
    out = []
    i = start
    while i < end:
        c = text[i]
        if c == "%" and i + 2 < end:
            i += 3  # the hex digits of an escape are not Latin letters of the component
            continue
        scx = _scx(c)
        if scx is not None:
            out.append((i, scx))
        i += 1
    return out


def _mixed_script(letters: list[tuple[int, frozenset[str]]]) -> int | None:
    """Position of the first character that breaks a single-script reading, or None if none does.

    UTS #39 sec. 5.1 resolved script set; sec. 5.2 Highly Restrictive combinations.
    """
    if not letters:
        return None
    resolved = letters[0][1]
    breaker = None
    for pos, scx in letters[1:]:
        resolved = resolved & scx
        if not resolved:
            breaker = pos
            break
    if breaker is None:
        return None
    for combo in _ALLOWED_COMBINATIONS:
        if all(scx & combo for _, scx in letters):
            return None
    return breaker


def _script_names(letters: list[tuple[int, frozenset[str]]]) -> list[str]:
    seen: list[str] = []
    for _, scx in letters:
        base = [s for s in scx if s in _SCRIPT_NAMES and s not in ("Hanb", "Jpan", "Kore")]
        if len(base) == 1 and base[0] not in seen:
            seen.append(base[0])
    return [_SCRIPT_NAMES[s] for s in seen]


# ------------------------------------------------------------------ the checks



def _short(text: str, limit: int = 60) -> str:
    return visible(text if len(text) <= limit else text[:limit] + "…")


def _password(ref: IRIReference) -> SecurityProblem | None:
    """RFC 3986 sec. 3.2.1: "user:password" in userinfo is deprecated."""
    info = ref.userinfo
    if info is None:
        return None
    colon = ref.text.find(":", info.start, info.end)
    if colon < 0 or colon + 1 == info.end:
        return None
    return SecurityProblem(
        "userinfo-password", Span(colon + 1, info.end), info,
        "the userinfo holds a password, so it is in the source and in every log of this IRI; "
        '"user:password" is deprecated (RFC 3986 sec. 3.2.1, RFC 3987 sec. 8); pass credentials '
        "separately")


def security_problems(ref: IRIReference) -> list[SecurityProblem]:
    """Spoofing risks in ``ref`` (RFC 3987 sec. 6.1, 7.5, 8; 3987bis sec. 9), in text order.

    One finding per character at most: a delimiter look-alike is not also reported as
    full-width; a host label that is confusable with ASCII is not also reported as mixed-script.
    """
    out: list[SecurityProblem] = []
    pw = _password(ref)
    if pw is not None:
        out.append(pw)
    text = ref.text
    if text.isascii():
        return out  # every other check is about non-ASCII characters

    components = bidi_components(ref)
    whole = Span(0, len(text))
    _characters(text, components, whole, out)
    flagged = {i for p in out if p.kind != "userinfo-password"
               for i in range(p.span.start, p.span.end)}
    confusable: set[Span] = set()
    if ref.host is not None and ref.host_kind is HostKind.REG_NAME:
        for comp in components:
            # a label whose only non-ASCII characters are already reported needs no more
            if comp.kind == "label" and any(
                not c.isascii() and comp.span.start + k not in flagged
                for k, c in enumerate(comp.text)
            ):
                problem = _confusable_label(comp)
                if problem is not None:
                    out.append(problem)
                    confusable.add(comp.span)
    for comp in components:
        if comp.text.isascii() or comp.span in confusable:
            continue
        # characters reported on their own (look-alikes, invisibles) say nothing about scripts
        letters = [x for x in _letters(text, comp.span.start, comp.span.end)
                   if x[0] not in flagged]
        pos = _mixed_script(letters)
        if pos is not None:
            name = COMPONENT_NAMES[comp.kind]
            out.append(SecurityProblem(
                "mixed-script", Span(pos, pos + 1), comp.span,
                f"{name} {_short(comp.text)!r} mixes the {' and '.join(_script_names(letters))} "
                f"scripts at {char_label(text[pos])}; characters from different scripts can look "
                "alike (RFC 3987 sec. 7.5, UTS #39 sec. 5); use one script per component"))
    out.sort(key=lambda p: (p.span.start, p.span.end))
    return out


def _component_of(components: list[Component], pos: int) -> Component | None:
    # components are in text order; a binary search keeps the character pass linear
    lo, hi = 0, len(components)
    while lo < hi:
        mid = (lo + hi) // 2
        if components[mid].span.end <= pos:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(components) and components[lo].span.start <= pos:
        return components[lo]
    return None


_JOINERS = frozenset("\u200c\u200d")
_CONTEXT = 128  # characters either side that the CONTEXTJ rules may look at


def _joiner_allowed(text: str, comp: Component | None, pos: int) -> bool:
    """RFC 5892 Appendix A.1/A.2 (CONTEXTJ): ZWNJ/ZWJ after a virama or between joining letters."""
    start, end = (comp.span.start, comp.span.end) if comp is not None else (0, len(text))
    lo, hi = max(start, pos - _CONTEXT), min(end, pos + _CONTEXT + 1)
    try:
        return valid_contextj(text[lo:hi], pos - lo)
    except (IDNAError, ValueError):
        return False


def _characters(text: str, components: list[Component], whole: Span,
                out: list[SecurityProblem]) -> None:
    """Per-character kinds: delimiter-lookalike, fullwidth, invisible; runs merged."""
    run_kind: str | None = None
    run_start = 0

    def flush(end: int) -> None:
        if run_kind is None:
            return
        comp = _component_of(components, run_start)
        where = comp.span if comp is not None else whole
        chars = text[run_start:end]
        if run_kind == "fullwidth":
            nfkc = ucd.normalize("NFKC", chars)
            out.append(SecurityProblem(
                "fullwidth", Span(run_start, end), where,
                f"{_short(chars)!r} is written in full-width or half-width forms "
                f"({char_label(chars[0])}{', ...' if len(chars) > 1 else ''}), easily mistaken "
                f"for {nfkc!r} (RFC 3987 sec. 6.1 b, 7.5); write {nfkc!r}", nfkc))
        else:
            labels = ", ".join(char_label(c) for c in chars[:3]) + (", ..." if len(chars) > 3 else "")
            out.append(SecurityProblem(
                "invisible", Span(run_start, end), where,
                f"invisible {labels}: a default-ignorable character that readers cannot see "
                "(RFC 3987 sec. 6.1 b, 3987bis sec. 9, UTS #39 sec. 3.1); remove it", ""))

    for i, c in enumerate(text):
        kind: str | None = None
        if c.isascii() or c in BIDI_CONTROLS:
            pass  # bidi controls are the bidi checks' business (RFC 3987 sec. 4.1)
        elif (target := _delimiter_for(c)) is not None:
            flush(i)
            run_kind = None
            comp = _component_of(components, i)
            if target in NOT_ALLOWED_ASCII:
                fix = f"%{ord(target):02X}"
                why = ("which IRIs exclude (3987bis sec. 6.3); readers will copy or split the IRI "
                       f"wrongly (RFC 3987 sec. 6.1 b); write {fix!r} if that is meant")
            else:
                fix = target
                why = ("but is not a delimiter; readers will split the IRI in the wrong place "
                       f"(RFC 3987 sec. 6.1 b, 8); write {fix!r} if the delimiter is meant")
            out.append(SecurityProblem(
                "delimiter-lookalike", Span(i, i + 1), comp.span if comp is not None else whole,
                f"{char_label(c)} looks like {target!r} ({char_label(target)}) {why}", fix))
            continue
        elif _is_wide_or_narrow(c):
            kind = "fullwidth"
        elif is_default_ignorable(c) and not (
            c in _JOINERS and _joiner_allowed(text, _component_of(components, i), i)
        ):
            kind = "invisible"
        if kind != run_kind:
            flush(i)
            run_kind, run_start = kind, i
    flush(len(text))


def _confusable_label(comp: Component) -> SecurityProblem | None:
    """A host label that reads as ASCII but is not (UTS #39 sec. 4, RFC 3987 sec. 8)."""
    label = comp.text
    if ucd.normalize("NFKC", label).isascii():
        return None  # the same host once mapped; the full-width check reports it
    skel = skeleton(label)
    if skel is not None:
        if not skel.isascii():
            return None
        prototypes = _ascii_prototypes()
        fixed = "".join(prototypes.get(skeleton(c) or "", c) for c in label)
        looks = fixed if fixed.isascii() else skel
        return SecurityProblem(
            "confusable-host", comp.span, comp.span,
            f"host label {_short(label)!r} looks like the ASCII {looks!r} but is not ASCII "
            f"({_non_ascii_labels(label)}); a spoof of another host (RFC 3987 sec. 8, UTS #39 "
            "sec. 4)", fixed if fixed.isascii() else None)
    # without ICU: no confusable data, so only the classic Latin/Cyrillic/Greek mixture
    scripts = {s for _, scx in _letters(label, 0, len(label)) if len(scx) == 1 for s in scx}
    others = sorted(scripts & {"Cyrl", "Grek"})
    if "Latn" in scripts and others:
        return SecurityProblem(
            "confusable-host", comp.span, comp.span,
            f"host label {_short(label)!r} mixes Latin with "
            f"{' and '.join(_SCRIPT_NAMES[s] for s in others)} letters "
            f"({_non_ascii_labels(label)}), which look alike; a likely spoof (RFC 3987 sec. 8, "
            "UTS #39 sec. 5)")
    return None


@functools.cache
def _ascii_prototypes() -> dict[str, str]:
    """Skeleton -> the ASCII letter or digit with it; lowercase letters win ("l" over "1", "I")."""
    out: dict[str, str] = {}
    for a in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-":
        skel = skeleton(a)
        if skel is not None:
            out[skel] = a
    return out


def _non_ascii_labels(label: str) -> str:
    chars = list(dict.fromkeys(c for c in label if not c.isascii()))
    return ", ".join(char_label(c) for c in chars[:3]) + (", ..." if len(chars) > 3 else "")
