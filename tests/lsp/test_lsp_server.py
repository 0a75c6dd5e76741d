"""The language server end to end: a real ``python -m iri_lint.lsp`` over stdio, driven by pytest-lsp."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsp_util import (
    SERVER,
    accept_registrations,
    apply_text_edits,
    change_doc,
    edits_of,
    next_diagnostics,
    open_doc,
    summary,
)
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIX_ALL = "source.fixAll.iri-lint"

# one known problem per line; the pyproject below turns on IRI305 (lowercase percent hex)
SAMPLE = '''import requests

requests.get("http://example.com/%e2%82%ac")
E = "😀"; requests.get("http://example.com/%zz")
BIDI = "http://example.com/a\\u202eb"
url = "http://example.com/😀/%zz"  # noqa: E501
heb = "http://example.com/שלום/abc"
'''

PYPROJECT = '[tool.iri-lint]\nextend-select = ["IRI305"]\n'


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return root


@pytest_lsp.fixture(scope="module", config=SERVER)  # type: ignore[untyped-decorator]  # pytest-lsp and lsprotocol ship no types for it
async def client(lsp_client: LanguageClient, workspace: Path):  # type: ignore[no-untyped-def]
    lsp_client.registrations = accept_registrations(lsp_client)  # type: ignore[attr-defined]
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="ws")],
    ))
    yield
    await lsp_client.shutdown_session()


def uri_of(workspace: Path, name: str, text: str) -> str:
    path = workspace / name
    path.write_text(text, encoding="utf-8")
    return path.as_uri()


async def actions_at(client: LanguageClient, uri: str, diag: types.Diagnostic,
                     only: list[str] | None = None) -> list[types.CodeAction]:
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diag.range,
        context=types.CodeActionContext(diagnostics=[diag], only=only)))
    return [a for a in got or [] if isinstance(a, types.CodeAction)]


async def test_watches_pyproject_and_answers_empty_requests(client: LanguageClient) -> None:
    uri = "untitled:Empty-1"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text="")))
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    assert not got
    for _ in range(500):
        registered = [r for p in client.registrations for r in p.registrations]  # type: ignore[attr-defined]
        if registered:
            break
        await asyncio.sleep(0.01)
    assert [r.method for r in registered] == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]


async def test_diagnostics_exact_ranges(client: LanguageClient, workspace: Path) -> None:
    uri = uri_of(workspace, "sample.py", SAMPLE)
    diags = await open_doc(client, uri, SAMPLE)
    assert summary(diags) == [
        ("IRI305", 2, 33, 2, 36),  # %e2, and %ac: one finding per literal for one rule
        ("IRI110", 3, 43, 3, 44),  # '%' after an emoji on the line: code point 42, UTF-16 unit 43
        ("IRI201", 4, 28, 4, 34),  # the whole escape \u202e
        ("IRI110", 5, 29, 5, 30),  # emoji inside the IRI before the '%'
    ]
    by_code = {d.code: d for d in diags}
    bidi = by_code["IRI201"]
    assert bidi.severity == types.DiagnosticSeverity.Error
    assert bidi.source == "iri-lint"
    assert bidi.code_description is not None
    assert bidi.code_description.href == "https://iri-lint.readthedocs.io/en/latest/rules/IRI201/"
    assert "U+202E" in bidi.message
    assert by_code["IRI305"].severity == types.DiagnosticSeverity.Information
    # the ranges cover exactly the offending source text
    lines = SAMPLE.split("\n")
    assert lines[4][28:34] == "\\u202e"
    assert lines[3].encode("utf-16-le")[43 * 2 : 44 * 2].decode("utf-16-le") == "%"
    assert lines[5].encode("utf-16-le")[29 * 2 : 30 * 2].decode("utf-16-le") == "%"


async def test_quick_fixes_clear_diagnostics(client: LanguageClient, workspace: Path) -> None:
    uri = uri_of(workspace, "quick.py", SAMPLE)
    diags = await open_doc(client, uri, SAMPLE)
    text, version = SAMPLE, 1
    for code, line, expected in [
        ("IRI110", 3, 'E = "😀"; requests.get("http://example.com/%25zz")'),
        ("IRI201", 4, 'BIDI = "http://example.com/ab"'),
    ]:
        diag = next(d for d in diags if d.code == code and d.range.start.line == line)
        actions = await actions_at(client, uri, diag)
        fix = next(a for a in actions if a.title.startswith(f"iri-lint ({code})"))
        assert fix.kind == types.CodeActionKind.QuickFix
        assert not fix.is_preferred  # both change the IRI: unsafe, offered but not preferred
        assert fix.diagnostics and fix.diagnostics[0].code == code
        edits = edits_of(fix.edit, uri)
        text = apply_text_edits(text, edits)
        assert text.split("\n")[line] == expected
        version += 1
        diags = await change_doc(client, uri, version, edits)
        assert not [d for d in diags if d.code == code and d.range.start.line == line]
    assert {d.code for d in diags} == {"IRI305", "IRI110"}


async def test_safe_fix_is_preferred_and_fix_all(client: LanguageClient, workspace: Path) -> None:
    uri = uri_of(workspace, "fixall.py", SAMPLE)
    diags = await open_doc(client, uri, SAMPLE)
    hex_diag = diags[0]
    actions = await actions_at(client, uri, hex_diag)
    quick = [a for a in actions if a.title.startswith("iri-lint (IRI305)")]
    assert len(quick) == 1 and quick[0].is_preferred
    assert edits_of(quick[0].edit, uri)[0].new_text == "%E2"
    # source.fixAll: every safe fix in the file, one edit; only when asked for that kind
    everything = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=99, character=0))
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=everything,
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    assert got is not None and len(got) == 1
    fix_all = got[0]
    assert isinstance(fix_all, types.CodeAction) and fix_all.kind == FIX_ALL
    edits = edits_of(fix_all.edit, uri)
    new = apply_text_edits(SAMPLE, edits)
    assert new == SAMPLE.replace("%e2%82%ac", "%E2%82%AC")
    diags = await change_doc(client, uri, 2, edits)
    assert [d.code for d in diags] == ["IRI110", "IRI201", "IRI110"]  # unsafe ones stay


async def test_disable_for_this_line(client: LanguageClient, workspace: Path) -> None:
    uri = uri_of(workspace, "noqa.py", SAMPLE)
    diags = await open_doc(client, uri, SAMPLE)
    text = SAMPLE
    for line, expected_tail in [(3, '"http://example.com/%zz")  # noqa: IRI110'),
                                (5, '# noqa: E501, IRI110')]:  # merged into the existing comment
        diag = next(d for d in diags if d.range.start.line == line)
        actions = await actions_at(client, uri, diag)
        silence = next(a for a in actions if a.title == "iri-lint: Disable IRI110 for this line")
        edits = edits_of(silence.edit, uri)
        text = apply_text_edits(text, edits)
        assert text.split("\n")[line].endswith(expected_tail)
        diags = await change_doc(client, uri, line, edits)
        assert not [d for d in diags if d.range.start.line == line]


async def test_hover_shows_uri_normal_and_display_forms(client: LanguageClient, workspace: Path) -> None:
    uri = uri_of(workspace, "hover.py", SAMPLE)
    await open_doc(client, uri, SAMPLE)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=6, character=30)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    assert "URI form" in text and "%D7%A9%D7%9C%D7%95%D7%9D" in text
    assert "Displayed as" in text
    assert hover.range is not None and hover.range.start == types.Position(line=6, character=6)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=20)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "⟨U+202E⟩" in hover.contents.value and "IRI201" in hover.contents.value
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=3)))
    assert hover is None


@pytest.mark.parametrize("broken", [
    "def f(:\n    x = 'http://example.com/%zz'\n",  # syntax error
    "x = 'http://example.com/%zz'\x00\n",  # NUL byte
    "x = 'http://example.com/\ud800'\n",  # lone surrogate from the editor's buffer
    "x = (" * 300 + "\n",  # too deeply nested
    "",
])
async def test_broken_document_does_not_kill_the_server(client: LanguageClient, workspace: Path,
                                                        broken: str) -> None:
    uri = (workspace / f"broken{abs(hash(broken))}.py").as_uri()
    diags = await open_doc(client, uri, broken)
    assert all(d.severity == types.DiagnosticSeverity.Information and d.code is None for d in diags)
    assert len(diags) <= 1
    # hover and code actions answer (nothing), and the server still lints: fix the text
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
    assert hover is None
    diags = await change_doc(client, uri, 2, "x = 'http://example.com/%zz'\n")
    assert summary(diags) == [("IRI110", 0, 24, 0, 25)]


async def test_close_clears_diagnostics(client: LanguageClient, workspace: Path) -> None:
    uri = uri_of(workspace, "closed.py", SAMPLE)
    assert await open_doc(client, uri, SAMPLE)
    before = client.diagnostics.get(uri)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await next_diagnostics(client, uri, before) == []


async def test_a_lone_surrogate_in_a_value_reaches_the_editor(client: LanguageClient, workspace: Path) -> None:
    """The value 'http://example.com/\\ud800x' (an escape in source) must not break the JSON-RPC stream."""
    text = 'URL = "http://example.com/\\ud800x"\n'
    uri = uri_of(workspace, "surrogate.py", text)
    diags = await open_doc(client, uri, text)
    assert [(code, line) for code, line, *_ in summary(diags)] == [("IRI109", 0)]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=10)))
    assert hover is not None  # served, not a crashed server


def test_python_m_iri_lint_lsp_runs_the_server_main(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m iri_lint.lsp`` (here through runpy; the server tests start it for real) reads its options."""
    import runpy

    from iri_lint import __version__

    monkeypatch.setattr(sys, "argv", ["iri_lint.lsp", "--version"])
    with pytest.raises(SystemExit) as exc:
        runpy.run_module("iri_lint.lsp", run_name="__main__", alter_sys=True)
    assert exc.value.code == 0 and capsys.readouterr().out == f"iri-lint {__version__}\n"


async def test_a_saved_module_lints_again_the_open_documents_whose_values_read_it(client: LanguageClient,
                                                                                  workspace: Path) -> None:
    """``requests.get(CDN + "/img")`` with ``CDN`` from another module: that module saved with a trailing
    ``/`` republishes the open document (IRI802), whose own text did not change (fixtures38, repro 01)."""
    settings = workspace / "cdn_settings.py"
    settings.write_text('CDN = "https://cdn.example.net"\n', encoding="utf-8")
    uri = uri_of(workspace, "cdn_use.py", 'import requests\nfrom cdn_settings import CDN\nrequests.get(CDN + "/img")\n')
    text = (workspace / "cdn_use.py").read_text(encoding="utf-8")
    assert await open_doc(client, uri, text) == []
    await asyncio.sleep(0.3)  # (the statement table is built after the first diagnostics)
    settings.write_text('CDN = "https://cdn.example.net/"\n', encoding="utf-8")
    before = client.diagnostics[uri]
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=settings.as_uri())))
    assert [d.code for d in await next_diagnostics(client, uri, before)] == ["IRI802"]


async def test_a_finding_placed_at_a_name_relates_where_another_module_spells_it(client: LanguageClient,
                                                                                workspace: Path) -> None:
    """``requests.get("https://h.example" + RLO_SEG)``: the diagnostic at ``RLO_SEG`` has a related information
    (LSP 3.17) at the character in the module spelling it, in the client's UTF-16 units (the emoji before it
    takes two); a literal's own finding has none."""
    conf = workspace / "spelled_conf.py"
    conf.write_text('X = 1\nE = "\U0001f600"; RLO_SEG = "/a\\u202eb"\n', encoding="utf-8")
    text = ('import requests\nfrom spelled_conf import RLO_SEG\nrequests.get("https://h.example" + RLO_SEG)\n'
            'requests.get("https://h.example/a b")\n')
    at_name, own = await open_doc(client, uri_of(workspace, "spelled_use.py", text), text)
    assert (at_name.code, at_name.range.start.line, own.code) == ("IRI201", 2, "IRI101")
    at = types.Position(line=1, character=conf.read_text(encoding="utf-8").splitlines()[1].index("\\") + 1)
    assert list(at_name.related_information or ()) == [types.DiagnosticRelatedInformation(
        location=types.Location(uri=conf.as_uri(), range=types.Range(start=at, end=at)), message="piece spelled here")]
    assert own.related_information is None


async def test_a_finding_at_a_name_keeps_its_range_when_the_module_spelling_it_is_open(
        client: LanguageClient, workspace: Path) -> None:
    """With ``settings.py`` open too, its text is read from the editor's document: the finding is still at
    ``settings.SPACE_SEG``, not over the whole argument (fixtures89, repro 01: the piece was looked for by
    identity in a second reading of the module)."""
    (workspace / "openpkg").mkdir()
    (workspace / "openpkg" / "__init__.py").write_text("", encoding="utf-8")
    conf_text = ('CDN = "https://cdn.example.net"\nSPACE_SEG = "/a b"\nRLO_SEG = "/a\\u202eb"\n'
                 'STATUS_URL = CDN + "/status page"\nDOCS_URL = CDN + "docs"\n')
    text = ('import requests\n\nfrom openpkg import settings\n\n\nclass Charges:\n    def spaced(self):\n'
            '        return requests.get(settings.CDN + settings.SPACE_SEG)\n\n    def trojan(self):\n'
            '        return requests.get(settings.CDN + settings.RLO_SEG)\n')
    uri = uri_of(workspace, "openpkg/charges.py", text)
    for name, body in (("openpkg/settings.py", conf_text), ("openpkg/charges.py", text)):  # (opened together)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri_of(workspace, name, body), language_id="python", version=1, text=body)))
    found = await next_diagnostics(client, uri)
    start = text.splitlines()[7].index("settings.SPACE_SEG")
    assert [(d.code, d.range.start.line, d.range.start.character, d.range.end.character) for d in found] == [
        ("IRI101", 7, start, start + len("settings.SPACE_SEG")),
        ("IRI201", 10, start, start + len("settings.RLO_SEG"))]


async def test_a_module_created_after_its_importer_was_opened_is_read(client: LanguageClient,
                                                                      workspace: Path) -> None:
    """The editor's project looks again for a module it did not find: created on disk (the editor reports
    the new file), the open importer's values read it (fixtures38, a sibling created late)."""
    use = workspace / "late_use.py"
    use.write_text('import requests\nfrom late_settings import CDN\nrequests.get(CDN + "img")\n', encoding="utf-8")
    assert await _codes_once_created(client, use, workspace / "late_settings.py",
                                     'CDN = "https://cdn.example.net"\n') == ["IRI801"]


async def test_a_folder_made_a_package_qualifies_the_names_of_relative_imports(client: LanguageClient,
                                                                                workspace: Path) -> None:
    """``from .http import fetch`` names ``late_pkg.http.fetch`` (an extra URL API) only once ``late_pkg`` holds an
    ``__init__.py``: created while the importer is open, the editor's report of it has the folders read again."""
    pkg = workspace / "late_pkg"
    pkg.mkdir()
    (pkg / "pyproject.toml").write_text('[tool.iri-lint]\nextra-url-apis = ["late_pkg.http.fetch"]\n',
                                        encoding="utf-8")
    (pkg / "http.py").write_text("def fetch(address):\n    return address\n", encoding="utf-8")
    (pkg / "use.py").write_text('from .http import fetch\nfetch("/files/a b")\n', encoding="utf-8")
    assert await _codes_once_created(client, pkg / "use.py", pkg / "__init__.py", "") == ["IRI101"]


async def _codes_once_created(client: LanguageClient, use: Path, created: Path, text: str) -> list[object]:
    """Open ``use`` (no diagnostics yet), create ``created`` holding ``text`` and report it as the editor does:
    the codes of ``use``'s diagnostics published next."""
    uri = use.as_uri()
    assert await open_doc(client, uri, use.read_text(encoding="utf-8")) == []
    await asyncio.sleep(0.3)  # (the statement table is built after the first diagnostics)
    created.write_text(text, encoding="utf-8")
    before = client.diagnostics[uri]
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=created.as_uri(), type=types.FileChangeType.Created)]))
    return [d.code for d in await next_diagnostics(client, uri, before)]
