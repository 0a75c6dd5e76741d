"""``iri-lint server``: a language server (LSP over stdio) with diagnostics, quick fixes and hovers.

Typing: each change restarts a short debounce; then the document's latest text is linted in a worker
thread, again only in the top-level statements the changes touched (lsp/incremental.py). One run per
document at a time; a run that a newer version makes stale stops at the next statement and publishes
nothing. A saved file lints again the open documents whose URL values read it. Hovers and quick fixes
lint again only the statement they are about (``IncrementalLinter.view``). Settings: pyproject.toml
under the editor's own (lsp/settings.py). Messages: our reader of the base protocol (lsp/transport.py)
and pygls' protocol with its faults worked around (lsp/protocol.py, docs/pygls-upstream.md).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import NoReturn, TypeVar

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from iri_lint import __version__
from iri_lint.config import Config, ConfigError, config_from_file, load_found
from iri_lint.files.discover import excluded, tree_of
from iri_lint.files.fileio import link_refusal
from iri_lint.files.pyproject import find_pyproject, lint_path
from iri_lint.lint import SourceError, SourceFinding, lint_text
from iri_lint.rules.model import FixSafety
from iri_lint.source.edits import SourceEdit
from iri_lint.values_check import long_lived_process, packages_changed

from .actions import fix_all, fix_edits, minimal_edit, noqa_edit
from .diagnostics import SOURCE, error_diagnostic, to_diagnostic
from .document import Document
from .gc_pause import without_gc_passes
from .hover import file_literals, hover_markdown
from .incremental import IncrementalLinter, LintRun, StatementView
from .positions import UTF16, LineIndex, finding_offsets
from .protocol import IriLintProtocol
from .settings import SECTION, EditorSettings, config_file, looks_like_settings, unwrap
from .settings import parse as parse_settings
from .transport import run_stdio, run_tcp

log = logging.getLogger("iri_lint.lsp")

FIX_ALL = "source.fixAll.iri-lint"
DEBOUNCE_SECONDS = 0.075  # after the last change; a keystroke costs a few ms of linting (lsp/incremental.py)


class Superseded(Exception):
    """A newer version of the document came in: this run's answer would be stale."""


@dataclass(slots=True)
class DocumentSettings:
    """Where a document's configuration comes from, and the path rules see (relative to it)."""

    config: Config
    pyproject: Path | None
    path: str | None  # posix path relative to the pyproject's folder (per-file-ignores), else absolute
    excluded: bool = False
    file: str | None = None  # where the document is on disk: its project's other modules are found from it


@dataclass(slots=True)
class DocumentLint:
    """One lint of one document version."""

    version: int | None
    text: str
    settings: DocumentSettings
    findings: list[SourceFinding] = field(default_factory=list)
    error: SourceError | None = None
    run: LintRun | None = None
    fix_all: list[SourceEdit] | None = None  # "fix all safe problems" as one edit ([]: nothing), once asked


class IriLintServer(LanguageServer):
    """The server: its copies of the open documents, per-pyproject configs, debounced incremental linting."""

    def __init__(self, debounce: float = DEBOUNCE_SECONDS, report_unparsable: bool = True) -> None:
        super().__init__("iri-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=IriLintProtocol)
        self.default_debounce = debounce  # the command line's; the editor's settings take over
        self.default_report_unparsable = report_unparsable
        self.init_settings = EditorSettings()  # initializationOptions
        self.workspace_settings = EditorSettings()  # workspace/didChangeConfiguration (or pulled)
        self.settings_problems: list[str] = []
        self.docs: dict[str, Document] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._configs: dict[Path | None, tuple[Config, Path | None]] = {}
        self._analyses: dict[str, DocumentLint] = {}
        self._published: dict[str, DocumentLint] = {}
        self._linters: dict[str, IncrementalLinter] = {}
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}  # uri -> (lock, [tasks holding or waiting])
        self._tasks: set[asyncio.Future[None]] = set()
        self._generation = 0  # settings reloaded this many times (a run under older ones is stale)

    # ---------------------------------------------------------------- settings

    @property
    def encoding(self) -> str:
        """The negotiated position encoding ("utf-16" unless the client offered another)."""
        enc = self.workspace.position_encoding
        return str(getattr(enc, "value", enc) or UTF16)

    @property
    def editor(self) -> EditorSettings:
        """The editor's settings: initializationOptions, then what didChangeConfiguration said."""
        return self.init_settings.merged(self.workspace_settings)

    @property
    def debounce(self) -> float:
        ms = self.editor.debounce_ms
        return self.default_debounce if ms is None else ms / 1000

    @property
    def report_unparsable(self) -> bool:
        report = self.editor.report_unparsable
        return self.default_report_unparsable if report is None else report

    def _load(self, key: Path | None, read: Callable[[], tuple[Config, Path | None]]) -> tuple[Config, Path | None]:
        if key not in self._configs:
            try:
                config, found = read()
            except ConfigError as exc:
                self.window_show_message(types.ShowMessageParams(
                    type=types.MessageType.Error, message=f"iri-lint: {exc}; using the default settings"))
                config, found = Config(), key
            self._configs[key] = (self.editor.apply(config), found)
        return self._configs[key]

    def settings_for(self, doc: Document) -> DocumentSettings:
        """The config for a document: the editor's settings over those of the pyproject.toml that
        configures it, as for ``iri-lint check`` (or of the file ``configPath`` names), cached until either
        changes. Its per-file settings and the excludes match its path relative to that pyproject's
        folder, else to the workspace's (iri_lint.files)."""
        fs_path = doc.path
        config_path = self.editor.config_path
        root = self.workspace.root_path or os.getcwd()
        if config_path:
            target = config_file(config_path, self.workspace.root_path)
            config, found = self._load(target, lambda: (config_from_file(target), target))
        else:
            try:
                pyproject = find_pyproject(Path(fs_path or os.path.join(root, "-")))
                config, found = self._load(pyproject, lambda: load_found(pyproject))
            except ConfigError as exc:  # one on the way up cannot be read: said once, as a bad key is
                config, found = self._load(exc.path, partial(_raise, exc))
        if not fs_path:
            return DocumentSettings(config, found, fs_path)
        base = str(found.parent) if found is not None else root
        patterns = (*config.exclude, *config.extend_exclude)
        return DocumentSettings(config, found, lint_path(fs_path, base),
                                bool(patterns) and excluded(fs_path, patterns, base), os.path.abspath(fs_path))

    def set_editor_settings(self, options: object, *, initial: bool = False) -> None:
        """Take the editor's settings (initializationOptions when ``initial``); report what is not understood."""
        parsed, problems = parse_settings(options)
        if initial:
            self.init_settings = parsed
            self.settings_problems = problems  # reported once initialized
        else:
            self.workspace_settings = parsed
            self.report_settings_problems(problems)

    def report_settings_problems(self, problems: Sequence[str]) -> None:
        for problem in problems:
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning, message=f"iri-lint settings: {problem} (left out)"))

    async def pull_settings(self) -> bool:
        """Ask the client for the iri-lint section (workspace/configuration), when it can answer;
        whether the settings changed."""
        caps = self.client_capabilities.workspace
        if not (caps and caps.configuration):
            return False
        try:
            got = await self.workspace_configuration_async(types.ConfigurationParams(
                items=[types.ConfigurationItem(section=SECTION)]))
        except Exception as exc:
            log.info("cannot read the editor's settings: %s", exc)
            return False
        if not got or got[0] is None:
            return False
        before = self.workspace_settings
        self.set_editor_settings(got[0])
        return self.workspace_settings != before

    def reload_settings(self) -> None:
        """Forget every cached config and re-lint the open documents (publishing their diagnostics)."""
        self._generation += 1
        self._configs.clear()
        self._analyses.clear()
        self._linters.clear()
        for uri in list(self.docs):
            self.schedule(uri, 0)

    def sources_changed(self, uris: Iterable[str]) -> None:
        """Files saved or changed on disk: lint again the open documents whose URL values read one of them."""
        changed = {os.path.realpath(to_fs_path(u) or "") for u in uris if u.startswith("file:")}
        if packages_changed(changed):  # any statement's names may now be other modules': lint all from scratch
            self._linters.clear()
        for uri in self.docs:
            linter = self._linters.get(uri)
            if linter is None or linter.reads(changed):  # (the same text, other values)
                self._analyses.pop(uri, None)
                self.schedule(uri, 0)

    # ---------------------------------------------------------------- documents

    def open(self, item: types.TextDocumentItem) -> None:
        path = to_fs_path(item.uri) if item.uri.startswith("file:") else None
        self.docs[item.uri] = Document(item.uri, item.text, item.version, item.language_id, path)
        self._analyses.pop(item.uri, None)
        self._linters.pop(item.uri, None)
        self.schedule(item.uri, 0)

    def change(self, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = self.docs.get(uri)
        if doc is None:  # changed before it was opened: start from pygls' copy
            pygls_doc = self.workspace.get_text_document(uri)
            doc = self.docs[uri] = Document(uri, pygls_doc.source, None, pygls_doc.language_id,
                                            pygls_doc.path if uri.startswith("file:") else None)
        else:
            doc.apply(params.content_changes, None, self.encoding)
        doc.version = params.text_document.version
        self.schedule(uri, self.debounce)

    def forget(self, uri: str) -> None:
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        for held in (self.docs, self._analyses, self._published, self._linters):
            held.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # ---------------------------------------------------------------- analysis

    @asynccontextmanager
    async def _lock(self, uri: str) -> AsyncIterator[None]:
        """One task at a time per document; the lock lives while a task holds or waits for it (closed
        documents leave none behind)."""
        lock, users = self._locks.setdefault(uri, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[uri]

    def _linter(self, uri: str, settings: DocumentSettings) -> IncrementalLinter:
        linter = self._linters.get(uri)
        if linter is None or linter.config is not settings.config or linter.path != settings.path or \
                linter.file != settings.file:
            linter = self._linters[uri] = IncrementalLinter(settings.config, settings.path, file=settings.file)
        return linter

    async def _analyse(self, uri: str) -> DocumentLint | None:
        """The findings for the document's current version (hold ``_lock(uri)``); None if it is gone or a
        newer version came in while it was being linted."""
        doc = self.docs.get(uri)
        if doc is None or not doc.is_python:
            return None
        version, text = doc.version, doc.text
        cached = self._analyses.get(uri)
        if cached is not None and cached.version == version and (cached.text is text or cached.text == text):
            return cached
        settings = self.settings_for(doc)
        generation = self._generation
        result = DocumentLint(version, text, settings)
        if not settings.excluded:
            linter = self._linter(uri, settings)

            def check() -> None:
                if doc.version != version or doc.text is not text or self.docs.get(uri) is not doc \
                        or self._generation != generation:  # (settings changed: the run queued behind lints)
                    raise Superseded

            first = linter.fresh  # (its table is built after the diagnostics are out: ``_tabulate``)
            try:  # in a worker thread: changes keep coming in, and stop a run they make stale
                lint = linter.first_lint if first else linter.lint
                result.findings = await asyncio.to_thread(without_gc_passes, lint, text, check)
                if first:
                    self._background(self._tabulate(uri, result))
            except Superseded:
                return None
            except SourceError as err:
                result.error = err
            except Exception:  # a bug in a rule must not take the editor's server down
                log.exception("iri-lint failed on %s", uri)
                linter.forget()
                self.window_log_message(types.LogMessageParams(
                    type=types.MessageType.Error, message=f"iri-lint: internal error on {uri}; see the log"))
            result.run = linter.last
            if self._generation != generation:
                return None
        self._analyses[uri] = result
        return result

    async def _tabulate(self, uri: str, result: DocumentLint) -> None:
        """Build the statement table of a document's first lint (what edits, hovers and fixes read), once
        its diagnostics are published: the same lint again, keeping the statements."""
        try:
            async with self._lock(uri):
                doc, linter = self.docs.get(uri), self._linters.get(uri)
                if doc is None or linter is None or linter.base is not None or doc.text is not result.text:
                    return

                def check() -> None:
                    if doc.text is not result.text or self.docs.get(uri) is not doc:
                        raise Superseded

                await asyncio.to_thread(linter.lint, result.text, check)
        except (Superseded, SourceError):
            pass
        except Exception:
            log.exception("iri-lint failed on %s", uri)

    def _background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _view(self, uri: str, result: DocumentLint, first: int, last: int, literals: bool = False) -> StatementView:
        """Lines first..last of ``result.text`` as hovers and fixes read them: the statements there, linted
        again on their own (lsp/incremental.py); the whole file when there is no statement table for it
        (its literals too if ``literals``). Hold ``_lock(uri)``: it reads the linter's table."""
        linter = self._linters.get(uri)
        view = linter.view(result.text, first, last) if linter is not None else None
        if view is None:
            text, config, path, file = result.text, result.settings.config, result.settings.path, result.settings.file
            view = StatementView(text, 0, 0, file_literals(text, config, path, file) if literals else [],
                                 lint_text(text, config, path=path, file=file) if result.findings else [], [])
        return view

    def _index(self, uri: str, result: DocumentLint) -> LineIndex:
        doc = self.docs.get(uri)
        return doc.index(self.encoding) if doc is not None and doc.text is result.text \
            else LineIndex(result.text, self.encoding)

    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds of quiet (each change restarts the clock)."""
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        if delay <= 0:
            self._start(uri)
        else:
            self._timers[uri] = asyncio.get_running_loop().call_later(delay, self._start, uri)

    def _start(self, uri: str) -> None:
        self._timers.pop(uri, None)
        self._background(self.lint_and_publish(uri))

    async def lint_and_publish(self, uri: str) -> None:
        """Lint a document's latest version and publish its diagnostics; never raises."""
        try:
            async with self._lock(uri):
                result = await self._analyse(uri)
                doc = self.docs.get(uri)
                if result is None or doc is None or doc.version != result.version:
                    return  # gone, or superseded: the newer version's run publishes
                if self._published.get(uri) is not result:  # (runs queued behind one another share it)
                    self._published[uri] = result
                    self.publish(uri, result, doc)
        except Exception:
            log.exception("linting %s failed", uri)

    def publish(self, uri: str, result: DocumentLint, doc: Document) -> None:
        started = time.perf_counter()
        index = self._index(uri, result)
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
        if result.run is not None and self.protocol.trace not in (None, types.TraceValue.Off):
            run = result.run
            self.log_trace(types.LogTraceParams(
                message=f"iri-lint: linted {uri} v{result.version} in {run.seconds * 1000:.1f} ms ({run.describe()}); "
                        f"{len(diagnostics)} diagnostics in {(time.perf_counter() - started) * 1000:.1f} ms"))

    # ---------------------------------------------------------------- code actions

    def _workspace_edit(self, uri: str, version: int | None, index: LineIndex,
                        edits: Sequence[SourceEdit]) -> types.WorkspaceEdit:
        text_edits: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = [
            types.TextEdit(range=index.range(e.start, e.end), new_text=e.new) for e in edits]
        caps = self.client_capabilities.workspace
        if caps and caps.workspace_edit and caps.workspace_edit.document_changes:
            ident = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=ident, edits=text_edits)])
        return types.WorkspaceEdit(changes={uri: [e for e in text_edits if isinstance(e, types.TextEdit)]})

    async def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        only = params.context.only

        def wanted(kind: str) -> bool:
            return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)

        async with self._lock(uri):
            result = await self._analyse(uri)
            if result is None or result.error is not None:
                return []
            index = self._index(uri, result)
            lo, hi = index.offset(params.range.start), index.offset(params.range.end)
            first, last = params.range.start.line + 1, params.range.end.line + 1  # LSP lines are lint lines
            view = None
            if result.findings and wanted(types.CodeActionKind.QuickFix):
                view = await asyncio.to_thread(self._view, uri, result, first, last)
        # fixes are verified by parsing the fixed statements, noqa comments placed by tokenizing: not in the loop
        actions = await asyncio.to_thread(self._quick_fixes, uri, result, index, view, lo, hi) if view else []
        if wanted(FIX_ALL):  # (computed now when asked for by name, as on save; else when picked)
            action = await self.fix_all_action(uri, result, index, lazy=only is None and self.can_resolve())
            if action is not None:
                actions.append(action)
        return actions

    def _quick_fixes(self, uri: str, result: DocumentLint, index: LineIndex, view: StatementView,
                     lo: int, hi: int) -> list[types.CodeAction]:
        """Each finding's fix (when it has one) and a noqa comment for it, for findings in [lo, hi]."""
        actions: list[types.CodeAction] = []
        silencers: list[types.CodeAction] = []
        seen_noqa: set[tuple[int, str]] = set()
        base = view.offset

        def moved(edits: Sequence[SourceEdit]) -> list[SourceEdit]:
            return [SourceEdit(e.start + base, e.end + base, e.new) for e in edits]

        for sf in view.findings:
            start, end = finding_offsets(view.text, sf)
            if not (start + base <= hi and lo <= end + base):
                continue
            diag = to_diagnostic(view.in_document(sf), index)
            fix = sf.finding.fix
            if fix is not None:
                edits = fix_edits(view.text, sf)
                if edits is not None:
                    safe = fix.safety is FixSafety.SAFE
                    title = f"{SOURCE} ({sf.code}): {fix.description.rstrip('.')}" + ("" if safe else " (unsafe)")
                    actions.append(types.CodeAction(
                        title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                        is_preferred=safe, edit=self._workspace_edit(uri, result.version, index, moved(edits))))
            edit = noqa_edit(view.text, start, sf.code, view.statement_of(sf.start.line))
            if edit is not None and (edit.start + base, sf.code) not in seen_noqa:
                seen_noqa.add((edit.start + base, sf.code))
                silencers.append(types.CodeAction(
                    title=f"{SOURCE}: Disable {sf.code} for this line", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diag], edit=self._workspace_edit(uri, result.version, index, moved([edit]))))
        return actions + silencers

    async def fix_all_action(self, uri: str, result: DocumentLint, index: LineIndex,
                             lazy: bool = False) -> types.CodeAction | None:
        """"Fix all safe problems in this file", as one minimal edit; with ``lazy``, without it: a light
        bulb's request (every move of the cursor) would fix the whole file, and the edit comes with
        ``codeAction/resolve`` when the user picks the action."""
        if not any(sf.finding.fix and sf.finding.fix.safety is FixSafety.SAFE for sf in result.findings):
            return None
        doc = self.docs.get(uri)
        if doc is None or self.link_outside(doc) is not None:
            return None
        action = types.CodeAction(title=f"{SOURCE}: Fix all safe problems", kind=FIX_ALL, data={"uri": uri})
        if lazy:
            return action
        edits = await self._fix_all_edits(result)
        if not edits:
            return None
        action.edit = self._workspace_edit(uri, result.version, index, edits)
        return action

    async def _fix_all_edits(self, result: DocumentLint) -> list[SourceEdit]:
        if result.fix_all is None:  # (once per version: every request for it gets the same)
            settings = result.settings
            new = await asyncio.to_thread(fix_all, result.text,
                                          lambda t: lint_text(t, settings.config, path=settings.path,
                                                              file=settings.file))
            edit = minimal_edit(result.text, new)
            result.fix_all = [] if edit is None else [edit]
        return result.fix_all

    def can_resolve(self) -> bool:
        """Whether the client asks for a code action's edit when it is picked (``codeAction/resolve``)."""
        caps = self.client_capabilities.text_document
        actions = caps.code_action if caps else None
        support = actions.resolve_support if actions else None
        return bool(actions and actions.data_support and support and "edit" in support.properties)

    async def resolve_code_action(self, action: types.CodeAction) -> types.CodeAction:
        """The edit of a lazily offered "fix all", for the document as it is now."""
        uri = action.data.get("uri") if isinstance(action.data, dict) else None
        if action.kind != FIX_ALL or not isinstance(uri, str):
            return action
        async with self._lock(uri):
            result = await self._analyse(uri)
        doc = self.docs.get(uri)
        if result is None or result.error is not None or doc is None or self.link_outside(doc) is not None:
            return action
        edits = await self._fix_all_edits(result)
        if edits:
            action.edit = self._workspace_edit(uri, result.version, self._index(uri, result), edits)
        return action

    def link_outside(self, doc: Document) -> str | None:
        """Why "fix all" must not touch the document: a symlink resolving outside the workspace (the
        same rule as ``iri-lint check --fix``, iri_lint.files.fileio); else None."""
        if doc.path is None:
            return None
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

    async def hover(self, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        line = params.position.line + 1
        async with self._lock(uri):
            result = await self._analyse(uri)
            if result is None or result.error is not None or result.settings.excluded:
                return None
            index = self._index(uri, result)
            view = await asyncio.to_thread(self._view, uri, result, line, line, True)
        offset = index.offset(params.position) - view.offset
        lit = view.literal_at(offset)
        if lit is None or lit.locator is None:
            return None
        mine = [sf for sf in view.findings if (sf.literal.start, sf.literal.end) == (lit.start, lit.end)]
        src = lit.locator.source
        lit_range = index.range(view.offset + src.offset(lit.start.line, lit.start.col),
                                view.offset + src.offset(lit.end.line, lit.end.col))
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=hover_markdown(lit, mine)), range=lit_range)

    # ---------------------------------------------------------------- running; watching pyproject.toml

    @property
    def lsp(self) -> IriLintProtocol:
        protocol = self.protocol
        assert isinstance(protocol, IriLintProtocol)
        return protocol

    def run_stdio(self) -> int:
        """Serve over stdin/stdout until ``exit`` or the end of stdin; the process's exit code."""
        self.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
        return run_stdio(self.lsp)

    def run_tcp(self, host: str, port: int) -> int:
        """Serve the first client to connect to ``host:port``; the exit code."""
        return run_tcp(self.lsp, host, port, self.protocol.set_writer)

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


def _raise(exc: Exception) -> NoReturn:
    raise exc


async def _guard(default: T, fn: Callable[[P], Awaitable[T]], params: P) -> T:
    """Run a request handler; log and answer ``default`` instead of failing the request."""
    try:
        return await fn(params)
    except Exception:
        log.exception("request failed")
        return default


def create_server(debounce: float = DEBOUNCE_SECONDS) -> IriLintServer:  # noqa: C901 - one nested handler per LSP method, registered in turn
    """A server with every feature registered."""
    long_lived_process()  # (the gc stays whole: this process lives as long as the editor)
    server = IriLintServer(debounce=debounce)

    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.set_editor_settings(params.initialization_options, initial=True)
        if params.trace is not None:
            server.protocol.trace = params.trace

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        server.report_settings_problems(server.settings_problems)
        await server.watch_pyproject()
        if await server.pull_settings():
            server.reload_settings()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.open(params.text_document)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.change(params)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri.endswith("/pyproject.toml"):
            server.reload_settings()
        else:
            server.schedule(uri, 0)
            server.sources_changed([uri])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.forget(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(params: types.DidChangeWatchedFilesParams) -> None:
        if any(c.uri.endswith("pyproject.toml") for c in params.changes):
            server.reload_settings()
        server.sources_changed(c.uri for c in params.changes)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if settings is not None and (unwrap(settings) is not settings or looks_like_settings(settings)):
            server.set_editor_settings(settings)  # pushed: {"iri-lint": {...}}, or the section itself
        else:  # the pull model: "something changed, ask me"
            await server.pull_settings()
        server.reload_settings()

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True))
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        return await _guard([], server.code_actions, params) or None

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(action: types.CodeAction) -> types.CodeAction:
        return await _guard(action, server.resolve_code_action, action)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        return await _guard(None, server.hover, params)

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
    return server.run_tcp(args.host, args.port) if args.tcp else server.run_stdio()


if __name__ == "__main__":
    raise SystemExit(main())
