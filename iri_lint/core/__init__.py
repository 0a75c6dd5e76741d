"""The IRI engine: pure Python + idna + Unicode data. Never imports libcst or flake8.

Importing it is cheap: every regex is compiled, and every table built, on first use.
"""

from __future__ import annotations

from .errors import IRISyntaxError
from .grammar import Profile
from .mapping import IDNAError, MappingError, to_iri, to_uri
from .normalize import Edit, Normalization, Step, equivalent, normalize, normalize_trace
from .reference import HostKind, IRIReference, Span
from .resolve import remove_dot_segments, resolve
from .scanner import is_valid, parse, scan, validate

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
