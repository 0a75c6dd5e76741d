"""The whole standard library of the running Python, every rule on: no internal error, JSON whole."""

from __future__ import annotations

import json
import sysconfig

import pytest

from .conftest import run_cli

_FILE_PROBLEMS = ("syntax error", "cannot decode file", "file too large", "binary file", "nesting too deep")


@pytest.mark.slow
def test_checking_the_standard_library_loses_no_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    stdlib = sysconfig.get_paths()["stdlib"]
    out = tmp_path / "report.json"
    proc = run_cli("check", "--select", "ALL", "--format", "json", "--exit-zero", "-o", str(out), stdlib)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["findings"], "the standard library has URLs; none found means nothing was checked"
    assert not [f for f in report["findings"] if f["code"] == "IRI100"]
    # files that are not valid Python (the test suite's deliberately broken inputs) say why, nothing else
    assert all(e["message"].startswith(_FILE_PROBLEMS) for e in report["errors"]), report["errors"]
