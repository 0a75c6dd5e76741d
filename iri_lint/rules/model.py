"""Rules as data, and the findings and fixes they produce."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..core.context import UriOnly
from ..core.context import UseContext as UseContext  # re-exported: part of the rules API

if TYPE_CHECKING:
    from .facts import Facts


class Severity(enum.StrEnum):
    """How bad a finding is; maps to flake8 / SARIF / LSP levels."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class FixLevel(enum.StrEnum):
    """The rung of the comparison ladder (RFC 3987 sec. 5.3) that proves a fix keeps the IRI's meaning."""

    SOURCE = "source"  # the value is unchanged: only its escaping in the source changes
    SYNTAX = "syntax"  # syntax-based normalization, sec. 5.3.2
    SCHEME = "scheme"  # scheme-based normalization, sec. 5.3.3
    URI = "uri"  # maps to the same URI, sec. 3.1
    NONE = "none"  # no rung proves it: the identifier changes


class FixSafety(enum.StrEnum):
    """Whether ``--fix`` applies the fix on its own (docs/design.md "Fix safety")."""

    SAFE = "safe"
    UNSAFE = "unsafe"


def fix_safety(level: FixLevel, context: UseContext) -> FixSafety:
    """Safe when nothing changes, or when a dereferenced IRI keeps its resource (docs/design.md)."""
    if level is FixLevel.SOURCE:
        return FixSafety.SAFE
    if level is not FixLevel.NONE and context is UseContext.DEREFERENCED:
        return FixSafety.SAFE
    return FixSafety.UNSAFE


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace value code points [start, end) with ``replacement``."""

    start: int
    end: int
    replacement: str


def with_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with non-overlapping edits applied (one pass: linear in its length)."""
    out, pos = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        out.append(text[pos : e.start])
        out.append(e.replacement)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Fix:
    """A proposed change to the literal's value, with the ladder level that proves it."""

    edits: tuple[Edit, ...]
    value: str  # the whole value after the edits
    level: FixLevel
    safety: FixSafety
    description: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in one IRI: value offsets [start, end)."""

    code: str
    name: str
    message: str
    start: int
    end: int
    severity: Severity
    fix: Fix | None = None


@dataclass(frozen=True, slots=True)
class Example:
    """A rule's own example: ``text`` (with optional kind/context) and, for invalid ones, the fix."""

    text: str
    fixed: str | None = None  # expected fix value, for invalid examples that have a fix
    kind: str = "IRI-reference"  # or PYTHON: ``text`` is a module, for a rule on source (IRI901)
    context: UseContext = UseContext.UNKNOWN
    profile: str = "iri"
    uri_only_api: UriOnly | bool = False  # passed to an API that sends only ASCII (urlopen): IRI404


PYTHON = "python"  # Example.kind of a whole Python module, linted as a file


class Family(enum.StrEnum):
    """What a rule checks, which decides where it is documented and how it is grouped in reports."""

    SYNTAX = "syntax"
    BIDI = "bidi"
    NORMALIZATION = "normalization"
    MAPPING = "mapping"
    SECURITY = "security"
    SCHEME = "scheme"
    TEXT = "text"
    ASSEMBLY = "assembly"  # URL values built in code: what only joining pieces gets wrong (issue #27)
    NOQA = "noqa"  # the linter's own suppression comments, not IRIs


class Needs(enum.IntFlag):
    """What an IRI must have for a rule's check to find anything in it: the engine runs the check
    only on IRIs with at least one of them (most literals are valid ASCII URLs: most checks are
    skipped without a call). A rule with no ``needs`` runs on every IRI."""

    ERRORS = 1  # a syntax error (RFC 3987 sec. 2.2)
    NON_ASCII = 2  # a character above U+007F
    PERCENT = 4  # a '%'
    USERINFO = 8  # a userinfo component
    ASSEMBLY = 16  # a value assembled from pieces (``Facts.assembly``): the assembly rules run on nothing else


class Raw(NamedTuple):
    """What a rule's check finds, before the engine makes it a Finding: value offsets [start, end),
    the message, and the edits of its fix (if any)."""

    start: int
    end: int
    message: str
    edits: tuple[Edit, ...] | None = None
    fix_text: str | None = None  # what these edits do, when not the rule's usual fix


Check = Callable[["Facts"], Iterable[Raw]]
"""A rule's check: what it finds in one IRI, read from the IRI's shared facts."""


@dataclass(frozen=True, kw_only=True)
class Rule:
    """Everything the engine and the docs know about one rule (one module under ``rules/<family>/``)."""

    code: str
    name: str  # kebab-case, e.g. "lowercase-percent-hex"
    family: Family
    summary: str  # one line: the rule page's title
    section: str  # the RFC section it enforces, e.g. "RFC 3987 sec. 4.1"
    severity: Severity
    default: bool  # on without being selected
    fix_level: FixLevel | None  # the ladder rung that proves its fix; None: no fix is offered
    what: str  # what triggers it, in which components and contexts: the page's "What it does"
    why: str  # why it is a problem: the page's "Why is this bad?"
    fix_text: str  # how to fix it, in words
    where: str = ""  # the character a finding's column points at, where not the first one at fault
    valid: tuple[Example, ...] = ()
    invalid: tuple[Example, ...] = ()
    check: Check | None = None  # None: reported by the engine itself (IRI100) or by text mode (IRI7xx)
    text_of: Family | None = None  # a text-mode rule: the family whose findings it reports in prose
    needs: Needs | None = None  # run the check only on IRIs with one of these (None: on every IRI)

    @property
    def url(self) -> str:
        return rule_url(self.code)

    @property
    def fix_safety_text(self) -> str:
        """The fix's safety, derived from its ladder level."""
        if self.fix_level is None:
            return "No automatic fix."
        return {
            FixLevel.SOURCE: "Safe: the value is unchanged.",
            FixLevel.SYNTAX: "Safe where the IRI is dereferenced (equal under syntax-based "
            "normalization, RFC 3987 sec. 5.3.2); unsafe where it may be an identifier.",
            FixLevel.SCHEME: "Safe where the IRI is dereferenced (equal under scheme-based "
            "normalization, RFC 3987 sec. 5.3.3); unsafe where it may be an identifier.",
            FixLevel.URI: "Safe where the IRI is dereferenced (it maps to the same URI, RFC 3987 "
            "sec. 3.1); unsafe where it may be an identifier.",
            FixLevel.NONE: "Unsafe: no rung of the comparison ladder proves the new IRI is "
            "equivalent; applied only with --unsafe-fixes.",
        }[self.fix_level]


class RuleInfo(NamedTuple):
    """What the engine, selection, noqa and the reporters read of a rule without importing its module:
    ``Rule``'s fields of those names, generated into ``rules/index.py`` by ``scripts/gen_rule_index.py``."""

    code: str
    name: str
    family: Family
    severity: Severity
    default: bool
    fix_level: FixLevel | None
    needs: Needs | None
    text_of: Family | None
    has_check: bool  # the module defines ``check`` (IRI100 and IRI7xx are reported by the engine)
    module: str  # "<family>.<module>" under ``iri_lint/rules/``: imported at the rule's first check


# where each rule's page is published (docs/rules/<code>.md, built by mkdocs)
DOCS_URL = "https://iri-lint.readthedocs.io/en/latest/rules/{code}/"


def rule_url(code: str) -> str:
    """The published documentation page of a rule."""
    return DOCS_URL.format(code=code)
