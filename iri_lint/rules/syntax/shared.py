"""What every syntax rule does alike: report each run of its kind of error once, whitespace around
the IRI as a whole, and fix a run by percent-encoding or removing its characters."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from typing import NamedTuple

from ...core.chars import char_label, pct_encode
from ...core.errors import Kind
from ...core.grammar import Profile
from ...core.mapping import is_dns_scheme
from ...core.reference import ErrorRecord, HostKind, IRIReference
from ...data.schemes import VERBATIM_KEY
from ..facts import Facts
from ..model import Edit, Raw

# an object store's key (``VERBATIM_KEY``: s3://bucket/key) is read verbatim by fsspec, boto3 and the cloud SDKs
_KEY_PARTS = frozenset({"path", "query", "fragment"})  # (a '#' is a key's character too: "issue#12.csv")
KEY_REMEDY = "an object store reads its key verbatim, so encoding it would name another object: no fix"
OBJECT_KEY = ("After the bucket of an object store's URL (`s3://`, `gs://`, `abfs://`, `hdfs://`, ...; the "
              "list is in docs/design.md) the finding has no fix: fsspec, boto3 and the cloud SDKs read the key "
              "verbatim, never percent-decoded, so the encoded character would name another object. Nor in a DNS "
              "host's name (`https://a b.example/`): no resolver reads a percent-encoded host name.")


HOST_REMEDY = "no resolver reads a percent-encoded host name: write the host's real name (no fix)"


def in_dns_host(ref: IRIReference, rec: ErrorRecord) -> bool:
    """Whether an error is in a DNS host's name, where percent-encoding names no host (RFC 3986 sec. 3.2.2: a
    registered name for DNS is written in IDNA, never encoded; fixtures242)."""
    return rec.component == "host" and ref.host_kind is HostKind.REG_NAME and is_dns_scheme(ref.get("scheme"))


def in_object_key(ref: IRIReference, rec: ErrorRecord) -> bool:
    """Whether an error is in the key of an object store's URL, which no library percent-decodes."""
    scheme = ref.scheme
    return (scheme is not None and rec.component in _KEY_PARTS
            and ref.text[scheme.start : scheme.end].lower() in VERBATIM_KEY)


class SyntaxFix(enum.Enum):
    """How a rule's fix rewrites each character of a run."""

    ENCODE = "encode"  # percent-encode it as UTF-8
    REMOVE = "remove"  # delete it
    ESCAPE_PERCENT = "escape-percent"  # write the '%' of a malformed escape as %25


class Subject(NamedTuple):
    """One syntax error as its message names it: over the caller's text where 3987bis sec. 6
    preprocessing wrote its character differently."""

    text: str
    rec: ErrorRecord
    profile: Profile
    ref: IRIReference

    @property
    def label(self) -> str:
        """The character the error is at, as 'U+0020 SPACE'."""
        return char_label(self.text[self.rec.start])

    @property
    def component(self) -> str:
        return self.rec.component or ""

    def remedy(self, usual: str) -> str:
        """``usual``, the fix's advice, but where the character is an object store's key's own or a DNS host's (where
        only a removal is a fix)."""
        if in_object_key(self.ref, self.rec):
            return KEY_REMEDY
        return HOST_REMEDY if not usual.startswith("remove") and in_dns_host(self.ref, self.rec) else usual

    @property
    def chars(self) -> str:
        """The text the error spans."""
        return self.text[self.rec.start : self.rec.end]


Describe = Callable[[Subject], str]


def report(facts: Facts, kind: Kind, describe: Describe, fix: SyntaxFix | None = None) -> Iterator[Raw]:
    """RFC 3987 sec. 2.2 / 3987bis sec. 6.3: one finding per run of adjacent errors of ``kind``,
    and one for whitespace around the IRI whose first error is of ``kind``."""
    ref = facts.ref
    if not ref.error_records:
        return
    syntax = facts.syntax
    for edge_kind, start, end, where in syntax.edges:
        if edge_kind == kind:
            yield _whitespace_edge(ref.text, start, end, where)
    runs = syntax.runs.get(kind, [])
    facts.skip(syntax.counts.get(kind, 0) - len(runs))  # hostile input: counted, not built
    recs, idx = ref.error_records, syntax.idx
    dropped, code, built = facts.dropped, facts.code, 0
    for i, j in runs:
        first = idx[i]
        if dropped is not None:  # (template holes: what the engine drops is not built, what it keeps is budgeted)
            if dropped(code, recs[first].start, recs[idx[j - 1]].end):
                continue
            if built >= facts.built:
                facts.skip(1)
                continue
            built += 1
        # (the characters after the first error's; a malformed '%' spans its partial hex digits: count the '%'s)
        after = j - i - 1 if kind is Kind.PERCENT else recs[idx[j - 1]].end - recs[first].end
        more = "" if after <= 0 else "; 1 more such character follows" if after == 1 else \
            f"; {after} more such characters follow"
        subject = Subject(*ref.error_subject(first), ref)
        edits = None if fix is None or in_object_key(ref, recs[first]) or \
            (fix is not SyntaxFix.REMOVE and in_dns_host(ref, recs[first])) else \
            _edits(ref, tuple(recs[k] for k in idx[i:j]), fix)
        yield Raw(recs[first].start, recs[idx[j - 1]].end, describe(subject) + _in_a_row(subject) + more, edits)


def _in_a_row(subject: Subject) -> str:
    """How many characters a run of one error spans, when more than one."""
    rec, text = subject.rec, subject.text
    n = rec.end - rec.start
    if text[rec.start : rec.start + 1] == "%":  # a malformed '%' spans its partial hex digits: count the '%'s
        n = text.count("%", rec.start, rec.end)
        return f"; {n} in a row" if rec.run and n > 1 else ""
    if not rec.run or n <= 1:
        return ""
    return f"; {n} in a row" if text[rec.start : rec.end] == text[rec.start] * n else f"; {n} such characters in a row"


def _whitespace_edge(text: str, start: int, end: int, where: str) -> Raw:
    """3987bis sec. 6.3: whitespace around an IRI is not part of it; remove each side as a whole."""
    chars = text[start:end]
    what = char_label(chars[0]) if len(set(chars)) == 1 else "whitespace"
    count = f"{len(chars)} characters of " if len(chars) > 1 else ""
    return Raw(start, end, f"{count}{what} {where} the IRI: whitespace is not part of an IRI and delimits it "
               "in text (3987bis sec. 6.3, RFC 3987 sec. 7.3); remove it",
               (Edit(start, end, ""),), fix_text=f"Remove the whitespace {where} the IRI.")


def _edits(ref: IRIReference, run: tuple[ErrorRecord, ...], fix: SyntaxFix) -> tuple[Edit, ...] | None:
    """Percent-encode or remove each character of a run of errors; None when no edit is certain."""
    if ref.original is not None:
        return None  # preprocessed (LEIRI, Web Address): positions are not the text's
    text = ref.text
    edits: list[Edit] = []
    for pos, end, *_ in run:
        if pos >= len(text):
            return None
        span = text[pos:end]
        if fix is SyntaxFix.ENCODE:
            edits.append(Edit(pos, pos + len(span), pct_encode(span)))
        elif fix is SyntaxFix.REMOVE:
            edits.append(Edit(pos, pos + len(span), ""))
        else:  # a malformed '%' spans its partial hex digits: only the '%' changes
            span = "%" if span != "%" * len(span) else span
            edits.append(Edit(pos, pos + len(span), "%25" * len(span)))
    return tuple(edits) or None
