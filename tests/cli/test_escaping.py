"""Reports are no Trojan Source themselves and file names cannot forge them (#30 items 8 and 17, #31 item 2).

A tree with a file name that is not UTF-8 and one holding a newline and an ANSI escape, whose code
holds a bidi override: every format writes it without a crash, machine formats escape what is
invisible, human formats show it as badges and quote the names as git does.
"""

from __future__ import annotations

import codecs
import json
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.cli.escape import badges, escape_json, escape_text, is_hidden, quote_path, unicode_path
from iri_lint.cli.formats import FORMATS

from .conftest import CLI

DATA = Path(__file__).parent / "data"
SOURCE = 'URL = "https://example.com/a b"\nNS = "http://example.com/a\u202eb"\n'
NOT_UTF8 = b"caf\xff.py"
FORGING = b"x\nfake.py:9:9: IRI999 forged\x1b[31m.py"
HUMAN = ("text", "concise", "full", "pylint")
JSON_FORMATS = ("json", "json-lines", "sarif", "gitlab")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names are bytes")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    for name in (NOT_UTF8, FORGING, b"plain.py"):
        with open(os.path.join(os.fsencode(root), name), "wb") as fh:
            fh.write(SOURCE.encode("utf-8"))
    monkeypatch.chdir(root)
    return root


def _hidden_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in text if is_hidden(c) and c not in "\n\t\r"})


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_writes_the_tree(cli: CLI, tree: Path, fmt: str) -> None:
    r = cli("check", "--isolated", "--no-cache", "--output-format", fmt, ".")
    assert r.code == 1, r.err  # findings; not 2 (a crash)
    assert "Traceback" not in r.err and "UnicodeEncodeError" not in r.err
    assert _hidden_in(r.out) == [], fmt  # no raw bidi control, ESC, newline inside a name or lone surrogate
    if fmt in HUMAN:
        lines = r.out.splitlines()
        assert not any(line.startswith("fake.py") for line in lines)  # the newline forges no line
        at = ":1: [IRI101]" if fmt == "pylint" else ":1:29: IRI101"
        assert '"x\\nfake.py:9:9: IRI999 forged\\033[31m.py"' + at in r.out
        assert '"caf\\377.py"' + at in r.out
    if fmt in JSON_FORMATS:
        docs = [json.loads(line) for line in r.out.splitlines()] if fmt == "json-lines" else [json.loads(r.out)]
        for doc in docs:  # I-JSON (RFC 7493): no lone surrogate anywhere, so every JSON parser reads it
            json.dumps(doc, ensure_ascii=False).encode("utf-8")
        if fmt in ("json", "json-lines"):
            assert "\\u202e" in r.out  # the bidi override in the value, escaped
    if fmt == "github":
        assert all(line.startswith("::") for line in r.out.splitlines())
    if fmt == "junit":
        ET.fromstring(r.out.encode("utf-8"))  # well-formed XML 1.0
        assert "\\u202e" in r.out or "IRI201" in r.out


def test_diff_headers_quote_names(cli: CLI, tree: Path) -> None:
    r = cli("check", "--isolated", "--no-cache", "--diff", "--unsafe-fixes", ".")
    assert r.code == 1 and not any(line.startswith("fake.py") for line in r.out.splitlines())
    assert '--- "a/x\\nfake.py:9:9: IRI999 forged\\033[31m.py"\n' in r.out and '+++ "b/caf\\377.py"\n' in r.out
    assert "\x1b" not in r.out


def test_sarif_names_files_by_percent_encoded_uris(cli: CLI, tree: Path) -> None:
    doc = json.loads(cli("check", "--isolated", "--no-cache", "--format", "sarif", ".").out)
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in doc["runs"][0]["results"]}
    assert uris == {"caf%FF.py", "x%0Afake.py%3A9%3A9%3A%20IRI999%20forged%1B%5B31m.py", "plain.py"}
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(doc)


def test_json_paths_are_valid_unicode(cli: CLI, tree: Path) -> None:
    doc = json.loads(cli("check", "--isolated", "--no-cache", "--format", "json", ".").out)
    paths = {f["path"] for f in doc["findings"]}
    assert paths == {"caf\ufffd.py", "x\nfake.py:9:9: IRI999 forged\x1b[31m.py", "plain.py"}


def test_human_formats_show_invisible_characters_as_badges(cli: CLI, tree: Path) -> None:
    r = cli("check", "--isolated", "--no-cache", "--format", "full", "plain.py")
    assert 'NS = "http://example.com/a⟨U+202E⟩b"' in r.out
    caret = r.out.splitlines()[r.out.splitlines().index('    NS = "http://example.com/a⟨U+202E⟩b"') + 1]
    assert caret == "    " + " " * len('NS = "http://example.com/a') + "^" * len("⟨U+202E⟩")


def test_problem_lines_and_refusals_quote_names(cli: CLI, tree: Path) -> None:
    bad = os.path.join(os.fsencode(tree), b"bad\x1b.py")
    with open(bad, "wb") as fh:
        fh.write(b'URL = "https://example.com/"\ndef f(:\n')
    r = cli("check", "--isolated", "--no-cache", os.fsdecode(bad))
    assert "\x1b" not in r.err and '"' + os.fsdecode(os.fsencode(tree)) + '/bad\\033.py":2:' in r.err


def test_baseline_holds_no_raw_bidi_control(cli: CLI, tree: Path) -> None:
    r = cli("check", "--isolated", "--no-cache", "--baseline", "b.json", "--update-baseline", "plain.py")
    assert r.code == 0
    text = (tree / "b.json").read_text(encoding="utf-8")
    assert _hidden_in(text) == [] and "\\u202e" in text
    values = {e["value"] for e in json.loads(text)["fingerprints"].values()}
    assert "http://example.com/a\u202eb" in values  # the same value, escaped in the file
    assert cli("check", "--isolated", "--no-cache", "--baseline", "b.json", "plain.py").code == 0


# ------------------------------------------------------------------ the laws of iri_lint.cli.escape

TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from("\u202e\u200b\x1b\n\t\"\\\udcff\ud800"))


@settings(deadline=None)  # the first call may load ICU's data
@given(TEXT)
def test_escaped_json_reads_back_the_same_and_shows_nothing_hidden(s: str) -> None:
    text = escape_json(json.dumps({"v": s}, ensure_ascii=False, indent=1))
    assert json.loads(text) == {"v": s}
    assert _hidden_in(text) == []


@settings(deadline=None)  # the first call may load ICU's data
@given(TEXT)
def test_badges_and_text_escapes_leave_nothing_hidden(s: str) -> None:
    assert _hidden_in(badges(s).replace("\n", "")) == []
    assert _hidden_in(escape_text(s)) == [] and "\n" not in escape_text(s)


def _unquote(shown: str) -> bytes:
    """git's quoting read back: C escapes and octal bytes."""
    if not shown.startswith('"'):
        return os.fsencode(shown)
    return codecs.escape_decode(shown[1:-1].encode("utf-8"))[0]


@settings(deadline=None)  # the first call may load ICU's data
@given(st.binary(min_size=1).filter(lambda b: b"\0" not in b and b"/" not in b))
def test_a_quoted_name_is_one_plain_line_that_reads_back_as_its_bytes(name: bytes) -> None:
    path = os.fsdecode(name)
    shown = quote_path(path)
    assert "\n" not in shown and _hidden_in(shown) == []
    assert _unquote(shown) == name
    if path.isascii() and path.isprintable() and '"' not in path and "\\" not in path:
        assert shown == path  # plain names are left alone


def test_a_utf8_name_is_not_quoted() -> None:
    assert quote_path("src/café/数据.py") == "src/café/数据.py"
    assert unicode_path("café.py") == "café.py" and unicode_path("caf\udcff.py") == "caf\ufffd.py"


def test_escaping_is_linear_on_hostile_text() -> None:
    hostile: Any = "\u202e" * 200_000 + "a" * 200_000
    assert len(escape_json(json.dumps(hostile, ensure_ascii=False))) == 6 * 200_000 + 200_000 + 2
    assert quote_path("\n" * 100_000).count("\\n") == 100_000
