"""The pinned real-code corpus (scripts/corpus.json): precision of the default rules, and a budget.

Fetch it first (once, about a minute): ``python scripts/fetch_corpus.py``; the tests are skipped,
saying so, while the folder is missing. Every default finding on the tuning group must carry a
label in ``corpus_labels.jsonl`` (true: the literal really has that problem as an IRI; false:
noise, with the reason), and at least 98 % of them must be true. The held-out projects are never
labelled or tuned on: they only have to lint without internal error and stay within their budget.
After a deliberate change: ``python tests/realcode/test_corpus.py --update`` re-records the budget
and lists the findings that have no label yet.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from fetch_corpus import corpus_dir, projects  # noqa: E402

BUDGET_FILE = Path(__file__).with_name("corpus_budget.json")
LABELS_FILE = Path(__file__).with_name("corpus_labels.jsonl")
FILE_PROBLEMS = ("syntax error", "cannot decode file", "file too large", "binary file", "nesting too deep")

pytestmark = pytest.mark.slow


def _folders(held_out: bool) -> list[Path]:
    base = corpus_dir()
    folders = [base / f"{p['name']}-{p['version']}" for p in projects() if bool(p["held_out"]) is held_out]
    missing = [f.name for f in folders if not f.is_dir()]
    if missing:
        pytest.skip(f"corpus not fetched ({', '.join(missing)}): run python scripts/fetch_corpus.py")
    return folders


@cache
def run(held_out: bool) -> dict[str, Any]:
    """iri-lint check --format json over one group, default rules; the report."""
    proc = subprocess.run([sys.executable, "-m", "iri_lint.cli", "check", "--isolated", "--format", "json",
                           "--exit-zero", *map(str, _folders(held_out))], capture_output=True, timeout=900)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def key(finding: dict[str, Any]) -> str:
    """A finding's label key: project folder, path inside it, line, code, value."""
    rel = Path(finding["path"]).resolve().relative_to(corpus_dir().resolve())
    return json.dumps([rel.as_posix(), finding["start"]["line"], finding["code"], finding["value"]])


def labels() -> dict[str, dict[str, Any]]:
    out = {}
    for line in LABELS_FILE.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        out[json.dumps([entry["path"], entry["line"], entry["code"], entry["value"]])] = entry
    return out


@pytest.mark.parametrize("held_out", [False, True], ids=["tuning", "held-out"])
def test_the_corpus_lints_whole_and_within_budget(held_out: bool) -> None:
    report = run(held_out)
    assert not [f for f in report["findings"] if f["code"] == "IRI100"]
    assert all(e["message"].startswith(FILE_PROBLEMS) for e in report["errors"]), report["errors"]
    counts = Counter(f["code"] for f in report["findings"])
    budget = json.loads(BUDGET_FILE.read_text(encoding="utf-8"))["held-out" if held_out else "tuning"]
    over = {c: (n, budget.get(c, 0)) for c, n in counts.items() if n > budget.get(c, 0)}
    assert not over, f"more findings than recorded (count, budget): {over}"


def test_default_findings_are_at_least_98_percent_right() -> None:
    known = labels()
    findings = run(False)["findings"]
    unlabelled = [key(f) for f in findings if key(f) not in known]
    assert not unlabelled, f"{len(unlabelled)} findings have no label, e.g. {unlabelled[:3]}"
    right = sum(known[key(f)]["label"] == "true" for f in findings)
    assert right >= 0.98 * len(findings), f"{right} of {len(findings)} default findings are right"


def update() -> None:
    """Re-record the budgets; print the tuning findings that have no label yet (as JSON lines)."""
    BUDGET_FILE.write_text(json.dumps({
        name: dict(sorted(Counter(f["code"] for f in run(held)["findings"]).items()))
        for name, held in (("tuning", False), ("held-out", True))}, indent=1) + "\n", encoding="utf-8")
    known = labels() if LABELS_FILE.exists() else {}
    for f in run(False)["findings"]:
        if key(f) not in known:
            path, line, code, value = json.loads(key(f))
            print(json.dumps({"path": path, "line": line, "code": code, "value": value, "label": "?",
                              "reason": f["message"]}))  # ASCII: values may hold lone surrogates


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit("usage: python tests/realcode/test_corpus.py --update")
