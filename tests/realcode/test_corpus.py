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
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import label_corpus  # noqa: E402  (scripts/label_corpus.py)

BUDGET_FILE = Path(__file__).with_name("corpus_budget.json")
FILE_PROBLEMS = ("syntax error", "cannot decode file", "file too large", "binary file", "nesting too deep")

pytestmark = pytest.mark.slow


@cache
def run(held_out: bool) -> dict[str, Any]:
    """iri-lint check --format json over one group, default rules; the report (skips when not fetched)."""
    group = "held-out" if held_out else "tuning"
    missing = label_corpus.missing(group)
    if missing:
        pytest.skip(f"corpus not fetched ({', '.join(missing)}): run python scripts/fetch_corpus.py")
    report: dict[str, Any] = label_corpus.lint(group)
    return report


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
    counts = label_corpus.measure("tuning", run(False))["all"]
    assert not counts["unlabelled"], f"{counts['unlabelled']} findings have no label: python scripts/label_corpus.py"
    assert counts["true"] >= 0.98 * counts["findings"], counts


def update() -> None:
    """Re-record the budgets; add a record for each finding not labelled yet (scripts/label_corpus.py)."""
    BUDGET_FILE.write_text(json.dumps({
        name: dict(sorted(Counter(f["code"] for f in run(held)["findings"]).items()))
        for name, held in (("tuning", False), ("held-out", True))}, indent=1) + "\n", encoding="utf-8")
    for group in label_corpus.GROUPS:
        print(f"{group}: {label_corpus.add(group)} findings to label (python scripts/label_corpus.py show {group})")


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit("usage: python tests/realcode/test_corpus.py --update")
