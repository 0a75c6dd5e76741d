"""Findings -> LSP diagnostics."""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import from_fs_path

from iri_lint.lint import SourceError, SourceFinding
from iri_lint.rules.model import Severity
from iri_lint.source.model import Spelled

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
        related_information=None if sf.spelled is None else [_spelled_here(sf.spelled, index)],
    )


def _spelled_here(s: Spelled, index: LineIndex) -> types.DiagnosticRelatedInformation:
    """Where another module spells the character of a finding placed at the name that brings it in, its column
    in the client's code units (as ``index`` counts them)."""
    pos = types.Position(line=s.line - 1, character=int(index.codec.client_num_units(s.before)) if s.before else s.col)
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=from_fs_path(s.path) or s.path, range=types.Range(start=pos, end=pos)),
        message="piece spelled here")


def error_diagnostic(err: SourceError, index: LineIndex) -> types.Diagnostic:
    """The one information diagnostic for a file iri-lint cannot check (e.g. a syntax error)."""
    pos = types.Position(line=max(err.line - 1, 0), character=0)
    return types.Diagnostic(
        range=types.Range(start=pos, end=pos),
        message=f"iri-lint did not check this file: {err}",
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
    )
