"""#31 item 4: the endpoint inventory of a realistic tree, in text, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from iri_lint.cli.inventory import Use, group

from .conftest import CLI
from .test_notebooks import make_notebook

TREE = {
    "svc/settings.py": (
        'API_URL = "https://api.stripe.com/v1"\n'
        'DATABASE_URL = "postgresql://app:s3cret@10.1.2.3:5432/app"\n'
        'REDIS_URL = "redis://localhost:6379/0"\n'
        'CACHE_URL = "redis://127.0.0.1:6379/1"\n'
        'METRICS_URL = "http://[::1]:9090/metrics"\n'
        'DOCS_URL = "https://b\u00fccher.example/handbuch"\n'),
    "svc/clients.py": (
        "import urllib.request\n\nimport httpx\nimport requests\n\nfrom .settings import API_URL\n\n"
        'STRIPE = "https://api.stripe.com:443/v1/customers"\n\n\n'
        'def charge():\n    return requests.post(API_URL + "/charges")\n\n\n'
        'def metadata():\n    return httpx.get("http://169.254.169.254/latest/meta-data/")\n\n\n'
        'def bucket(region):\n    return requests.get(f"https://{region}.s3.amazonaws.com/bucket")\n\n\n'
        'def legacy():\n    return urllib.request.urlopen("http://xn--bcher-kva.example/alt")\n'),
    "svc/feeds.py": 'import xml.etree.ElementTree as ET\n\nATOM = "http://www.w3.org/2005/Atom"\n'
                    'ET.register_namespace("atom", ATOM)\n',
    "tests/test_clients.py": 'import requests\n\n\ndef test_charge():\n'
                             '    requests.get("https://api.stripe.com/v1/test")\n'
                             '    requests.get("http://localhost:8000/")\n',
    "generated/client.py": 'URL = "https://generated.example/"\n',  # git ignores it
    "build/lib/svc.py": 'URL = "https://build.example/"\n',  # build output
    "README.md": "See https://docs.example/ for more.\n",  # not Python
}
# (scheme, host, port) -> (literals, files, flags)
EXPECTED: dict[tuple[str, str, int | None], tuple[int, set[str], list[str]]] = {
    ("https", "api.stripe.com", None): (3, {"svc/clients.py", "svc/settings.py", "tests/test_clients.py"}, []),
    ("postgresql", "10.1.2.3", 5432): (1, {"svc/settings.py"}, ["ip-literal", "private", "credentials"]),
    ("redis", "localhost", 6379): (1, {"svc/settings.py"}, ["loopback"]),
    ("redis", "127.0.0.1", 6379): (1, {"svc/settings.py"}, ["ip-literal", "loopback"]),
    ("http", "[::1]", 9090): (1, {"svc/settings.py"}, ["plain-http", "ip-literal", "loopback"]),
    ("https", "b\u00fccher.example", None): (1, {"svc/settings.py"}, ["idn"]),
    ("http", "b\u00fccher.example", None): (1, {"svc/clients.py"}, ["plain-http", "idn"]),
    ("http", "169.254.169.254", None): (1, {"svc/clients.py"}, ["plain-http", "ip-literal", "private"]),
    ("https", "{…}.s3.amazonaws.com", None): (1, {"svc/clients.py"}, ["templated"]),
    ("http", "www.w3.org", None): (1, {"svc/feeds.py"}, ["plain-http"]),
    ("http", "localhost", 8000): (1, {"tests/test_clients.py"}, ["plain-http", "loopback"]),
    ("https", "notebook.example", None): (1, {"notebooks/explore.ipynb"}, []),
}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for rel, text in TREE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "explore.ipynb").write_text(
        make_notebook(['import requests\nrequests.get("https://notebook.example/data")\n']), encoding="utf-8")
    (tmp_path / ".gitignore").write_text("generated/\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _key(e: dict[str, Any]) -> tuple[str, str, int | None]:
    return e["scheme"], e["host"], e["port"]


def test_the_inventory_of_a_service(cli: CLI, tree: Path) -> None:
    r = cli("inventory", "--isolated", "--format", "json", ".")
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    got = {_key(e): (e["literals"], set(e["files"]), e["flags"]) for e in doc["endpoints"]}
    assert got == EXPECTED
    assert doc["files_checked"] == 5 and doc["errors"] == []
    by_key = {_key(e): e for e in doc["endpoints"]}
    assert by_key[("https", "b\u00fccher.example", None)]["host_ascii"] == "xn--bcher-kva.example"
    assert by_key[("postgresql", "10.1.2.3", 5432)]["credentials"] == ["app:******"]
    assert by_key[("http", "169.254.169.254", None)]["uses"] == {"dereferenced": 1}
    assert [e["literals"] for e in doc["endpoints"]] == sorted((e["literals"] for e in doc["endpoints"]), reverse=True)


def test_text_json_and_csv_agree(cli: CLI, tree: Path) -> None:
    doc = json.loads(cli("inventory", "--isolated", "--format", "json", ".").out)
    rows = list(csv.DictReader(io.StringIO(cli("inventory", "--isolated", "--format", "csv", ".").out)))
    assert [(r["scheme"], r["host"], int(r["port"]) if r["port"] else None, int(r["literals"]), r["flags"],
             r["files"]) for r in rows] == \
        [(*_key(e), e["literals"], ";".join(e["flags"]), ";".join(e["files"])) for e in doc["endpoints"]]
    text = cli("inventory", "--isolated", ".").out
    assert text.startswith(f"{len(doc['endpoints'])} endpoints in 5 files checked\n")
    assert "http://b\u00fccher.example (xn--bcher-kva.example)" in text
    assert "[ip-literal, private, credentials]  credentials: app:******" in text
    assert "generated.example" not in text and "build.example" not in text and "docs.example" not in text


def test_a_file_that_cannot_be_read_is_an_error_the_rest_is_listed(cli: CLI, tree: Path) -> None:
    (tree / "svc" / "broken.py").write_text('URL = "https://broken.example/"\ndef f(:\n', encoding="utf-8")
    r = cli("inventory", "--isolated", "-o", "inventory.json", "--format", "json", ".")
    assert r.code == 1 and "svc/broken.py:2:" in r.err
    assert len(json.loads((tree / "inventory.json").read_text(encoding="utf-8"))["endpoints"]) == len(EXPECTED)


def test_an_idn_is_shown_in_both_forms_even_when_idna2008_rejects_it() -> None:
    (snowman,) = group([Use("http", "xn--n3h.net", None, "a.py", "unknown", "")])
    assert (snowman.host, snowman.host_ascii, snowman.flags) == ("\u2603.net", "xn--n3h.net", ("plain-http", "idn"))


def test_grouping_follows_rfc_3986_host_and_default_ports() -> None:
    uses = [Use("https", "Example.COM", 443, "a.py", "unknown", ""), Use("https", "example.com", None, "b.py",
                                                                         "dereferenced", ""),
            Use("https", "example.com", 8443, "a.py", "unknown", ""), Use("http", "example.com", None, "a.py",
                                                                          "unknown", "u:**")]
    found = {(e.scheme, e.host, e.port): (e.literals, e.files) for e in group(uses)}
    assert found == {("https", "example.com", None): (2, ("a.py", "b.py")),
                     ("https", "example.com", 8443): (1, ("a.py",)), ("http", "example.com", None): (1, ("a.py",))}
