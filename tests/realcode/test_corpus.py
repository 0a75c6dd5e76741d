"""The pinned real-code corpus (scripts/corpus.json): precision of the default rules, and a budget.

Fetch it first (once, about two minutes): ``python scripts/fetch_corpus.py``; the tests are
skipped, saying so, while the folder is missing. Every default finding carries a label read line by
line (``corpus_labels.jsonl`` for the tuning group, ``corpus_labels.held_out.jsonl`` for the
held-out one; see ``scripts/label_corpus.py``). The bars are issue #26's: at least 95 % of the
held-out group's default findings are right, and at least 90 % of each group's findings outside
test files; a finding without a label counts as wrong. What a held-out test prints is counts only,
never a finding, so that tuning work does not read them. After a deliberate change:
``python tests/realcode/test_corpus.py --update`` re-records the budget and adds a record, to be
labelled, for each new finding.
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


GROUPS = pytest.mark.parametrize("held_out", [False, True], ids=["tuning", "held-out"])


@GROUPS
def test_the_corpus_lints_whole_and_within_budget(held_out: bool) -> None:
    report = run(held_out)
    assert not [f for f in report["findings"] if f["code"] == "IRI100"]
    problems = [e for e in report["errors"] if not e["message"].startswith(FILE_PROBLEMS)]
    assert not problems, len(problems) if held_out else problems
    counts = Counter(f["code"] for f in report["findings"])
    budget = json.loads(BUDGET_FILE.read_text(encoding="utf-8"))["held-out" if held_out else "tuning"]
    over = {c: (n, budget.get(c, 0)) for c, n in counts.items() if n > budget.get(c, 0)}
    assert not over, f"more findings than recorded (count, budget): {over}"


@GROUPS
def test_every_default_finding_is_labelled(held_out: bool) -> None:
    group = "held-out" if held_out else "tuning"
    counts = label_corpus.measure(group, run(held_out))["all"]
    assert not counts["unlabelled"], (
        f"{counts['unlabelled']} {group} findings have no label: python scripts/label_corpus.py add {group}"
        + (" (the held-out group is labelled by the labeller only)" if held_out else ""))


def test_held_out_default_findings_are_at_least_95_percent_right() -> None:
    counts = label_corpus.measure("held-out", run(True))["all"]
    assert counts["precision"] >= 0.95, counts


@GROUPS
def test_default_findings_outside_test_files_are_at_least_90_percent_right(held_out: bool) -> None:
    counts = label_corpus.measure("held-out" if held_out else "tuning", run(held_out))["outside tests"]
    assert counts["precision"] >= 0.90, counts


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
