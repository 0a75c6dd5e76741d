"""Spoofing risks of RFC 3987 sec. 6.1, 7.5, 8 and 3987bis sec. 9, per UTS #39; RFC 3986 3.2.1.

Data: Script_Extensions, categories and decompositions from ``unicodedataplus``; the UTS #46
mapping from ``idna``; when the optional ``icu`` module (``iri-lint[icu]``) imports, ICU's
SpoofChecker for UTS #39 skeletons and ICU's Default_Ignorable_Code_Point. Without ICU,
confusables are found as labels whose every character reads as ASCII (``data/confusables.py``,
generated from Unicode's confusables data) or that mix Latin with Cyrillic or Greek, and
Default_Ignorable_Code_Point is derived (see ``is_default_ignorable``).

Every pass is linear with C-level work per character: properties are looked up once per distinct
character, and the characters they flag are located with regexes built from them; Python-level
work grows with the number of distinct characters, of components and of problems.
"""

from __future__ import annotations

import bisect
import functools
import importlib
import itertools
import operator
import re
from collections.abc import Iterable
from types import ModuleType
from typing import Any, NamedTuple

import unicodedataplus as ucd

from .budget import Budget, take_matches
from .chars import BIDI_CONTROLS, GEN_DELIMS, NOT_ALLOWED_ASCII, TAG_RANGE
from .components import (
    COMPONENT_NAMES,
    ComponentTable,
    char_class,
    component_table,
    distinct_chars,
)
from .joiners import JOINERS, ZWJ, ZWNJ, joiners_blanked, stand_ins
from .lazy import lazy_regex
from .reference import HostKind, IRIReference, Span

__all__ = [
    "DELIMITER_TARGETS",
    "KINDS",
    "SecurityProblem",
    "character_kind",
    "delimiter_for",
    "foreign_letters",
    "icu_available",
    "in_east_asian_text",
    "is_default_ignorable",
    "is_placeholder_password",
    "is_spoof_label",
    "script_name",
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


class SecurityProblem(NamedTuple):
    """One spoofing risk: ``kind`` (see KINDS), ``span``, its ``component``, a suggestion, and what
    a report of it needs to say.

    ``replacement``, when set, is suggested text for ``span`` (never applied blindly: any change
    to the characters of an IRI changes its identity, RFC 3987 sec. 5.1).
    """

    kind: str
    span: Span
    component: Span
    replacement: str | None = None
    part: str = ""  # mixed-script: the component's kind ("path segment")
    scripts: tuple[str, ...] = ()  # mixed-script: the scripts' names, in order
    looks_like: str | None = None  # confusable-host: the ASCII label it reads as (None: a mixture)


_TEXT_ORDER = operator.attrgetter("span.start", "span.end")


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
    for f in (_icu, _spoof_checker, is_default_ignorable, delimiter_for, _ascii_prototypes, _kind,
              _fallback_ascii_lookalike):
        f.cache_clear()


def icu_available() -> bool:
    """Whether ICU (UTS #39 confusables) is importable."""
    return _icu() is not None


def skeleton(text: str) -> str | None:
    """The UTS #39 sec. 4 skeleton of ``text``, or None without ICU or for text ICU cannot read (surrogates
    that make no pair in UTF-16: no character, nor a look-alike of one; IRI109 reports them)."""
    checker = _spoof_checker()
    if checker is None:
        return None
    try:
        return str(checker.getSkeleton(0, text))
    except Exception as exc:  # (ICUError, of the module that made the checker: tests import ICU again)
        if type(exc).__name__ != "ICUError":
            raise
        return None


# ------------------------------------------------------------------ character properties


def _uts46(c: str) -> str | None:
    """UTS #46 mapping of one character ("" when ignored), None when disallowed."""
    from idna.core import IDNAError, uts46_remap  # lazy boundary (c): UTS #46's table, for a non-ASCII character

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
DELIMITER_TARGETS = frozenset(GEN_DELIMS | NOT_ALLOWED_ASCII | frozenset("%.&=;"))


@functools.cache
def delimiter_for(c: str) -> str | None:
    """The ASCII delimiter ``c`` looks like, by NFKC, UTS #46 mapping or UTS #39 skeleton (without ICU:
    Unicode's confusables data, ``data/confusables.py``)."""
    for form in (ucd.normalize("NFKC", c), _uts46(c), skeleton(c) if icu_available() else _confusable_delimiter(c)):
        if form is not None and len(form) == 1 and form in DELIMITER_TARGETS:
            return form
    # a separator no form maps to the space (U+2028 LINE SEPARATOR, U+2029, U+1680 OGHAM SPACE MARK): whitespace,
    # which 3987bis sec. 6.3 excludes as it does the space, that breaks or splits the IRI where it is shown
    return " " if ucd.category(c) in _SEPARATORS else None


_SEPARATORS = frozenset(("Zs", "Zl", "Zp"))


def _confusable_delimiter(c: str) -> str | None:
    """The delimiter Unicode's confusables data says ``c`` reads as (what the skeleton gives, without ICU)."""
    from ..data.confusables import DELIMITER_LOOKALIKE  # lazy boundary (c): the confusables table

    return DELIMITER_LOOKALIKE.get(c)


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


_EAST_ASIAN = frozenset(("Hani", "Hira", "Kana", "Hang", "Bopo"))


def in_east_asian_text(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, punctuation or symbols (``！``, ``。``), stands in East Asian text: beside a
    character of a CJK script, and beside no ASCII letter or digit. There it is the writing system's own
    punctuation, which its readers expect (RFC 3987 sec. 7.5: the visual equivalence lies in the context), not a
    look-alike of ASCII's; written so in the resource's name, the ASCII form names another resource."""
    if not all(ucd.category(c)[0] in "PS" for c in text[start:end]):
        return False
    around = (_beside(text, start - 1, -1), _beside(text, end, 1))
    if any(c.isascii() and c.isalnum() for c in around):
        return False
    return any(c and (s := _scx(c)) is not None and not s.isdisjoint(_EAST_ASIAN) for c in around)


def _beside(text: str, i: int, step: int) -> str:
    """The nearest character from ``i`` on, going by ``step``, that is no punctuation or symbol (at most
    ``_NEAR`` looked at: a run of them has no context), "" at an end: what a run of marks stands beside
    (``a。。``'s second full stop stands by ``a``, as its first: a fix of one leaves the other as it was)."""
    for _ in range(_NEAR):
        if not 0 <= i < len(text):
            return ""
        if ucd.category(text[i])[0] not in "PS":
            return text[i]
        i += step
    return ""


_NEAR = 8


_non_ascii = lazy_regex("[^\\x00-\\x7f]")
_escape = lazy_regex("%[\\s\\S]{2}")  # "%" and the two characters after it, as the scan skips them


def _without_escapes(part: str) -> str:
    """``part`` with every "%" and the two characters after it blanked (NUL), positions kept.

    The hex digits of an escape are not Latin letters of the component (UTS #39 sec. 5.1 is
    about the characters a reader sees).
    """
    return _escape().sub("\0\0\0", part) if "%" in part else part


def _mixed_script(part: str) -> tuple[int, tuple[str, ...]] | None:
    """``_mixed_part``, remembered for short components (hostile text repeats them)."""
    return _mixed_short(part) if len(part) <= 64 else _mixed_part(part)


def _mixed_part(part: str) -> tuple[int, tuple[str, ...]] | None:
    """Index in ``part`` of the first character that breaks a single-script reading, or None.

    UTS #39 sec. 5.1 resolved script set; sec. 5.2 Highly Restrictive combinations. The resolved
    set only changes at the first occurrence of a character, so distinct characters suffice.
    Also gives the names of the scripts, in order of first occurrence.
    """
    if _single_script({_scx(c) for c in set(part)}):
        return None
    letters = [(c, scx) for c in dict.fromkeys(part) if (scx := _scx(c)) is not None]
    resolved = letters[0][1]
    for c, scx in letters:
        resolved = resolved & scx
        if not resolved:
            return part.find(c), tuple(_script_names([x for _, x in letters]))
    raise AssertionError("the script sets have an empty intersection")  # pragma: no cover


_mixed_short = functools.lru_cache(maxsize=1024)(_mixed_part)


def _single_script(sets: set[frozenset[str] | None]) -> bool:
    """Whether these script sets read as one script: a non-empty resolved set (UTS #39 sec. 5.1)
    or one of the Highly Restrictive combinations (sec. 5.2)."""
    real = [scx for scx in sets if scx is not None]
    if len(real) <= 1 or real[0].intersection(*real[1:]):
        return True
    return any(all(scx & combo for scx in real) for combo in _ALLOWED_COMBINATIONS)


def foreign_letters(word: str) -> list[int]:
    """Indexes of the letters of ``word`` outside the script most of its letters share, when ``word``
    mixes scripts as UTS #39 sec. 5.1-5.2 reads them (the Cyrillic U+0430 of ``pаypal``); [] when
    it reads as one script (Japanese mixing Han, Hiragana and Latin included)."""
    sets = [_scx(c) for c in word]
    if _single_script(set(sets)):
        return []
    votes: dict[str, int] = {}
    for scx in sets:
        for script in scx or ():
            votes[script] = votes.get(script, 0) + 1
    main = max(sorted(votes), key=lambda s: votes[s])
    return [i for i, scx in enumerate(sets) if scx is not None and main not in scx]


def script_name(c: str) -> str:
    """The Unicode Script property of ``c``, by its long name (``Cyrillic``)."""
    return str(ucd.script(c)).replace("_", " ")


def _script_names(letters: list[frozenset[str]]) -> list[str]:
    """Names of the single scripts among ``letters``' script sets, in order."""
    seen: list[str] = []
    for scx in letters:
        base = [s for s in scx if s in _SCRIPT_NAMES and s not in ("Hanb", "Jpan", "Kore")]
        if len(base) == 1 and base[0] not in seen:
            seen.append(base[0])
    return [_SCRIPT_NAMES[s] for s in seen]


# ------------------------------------------------------------------ the checks



# what stands in for a password in documentation, examples and redacted logs: no secret leaks
PLACEHOLDER_WORDS = frozenset({
    "pass", "password", "passwd", "passw0rd", "pwd", "pw", "p", "x", "secret", "changeme", "tiger",
    "redacted", "hidden", "masked", "placeholder", "example", "test", "dummy", "fake", "foo", "bar",
    "none", "null", "token",
})
_POSSESSIVE = ("my", "your")  # "my_secret", "yourpassword", "your-password": a placeholder word, said so
_SAMPLE_ENDS = ("password", "passwd", "secret")  # what "your..." ends with in a sample ("yourStrongPassword")
_placeholder = lazy_regex(
    r"[*xX.#_-]+"  # ***, xxx, ..., ###
    r"|<[^<>]*+>|\[[^\[\]]*+\]|\{[^{}]*+\}|\$\{[^{}]*+\}|\$[A-Za-z_][A-Za-z0-9_]*+"  # <pw> [pw] {pw} ${PW} $PW
    r"|%\([^()]*+\)s|%s|__[A-Za-z0-9_]++__")  # %(password)s, %s, __PASSWORD__
_pct = lazy_regex("%([0-9A-Fa-f]{2})")


def is_placeholder_password(password: str) -> bool:
    """Whether a userinfo's password is a redaction or placeholder (``***``, ``<password>``,
    ``${PASSWORD}``, ``pass``, ``tiger``), not a credential; percent-encoding is read first."""
    plain = _plain(password)
    low = plain.lower()
    if _placeholder().fullmatch(plain) is not None or low in PLACEHOLDER_WORDS:
        return True
    owner = next((w for w in _POSSESSIVE if low.startswith(w)), "")
    # ("your" ... "password": a documented sample, SQL Server's "yourStrong(!)Password", outside21)
    return bool(owner) and (low[len(owner):].removeprefix("_").removeprefix("-") in PLACEHOLDER_WORDS or (
        owner == "your" and low.endswith(_SAMPLE_ENDS)))


def _plain(userinfo_part: str) -> str:
    """A user name or password with its percent-encoded ASCII decoded (RFC 3986 sec. 2.1)."""
    return _pct().sub(lambda m: chr(int(m.group(1), 16)) if int(m.group(1), 16) < 0x80 else m.group(), userinfo_part)


# schemes whose userinfo is no login: fsspec's GitHub file system, ``github://org:repo@sha/path``
_NO_LOGIN_SCHEMES = frozenset(("github",))


def _password(ref: IRIReference) -> SecurityProblem | None:
    """RFC 3986 sec. 3.2.1: "user:password" in userinfo is deprecated; placeholders are not passwords."""
    info = ref.userinfo
    if info is None or (ref.get("scheme") or "").lower() in _NO_LOGIN_SCHEMES:
        return None
    colon = ref.text.find(":", info.start, info.end)
    if colon < 0 or colon + 1 == info.end or is_placeholder_password(ref.text[colon + 1 : info.end]):
        return None
    user = _plain(ref.text[info.start : colon])
    if user == _plain(ref.text[colon + 1 : info.end]):
        return None  # "guest:guest", "admin:admin": a default login, which the user name already tells
    if user.lower() in ("anonymous", "ftp") and (ref.get("scheme") or "").lower() in ("ftp", "ftps"):
        return None  # anonymous FTP: the password is an e-mail address by convention (RFC 1635), no secret
    return SecurityProblem("userinfo-password", Span(colon + 1, info.end), info)


_BULK = 16  # more non-ASCII components than this: one regex over all of them (_mixed_suspects)


def security_problems(ref: IRIReference, *, budget: Budget | None = None) -> list[SecurityProblem]:
    """Spoofing risks in ``ref`` (RFC 3987 sec. 6.1, 7.5, 8; 3987bis sec. 9), in text order.

    One finding per character at most: a delimiter look-alike is not also reported as
    full-width; a host label that is confusable with ASCII is not also reported as mixed-script.
    With a ``budget``, only the problems it takes are built (the first of each kind in text
    order); it counts the others.
    """
    out: list[SecurityProblem] = []
    pw = _password(ref)
    if pw is not None and (budget is None or budget.take(pw.kind, pw.span.start)):
        out.append(pw)
    text = ref.text
    if text.isascii():
        return out  # every other check is about non-ASCII characters

    table = component_table(ref, split_userinfo=True)  # user and password are checked apart
    whole = Span(0, len(text))
    # characters reported on their own (look-alikes, invisibles) say nothing about scripts
    flagged = _characters(text, table, whole, out, budget)
    host = ref.host
    confusable: set[int] = set()
    if host is not None and ref.host_kind is HostKind.REG_NAME:
        confusable = _confusable_labels(text, table, host, flagged, out, budget)
    if not _single_script({_scx(c) for c in distinct_chars(text)}):  # else no component mixes
        few = list(itertools.islice(table.holding(_non_ascii()), _BULK + 1))
        if len(few) <= _BULK:
            for k in few:
                if k not in confusable:
                    _mixed_script_problem(text, table, k, flagged, out, budget)
        else:
            _mixed_scripts(text, table, _mixed_suspects(table), confusable, flagged, out, budget,
                           host if host is not None else Span(0, 0))
    out.sort(key=_TEXT_ORDER)
    return out


def _confusable_labels(text: str, table: ComponentTable, host: Span, flagged: _Blanks,
                       out: list[SecurityProblem], budget: Budget | None = None) -> set[int]:
    """Host labels confusable with ASCII (UTS #39 sec. 4); each distinct label judged once, and
    the labels looked at one by one only when one of them is."""
    verdicts = {label: verdict for label in set(text[host.start : host.end].split("."))
                if not label.isascii() and (verdict := _confusable_verdict(label)) is not None}
    found: set[int] = set()
    for k in table.holding(_non_ascii(), host.start, host.end) if verdicts else ():
        span = table.span(k)
        verdict = verdicts.get(text[span.start : span.end])
        # a label whose only non-ASCII characters are already reported needs no more
        if verdict is not None and table.kinds[k] == "label" and not flagged.blank(text, span).isascii():
            if budget is None or budget.take("confusable-host", span.start):
                out.append(verdict._replace(span=span, component=span))
            found.add(k)
    return found


def _mixed_suspects(table: ComponentTable) -> list[int]:
    """The components that mix scripts (UTS #39 sec. 5), found for all of them at once.

    In the joined component texts, escapes are blanked and every character is mapped to one
    standing for its script set (non-letters and the characters reported on their own to one
    filler); a component mixes scripts when, for every script, it has a letter without it, and
    for every allowed combination, a letter outside it.
    """
    distinct = distinct_chars(table.text)
    joined, sep, _ = table.joined()
    ids: dict[frozenset[str], str] = {}
    mapping: dict[int, str] = {0: "\0", ord(sep): sep}
    for c in distinct:
        scx = None if _kind(c) in _FLAGGED else _scx(c)
        mapping[ord(c)] = "\0" if scx is None else ids.setdefault(scx, chr(0x100 + len(ids)))
    scripts = frozenset().union(*ids)
    witnesses = [[i for scx, i in ids.items() if s not in scx] for s in sorted(scripts)]
    witnesses += [[i for scx, i in ids.items() if not scx & combo] for combo in _ALLOWED_COMBINATIONS]
    if not all(witnesses):
        return []
    pattern = table.at_starts("".join(
        f"(?={char_class([sep, *w], negate=True)}*+{char_class(w)})" for w in witnesses))
    letters = re.sub(f"%[^{re.escape(sep)}]{{2}}", "\0\0\0", joined).translate(mapping)
    return list(table.matching(pattern, letters))


_FLAGGED = frozenset(("delimiter-lookalike", "fullwidth", "invisible"))


def _mixed_scripts(text: str, table: ComponentTable, suspects: list[int], confusable: set[int],
                   flagged: _Blanks, out: list[SecurityProblem], budget: Budget | None,
                   host: Span) -> None:
    """The mixed-script problems of the suspects (each mixes scripts) that are not confusable;
    past the budget of the host or of the rest, those of that part are only counted."""
    starts = table.starts
    at = list(map(starts.__getitem__, suspects))  # in text order
    a, b = bisect.bisect_left(at, host.start), bisect.bisect_left(at, host.end)
    for part in (suspects[:a], suspects[a:b], suspects[b:]):
        for n, k in enumerate(part):
            if k in confusable:
                continue
            if budget is not None and not budget.room("mixed-script", starts[k]):
                rest = part[n:]
                budget.skip("mixed-script", starts[k], len(rest) - len(confusable.intersection(rest)))
                break
            _mixed_script_problem(text, table, k, flagged, out, budget)


def _mixed_script_problem(text: str, table: ComponentTable, k: int, flagged: _Blanks,
                          out: list[SecurityProblem] | None, budget: Budget | None = None) -> None:
    """UTS #39 sec. 5 for component ``k`` (RFC 3987 sec. 7.5); only counted without ``out``."""
    start, end = table.starts[k], table.ends[k]
    found = _mixed_script(_without_escapes(flagged.blank(text, Span(start, end))))
    if found is None or (budget is not None and not budget.take("mixed-script", start)) or out is None:
        return
    span = table.span(k)
    pos, scripts = found
    at = span.start + pos
    out.append(SecurityProblem("mixed-script", Span(at, at + 1), span, part=COMPONENT_NAMES[table.kinds[k]],
                               scripts=scripts))


class _Blanks:
    """The characters reported on their own (look-alikes, full-width forms, invisibles), to
    blank out of component texts: ``scan`` (the text with the allowed joiners replaced by
    ``stand_ins``) gives their positions, whether or not a problem was built for them."""

    def __init__(self, text: str, scan: str = "", chars: Iterable[str] = ()) -> None:
        self.text = text
        self.scan = scan
        self.chars = "".join(chars)
        self._blanked: str | None = None if self.chars else text

    def blank(self, text: str, span: Span) -> str:
        """``text[span]`` with the flagged characters replaced by NUL, positions kept."""
        if self._blanked is None:  # one C-level pass, when first needed
            table: dict[int, int | str] = dict.fromkeys(map(ord, self.chars), 0)
            if self.scan is not self.text:
                ok_zwnj, ok_zwj, _ = stand_ins(self.text)
                table |= {ord(ok_zwnj): ZWNJ, ord(ok_zwj): ZWJ}
            self._blanked = self.scan.translate(table)
        return self._blanked[span.start : span.end]


# ------------------------------------------------------------------ per-character kinds


@functools.lru_cache(maxsize=1 << 14)
def _kind(c: str) -> str | None:
    """The kind of ``c`` on its own (RFC 3987 sec. 6.1 b, 3987bis sec. 9), "joiner" if contextual."""
    if c.isascii() or c in BIDI_CONTROLS or TAG_RANGE[0] <= ord(c) <= TAG_RANGE[1]:
        # bidi controls are the bidi checks' business (RFC 3987 sec. 4.1); U+E0000-E0FFF, outside ucschar
        # (RFC 3987 sec. 2.2) and allowed in a 3987bis query, the tag rule's (IRI107)
        return None
    if delimiter_for(c) is not None:
        return "delimiter-lookalike"
    if _is_wide_or_narrow(c):
        return "fullwidth"
    if is_default_ignorable(c):
        return "joiner" if c in JOINERS else "invisible"
    return None


def character_kind(c: str) -> str | None:
    """What a character is on its own to the rules that report it wherever it stands: "delimiter-lookalike"
    (IRI504), "fullwidth" (IRI503), "invisible" or "joiner" (IRI505); None for another character."""
    return _kind(c)


def _characters(text: str, table: ComponentTable, whole: Span, out: list[SecurityProblem],
                budget: Budget | None = None) -> _Blanks:
    """Per-character kinds: delimiter-lookalike, fullwidth, invisible; runs merged.

    Returns the characters found, built or not, for the script checks to leave out.
    """
    by_kind: dict[str, list[str]] = {}
    for c in distinct_chars(text):
        kind = _kind(c)
        if kind is not None:
            by_kind.setdefault(kind, []).append(c)
    if not by_kind:
        return _Blanks(text)
    scan = text
    if "joiner" in by_kind:
        scan = joiners_blanked(text, table)
    chars = {"delimiter-lookalike": by_kind.get("delimiter-lookalike", []),
             "fullwidth": by_kind.get("fullwidth", []),
             "invisible": by_kind.get("invisible", []) + by_kind.get("joiner", [])}
    runs = {kind: re.compile(f"{char_class(cs)}++") for kind, cs in chars.items() if cs}

    def count(kind: str, pos: int) -> int:
        if kind == "delimiter-lookalike":  # one problem per character
            return sum(scan.count(c, pos) for c in chars[kind])
        return runs[kind].subn("", scan[pos:])[1]

    kinds = [(kind, char_class(cs) + ("" if kind == "delimiter-lookalike" else "++"))
             for kind, cs in chars.items() if cs]
    for kind, m in take_matches(budget, scan, kinds, count):
        start, end = m.span()
        k = table.index(start)
        where = table.span(k) if k >= 0 else whole
        if kind == "delimiter-lookalike":
            out.append(_lookalike(text[start], Span(start, end), where))
        elif kind == "fullwidth":
            out.append(_fullwidth(text[start:end], Span(start, end), where))
        else:
            out.append(_invisible(text[start:end], Span(start, end), where))
    return _Blanks(text, scan, itertools.chain.from_iterable(chars.values()))


def _lookalike(c: str, span: Span, where: Span) -> SecurityProblem:
    """A character that looks like an IRI delimiter (RFC 3987 sec. 6.1 b, 8; 3987bis sec. 6.3):
    the suggestion is the delimiter, or its escape when IRIs exclude it."""
    target = delimiter_for(c)
    assert target is not None
    fix = f"%{ord(target):02X}" if target in NOT_ALLOWED_ASCII else target
    return SecurityProblem("delimiter-lookalike", span, where, fix)


def _fullwidth(chars: str, span: Span, where: Span) -> SecurityProblem:
    """A run of full-width or half-width forms (RFC 3987 sec. 6.1 b, 7.5): NFKC suggested."""
    return SecurityProblem("fullwidth", span, where, ucd.normalize("NFKC", chars))


def _invisible(chars: str, span: Span, where: Span) -> SecurityProblem:
    """A run of default-ignorable characters (RFC 3987 sec. 6.1 b, 3987bis sec. 9, UTS #39 3.1)."""
    return SecurityProblem("invisible", span, where, "")


def is_spoof_label(label: str) -> bool:
    """Whether a Unicode host label reads as an ASCII one it is not (UTS #39 sec. 4): such a label
    must never be proposed for display (RFC 3987 sec. 5.3.3 shows IDN hosts in Unicode)."""
    return not label.isascii() and _confusable_verdict(label) is not None


@functools.lru_cache(maxsize=1024)
def _fallback_ascii_lookalike(label: str) -> str | None:
    """The ASCII text ``label`` reads as when each of its characters has an ASCII letter or digit
    look-alike in Unicode's confusables data (``data/confusables.py``), else None."""
    from ..data.confusables import ASCII_LOOKALIKE  # lazy boundary (c): the confusables table

    out = "".join(c if c.isascii() else ASCII_LOOKALIKE.get(c, "\0") for c in label)
    return None if "\0" in out or out == label else out


def _confusable_verdict(label: str) -> SecurityProblem | None:
    """A confusable-host problem (span not yet set) when ``label`` reads as ASCII but is not
    (UTS #39 sec. 4): what it reads as, or for a Latin/Cyrillic/Greek mixture the other scripts."""
    if ucd.normalize("NFKC", label).isascii():
        return None  # the same host once mapped; the full-width check reports it
    nowhere = Span(0, 0)
    skel = skeleton(label)
    if skel is not None:
        if not skel.isascii() or any(len(skeleton(c) or "") != 1 for c in set(label) if not c.isascii()):
            return None  # "æ" -> "ae" reads as two letters: a word of its language, not a look-alike
        prototypes = _ascii_prototypes()
        fixed = label.translate({ord(c): prototypes.get(skeleton(c) or "", c) for c in set(label)})
        return SecurityProblem("confusable-host", nowhere, nowhere, fixed if fixed.isascii() else None,
                               looks_like=fixed if fixed.isascii() else skel)
    # without ICU: Unicode's confusables data (data/confusables.py), for labels whose
    # every character reads as ASCII (whole-script spoofs such as an all-Cyrillic 'аррӏе')
    alike = _fallback_ascii_lookalike(label)
    return None if alike is None else SecurityProblem("confusable-host", nowhere, nowhere, alike, looks_like=alike)


@functools.cache
def _ascii_prototypes() -> dict[str, str]:
    """Skeleton -> the ASCII letter or digit with it; lowercase letters win ("l" over "1", "I")."""
    out: dict[str, str] = {}
    for a in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-":
        skel = skeleton(a)
        if skel is not None:
            out[skel] = a
    return out
