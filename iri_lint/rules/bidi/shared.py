"""What the bidi rules share: the one pass over the IRI for sec. 4.1 and 4.2 (``Facts.bidi``)."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.bidi import BidiProblem
from ..facts import Facts


def problems(facts: Facts, kind: str) -> Iterator[BidiProblem]:
    """The bidi problems of ``kind``; those counted but not built are passed on to the report."""
    found = facts.bidi
    facts.skip(found.skipped.get(kind, 0))
    return (p for p in found.problems if p.kind == kind)
