"""The IRI engine: pure Python + idna + Unicode data. Never imports libcst or flake8."""

from .errors import IRISyntaxError
from .mapping import IDNAError, MappingError, to_iri, to_uri
from .parse import HostKind, IRIReference, Profile, Span, is_valid, parse, scan, validate
from .resolve import remove_dot_segments, resolve

__all__ = ["HostKind", "IDNAError", "IRIReference", "IRISyntaxError", "MappingError", "Profile",
           "Span", "is_valid", "parse", "remove_dot_segments", "resolve", "scan", "to_iri",
           "to_uri", "validate"]
