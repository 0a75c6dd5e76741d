"""``python -m iri_lint.lsp``: run the language server."""

from iri_lint.lsp.server import main

raise SystemExit(main())
