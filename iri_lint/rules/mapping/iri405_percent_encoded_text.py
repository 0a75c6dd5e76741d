"""IRI405 percent-encoded-text: Percent-encoded UTF-8 text that reads better as an IRI."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from ...core.bidi import bidi_problems
from ...core.mapping import may_decode
from ...core.scanner import scan
from ...core.security import is_default_ignorable
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Raw, Rule, Severity, UseContext, with_edits
from ..normalization.shared import step_changes

RULE = Rule(
    code="IRI405",
    name="percent-encoded-text",
    family=Family.MAPPING,
    summary="Percent-encoded UTF-8 text that reads better as an IRI",
    section="RFC 3987 sec. 3.2",
    severity=Severity.INFO,
    default=False,
    fix_level=FixLevel.SYNTAX,
    what=("A run of percent-encoded octets that decodes as UTF-8 to characters an IRI may hold as they are "
          "(`%E6%97%A5` for `日`), in an IRI with a scheme and no syntax errors; the fix shows the characters "
          "(URI-to-IRI conversion). Not right-to-left text whose component would then break sec. 4.2 "
          "(`ab%D7%90%D7%91`: `abאב` mixes directions, and IRI204's fix encodes it again), nor full-width or "
          "half-width forms (`%EF%BC%A1` for `Ａ`: sec. 3.2 step 4 keeps encoded what sec. 6.1 b says to avoid) "
          "or invisible characters (`%C2%AD`, a soft hyphen, which IRI505 reports shown), "
          "nor a combining mark that would leave the IRI out of NFC (`cafe%CC%81`: sec. 5.3.2.2, IRI301), nor a "
          "compatibility character that would leave it out of NFKC (`%EF%AC%81le` for `ﬁle`: IRI302)."),
    why="IRIs exist so that people can read them; `%E6%97%A5%E6%9C%AC` is `日本`.",
    fix_text="Use the IRI form (URI-to-IRI conversion, sec. 3.2).",
    valid=(Example("https://example.com/a%2Fb"), Example("https://example.com/%EF%BC%A1%EF%BC%A2"),
           Example("https://example.com/cafe%CC%81"), Example("https://example.com/%EF%AC%81le"),
           Example("https://example.com/pay%C2%ADpal")),
    invalid=(Example("https://example.com/%E6%97%A5%E6%9C%AC", "https://example.com/日本",
                     context=UseContext.DEREFERENCED),),
)

MESSAGE = "{old} is the UTF-8 of {new!r}; the IRI can show it as text (RFC 3987 sec. 3.2)"


def keep(old: str, new: str) -> bool:
    """Escapes only: the ladder also encodes literal characters, which other rules report."""
    return "%" in old


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of escaped UTF-8 that reads as text, where the text would not break sec. 4.2."""
    text = facts.ref.text
    for r in step_changes(facts, "percent-nonascii", MESSAGE, keep):
        if r.edits is None or not (_breaks_bidi(text, r.edits[0]) or _leaves_nfc(text, r.edits)
                                   or _avoided(r.edits)):
            yield r


def _avoided(edits: tuple[Edit, ...]) -> bool:
    """Whether the decoded text holds what sec. 6.1 b says to avoid, which URI-to-IRI conversion keeps encoded
    (``may_decode``: a full-width or half-width form, ``%EF%BC%A1`` for ``Ａ``), or an invisible character (a
    default-ignorable one, ``%C2%AD`` for a soft hyphen, which IRI505 would then report: fixtures244 C)."""
    return any(not may_decode(c, in_query=True) or is_default_ignorable(c)
               for e in edits for c in e.replacement if c >= "\x80")


def _leaves_nfc(text: str, edits: tuple[Edit, ...]) -> bool:
    """Whether the decoded text would take an IRI in NFC (or NFKC) out of it (a combining mark after an ASCII letter,
    ``cafe%CC%81``; a compatibility character, ``%EF%AC%81`` for the ligature ``ﬁ``): sec. 5.3.2.2 wants IRIs
    created "as character normalized as possible (i.e., NFC or even NFKC)", and IRI301 or IRI302 would report the
    fix's result (fixtures241 #5)."""
    new = with_edits(text, edits)
    return any(unicodedata.is_normalized(form, text) and not unicodedata.is_normalized(form, new)
               for form in ("NFC", "NFKC"))


def _breaks_bidi(text: str, edit: Edit) -> bool:
    """Whether showing right-to-left characters would make their component break RFC 3987 sec. 4.2 (mixed with
    left-to-right text, or a weak character at its edge): sec. 3.2 step 4 keeps what is not appropriate so
    encoded, and IRI204's or IRI205's fix would encode it again (``ab%D7%90%D7%91``, not ``abאב``)."""
    new = edit.replacement
    if not any(unicodedata.bidirectional(c) in ("R", "AL") for c in new):
        return False
    end = edit.start + len(new)
    problems = bidi_problems(scan(text[: edit.start] + new + text[edit.end :]))
    return any(p.component.start <= end and edit.start <= p.component.end for p in problems)
