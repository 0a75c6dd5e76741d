"""What ``iri-lint check`` writes: the report in the format asked for, and the summary line on stderr.

Passwords are masked in every format unless ``--show-secrets`` (``iri_lint.cli.redact``); the
formats that identify findings (SARIF, GitLab) take the identities from the values before masking.
The reporters of the formats a check on a few files never writes (SARIF, GitLab, JUnit, the HTML
page and the endpoint inventory it holds) are imported when their format is asked for: a
pre-commit run must start fast (tests/cli/test_startup.py; the one exception to the rule that an
iri_lint module is imported at module level, tests/test_layers.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NamedTuple, TextIO

from ..config import Config
from . import redact
from .escape import quote_path
from .formats import TEXT_FORMATS
from .report import (
    problem_line,
    write_github,
    write_json,
    write_json_lines,
    write_pylint,
    write_statistics,
    write_text,
)
from .results import FileResult, Job, Record


class RunInfo(NamedTuple):
    """What an audit report says about the run besides its findings."""

    config: Config | None = None  # the effective settings of the first path
    config_file: str | None = None  # where they were read, None for the defaults
    jobs: Sequence[Job] = ()  # the files checked, with their settings (the endpoint inventory reads them)


def write(args: argparse.Namespace, out: TextIO, results: list[FileResult], records: list[Record],
          info: RunInfo) -> None:
    """The report on ``out``; problems and the summary on stderr."""
    clear = records
    if not args.show_secrets:
        results, records = redact.results(results), redact.records(records)
    for res in results:
        if args.format != "github":
            for p in res.problems:
                print(problem_line(p), file=sys.stderr)
        if res.new_bytes is not None and not args.diff:
            sys.stdout.flush()
            sys.stdout.buffer.write(res.new_bytes)  # stdin with --fix: the fixed source on stdout
            sys.stdout.flush()
    if args.diff:
        for res in results:
            out.write(res.diff)
        summary(args, results, records)
        return
    fixed_stdin = any(res.new_bytes is not None for res in results)
    if fixed_stdin and out is sys.stdout:
        out = sys.stderr  # stdout holds the fixed source: a report goes to stderr, never mixed in
    _format(args, out, results, records, clear, info)
    if args.statistics:
        write_statistics(out if args.format in TEXT_FORMATS else sys.stderr, records)
    if args.format in TEXT_FORMATS:
        summary(args, results, records)


def _format(args: argparse.Namespace, out: TextIO, results: list[FileResult], records: list[Record],
            clear: list[Record], info: RunInfo) -> None:
    fmt = args.format
    if fmt == "json":
        write_json(out, results, records)
    elif fmt == "json-lines":
        write_json_lines(out, results, records)
    elif fmt == "pylint":
        write_pylint(out, results, records)
    elif fmt == "github":
        write_github(out, results, records)
    elif fmt == "sarif":
        from .sarif import write_sarif

        write_sarif(out, results, records, clear=clear)
    elif fmt == "gitlab":
        from .gitlab import write_gitlab

        write_gitlab(out, results, records, clear=clear)
    elif fmt == "junit":
        from .junit import write_junit

        write_junit(out, results, records)
    elif fmt == "html":
        from .html_report import write_html
        from .inventory import collect

        write_html(out, results, records, info=info,
                   endpoints=collect(info.jobs, show_secrets=args.show_secrets, workers=args.jobs))
    else:
        tty = out.isatty()
        show = {"concise": False, "full": True}.get(fmt, args.show_source if args.show_source is not None else tty)
        fixes = bool(args.fix or args.show_fixes or fmt == "full")  # (full: every fix, unsafe ones too)
        write_text(out, results, records, show_source=show, show_fixes=fixes,
                   color=_color(args.color, tty), fixing=bool(args.fix), unsafe=args.unsafe_fixes)


def _color(choice: str, tty: bool) -> bool:
    """--color always|never|auto; auto: a terminal, unless NO_COLOR is set; FORCE_COLOR forces it."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("FORCE_COLOR"):
        return True
    return tty and not os.environ.get("NO_COLOR")


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 finding``, ``2 findings``."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def summary(args: argparse.Namespace, results: list[FileResult], records: list[Record]) -> None:
    """One line on stderr: what was found and fixed, and what --fix and --unsafe-fixes would still fix."""
    if args.quiet:
        return
    fixed = sum(len(res.applied) for res in results)
    noqa = sum(res.noqa_added for res in results)
    safe = sum(1 for r in records if r.fix is not None and r.fix.status == "available" and r.fix.safety == "safe")
    unsafe = sum(1 for r in records if r.fix is not None and r.fix.status == "unsafe")
    parts = []
    if fixed:
        files = sum(1 for r in results if r.applied)
        parts.append(f"{'Would fix' if args.diff else 'Fixed'} {count(fixed, 'finding')} in {count(files, 'file')}")
    if noqa:
        parts.append(f"added {count(noqa, 'noqa comment')}")
    if records or not parts:
        remain = (" remains" if len(records) == 1 else " remain") if fixed else ""
        parts.append(count(len(records), "finding") + remain)
    if safe:
        parts.append(f"{count(safe, 'fix', 'fixes')} available with --fix")
    if unsafe:
        how = "--fix --unsafe-fixes" if args.unsafe_fixes and not args.fix else "--unsafe-fixes"
        parts.append(f"{unsafe} more {'fix' if unsafe == 1 else 'fixes'} available with {how}")
    if (records or fixed or noqa) and (sys.stderr.isatty() or args.fix or args.diff or args.add_noqa):
        print("iri-lint: " + "; ".join(parts) + ".", file=sys.stderr)


def note(args: argparse.Namespace, message: str) -> None:
    """A line on stderr that is not a finding (a warning, what was written): none with ``--quiet``."""
    if not args.quiet:
        print(f"iri-lint: {message}", file=sys.stderr)


def write_files(out: TextIO, files: Sequence[str], skipped: Sequence[tuple[str, str]]) -> None:
    """``--show-files``: the files that would be checked, then what was left out and why."""
    for path in files:
        out.write(quote_path(path) + "\n")
    for path, why in skipped:
        out.write(f"skipped {quote_path(path)}: {why}\n")
