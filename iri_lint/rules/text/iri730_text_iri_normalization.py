"""IRI730 text-iri-normalization: An IRI in a docstring or prose is not normalized (an IRI3xx finding)."""

from __future__ import annotations

from ..model import Example, Family, Severity
from .shared import text_rule

RULE = text_rule(
    code="IRI730",
    name="text-iri-normalization",
    of=Family.NORMALIZATION,
    summary="An IRI in a docstring or prose is not normalized (an IRI3xx finding)",
    such_as="a decomposed character (IRI301)",
    valid=Example("See https://example.com/café."),
    invalid=Example("See https://example.com/cafe\u0301."),
    severity=Severity.INFO,
)
