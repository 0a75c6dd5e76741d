"""The report formats' names: the command line's choices, apart from the reporters that write them
(``iri-lint`` builds its parser before it knows which subcommand runs, docs/design.md "Lazy boundaries")."""

from __future__ import annotations

# ruff's names (`ruff check --output-format`), and the audit page
FORMATS = ("text", "concise", "full", "json", "json-lines", "junit", "sarif", "github", "gitlab", "pylint",
           "html")
TEXT_FORMATS = ("text", "concise", "full")  # the summary line and --statistics go with these
INVENTORY_FORMATS = ("text", "json", "csv")  # iri-lint inventory's
