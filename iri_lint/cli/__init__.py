"""The ``iri-lint`` command line: check, fix, explain, rules, inspect, inventory (``iri-lint server`` is
the language server's, ``iri_lint.lsp``: the ``iri-lint`` script hands it there, ``iri_lint.__main__``).

Exit codes: 0 nothing to report, 1 findings (or files that could not be checked; for ``inspect``,
an IRI that is not valid), 2 usage, configuration or internal error.

Start-up stays cheap: this module builds the parser, and each subcommand's module is imported when
that subcommand runs (docs/design.md, "Lazy boundaries" (b)): ``iri-lint check`` does not pay for
``inspect``, nor ``iri-lint explain`` for checking files.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import sys
from collections.abc import Sequence
from typing import Any

from .exit_codes import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from .formats import FORMATS, INVENTORY_FORMATS

__all__ = ["EXIT_ERROR", "EXIT_FINDINGS", "EXIT_OK", "FORMATS", "main"]


class _Version(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from .version import version_line  # lazy boundary (b): --version reads the idna package's data version

        print(version_line())
        parser.exit()


def _terminal_width() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` reads it ($COLUMNS, then stdout, else 80)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Formatter(argparse.HelpFormatter):
    """argparse's, given the width: argparse reads it through ``shutil``, whose import (bz2, lzma, ...)
    would be 3% of checking one file, for every parser it builds, help or not."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_terminal_width() - 2)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help (and its subcommands', which are of its class) uses ``_Formatter``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


class _Extend(argparse.Action):
    """A comma-separated list flag given more than once adds up, as ruff's do
    (``--extend-select IRI3 --extend-select IRI7``), instead of keeping only the last."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 _option_string: str | None = None) -> None:
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or ()), *values])


COMMANDS = ("check", "fix", "explain", "rules", "server", "inspect", "inventory")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. ``command``: the subcommand about to run, when known; only its parser
    is then built (each one costs a parser of its own, with argparse's translations looked up; building
    them all, options included, was 3% of checking one file). ``iri-lint --help`` lists them all."""
    parser = _Parser(
        prog="iri-lint", description="Find URIs and IRIs in Python source and check them against RFC 3987.",
        epilog="Exit codes: 0 clean, 1 findings, 2 usage or internal error.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version and the Unicode and IDNA data versions, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = COMMANDS if command not in COMMANDS else (command,)

    if "check" in wanted:
        _check_options(sub.add_parser("check", help="check files and folders (- for stdin)",
                                      description="Check Python files for IRI problems. Exit codes: 0 clean, "
                                      "1 findings, 2 usage or internal error."))
    if "fix" in wanted:
        fix = sub.add_parser("fix", help="same as check --fix")
        _check_options(fix)
        fix.set_defaults(fix=True)
    if "explain" in wanted:
        explain = sub.add_parser("explain", help="show a rule's page")
        explain.add_argument("rule", help="rule code (IRI201) or name (bidi-formatting-character)")
    if "rules" in wanted:
        sub.add_parser("rules", help="list every rule: code, name, family, default, fix safety")
    if "server" in wanted:
        sub.add_parser("server", help="run the language server (LSP over stdio; needs iri-lint[lsp])")
    if "inspect" in wanted:
        insp = sub.add_parser("inspect", help="show what an IRI means: components, findings, mappings, "
                              "normal forms, bidi display")
        insp.add_argument("iri", help="the IRI (quote it for the shell)")
        insp.add_argument("--profile", default="iri", choices=["uri", "iri", "iri-3987bis", "leiri", "web-address"])
        insp.add_argument("--context", default="unknown", choices=["unknown", "identifier", "dereferenced"],
                          help="how the IRI is used: decides whether fixes are safe")
        insp.add_argument("--json", action="store_true", help="print JSON")
    if "inventory" in wanted:
        _inventory_options(sub.add_parser(
            "inventory", help="list the endpoints (scheme, host, port) the code names, with flags",
            description="List every distinct scheme, host and port found in the IRIs of the code, with counts, "
            "files and flags (plain http, IP literal, loopback or private address, IDN in both forms, "
            "credentials, templated). Exit codes: 0 listed, 1 a file could not be read, 2 usage or "
            "configuration error."))
    return parser


def _inventory_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .)")
    p.add_argument("--format", "--output-format", dest="format", choices=INVENTORY_FORMATS, default="text",
                   help="output format (default: text)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the inventory to FILE")
    p.add_argument("--show-secrets", action="store_true", help="print passwords in userinfo as they are")
    p.add_argument("--profile", choices=["uri", "iri", "iri-3987bis", "leiri", "web-address"])
    p.add_argument("--exclude", type=_csv, action=_Extend, help="globs to skip instead of the defaults")
    p.add_argument("--extend-exclude", type=_csv, action=_Extend, help="globs to skip on top of the excludes")
    p.add_argument("--config", metavar="PYPROJECT", help="read [tool.iri-lint] from this file")
    p.add_argument("--isolated", action="store_true", help="ignore pyproject.toml")
    _file_options(p)
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="processes, this one included (default: the CPU count, at most 8)")
    p.add_argument("--quiet", "-q", action="store_true", help="print the inventory, nothing else")
    p.set_defaults(select=None, ignore=None, extend_ignore=None, extend_select=None)


def _check_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="files or folders (default: .)")
    g = p.add_argument_group("rule selection (command line overrides [tool.iri-lint])")
    g.add_argument("--select", type=_csv, action=_Extend, help="codes or prefixes to enable instead of the defaults")
    g.add_argument("--ignore", type=_csv, action=_Extend,
                   help="codes or prefixes to disable, on top of the configured ignores")
    g.add_argument("--extend-ignore", type=_csv, action=_Extend, help="the same as --ignore (flake8's spelling)")
    g.add_argument("--extend-select", type=_csv, action=_Extend,
                   help="codes or prefixes to enable on top (opt-in rules)")
    g.add_argument("--profile", choices=["uri", "iri", "iri-3987bis", "leiri", "web-address"])
    g.add_argument("--exclude", type=_csv, action=_Extend, help="globs to skip instead of the defaults")
    g.add_argument("--extend-exclude", type=_csv, action=_Extend, help="globs to skip on top of the excludes")
    g.add_argument("--config", metavar="PYPROJECT", help="read [tool.iri-lint] from this file")
    g.add_argument("--isolated", action="store_true", help="ignore pyproject.toml")
    g.add_argument("--show-settings", action="store_true",
                   help="print the configuration file and the effective settings for FILE, then exit")
    g.add_argument("--show-files", action="store_true",
                   help="print the files that would be checked, and what was skipped and why, then exit")
    _file_options(g)
    f = p.add_argument_group("fixes")
    f.add_argument("--fix", action="store_true", help="apply safe fixes")
    f.add_argument("--unsafe-fixes", action="store_true",
                   help="with --fix or --diff, apply unsafe fixes too; alone, report what they would do")
    f.add_argument("--show-fixes", action="store_true",
                   help="print what each finding's fix writes ('old' -> 'new'), unsafe ones included")
    f.add_argument("--diff", action="store_true",
                   help="print the fixes as a diff instead of writing them (exit 1 if there is one, else 0)")
    f.add_argument("--exit-non-zero-on-fix", action="store_true",
                   help="exit 1 when a file was fixed, even if no finding remains")
    f.add_argument("--add-noqa", action="store_true", help="add `# noqa: CODE` to every line with a finding")
    o = p.add_argument_group("output")
    o.add_argument("--output-format", "--format", dest="format", choices=FORMATS, default="text",
                   help="output format (default: text; concise: one line per finding, full: with the source "
                   "line and the fix)")
    o.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE")
    o.add_argument("--show-source", action=argparse.BooleanOptionalAction, default=None,
                   help="show each finding's line with a caret (default: on a terminal)")
    o.add_argument("--statistics", action="store_true", help="print counts per rule")
    o.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    o.add_argument("--baseline", metavar="FILE",
                   help="report only the findings not recorded in FILE (a FILE that does not exist is an error, "
                   "exit 2); create or refresh it with --update-baseline")
    o.add_argument("--update-baseline", action="store_true", help="with --baseline: rewrite FILE")
    o.add_argument("--stdin-filename", metavar="PATH", help="the path to report (and match configuration) for -")
    o.add_argument("--jobs", "-j", type=int, default=None,
                   help="processes checking files, this one included (default: the CPU count, at most 8)")
    o.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="color the text report (auto: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it)")
    o.add_argument("--no-progress", action="store_true", help="no progress bar")
    o.add_argument("--quiet", "-q", action="store_true",
                   help="print the findings and nothing else (no summary, warnings or progress bar)")
    o.add_argument("--show-secrets", action="store_true",
                   help="print passwords in userinfo as they are, in every format and the baseline (default: masked)")
    o.add_argument("--no-cache", action="store_true",
                   help="check every file again: neither read nor write the result cache "
                   "(also: IRI_LINT_NO_CACHE=1)")
    o.add_argument("--cache-dir", metavar="DIR",
                   help="the folder to keep the result cache in, as a subfolder of its own named after "
                   "iri-lint's version (default: $IRI_LINT_CACHE_DIR, else .iri_lint_cache beside the "
                   "pyproject.toml in use)")


def _file_options(g: argparse._ArgumentGroup | argparse.ArgumentParser) -> None:
    """Which files are checked and which a fix may write (iri_lint.files.discover, iri_lint.cli.write_policy)."""
    g.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                   help="skip what git ignores when walking folders (default: on; respect-gitignore)")
    g.add_argument("--force-exclude", action="store_true",
                   help="apply the excludes to paths named on the command line too (for pre-commit)")
    g.add_argument("--fix-symlinks", action="store_true",
                   help="fix a symlink named on the command line even when its target is outside the tree")


# The collector's first threshold in the script's process (Python's is 700 allocations). Parsing a module
# makes a node per allocation, all alive until the tree is done, so a young collection every 700 walked
# nodes that could not be garbage; and what a check drops is freed by refcounting (trees have no cycles,
# the value model's indexes break theirs when closed). 10,000: 0.92x the CPU of `iri-lint check` on
# run.py's corpus, the same peak memory; 100,000 (mypy runs on 200,000): 0.95x that again, 0.95x wall
# (10 paired runs, 2 workers), the same peak; the collector's share of a one-process lint 8% -> 4%.
YOUNG_COLLECTION = 100_000


def _imported(argv: Sequence[str] | None) -> None:
    """Called once a subcommand's modules are imported. In the script's process (``argv`` None) what
    importing made lives until the process exits: left to the collector, it would be traversed again by
    each full collection and at exit (5% of a one-file check); frozen, it is not. The script imports with
    the collector off (``iri_lint.__main__``): importing makes few cycles, and the collections its
    allocations set off walked every module loaded so far (4% of a one-file check). The collector then
    runs on ``YOUNG_COLLECTION`` allocations (its workers inherit it). (Not for in-process callers: what
    they froze would never be collected, and their collector is theirs.)"""
    if argv is None:
        gc.freeze()
        gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
        gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``iri-lint`` script; each subcommand's module is imported where it runs."""
    rest = list(sys.argv[1:] if argv is None else argv)
    if rest[:1] == ["server"]:  # the iri-lint script hands it to the server before the CLI (iri_lint.__main__)
        print("iri-lint: the language server is run by `iri-lint server` or `python -m iri_lint.lsp`, "
              "not by the CLI alone", file=sys.stderr)
        return EXIT_ERROR
    parser = build_parser(rest[0] if rest else None)
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate in a value is shown as \ud800, never a crash
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        if args.command in ("check", "fix"):
            from .check import run_check

            _imported(argv)
            return run_check(args, parser)
        if args.command == "explain":
            from .explain import find_rule, write_explain

            _imported(argv)
            rule = find_rule(args.rule)
            if rule is None:
                print(f"iri-lint: unknown rule {args.rule!r}; `iri-lint rules` lists them", file=sys.stderr)
                return EXIT_ERROR
            write_explain(sys.stdout, rule)
            return EXIT_OK
        if args.command == "rules":
            from .explain import write_rules

            _imported(argv)
            write_rules(sys.stdout)
            return EXIT_OK
        if args.command == "inspect":  # exit 1 for an IRI that is not valid: a validator for scripts
            from .inspect import describe, write_inspect

            _imported(argv)
            data = describe(args.iri, profile=args.profile, context=args.context)
            write_inspect(sys.stdout, data, as_json=args.json)
            return EXIT_OK if data["valid"] else EXIT_FINDINGS
        if args.command == "inventory":
            from .inventory_run import run_inventory

            _imported(argv)
            return run_inventory(args)
        parser.print_help()
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("iri-lint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # output closed early (e.g. `| head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:  # never a traceback for the user; IRI_LINT_DEBUG=1 shows it
        if os.environ.get("IRI_LINT_DEBUG"):
            raise
        print(f"iri-lint: internal error: {type(exc).__name__}: {exc} (set IRI_LINT_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
