"""``--format junit``: JUnit XML as ruff writes it, for CI systems that show test reports.

One ``<testsuite>`` per file with findings (``name``: the path), one ``<testcase>`` per finding
(``name``: ``iri-lint.CODE``, ``classname``: the path without its suffix; ``file``, which GitLab
links, ``line`` and ``column``) with
a ``<failure>``; a file that could not be checked is a ``<testcase>`` with an ``<error>``. With
nothing to report, one passing test case, ``No errors found``. XML 1.0 cannot hold most control
characters even as references: every invisible character is written as ``\\uXXXX`` text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from .escape import escape_text, unicode_path
from .report import where
from .results import FileResult, Problem, Record

_XML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;",
                      "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _x(text: str) -> str:
    """Text for an XML attribute or element: escaped, and nothing XML 1.0 cannot hold."""
    return escape_text(text.replace("\t", " ")).translate(_XML)


def _classname(path: str) -> str:
    stem, dot, suffix = path.rpartition(".")
    return stem if dot and "/" not in suffix else path


def _case(r: Record) -> str:
    path = unicode_path(r.path)
    return (f'    <testcase name="iri-lint.{r.code}" classname="{_x(_classname(path))}" file="{_x(path)}" '
            f'line="{r.line}" column="{r.col + 1}">\n'
            f'      <failure message="{_x(r.message)}" type="{r.code}">{_x(f"{where(r)}: {r.code} {r.message}")}'
            "</failure>\n    </testcase>\n")


def _error_case(p: Problem) -> str:
    path = unicode_path(p.path)
    return (f'    <testcase name="iri-lint" classname="{_x(_classname(path))}" line="{p.line}" column="{p.col + 1}">\n'
            f'      <error message="{_x(p.message)}">{_x(p.message)}</error>\n    </testcase>\n')


def write_junit(out: TextIO, results: Sequence[FileResult], records: Sequence[Record]) -> None:
    by_file: dict[str, list[Record]] = {}
    for r in records:
        by_file.setdefault(r.path, []).append(r)
    problems = {res.path: res.problems for res in results if res.problems}
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    if not by_file and not problems:
        out.write('<testsuites name="iri-lint" tests="1" failures="0" errors="0">\n'
                  '  <testsuite name="iri-lint" tests="1" failures="0" errors="0" skipped="0">\n'
                  '    <testcase name="No errors found" classname="iri-lint"/>\n  </testsuite>\n</testsuites>\n')
        return
    n_errors = sum(len(ps) for ps in problems.values())
    out.write(f'<testsuites name="iri-lint" tests="{len(records) + n_errors}" failures="{len(records)}" '
              f'errors="{n_errors}">\n')
    for path in dict.fromkeys([*by_file, *problems]):
        cases = by_file.get(path, [])
        errors = problems.get(path, [])
        out.write(f'  <testsuite name="{_x(unicode_path(path))}" tests="{len(cases) + len(errors)}" '
                  f'failures="{len(cases)}" errors="{len(errors)}" skipped="0">\n')
        out.writelines(_case(r) for r in cases)
        out.writelines(_error_case(p) for p in errors)
        out.write("  </testsuite>\n")
    out.write("</testsuites>\n")
