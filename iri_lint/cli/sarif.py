"""SARIF 2.1.0 output as GitHub code scanning reads it: rule metadata from the registry (with
``security`` tags and ``security-severity`` for the bidi and spoofing families), artifact URIs
relative to the repository's top level (percent-encoded bytes of the file name, RFC 3986 sec. 2.1:
a name that is not UTF-8 is a valid URI too), UTF-16 columns, and ``primaryLocationLineHash``."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote_from_bytes

from .. import __version__
from ..files.gitrepo import find_top
from ..rules.model import Family, rule_url
from ..rules.registry import RULES, all_rules
from ..source.model import Spelled
from .baseline import fingerprints
from .report import dump_json
from .results import FileResult, Record, written

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def artifact_uri(path: str, root: Path) -> str:
    """A relative URI reference for ``path`` against ``root`` (%SRCROOT%); absolute file URI outside it."""
    absolute = Path(os.path.abspath(path))
    try:
        rel = absolute.relative_to(root)
    except ValueError:
        return absolute.as_uri()  # (pathlib percent-encodes the bytes of the name)
    return quote_from_bytes(os.fsencode(rel.as_posix()), safe="/")


_SECURITY_FAMILIES = (Family.BIDI, Family.SECURITY)  # Trojan Source, and spoofing/leaks: security alerts
_SECURITY_SEVERITY = {"error": "8.0", "warning": "5.0", "info": "2.0"}  # GitHub: high, medium, low


def _properties(code: str, family: str, section: str, fix_level: str | None, severity: str) -> dict[str, Any]:
    props: dict[str, Any] = {"family": family, "section": section, "fixLevel": fix_level,
                             "tags": [family, "standards"]}
    if family in _SECURITY_FAMILIES:
        props["tags"] = sorted({family, "security"})
        props["security-severity"] = _SECURITY_SEVERITY[severity]
    return props


def utf16_column(line: str, col: int) -> int:
    """The UTF-16 code unit offset of code point ``col`` in ``line`` (what GitHub counts)."""
    head = line[:col]
    return col if head.isascii() else len(head.encode("utf-16-le", "surrogatepass")) // 2


def _rules() -> list[dict[str, Any]]:
    out = []
    for r in all_rules():
        out.append({
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.why},
            "helpUri": rule_url(r.code),
            "help": {"text": f"{r.fix_text} {r.fix_safety_text}".strip()},
            "defaultConfiguration": {"enabled": r.default, "level": _LEVEL[str(r.severity)]},
            "properties": _properties(r.code, r.family, r.section,
                                      None if r.fix_level is None else str(r.fix_level), str(r.severity)),
        })
    return out


_RELATED = 0  # the id of the one related location: where another module spells the finding's character


def _related(s: Spelled, uri: str) -> dict[str, Any]:
    """The related location (SARIF sec. 3.27.22) of a finding placed at the name that brings a piece in: where
    the piece spells the character, its column in UTF-16 code units as the run's ``columnKind`` says."""
    return {"id": _RELATED, "physicalLocation": {
        "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": s.line, "startColumn": (utf16_column(s.before, s.col) if s.before else s.col) + 1}},
        "message": {"text": "piece spelled here"}}


def _linked(message: str) -> str:
    """The message with its ``(spelled in path:line:col)`` an embedded link to the related location (sec. 3.11.6,
    which GitHub shows as a link), every other bracket escaped so as not to read as one."""
    head, sep, tail = message.rpartition(" (spelled in ")
    if not sep or not tail.endswith(")"):
        return message

    def escaped(text: str) -> str:
        return text.replace("[", "\\[").replace("]", "\\]")

    return f"{escaped(head)}{sep}[{escaped(tail[:-1])}]({_RELATED}))"


def _result(r: Record, clear: Record, index: dict[str, int], fp: str, uri: str,
            spelled_uri: str | None = None) -> dict[str, Any]:
    """One result: its text from ``r`` (passwords masked), its place from ``clear`` (the line as it is);
    ``spelled_uri``: the artifact URI of the file spelling its character, placed at a name."""
    text = clear.source_line
    last = utf16_column(text, r.end_col) if r.end_line == r.line else r.end_col  # (the end line's text: not kept)
    region: dict[str, Any] = {"startLine": r.line, "startColumn": utf16_column(text, r.col) + 1,
                              "endLine": r.end_line, "endColumn": last + 1}
    if r.file_region is not None:  # a notebook: the region in the .ipynb text, the cell as a property
        # (.ipynb lines are JSON, almost always ASCII-escaped or ASCII: code points are kept)
        line, col, end_line, end_col = r.file_region
        region = {"startLine": line, "startColumn": col + 1, "endLine": end_line, "endColumn": end_col + 1,
                  "properties": {"cell": r.cell, "cellStartLine": r.line, "cellStartColumn": r.col + 1}}
    res: dict[str, Any] = {
        "ruleId": r.code,
        "ruleIndex": index[r.code],
        "level": _LEVEL.get(r.severity, "warning"),
        "message": {"text": r.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
            "region": region}}],
        # GitHub reads only primaryLocationLineHash; ours ignores line moves, as baselines do
        "partialFingerprints": {"primaryLocationLineHash": fp, "iriLint/v1": fp},
    }
    if r.spelled is not None and spelled_uri is not None:
        res["message"]["text"] = _linked(r.message)
        res["relatedLocations"] = [_related(r.spelled, spelled_uri)]
    if r.fix is not None:
        res["properties"] = {"fix": {"description": r.fix.description, "safety": r.fix.safety,
                                     "level": r.fix.level, "status": r.fix.status,
                                     "reason": r.fix.reason, "value": written(r)[2]}}
    return res


def write_sarif(out: TextIO, results: Sequence[FileResult], records: Sequence[Record], *,
                root: Path | None = None, clear: Sequence[Record] | None = None) -> None:
    """The SARIF log; ``clear``: the records before their passwords were masked (``records`` by default),
    which fingerprints and UTF-16 columns are computed from."""
    if root is None:  # %SRCROOT% is the repository's top level, whatever the current folder
        cwd = os.path.abspath(os.getcwd())
        root = Path(find_top(cwd) or cwd)
    root = Path(os.path.abspath(root))
    index = {r.code: i for i, r in enumerate(RULES)}
    clear = records if clear is None else clear
    fps = fingerprints(clear, root)
    sarif_results = [_result(r, c, index, fp, artifact_uri(r.path, root),
                             None if r.spelled is None else artifact_uri(r.spelled.path, root))
                     for r, c, fp in zip(records, clear, fps, strict=True)]
    # applied fixes are not results (GitHub shows every result as an alert): a count in the run
    fixed = [{"ruleId": a.code, "uri": artifact_uri(a.path, root), "line": a.line}
             for res in results for a in res.applied]
    notifications = [{
        "level": "error",
        "message": {"text": p.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(p.path, root), "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": p.line, "startColumn": p.col + 1}}}],
    } for res in results for p in res.problems]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "iri-lint", "version": __version__, "semanticVersion": __version__,
                            "informationUri": "https://github.com/iri-lint/iri-lint", "rules": _rules()}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
        "columnKind": "utf16CodeUnits",
        "results": sarif_results,
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
    }
    if fixed:
        run["properties"] = {"fixed": fixed}
    out.write(dump_json({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}) + "\n")
