"""The pipeline both front ends share: source -> literals -> check() -> findings at source positions."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from .bound_checks import whitespace_at_an_end
from .config import Config
from .core.scanner import scan
from .noqa import file_noqa, is_noqa, may_silence, noqa_lines, noqa_lines_around
from .rules.engine import (
    IRI_USE_ONLY,
    TEXT_CODES,
    check_ref,
    consequences,
    merged,
    not_analysed,
    text_finding,
    text_rules,
)
from .rules.model import Finding, Fix, UseContext
from .source.literals import ScanOptions, find_literals, marked_lines
from .source.locate import PartLocator, SourceFile, split_lines
from .source.marks import api_call_lines
from .source.model import Literal, Reason, SourcePos, Spelled
from .source.placeholders import with_placeholders
from .source.text import is_embedded
from .unused_noqa import UNUSED_NOQA, unused_noqa
from .values_check import Cause, PieceFix, Project, ValueChecker, default_project, placed_findings, value_findings


@dataclass(frozen=True, slots=True)
class SourceFinding:
    """A finding placed in a file: 1-based lines, 0-based code point columns (flake8 convention)."""

    finding: Finding
    literal: Literal
    start: SourcePos
    end: SourcePos
    piece_fix: PieceFix | None = None  # a value's finding: its fix, in the literal it edits
    spelled: Spelled | None = None  # placed at a name: where another module spells its character

    @property
    def code(self) -> str:
        return self.finding.code

    @property
    def fix_target(self) -> tuple[Literal, Fix | None]:
        """The literal the fix edits and the fix on that literal's checked value."""
        if self.piece_fix is not None:
            return self.piece_fix.literal, self.piece_fix.fix
        return self.literal, self.finding.fix

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


# A file that ``lint_tree`` adds to ``depends_on`` when a module's values were not read to their end: no
# file has this path, so a result that depends on it is one a cache must not keep
VALUES_UNREAD = "\0values not read to the end"


def lint_tree(tree: ast.AST, lines: Sequence[str] | SourceFile, config: Config, *, path: str | None = None,
              options: ScanOptions | None = None, text_codes: frozenset[str] | None = None,
              marked: list[int] | None = None, project: Project | None = None,
              depends_on: set[str] | None = None, file: str | None = None,
              values_only: bool = False) -> Iterator[SourceFinding]:
    """Findings for an already parsed module (the flake8 plugin's entry: flake8 hands us both).

    ``lines``: the module's lines, or its ``SourceFile``, which the literals and the values then share.
    ``text_codes``: the underlying rules run on IRIs found in prose (default: the enabled ones).
    ``project``: the run's project modules, read for the constants this one imports (default: the
    process's own, ``default_project``); ``depends_on`` receives the files its URL values were read from;
    ``file``: where the module is, when ``path`` (what per-file-ignores match) is not that; ``values_only``:
    ``marked`` are only the lines of URL API calls (``marks.api_call_lines``), where no literal can be a
    candidate (each needs a mark of its own), so only the URL values are read.
    """
    shown = config.codes_for(path)
    if not shown:
        return
    # per-file ignores hide findings as flake8's do, after the rules ran: an ignored cause still hides its
    # consequences ("one finding per cause"), so both front ends report the same
    enabled = config.codes_for(path, per_file=False) if config.per_file_ignores else shown
    opts = options or scan_options(config, enabled)
    checker = literal_checker(config, enabled, text_codes)
    source = lines if isinstance(lines, SourceFile) else SourceFile(list(lines))
    found: list[SourceFinding] = []
    for lit in () if values_only else find_literals(tree, source, options=opts, marked=marked, file=file or path):
        found += checker.findings(lit)
    if isinstance(tree, ast.Module) and (marked is None or marked):
        try:
            more = _values(tree, source, checker, found, path=path, options=opts, marked=marked, project=project,
                           depends_on=depends_on, file=file)
        except RecursionError:  # (past the evaluator's own depth limits): the literals' findings stand
            more = []
            if depends_on is not None:
                depends_on.add(VALUES_UNREAD)  # (what the values read is not all known: no result to keep)
        if more:
            found = with_values(found, more)
            found.sort(key=lambda f: (f.line, f.col, f.code))
    yield from found if enabled is shown else (f for f in found if f.code in shown)


def with_values(found: list[SourceFinding], more: list[SourceFinding]) -> list[SourceFinding]:
    """The literals' findings and the values', less a literal's that only follows from a value's at the same place
    (a wrapped literal's port that the join of its strings makes: IRI112 beside IRI801)."""
    hidden = {(m.line, m.col, code) for m in more for code in consequences(m.code)}
    # (and a value's finding the literal scan made at the same character: one IRI of a text the scan split into
    # its items, ``"%s/a|b " % root``, is a literal of its own with another start than the value's)
    shown = {(f.line, f.col, f.code) for f in found}
    more = [m for m in more if (m.line, m.col, m.code) not in shown]
    return [f for f in found if (f.line, f.col, f.code) not in hidden] + more if hidden else found + more


def _values(tree: ast.Module, lines: SourceFile, checker: LiteralChecker, found: list[SourceFinding], *,
            path: str | None, options: ScanOptions, marked: list[int] | None, project: Project | None = None,
            depends_on: set[str] | None = None, file: str | None = None) -> list[SourceFinding]:
    """The findings of the module's URL values that its literals' findings (``found``) do not hold."""
    causes = {(f.code, f.literal.start) for f in found}
    placed = value_findings(tree, lines, _value_checker(checker), causes, path=file or path, options=options,
                            marked=marked, project=project, depends_on=depends_on)
    return [SourceFinding(*p) for p in placed]


# A module as the files of a run hold them: URL constants, one joined into a request (see ``warm_up``)
_SAMPLE = 'import requests\n\nBASE = "https://example.com/api"\nrequests.get(BASE + "/items/a b?q={q}#top")\n'


def warm_up(config: Config, text_codes: frozenset[str] | None = None) -> None:
    """Check a small built-in module with ``config``'s rules: the rules' modules and the regexes that the first
    literals of a run load are loaded here, in a process about to fork its workers. Nothing is read from disk
    and no project is touched; a failure is left to the files' own checks to report."""
    try:
        for _ in lint_tree(ast.parse(_SAMPLE), _SAMPLE.splitlines(keepends=True), config, text_codes=text_codes):
            pass
    except Exception:  # (only a warm-up: never stop a run before it starts)
        pass


def value_uses(tree: ast.Module, lines: Sequence[str], config: Config, *, path: str | None = None,
               marked: list[int], within: tuple[int, int] | None = None, depends_on: set[str] | None = None,
               file: str | None = None) -> list[tuple[int, list[tuple[Cause, SourceFinding]]]]:
    """Each use of a URL value of a module (on lines ``within`` only, when given), with the line it starts
    on and its findings, each with its cause, before one per cause is kept (``first_of_each_cause``) and
    before noqa: the editor's server, which keeps them statement by statement. ``file``: as for ``lint_tree``."""
    enabled = config.codes_for(path, per_file=False)  # (per-file ignores: the caller's, after the rules ran)
    if not enabled or not marked:
        return []
    checker = literal_checker(config, enabled)
    uses = placed_findings(tree, lines, _value_checker(checker), path=file or path,
                           options=scan_options(config, enabled), marked=marked, within=within, depends_on=depends_on)
    return [(line, [(cause, SourceFinding(*p)) for cause, p in placed]) for line, placed in uses if placed]


def _value_checker(checker: LiteralChecker) -> ValueChecker:
    """What ``values_check`` needs of the file's checker: the rules it runs where a value is used."""
    return ValueChecker(checker.config, checker.enabled, checker.in_ascii, checker.idna_versions)


def literal_checker(config: Config, enabled: frozenset[str],
                    text_codes: frozenset[str] | None = None) -> LiteralChecker:
    """The checker of one file's literals, with ``enabled`` rules (``text_codes``: those run on IRIs
    found in prose; default: the enabled ones)."""
    return LiteralChecker(config, enabled, text_rules(enabled if text_codes is None else text_codes, enabled,
                                                      config.ignore))


class LiteralChecker:
    """A file's literals through the rules, each value once per use: a file repeats its IRIs
    ("http://example.com" in every test), and nearly half the literals of real code are repeats."""

    __slots__ = ("checked", "config", "enabled", "idna_versions", "in_ascii", "in_text")

    def __init__(self, config: Config, enabled: frozenset[str], in_text: frozenset[str]) -> None:
        self.config = config
        self.enabled = enabled
        named = config.named_codes()
        self.in_ascii = enabled - (IRI_USE_ONLY - named)  # for a literal not used as an IRI
        # IRI403's difference between the IDNA versions: where an API encodes with IDNA2008, or named
        self.idna_versions = "IRI403" in named
        self.in_text = in_text  # the rules run on IRIs found in prose
        self.checked: dict[tuple[object, ...], list[Finding]] = {}

    def findings(self, lit: Literal) -> list[SourceFinding]:
        """The findings of one literal, placed in its file."""
        # an IRI-consuming API takes it (rdflib.URIRef, XML namespaces), or it holds non-ASCII text
        used_as_iri = not lit.value.isascii() or (lit.context is UseContext.IDENTIFIER and lit.api is not None)
        # what _check_literal reads of the literal
        key = (lit.value, lit.kind, lit.context, lit.holes, lit.uri_only_api, lit.idna2008_api, is_embedded(lit),
               used_as_iri, isinstance(lit.locator, PartLocator))  # (a list's item has no fix: not the same)
        findings = self.checked.get(key)
        if findings is None:
            try:
                findings = self.checked[key] = _check_literal(
                    lit, self.config, self.enabled if used_as_iri else self.in_ascii, self.in_text,
                    self.idna_versions or lit.idna2008_api)
            except Exception as exc:  # an engine bug costs this literal, never the rest of the file
                findings = [not_analysed(exc, len(lit.value))] if "IRI100" in self.enabled else []
        if not findings:
            return []
        assert lit.position_of is not None
        out = []
        for f in findings:
            start = lit.position_of(f.start)
            out.append(SourceFinding(f, lit, start, lit.position_of(f.end) if f.end > f.start else start))
        return out


def _check_literal(lit: Literal, config: Config, enabled: frozenset[str],
                   in_text: frozenset[str], idna_versions: bool = True) -> list[Finding]:
    """One literal through the IRI core and the rules; prose findings under their IRI7x0 code.

    Placeholders of examples (``API-PORT``, ``[REDACTED]``) are holes as template placeholders are.
    A part of a literal (one IRI of a list of them) has no fix: a fix is proven on a whole literal."""
    ref = scan(lit.value, lit.kind, config.profile)
    embedded = is_embedded(lit)
    holes = with_placeholders(ref, lit.holes)
    findings = check_ref(ref, context=lit.context, enabled=in_text if embedded else enabled,
                         holes=holes, uri_only_api=lit.uri_only_api, idna_versions=idna_versions,
                         by_shape=lit.reason is Reason.ABSOLUTE)
    if lit.reason is Reason.URL_NAME and lit.api is None:  # (whitespace around an absolute IRI separates it there)
        findings = [f for f in findings if not whitespace_at_an_end(f, lit.value, lit.holes)]
    if embedded:
        findings = [t for t in (text_finding(f, enabled) for f in findings) if t is not None]
    elif isinstance(lit.locator, PartLocator):
        findings = [f if f.fix is None else replace(f, fix=None) for f in findings]
    return _one_per_cause(findings, lit.value)


def _one_per_cause(findings: list[Finding], value: str) -> list[Finding]:
    """At most one finding per rule in one literal (``rules.engine.merged``): a literal with 3 spaces is one
    thing to fix."""
    if len(findings) < 2:
        return findings
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(f.code, []).append(f)
    if len(groups) == len(findings):
        return findings
    return [merged(groups[f.code], value) for f in findings if f is groups[f.code][0]]


def source_encoding(data: bytes) -> str:
    """The encoding of a Python file's bytes, from its BOM or PEP 263 cookie; SourceError when Python
    refuses it: a codec it does not know, or one that cannot read its own declaration as written (PEP 263:
    "encodings which use two or more bytes for all characters like e.g. UTF-16" cannot be declared)."""
    try:
        encoding, lines = tokenize.detect_encoding(io.BytesIO(data).readline)
    except (SyntaxError, LookupError) as exc:
        raise SourceError(f"cannot decode file: {exc}") from None
    cookie = _cookie().search(lines[-1]) if lines else None
    if cookie is not None:
        try:
            readable = cookie.group().decode(encoding) == cookie.group().decode("ascii")
        except (UnicodeDecodeError, LookupError):
            readable = False
        if not readable:
            raise SourceError(f"cannot decode file: the encoding {encoding!r} declared on line {len(lines)} "
                              "cannot be a source encoding (PEP 263: it must read its own declaration as "
                              "ASCII)", len(lines))
    return encoding


@functools.cache
def _cookie() -> re.Pattern[bytes]:
    return re.compile(rb"coding[:=][ \t]*[-\w.]+")  # PEP 263's, as tokenize finds it


def decode_source(data: bytes) -> str:
    """Bytes of a Python file -> text, honouring a BOM and a PEP 263 cookie."""
    encoding = source_encoding(data)
    try:
        text = data.decode(encoding)
    except (LookupError, UnicodeDecodeError) as exc:
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


def lint_text(text: str, config: Config, *, path: str | None = None, honour_noqa: bool = True,
              project: Project | None = None, depends_on: set[str] | None = None,
              file: str | None = None) -> list[SourceFinding]:
    """Lint one module's text; raises SourceError for a file that does not parse.

    A file whose text cannot hold a candidate (no ``://``, no quoted registered scheme, no URL name
    or URL API, no call of a URL API's name) is not parsed at all: many files end here, at a fraction of
    ``ast.parse``.
    """
    lines = split_lines(text)  # where Python splits: not at U+2028, form feed, ... (str.splitlines would)
    enabled = config.codes_for(path)
    opts = scan_options(config, enabled)
    source = SourceFile(lines, text)  # (the marks, the literals and the values read the same)
    marked = marked_lines(source, opts) if opts.prefilter else None
    values_only = marked == []
    if values_only:  # (no IRI-like text here, but a URL API's call may use another module's client or URL)
        marked = api_call_lines(source, opts)
    if not enabled:
        return []
    # (a file of the run that another file's values read already: the project's tree of it, whole again)
    lender = None if file is None or marked == [] else project if project is not None else default_project()
    tree = lender.lend_tree(file, text) if lender is not None and file is not None else None
    if tree is None and marked != []:
        tree = parse_source(text, path or "<unknown>")
    try:
        found = [] if tree is None else list(
            lint_tree(tree, source, config, path=path, options=opts, marked=marked, project=project,
                      depends_on=depends_on, file=file, values_only=values_only))
        return _unsilenced(found, text, lines, tree, enabled, honour_noqa)
    finally:
        if lender is not None:
            lender.give_back()


def _unsilenced(found: list[SourceFinding], text: str, lines: list[str], tree: ast.Module | None,
                enabled: frozenset[str], honour_noqa: bool) -> list[SourceFinding]:
    """``found`` without what the file's noqa comments silence, with IRI901's findings, in order."""
    # (text.lower() only where it can matter: most files have no finding and IRI901 is opt-in)
    if honour_noqa and (found or UNUSED_NOQA in enabled) and "noqa" in text.lower():
        found += [SourceFinding(*p) for p in unused_noqa(text, [(f.line, f.code) for f in found], enabled)]
        whole = file_noqa(text)
        if whole is not None:  # a file-level noqa comment (see noqa.file_noqa)
            found = [f for f in found if whole and not f.code.startswith(tuple(whole))]
        # (the mapping tokenizes the whole file: not when no noqa comment can be on a finding's lines; a bare
        # CR ends a line for the parser, not for the tokenizer, whose lines the mapping numbers)
        if tree is None or "\r" in text or may_silence(tree, lines, {f.line for f in found}):
            mapping = noqa_lines(text)
            if not mapping and tree is not None:  # (the tokenize module rejects the whole text)
                mapping = noqa_lines_around(tree, lines, {f.line for f in found})
            found = [f for f in found if not is_noqa(f.code, mapping.get(f.line))]
    found.sort(key=lambda f: (f.line, f.col, f.code))
    return found
