"""iri-lint: find URIs and IRIs in Python source and check them against RFC 3987."""

from .core import (
    IDNAError,
    IRIReference,
    IRISyntaxError,
    MappingError,
    Normalization,
    Profile,
    Step,
    equivalent,
    is_valid,
    normalize,
    normalize_trace,
    parse,
    resolve,
    scan,
    to_iri,
    to_uri,
    validate,
)

__version__ = "0.1.0"

__all__ = [
    "IDNAError",
    "IRIReference",
    "IRISyntaxError",
    "MappingError",
    "Normalization",
    "Profile",
    "Step",
    "__version__",
    "equivalent",
    "is_valid",
    "normalize",
    "normalize_trace",
    "parse",
    "resolve",
    "scan",
    "to_iri",
    "to_uri",
    "validate",
]
