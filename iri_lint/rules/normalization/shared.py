"""What the ladder's rules do alike: one finding per change a normalization step makes (RFC 3987
sec. 5.3.2, 5.3.3), its output as the fix; and the Unicode normalization forms (sec. 5.3.2.2, 7.5)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from typing import Literal

from ...core.chars import char_label
from ...core.normalize import StepEdit
from ...core.reference import Span
from ..facts import Facts
from ..model import Edit, Raw


def step_changes(facts: Facts, step: str, message: str | Callable[[str, str], str],
                 keep: Callable[[str, str], bool] | None = None, *, at_first_change: bool = False) -> Iterator[Raw]:
    """A finding for each change the ladder's ``step`` makes (``message`` has holes ``{old}`` and
    ``{new}``, or is a function of the two), unless ``keep(old, new)`` says otherwise; ``at_first_change``:
    placed at the first character the change alters (a label's: the soft hyphen of ``shop\xad``)."""
    trace = facts.ladder
    if trace is None:
        return
    text = facts.ref.text
    for s in trace.steps:
        if s.name != step:
            continue
        for e in s.edits:
            start, end = e.source.start, e.source.end
            old = text[start:end]
            if facts.uri_only_api and not e.replacement.isascii():
                continue  # that API sends only ASCII: its form is the URI's, IRI404's rule (sec. 3.1)
            if keep is not None and not keep(old, e.replacement):
                continue
            at = start + shared_prefix(old, e.replacement) if at_first_change and end > start else start
            yield Raw(min(at, end - 1) if end > start else start, max(end, start + 1) if end > start else start,
                      message.format(old=old, new=e.replacement) if isinstance(message, str) else
                      message(old, e.replacement), (Edit(start, end, e.replacement),))


def whole_component(facts: Facts, step: str, component: str, message: str, suffix: str = "") -> Iterator[Raw]:
    """One finding for the case changes ``step`` makes in ``component`` (the scheme, the host),
    quoting all of it: ``message`` has holes ``{old}`` and ``{new}``, each followed by ``suffix``."""
    trace = facts.ladder
    span: Span | None = getattr(facts.ref, component)
    if trace is None or span is None:
        return
    text = facts.ref.text
    for s in trace.steps:
        if s.name != step or not s.edits:
            continue
        old = text[span.start : span.end]
        # only what was case in the text itself (not a letter an earlier step decoded from %41)
        changes = [e for e in s.edits if text[e.source.start : e.source.end].lower() == e.replacement]
        new = _apply_within(text, span, changes)
        if new != old:  # (at the first letter it changes: the 'E' of 'shop.Example.com')
            shown = facts.shown[span.start : span.end]  # (a hole quoted as '…', not as the '0' it is checked as)
            quoted = "".join(n if c != "\u2026" else c for c, n in zip(shown, new, strict=True)) \
                if len(new) == len(old) else new
            yield Raw(span.start + shared_prefix(old, new), span.end,
                      message.format(old=shown + suffix, new=quoted + suffix), (Edit(span.start, span.end, new),))


def shared_prefix(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` begin with alike."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _apply_within(text: str, span: Span, edits: list[StepEdit]) -> str:
    """``text[span]`` with the edits that fall inside it applied."""
    out, pos = [], span.start
    for src, rep in sorted((e.source, e.replacement) for e in edits):
        if span.start <= src.start and src.end <= span.end:
            out.append(text[pos : src.start])
            out.append(rep)
            pos = src.end
    out.append(text[pos : span.end])
    return "".join(out)


def unicode_form(facts: Facts, form: Literal["NFC", "NFKC"], section: str) -> Iterator[Raw]:
    """The first span that ``form`` changes, with its normal form as the fix."""
    text = facts.ref.text
    if text.isascii() or unicodedata.is_normalized(form, text):
        return
    normal = unicodedata.normalize(form, text)
    start = 0
    while start < min(len(text), len(normal)) and text[start] == normal[start]:
        start += 1
    end_t, end_n = len(text), len(normal)
    while end_t > start and end_n > start and text[end_t - 1] == normal[end_n - 1]:
        end_t -= 1
        end_n -= 1
    # widen to whole characters with their combining marks
    while start > 0 and unicodedata.combining(text[start]):
        start -= 1
    snippet = ", ".join(char_label(c) for c in text[start:end_t][:3])
    yield Raw(start, max(end_t, start + 1),
              f"not in {form} ({snippet}); {form} would write {normal[start:end_n]!r} ({section})",
              (Edit(start, end_t, normal[start:end_n]),))
