"""``iri-lint inventory``: the endpoint inventory of a tree (``iri_lint.cli.inventory``), in text, JSON or CSV.

A subcommand rather than a ``check --format``: an inventory is no report of findings (it lists
what the code names, and exits 0 having listed it), it has formats of its own (CSV), and the
options of ``check`` about rules, fixes and baselines mean nothing to it; ruff too puts its
analyses that are not lint results under their own command (``ruff analyze graph``). The same
files are read as by ``check``, with the same configuration and excludes.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

from ..config import ConfigError
from ..files.discover import discover, tree_of
from ..files.pyproject import lint_path
from .check import CheckSettings, write_report
from .escape import quote_path
from .exit_codes import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from .inventory import Inventory, collect, write_csv, write_json, write_text
from .results import Job


def _err(message: str) -> int:
    print(f"iri-lint: {message}", file=sys.stderr)
    return EXIT_ERROR


def run_inventory(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if not os.path.lexists(p)]
    if missing:
        return _err(f"no such file or folder: {', '.join(quote_path(p) for p in missing)}")
    try:
        settings = CheckSettings(args)
        cfg, _ = settings.for_path(args.paths[0])
        found = discover(args.paths, exclude=cfg.exclude or None, extend_exclude=cfg.extend_exclude,
                         respect_gitignore=cfg.respect_gitignore, force_exclude=args.force_exclude)
        jobs = []
        for target in found.targets:
            file_cfg, config_file = settings.for_path(target.path)
            root = config_file.parent if config_file is not None else Path.cwd()
            jobs.append(Job(target.path, file_cfg, lint_path=lint_path(target.path, root)))
    except ConfigError as exc:
        return _err(str(exc))
    inventory = collect(jobs, show_secrets=args.show_secrets, workers=args.jobs)
    for p in inventory.problems:
        print(f"{quote_path(p.path)}:{p.line}:{p.col + 1}: error: {p.message}", file=sys.stderr)
    text = _render(args.format, inventory)
    if args.output and args.output != "-":  # "-": standard output, as without -o
        try:  # by the write policy of every file iri-lint writes (a symlink may not lead out of the tree)
            write_report(args.output, text, tuple(dict.fromkeys((*found.trees, tree_of(".")))))
        except OSError as exc:
            return _err(f"cannot write {args.output}: {exc.strerror or exc}")
    else:
        sys.stdout.write(text)
    if not jobs and not args.quiet:
        print("iri-lint: warning: no Python files found under the given path(s)", file=sys.stderr)
    return EXIT_FINDINGS if inventory.problems else EXIT_OK


def _render(fmt: str, inventory: Inventory) -> str:
    out = io.StringIO()
    {"json": write_json, "csv": write_csv}.get(fmt, write_text)(out, inventory)
    return out.getvalue()
