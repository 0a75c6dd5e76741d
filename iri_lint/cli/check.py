"""``iri-lint check``: configuration, file discovery, running, filtering (baseline), reporting."""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import sys
from pathlib import Path
from typing import TextIO

from ..config import Config, ConfigError, ConfigFinder, config_from_file, layered
from ..files.discover import Target, discover, tree_of
from ..files.fileio import remove_leftover, write_output
from ..files.pyproject import lint_path
from ..rules.engine import select_codes
from .baseline import BaselineError, load, new_only, save
from .cache import open_cache
from .escape import quote_path
from .exit_codes import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from .flake8_config import config_from_flake8, find_flake8_config
from .output import RunInfo, note, write, write_files
from .results import FileResult, Job, Problem, Record
from .run import run_jobs
from .write_policy import refuse_fixes, write_refusal


def _err(message: str) -> int:
    print(f"iri-lint: {message}", file=sys.stderr)
    return EXIT_ERROR


class CheckSettings:
    """Each file's effective configuration: its nearest ``[tool.iri-lint]`` (or ``--config``, or none with
    ``--isolated``; where no pyproject.toml has the table, the flake8 configuration's IRI codes), with the
    command line's options on top."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.finder = ConfigFinder()
        self.fixed: tuple[Config, Path | None] | None = None
        self.flake8: tuple[Config, Path | None] | None = None  # read when first needed
        if args.isolated:
            self.fixed = (Config(), None)
        elif args.config:
            path = Path(args.config)
            self.fixed = (config_from_file(path), path)
        self._adjusted: dict[Path | None, Config] = {}
        self._by_folder: dict[str, tuple[Config, Path | None]] = {}

    def for_path(self, path: str) -> tuple[Config, Path | None]:
        """(config, pyproject) for the file or folder ``path`` ("-": the current folder)."""
        absolute = os.path.abspath(path if path != "-" else "x")
        folder = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
        known = self._by_folder.get(folder)
        if known is not None:  # a tree's files share a few folders: resolve each folder once
            return known
        if self.fixed is not None:
            base, pyproject = self.fixed
        else:
            base, pyproject = self.finder.config_for(Path(folder, "x"))
            if pyproject is None:
                base, pyproject = self._flake8()
        key = pyproject.resolve() if pyproject is not None else None
        if key not in self._adjusted:
            self._adjusted[key] = self._with_command_line(base, pyproject)
        self._by_folder[folder] = (self._adjusted[key], pyproject)
        return self._by_folder[folder]

    def _flake8(self) -> tuple[Config, Path | None]:
        """The file flake8 reads (``iri_lint.cli.flake8_config``), when no ``[tool.iri-lint]`` applies."""
        if self.flake8 is None:
            found = find_flake8_config()
            self.flake8 = (config_from_flake8(found), found) if found is not None else (Config(), None)
        return self.flake8

    def _with_command_line(self, cfg: Config, pyproject: Path | None) -> Config:
        args = self.args
        where = f"{pyproject}: " if pyproject is not None else ""
        _validate_codes(cfg, where)  # the file's own codes first, so the error names the file
        ignores = (*(args.ignore or ()), *(args.extend_ignore or ()))
        given = {"select": tuple(args.select) if args.select is not None else None, "ignore": ignores,
                 "extend_select": tuple(args.extend_select or ()), "profile": args.profile,
                 "exclude": tuple(args.exclude) if args.exclude is not None else None,
                 "extend_exclude": tuple(args.extend_exclude or ()),
                 "respect_gitignore": getattr(args, "respect_gitignore", None)}
        keys = [k for k, v in given.items() if v is not None and (v != () or k in ("select", "exclude"))]
        cfg = layered(cfg, dataclasses.replace(Config(), **{k: given[k] for k in keys}), keys)
        _validate_codes(cfg, "command line: ")
        return cfg


def _validate_codes(cfg: Config, where: str = "") -> None:
    named = [(key, c) for key in ("select", "ignore", "extend_select") for c in getattr(cfg, key) or ()]
    named += [("per_file_ignores", c) for _, codes in cfg.per_file_ignores for c in codes]
    for key, c in named:  # a typo must not silently select or ignore nothing
        if not select_codes([c]):
            raise ConfigError(f"{where}{key.replace('_', '-')}: {c!r} matches no rule (`iri-lint rules` lists them)")


def show_settings(settings: CheckSettings, path: str, out: TextIO) -> None:
    """``--show-settings FILE``: the configuration file used and every effective setting."""
    cfg, pyproject = settings.for_path(path)
    source = str(pyproject) if pyproject is not None else "none (defaults)"
    if pyproject is not None and settings.flake8 is not None and settings.flake8[1] == pyproject:
        source += " ([flake8]: its IRI codes and iri-* options; no [tool.iri-lint] table found)"
    if settings.args.isolated:
        source = "none (--isolated)"
    out.write(f"Settings for {path}\n  configuration file: {source}\n")
    lint_as = _lint_path(path, pyproject)
    for f in dataclasses.fields(cfg):
        value = getattr(cfg, f.name)
        if f.name == "per_file_ignores":
            value = {pattern: list(codes) for pattern, codes in value}
        elif isinstance(value, tuple):
            value = list(value)
        out.write(f"  {f.name.replace('_', '-')} = {value!r}\n")
    out.write(f"  path matched by per-file-ignores and test-files = {lint_as!r}\n")
    out.write(f"  enabled rules = {', '.join(sorted(cfg.codes_for(lint_as)))}\n")


def run_check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:  # noqa: C901 - one guard per option clash, each a one-line error
    if args.update_baseline and not args.baseline:
        return _err("--update-baseline needs --baseline FILE")
    if args.diff and args.add_noqa:
        return _err("--diff and --add-noqa cannot be combined")
    try:
        settings = CheckSettings(args)
        if args.show_settings:
            if len(args.paths) != 1:
                return _err("--show-settings takes one FILE")
            show_settings(settings, args.paths[0], sys.stdout)
            return EXIT_OK
        first = next((p for p in args.paths if p != "-"), args.stdin_filename or ".")
        cfg, _ = settings.for_path(first)  # the walk's excludes: those of the first path
    except ConfigError as exc:
        return _err(str(exc))
    if "IRI" in (args.extend_select or ()):  # (a user who wants the opt-in rules gets a clean run otherwise)
        note(args, "warning: --extend-select IRI adds no rule: 'IRI' alone is the default set; name a rule, "
                   "a longer prefix (IRI3) or ALL for the opt-in rules")
    stdin_data = None
    if "-" in args.paths:
        if len(args.paths) > 1:
            return _err("- (stdin) cannot be combined with other paths")
        stdin_data = sys.stdin.buffer.read() if not args.show_files else b""
    # a path that does not exist is reported as ruff reports it (E902, exit 1); the others are checked
    missing = [p for p in args.paths if p != "-" and not os.path.lexists(p)]
    paths = [p for p in args.paths if p not in missing]
    fixing = bool(args.fix or args.diff)
    skipped: list[tuple[str, str]] | None = [] if args.show_files else None
    found = discover(paths, exclude=cfg.exclude or None, extend_exclude=cfg.extend_exclude,
                     respect_gitignore=cfg.respect_gitignore, force_exclude=args.force_exclude,
                     skipped=skipped) if paths else None
    targets = found.targets if found is not None else []
    for leftover in found.leftovers if found is not None else ():  # what killed runs' writers left
        remove_leftover(leftover)
    # the trees a report or baseline may not lead out of through a symlink
    trees = found.trees if found is not None else ()
    outputs = tuple(dict.fromkeys((*trees, tree_of(".")))) if args.output or args.update_baseline else trees
    if skipped is not None:
        write_files(sys.stdout, [t.path for t in targets], [*((p, "no such file or folder") for p in missing),
                                                            *skipped])
        return EXIT_OK
    if not targets and not missing:
        note(args, "warning: no Python files found under the given path(s)")
        return EXIT_OK
    jobs: list[Job] = []
    refusals: dict[int, str] = {}  # job index -> why its fixes are not written
    for target in targets:
        path = target.path
        shown = (args.stdin_filename or "-") if path == "-" else path
        try:
            file_cfg, pyproject = settings.for_path(shown)
        except ConfigError as exc:
            return _err(str(exc))
        refusal = _refusal(args, target, found.trees) if found is not None and (fixing or args.add_noqa) else None
        if refusal is not None:
            refusals[len(jobs)] = refusal
        writes = refusal is None
        jobs.append(Job(shown, file_cfg, fix=fixing and writes, unsafe=args.unsafe_fixes, write=not args.diff,
                        diff=args.diff and writes, add_noqa=args.add_noqa and writes,
                        data=stdin_data if path == "-" else None, lint_path=_lint_path(shown, pyproject)))
    progress = sys.stderr.isatty() and not args.no_progress
    progress = progress and not args.quiet
    results = [FileResult(p, problem=Problem(p, 1, 0, "No such file or directory", code="E902")) for p in missing]
    refusals = {i + len(missing): why for i, why in refusals.items()}
    results += run_jobs(jobs, progress=progress, workers=args.jobs, cache=open_cache(args))
    _refuse(args, results, refusals)
    records = [r for res in results for r in res.records]
    info = RunInfo(cfg, str(settings.for_path(first)[1] or "") or None, jobs)

    if args.baseline:
        bpath = Path(args.baseline)
        if not args.update_baseline and not bpath.exists():
            return _err(f"baseline {bpath} does not exist; create it with --update-baseline")
        if args.update_baseline:
            try:
                save(bpath, records, outputs, show_secrets=args.show_secrets)
            except OSError as exc:
                return _err(f"cannot write baseline {bpath}: {exc.strerror or exc}")
            note(args, f"wrote {len(records)} finding(s) to baseline {quote_path(str(bpath))}")
            records = []
        else:
            try:
                records = new_only(records, load(bpath), bpath)
            except BaselineError as exc:
                return _err(str(exc))
    return _report(args, results, records, info, outputs)


def _refusal(args: argparse.Namespace, target: Target, trees: tuple[str, ...]) -> str | None:
    return write_refusal(target, trees, fix_symlinks=args.fix_symlinks)


def _refuse(args: argparse.Namespace, results: list[FileResult], refusals: dict[int, str]) -> None:
    """Files a fix must not write were only checked: their fixes are refused, once per file on stderr."""
    for i, reason in refusals.items():
        if refuse_fixes(results[i], reason, unsafe=args.unsafe_fixes) or (args.add_noqa and results[i].records):
            print(f"{quote_path(results[i].path)}: not fixed: {reason}", file=sys.stderr)


def _lint_path(shown: str, pyproject: Path | None) -> str:
    """The path per-file settings match (:func:`iri_lint.files.pyproject.lint_path`): relative to the
    pyproject's folder, else to the current folder."""
    return lint_path(shown, pyproject.parent if pyproject is not None else Path.cwd())


def _report(args: argparse.Namespace, results: list[FileResult], records: list[Record], info: RunInfo,
            trees: tuple[str, ...]) -> int:
    if args.output and args.output != "-":  # "-": standard output, as without -o
        buffer = io.StringIO()
        write(args, buffer, results, records, info)
        try:
            write_report(args.output, buffer.getvalue(), trees)
        except OSError as exc:
            return _err(f"cannot write {args.output}: {exc.strerror or exc}")
    else:
        write(args, sys.stdout, results, records, info)
    return exit_code(args, results, records)


def exit_code(args: argparse.Namespace, results: list[FileResult], records: list[Record]) -> int:
    """ruff's: 1 for findings (with ``--diff``: for changes) and problems, and with ``--exit-non-zero-on-fix``
    for fixed files too; 0 with ``--exit-zero``; 2 for an internal error, even with ``--exit-zero``."""
    problems = [res.problem for res in results if res.problem is not None]
    if any(p.internal for p in problems) or any(r.code == "IRI100" for r in records):
        return EXIT_ERROR  # as --help says: an internal error is exit 2, even with --exit-zero
    if args.exit_zero:
        return EXIT_OK
    if args.exit_non_zero_on_fix and any(res.applied for res in results):
        return EXIT_FINDINGS
    if args.diff:  # --diff reports changes, not findings (ruff: "exit 0 if there are no diffs")
        return EXIT_FINDINGS if problems or any(res.diff for res in results) else EXIT_OK
    return EXIT_FINDINGS if records or problems else EXIT_OK


def write_report(path: str, text: str, trees: tuple[str, ...]) -> None:
    """Write a whole report or nothing, by the write policy of every file iri-lint writes
    (:func:`iri_lint.files.fileio.write_output`: a FIFO or a device is written into, a regular file replaced).

    Values may hold lone surrogates (``"\\ud800"`` in source); they are written as ``\\ud800``
    escapes, which JSON and SARIF read back as the same string.
    """
    write_output(path, text.encode("utf-8", "backslashreplace"), trees)
