"""iri-lint: find URIs and IRIs in Python source and check them against RFC 3987."""

from .core import IRIReference, IRISyntaxError, Profile, is_valid, parse, scan, validate

__version__ = "0.1.0"

__all__ = ["IRIReference", "IRISyntaxError", "Profile", "__version__", "is_valid", "parse", "scan",
           "validate"]
