"""flake8 adapter: flake8's tree and lines -> the shared pipeline -> (line, col, "IRIxxx message", type)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any, ClassVar

from . import __version__
from .config import DEFAULT_TEST_FILES, DEFAULT_URL_NAMES, Config
from .lint import lint_tree
from .rules.engine import TEXT_CODES, named_codes, select_codes


def _csv(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.replace("\n", ",").split(",")
    return tuple(v.strip() for v in value if v and v.strip())


class Plugin:
    """The ``IRI`` flake8 extension."""

    name = "iri-lint"
    version = __version__
    config: ClassVar[Config] = Config()
    text_codes: ClassVar[frozenset[str] | None] = None  # underlying rules run on IRIs in prose

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
        select = _csv(getattr(options, "select", None))
        extend = _csv(getattr(options, "extend_select", None))
        if options.iri_text_mode and not any(s.upper().startswith("IRI7") for s in extend):
            extend = (*extend, "IRI7")
            options.extend_select = list(extend)
        # opt-in rules run only when select/extend-select names them (flake8-bugbear's B9 gating):
        # flake8's default-ignore list is no opt-in mechanism, since any `ignore =` replaces it
        named = named_codes((*select, *extend))
        text_mode = any(code in TEXT_CODES for code in named)  # the text codes are all opt-in
        cls.config = Config(
            # the default set and what the user names; flake8 applies --select/--ignore/noqa on top
            extend_select=tuple(sorted(named)),
            profile=options.iri_profile,
            url_names=_csv(options.iri_url_names) or DEFAULT_URL_NAMES,
            extra_url_apis=_csv(options.iri_extra_url_apis),
            include_bytes=bool(options.iri_include_bytes),
            test_files=_csv(options.iri_test_files),
            test_files_security_only=bool(options.iri_test_files_security_only),
        )
        # in prose, only the underlying rules the user enabled run (flake8's own selection, IRI codes)
        ignore = (*_csv(getattr(options, "ignore", None)), *_csv(getattr(options, "extend_ignore", None)))
        cls.text_codes = select_codes(select or None, [i for i in ignore if i.upper().startswith("IRI")],
                                      extend) if text_mode else None

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
        """(line, column, "IRIxxx message"); a literal that breaks the engine is reported, never raised."""
        try:
            found = list(lint_tree(self.tree, self.lines, self.config, path=self.filename,
                                   text_codes=self.text_codes))
        except RecursionError:
            yield 1, 0, "IRI100 iri-lint could not analyse this file: nesting too deep"
            return
        except Exception as exc:  # never crash flake8 for the whole project
            yield 1, 0, f"IRI100 iri-lint could not analyse this file: {type(exc).__name__}: {exc}"
            return
        for f in found:
            yield f.line, f.col, f"{f.code} {f.finding.message}"


def report_deferred(logical_line: str) -> list[tuple[tuple[int, int], str]]:
    """flake8 logical-line check: at a file's first logical line, the findings ``Plugin.run`` found.

    A (line, column) pair as the offset is flake8's way for a logical-line check to report anywhere.
    It asks flake8 for no other parameter: flake8 calls it on every logical line of every file.
    """
    found, Plugin.pending = Plugin.pending, []
    return found
