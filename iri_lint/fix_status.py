"""What became of a finding's fix in a run: the ``status`` every report gives it.

Its own module, below ``fix``: a check that fixes nothing reports statuses too (``available``,
``unsafe``) without importing the fixing machinery.
"""

from __future__ import annotations

import enum


class FixStatus(enum.StrEnum):
    """A fix's status; the value is the word reports print."""

    APPLIED = "applied"  # made by this run
    AVAILABLE = "available"  # safe: ``--fix`` makes it
    UNSAFE = "unsafe"  # made only with ``--unsafe-fixes``
    REFUSED = "refused"  # not made, for the reason given beside it (not verified, not writable, ...)
