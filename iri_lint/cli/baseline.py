"""Baselines: remember today's findings by a fingerprint that survives line moves; report only new ones.

A fingerprint hashes the file's path (relative to the baseline file), the rule code, the literal's
value (a URL value's: its use as the source writes it, ``CDN + "/a b"``, which a change of ``CDN`` in
another module keeps) and the occurrence index of that triple in the file. Moving code around, adding
lines or fixing other findings keeps it; copying a bad literal somewhere else adds a new one.

The file is meant to be committed: each entry's ``value`` (for a reader; matching uses only the
fingerprints) has its passwords masked (``iri_lint.cli.redact``) unless ``--show-secrets``, and
every invisible or reordering character is a ``\\uXXXX`` escape, so the file is no Trojan Source.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ..files.fileio import write_output
from .escape import escape_json, unicode_path
from .redact import redact
from .results import Record

VERSION = 1


def _rel(path: str, base: Path) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(path), base)
    except ValueError:  # another drive on Windows
        rel = os.path.abspath(path)
    return Path(rel).as_posix()


def fingerprints(records: Iterable[Record], base: Path, *, by_value: bool = False, raw: bool = False) -> list[str]:
    """One fingerprint per record, in order: a URL value's by its anchor, what its source writes, in tokens (a
    formatter's spacing and quotes are no change); ``by_value``: by its assembled value, as before anchors;
    ``raw``: by the anchor as written, as before tokens."""
    seen: Counter[tuple[str, str, str]] = Counter()
    out = []
    for r in records:
        anchor = r.anchor if raw or not r.anchor else _in_tokens(r.anchor)
        key = (_rel(r.path, base), r.code, r.value if by_value else anchor or r.value)
        index = seen[key]
        seen[key] += 1
        payload = "\0".join((*key, str(index)))
        out.append(hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:32])
    return out


class BaselineError(ValueError):
    pass


def load(path: Path) -> set[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != VERSION:
            raise BaselineError(f"{path}: unsupported baseline version {data.get('version')!r}")
        return set(data["fingerprints"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        if isinstance(exc, BaselineError):
            raise
        raise BaselineError(f"{path}: not an iri-lint baseline ({exc})") from None


def save(path: Path, records: list[Record], trees: tuple[str, ...], *, show_secrets: bool = False) -> None:
    """Write the baseline (sorted, one entry per finding with its code and path for humans), by the write
    policy of every file iri-lint writes (``trees``: see :func:`iri_lint.files.fileio.output_refusal`)."""
    fps = fingerprints(records, path.resolve().parent)
    entries = {fp: {"path": unicode_path(_rel(r.path, path.resolve().parent)), "code": r.code,
                    "value": r.value if show_secrets else redact(r.value)}
               for fp, r in zip(fps, records, strict=True)}
    doc = {"version": VERSION, "tool": "iri-lint",
           "fingerprints": dict(sorted(entries.items(), key=lambda kv: (kv[1]["path"], kv[1]["code"], kv[0])))}
    # a lone surrogate in a value is written as a \ud800 escape, which JSON reads back the same
    data = (escape_json(json.dumps(doc, ensure_ascii=False, indent=1)) + "\n").encode("utf-8")
    write_output(str(path), data, trees)


def new_only(records: list[Record], known: set[str], baseline_path: Path) -> list[Record]:
    """The records whose fingerprint is not in the baseline (a URL value's, by its anchor or by its value: a
    baseline written before anchors still holds)."""
    base = baseline_path.resolve().parent
    fps = fingerprints(records, base)
    if not any(r.anchor for r in records):
        return [r for r, fp in zip(records, fps, strict=True) if fp not in known]
    olds = (fingerprints(records, base, by_value=True), fingerprints(records, base, raw=True))
    return [r for r, fp, *was in zip(records, fps, *olds, strict=True) if fp not in known and not known & {*was}]


def _in_tokens(source: str) -> str:
    """An expression as Python reads it (``ast.unparse``): ``CDN+"/a b"`` and ``CDN + '/a b'`` over two lines are
    one; the source itself when it is no expression alone."""
    try:
        return ast.unparse(ast.parse(f"(\n{source}\n)", mode="eval"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source
