"""iri-lint: find URIs and IRIs in Python source and check them against RFC 3987."""

from __future__ import annotations

from .core.errors import IRISyntaxError
from .core.grammar import Profile
from .core.mapping import IDNAError, MappingError, to_iri, to_uri
from .core.normalize import Normalization, Step, equivalent, normalize, normalize_trace
from .core.reference import IRIReference
from .core.resolve import remove_dot_segments, resolve
from .core.scanner import is_valid, parse, scan, validate
from .rules.engine import apply_fixes, check
from .rules.model import Finding, Fix, UseContext

__version__ = "0.1.0"
__all__ = [
    "Finding",
    "Fix",
    "IDNAError",
    "IRIReference",
    "IRISyntaxError",
    "MappingError",
    "Normalization",
    "Profile",
    "Step",
    "UseContext",
    "__version__",
    "apply_fixes",
    "check",
    "equivalent",
    "is_valid",
    "normalize",
    "normalize_trace",
    "parse",
    "remove_dot_segments",
    "resolve",
    "scan",
    "to_iri",
    "to_uri",
    "validate",
]
