"""IRI710 text-iri-syntax: An IRI in a docstring or prose is not valid (an IRI1xx finding)."""

from __future__ import annotations

from ..model import Example, Family
from .shared import text_rule

RULE = text_rule(
    code="IRI710",
    name="text-iri-syntax",
    of=Family.SYNTAX,
    summary="An IRI in a docstring or prose is not valid (an IRI1xx finding)",
    such_as="a space (IRI101) or a bad `%` (IRI110)",
    valid=Example("See <https://example.com/a%20b> for details."),
    invalid=Example("<https://example.com/a b>"),
)
