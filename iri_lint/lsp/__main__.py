"""``python -m iri_lint.lsp``: run the language server."""

from iri_lint.lsp import serve

raise SystemExit(serve())
