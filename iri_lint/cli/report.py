"""Reporters: text (flake8's format; concise and full), json, github annotations, statistics.

Human formats show file names quoted as git quotes them and invisible characters as ``⟨U+XXXX⟩``
badges; machine formats escape them (``iri_lint.cli.escape``).
"""

from __future__ import annotations

import contextlib
import json
import os
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from ..rules.model import rule_url
from .escape import badges, escape_json, escape_text, quote_path, unicode_path
from .results import FileResult, Problem, Record, written


def problem_line(p: Problem) -> str:
    """The one-line diagnostic for a file that could not be checked (printed on stderr)."""
    return f"{quote_path(p.path)}:{p.line}:{p.col + 1}: {p.code or 'error:'} {badges(p.message)}"


def where(r: Record) -> str:
    """``line:col`` of a finding (1-based column), ``cell N:line:col`` in a notebook (as ruff writes it)."""
    at = f"{r.line}:{r.col + 1}"
    return at if r.cell is None else f"cell {r.cell}:{at}"


def _quoted(text: str) -> str:
    return "'" + badges(text) + "'"


MAX_EDITS_SHOWN = 3


def fix_change(r: Record) -> str:
    """What a fix writes: each edit as ``'old' -> 'new'`` (the value's characters, not a description)."""
    fix = r.fix
    if fix is None or not fix.edits:
        return ""
    value, edits, _ = written(r)
    shown = [_edit_shown(value[s:e], t) if e > s else f"insert {_quoted(t)} at {s}"
             for s, e, t in edits[:MAX_EDITS_SHOWN]]
    more = len(fix.edits) - MAX_EDITS_SHOWN
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _edit_shown(old: str, new: str) -> str:
    """``'old' -> 'new'``; by code points where the two look alike (NFC's ``'e\u0301' -> 'é'``: fixtures244)."""
    if old != new and unicodedata.normalize("NFC", old) == unicodedata.normalize("NFC", new):
        return f"{_code_points(old)} -> {_code_points(new)}"
    return f"{_quoted(old)} -> {_quoted(new)}"


def _code_points(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text[:8]) + (" ..." if len(text) > 8 else "")


def _fix_note(r: Record, *, fixing: bool, unsafe: bool) -> str:
    """What a finding's fix writes, or why it was not applied; unsafe ones only when fixes were asked for."""
    fix = r.fix
    if fix is None:
        return ""
    change = fix_change(r) or badges(fix.description)
    if fix.status == "available":
        return f"fix ({fix.safety}): {change}"
    if fix.status == "unsafe":
        if fixing:
            return f"unsafe fix not applied (use --unsafe-fixes): {change}"
        return f"unsafe fix (apply with --fix --unsafe-fixes): {change}" if unsafe else ""
    return f"fix not applied, {badges(fix.reason)}: {change}"


def text_width(text: str) -> int:
    """Terminal cells of ``text`` (wide East Asian characters take two, combining marks none)."""
    w = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        w += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return w


def _excerpt(r: Record) -> list[str]:
    """The finding's line, invisible characters as badges, and a caret under its characters."""
    line = r.source_line.replace("\t", " ")  # tabs count as one column, like flake8's
    end_col = r.end_col if r.end_line == r.line else len(line)
    head, marked, tail = line[: r.col], line[r.col : max(end_col, r.col + 1)], line[max(end_col, r.col + 1) :]
    head, marked, tail = badges(head), badges(marked), badges(tail)
    return [f"    {head}{marked}{tail}", f"    {' ' * text_width(head)}{'^' * max(1, text_width(marked))}"]


def write_text(out: TextIO, results: Sequence[FileResult], records: Sequence[Record], *,
               show_source: bool, show_fixes: bool, color: bool = False, fixing: bool = False,
               unsafe: bool = False) -> None:
    """flake8's ``path:line:col: CODE message``; excerpts and fix notes on request (and on a terminal).

    Unsafe fixes are mentioned only when fixes were asked for (``fixing``, ``--show-fixes`` or
    ``--unsafe-fixes``, i.e. ``unsafe``): a plain check does not nag about them.
    """
    bold, red, dim, reset = ("\033[1m", "\033[31m", "\033[2m", "\033[0m") if color else ("", "", "", "")
    for r in records:
        out.write(f"{bold}{quote_path(r.path)}{reset}:{where(r)}: {red}{r.code}{reset} {badges(r.message)}\n")
        if show_source:
            for line in _excerpt(r):
                out.write(line + "\n")
        note = _fix_note(r, fixing=fixing, unsafe=unsafe or show_fixes) if (show_fixes or show_source) else ""
        if note:
            out.write(f"    {dim}{note}{reset}\n")
    for res in results:
        for a in res.applied:
            change = fix_change(a) or (badges(a.fix.description) if a.fix else "")
            out.write(f"{quote_path(a.path)}:{where(a)}: {a.code} fixed ({a.fix.safety if a.fix else ''}): "
                      f"{change}\n")


def to_json(r: Record) -> dict[str, object]:
    """One finding: 1-based lines and columns (columns count code points), end exclusive."""
    fix: dict[str, object] | None = None
    value, edits, fixed = written(r)  # holes as the source writes them: ``{user}``, not what was checked
    if r.fix is not None:
        fix = {"description": r.fix.description, "safety": r.fix.safety, "level": r.fix.level,
               "status": r.fix.status, "reason": r.fix.reason or None, "value": fixed,
               "edits": [{"start": s, "end": e, "replacement": t, "file": _file_place(place)}
                         for (s, e, t), place in zip(edits, r.fix.places or [None] * len(edits), strict=True)]}
    return {"path": unicode_path(r.path), "code": r.code, "name": r.name, "message": r.message, "severity": r.severity,
            "start": {"line": r.line, "column": r.col + 1}, "end": {"line": r.end_line, "column": r.end_col + 1},
            "value": value, "url": rule_url(r.code), "fix": fix, "cell": r.cell, "spelled_in": _spelled_in(r)}


def _spelled_in(r: Record) -> dict[str, object] | None:
    """Where another module spells the character of a finding placed at the name bringing it in: its file, named
    as the finding's ``path`` is (absolute when that is, else from the current folder), and its 1-based line and
    column (code points)."""
    s = r.spelled
    if s is None:
        return None
    path = s.path
    if not os.path.isabs(r.path):
        with contextlib.suppress(ValueError):  # (on another drive: absolute)
            path = os.path.relpath(path)
    return {"path": unicode_path(path), "line": s.line, "column": s.col + 1}


def _file_place(place: tuple[int, int, int, int] | None) -> dict[str, dict[str, int]] | None:
    """An edit's place in the file, as the finding's own: 1-based lines and columns, end exclusive."""
    if place is None:
        return None
    line, col, end_line, end_col = place
    return {"start": {"line": line, "column": col + 1}, "end": {"line": end_line, "column": end_col + 1}}


def problem_json(p: Problem) -> dict[str, object]:
    return {"path": unicode_path(p.path), "line": p.line, "column": p.col + 1, "message": p.message,
            **({"code": p.code} if p.code else {})}


def dump_json(value: object, indent: int | None = 2) -> str:
    """JSON text with every invisible or reordering character escaped (``\\u202e``): the same value,
    and a file that is no Trojan Source itself."""
    return escape_json(json.dumps(value, ensure_ascii=False, indent=indent))


def write_json(out: TextIO, results: Sequence[FileResult], records: Sequence[Record]) -> None:
    applied = [to_json(a) for res in results for a in res.applied]
    problems = [problem_json(p) for res in results for p in res.problems]
    doc = {"findings": [to_json(r) for r in records], "fixed": applied, "errors": problems}
    out.write(dump_json(doc) + "\n")


def write_json_lines(out: TextIO, results: Sequence[FileResult], records: Sequence[Record]) -> None:
    """``json-lines``: one finding per line, each the object ``json`` lists (ruff's json-lines)."""
    for r in records:
        out.write(dump_json(to_json(r), indent=None) + "\n")


def write_pylint(out: TextIO, results: Sequence[FileResult], records: Sequence[Record]) -> None:
    """pylint's ``path:line: [CODE] message`` (ruff's pylint format); one line per finding, always."""
    for r in records:
        out.write(f"{quote_path(r.path)}:{r.line}: [{r.code}] {escape_text(r.message)}\n")


def _gh_escape(text: str, *, prop: bool = False) -> str:
    text = escape_text(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def write_github(out: TextIO, results: Sequence[FileResult], records: Sequence[Record]) -> None:
    """GitHub Actions workflow commands (``::error file=...::message``)."""
    level = {"error": "error", "warning": "warning", "info": "notice"}
    for r in records:
        line, col, end_line, end_col = r.file_region or (r.line, r.col, r.end_line, r.end_col)  # notebooks: the file
        props = (f"file={_gh_escape(unicode_path(r.path), prop=True)},line={line},col={col + 1},endLine={end_line},"
                 f"endColumn={end_col + 1},title={_gh_escape(f'{r.code} {r.name}', prop=True)}")
        out.write(f"::{level.get(r.severity, 'warning')} {props}::{_gh_escape(f'{r.code} {r.message}')}\n")
    for res in results:
        for p in res.problems:
            out.write(f"::error file={_gh_escape(unicode_path(p.path), prop=True)},line={p.line},col={p.col + 1},"
                      f"title=iri-lint::{_gh_escape(p.message)}\n")


def write_statistics(out: TextIO, records: Sequence[Record]) -> None:
    """Counts per rule, most frequent first, with whether a fix exists."""
    counts = Counter(r.code for r in records)
    names = {r.code: r.name for r in records}
    fixable = {r.code for r in records if r.fix is not None and r.fix.status == "available"}
    for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        mark = "[*]" if code in fixable else "   "
        out.write(f"{n:>6}  {code}  {mark} {names[code]}\n")
