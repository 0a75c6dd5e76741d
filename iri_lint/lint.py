"""The pipeline both front ends share: source -> literals -> check() -> findings at source positions."""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .config import Config
from .core.scanner import scan
from .noqa import file_noqa, is_noqa, noqa_lines
from .rules.engine import IRI_USE_ONLY, TEXT_CODES, check_ref, not_analysed, text_finding, text_rules
from .rules.model import Finding, UseContext
from .source.literals import ScanOptions, find_literals, marked_lines
from .source.locate import SourceFile, split_lines
from .source.model import Literal, SourcePos
from .source.text import is_embedded


@dataclass(frozen=True, slots=True)
class SourceFinding:
    """A finding placed in a file: 1-based lines, 0-based code point columns (flake8 convention)."""

    finding: Finding
    literal: Literal
    start: SourcePos
    end: SourcePos

    @property
    def code(self) -> str:
        return self.finding.code

    @property
    def line(self) -> int:
        return self.start.line

    @property
    def col(self) -> int:
        return self.start.col


class SourceError(Exception):
    """A file that cannot be linted (syntax error, undecodable); message says why, with position."""

    def __init__(self, message: str, line: int = 1, col: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.col = col


def scan_options(config: Config, enabled: frozenset[str] | None = None) -> ScanOptions:
    """The source layer's options; text extraction only when an IRI7 code is enabled (sec. 7.3)."""
    codes = config.codes_for(None) if enabled is None else enabled
    return ScanOptions(url_names=tuple(config.url_names), extra_url_apis=tuple(config.extra_url_apis),
                       include_bytes=config.include_bytes, include_docstrings=bool(codes & TEXT_CODES))


def lint_tree(tree: ast.AST, lines: Sequence[str], config: Config, *, path: str | None = None,
              options: ScanOptions | None = None, text_codes: frozenset[str] | None = None,
              marked: list[int] | None = None) -> Iterator[SourceFinding]:
    """Findings for an already parsed module (the flake8 plugin's entry: flake8 hands us both).

    ``text_codes``: the underlying rules run on IRIs found in prose (default: the enabled ones).
    """
    enabled = config.codes_for(path)
    if not enabled:
        return
    opts = options or scan_options(config, enabled)
    in_text = text_rules(enabled if text_codes is None else text_codes, enabled, config.ignore)
    in_ascii = enabled - (IRI_USE_ONLY - config.named_codes())  # for a literal not used as an IRI
    for lit in find_literals(tree, list(lines), options=opts, marked=marked):
        # an IRI-consuming API takes it (rdflib.URIRef, XML namespaces), or it holds non-ASCII text
        used_as_iri = not lit.value.isascii() or (lit.context is UseContext.IDENTIFIER and lit.api is not None)
        try:
            findings = _check_literal(lit, config, enabled if used_as_iri else in_ascii, in_text)
        except Exception as exc:  # an engine bug costs this literal, never the rest of the file
            findings = [not_analysed(exc, len(lit.value))] if "IRI100" in enabled else []
        if not findings:
            continue
        assert lit.position_of is not None
        for f in findings:
            start = lit.position_of(f.start)
            end = lit.position_of(f.end) if f.end > f.start else start
            yield SourceFinding(f, lit, start, end)


def _check_literal(lit: Literal, config: Config, enabled: frozenset[str],
                   in_text: frozenset[str]) -> list[Finding]:
    """One literal through the IRI core and the rules; prose findings under their IRI7x0 code."""
    ref = scan(lit.value, lit.kind, config.profile)
    embedded = is_embedded(lit)
    findings = check_ref(ref, context=lit.context, enabled=in_text if embedded else enabled,
                         holes=lit.holes, uri_only_api=lit.uri_only_api)
    if embedded:
        findings = [t for t in (text_finding(f, enabled) for f in findings) if t is not None]
    return findings


def decode_source(data: bytes) -> str:
    """Bytes of a Python file -> text, honouring a BOM and a PEP 263 cookie."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
        raise SourceError(f"cannot decode file: {exc}") from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_source(text: str, filename: str = "<unknown>") -> ast.Module:
    """ast.parse with a SourceError (line, col, message) instead of a traceback."""
    try:
        return ast.parse(text, filename)
    except SyntaxError as exc:
        raise SourceError(f"syntax error: {exc.msg}", exc.lineno or 1, max((exc.offset or 1) - 1, 0)) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise SourceError(f"cannot parse file: {exc}") from None


def lint_text(text: str, config: Config, *, path: str | None = None,
              honour_noqa: bool = True) -> list[SourceFinding]:
    """Lint one module's text; raises SourceError for a file that does not parse.

    A file whose text cannot hold a candidate (no ``://``, no quoted registered scheme, no URL name
    or URL API) is not parsed at all: most files end here, at a fraction of ``ast.parse``.
    """
    lines = split_lines(text)  # where Python splits: not at U+2028, form feed, ... (str.splitlines would)
    enabled = config.codes_for(path)
    opts = scan_options(config, enabled)
    marked = marked_lines(SourceFile(lines), opts) if opts.prefilter else None
    if not enabled or marked == []:
        return []
    tree = parse_source(text, path or "<unknown>")
    found = list(lint_tree(tree, lines, config, path=path, options=opts, marked=marked))
    if found and honour_noqa and "noqa" in text.lower():
        whole = file_noqa(text)
        if whole is not None:  # a file-level noqa comment (see noqa.file_noqa)
            found = [f for f in found if whole and not f.code.startswith(tuple(whole))]
        mapping = noqa_lines(text)
        found = [f for f in found if not is_noqa(f.code, mapping.get(f.line))]
    found.sort(key=lambda f: (f.line, f.col, f.code))
    return found

