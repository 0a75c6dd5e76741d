"""The flake8 plugin's engine side: flake8's options -> the run's settings; a file -> its findings.

Imported by ``flake8_plugin`` when a run first meets a file whose text could hold an IRI, so that a
flake8 run over files without one never imports the engine (docs/design.md, "Lazy boundaries" (a)).
"""

from __future__ import annotations

import ast
import gc
import os
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from .config import Config
from .lint import SourceError, decode_source, lint_tree, warm_up
from .options import comma_list
from .rules.engine import TEXT_CODES, named_codes, select_codes
from .rules.registry import RULES
from .source.marks import ScanOptions
from .unused_noqa import unused_noqa
from .values_check import Project


class Flake8Settings(NamedTuple):
    """What a run checks with: the configuration, the rules run on IRIs in prose (None: no text mode), and
    the project modules this process reads for the constants a file imports (without their digests: flake8
    keeps no result cache)."""

    config: Config
    text_codes: frozenset[str] | None
    project: Project


def settings(options: Any, scan: ScanOptions) -> Flake8Settings:
    """The settings of flake8's ``options`` (None: the defaults); ``scan``: what the pre-check looked for.

    Opt-in rules run only when select/extend-select names them (flake8-bugbear's B9 gating): flake8's
    default-ignore list is no opt-in mechanism, since any ``ignore =`` replaces it.
    """
    if options is None:
        return Flake8Settings(Config(url_names=scan.url_names, extra_url_apis=scan.extra_url_apis), None,
                              Project(hashed=False, lends=False))
    select = comma_list(getattr(options, "select", None))
    extend = comma_list(getattr(options, "extend_select", None))
    ignore = (*comma_list(getattr(options, "ignore", None)), *comma_list(getattr(options, "extend_ignore", None)))
    named = named_codes((*select, *extend))
    config = Config(
        # the default set and what the user names, less what flake8's decision drops: those are not run (a
        # rule run only to be dropped may still hold back another's finding, and IRI901 reads what is enabled)
        extend_select=tuple(sorted(named)),
        ignore=tuple(r.code for r in RULES if not _flake8_reports(r.code, (*select, *extend), ignore, bool(select))),
        profile=options.iri_profile,
        url_names=scan.url_names,
        extra_url_apis=scan.extra_url_apis,
        include_bytes=bool(options.iri_include_bytes),
        test_files=comma_list(options.iri_test_files),
        test_files_security_only=bool(options.iri_test_files_security_only),
    )
    if not any(code in TEXT_CODES for code in named):  # the text codes are all opt-in
        return Flake8Settings(config, None, Project(hashed=False, lends=False))
    # in prose, only the underlying rules the user enabled run (flake8's own selection, IRI codes)
    in_text = select_codes(select or None, [i for i in ignore if i.upper().startswith("IRI")], extend)
    return Flake8Settings(config, in_text, Project(hashed=False, lends=False))


def _flake8_reports(code: str, selected: Sequence[str], ignored: Sequence[str], explicit: bool) -> bool:
    """Whether flake8 reports ``code`` (``flake8.style_guide.DecisionEngine``): selected by a prefix of
    --select/--extend-select, or by default when no --select is given; ignored by a prefix of
    --ignore/--extend-ignore; of a code both select and ignore, the longer prefix decides."""
    chosen = max((len(p) for p in selected if code.startswith(p.upper())), default=-1)
    if chosen < 0 and explicit:
        return False
    dropped = max((len(p) for p in ignored if code.startswith(p.upper())), default=-1)
    return dropped < 0 or chosen > dropped


def prepare(run: Flake8Settings) -> None:
    """In a process that flake8 forks its workers from: check a small module with ``run``'s rules, loading
    the rules' modules and the regexes that the first literals of a run load, then freeze the gc's objects.
    Nothing is read from disk and ``run``'s project is not touched; a failure here is left to the files'
    own checks to report."""
    warm_up(run.config, run.text_codes)
    # what the process holds now, flake8's and the engine's, out of the cyclic gc's reach (collected first:
    # no garbage frozen): the workers' full collections, the project's before each freeze among them, then
    # walk only what each made itself, as CPython's docs advise before a fork (gc.freeze)
    gc.collect()
    gc.freeze()


def findings(tree: ast.AST, lines: Sequence[str], filename: str, run: Flake8Settings,
             marked: list[int], values_only: bool = False) -> Iterator[tuple[int, int, str]]:
    """(line, column, "IRIxxx message"); a literal that breaks the engine is reported, never raised.

    ``marked``: the file's lines that the pre-check found worth walking (``source.marks``); none when
    only a noqa comment brought the file here (rule IRI901); ``values_only``: they are URL API calls'
    lines only (``lint.lint_tree``)."""
    text = "".join(lines)  # (flake8 applies noqa itself: IRI901 reads what it will silence)
    refused = _refused_bytes(text, filename)
    if refused:
        yield 1, 0, f"IRI100 iri-lint could not analyse this file: {refused}"
        return
    # the collector paused while the file is checked: what a check allocates it frees by refcounting, so the
    # young and full passes that its allocations set off walked flake8's objects for nothing (about 10% of
    # the plugin's cost on run.py --quick's files, counted by gc.callbacks: 222 of 2,219 passes fewer)
    enabled = gc.isenabled()
    gc.disable()
    try:
        if marked:  # flake8 checks the files of one project after another: hold the modules of one at a time
            run.project.keep_root(filename)
        found = [] if not marked else list(lint_tree(tree, lines, run.config, path=filename,
                                                     text_codes=run.text_codes, marked=marked, project=run.project,
                                                     values_only=values_only))
        unused = unused_noqa(text, [(f.line, f.code) for f in found], run.config.codes_for(filename))
    except RecursionError:
        found, unused = [], []
        problem = "IRI100 iri-lint could not analyse this file: nesting too deep"
    except Exception as exc:  # never crash flake8 for the whole project
        found, unused = [], []
        problem = f"IRI100 iri-lint could not analyse this file: {type(exc).__name__}: {exc}"
    else:
        problem = ""
    finally:
        if enabled:
            gc.enable()
    if problem:
        yield 1, 0, problem
        return
    for f in found:
        yield f.line, f.col, f"{f.code} {f.finding.message}"
    for p in unused:
        yield p.start.line, p.start.col, f"{p.finding.code} {p.finding.message}"


def _refused_bytes(text: str, filename: str) -> str:
    """Why Python refuses the file's bytes, when flake8 read them as latin-1 after they failed its encoding
    (PEP 3120, 263): as ``iri-lint check`` says, not findings in a text Python never reads. Only a text whose
    characters all fit in latin-1 can be that fallback's: its file is read again (rare), no other."""
    if text.isascii() or not os.path.isfile(filename):
        return ""
    try:
        text.encode("latin-1")  # (C speed: a character past U+00FF was decoded, not read as latin-1)
    except UnicodeEncodeError:
        return ""
    try:
        with open(filename, "rb") as f:
            decode_source(f.read())
    except SourceError as exc:
        return str(exc)
    except OSError:
        return ""
    return ""
