"""The IRI engine: pure Python + idna + Unicode data. Never imports libcst or flake8.

Importing it is cheap: every regex is compiled, every table built, and every name below imported,
on first use (``core.lazy``). ``normalize`` and ``resolve`` are the modules here (the functions are
``iri_lint.normalize`` and ``iri_lint.resolve``): a name shared with a module would change meaning
once that module is imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:
    from .errors import IRISyntaxError
    from .grammar import Profile
    from .mapping import IDNAError, MappingError, to_iri, to_uri
    from .normalize import Normalization, Step, StepEdit, equivalent, normalize_trace
    from .reference import HostKind, IRIReference, Span
    from .resolve import remove_dot_segments
    from .scanner import is_valid, parse, scan, validate
else:
    __getattr__, __dir__ = lazy_exports(__name__, {
        ".errors": "IRISyntaxError",
        ".grammar": "Profile",
        ".mapping": "IDNAError MappingError to_iri to_uri",
        ".normalize": "StepEdit Normalization Step equivalent normalize_trace",
        ".reference": "HostKind IRIReference Span",
        ".resolve": "remove_dot_segments",
        ".scanner": "is_valid parse scan validate",
    })

__all__ = [
    "HostKind",
    "IDNAError",
    "IRIReference",
    "IRISyntaxError",
    "MappingError",
    "Normalization",
    "Profile",
    "Span",
    "Step",
    "StepEdit",
    "equivalent",
    "is_valid",
    "normalize_trace",
    "parse",
    "remove_dot_segments",
    "scan",
    "to_iri",
    "to_uri",
    "validate",
]
