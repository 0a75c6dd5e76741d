"""What the security rules share: the one pass over the IRI for spoofing risks and leaks
(``Facts.security``), and the mixed-script finding of IRI501 and IRI507."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.bidi import short_visible
from ...core.chars import char_label
from ...core.security import SecurityProblem
from ..facts import Facts
from ..model import Raw


def problems(facts: Facts, kind: str, key: str | None = None) -> Iterator[SecurityProblem]:
    """The security problems of ``kind``; those counted but not built (under budget ``key``, by
    default the kind) are passed on to the report."""
    found = facts.security
    facts.skip(found.skipped.get(key or kind, 0))
    return (p for p in found.problems if p.kind == kind)


def mixed_script(facts: Facts, *, in_host: bool, key: str) -> Iterator[Raw]:
    """UTS #39 sec. 5 (RFC 3987 sec. 7.5): each component mixing scripts, in the host or elsewhere."""
    text = facts.ref.text
    for p in problems(facts, "mixed-script", key):
        if facts.in_host(p.span) != in_host:
            continue
        comp = facts.shown[p.component.start : p.component.end]  # (a hole as "…", not the "0" checked)
        yield Raw(p.span.start, p.span.end,
                  f"{p.part} {short_visible(comp)!r} mixes the {' and '.join(p.scripts)} scripts at "
                  f"{char_label(text[p.span.start])}; characters from different scripts can look alike "
                  "(RFC 3987 sec. 7.5, UTS #39 sec. 5); use one script per component")
