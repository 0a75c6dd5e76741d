"""The IRI engine: pure Python + idna + Unicode data. Never imports libcst or flake8."""

from .errors import IRISyntaxError
from .parse import HostKind, IRIReference, Profile, Span, is_valid, parse, scan, validate

__all__ = ["HostKind", "IRIReference", "IRISyntaxError", "Profile", "Span", "is_valid", "parse",
           "scan", "validate"]
