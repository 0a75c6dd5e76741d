"""The IRI engine: pure Python + idna + Unicode data. Never imports libcst or flake8."""

from .errors import IRISyntaxError
from .mapping import IDNAError, MappingError, to_iri, to_uri
from .normalize import Edit, Normalization, Step, equivalent, normalize, normalize_trace
from .parse import HostKind, IRIReference, Profile, Span, is_valid, parse, scan, validate
from .resolve import remove_dot_segments, resolve

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
