"""The iri-lint language server (``iri-lint server``; needs the ``lsp`` extra: pygls, lsprotocol)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def serve(argv: Sequence[str] | None = None) -> int:
    """Run the server with ``argv`` (its own options); a clear message if the extra is missing."""
    try:
        from .server import main
    except ImportError as exc:
        print(f"iri-lint server needs the lsp extra ({exc.name} is missing): pip install 'iri-lint[lsp]'",
              file=sys.stderr)
        return 2
    return main(argv)
