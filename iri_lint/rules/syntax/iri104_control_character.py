"""IRI104 control-character: Control character (C0, DEL, C1) in an IRI."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.chars import starts_header_line
from ...core.errors import Kind
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import Subject, SyntaxFix, report

RULE = Rule(
    code="IRI104",
    name="control-character",
    family=Family.SYNTAX,
    summary="Control character (C0, DEL, C1) in an IRI",
    section="RFC 3987 sec. 2.2; 3987bis sec. 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A C0 control (U+0000-001F, tab and newline included), DEL (U+007F) or C1 control (U+0080-009F) "
          "anywhere in the IRI; a run is one finding, and the fix removes it. Whitespace controls before or "
          "after the whole IRI are one finding. A CR or LF that a header line follows (`Name: value`) is "
          "header injection, and the message says so, with no fix (removing the line break would join the header "
          "into the URL; what was meant is for the author to say); what the header line holds (its spaces) is "
          "not reported again."),
    why=("RFC 3987 sec. 2.2 leaves this character out of the IRI grammar and 3987bis sec. 6.3 explains why: "
         "controls cannot be transmitted reliably as text, are silently dropped by some software and can "
         "manipulate how the IRI is displayed. Software that receives such a string may cut it, reject it, or "
         "map it differently."),
    fix_text="Remove the control character (a stray tab or newline is usually a typo).",
    valid=(Example("https://example.com/a"),),
    invalid=(Example("https://example.com/a\tb", "https://example.com/ab"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    if starts_header_line(err.text, err.rec.start):
        return (f"{err.label} in {err.component} starts a header line: header injection where the value reaches "
                "a request (CRLF injection, CWE-113); control characters are not allowed in IRIs (3987bis "
                "sec. 6.3): drop the header line, or encode the value that brought it")
    return (f"{err.label} in {err.component}: "
            "control characters are not allowed in IRIs (3987bis sec. 6.3); remove it")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of controls, removed by the fix; whitespace controls around the IRI, removed. Header injection has
    no fix: removing the line break would join the header into the URL (fixtures242)."""
    text = facts.ref.text
    for r in report(facts, Kind.CONTROL, message, SyntaxFix.REMOVE):
        injection = 0 < r.start and starts_header_line(text, r.start)  # (not whitespace before the IRI)
        yield r._replace(edits=None) if r.edits is not None and injection else r
