"""Findings -> LSP diagnostics."""

from __future__ import annotations

from lsprotocol import types

from iri_lint.lint import SourceError, SourceFinding
from iri_lint.rules.model import Severity

from ..rules.model import rule_url
from .positions import LineIndex

SOURCE = "iri-lint"

SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


def to_diagnostic(sf: SourceFinding, index: LineIndex) -> types.Diagnostic:
    """One finding as a diagnostic with its exact range, code, severity and rule link."""
    f = sf.finding
    start = index.at(sf.start)
    end = index.at(sf.end) if (sf.end.line, sf.end.col) > (sf.start.line, sf.start.col) else start
    fix = f.fix
    return types.Diagnostic(
        range=types.Range(start=start, end=end),
        message=f.message,
        severity=SEVERITY.get(f.severity, types.DiagnosticSeverity.Warning),
        code=f.code,
        code_description=types.CodeDescription(href=rule_url(f.code)),
        source=SOURCE,
        data={"name": f.name, "fix": None if fix is None else fix.safety.value},
    )


def error_diagnostic(err: SourceError, index: LineIndex) -> types.Diagnostic:
    """The one information diagnostic for a file iri-lint cannot check (e.g. a syntax error)."""
    pos = types.Position(line=max(err.line - 1, 0), character=0)
    return types.Diagnostic(
        range=types.Range(start=pos, end=pos),
        message=f"iri-lint did not check this file: {err}",
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
    )
