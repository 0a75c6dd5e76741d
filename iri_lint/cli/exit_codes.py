"""The exit codes of ``iri-lint``: 0 nothing to report, 1 findings (or files that could not be checked),
2 usage, configuration or internal error."""

from __future__ import annotations

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
