"""IRI604 unregistered-scheme: Scheme not in the IANA URI scheme registry."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.schemes import scheme_typos
from ...data.schemes import REGISTERED
from ..facts import Facts
from ..model import Example, Family, Raw, Rule, Severity

RULE = Rule(
    code="IRI604",
    name="unregistered-scheme",
    family=Family.SCHEME,
    summary="Scheme not in the IANA URI scheme registry",
    section="RFC 7595",
    severity=Severity.INFO,
    default=False,
    fix_level=None,
    what=("A scheme that is not in the IANA URI scheme registry (permanent, provisional or historical), in an "
          "IRI without syntax errors; a likely typo of a common scheme is IRI603's instead."),
    why=("Unregistered schemes are not interoperable. Opt-in: private schemes are legitimate in many "
         "applications."),
    fix_text="Use a registered scheme or register yours.",
    valid=(Example("https://example.com/"),),
    invalid=(Example("notascheme://example.com/"),),
)


def check(facts: Facts) -> Iterator[Raw]:
    """A scheme not in the IANA registry, in an IRI without errors (a likely typo is IRI603's)."""
    ref = facts.ref
    if ref.scheme is None or ref.scheme.end == 0 or ref.error_records:
        return
    scheme = ref.text[ref.scheme.start : ref.scheme.end]
    low = scheme.lower()
    if low not in REGISTERED and scheme.isascii() and scheme_typos().get(low) is None:
        yield Raw(ref.scheme.start, ref.scheme.end, f"scheme '{scheme}' is not in the IANA URI scheme registry")
