"""``python -m iri_lint.cli``: the same as the ``iri-lint`` script."""

import sys

from . import main

sys.exit(main())
