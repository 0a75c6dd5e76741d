"""What the bidi rules share: the one pass over the IRI for sec. 4.1 and 4.2 (``Facts.bidi``)."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.bidi import BidiProblem, display_head, encode_component
from ...core.mapping import has_idna_form
from ..facts import Facts
from ..model import Edit


def problems(facts: Facts, kind: str) -> Iterator[BidiProblem]:
    """The bidi problems of ``kind``; those counted but not built are passed on to the report."""
    found = facts.bidi
    facts.skip(found.skipped.get(kind, 0))
    return (p for p in found.problems if p.kind == kind)


def displayed(facts: Facts, p: BidiProblem) -> str:
    """How the IRI displays, as a message shows it: with a template's holes as ``…``, not as the ``0`` they are
    checked as, whose digit the bidi algorithm would place beside right-to-left text (fixtures241)."""
    return display_head(facts.shown) if facts.holes else p.display


def encoding_fix(facts: Facts, p: BidiProblem) -> tuple[tuple[Edit, ...] | None, str]:
    """The fix of sec. 4.2 for a problem's component, and the advice: percent-encode the whole component; none in
    a host, whose percent-encoded name no resolver reads (RFC 3986 sec. 3.2.2: a DNS name is written in IDNA)."""
    host = facts.ref.host
    if host is not None and host.start <= p.component.start and p.component.end <= host.end:
        if has_idna_form(facts.ref.text[p.component.start : p.component.end]):
            return None, "write the host in its IDNA form (xn--...) or use a left-to-right name"
        return None, "use a name of one direction (it has no IDNA form: RFC 5893's Bidi Rule refuses it)"
    return (Edit(*encode_component(facts.ref, p.component)),), f"percent-encode the whole {p.part}"
