"""iri-lint: find URIs and IRIs in Python source and check them against RFC 3987.

The public API is imported lazily (PEP 562), so that ``iri-lint`` and the flake8 plugin start fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_API = {
    "IDNAError": ".core.mapping",
    "MappingError": ".core.mapping",
    "to_iri": ".core.mapping",
    "to_uri": ".core.mapping",
    "IRIReference": ".core.reference",
    "Profile": ".core.grammar",
    "is_valid": ".core.scanner",
    "parse": ".core.scanner",
    "scan": ".core.scanner",
    "validate": ".core.scanner",
    "IRISyntaxError": ".core.errors",
    "Normalization": ".core.normalize",
    "Step": ".core.normalize",
    "equivalent": ".core.normalize",
    "normalize": ".core.normalize",
    "normalize_trace": ".core.normalize",
    "resolve": ".core.resolve",
    "remove_dot_segments": ".core.resolve",
    "check": ".rules.engine",
    "apply_fixes": ".rules.engine",
    "Finding": ".rules.model",
    "Fix": ".rules.model",
    "UseContext": ".rules.model",
}

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


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'iri_lint' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
