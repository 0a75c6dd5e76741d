"""flake8 adapter: flake8's tree and lines -> the shared pipeline -> (line, col, "IRIxxx message", type).

flake8 imports every installed plugin at the start of every run, whatever files it checks. So this
module imports only what registering the options and the text pre-check need (``source.marks``: does
the file hold ``://``, a quoted registered scheme, a URL name or a URL API?); the engine
(``flake8_engine``: the configuration, the pipeline, the rules) is imported when a run first meets a
file holding such text (docs/design.md, "Lazy boundaries" (a)). Most files hold none. A run that flake8
checks in forked workers imports it before the fork instead, once for all of them.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from . import __version__
from .options import DEFAULT_TEST_FILES, DEFAULT_URL_NAMES, comma_list
from .source.marks import ScanOptions, api_call_lines_of, marked_lines_of

UNUSED_NOQA = "IRI901"  # (rules.noqa.iri901_unused_noqa: its module is the engine's, not imported here)

if TYPE_CHECKING:
    from .flake8_engine import Flake8Settings


class Plugin:
    """The ``IRI`` flake8 extension."""

    name = "iri-lint"
    version = __version__
    options: ClassVar[Any] = None  # flake8's options in this process (None: the defaults)
    scan_options: ClassVar[ScanOptions] = ScanOptions()  # what the pre-check looks for
    settings: ClassVar[Flake8Settings | None] = None  # built from ``options`` by the engine, when a file needs it
    noqa_rule: ClassVar[bool] = False  # rule IRI901 (opt-in) is selected: a noqa comment needs the engine too

    def __init__(self, tree: ast.AST, lines: list[str], filename: str = "-") -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, manager: Any) -> None:
        """Register ``--iri-*`` options (also read from flake8's config)."""
        manager.add_option("--iri-profile", default="iri", parse_from_config=True,
                           choices=["uri", "iri", "iri-3987bis", "leiri", "web-address"],
                           help="Grammar IRI literals are checked against (default: iri).")
        manager.add_option("--iri-url-names", default=",".join(DEFAULT_URL_NAMES), parse_from_config=True,
                           comma_separated_list=True,
                           help="Name suffixes that mark a URL context (default: url,uri,href).")
        manager.add_option("--iri-extra-url-apis", default="", parse_from_config=True,
                           comma_separated_list=True,
                           help="More functions taking a URL as first argument, e.g. mylib.fetch.")
        manager.add_option("--iri-text-mode", default=False, action="store_true", parse_from_config=True,
                           help="Also find IRIs inside docstrings and prose (opt-in).")
        manager.add_option("--iri-include-bytes", default=False, action="store_true",
                           parse_from_config=True, help="Also check bytes literals.")
        manager.add_option("--iri-test-files", default=",".join(DEFAULT_TEST_FILES), parse_from_config=True,
                           comma_separated_list=True,
                           help="Globs of test files, where IRI506 (a password in an IRI) is not reported.")
        manager.add_option("--iri-test-files-security-only", default=False, action="store_true",
                           parse_from_config=True,
                           help="In test files, report only the bidi (IRI2) and security (IRI5) rules.")

    @classmethod
    def parse_options(cls, options: Any) -> None:
        """Runs in every process (flake8 re-parses options in --jobs workers), so no parent state.

        Text mode (RFC 3987 sec. 7.3) runs when ``--iri-text-mode`` is given (which also adds
        ``IRI7`` to flake8's extend-select, before flake8 builds its decision engine) or when the
        user's ``--select``/``--extend-select`` names an IRI7 code: the plugin cannot see flake8's
        decision, and extracting IRIs from every docstring costs time, so it never guesses.
        """
        extend = comma_list(getattr(options, "extend_select", None))
        if options.iri_text_mode and not any(s.upper().startswith("IRI7") for s in extend):
            options.extend_select = [*extend, "IRI7"]
        cls.options = options
        named = [c.upper() for c in (*comma_list(getattr(options, "select", None)), *comma_list(options.extend_select))]
        cls.noqa_rule = any(c == "ALL" or (len(c) > len("IRI") and UNUSED_NOQA.startswith(c)) for c in named)
        cls.scan_options = ScanOptions(url_names=comma_list(options.iri_url_names) or DEFAULT_URL_NAMES,
                                       extra_url_apis=comma_list(options.iri_extra_url_apis))
        cls.settings = None
        if _forks_workers(options):
            # flake8 forks its workers from this process next (``flake8.checker``'s ``_mp_prefork``): each
            # would import the engine at its first file with a candidate, and the rules' modules and regexes
            # at its first literal; done here once, the workers start with them (docs/design.md, (a))
            from . import flake8_engine

            cls.settings = flake8_engine.settings(options, cls.scan_options)
            flake8_engine.prepare(cls.settings)

    # The file's findings, waiting for its first logical line (see ``run``).
    pending: ClassVar[list[tuple[tuple[int, int], str]]] = []

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        """Find the file's findings, but leave reporting them to ``report_deferred``.

        flake8 tokenizes the whole file and keeps its tokens (to look up ``noqa``) at the first
        report from any check, and a tree check runs while flake8 still holds the tree: on a
        7,000-line file the two together cost 8 MiB at peak. Reported from the token pass that
        follows, our findings meet the tokens after the tree is gone, as pycodestyle's do.
        flake8 checks one file at a time in a process, so whatever waits here is this file's (what
        was left belonged to a file flake8 could not tokenize, and reported as E902).
        """
        Plugin.pending = [((line, col), text) for line, col, text in self._results()]
        return iter(())

    def _results(self) -> Iterator[tuple[int, int, str]]:
        """(line, column, "IRIxxx message"); nothing, and no engine, for a file whose text cannot hold a candidate."""
        marked = marked_lines_of(self.lines, self.scan_options)
        values_only = not marked
        if values_only:  # (a URL API's call may use another module's client or URL: see lint.lint_text)
            marked = api_call_lines_of(self.lines, self.scan_options)
        if not marked and not (self.noqa_rule and any("noqa" in line.lower() for line in self.lines)):
            return iter(())
        from . import flake8_engine  # lazy boundary (a): the engine, at the first file of a run that needs it

        if Plugin.settings is None:
            Plugin.settings = flake8_engine.settings(self.options, self.scan_options)
        return flake8_engine.findings(self.tree, self.lines, self.filename, Plugin.settings, marked, values_only)


def _forks_workers(options: Any) -> bool:
    """Whether flake8 will check the run's files in worker processes forked from this one, as
    ``flake8.checker.Manager`` decides: more than one job, no standard input, more than one file (a
    lone file path is checked in this process), and processes started by ``fork``."""
    import multiprocessing

    jobs = getattr(options, "jobs", None)
    paths = list(getattr(options, "filenames", None) or ["."])  # (flake8 checks "." when given none)
    if jobs is None or "-" in paths or (len(paths) == 1 and not os.path.isdir(paths[0])):
        return False
    try:
        count = multiprocessing.cpu_count() if jobs.is_auto else int(jobs.n_jobs)
    except (AttributeError, NotImplementedError, TypeError, ValueError):
        return False
    method = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
    return count > 1 and method == "fork"


def report_deferred(logical_line: str) -> Sequence[tuple[tuple[int, int], str]]:
    """flake8 logical-line check: at a file's first logical line, the findings ``Plugin.run`` found.

    A (line, column) pair as the offset is flake8's way for a logical-line check to report anywhere.
    It asks flake8 for no other parameter: flake8 calls it on every logical line of every file (so it
    allocates nothing when nothing waits).
    """
    found = Plugin.pending
    if not found:
        return ()
    Plugin.pending = []
    return found
