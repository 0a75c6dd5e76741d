"""IRI720 text-iri-bidi: An IRI in a docstring or prose has a bidi problem (an IRI2xx finding)."""

from __future__ import annotations

from ..model import Example, Family
from .shared import text_rule

RULE = text_rule(
    code="IRI720",
    name="text-iri-bidi",
    of=Family.BIDI,
    summary="An IRI in a docstring or prose has a bidi problem (an IRI2xx finding)",
    such_as="a bidi control (IRI201) or a mixed-direction component (IRI204)",
    valid=Example("Docs: https://example.com/abc."),
    invalid=Example("Docs: https://example.com/\u202eabc."),
)
