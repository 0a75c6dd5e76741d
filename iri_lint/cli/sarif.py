"""SARIF 2.1.0 output: rule metadata from the registry, relative artifact URIs, code point columns."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from .. import __version__
from ..rules.catalog import RULES
from ..rules.model import rule_url
from .baseline import fingerprints
from .run import FileResult, Record

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def artifact_uri(path: str, root: Path) -> str:
    """A relative URI reference for ``path`` against ``root`` (%SRCROOT%); absolute file URI outside it."""
    absolute = Path(os.path.abspath(path))
    try:
        rel = absolute.relative_to(root)
    except ValueError:
        return absolute.as_uri()
    return quote(rel.as_posix(), safe="/")


def _rules() -> list[dict[str, Any]]:
    out = []
    for r in RULES:
        out.append({
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.why},
            "helpUri": rule_url(r.code),
            "help": {"text": f"{r.fix_text} {r.fix_safety_text}".strip()},
            "defaultConfiguration": {"enabled": r.default, "level": _LEVEL[str(r.severity)]},
            "properties": {"family": r.family, "section": r.section,
                           "fixLevel": None if r.fix_level is None else str(r.fix_level)},
        })
    return out


def _result(r: Record, index: dict[str, int], fp: str, uri: str) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": r.line, "startColumn": r.col + 1, "endLine": r.end_line,
                              "endColumn": r.end_col + 1}
    if r.file_region is not None:  # a notebook: the region in the .ipynb text, the cell as a property
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
        "partialFingerprints": {"iriLint/v1": fp},
    }
    if r.fix is not None:
        res["properties"] = {"fix": {"description": r.fix.description, "safety": r.fix.safety,
                                     "level": r.fix.level, "status": r.fix.status,
                                     "reason": r.fix.reason, "value": r.fix.value}}
    return res


def write_sarif(out: TextIO, results: Sequence[FileResult], records: Sequence[Record], *,
                root: Path | None = None) -> None:
    root = Path(os.path.abspath(root or Path.cwd()))
    index = {r.code: i for i, r in enumerate(RULES)}
    fps = fingerprints(records, root)
    sarif_results = [_result(r, index, fp, artifact_uri(r.path, root)) for r, fp in zip(records, fps, strict=True)]
    for res in results:
        for a in res.applied:
            item = _result(a, index, "", artifact_uri(a.path, root))
            item.pop("partialFingerprints")
            item["kind"] = "pass"
            item["level"] = "none"
            item["message"] = {"text": f"Fixed: {a.message}"}
            sarif_results.append(item)
    notifications = [{
        "level": "error",
        "message": {"text": p.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(p.path, root), "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": p.line, "startColumn": p.col + 1}}}],
    } for res in results if (p := res.problem) is not None]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "iri-lint", "version": __version__, "semanticVersion": __version__,
                            "informationUri": "https://github.com/iri-lint/iri-lint", "rules": _rules()}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": sarif_results,
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
    }
    json.dump({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, out, ensure_ascii=False, indent=2)
    out.write("\n")
