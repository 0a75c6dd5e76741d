"""Passwords stay secret: the password part of a userinfo is masked in every report and in the baseline.

RFC 3986 sec. 3.2 and appendix B: after ``//`` the authority runs to the next ``/``, ``?`` or ``#``;
its userinfo ends at its last ``@`` and the password follows the userinfo's first ``:``
(sec. 3.2.1). Each character of a password is masked by one ``*``, so every column and value
offset a report gives (carets, marks, fix edits) stays right; the length shows, the characters do
not. Findings are identified (baseline and SARIF fingerprints) by their values before masking, so
a baseline matches with and without ``--show-secrets`` and a changed password is a new finding.

Every function is linear in its text: after a ``//`` the scan stops at the next ``/``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core.bidi import visible
from ..core.lazy import lazy_regex
from .results import FileResult, Record

MASK = "*"
VALUE_STOPS = "/?#"  # a value: the authority ends where RFC 3986 appendix B ends it
LINE_STOPS = "/?#\"'\r\n"  # a line of source or a message: a quote ends the literal too
_authority = {stops: lazy_regex(f"[^{re.escape(stops)}]*+")
              for stops in (VALUE_STOPS, LINE_STOPS)}


def password_spans(text: str, stops: str = VALUE_STOPS) -> list[tuple[int, int]]:
    """[start, end) of every non-empty password in an authority of ``text`` (RFC 3986 sec. 3.2.1)."""
    spans: list[tuple[int, int]] = []
    if "@" not in text:
        return spans
    authority = _authority[stops]()
    pos = text.find("//")
    while pos >= 0:
        start = pos + 2
        match = authority.match(text, start)
        end = match.end() if match is not None else start
        at = text.rfind("@", start, end)
        colon = text.find(":", start, at) if at >= 0 else -1
        if colon >= 0 and colon + 1 < at:
            spans.append((colon + 1, at))
        pos = text.find("//", end)
    return spans


def _mask(text: str, spans: Sequence[tuple[int, int]]) -> str:
    if not spans:
        return text
    out, pos = [], 0
    for start, end in spans:
        out.append(text[pos:start])
        out.append(MASK * (end - start))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact(text: str, stops: str = VALUE_STOPS) -> str:
    """``text`` with every password of an authority in it masked."""
    return _mask(text, password_spans(text, stops))


def _quoted_forms(password: str) -> list[str]:
    """How a message may quote a password: as it is, with invisible characters marked, and as repr()."""
    shown = visible(password)
    return list(dict.fromkeys((password, shown, repr(shown)[1:-1])))


def _in_message(text: str, passwords: Sequence[str]) -> str:
    """A message or fix description: the authorities in it masked, and every quoted component that
    ends with a password (``'hunter2'``, ``'shop:hunter2'``, ``'hunter2hu…'`` cut at 60 characters)."""
    text = redact(text, LINE_STOPS)
    for password in passwords:
        for form in _quoted_forms(password):
            text = _mask_quoted(text, form)
    return text


def _mask_quoted(text: str, form: str) -> str:
    """``form`` masked where it closes a quoted component: after a quote or ``:``, before a quote; a
    prefix of it before the ``…`` of a cut one."""
    if not form:
        return text
    spans = []
    pos = text.find(form)
    while pos >= 0:
        end = pos + len(form)
        if pos > 0 and text[pos - 1] in "'\":" and end < len(text) and text[end] in "'\"":
            spans.append((pos, end))
        pos = text.find(form, end)
    cut = text.find("…")
    while cut >= 0:
        opening = max(text.rfind(q, 0, cut) for q in ("'", '"', ":"))
        if 0 <= opening < cut - 1 and form.startswith(text[opening + 1 : cut]):
            spans.append((opening + 1, cut))
        cut = text.find("…", cut + 1)
    return _mask(text, sorted(set(spans)))


def record(r: Record) -> Record:
    """``r`` with its passwords masked: in the value, the source line, the message and the fix."""
    spans = password_spans(r.value)
    if not spans and "@" not in r.source_line and (r.fix is None or "@" not in r.fix.value):
        return r
    passwords = [r.value[s:e] for s, e in spans]
    fix = r.fix
    if fix is not None:
        fix = fix._replace(description=_in_message(fix.description, passwords), value=redact(fix.value),
                           reason=_in_message(fix.reason, passwords),
                           edits=tuple((s, e, MASK * len(t) if _touches(s, e, spans) else t)
                                       for s, e, t in fix.edits))
    return r._replace(value=_mask(r.value, spans), source_line=redact(r.source_line, LINE_STOPS),
                      message=_in_message(r.message, passwords), fix=fix)


def _touches(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any((start < e and end > s) or s <= start < e for s, e in spans)


def records(rs: Sequence[Record]) -> list[Record]:
    return [record(r) for r in rs]


def results(rs: Sequence[FileResult]) -> list[FileResult]:
    """The file results with the fixes they applied and their diffs masked (``--diff`` shows source)."""
    out = []
    for res in rs:
        if res.applied or "@" in res.diff:
            more = res.more_problems
            res = FileResult(res.path, res.records, records(res.applied), res.problem,
                             _diff(res.diff), res.new_bytes, res.noqa_added)
            res.more_problems = more
        out.append(res)
    return out


def _diff(diff: str) -> str:
    return "".join(redact(line, LINE_STOPS) for line in diff.splitlines(keepends=True)) if "@" in diff else diff


