"""What a name of the project may hold besides text: a module, a class, a method's receiver (issue #27).

``evaluate`` makes them; ``helpers`` reads a class's bases through them. Each refers to the state of the
module that defines it (``evaluate.ModuleState``), which reads its names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from iri_lint.source.bindings import Scope

if TYPE_CHECKING:
    from iri_lint.source.evaluate import ModuleState

__all__ = ["ClassRef", "Instance", "ModuleRef"]


class ModuleRef(NamedTuple):
    """A module of the project (``import settings``)."""

    name: str | None  # its dotted name, when imported by one
    path: str


class ClassRef(NamedTuple):
    """A class defined in a module of the project."""

    scope: Scope
    state: ModuleState


class Instance(NamedTuple):
    """``self`` (or ``cls``) inside a method of a class of the project; or an object that calling the class
    made (``api = Api()``), whose class is that one exactly: ``made`` is the state of the module calling it."""

    scope: Scope  # the class
    state: ModuleState
    made: ModuleState | None = None
    fresh: bool = False  # made where it is used (``Api().url(...)``): nothing can have bound its attributes
