"""Reporters: text (flake8's format), json, github annotations, statistics."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from ..rules.model import rule_url
from .results import FileResult, Problem, Record


def problem_line(p: Problem) -> str:
    """The one-line diagnostic for a file that could not be checked (printed on stderr)."""
    return f"{p.path}:{p.line}:{p.col + 1}: error: {p.message}"


def where(r: Record) -> str:
    """``line:col`` of a finding (1-based column), ``cell N:line:col`` in a notebook (as ruff writes it)."""
    at = f"{r.line}:{r.col + 1}"
    return at if r.cell is None else f"cell {r.cell}:{at}"


def _fix_note(r: Record, *, fixing: bool, unsafe: bool) -> str:
    """What a finding's fix is, or why it was not applied; unsafe ones only when fixes were asked for."""
    fix = r.fix
    if fix is None:
        return ""
    if fix.status == "available":
        return f"fix ({fix.safety}): {fix.description}"
    if fix.status == "unsafe":
        if fixing:
            return f"unsafe fix not applied (use --unsafe-fixes): {fix.description}"
        return f"unsafe fix (apply with --fix --unsafe-fixes): {fix.description}" if unsafe else ""
    return f"fix not applied, {fix.reason}"


def _width(text: str) -> int:
    """Terminal cells of ``text`` (wide East Asian characters take two, combining marks none)."""
    w = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        w += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return w


def _excerpt(r: Record) -> list[str]:
    line = r.source_line.expandtabs(1)  # tabs count as one column, like flake8's
    visible = "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in line)
    start = _width(visible[: r.col])
    end_col = r.end_col if r.end_line == r.line else len(visible)
    span = max(1, _width(visible[r.col : max(end_col, r.col + 1)]))
    return [f"    {visible}", f"    {' ' * start}{'^' * span}"]


def write_text(out: TextIO, results: Sequence[FileResult], records: Sequence[Record], *,
               show_source: bool, show_fixes: bool, color: bool = False, fixing: bool = False,
               unsafe: bool = False) -> None:
    """flake8's ``path:line:col: CODE message``; excerpts and fix notes on request (and on a terminal).

    Unsafe fixes are mentioned only when fixes were asked for (``fixing``, ``--show-fixes`` or
    ``--unsafe-fixes``, i.e. ``unsafe``): a plain check does not nag about them.
    """
    bold, red, dim, reset = ("\033[1m", "\033[31m", "\033[2m", "\033[0m") if color else ("", "", "", "")
    for r in records:
        out.write(f"{bold}{r.path}{reset}:{where(r)}: {red}{r.code}{reset} {r.message}\n")
        if show_source:
            for line in _excerpt(r):
                out.write(line + "\n")
        note = _fix_note(r, fixing=fixing, unsafe=unsafe or show_fixes) if (show_fixes or show_source) else ""
        if note:
            out.write(f"    {dim}{note}{reset}\n")
    for res in results:
        for a in res.applied:
            desc = a.fix.description if a.fix else ""
            out.write(f"{a.path}:{where(a)}: {a.code} fixed ({a.fix.safety if a.fix else ''}): "
                      f"{desc}\n")


def to_json(r: Record) -> dict[str, object]:
    """One finding: 1-based lines and columns (columns count code points), end exclusive."""
    fix: dict[str, object] | None = None
    if r.fix is not None:
        fix = {"description": r.fix.description, "safety": r.fix.safety, "level": r.fix.level,
               "status": r.fix.status, "reason": r.fix.reason or None, "value": r.fix.value,
               "edits": [{"start": s, "end": e, "replacement": t, "file": _file_place(place)}
                         for (s, e, t), place in zip(r.fix.edits, r.fix.places or [None] * len(r.fix.edits),
                                                     strict=True)]}
    return {"path": r.path, "code": r.code, "name": r.name, "message": r.message, "severity": r.severity,
            "start": {"line": r.line, "column": r.col + 1}, "end": {"line": r.end_line, "column": r.end_col + 1},
            "value": r.value, "url": rule_url(r.code), "fix": fix, "cell": r.cell}


def _file_place(place: tuple[int, int, int, int] | None) -> dict[str, dict[str, int]] | None:
    """An edit's place in the file, as the finding's own: 1-based lines and columns, end exclusive."""
    if place is None:
        return None
    line, col, end_line, end_col = place
    return {"start": {"line": line, "column": col + 1}, "end": {"line": end_line, "column": end_col + 1}}


def write_json(out: TextIO, results: Sequence[FileResult], records: Sequence[Record]) -> None:
    applied = [to_json(a) for res in results for a in res.applied]
    problems = [{"path": p.path, "line": p.line, "column": p.col + 1, "message": p.message}
                for res in results if (p := res.problem) is not None]
    doc = {"findings": [to_json(r) for r in records], "fixed": applied, "errors": problems}
    json.dump(doc, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _gh_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def write_github(out: TextIO, results: Sequence[FileResult], records: Sequence[Record]) -> None:
    """GitHub Actions workflow commands (``::error file=...::message``)."""
    level = {"error": "error", "warning": "warning", "info": "notice"}
    for r in records:
        line, col, end_line, end_col = r.file_region or (r.line, r.col, r.end_line, r.end_col)  # notebooks: the file
        props = (f"file={_gh_escape(r.path, prop=True)},line={line},col={col + 1},endLine={end_line},"
                 f"endColumn={end_col + 1},title={_gh_escape(f'{r.code} {r.name}', prop=True)}")
        out.write(f"::{level.get(r.severity, 'warning')} {props}::{_gh_escape(f'{r.code} {r.message}')}\n")
    for res in results:
        if (p := res.problem) is not None:
            out.write(f"::error file={_gh_escape(p.path, prop=True)},line={p.line},col={p.col + 1},"
                      f"title=iri-lint::{_gh_escape(p.message)}\n")


def write_statistics(out: TextIO, records: Sequence[Record]) -> None:
    """Counts per rule, most frequent first, with whether a fix exists."""
    counts = Counter(r.code for r in records)
    names = {r.code: r.name for r in records}
    fixable = {r.code for r in records if r.fix is not None and r.fix.status == "available"}
    for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        mark = "[*]" if code in fixable else "   "
        out.write(f"{n:>6}  {code}  {mark} {names[code]}\n")
