"""Text from the checked code, made safe and legible for the HTML report.

Everything is HTML-escaped; a character a reader cannot see (controls, bidi formatting, private
use, odd spaces: ``iri_lint.cli.escape.is_hidden``) is a ``U+XXXX`` badge, never rendered; and a
letter outside the script of the rest of its word (UTS #39 sec. 5: the Cyrillic ``а`` of
``pаypal``) is marked with its code point and script.
"""

from __future__ import annotations

import unicodedata

from ..core.lazy import lazy_regex
from ..core.security import foreign_letters, script_name
from .escape import is_hidden

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})
_word = lazy_regex("\\w+")


def attr(text: str) -> str:
    """``html.escape(text, quote=True)``, without importing ``html`` (and its entity tables) at start-up."""
    return text.translate(_ESCAPES)


def spoofs(text: str) -> frozenset[int]:
    """Indexes of the letters of ``text`` written in another script than the rest of their word."""
    if text.isascii():
        return frozenset()
    out: set[int] = set()
    for m in _word().finditer(text):
        word = m.group()
        if not word.isascii():
            out.update(m.start() + i for i in foreign_letters(word))
    return frozenset(out)


def _badge(c: str) -> str:
    label = f"U+{ord(c):04X}"
    return f'<span class="cc" title="{label} {attr(unicodedata.name(c, ""))}">{label}</span>'


def _spoof(c: str) -> str:
    label, script = f"U+{ord(c):04X}", script_name(c)
    return (f'<span class="spoof" title="{label} {attr(unicodedata.name(c, ""))} ({attr(script)} script)">'
            f'{attr(c)}<span class="cp">{label} {attr(script)}</span></span>')


def show(text: str, start: int = 0, end: int | None = None, marks: frozenset[int] | None = None) -> str:
    """``text[start:end]`` for the page: escaped, hidden characters as badges, foreign letters marked.

    ``marks``: :func:`spoofs` of the whole ``text`` (a word is judged whole even when only part of it
    is shown); computed here when not given.
    """
    end = len(text) if end is None else end
    part = text[start:end]
    if part.isascii() and part.isprintable():
        return attr(part)
    if marks is None:
        marks = spoofs(text)
    out = []
    for i in range(start, end):
        c = text[i]
        if is_hidden(c) and c != "\t":
            out.append(_badge(c))
        elif i in marks:
            out.append(_spoof(c))
        else:
            out.append(attr(c))
    return "".join(out)
