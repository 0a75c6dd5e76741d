"""Fetch the real-code corpus: real projects as sdists (tests, examples, docs), pinned and hashed.

    python scripts/fetch_corpus.py            # into corpus/ (git-ignored) or $IRI_LINT_CORPUS

Each project of ``scripts/corpus.json`` is downloaded with pip by exact version, as a source
distribution (wheels hold no tests; build backends may come as wheels), checked against its
sha256, and unpacked into ``<corpus>/<name>-<version>/`` (``name`` spelled as the sdist's folder).
Projects marked ``held_out`` are never tuned on: the slow test checks them separately
(``tests/realcode/test_corpus.py``). Running it again fetches only what is missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "scripts" / "corpus.json"


def corpus_dir() -> Path:
    """Where the corpus lives: $IRI_LINT_CORPUS, else ``corpus/`` at the repository root."""
    return Path(os.environ.get("IRI_LINT_CORPUS") or ROOT / "corpus")


def projects() -> list[dict[str, object]]:
    """The pinned projects: name, version, sha256 of the sdist, kind, held_out."""
    data: dict[str, list[dict[str, object]]] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return data["projects"]


def fetch(project: dict[str, object], dest: Path) -> Path:
    """Download, verify and unpack one sdist; return its folder (kept if already there)."""
    name, version = str(project["name"]), str(project["version"])
    folder = dest / f"{name}-{version}"
    if folder.is_dir():
        return folder
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", name,
                        f"{name}=={version}", "-d", tmp], check=True)
        (archive,) = Path(tmp).iterdir()
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()
        if digest != project["sha256"]:
            raise SystemExit(f"{archive.name}: sha256 {digest} is not the pinned {project['sha256']}")
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")
    if not folder.is_dir():
        raise SystemExit(f"{name}: the sdist did not unpack into {folder.name}/")
    return folder


def main() -> int:
    dest = corpus_dir()
    dest.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(4) as pool:  # pip spends most of its time waiting on the network
        for folder in pool.map(lambda project: fetch(project, dest), projects()):
            print(folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
