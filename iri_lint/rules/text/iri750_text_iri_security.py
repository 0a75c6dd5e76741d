"""IRI750 text-iri-security: An IRI in a docstring or prose is deceptive (an IRI5xx finding)."""

from __future__ import annotations

from ..model import Example, Family
from .shared import text_rule

RULE = text_rule(
    code="IRI750",
    name="text-iri-security",
    of=Family.SECURITY,
    summary="An IRI in a docstring or prose is deceptive (an IRI5xx finding)",
    such_as="a host confusable with an ASCII one (IRI502)",
    valid=Example('Log in at "https://paypal.com/".'),
    invalid=Example('Log in at "https://pаypal.com/".'),
)
