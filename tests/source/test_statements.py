"""iri_lint.source.statements: a module scanned one top-level statement at a time, or from the middle
with the context an earlier scan left, finds what the whole module's scan finds."""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.source.filling import find_filled_names
from iri_lint.source.literals import ScanOptions, find_literals, marked_lines
from iri_lint.source.locate import SourceFile, split_lines
from iri_lint.source.model import Literal
from iri_lint.source.statements import ScanContext, StatementScanner, first_line, merge_formatted

# statements whose literals depend on others: imports (URL APIs), a session bound later, a name
# formatted elsewhere (a template), a URL-named target, prose (text mode), decorators
STATEMENTS = (
    "import requests\n",
    "from urllib.request import urlopen as fetch\n",
    "s = requests.Session()\n",
    'URL = "http://example.com/%s a"\n',
    "u = URL % 1\n",
    'T = "http://example.com/{x} b"\n',
    "v = T.format(x=1)\n",
    's.get("http://example.com/a b")\n',
    'fetch("http://example.com/c d")\n',
    'requests.get("/relative path")\n',
    'home_url = "http://exa mple.com/"\n',
    'def f():\n    """See http://example.com/a b for more."""\n    return s.post("http://example.com/ e")\n',
    '@app.route("http://x/{y}")\ndef g():\n    pass\n',
    'x = 1; y = "https://example.com/é"\n',
    "try:\n    import httpx as s\nexcept ImportError:\n    pass\n",
    's.get("http://example.com/%zz")\n',
)


def key(lit: Literal) -> tuple[object, ...]:
    return (lit.value, lit.reason, lit.context, lit.kind, lit.start, lit.end, lit.holes, lit.api, lit.uri_only_api)


def whole(text: str, opts: ScanOptions) -> list[tuple[object, ...]]:
    return [key(lit) for lit in find_literals(ast.parse(text), split_lines(text), options=opts)]


def by_statement(text: str, opts: ScanOptions, start_at: int = 0) -> tuple[list[tuple[object, ...]],
                                                                           list[ScanContext]]:
    """Scan the whole module statement by statement, then again from statement ``start_at`` with the
    context the first scan had there: the literals of the second scan, and every context of the first."""
    lines = split_lines(text)
    body = ast.parse(text).body
    marked = marked_lines(SourceFile(lines), opts)
    formatted = merge_formatted(find_filled_names(s) for s in body)
    scanner = StatementScanner(lines, body, opts, marked=marked, formatted=formatted)
    contexts, found = [], []
    for stmt in body:
        contexts.append(scanner.context())
        found.append([key(lit) for lit in scanner.scan(stmt)])
    contexts.append(scanner.context())
    if start_at == 0:
        return [k for group in found for k in group], contexts
    rest = body[start_at:]
    again = StatementScanner(lines, rest, opts, marked=marked, formatted=formatted, start=contexts[start_at])
    resumed = [key(lit) for stmt in rest for lit in again.scan(stmt)]
    assert resumed == [k for group in found[start_at:] for k in group]
    assert again.context() == contexts[-1]
    return resumed, contexts


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=10), st.booleans(), st.data())
def test_a_scan_by_statements_finds_what_the_whole_scan_finds(parts: list[str], text_mode: bool,
                                                              data: st.DataObject) -> None:
    text = "".join(parts)
    opts = ScanOptions(include_docstrings=text_mode)
    expected = whole(text, opts)
    found, _ = by_statement(text, opts)
    assert found == expected
    n = len(ast.parse(text).body)
    start_at = data.draw(st.integers(0, n - 1))
    resumed, _ = by_statement(text, opts, start_at)
    first = first_line(ast.parse(text).body[start_at])
    assert resumed == [k for k in expected if k[4].line >= first]  # type: ignore[attr-defined]


def test_the_context_names_what_was_bound_before_each_statement() -> None:
    text = "import requests\nx = 1\ns = requests.Session()\n"
    _, contexts = by_statement(text, ScanOptions())
    assert contexts[0].aliases == {"requests": "requests"}  # the imports are bound before the first
    assert contexts[2] is contexts[1]  # nothing bound by `x = 1`: the same snapshot
    assert contexts[3].aliases["s"] == "requests.Session()" and "s" in contexts[3].words


def test_a_statement_resumed_without_its_context_misses_the_api() -> None:
    """What the context carries matters: the same statement scanned from an empty context does not know
    ``s`` is a session, and finds no URL context for its relative reference."""
    text = 'import requests\ns = requests.Session()\ns.get("/a b")\n'
    lines, body, opts = split_lines(text), ast.parse(text).body, ScanOptions()
    marked = marked_lines(SourceFile(lines), opts)
    _, contexts = by_statement(text, opts)
    with_context = StatementScanner(lines, body[2:], opts, marked=marked, formatted={}, start=contexts[2])
    without = StatementScanner(lines, body[2:], opts, marked=marked, formatted={}, start=ScanContext({}, frozenset()))
    assert [lit.value for lit in with_context.scan(body[2])] == ["/a b"]
    assert without.scan(body[2]) == []


def test_merge_formatted_merges_as_one_pass_over_the_module() -> None:
    text = 'A = "x"\nb = A % 1\nc = A.format(1)\nd = B.replace("ID", "2")\n'
    tree = ast.parse(text)
    assert merge_formatted(find_filled_names(s) for s in tree.body) == find_filled_names(tree)
