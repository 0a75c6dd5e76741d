"""How a program uses an IRI (RFC 3987 sec. 5.1): the context that decides which comparison is safe."""

from __future__ import annotations

import enum


class UseContext(enum.StrEnum):
    """How the program uses the literal (RFC 3987 sec. 5.1): decides fix safety.

    ``dereferenced``: fetched or linked to, so equivalent forms name the same resource;
    ``identifier``: compared as a string (namespaces, ``==``), so any change is a different IRI.
    """

    DEREFERENCED = "dereferenced"
    IDENTIFIER = "identifier"
    UNKNOWN = "unknown"
