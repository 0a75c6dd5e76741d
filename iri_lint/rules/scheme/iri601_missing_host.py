"""IRI601 missing-host: http(s), ws(s) or ftp IRI without a host."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from ...core.errors import Kind
from ...core.lazy import lazy_regex
from ...core.reference import IRIReference
from ...core.schemes import WEB_SCHEMES
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Raw, Rule, Severity

RULE = Rule(
    code="IRI601",
    name="missing-host",
    family=Family.SCHEME,
    summary="http(s), ws(s) or ftp IRI without a host",
    section="RFC 9110 sec. 4.2; RFC 3987 sec. 6.4",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("An `http`, `https`, `ws`, `wss` or `ftp` IRI without a host: no `//` authority "
          "(`https:/example.com/`, `https:example.com`) or an empty one (`https:///example.com/`). The fix "
          "restores `scheme://` only when what follows reads as a DNS name. A literal that is only a scheme, a `:` "
          "and one word (`\"http:example.com\"`) where no URL is expected reads as a `label:value` text and is not "
          "taken for an IRI; at a URL API or a URL-named target it is one (`HOME_URL = \"http:example.com\"`)."),
    why=("These schemes require an authority with a non-empty host; `http:/example.com` and `http:example.com` "
         "are usually a lost `/`. The fix only restores a host that is there: `ftp:///srv/data.csv` has a "
         "path, not a host, and gets no fix."),
    where=("the `//` of an empty authority (`https:///x`, `https://@/a`: the host is missing between it and what "
           "follows); without a `//`, the scheme's first character (`https:/example.com/`: what is missing has no "
           "character of its own)"),
    fix_text="Write `scheme://host/...`.",
    valid=(Example("https://example.com/"),),
    invalid=(
        Example("https:/example.com/", "https://example.com/"),
        Example("https:///example.com/", "https://example.com/"),
        Example("ftp:///srv/data.csv"),
    ),
)

_dotted_name = lazy_regex(r"(?:[A-Za-z0-9-]++\.)++[A-Za-z]{2,63}")  # a DNS name, not a file path


def _error_at(ref: IRIReference, start: int, kind: Kind) -> bool:
    """Whether an error of ``kind`` starts at ``start`` (the records are sorted by start)."""
    recs = ref.error_records
    k = bisect.bisect_left(recs, start, key=lambda r: r.start)
    while k < len(recs) and recs[k].start == start:
        if recs[k].kind == kind:
            return True
        k += 1
    return False


def check(facts: Facts) -> Iterator[Raw]:
    """An http(s), ws(s) or ftp IRI with no authority or an empty host; the fix restores a host
    only where what follows reads as a DNS name."""
    ref = facts.ref
    if ref.scheme is None:
        return
    text = ref.text
    scheme = text[ref.scheme.start : ref.scheme.end]
    low = scheme.lower()
    if low not in WEB_SCHEMES:
        return
    after = ref.scheme.end + 1
    if ref.authority is not None and ref.host is not None and len(ref.host) == 0 and \
            not _error_at(ref, ref.host.start, Kind.IP_LITERAL):  # "http://::1/": IRI113 says it
        start, end = (ref.authority.start - 2, ref.authority.end) if len(ref.authority) else (after, after + 2)
        shown = text[start:end]
        # "https:///example.com/" lost a host to a third '/'; "ftp:///some_path" is a path
        first = text[ref.path.start + 1 : ref.path.end].split("/", 1)[0]
        edits = (Edit(end, end + 1, ""),) if not len(ref.authority) and _dotted_name().fullmatch(first) else None
        yield Raw(start, end, f"{low}: IRIs need a host, but the authority {shown!r} has none; "
                  f"write '{low}://host/...'", edits)
    elif ref.authority is None:
        rest = text[after:]
        stripped = rest.lstrip("/\\")
        edits = None
        # restore '//' only before what reads as a host ('http:/example.com/'), never before a
        # path or userinfo ('http:path', 'http:@'): the fix must not invent a host
        first = re.split(r"[/?#\\]", stripped, maxsplit=1)[0]
        if _dotted_name().fullmatch(first.rsplit(":", 1)[0] if first.count(":") == 1 else first):
            edits = (Edit(after, len(text) - len(stripped), "//"),)
        slashes = len(rest) - len(rest.lstrip("/\\"))
        shape = f"{scheme}:" + rest[:slashes]
        yield Raw(ref.scheme.start, after + max(slashes, 0),
                  f"{low}: IRIs need a host, but '{shape}' is followed by "
                  f"{'no host' if not stripped else _what_follows(stripped)}; write '{low}://host/...'", edits)


def _what_follows(rest: str) -> str:
    """What stands after the scheme where a host should: a query, a fragment, or a path (outside48's note)."""
    return "a query" if rest[0] == "?" else "a fragment" if rest[0] == "#" else "a path"
