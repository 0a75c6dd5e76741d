"""scripts/label_corpus.py: what counts as a test file, the records it writes, and how it counts precision."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import label_corpus


@pytest.mark.parametrize(("path", "expected"), [
    ("p-1/tests/unit/helpers.py", True),
    ("p-1/src/p/test/data.py", True),
    ("p-1/p/testing/fixtures.py", True),
    ("p-1/t/unit/test_url.py", True),
    ("p-1/p/url_test.py", True),
    ("p-1/conftest.py", True),
    ("p-1/p/testutils.py", False),
    ("p-1/p/contest.py", False),
    ("p-1/docs/conf.py", False),
    ("tests-1.0/p/url.py", False),  # a project named tests is not a test folder
    ("p-1/p/latest/tests.py", False),
])
def test_a_test_file_is_known_by_its_path(path: str, expected: bool) -> None:
    assert label_corpus.is_test_file(path) is expected


def finding(base: Path, line: int, column: int = 5, code: str = "IRI103") -> dict[str, Any]:
    return {"path": str(base / "p-1" / "tests" / "test_a.py"), "code": code, "message": "m",
            "start": {"line": line, "column": column}, "value": "http://{x}/"}


def test_a_record_has_the_findings_key_its_line_and_context(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRI_LINT_CORPUS", str(tmp_path))
    lines = [f"line {n}" for n in range(1, 11)]
    entry = label_corpus.record(finding(tmp_path, 2), lines)
    assert label_corpus.key(entry) == label_corpus.key(finding(tmp_path, 2))
    assert label_corpus.key(entry) != label_corpus.key(finding(tmp_path, 2, column=6))
    assert (entry["path"], entry["source"], entry["test_file"]) == ("p-1/tests/test_a.py", "line 2", True)
    assert (entry["context_start"], entry["context"]) == (1, lines[:5])
    assert entry["label"] == label_corpus.UNLABELLED


def test_only_true_labels_count_as_right(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRI_LINT_CORPUS", str(tmp_path))
    findings = [finding(tmp_path, n) for n in range(1, 6)]
    known = {label_corpus.key(f): {"label": label} for f, label in zip(findings, ["true", "true", "false", "debatable"],
                                                                       strict=False)}
    counts = label_corpus.tally(findings, known)
    assert counts == {"findings": 5, "true": 2, "false": 1, "debatable": 1, "unlabelled": 1, "precision": 0.4}
    assert label_corpus.tally([], known)["precision"] == 1.0
