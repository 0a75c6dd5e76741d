"""#31 item 9: ``inspect`` is a validator for scripts; ``explain`` shows examples as they read."""

from __future__ import annotations

import json

import pytest

from .conftest import CLI


@pytest.mark.parametrize(("iri", "code"), [("https://例え.jp/パス", 0), ("http://a b/", 1), ("http://[::1", 1),
                                           ("https://example.com/%zz", 1), ("relative/ref", 0)])
def test_inspect_exits_1_when_the_iri_is_not_valid(cli: CLI, iri: str, code: int) -> None:
    r = cli("inspect", iri)
    assert r.code == code and ("NOT valid" in r.out) == bool(code)
    as_json = cli("inspect", "--json", iri)
    assert as_json.code == code and json.loads(as_json.out)["valid"] is not bool(code)


def test_explain_prints_examples_as_they_read(cli: CLI) -> None:
    bidi = cli("explain", "IRI201").out
    assert "  'https://example.com/אבג'\n" in bidi  # Hebrew reads as Hebrew
    assert "  'https://example.com/\\u202eabc'\n" in bidi  # an invisible override stays escaped
    assert "\\u05d0" not in bidi
    spoof = cli("explain", "IRI502").out
    assert "  'https://p\u0430ypal.com/'  (U+0430 CYRILLIC SMALL LETTER A looks like 'a')\n" in spoof
    assert "  'https://пример.рф/'\n" in spoof  # a Cyrillic name that passes for nothing is left alone
    nfc = cli("explain", "IRI115").out
    assert "'https://example.com/café'" in nfc and "\\xe9" not in nfc


def test_explain_prints_a_module_example_as_code_and_every_paragraph_indented(cli: CLI) -> None:
    """A source rule's example is a module: its lines, indented, not one escaped string; a rule page's lists
    (IRI803's "Reported:" and "Not reported:") stay under their heading."""
    out = cli("explain", "IRI803").out
    assert '    LISTING = "https://shop.example/list?page=1"\n    requests.get(LISTING + "?sort=desc")\n' in out
    assert "\\u000a" not in out and "\n  Not reported:\n\n  - a single literal holding both" in out
