"""``--fix``: only the finding's characters change; encodings, BOM, newlines, mode survive; idempotent."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from iri_lint.cli.fix_flow import PythonFile
from iri_lint.config import Config
from iri_lint.fix import NotApplied, fix_text
from iri_lint.fix_status import FixStatus
from iri_lint.lint import lint_text

URLOPEN = "import urllib.request\nurllib.request.urlopen({lit})\n"


def _fix(cli, path: Path, *extra: str):  # type: ignore[no-untyped-def]
    return cli("check", "--isolated", "--fix", *extra, str(path))


def _assert_only_span_changed(old: bytes, new: bytes, old_part: bytes, new_part: bytes) -> None:
    i = old.index(old_part)
    assert new == old[:i] + new_part + old[i + len(old_part):]


def test_safe_fix_is_applied_and_second_run_changes_nothing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    old = URLOPEN.format(lit='"https://example.com/caf\u00e9"').encode()
    f.write_bytes(old)
    r = _fix(cli, f)
    assert r.code == 0, r.out + r.err
    assert "fixed (safe)" in r.out
    _assert_only_span_changed(old, f.read_bytes(), "caf\u00e9".encode(), b"caf%C3%A9")
    again = f.read_bytes()
    r2 = _fix(cli, f)
    assert r2.code == 0 and r2.out == "" and f.read_bytes() == again


def test_unsafe_fix_needs_the_flag(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n')
    r = _fix(cli, f)
    assert r.code == 1 and "unsafe fix not applied (use --unsafe-fixes)" in r.out
    assert f.read_text() == 'URL = "https://example.com/a b"\n'
    assert _fix(cli, f, "--unsafe-fixes").code == 0
    assert f.read_text() == 'URL = "https://example.com/a%20b"\n'


def test_crlf_and_bom_are_kept(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    old = b"\xef\xbb\xbf" + URLOPEN.format(lit='"https://example.com/\u00e9"').replace("\n", "\r\n").encode()
    f.write_bytes(old)
    assert _fix(cli, f).code == 0
    _assert_only_span_changed(old, f.read_bytes(), "\u00e9".encode(), b"%C3%A9")
    assert f.read_bytes().startswith(b"\xef\xbb\xbf") and f.read_bytes().count(b"\r\n") == 2


def test_latin1_cookie_is_kept(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    src = "# -*- coding: latin-1 -*-\n" + URLOPEN.format(lit='"https://example.com/caf\u00e9"') + \
        'URL = "https://example.com/\u00e9 b"\n'
    old = src.encode("latin-1")
    f.write_bytes(old)
    assert _fix(cli, f, "--unsafe-fixes").code == 0
    new = f.read_bytes()
    assert new.decode("latin-1") == src.replace("caf\u00e9", "caf%C3%A9").replace("\u00e9 b", "\u00e9%20b")
    assert b"\xe9%20b" in new  # still one latin-1 byte, not UTF-8


def test_raw_fstring_concatenation_and_escapes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    src = textwrap.dedent('''\
        import requests
        RAW_URL = r"https://example.com/a b"
        def get(term):
            return requests.get(f"https://example.com/s?q={term}&v=a b&x={{-}}&y={{name}}")
        CAT_URL = ("https://example.com/"
                   'x y')
        ESC_URL = "https://example.com/\\u0061 b\\t"
        ''')
    f.write_text(src)
    assert _fix(cli, f, "--unsafe-fixes").code in (0, 1)
    new = f.read_text()
    assert 'RAW_URL = r"https://example.com/a%20b"' in new
    # "{{-}}" is a literal "{-}" in the value: no placeholder, so its braces are encoded; "{name}" is
    # a format field (or RFC 6570 expression) whoever fills it in: a hole, left as it is
    assert 'f"https://example.com/s?q={term}&v=a%20b&x=%7B-%7D&y={{name}}"' in new
    assert "'x%20y')" in new and '("https://example.com/"\n' in new
    assert "\\u0061%20b" in new  # the untouched escape stays as written


def test_fix_text_is_stable_and_reports_refusals() -> None:
    src = 'import requests\nrequests.get("https://example.com/a b")\n'

    def lint(t: str):  # type: ignore[no-untyped-def]
        return lint_text(t, Config())

    run = fix_text(src, lint, unsafe=True)
    assert run.changed and run.remaining == []
    assert fix_text(run.text, lint, unsafe=True).changed is False
    refused = fix_text(src, lint, unsafe=True, can_hold=lambda s: "%" not in s)
    assert not refused.changed and refused.not_applied[0].status is FixStatus.REFUSED
    assert "encoding cannot hold" in refused.not_applied[0].reason


def test_mode_and_symlink_are_kept(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n')
    f.chmod(0o754)
    link = tmp_path / "link.py"
    link.symlink_to(f)
    assert _fix(cli, link, "--unsafe-fixes").code == 0
    assert link.is_symlink() and "a%20b" in f.read_text()
    assert stat.S_IMODE(f.stat().st_mode) == 0o754


def test_diff_does_not_write(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n')
    r = cli("check", "--isolated", "--diff", "--unsafe-fixes", str(f))
    assert r.code == 1
    assert '-URL = "https://example.com/a b"\n+URL = "https://example.com/a%20b"\n' in r.out
    assert f.read_text() == 'URL = "https://example.com/a b"\n'


def test_json_reports_applied_and_skipped_fixes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text(URLOPEN.format(lit='"https://example.com/\u00e9"') + 'URL = "https://example.com/a b"\n')
    doc = json.loads(cli("check", "--isolated", "--fix", "--format", "json", str(f)).out)
    assert [x["fix"]["status"] for x in doc["fixed"]] == ["applied"]
    assert [(x["code"], x["fix"]["status"]) for x in doc["findings"]] == [("IRI101", "unsafe")]


# ------------------------------------------------------------------ interruption


def test_a_python_file_round_trips_bytes() -> None:
    for data in (b"\xef\xbb\xbfx = 1\r\n", "# coding: latin-1\nx = '\u00e9'\n".encode("latin-1"), b"x = 1\r"):
        sf = PythonFile.from_bytes(data)
        assert sf.encode(sf.text) == data


def test_unsafe_fixes_alone_reports_and_writes_nothing(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """As in ruff: --unsafe-fixes without --fix or --diff changes no file, it says what the fixes are."""
    f = tmp_path / "m.py"
    source = 'URL = "https://example.com/a b"\n'
    f.write_text(source, encoding="utf-8")
    r = cli("check", "--isolated", "--unsafe-fixes", "--show-source", str(f))
    assert f.read_text(encoding="utf-8") == source
    assert r.code == 1 and "unsafe fix (apply with --fix --unsafe-fixes)" in r.out


def test_a_plain_check_does_not_nag_about_unsafe_fixes(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text('URL = "https://example.com/a b"\n', encoding="utf-8")
    assert "unsafe" not in cli("check", "--isolated", "--show-source", str(f)).out
    assert "unsafe fix (apply with --fix --unsafe-fixes)" in cli("check", "--isolated", "--show-fixes", str(f)).out


_ACE = 'from urllib.request import urlopen\nurlopen("https://xn--r8jz45g.jp/")\nhome_url = "https://xn--r8jz45g.jp/"\n'


@pytest.mark.parametrize("extra", [(), ("--unsafe-fixes",)])
def test_fixes_never_send_non_ascii_to_a_uri_only_api_and_settle(cli, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                 extra: tuple[str, ...]) -> None:
    """Issue 19.2: IRI311's Unicode label would make urlopen raise; IRI404 would map it back each run."""
    path = tmp_path / "a.py"
    path.write_text(_ACE, encoding="utf-8")
    select = ("--extend-select", "IRI311,IRI404,IRI405")
    diff = cli("check", *select, "--diff", *extra, str(path))
    first = cli("check", *select, "--fix", *extra, str(path))
    fixed = path.read_text(encoding="utf-8")
    assert 'urlopen("https://xn--r8jz45g.jp/")' in fixed  # the URI-only call keeps its ASCII form
    assert first.code != 2
    if extra:  # the identifier elsewhere may show its Unicode label, only as an unsafe fix
        assert 'home_url = "https://例え.jp/"' in fixed
    else:
        assert fixed == _ACE
    # --diff showed exactly what --fix wrote
    assert [ln[1:] for ln in diff.out.splitlines() if ln.startswith("+") and not ln.startswith("+++")] == \
        [ln for ln in fixed.splitlines() if ln not in _ACE.splitlines()]
    again = cli("check", *select, "--fix", *extra, str(path))
    assert path.read_text(encoding="utf-8") == fixed and "Fixed" not in again.err


def test_ascii_fix_values_stay_safe_in_a_uri_only_api() -> None:
    from iri_lint import check

    found = check("HTTP://example.com/", context="dereferenced", select=["IRI303"], uri_only_api=True)
    assert [(f.code, str(f.fix.safety)) for f in found if f.fix] == [("IRI303", "safe")]
    found = check("https://xn--r8jz45g.jp/", context="dereferenced", select=["IRI311"])
    assert [(f.code, str(f.fix.safety)) for f in found if f.fix] == [("IRI311", "safe")]
    assert check("https://xn--r8jz45g.jp/", context="dereferenced", select=["IRI311"], uri_only_api=True) == []


@pytest.fixture
def flip_flop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two injected rules whose safe fixes undo each other: 'ping' -> 'pong' -> 'ping'."""
    import dataclasses

    from iri_lint.rules import engine
    from iri_lint.rules.facts import Facts
    from iri_lint.rules.model import Edit, Raw
    from iri_lint.rules.registry import full_rule

    def flip(old: str, new: str) -> Callable[[Facts], list[Raw]]:
        def check(facts: Facts) -> list[Raw]:
            i = facts.ref.text.find(old)
            return [] if i < 0 else [Raw(i, i + 4, "flip", (Edit(i, i + 4, new),))]
        return check

    extra = (dataclasses.replace(full_rule("IRI303"), check=flip("ping", "pong")),
             dataclasses.replace(full_rule("IRI304"), check=flip("pong", "ping")))
    real = engine.checks_for
    monkeypatch.setattr(engine, "checks_for", lambda enabled, present=-1: (*real(enabled, present), *(r for r in extra
                                                                                 if r.code in enabled)))


FLIP_FLOP = ('import requests\nrequests.get("https://example.com/ping")\n'
             'import urllib.request\nurllib.request.urlopen("https://example.com/caf\u00e9")\n')


@pytest.mark.usefixtures("flip_flop")
@pytest.mark.parametrize("mode", ["--fix", "--diff"])
def test_fixes_that_undo_each_other_settle_by_precedence(cli, tmp_path: Path, mode: str) -> None:  # type: ignore[no-untyped-def]
    """One rule wins (equal ladder levels: the lower code), the other's finding stays, every other fix is
    applied, and the exit code is 1 (findings remain), not 2 (issue 30, item 9)."""
    path = tmp_path / "a.py"
    path.write_text(FLIP_FLOP, encoding="utf-8")
    result = cli("check", "--extend-select", "IRI303,IRI304", mode, str(path))
    assert result.code == 1, result.out + result.err
    fixed = FLIP_FLOP.replace("ping", "pong").replace("caf\u00e9", "caf%C3%A9")
    if mode == "--fix":
        assert path.read_text(encoding="utf-8") == fixed
        assert "IRI304 flip\n    fix not applied, IRI303's fix undoes this one and takes precedence" in result.out
        assert "Fixed 2 findings" in result.err  # IRI303 once (its undone first try is not counted), IRI404
    else:  # shows what --fix writes
        assert path.read_text(encoding="utf-8") == FLIP_FLOP
        assert '+requests.get("https://example.com/pong")' in result.out
        assert '+urllib.request.urlopen("https://example.com/caf%C3%A9")' in result.out
        path.write_text(fixed, encoding="utf-8")
    again = cli("check", "--extend-select", "IRI303,IRI304", "--fix", str(path))
    assert again.code == 1 and "Fixed" not in again.err and path.read_text(encoding="utf-8") == fixed


@pytest.mark.usefixtures("flip_flop")
def test_fix_text_resolves_a_cycle_by_precedence() -> None:
    run = fix_text(FLIP_FLOP, lambda t: lint_text(t, Config(extend_select=("IRI303", "IRI304"))))
    assert run.text == FLIP_FLOP.replace("ping", "pong").replace("caf\u00e9", "caf%C3%A9")
    assert sorted(a.finding.code for a in run.applied) == ["IRI303", "IRI404"] and not run.unsettled
    assert [(sf.code, run.not_applied[i]) for i, sf in enumerate(run.remaining)] == \
        [("IRI304", NotApplied(FixStatus.REFUSED, "IRI303's fix undoes this one and takes precedence"))]


@pytest.fixture
def never_settles(monkeypatch: pytest.MonkeyPatch) -> None:
    """An injected rule whose fix always finds more to do: 'ping' -> 'pingx' -> 'pingxx' ..."""
    import dataclasses

    from iri_lint.rules import engine
    from iri_lint.rules.facts import Facts
    from iri_lint.rules.model import Edit, Raw
    from iri_lint.rules.registry import full_rule

    def grow(facts: Facts) -> list[Raw]:
        i = facts.ref.text.find("ping")
        return [Raw(i, i + 4, "grow", (Edit(i + 4, i + 4, "x"),))] if i >= 0 else []

    extra = dataclasses.replace(full_rule("IRI303"), check=grow)
    real = engine.checks_for
    monkeypatch.setattr(engine, "checks_for", lambda enabled, present=-1: (
        *real(enabled, present), *((extra,) if extra.code in enabled else ())))


@pytest.mark.usefixtures("never_settles")
def test_fixes_that_never_settle_change_nothing_and_exit_2(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A fix that finds more to do forever is an iri-lint bug: the file is left as it was, exit 2."""
    path = tmp_path / "a.py"
    path.write_text(FLIP_FLOP, encoding="utf-8")
    result = cli("check", "--extend-select", "IRI303", "--fix", str(path))
    assert result.code == 2
    assert path.read_text(encoding="utf-8") == FLIP_FLOP
    assert "not fixed: fixes still change the file after 30 passes (IRI303)" in result.err


# ---------------------------------------------------------------------- an edit made while --fix runs is kept
EDITED = b"# saved by an editor while iri-lint was fixing\n"


def _edit_during_fix(monkeypatch: pytest.MonkeyPatch, module: object, target: Path) -> None:
    """An editor saves ``target`` after iri-lint read it and before it writes it."""
    real = module.fix_text  # type: ignore[attr-defined]

    def fix_then_save(*args: object, **kw: object) -> object:
        run = real(*args, **kw)
        target.write_bytes(EDITED)
        return run

    monkeypatch.setattr(module, "fix_text", fix_then_save)


@pytest.mark.parametrize("kind", ["py", "ipynb"])
def test_an_edit_made_while_fixing_is_kept_and_the_file_not_fixed(  # type: ignore[no-untyped-def]
        cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    from iri_lint.cli import fix_flow

    from .test_notebooks import make_notebook

    f, other = tmp_path / f"m.{kind}", tmp_path / "other.py"
    bad = URLOPEN.format(lit='"https://example.com/caf\u00e9"')
    f.write_text(bad if kind == "py" else make_notebook(), encoding="utf-8")
    other.write_text(bad, encoding="utf-8")
    _edit_during_fix(monkeypatch, fix_flow, f)  # the one fix flow, for both kinds
    r = cli("check", "--isolated", "--fix", str(f))
    assert f.read_bytes() == EDITED  # the editor's save survives
    assert r.code == 1 and "Fixed" not in r.err and "fixed (safe)" not in r.out
    assert r.err.splitlines()[0] == (f"{f}:1:1: error: not fixed: the file changed while it was being fixed "
                                     "(the new version is kept; run again)")
    assert os.listdir(tmp_path) == sorted(os.listdir(tmp_path)) and len(os.listdir(tmp_path)) == 2  # no temp file


# ---------------------------------------------------------------------- temporary files a killed run left behind
def _writer(f: Path) -> subprocess.Popen[bytes]:
    """A process writing ``f`` through iri-lint's writer, stopped (sleeping) before the rename."""
    script = textwrap.dedent(f"""
        import os, time
        from iri_lint.files.fileio import replace_file
        def slow_fsync(fd):
            print("writing", flush=True)
            time.sleep(60)
        os.fsync = slow_fsync
        replace_file({str(f)!r}, b"half" * 1000)
    """)
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stdout.readline() == b"writing\n"
    return p


def _age_all(folder: Path) -> None:
    for p in folder.iterdir():
        os.utime(p, (p.stat().st_mtime - 3600, p.stat().st_mtime - 3600))


@pytest.mark.parametrize("how", ["walk", "fix"])
@pytest.mark.slow  # a writer process, killed
def test_a_later_run_removes_what_a_killed_writer_left(cli, tmp_path: Path, how: str) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text(URLOPEN.format(lit='"https://example.com/caf\u00e9"'), encoding="utf-8")
    mine = {"m.py", ".notes.iri-lint-tmp", ".m.py.0123.iri-lint-tmp", "m.py.0123456789abcdef.iri-lint-tmp"}
    for name in mine - {"m.py"}:  # the user's own files, named nearly like ours
        (tmp_path / name).write_text("keep\n", encoding="utf-8")
    p = _writer(f)
    p.kill()
    p.wait(timeout=30)
    _age_all(tmp_path)
    assert set(os.listdir(tmp_path)) > mine  # the killed writer's temporary file
    if how == "walk":
        cli("check", "--isolated", str(tmp_path))
    else:
        cli("check", "--isolated", "--fix", str(f))
    assert set(os.listdir(tmp_path)) == mine


@pytest.mark.slow  # a writer process, killed
def test_a_live_writers_temporary_file_is_left_alone(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "m.py"
    f.write_text("x = 1\n", encoding="utf-8")
    p = _writer(f)
    try:
        _age_all(tmp_path)
        (tmp_name,) = set(os.listdir(tmp_path)) - {"m.py"}
        cli("check", "--isolated", str(tmp_path))
        assert (tmp_path / tmp_name).exists()
    finally:
        p.kill()
        p.wait(timeout=30)
