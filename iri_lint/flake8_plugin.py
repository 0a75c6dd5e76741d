"""flake8 adapter: flake8's tree and lines -> the shared pipeline -> (line, col, "IRIxxx message", type)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any, ClassVar

from . import __version__
from .config import DEFAULT_URL_NAMES, Config
from .rules.catalog import RULES


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

    def __init__(self, tree: ast.AST, lines: list[str], filename: str = "-") -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, manager: Any) -> None:
        """Register ``--iri-*`` options (also read from flake8's config) and keep opt-in rules quiet."""
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
        manager.extend_default_ignore([r.code for r in RULES if not r.default])

    @classmethod
    def parse_options(cls, options: Any) -> None:
        """Runs in every process (flake8 re-parses options in --jobs workers), so no parent state."""
        cls.config = Config(
            select=tuple(r.code for r in RULES),  # flake8 itself applies --select/--ignore/noqa
            profile=options.iri_profile,
            url_names=_csv(options.iri_url_names) or DEFAULT_URL_NAMES,
            extra_url_apis=_csv(options.iri_extra_url_apis),
            text_mode=bool(options.iri_text_mode),
            include_bytes=bool(options.iri_include_bytes),
        )

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        """Yield flake8 results; a literal that breaks the engine is reported, never raised."""
        from .lint import lint_tree

        try:
            found = list(lint_tree(self.tree, self.lines, self.config, path=self.filename))
        except RecursionError:
            yield 1, 0, "IRI100 iri-lint could not analyse this file: nesting too deep", type(self)
            return
        except Exception as exc:  # never crash flake8 for the whole project
            yield 1, 0, f"IRI100 iri-lint could not analyse this file: {type(exc).__name__}: {exc}", type(self)
            return
        for f in found:
            yield f.line, f.col, f"{f.code} {f.finding.message}", type(self)
