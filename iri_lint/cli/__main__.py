"""``python -m iri_lint.cli``: the CLI, as the ``iri-lint`` script runs it (``iri-lint server``, the language
server's, is ``python -m iri_lint server`` or ``python -m iri_lint.lsp``)."""

import sys

from . import main

sys.exit(main())
