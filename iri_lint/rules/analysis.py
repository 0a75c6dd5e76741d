"""The analysis protocol: what an analysis sees (``Ctx``), what it returns (``Raw``), and the one
table where analyses register the rule codes they can produce."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.context import UseContext
from ..core.reference import IRIReference
from .catalog import RULES_BY_CODE
from .model import Edit

MAX_PER_CODE = 100  # findings of one rule in one IRI; a hostile literal must not flood the report


class Raw(NamedTuple):
    """An analysis result before it becomes a Finding: code, span, message, optional value edits."""

    code: str
    start: int
    end: int
    message: str
    edits: tuple[Edit, ...] | None = None
    fix_text: str | None = None  # what these edits do, when not the rule's usual fix


@dataclass(frozen=True, slots=True)
class Ctx:
    """What an analysis may know besides the parsed IRI."""

    ref: IRIReference
    context: UseContext
    uri_only_api: bool
    enabled: frozenset[str]
    holes: tuple[tuple[int, int], ...] = ()
    # results of a code an analysis counted but did not build: past MAX_PER_CODE of that code in
    # position order, the engine would cut them anyway (not with holes, which may drop earlier ones)
    skipped: dict[str, int] = field(default_factory=dict)


Analysis = Callable[[Ctx], Iterable[Raw]]


_ANALYSES: list[tuple[frozenset[str], Analysis]] = []


def analysis(*codes: str) -> Callable[[Analysis], Analysis]:
    """Register an analysis with the codes it can produce; it runs only when one is enabled."""

    def deco(fn: Analysis) -> Analysis:
        unknown = set(codes) - set(RULES_BY_CODE)
        if unknown:
            raise ValueError(f"analysis {fn.__name__} names unknown codes {sorted(unknown)}")
        _ANALYSES.append((frozenset(codes), fn))
        return fn

    return deco


