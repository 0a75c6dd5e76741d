"""Hovers and code actions read the last lint (issue #29 part 3): on a long file they parse the
statement they are about, never the whole file again; and what they answer is what a full lint says."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

import pytest
from inprocess import InProcess

from iri_lint.config import Config
from iri_lint.lint import lint_text

pytestmark = pytest.mark.asyncio

HEAD = "from urllib.request import urlopen\n\n"
FILLER = "".join(f"\n\ndef helper{i}(values):\n    return [v * {i} for v in values]  # padding\n" for i in range(400))
FETCH = '\n\ndef fetch():\n    return urlopen("https://bücher.example/straße")\n'
TEXT = HEAD + FILLER + FETCH + FILLER.replace("helper", "more")
URI = "file:///work/long_module.py"
LINE = TEXT.split("\n").index('    return urlopen("https://bücher.example/straße")')


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every source ``ast.parse`` is given from now on (the linter's, the fixes' checks)."""
    seen: list[int] = []
    real: Callable[..., Any] = ast.parse

    def spy(source: str | bytes, *args: Any, **kwargs: Any) -> Any:
        seen.append(len(source))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", spy)
    return seen


# what VS Code says of its code actions: it asks for an action's edit when the user picks it
RESOLVES = {"textDocument": {"codeAction": {"dataSupport": True, "resolveSupport": {"properties": ["edit"]}}}}


async def opened(**capabilities: Any) -> tuple[InProcess, list[dict[str, Any]]]:
    client = InProcess(**capabilities)
    await client.start()
    diagnostics = await client.open(URI, TEXT)
    await client.settle()  # (the statement table is built after the first diagnostics)
    return client, diagnostics


async def test_a_hover_after_the_lint_parses_only_its_statement(parses: list[int]) -> None:
    client, _ = await opened()
    parses.clear()
    hover = await client.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                        "position": {"line": LINE, "character": 25}})
    assert hover is not None
    assert hover["contents"]["value"].count("https://xn--bcher-kva.example/stra%C3%9Fe") == 2  # (URI form, IRI404)
    assert "IRI404" in hover["contents"]["value"]
    assert hover["range"]["start"] == {"line": LINE, "character": 19}
    assert parses and max(parses) < len(TEXT) // 50, parses


async def test_code_actions_after_the_lint_parse_only_their_statement(parses: list[int]) -> None:
    client, diagnostics = await opened(**RESOLVES)
    [diag] = [d for d in diagnostics if d["code"] == "IRI404"]
    parses.clear()
    got = await client.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": diag["range"],
                                                           "context": {"diagnostics": [diag]}})
    assert parses and max(parses) < len(TEXT) // 50, parses
    titles = [a["title"] for a in got]
    assert any("IRI404" in t for t in titles) and "iri-lint: Disable IRI404 for this line" in titles
    [fix] = [a for a in got if a["title"].startswith("iri-lint (IRI404)")]
    want = next(f for f in lint_text(TEXT, Config()) if f.code == "IRI404").finding.fix
    assert want is not None
    assert fixed_by(fix) == TEXT.replace("https://bücher.example/straße", want.value)
    assert fix["diagnostics"][0]["range"] == diag["range"]
    [fix_all] = [a for a in got if a["kind"] == "source.fixAll.iri-lint"]
    assert "edit" not in fix_all  # (it comes when picked)


def fixed_by(action: dict[str, Any]) -> str:
    """The text after an editor applies the action's edits (the text has no character beyond the BMP:
    UTF-16 units are code points)."""
    starts = [0]
    for line in TEXT.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    text = TEXT
    edits = action["edit"]["changes"][URI]
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                    reverse=True):
        a = starts[e["range"]["start"]["line"]] + e["range"]["start"]["character"]
        b = starts[e["range"]["end"]["line"]] + e["range"]["end"]["character"]
        text = text[:a] + e["newText"] + text[b:]
    return text


@pytest.mark.slow  # a long file fixed whole, twice
async def test_fix_all_is_resolved_when_picked() -> None:
    client, diagnostics = await opened(**RESOLVES)
    everything = {"start": {"line": 0, "character": 0}, "end": {"line": 9999, "character": 0}}
    got = await client.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": everything,
                                                           "context": {"diagnostics": diagnostics}})
    [offered] = [a for a in got if a["kind"] == "source.fixAll.iri-lint"]
    resolved = await client.request("codeAction/resolve", offered)
    want = TEXT.replace("https://bücher.example/straße", "https://xn--bcher-kva.example/stra%C3%9Fe")
    assert fixed_by(resolved) == want
    # asked for by name (as on save), or by a client that cannot resolve: the edit comes at once
    named = await client.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": everything,
                                                             "context": {"diagnostics": [],
                                                                         "only": ["source.fixAll"]}})
    assert [fixed_by(a) for a in named] == [want]
    plain, diagnostics = await opened()
    got = await plain.request("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": everything,
                                                          "context": {"diagnostics": diagnostics}})
    assert [fixed_by(a) for a in got if a["kind"] == "source.fixAll.iri-lint"] == [want]
