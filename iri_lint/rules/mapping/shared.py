"""What the mapping rules share: the one pass over the IRI's escaped octets (``Facts.octets``)."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from .octets import OctetProblem


def octet_problems_of(facts: Facts, kind: str) -> Iterator[OctetProblem]:
    """The escaped-octet problems of ``kind``; those counted but not built are passed on to the report."""
    found = facts.octets
    facts.skip(found.skipped.get(kind, 0))
    return (p for p in found.problems if p.kind == kind)
