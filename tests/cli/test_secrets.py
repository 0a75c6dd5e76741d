"""#31 item 1: a password in a userinfo never reaches a report or the baseline, unless --show-secrets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from iri_lint.cli import redact
from iri_lint.cli.formats import FORMATS
from iri_lint.cli.results import FixInfo, Record

from .conftest import CLI

FILES = {
    "app/db.py": 'DB = "postgresql://shop:hunter2@db.internal/shop"\n',
    "app/api.py": 'import requests\nrequests.get("https://bob:s3cr3tpw@api.example.com/a b")\n'
                  'requests.get("https://bob:p\u0430sswordsecret@x.example/")\n',
}
SECRETS = ("hunter2", "s3cr3tpw", "p\u0430ssword", "sswordsecret")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_format_prints_a_password(cli: CLI, tree: Path, fmt: str) -> None:
    r = cli("check", "--isolated", "--select", "ALL", "--show-fixes", "--show-source", "--output-format", fmt, ".")
    assert r.code == 1 and "IRI506" in r.out + r.err
    assert _leaks(r.out + r.err) == []
    shown = cli("check", "--isolated", "--select", "ALL", "--output-format", fmt, "--show-secrets", ".")
    if fmt in ("json", "json-lines", "html", "full"):  # the formats that carry values or source lines
        assert "hunter2" in shown.out


def test_fixes_diffs_and_the_applied_list_mask_it_too(cli: CLI, tree: Path) -> None:
    diff = cli("check", "--isolated", "--diff", "--unsafe-fixes", ".")
    assert "+requests.get(" in diff.out and _leaks(diff.out + diff.err) == []
    fixed = cli("check", "--isolated", "--fix", "--unsafe-fixes", "--show-fixes", "--format", "json", ".")
    doc = json.loads(fixed.out)
    assert doc["fixed"] and _leaks(fixed.out + fixed.err) == []
    assert "s3cr3tpw" in (tree / "app/api.py").read_text(encoding="utf-8")  # the file itself is not masked


def test_the_baseline_masks_it_and_still_matches(cli: CLI, tree: Path) -> None:
    assert cli("check", "--isolated", "--baseline", "masked.json", "--update-baseline", ".").code == 0
    assert cli("check", "--isolated", "--show-secrets", "--baseline", "clear.json", "--update-baseline", ".").code == 0
    masked = json.loads((tree / "masked.json").read_text(encoding="utf-8"))["fingerprints"]
    clear = json.loads((tree / "clear.json").read_text(encoding="utf-8"))["fingerprints"]
    assert _leaks((tree / "masked.json").read_text(encoding="utf-8")) == []
    assert "hunter2" in (tree / "clear.json").read_text(encoding="utf-8")
    assert masked.keys() == clear.keys()  # the same fingerprints: identity comes from the real value
    assert {e["value"] for e in masked.values()} >= {"postgresql://shop:*******@db.internal/shop"}
    for baseline in ("masked.json", "clear.json"):
        for extra in ((), ("--show-secrets",)):
            assert cli("check", "--isolated", *extra, "--baseline", baseline, ".").code == 0
    # a changed password is a new finding
    (tree / "app/db.py").write_text('DB = "postgresql://shop:hunter3@db.internal/shop"\n', encoding="utf-8")
    assert cli("check", "--isolated", "--baseline", "masked.json", ".").code == 1


def test_sarif_and_gitlab_fingerprints_do_not_depend_on_masking(cli: CLI, tree: Path) -> None:
    def sarif(doc: Any) -> list[str]:
        return [r["partialFingerprints"]["iriLint/v1"] for r in doc["runs"][0]["results"]]

    def gitlab(doc: Any) -> list[str]:
        return [i["fingerprint"] for i in doc]

    for fmt, get in (("sarif", sarif), ("gitlab", gitlab)):
        masked = get(json.loads(cli("check", "--isolated", "--format", fmt, ".").out))
        assert masked == get(json.loads(cli("check", "--isolated", "--show-secrets", "--format", fmt, ".").out))


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_the_inventory_masks_it(cli: CLI, tree: Path, fmt: str) -> None:
    r = cli("inventory", "--isolated", "--format", fmt, ".")
    assert r.code == 0 and "shop:*******" in r.out and _leaks(r.out) == []
    assert "shop:hunter2" in cli("inventory", "--isolated", "--format", fmt, "--show-secrets", ".").out


# ------------------------------------------------------------------ the laws of iri_lint.cli.redact

def test_what_is_masked() -> None:
    assert redact.redact("postgresql://shop:hunter2@db/x") == "postgresql://shop:*******@db/x"
    assert redact.redact("https://user@host/a:b@c") == "https://user@host/a:b@c"  # no password; "@" in the path
    assert redact.redact("https://u:@host/") == "https://u:@host/"  # an empty password is none
    assert redact.redact("https://u:p@ss@host/") == "https://u:****@host/"  # the authority's last "@" ends it
    assert redact.redact("//u:pw@h/ and http://v:qq@k") == "//u:**@h/ and http://v:**@k"
    line = 'x = ("http://a:b@c", "d@e")'
    assert redact.redact(line, redact.LINE_STOPS) == 'x = ("http://a:*@c", "d@e")'


def test_a_record_keeps_every_offset() -> None:
    value = "https://bob:s3cr3t@x.example/a b"
    fix = FixInfo("Percent-encode", "unsafe", "none", value.replace(" ", "%20"), ((30, 31, "%20"), (12, 13, "S")),
                  "unsafe")
    r = Record("m.py", 1, 5, 1, 6, "IRI101", "space-in-iri", "userinfo 'bob:s3cr3t' mixes", "error", value,
               f'U = "{value}"', fix)
    out = redact.record(r)
    assert out.value == "https://bob:******@x.example/a b" and len(out.value) == len(value)
    assert out.source_line == f'U = "{out.value}"' and out.message == "userinfo 'bob:******' mixes"
    assert out.fix is not None and out.fix.edits == ((30, 31, "%20"), (12, 13, "*"))  # an edit inside: masked
    assert out.fix.value == "https://bob:******@x.example/a%20b"


AUTHORITY = st.text(st.characters(codec="utf-8", exclude_characters="/?#"), max_size=20)


@settings(deadline=None)  # the first call may load ICU's data
@given(AUTHORITY, AUTHORITY, AUTHORITY, st.text(st.characters(exclude_characters="/"), max_size=20))
def test_no_password_survives_and_nothing_else_changes(user: str, password: str, host: str, rest: str) -> None:
    text = f"{rest}https://{user.replace(':', '')}:{password}@{host.replace('@', '')}/p"
    out = redact.redact(text)
    assert len(out) == len(text)
    assert redact.redact(out) == out  # idempotent
    start = text.index("https://") + len("https://") + len(user.replace(":", "")) + 1
    assert out[start : start + len(password)] == "*" * len(password)
    assert out[:start] == text[:start] and out[start + len(password):] == text[start + len(password):]


def test_masking_is_linear_on_hostile_text() -> None:
    for hostile in ("//a:" * 100_000 + "@", "//" * 200_000 + "a:b@", "@" * 200_000 + "//:"):
        assert len(redact.redact(hostile, redact.LINE_STOPS)) == len(hostile)
