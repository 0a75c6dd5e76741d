"""IRI760 text-iri-scheme: An IRI in a docstring or prose breaks its scheme's rules (an IRI6xx finding)."""

from __future__ import annotations

from ..model import Example, Family
from .shared import text_rule

RULE = text_rule(
    code="IRI760",
    name="text-iri-scheme",
    of=Family.SCHEME,
    summary="An IRI in a docstring or prose breaks its scheme's rules (an IRI6xx finding)",
    such_as="a misspelled scheme (IRI603) or a missing host (IRI601)",
    valid=Example("Mirror: https://example.com/files, see also mailto:ops@example.com."),
    invalid=Example("Mirror: htps://example.com/files, see also mailto:ops@example.com."),
)
