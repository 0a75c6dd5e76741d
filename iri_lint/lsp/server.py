"""``iri-lint server``: a language server (LSP over stdio) with diagnostics, quick fixes and hovers."""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from iri_lint import __version__
from iri_lint.config import Config, ConfigError, find_pyproject, load
from iri_lint.lint import SourceError, SourceFinding, lint_text
from iri_lint.rules.model import FixSafety
from iri_lint.source.edits import SourceEdit

from .actions import fix_all, fix_edits, minimal_edit, noqa_edit
from .diagnostics import SOURCE, error_diagnostic, to_diagnostic
from .hover import hover_markdown, literal_at
from .positions import UTF16, LineIndex, finding_offsets

log = logging.getLogger("iri_lint.lsp")

FIX_ALL = "source.fixAll.iri-lint"
DEBOUNCE_SECONDS = 0.3
PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass(slots=True)
class Settings:
    """Where a document's configuration comes from, and the path rules see (relative to it)."""

    config: Config
    pyproject: Path | None
    path: str | None  # posix path relative to the pyproject's folder (per-file-ignores), else absolute
    excluded: bool = False


@dataclass(slots=True)
class Analysis:
    """One lint of one document version."""

    version: int | None
    text: str
    settings: Settings
    findings: list[SourceFinding] = field(default_factory=list)
    error: SourceError | None = None


def _excluded(rel: str, patterns: Sequence[str]) -> bool:
    """flake8-style exclusion: a pattern matches the path, a parent folder, or a path component."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(fnmatch.fnmatch(p, pat.rstrip("/")) for pat in patterns for p in (*prefixes, *parts))


class IriLintServer(LanguageServer):
    """The server: per-document analyses, per-pyproject configs, debounced linting."""

    def __init__(self, debounce: float = DEBOUNCE_SECONDS, report_unparsable: bool = True) -> None:
        super().__init__("iri-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.debounce = debounce
        self.report_unparsable = report_unparsable
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._configs: dict[Path | None, tuple[Config, Path | None]] = {}
        self._analyses: dict[str, Analysis] = {}

    # ---------------------------------------------------------------- settings

    @property
    def encoding(self) -> str:
        """The negotiated position encoding ("utf-16" unless the client offered another)."""
        enc = self.workspace.position_encoding
        return str(getattr(enc, "value", enc) or UTF16)

    def settings_for(self, doc: TextDocument) -> Settings:
        """The config for a document, from the nearest pyproject.toml (cached until it changes)."""
        fs_path = doc.path if doc.uri.startswith("file:") else None
        start = Path(fs_path) if fs_path else Path(self.workspace.root_path or Path.cwd()) / "-"
        pyproject = find_pyproject(start)
        if pyproject not in self._configs:
            try:
                self._configs[pyproject] = load(start)
            except ConfigError as exc:
                self.window_show_message(types.ShowMessageParams(
                    type=types.MessageType.Error, message=f"iri-lint: {exc}; using the default settings"))
                self._configs[pyproject] = (Config(), pyproject)
        config, found = self._configs[pyproject]
        rel = fs_path
        if fs_path and found is not None:
            try:
                rel = Path(fs_path).resolve().relative_to(found.parent.resolve()).as_posix()
            except ValueError:
                rel = Path(fs_path).as_posix()
        patterns = (*config.exclude, *config.extend_exclude)
        excluded = bool(rel and patterns and _excluded(rel, patterns))
        return Settings(config, found, rel, excluded)

    def reload_settings(self) -> None:
        """Forget every cached config and re-lint the open documents."""
        self._configs.clear()
        self._analyses.clear()
        for uri in list(self.workspace.text_documents):
            self.lint_now(uri)

    # ---------------------------------------------------------------- analysis

    @staticmethod
    def is_python(doc: TextDocument) -> bool:
        return doc.language_id == "python" or doc.uri.endswith(PYTHON_SUFFIXES)

    def analyse(self, doc: TextDocument) -> Analysis:
        """The findings for the document's current text (cached per version and text)."""
        text = doc.source
        cached = self._analyses.get(doc.uri)
        if cached is not None and cached.version == doc.version and cached.text == text:
            return cached
        settings = self.settings_for(doc)
        result = Analysis(doc.version, text, settings)
        if not settings.excluded:
            try:
                result.findings = lint_text(text, settings.config, path=settings.path)
            except SourceError as err:
                result.error = err
            except Exception:  # a bug in a rule must not take the editor's server down
                log.exception("iri-lint failed on %s", doc.uri)
                self.window_log_message(types.LogMessageParams(
                    type=types.MessageType.Error, message=f"iri-lint: internal error on {doc.uri}; see the log"))
        self._analyses[doc.uri] = result
        return result

    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds of quiet (each change restarts the clock)."""
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if delay <= 0:
            self.lint_now(uri)
            return
        self._timers[uri] = asyncio.get_running_loop().call_later(delay, self.lint_now, uri)

    def lint_now(self, uri: str) -> None:
        """Lint a document and publish its diagnostics; never raises."""
        self._timers.pop(uri, None)
        try:
            doc = self.workspace.get_text_document(uri)
            if not self.is_python(doc):
                return
            result = self.analyse(doc)
            index = LineIndex(result.text, self.encoding)
            diagnostics = []
            for sf in result.findings:
                try:
                    diagnostics.append(to_diagnostic(sf, index))
                except Exception:
                    log.exception("cannot place %s in %s", sf.code, uri)
            if result.error is not None and self.report_unparsable:
                diagnostics.append(error_diagnostic(result.error, index))
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=result.version))
        except Exception:
            log.exception("linting %s failed", uri)

    def forget(self, uri: str) -> None:
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self._analyses.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # ---------------------------------------------------------------- code actions

    def _workspace_edit(self, doc: TextDocument, index: LineIndex, edits: Sequence[SourceEdit]) -> types.WorkspaceEdit:
        text_edits: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = [
            types.TextEdit(range=index.range(e.start, e.end), new_text=e.new) for e in edits]
        caps = self.client_capabilities.workspace
        if caps and caps.workspace_edit and caps.workspace_edit.document_changes:
            ident = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=ident, edits=text_edits)])
        return types.WorkspaceEdit(changes={doc.uri: [e for e in text_edits if isinstance(e, types.TextEdit)]})

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        doc = self.workspace.get_text_document(params.text_document.uri)
        if not self.is_python(doc):
            return []
        only = params.context.only

        def wanted(kind: str) -> bool:
            return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)

        result = self.analyse(doc)
        index = LineIndex(result.text, self.encoding)
        lo, hi = index.offset(params.range.start), index.offset(params.range.end)
        actions: list[types.CodeAction] = []
        silencers: list[types.CodeAction] = []
        seen_noqa: set[tuple[int, str]] = set()
        for sf in result.findings:
            start, end = finding_offsets(result.text, sf)
            if not (start <= hi and lo <= end):
                continue
            diag = to_diagnostic(sf, index)
            fix = sf.finding.fix
            if fix is not None and wanted(types.CodeActionKind.QuickFix):
                edits = fix_edits(result.text, sf)
                if edits is not None:
                    safe = fix.safety is FixSafety.SAFE
                    title = f"{SOURCE} ({sf.code}): {fix.description.rstrip('.')}" + ("" if safe else " (unsafe)")
                    actions.append(types.CodeAction(
                        title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                        is_preferred=safe, edit=self._workspace_edit(doc, index, edits)))
            if wanted(types.CodeActionKind.QuickFix):
                edit = noqa_edit(result.text, start, sf.code)
                if edit is not None and (edit.start, sf.code) not in seen_noqa:
                    seen_noqa.add((edit.start, sf.code))
                    silencers.append(types.CodeAction(
                        title=f"{SOURCE}: Disable {sf.code} for this line", kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diag], edit=self._workspace_edit(doc, index, [edit])))
        actions.extend(silencers)
        if wanted(FIX_ALL):
            action = self.fix_all_action(doc, result, index)
            if action is not None:
                actions.append(action)
        return actions

    def fix_all_action(self, doc: TextDocument, result: Analysis, index: LineIndex) -> types.CodeAction | None:
        """"Fix all safe problems in this file", as one minimal edit."""
        if not any(sf.finding.fix and sf.finding.fix.safety is FixSafety.SAFE for sf in result.findings):
            return None
        if self.link_outside(doc) is not None:
            return None
        settings = result.settings
        new = fix_all(result.text, lambda t: lint_text(t, settings.config, path=settings.path))
        edit = minimal_edit(result.text, new)
        if edit is None:
            return None
        return types.CodeAction(title=f"{SOURCE}: Fix all safe problems", kind=FIX_ALL,
                                edit=self._workspace_edit(doc, index, [edit]))

    def link_outside(self, doc: TextDocument) -> str | None:
        """Why "fix all" must not touch the document: a symlink resolving outside the workspace (the
        same rule as ``iri-lint check --fix``, iri_lint.cli.write_policy); else None."""
        if not doc.uri.startswith("file:"):
            return None
        import os

        from pygls.uris import to_fs_path

        from ..cli.discover import tree_of
        from ..cli.write_policy import link_refusal

        folders = [f.uri for f in self.workspace.folders.values()]
        roots = [os.path.realpath(p) for u in folders if (p := to_fs_path(u))]
        if self.workspace.root_path:
            roots.append(os.path.realpath(self.workspace.root_path))
        roots.append(tree_of(doc.path))
        why = link_refusal(doc.path, [r for r in roots if r])
        if why is not None:
            log.info("iri-lint: no fix-all for %s: %s", doc.uri, why)
        return why

    # ---------------------------------------------------------------- hover

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        doc = self.workspace.get_text_document(params.text_document.uri)
        if not self.is_python(doc):
            return None
        result = self.analyse(doc)
        if result.error is not None or result.settings.excluded:
            return None
        index = LineIndex(result.text, self.encoding)
        lit = literal_at(result.text, index.offset(params.position), result.settings.config)
        if lit is None:
            return None
        mine = [sf for sf in result.findings if (sf.literal.start, sf.literal.end) == (lit.start, lit.end)]
        lit_range = None
        if lit.locator is not None:
            src = lit.locator.source
            lit_range = index.range(src.offset(lit.start.line, lit.start.col), src.offset(lit.end.line, lit.end.col))
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=hover_markdown(lit, mine)), range=lit_range)

    # ---------------------------------------------------------------- watching pyproject.toml

    async def watch_pyproject(self) -> None:
        """Ask the client to tell us when any pyproject.toml changes (when it can register watchers)."""
        caps = self.client_capabilities.workspace
        if not (caps and caps.did_change_watched_files and caps.did_change_watched_files.dynamic_registration):
            return
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml")])
        registration = types.Registration(id="iri-lint-pyproject", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                          register_options=options)
        try:
            await self.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
        except Exception as exc:  # the client refused: saving pyproject.toml still reloads
            log.info("cannot watch pyproject.toml: %s", exc)


T = TypeVar("T")
P = TypeVar("P")


def _guard(default: T, fn: Callable[[P], T], params: P) -> T:
    """Run a request handler; log and answer ``default`` instead of failing the request."""
    try:
        return fn(params)
    except Exception:
        log.exception("request failed")
        return default


def create_server(debounce: float = DEBOUNCE_SECONDS) -> IriLintServer:
    """A server with every feature registered."""
    server = IriLintServer(debounce=debounce)

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        opts = params.initialization_options
        if isinstance(opts, dict):
            if isinstance(opts.get("debounce"), int | float):
                server.debounce = float(opts["debounce"]) / 1000
            if isinstance(opts.get("reportUnparsable"), bool):
                server.report_unparsable = opts["reportUnparsable"]

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        await server.watch_pyproject()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.schedule(params.text_document.uri, server.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.endswith("/pyproject.toml"):
            server.reload_settings()
        else:
            server.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.forget(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(params: types.DidChangeWatchedFilesParams) -> None:
        if any(c.uri.endswith("pyproject.toml") for c in params.changes):
            server.reload_settings()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        server.reload_settings()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False))
    def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        return _guard(None, server.code_actions, params) or None

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> types.Hover | None:
        return _guard(None, server.hover, params)

    return server


def main(argv: Sequence[str] | None = None) -> int:
    """Run the language server (stdio unless --tcp); the ``iri-lint server`` subcommand."""
    parser = argparse.ArgumentParser(prog="iri-lint server", description="iri-lint language server (LSP)")
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", action="store_true", help="listen on a TCP port instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (default: %(default)s)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (default: %(default)s)")
    parser.add_argument("--debounce", type=float, default=DEBOUNCE_SECONDS * 1000, metavar="MS",
                        help="wait this long after a change before linting (default: %(default)g ms)")
    parser.add_argument("--log-level", default="WARNING", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    parser.add_argument("--log-file", help="log here instead of stderr")
    parser.add_argument("--version", action="version", version=f"iri-lint {__version__}")
    args = parser.parse_args(argv)
    handler: logging.Handler = logging.FileHandler(args.log_file) if args.log_file else logging.StreamHandler()
    logging.basicConfig(level=args.log_level, handlers=[handler],
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    server = create_server(debounce=args.debounce / 1000)
    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
