"""The analysis protocol: what an analysis sees (``Ctx``) and what it returns (``Raw``); the table of
analyses and the codes each produces is ``rules.checks.ANALYSES``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.context import UseContext
from ..core.reference import IRIReference
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
    # IRI403 on an xn-- label that IDNA2003 reads and IDNA2008 rejects (a live name such as xn--n3h.net):
    # off for an ASCII literal not used as an IRI, unless IRI403 is named (the invalid A-labels stay)
    idna_versions: bool = True
    # results of a code an analysis counted but did not build: past MAX_PER_CODE of that code in
    # position order, the engine would cut them anyway (not with holes, which may drop earlier ones)
    skipped: dict[str, int] = field(default_factory=dict)


Analysis = Callable[[Ctx], Iterable[Raw]]
