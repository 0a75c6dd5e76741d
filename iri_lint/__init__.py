"""iri-lint: find URIs and IRIs in Python source and check them against RFC 3987."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core.lazy import lazy_exports

__version__ = "0.1.0"

# The API, each name imported from its module when first read: Python runs this file before any
# module of the package, and the flake8 plugin must not pay for the engine on a file without IRIs
# (docs/design.md, "Lazy boundaries"; tests/test_layers.py checks the table against the imports below).
if TYPE_CHECKING:
    from .core.errors import IRISyntaxError
    from .core.grammar import Profile
    from .core.mapping import IDNAError, MappingError, to_iri, to_uri
    from .core.normalize import Normalization, Step, equivalent, normalize, normalize_trace
    from .core.reference import IRIReference
    from .core.resolve import remove_dot_segments, resolve
    from .core.scanner import is_valid, parse, scan, validate
    from .rules.engine import apply_fixes, check
    from .rules.model import Finding, Fix, UseContext
else:
    __getattr__, __dir__ = lazy_exports(__name__, {
        ".core.errors": "IRISyntaxError",
        ".core.grammar": "Profile",
        ".core.mapping": "IDNAError MappingError to_iri to_uri",
        ".core.normalize": "Normalization Step equivalent normalize normalize_trace",
        ".core.reference": "IRIReference",
        ".core.resolve": "remove_dot_segments resolve",
        ".core.scanner": "is_valid parse scan validate",
        ".rules.engine": "apply_fixes check",
        ".rules.model": "Finding Fix UseContext",
    })

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
