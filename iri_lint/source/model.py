"""What the source layer hands to the engine: one string literal, its value and where each character came from."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from iri_lint.core.context import UriOnly
from iri_lint.core.context import UseContext as UseContext  # re-exported: how the literal is used

if TYPE_CHECKING:
    from iri_lint.source.locate import Locator


class Reason(enum.Enum):
    """Why the literal is a candidate IRI (docs/design.md "Which literals are IRIs")."""

    ABSOLUTE = "absolute"  # whole literal is scheme://... or a registered scheme:...
    URL_API = "url-api"  # argument of a known URL-taking API
    URL_NAME = "url-name"  # keyword argument / assignment target named like url/uri/href
    NOQA_COMMENT = "noqa-comment"  # not an IRI: a noqa comment that rule IRI901 reports (unused_noqa)


class SourcePos(NamedTuple):
    """1-based line, 0-based column in code points (flake8 convention)."""

    line: int
    col: int


class Spelled(NamedTuple):
    """Where another module spells the character of a finding placed at the name bringing it in (docs/design.md,
    "Another module's pieces"): the file (absolute), 1-based line, 0-based code point column, and the line's
    text before that column when it is not ASCII (else empty): a report counts its columns in UTF-16 or UTF-8
    code units from it. That text is never printed (it may hold a password spelled earlier on the line)."""

    path: str
    line: int
    col: int
    before: str = ""


@dataclass(slots=True)
class Literal:
    """A candidate IRI literal found in Python source.

    ``value`` is the run-time string, except that every template placeholder is replaced by
    ``HOLE`` characters; ``holes`` lists those spans (value code point offsets). Findings that
    touch a hole are dropped by the engine: a placeholder stands for valid content.
    """

    value: str
    reason: Reason
    context: UseContext
    kind: str  # "IRI" (absolute only) or "IRI-reference" (URL contexts check relative refs too)
    start: SourcePos  # where the literal's first token starts
    end: SourcePos  # where its last token ends
    holes: tuple[tuple[int, int], ...] = ()
    api: str | None = None  # qualified name of the URL API it is passed to, if any
    uri_only_api: UriOnly | bool = False  # that API takes only URIs (urlopen, http.client): IRI4xx mapping
    idna2008_api: bool = False  # that API encodes hosts with IDNA2008 (requests, httpx): IRI403's versions
    # value offset -> source position; offset len(value) maps to just after the last character
    position_of: Callable[[int], SourcePos] | None = field(default=None, repr=False)
    # value offsets whose source text is an escape sequence (so a fix there rewrites the escape)
    is_fstring: bool = False
    # lazy source mapping behind position_of; also gives absolute file offsets for fixes
    locator: Locator | None = field(default=None, repr=False, compare=False)
    # a value assembled from pieces (no locator): its template placeholders as written, by value offset
    placeholders: tuple[tuple[int, str], ...] = field(default=(), repr=False, compare=False)


HOLE = "0"  # stands for a placeholder: valid in scheme (not first), userinfo, host, port, path, query, fragment
