"""The IRI engine: pure Python + idna + Unicode data. Never imports libcst or flake8.

Names are imported on first use (PEP 562): the linter's start-up pays only for what it runs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# eager: every user needs the scanner
from .errors import IRISyntaxError
from .grammar import Profile
from .reference import HostKind, IRIReference, Span
from .scanner import is_valid, parse, scan, validate

_API = {
    "IDNAError": ".mapping",
    "MappingError": ".mapping",
    "to_iri": ".mapping",
    "to_uri": ".mapping",
    "Edit": ".normalize",
    "Normalization": ".normalize",
    "Step": ".normalize",
    "equivalent": ".normalize",
    "normalize": ".normalize",
    "normalize_trace": ".normalize",
    "remove_dot_segments": ".resolve",
    "resolve": ".resolve",
}

__all__ = [
    "Edit",
    "HostKind",
    "IDNAError",
    "IRIReference",
    "IRISyntaxError",
    "MappingError",
    "Normalization",
    "Profile",
    "Span",
    "Step",
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
    from .mapping import IDNAError, MappingError, to_iri, to_uri
    from .normalize import Edit, Normalization, Step, equivalent, normalize, normalize_trace
    from .resolve import remove_dot_segments, resolve


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'iri_lint.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
