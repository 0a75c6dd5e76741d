"""Notations that are no IRIs, though they may look like one or stand where one is expected (docs/design.md,
"Which literals are IRIs"): a container image, a Python type, a redaction marker, a URL's syntax with optional
parts, a requirement with extras, text for a terminal; and what the literal scan takes for no URL (``no_url``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from iri_lint.source.candidates import (
    SEPARATOR,
    embedded_iris,
    is_delimited,
    looks_like_prose,
    looks_like_regex,
    markdown_link,
)

__all__ = ["REDACTED", "has_optional_part", "is_other_notation", "is_redacted", "is_type_expression", "no_url",
           "opens_no_reference", "starts_as_reference"]


def is_other_notation(value: str, holes: Sequence[tuple[int, int]] = ()) -> bool:
    """A notation that URL-named values hold which is no IRI: a container image behind skopeo's and GitHub
    Actions' transport prefix, ``docker://alpine:3.19``, whose ``:`` starts a tag and ``@`` a digest (``docker``
    is no URI scheme, IANA or in use); a Python type written as a string, ``List[str]``; SQLite's name for a
    database in memory, ``:memory:``, which a database's ``url`` may be, or a keyword a tool takes where it takes
    URLs, ``:ytfav`` (yt-dlp's): a ``:`` and a word, which no URI reference starts with (RFC 3986 sec. 3.1, 4.2); a
    redaction marker where the URL was, ``[REDACTED]`` (``is_redacted``, only ``holes`` after it); a text that
    opens as no URI reference can (``opens_no_reference``); a URL's syntax with optional parts in brackets
    (``has_optional_part``); text for a terminal, whose ANSI escape sequences color it
    (``f"http://{host}:{port}\\033[0m"``: ECMA-48 sec. 5.4's CSI, ESC ``[``; no IRI holds an ESC); Slack's
    control sequence that a ``<...|text>`` link holds (``!date^1392734382^{date_short}``, ``!subteam^ID``:
    ``!``, a word, fields after ``^``), which slack_sdk gives its ``Link(url=...)``."""
    return value[:9].lower() == "docker://" or _COLON_WORD.fullmatch(value) is not None or \
        is_type_expression(value) or (value[:1] == "!" and _SLACK_COMMAND.match(value) is not None) or \
        is_redacted(value, holes) or opens_no_reference(value) or ("[" in value and has_optional_part(value)) or \
        ("\x1b[" in value and _ANSI_CSI.search(value) is not None)


_SLACK_COMMAND = re.compile(r"![a-z]++\^")
_COLON_WORD = re.compile(r":[A-Za-z][A-Za-z0-9_\-]*+:?")  # (not ":8080", a port: the host left out)
_OPTIONAL_PART = re.compile(r"\[[:/?&#][^\[\]]*+\]")


def has_optional_part(value: str) -> bool:
    """A URL's syntax written with its optional parts in brackets (``mysql://user:password@host[:port][/dbname]``,
    ``{c}[/?use_ssl=true|false]``: a form's placeholder, a help text): a ``[`` right before a delimiter, after a
    word, a placeholder or another such part; an IP literal follows ``//`` or ``@`` (RFC 3986 sec. 3.2.2)."""
    return any(m.start() and (value[m.start() - 1].isalnum() or value[m.start() - 1] in "}])")
               for m in _OPTIONAL_PART.finditer(value))


# a redaction marker: a bracketed word ([Filtered], [REDACTED]; "[a]" and "[0]" are an index) or a run of asterisks
# (``placeholders`` reads it in an IRI's parts; here, where it stands for a whole value)
REDACTED = re.compile(r"\[[A-Za-z][A-Za-z_\- ]{2,}+\]|\*{3,}+")


def starts_as_reference(text: str, holes: Sequence[tuple[int, int]] = ()) -> bool:
    """Whether a value starts with known text of its own: not a hole (which may hold a scheme), whitespace (text
    around a URL, IRI104's) or a redaction marker standing for the whole URL. An API with no base URL that is
    given such a value without a scheme cannot resolve it (IRI116)."""
    return bool(text) and not text[0].isspace() and all(a for a, _ in holes) and not is_redacted(text, holes)


def is_redacted(text: str, holes: Sequence[tuple[int, int]] = ()) -> bool:
    """A redaction marker standing for a whole URL (``"[REDACTED]"``, a sanitizer's ``"[redacted]" + suffix``):
    placeholder text, no URL; only holes may follow it."""
    m = REDACTED.match(text)
    if m is None:
        return False
    at = m.end()
    for start, end in sorted(holes):
        if start == at:
            at = end
    return at == len(text)


_ANSI_CSI = re.compile(r"\x1b\[[0-?]*+[ -/]*+[@-~]")  # ESC [, parameters, intermediates, a final byte


_IP_LITERAL_FIRST = frozenset("0123456789abcdefABCDEF:vV")


def opens_no_reference(value: str) -> bool:
    """A text no URI reference can start: a ``[`` opens only an IP literal, after ``//`` (RFC 3986 sec. 3.2.2), whose
    first character is an IPv6 address's (a hex digit or ``:``) or IPvFuture's ``v``; a bracketed word first
    (``[http[s]://]open.spotify.com/{type}``, ``[object Object]``) is a notation or a label. Not a Markdown link,
    whose destination is an IRI of its own (``embedded_iris``)."""
    return value[:1] == "[" and len(value) > 1 and value[1] not in _IP_LITERAL_FIRST and markdown_link(value) is None


_TYPE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*+(?:\.[A-Za-z_][A-Za-z0-9_]*+)*+")
_CLOSING = {"[": "]", "(": ")"}


def is_type_expression(value: str) -> bool:
    """``List[str]``, ``dict(str, str)``: a Python type as a string (a forward reference; an OpenAPI client's
    ``openapi_types``, whose keys are its fields' names, ``{"urls": "list[str]"}``), not a relative IRI: names
    applied to names in brackets. Read in one pass (no regex over nesting)."""
    if "[" not in value and "(" not in value:
        return False  # (a lone name is a valid relative reference anyway)
    closers: list[str] = []
    i, n = 0, len(value)
    while True:
        m = _TYPE_NAME.match(value, i)
        if m is None:
            return False
        i = m.end()
        if i < n and value[i] in _CLOSING:
            closers.append(_CLOSING[value[i]])
            i += 1
            continue
        while i < n and closers and value[i] == closers[-1]:
            closers.pop()
            i += 1
        if i == n:
            return not closers
        if value[i] != "," or not closers:
            return False
        i += 2 if value.startswith(", ", i) else 1


def no_url(text: str, holes: Sequence[tuple[int, int]]) -> bool:
    """What the literal scan takes for no URL outside a URL API's argument: a regex, markup, another notation,
    one holding IRIs of its own, prose."""
    return looks_like_regex(text) or is_delimited(text, holes) or is_other_notation(text, holes) or \
        bool(embedded_iris(text)) or (SEPARATOR.search(text) is not None and looks_like_prose(text, url_context=True))
