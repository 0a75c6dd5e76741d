"""Reports show a value's holes as the source writes them (``{user}``, ``%s``), not as checked."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from iri_lint.cli.results import FixInfo, Record, written
from iri_lint.rules.model import Edit, with_edits

from .conftest import CLI

SOURCE = '''import requests


def fetch(user, n):
    requests.get(f"https://example.com/{user}/a b/{n:>4}" "?q=%s" % n)
    requests.get("https://example.com/é b/%(id)s" % {"id": n})
'''


def _findings(cli: CLI, tmp_path: Path, *args: str) -> list[dict[str, object]]:
    path = tmp_path / "m.py"
    path.write_text(SOURCE, encoding="utf-8")
    result = cli("check", *args, "--output-format", "json", "--unsafe-fixes", "--show-fixes", str(path))
    return json.loads(result.out)["findings"]  # type: ignore[no-any-return]


def test_json_writes_holes_as_the_source_does_and_edits_stay_on_their_text(cli: CLI, tmp_path: Path) -> None:
    first, second = _findings(cli, tmp_path)
    assert first["value"] == "https://example.com/{user}/a b/{n:>4}?q=%s"
    assert second["value"] == "https://example.com/é b/%(id)s"
    for f in (first, second):
        fix = f["fix"]
        assert isinstance(fix, dict) and isinstance(f["value"], str)
        edits = [Edit(e["start"], e["end"], e["replacement"]) for e in fix["edits"]]
        assert [f["value"][e.start : e.end] for e in edits] == [" "]  # the space the fix encodes
        assert with_edits(f["value"], edits) == fix["value"]


def test_the_cache_keeps_the_holes(cli: CLI, tmp_path: Path) -> None:
    assert _findings(cli, tmp_path) == _findings(cli, tmp_path)  # the second run reads the cache


_text = st.text(st.sampled_from("ab/ %"), max_size=6)


@given(st.lists(st.tuples(_text, st.booleans(), st.sampled_from(["{x}", "%s", "{…}"])), max_size=5), _text)
def test_written_edits_make_the_written_fixed_value(parts: list[tuple[str, bool, str]], tail: str) -> None:
    """Law: the edits, moved to the written value, make from it the fixed value as written."""
    value, holes, edits, pos = "", [], [], 0
    for text, edit, placeholder in parts:
        if edit and text:
            edits.append((pos, pos + 1, "<" + text[0] + ">"))
        value += text + "0"
        pos += len(text)
        holes.append((pos, pos + 1, placeholder))
        pos += 1
    value += tail
    fixed = with_edits(value, [Edit(*e) for e in edits])
    r = Record("m.py", 1, 0, 1, 1, "IRI101", "x", "x", "error", value, "",
               FixInfo("d", "safe", "none", fixed, tuple(edits), "available"), holes=tuple(holes))
    shown, moved, shown_fixed = written(r)
    assert with_edits(shown, [Edit(*e) for e in moved]) == shown_fixed
    assert shown.count("0") == value.count("0") - len(holes)  # every hole spelled out


def test_a_field_is_written_whole_whatever_it_holds(cli: CLI, tmp_path: Path) -> None:
    """The decoder's span of the field, not a count of braces: a '}' in a nested string stays inside."""
    path = tmp_path / "m.py"
    path.write_text("import requests\n\n\ndef f(d):\n    requests.get(f\"https://h.example/a b/{d['}']}\" 'x')\n",
                    encoding="utf-8")
    result = cli("check", "--output-format", "json", str(path))
    assert [f["value"] for f in json.loads(result.out)["findings"]] == ["https://h.example/a b/{d['}']}x"]


def test_a_values_placeholders_are_written_as_its_pieces_write_them(cli: CLI, tmp_path: Path) -> None:
    """IRI805 is about a placeholder: its value shows it (``{user}``), as the literal's own findings' do, not the
    ``{…}`` of a part assembled elsewhere (fixtures57, repro 02)."""
    path = tmp_path / "m.py"
    path.write_text('import requests\n\nAVATAR_URL = "https://cdn.example/{user}/{size}.png"\n'
                    'requests.get(AVATAR_URL)\nrequests.get("https://h.example/{user}/a b")\n', encoding="utf-8")
    found = json.loads(cli("check", "--output-format", "json", str(path)).out)["findings"]
    assert [(f["code"], f["value"]) for f in found] == [
        ("IRI805", "https://cdn.example/{user}/{size}.png"), ("IRI805", "https://h.example/{user}/a b"),
        ("IRI101", "https://h.example/{user}/a b")]
