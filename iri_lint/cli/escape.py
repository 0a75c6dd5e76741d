"""What a report never prints raw: characters a reader cannot see, and file names that are not plain text.

A committed report or baseline must not be a Trojan Source file itself, and a file name must not
forge a line of a report or reach the terminal as an escape sequence:

* machine formats write an invisible, reordering or control character as an escape: ``\\u202e`` in
  JSON (the string reads back the same), the same six characters as text where the format has no
  escapes of its own (XML, CSV, workflow commands);
* human formats show it as a visible badge, ``⟨U+202E⟩``, as iri-lint's messages already do;
* a file name that holds such a character, a byte that is not UTF-8 (``os.fsdecode`` made it a
  lone surrogate), a double quote or (on POSIX) a backslash is quoted as git quotes paths
  (``core.quotePath=false``): in double quotes, with C escapes (``\\n``, ``\\t``, ``\\"``,
  ``\\\\``) and octal bytes (``\\033``, ``\\377``) for the rest; SARIF percent-encodes the bytes
  of the name instead (``iri_lint.cli.sarif``).

Every function is linear: one pass, each distinct character classified once.
"""

from __future__ import annotations

import functools
import os
import unicodedata

from ..core.lazy import lazy_regex
from ..core.security import is_default_ignorable

# Cc controls, Cf format (bidi controls, zero-width ...), Cs surrogates, Co private use, Cn unassigned,
# Zl/Zp line and paragraph separators
_HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
_C_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r",
              '"': '\\"', "\\": "\\\\"}
_not_plain = lazy_regex("[^\\x20-\\x7e]")  # what may need a second look: not printable ASCII
_json_not_plain = lazy_regex("[^\\t\\n\\r\\x20-\\x7e]")  # JSON's own whitespace is structure
_surrogate = lazy_regex("[\\ud800-\\udfff]")
_BADGE_OPEN, _BADGE_CLOSE = "\N{MATHEMATICAL LEFT ANGLE BRACKET}", "\N{MATHEMATICAL RIGHT ANGLE BRACKET}"


@functools.lru_cache(maxsize=4096)
def is_hidden(c: str) -> bool:
    """Whether a reader cannot see ``c`` as itself: a control, format (bidi) or private-use character,
    a surrogate or unassigned code point, a line or paragraph separator, a space other than U+0020,
    or a default-ignorable code point (variation selectors, fillers)."""
    if c.isascii():
        return not c.isprintable()
    category = unicodedata.category(c)
    return category in _HIDDEN_CATEGORIES or category == "Zs" or is_default_ignorable(c)


def _json_escape(c: str) -> str:
    code = ord(c)
    if code > 0xFFFF:  # JSON escapes a code point beyond the BMP as its UTF-16 surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def escape_json(text: str) -> str:
    """A JSON text with every hidden character inside its strings written as a ``\\uXXXX`` escape.

    Valid only on JSON text (``json.dumps`` output): outside strings a JSON text is printable ASCII,
    and a ``\\uXXXX`` escape inside a string stands for the same character.
    """
    return _json_not_plain().sub(lambda m: _json_escape(c) if is_hidden(c := m.group()) else c, text)


def escape_text(text: str) -> str:
    """``text`` with every hidden character written as ``\\uXXXX`` (``\\UXXXXXXXX`` beyond the BMP):
    for machine formats that have no escapes of their own (XML cannot even hold most controls)."""
    return _not_plain().sub(lambda m: _text_escape(c) if is_hidden(c := m.group()) else c, text)


def _text_escape(c: str) -> str:
    return f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}"


def badges(text: str) -> str:
    """``text`` for a human format: every hidden character shown as ``⟨U+XXXX⟩``."""
    return _not_plain().sub(lambda m: _badge(c) if is_hidden(c := m.group()) else c, text)


def _badge(c: str) -> str:
    return f"{_BADGE_OPEN}U+{ord(c):04X}{_BADGE_CLOSE}"


def _quoted_char(c: str) -> str:
    """One character of a quoted name: C escape, or its bytes in octal (a lone surrogate from
    ``os.fsdecode`` stands for the byte it could not decode)."""
    if c in _C_ESCAPES:
        return _C_ESCAPES[c]
    if "\udc80" <= c <= "\udcff":
        return f"\\{ord(c) - 0xDC00:03o}"
    return "".join(f"\\{b:03o}" for b in c.encode("utf-8", "surrogatepass"))


_QUOTE_ALWAYS = '"' if os.sep == "\\" else '"\\'  # a backslash is a separator on Windows


def _needs_quote(c: str) -> bool:
    return c in _QUOTE_ALWAYS or is_hidden(c)


def quote_path(path: str) -> str:
    """``path`` for a line of a human format, quoted as git quotes a path when it must be."""
    if path.isascii() and path.isprintable() and not any(c in path for c in _QUOTE_ALWAYS):
        return path
    if not any(_needs_quote(c) for c in set(path)):
        return path
    return '"' + "".join(_quoted_char(c) if _needs_quote(c) else c for c in path) + '"'


def unicode_path(path: str) -> str:
    """``path`` as valid Unicode for a machine format: a byte that is not UTF-8 (a lone surrogate from
    ``os.fsdecode``) becomes U+FFFD, as RFC 7493 (I-JSON) and XML require; hidden characters are left
    to the format's own escaping (:func:`escape_json`, :func:`escape_text`)."""
    return path if path.isascii() else _surrogate().sub("\ufffd", path)
