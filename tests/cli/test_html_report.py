"""``--format html``: one self-contained page whose numbers are the JSON output's, checked in a real
headless Chromium (Playwright drives the distribution's browser: `apt-get install chromium`)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import posixpath
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from iri_lint.cli import main
from iri_lint.cli.html_report import WORST, family_of
from iri_lint.cli.version import version_line

from .test_notebooks import make_notebook

FILES = {
    "src/app/client.py": 'import urllib.request\nurllib.request.urlopen("https://example.com/caf\u00e9")\n'
                         'URL = "https://example.com/a b"\nOTHER = "htps://example.com/"\n',
    "src/app/ns.py": 'NS = "http://example.com/a\u202eb"  # Trojan Source\nHOME = "https://ex\u0430mple.com/"\n',
    "src/a&b<i>x</i>/m.py": 'data_url = "https://example.com/%zz"\n',
    "src/app/db.py": 'import requests\nDB = "postgresql://shop:hunter2@db.internal/shop"\n'
                     'requests.get("http://10.0.0.5:8080/health")\nrequests.get("https://b\u00fccher.example/")\n',
    "tests/test_urls.py": 'BAD = "http://example.com/a b"\nWORSE = "http://example.com/<x>"\n',
    "broken.py": 'URL = "https://example.com/"\ndef f(:\n',
}


def build(root: Path) -> None:
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (root / "notebooks").mkdir()
    (root / "notebooks" / "explore.ipynb").write_text(make_notebook(), encoding="utf-8")


GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false",
       "-c", "init.defaultBranch=main"]
EPOCH = 1_700_000_000  # SOURCE_DATE_EPOCH: 2023-11-14T22:13:20Z


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The page and the JSON output of one project, made once for the module: every test only reads them."""
    root = tmp_path_factory.mktemp("project")
    build(root)
    with pytest.MonkeyPatch.context() as m:
        m.chdir(root)
        m.setenv("SOURCE_DATE_EPOCH", str(EPOCH))
        m.setenv("GIT_CONFIG_NOSYSTEM", "1")
        m.setenv("HOME", str(root / "home"))
        subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
        subprocess.run([*GIT, "add", "."], cwd=root, check=True)
        subprocess.run([*GIT, "commit", "-qm", "x"], cwd=root, check=True)
        json_out, html_out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(json_out):
            main(["check", "--isolated", "--format", "json", "."])
        with contextlib.redirect_stdout(html_out):
            code = main(["check", "--isolated", "--format", "html", "-o", "report.html", "."])
    assert code == 1 and html_out.getvalue() == ""
    return root / "report.html", json.loads(json_out.getvalue())


def test_page_is_self_contained_and_escapes_what_it_shows(report: tuple[Path, dict[str, Any]]) -> None:
    page, doc = report
    text = page.read_text(encoding="utf-8")
    assert "\u202e" not in text and "U+202E" in text  # a bidi override is shown, never applied
    assert "<i>x</i>" not in text and "a&amp;b&lt;i&gt;x&lt;/i&gt;" in text
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    for fetches in ("<link", " src=", "@import", "url(", "fetch(", "XMLHttpRequest"):
        assert fetches not in text
    assert len(doc["findings"]) >= 8 and doc["errors"]


# ---------------------------------------------------------------- in a real browser

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def _chromium() -> str | None:
    explicit = os.environ.get("IRI_LINT_CHROMIUM")
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install -e '.[test]')")
    exe = _chromium()
    if exe is None:
        pytest.skip("no Chromium to drive: `apt-get install chromium` (scripts/test.sh installs it where apt works)")
    with tempfile.TemporaryDirectory() as profile, sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=exe, args=CHROMIUM_ARGS)
        yield context
        context.close()


def _table(page: Any, table: str, key: str) -> dict[str, int]:
    rows = page.eval_on_selector_all(
        f"#{table} tbody tr", f"rows => rows.map(r => [r.dataset.{key}, r.querySelector('td.n').textContent])")
    return {k: int(n) for k, n in rows}


@pytest.mark.slow  # starts Chromium
def test_counts_in_the_browser_equal_the_json_output(browser: Any, report: tuple[Path, dict[str, Any]]) -> None:
    page_file, doc = report
    findings = doc["findings"]
    page = browser.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")

    def total(key: str) -> int:
        return int(page.inner_text(f'[data-total="{key}"]'))

    assert total("findings") == len(findings)
    assert total("files-with-findings") == len({f["path"] for f in findings})
    assert total("errors") == len(doc["errors"])
    assert total("fixed") == len(doc["fixed"]) == 0
    assert total("fixable") == sum(1 for f in findings if f["fix"] and f["fix"]["status"] == "available")
    assert _table(page, "by-rule", "rule") == Counter(f["code"] for f in findings)
    assert _table(page, "by-family", "family") == Counter(family_of(f["code"]) for f in findings)
    folders = Counter(posixpath.dirname(f["path"]) or "." for f in findings)
    assert _table(page, "by-dir", "dir") == folders
    by_file = Counter(f["path"] for f in findings)
    worst = _table(page, "worst-files", "file")
    assert worst == dict(sorted(by_file.items(), key=lambda kv: (-kv[1], kv[0]))[:WORST])
    # every finding, in the JSON's order, with its rule link
    shown = page.eval_on_selector_all("article.finding", "els => els.map(e => [e.dataset.file, "
                                      "e.querySelector('a.rule').textContent, e.querySelector('a.rule').href])")
    assert [(f, c) for f, c, _ in shown] == [(f["path"], f["code"]) for f in findings]
    # one click to the rule's own documentation, embedded in the page (readable offline)
    assert [href for _, _, href in shown] == [f"{page_file.as_uri()}#rule-{f['code']}" for f in findings]
    assert int(page.inner_text("#shown")) == len(findings)
    # the folder named a&b<i>x</i> is text, not markup
    assert page.locator("#by-dir td", has_text="src/a&b<i>x</i>").count() == 1
    assert page.locator("article.finding i").count() == 0

    # filtering: a rule, then a folder, then text; "Show all" brings everything back
    code, n = Counter(f["code"] for f in findings).most_common(1)[0]
    page.click(f'#by-rule tr[data-rule="{code}"] button.pick')
    assert int(page.inner_text("#shown")) == n == page.locator("article.finding:visible").count()
    folder, m = folders.most_common(1)[0]
    page.click(f'#by-dir tr[data-dir="{folder}"] button.pick')
    assert int(page.inner_text("#shown")) == m == page.locator("article.finding:visible").count()
    page.click("#clear")
    assert int(page.inner_text("#shown")) == len(findings)
    page.fill("#search", "cell 2,")
    notebook = sum(1 for f in findings if f["cell"] == 2)
    assert notebook and int(page.inner_text("#shown")) == notebook
    page.click("#clear")
    assert page.locator("article.finding:visible").count() == len(findings)

    assert problems == []  # no console errors (a CSP violation would be one)
    assert requests == [page_file.as_uri()]  # nothing fetched but the page itself
    page.close()


@pytest.mark.slow  # starts Chromium
def test_the_page_is_an_audit_document(browser: Any, report: tuple[Path, dict[str, Any]]) -> None:
    """#31 item 3: the run in the header, rules by severity, spoofs made visible, the rules' documentation
    one click away and offline, a print style sheet, and the endpoint inventory."""
    page_file, doc = report
    root = page_file.parent
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, check=True, capture_output=True, text=True)
    assert page.inner_text("#commit") == head.stdout.strip()  # (report.html is untracked: no "uncommitted")
    assert page.inner_text("#generated") == "2023-11-14T22:13:20Z"
    assert page.inner_text("#tool") == version_line()
    assert page.inner_text('[data-setting="profile"]') == "iri"
    assert page.inner_text('[data-setting="configuration file"]') == "none (defaults)"
    assert page.inner_text('[data-setting="rules enabled"] summary').endswith(" rules")
    checked = page.eval_on_selector_all("#files li", "els => els.map(e => e.textContent)")
    assert sorted(checked) == sorted(str(p.relative_to(root)) for p in root.rglob("*")
                                     if p.suffix in (".py", ".ipynb") and ".git" not in p.parts)

    # the rules by severity (error, warning, info), then by count
    rows = page.eval_on_selector_all("#by-rule tbody tr", "rs => rs.map(r => [r.dataset.rule, "
                                     "r.children[2].textContent, Number(r.querySelector('td.n').textContent)])")
    rank = {"error": 0, "warning": 1, "info": 2}
    assert rows == sorted(rows, key=lambda r: (rank[r[1]], -r[2], r[0]))
    assert len({r[1] for r in rows}) >= 2  # the tree has findings of more than one severity

    # the Cyrillic letter of exаmple is marked with its code point and script, wherever it is shown
    spoof = page.locator("article.finding .src .spoof").first
    assert spoof.get_attribute("title").startswith("U+0430 CYRILLIC SMALL LETTER A")
    assert "Cyrillic" in spoof.get_attribute("title") and spoof.inner_text().replace("\n", " ") == "аU+0430 Cyrillic"

    # one click from a finding to its rule's page, inside this file
    code = doc["findings"][0]["code"]
    page.locator("article.finding a.rule").first.click()
    assert page.url.endswith(f"#rule-{code}")
    section = page.locator(f"#rule-{code}")
    assert section.is_visible() and "What it does" in section.inner_text() and "Fix safety" in section.inner_text()
    assert {f["code"] for f in doc["findings"]} <= set(
        page.eval_on_selector_all("section.rule-doc", "els => els.map(e => e.id.slice(5))"))

    # paper: no filter bar, every folded section opened
    page.emulate_media(media="print")
    assert page.eval_on_selector(".filter", "e => getComputedStyle(e).display") == "none"
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator("details:not([open])").count() == 0
    assert len(page.pdf()) > 1000  # Chromium lays it out for print
    page.emulate_media(media="screen")

    # the endpoints: those of `iri-lint inventory`, the password masked
    rows = page.eval_on_selector_all("#endpoint-table tbody tr", "rs => rs.map(r => r.dataset.endpoint)")
    assert "http://10.0.0.5:8080" in rows and "postgresql://db.internal" in rows
    assert "https://bücher.example" in rows
    flags = page.inner_text('#endpoint-table tr[data-endpoint="http://10.0.0.5:8080"]')
    assert "plain-http" in flags and "ip-literal" in flags and "private" in flags
    idn = page.inner_text('#endpoint-table tr[data-endpoint="https://bücher.example"]')
    assert "xn--bcher-kva.example" in idn and "idn" in idn
    assert "hunter2" not in page.content() and "shop:*******" in page.content()
    assert requests == [page_file.as_uri()]
    page.close()
