"""Hover text for an IRI literal: what ``iri-lint inspect`` shows, briefly."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from iri_lint.config import Config
from iri_lint.core.bidi import display_order, visible
from iri_lint.core.mapping import uri_edits
from iri_lint.core.normalize import normalize
from iri_lint.core.scanner import scan
from iri_lint.lint import SourceFinding, parse_source, scan_options
from iri_lint.source.literals import find_literals
from iri_lint.source.locate import split_lines
from iri_lint.source.model import Literal

from ..rules.model import rule_url
from .incremental import StatementView


def file_literals(text: str, config: Config, path: str | None = None, file: str | None = None) -> list[Literal]:
    """Every candidate IRI literal of a module, as the linter finds them (raises SourceError if unparsable);
    ``file``: where it is, when ``path`` (what per-file settings match) is not that."""
    tree = parse_source(text)
    return list(find_literals(tree, split_lines(text), options=scan_options(config, config.codes_for(path)),
                              file=file or path))


def literal_at(text: str, offset: int, config: Config) -> Literal | None:
    """The candidate IRI literal whose source span holds ``offset`` (raises SourceError if unparsable)."""
    return StatementView(text, 0, 0, file_literals(text, config), [], []).literal_at(offset)


def _code(text: str) -> str:
    """Markdown inline code for any text (backticks and invisible characters made safe)."""
    shown = visible(text)
    fence = "``" if "`" in shown else "`"
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def uri_form(value: str) -> str:
    """The URI to send for ``value`` (sec. 3.1): what rule IRI404 suggests, disallowed ASCII encoded too."""
    out, pos = [], 0
    for start, end, new in uri_edits(scan(value), encode_ascii="encode"):
        out += [value[pos:start], new]
        pos = end
    out.append(value[pos:])
    return "".join(out)


def _has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def _try(fn: Callable[..., str], value: str, **kwargs: object) -> str | None:
    try:
        return fn(value, **kwargs)
    except Exception as exc:  # the core raises MappingError, IRISyntaxError, IDNAError...
        return f"(none: {exc})"


def hover_markdown(lit: Literal, findings: Sequence[SourceFinding] = ()) -> str:
    """Markdown for a hover: the literal's value, URI form, normal form, displayed order, findings."""
    value = lit.value
    rows: list[str] = []
    if lit.holes:  # template: placeholders stand for valid content, derived forms would mislead
        parts, pos = [], 0
        for a, b in lit.holes:
            parts.append(value[pos:a])
            parts.append("…")
            pos = b
        parts.append(value[pos:])
        rows.append(f"**IRI template** {_code(''.join(parts))}")
    else:
        rows.append(f"**IRI** {_code(value)}")
        uri = _try(uri_form, value)
        if uri is not None and uri != value:
            rows.append(f"URI form (RFC 3987 sec. 3.1): {_code(uri)}")
        norm = _try(normalize, value)
        if norm is not None and norm != value:
            rows.append(f"Normalized (sec. 5.3.2): {_code(norm)}")
        if _has_rtl(value):
            shown = _try(display_order, value)
            if shown is not None:
                rows.append(f"Displayed as (sec. 4.1): {_code(shown)}")
    context = lit.context.value + (f" by `{lit.api}`" if lit.api else "")
    rows.append(f"Used as: {context}")
    for sf in findings:
        f = sf.finding
        rows.append(f"[{f.code}]({rule_url(f.code)}) {f.name}: {f.message}")
    return "\n\n".join(rows)
