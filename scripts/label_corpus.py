"""Label the corpus's default findings line by line, and report precision per group.

    python scripts/label_corpus.py add tuning        # append a record per new finding (label "?")
    python scripts/label_corpus.py show tuning       # print the records still to label, in context
    python scripts/label_corpus.py report            # precision per group, outside and inside tests

The corpus is ``scripts/fetch_corpus.py``'s ($IRI_LINT_CORPUS or ``corpus/``). A group is
``tuning`` or ``held-out`` (``held_out`` in ``scripts/corpus.json``); each has its own labels file
in ``tests/realcode/`` so that tuning work never reads a held-out finding by accident:
``corpus_labels.jsonl`` and ``corpus_labels.held_out.jsonl``. A record is one finding of
``iri-lint check --isolated --format json`` (the default rules), keyed by path, line, column,
code and value, with the source line and its context; a reader sets ``label`` to "true" (the
literal really has that problem as an IRI used as one; a deliberate bad input in a test counts),
"false" (noise) or "debatable", a short ``reason``, for false ones a ``cause`` (to count them by
cause), and ``review: "line"``. A finding is right when its label is "true"; precision is right
over all findings, so a debatable or unlabelled finding counts against it.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tokenize
from collections import Counter
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch_corpus import ROOT, corpus_dir, projects

GROUPS = {"tuning": False, "held-out": True}
LABELS = {"tuning": ROOT / "tests/realcode/corpus_labels.jsonl",
          "held-out": ROOT / "tests/realcode/corpus_labels.held_out.jsonl"}
CONTEXT = 3  # lines either side of the finding's line
TEST_DIRS = frozenset({"tests", "test", "testing"})
TEST_NAME = re.compile(r"test_.*\.py|.*_test\.py|conftest\.py")
UNLABELLED = "?"

Finding = dict[str, Any]
Record = dict[str, Any]


def folders(group: str) -> list[Path]:
    """The group's project folders (missing ones included: the caller says what to do)."""
    return [corpus_dir() / f"{p['name']}-{p['version']}" for p in projects() if bool(p["held_out"]) is GROUPS[group]]


def missing(group: str) -> list[str]:
    return [f.name for f in folders(group) if not f.is_dir()]


def lint(group: str) -> dict[str, Any]:
    """iri-lint check --isolated --format json over one group, default rules: the report."""
    proc = subprocess.run([sys.executable, "-m", "iri_lint.cli", "check", "--isolated", "--format", "json",
                           "--exit-zero", *map(str, folders(group))], capture_output=True, timeout=900, check=False)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.decode(errors="replace")[-3000:])
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def rel_path(finding: Finding) -> str:
    """The finding's path inside the corpus: ``<project>-<version>/...``."""
    return Path(finding["path"]).resolve().relative_to(corpus_dir().resolve()).as_posix()


def key(entry: Record | Finding) -> str:
    """A finding's (or a record's) label key: path in the corpus, line, column, code, value."""
    if "start" in entry:
        entry = {"path": rel_path(entry), "line": entry["start"]["line"], "column": entry["start"]["column"],
                 "code": entry["code"], "value": entry["value"]}
    return json.dumps([entry["path"], entry["line"], entry["column"], entry["code"], entry["value"]])


def is_test_file(path: str) -> bool:
    """A test file by its path inside its project: a tests/, test/ or testing/ folder, test_*.py,
    *_test.py or conftest.py."""
    parts = PurePosixPath(path).parts[1:]  # the project folder's own name does not count
    return bool(TEST_DIRS.intersection(parts[:-1])) or bool(TEST_NAME.fullmatch(parts[-1]))


def load(group: str) -> dict[str, Record]:
    """The group's records by key (empty when the file does not exist yet)."""
    path = LABELS[group]
    if not path.exists():
        return {}
    records = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {key(r): r for r in records}


def source_lines(path: Path) -> list[str]:
    """The file's lines as Python reads them (its declared encoding, universal newlines)."""
    try:
        with tokenize.open(path) as f:
            return f.read().split("\n")
    except (SyntaxError, UnicodeDecodeError):
        return path.read_text(encoding="utf-8", errors="replace").split("\n")


def record(finding: Finding, lines: list[str]) -> Record:
    """A new record for one finding: where, what, the source line and its context, no label yet."""
    path, line = rel_path(finding), finding["start"]["line"]
    first = max(1, line - CONTEXT)
    return {"path": path, "line": line, "column": finding["start"]["column"], "code": finding["code"],
            "value": finding["value"], "message": finding["message"], "test_file": is_test_file(path),
            "source": lines[line - 1] if line <= len(lines) else "",
            "context_start": first, "context": lines[first - 1:line + CONTEXT],
            "label": UNLABELLED, "reason": "", "review": ""}


def add(group: str) -> int:
    """Append a record for every finding of the group that has none; return how many were added."""
    known = load(group)
    new: list[Record] = []
    cache: dict[str, list[str]] = {}
    for finding in lint(group)["findings"]:
        if key(finding) in known:
            continue
        lines = cache.setdefault(finding["path"], source_lines(Path(finding["path"])))
        entry = record(finding, lines)
        known[key(entry)] = entry
        new.append(entry)
    write(group, [*load(group).values(), *new])
    return len(new)


def write(group: str, records: Iterable[Record]) -> None:
    """Write the group's records sorted by path, line, column, code (ASCII: values may hold lone surrogates)."""
    ordered = sorted(records, key=lambda r: (r["path"], r["line"], r["column"], r["code"], r["value"]))
    LABELS[group].write_text("".join(json.dumps(r) + "\n" for r in ordered), encoding="utf-8")


def show(group: str, only_unlabelled: bool = True) -> None:
    """Print the group's records (those still to label by default) with their context."""
    for r in load(group).values():
        if only_unlabelled and r["label"] != UNLABELLED:
            continue
        print(f"== {r['path']}:{r['line']}:{r['column']} {r['code']} {r['message']}"
              f"{'  [test file]' if r['test_file'] else ''}\n   value: {r['value']!r}")
        for n, text in enumerate(r["context"], r["context_start"]):
            print(f"{'>' if n == r['line'] else ' '}{n:5} {text}")


def tally(findings: list[Finding], known: dict[str, Record]) -> dict[str, Any]:
    """Counts of labels over findings (each finding counts once; a key missing counts as unlabelled)."""
    labels = Counter(known[key(f)]["label"] if key(f) in known else UNLABELLED for f in findings)
    total = len(findings)
    return {"findings": total, "true": labels["true"], "false": labels["false"], "debatable": labels["debatable"],
            "unlabelled": labels[UNLABELLED], "precision": labels["true"] / total if total else 1.0}


def measure(group: str, report: dict[str, Any] | None = None) -> dict[str, Any]:
    """Precision of the group's default findings: all, outside test files, in test files; false by cause."""
    findings = (report or lint(group))["findings"]
    known = load(group)
    outside = [f for f in findings if not is_test_file(rel_path(f))]
    inside = [f for f in findings if is_test_file(rel_path(f))]
    causes = Counter(known[key(f)].get("cause", "?") for f in findings
                     if key(f) in known and known[key(f)]["label"] == "false")
    return {"all": tally(findings, known), "outside tests": tally(outside, known), "in tests": tally(inside, known),
            "false by cause": dict(causes.most_common()),
            "stale labels": len(set(known) - {key(f) for f in findings})}


def print_report(group: str, result: dict[str, Any]) -> None:
    print(f"{group}:")
    for part in ("all", "outside tests", "in tests"):
        t = result[part]
        print(f"  {part:14} {t['precision']:7.1%} right: {t['true']} true, {t['false']} false, "
              f"{t['debatable']} debatable, {t['unlabelled']} unlabelled, of {t['findings']}")
    for cause, n in result["false by cause"].items():
        print(f"    false: {n:4}  {cause}")
    if result["stale labels"]:
        print(f"  {result['stale labels']} labels no longer match a finding (kept: the corpus is pinned)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("add", "show", "report"))
    ap.add_argument("group", nargs="?", choices=(*GROUPS, "all"), default="all")
    ap.add_argument("--all", action="store_true", help="show: every record, not only those to label")
    args = ap.parse_args(argv)
    groups = list(GROUPS) if args.group == "all" else [args.group]
    absent = [name for g in groups for name in missing(g)]
    if absent and args.mode != "show":
        print(f"corpus not fetched ({', '.join(absent)}): run python scripts/fetch_corpus.py", file=sys.stderr)
        return 2
    for group in groups:
        if args.mode == "add":
            print(f"{group}: {add(group)} new records in {LABELS[group].relative_to(ROOT)}")
        elif args.mode == "show":
            show(group, only_unlabelled=not args.all)
        else:
            print_report(group, measure(group))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
