"""IRI740 text-iri-mapping: An IRI in a docstring or prose does not map to a URI (an IRI4xx finding)."""

from __future__ import annotations

from ..model import Example, Family
from .shared import text_rule

RULE = text_rule(
    code="IRI740",
    name="text-iri-mapping",
    of=Family.MAPPING,
    summary="An IRI in a docstring or prose does not map to a URI (an IRI4xx finding)",
    such_as="percent-encoded octets that are not UTF-8 (IRI401)",
    valid=Example("Page (https://example.com/caf%C3%A9)."),
    invalid=Example("Old page (https://example.com/caf%E9)."),
)
