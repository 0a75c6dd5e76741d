"""IRI404 iri-to-uri-only-api: Non-ASCII IRI passed to an API that takes only URIs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...core.chars import BIDI_CONTROLS, char_label
from ...core.context import UriOnly
from ...core.mapping import DOTS, MappingError, uri_edits
from ...core.reference import ErrorRecord, HostKind
from ...core.security import character_kind, is_spoof_label
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Needs, Raw, Rule, Severity, UseContext, with_edits

RULE = Rule(
    code="IRI404",
    name="iri-to-uri-only-api",
    family=Family.MAPPING,
    summary="Non-ASCII IRI passed to an API that takes only URIs",
    section="RFC 3987 sec. 3.1",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.URI,
    what=("A literal with non-ASCII characters outside its host passed to an API that sends only ASCII in its "
          "request line: "
          "`urllib.request.urlopen`, `Request` and `urlretrieve`, an opener's `open`, and `http.client` "
          "`HTTPConnection` / `HTTPSConnection` `request` and `putrequest`, `urllib.robotparser`, "
          "`xmlrpc.client.ServerProxy`. A non-ASCII host counts too (`urlopen(\"https://m\u00fcnchen.example/\")`): "
          "`urllib.request` writes the `Host` header itself, as Latin-1 (a host outside Latin-1 raises, "
          "`m\u00fcnchen` is sent as raw bytes, not as the `xn--mnchen-3ya` DNS and TLS used), and "
          "`http.client` writes an absolute URL's host in the request line; not for `xmlrpc.client`, whose "
          "connection writes the `Host` header and resolves the name in its IDNA form (Python's IDNA2003 codec; "
          "a label that codec refuses is IRI403's). "
          "Nor is a fragment given to `urllib.request` (`urlopen`, `Request`, `urlretrieve`, an opener, "
          "`robotparser`): its `Request` cuts the fragment off first (`Request.full_url`), so "
          "`urlopen(\"https://de.wikipedia.org/wiki/Berlin#Bev\u00f6lkerung\")` works; `http.client` sends the "
          "request-target it is given, fragment and all. The fix is the mapped URI: IDNA "
          "for a DNS host (IDNA2008; a label it refuses, `\u2603.net`, by IDNA2003, Python's codec, as its socket "
          "module resolves it), percent-encoded UTF-8 elsewhere. An IRI with syntax errors besides (a space) is "
          "reported all the same, since the API raises whatever else is fixed, but without a fix: the mapping "
          "takes a valid IRI. One holding a bidi control (a Trojan Source `U+202E`, which IRIs must not contain, "
          "RFC 3987 sec. 4.1) is reported too, without a fix: the mapping would keep the control, "
          "percent-encoded; IRI201 reports it, and its fix removes it. So with a full-width form, an invisible "
          "or a delimiter's look-alike (IRI503, IRI505, IRI504). The finding stands at the first non-ASCII "
          "character no other finding is about (`WIKI + \"icon\\ue000/K\u00f6ln\"`: at the `\u00f6`, which the "
          "API still raises on once IRI106's fix encodes the private-use character)."),
    why=("`urllib.request.urlopen`, `http.client` and similar encode the request line as ASCII and raise "
         "UnicodeEncodeError for an IRI; the IRI must be mapped to its URI first."),
    where=("the first non-ASCII character that no other finding is about (for `xmlrpc.client`, the first outside "
           "the host)"),
    fix_text="Use the mapped URI (IDNA for the host, percent-encoded UTF-8 elsewhere).",
    valid=(
        Example("https://example.com/caf%C3%A9", uri_only_api=UriOnly.BEFORE_FRAGMENT),
        Example("https://bücher.example/café", context=UseContext.DEREFERENCED),
        Example("https://bücher.example/RPC2", uri_only_api=UriOnly.AFTER_HOST),
        Example("https://de.wikipedia.org/wiki/Berlin#Bevölkerung", uri_only_api=UriOnly.BEFORE_FRAGMENT),
    ),
    invalid=(
        Example("https://example.com/café",
                "https://example.com/caf%C3%A9", context=UseContext.DEREFERENCED,
                uri_only_api=UriOnly.BEFORE_FRAGMENT),
        Example("/wiki/K%C3%B6ln#K\u00f6ln", "/wiki/K%C3%B6ln#K%C3%B6ln", uri_only_api=True),  # http.client's
        Example("https://m\u00fcnchen.example/", "https://xn--mnchen-3ya.example/",
                uri_only_api=UriOnly.BEFORE_FRAGMENT),
    ),
    needs=Needs.NON_ASCII,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Sec. 3.1: an API that encodes the request as ASCII needs the IRI mapped to its URI first."""
    ref = facts.ref
    text = ref.text
    if not facts.uri_only_api or text.isascii():
        return
    # (xmlrpc.client gives the host to its connection, which writes the Host header and resolves the name with
    # Python's IDNA codec, what that codec refuses being IRI403's; urllib.request writes the Host header itself,
    # Latin-1, and http.client an absolute URL's host in the request line: fixtures172 repro 01)
    host = ref.host if ref.host_kind is HostKind.REG_NAME and facts.uri_only_api == UriOnly.AFTER_HOST else None
    # (nor is a fragment that urllib.request cuts off before writing it: Request.full_url)
    sent = ref.fragment.start - 1 if ref.fragment is not None and facts.uri_only_api == UriOnly.BEFORE_FRAGMENT \
        else len(text)
    # (a character another finding is about is its finding's to fix; the first one after it still raises:
    # fixtures244 A, a private-use character's safe fix left an 'ö' the API raises on)
    covered = _covered(ref.error_records, len(text))
    raising = [k for k, c in enumerate(text[:sent]) if not c.isascii() and not covered[k] and (host is None or not
               host.start <= k < host.end)]
    # (a bidi control, an invisible, a full-width form, a delimiter's look-alike: IRI201/202, IRI505, IRI503,
    # IRI504 are about it, and a mapping that encodes it keeps it: fixtures246 #1)
    dots = (ref.host.start, ref.host.end) if ref.host is not None else (0, 0)  # (IDNA's full stops separate labels)
    others = [k for k in raising if _reported_otherwise(text[k]) and not (text[k] in DOTS and dots[0] <= k < dots[1])]
    reported = set(others)
    first = next((k for k in raising if k not in reported), others[0] if others else None)
    if first is None:
        return
    raises = f"this API sends only ASCII and raises UnicodeEncodeError on {char_label(text[first])}"
    in_host = ref.host is not None and ref.host.start <= first < ref.host.end
    if facts.uri_only_api == UriOnly.BEFORE_FRAGMENT and in_host:
        raises = (f"urllib.request writes the host into the Host header as it is, in Latin-1, not in its IDNA form: "
                  f"{char_label(text[first])} raises UnicodeEncodeError or goes out as a raw byte")
    # (its other faults are findings of their own; fixed, the IRI maps. A bidi control is one, sec. 4.1, which
    # the mapping would keep encoded: for the reader to remove, not for a fix to settle)
    if ref.error_records or others or not BIDI_CONTROLS.isdisjoint(text):
        cure = "remove it (RFC 3987 sec. 4.1: its mapping would keep it, percent-encoded)" \
            if text[first] in BIDI_CONTROLS else "pass the IRI mapped to its URI (RFC 3987 sec. 3.1)"
        yield Raw(first, first + 1, f"{raises}; {cure}")
        return
    try:  # (the editor's hover shows the same URI)
        edits = [Edit(start, end, new) for start, end, new in uri_edits(ref)]
    except MappingError:  # (a valid IRI always maps; be safe)
        return
    name = text[ref.host.start : ref.host.end] if ref.host is not None and ref.host_kind is HostKind.REG_NAME else ""
    if any(is_spoof_label(label) for label in name.translate({ord(d): "." for d in DOTS}).split(".")):
        # (its IDNA form would send the look-alike, opaque: IRI502 says which ASCII host it imitates)
        yield Raw(first, first + 1, f"{raises}; its host is a look-alike of an ASCII host (IRI502): write the host "
                  "meant")
        return
    uri = with_edits(facts.shown, edits)
    yield Raw(first, first + 1, f"{raises}; pass the mapped URI {uri!r} (RFC 3987 sec. 3.1)", tuple(edits))


def _reported_otherwise(c: str) -> bool:
    """A character another rule reports wherever it stands, whose fix is not its percent-encoding: a bidi control
    (IRI201, IRI202) or what the security rules report on its own (IRI503, IRI504, IRI505)."""
    return c in BIDI_CONTROLS or character_kind(c) is not None


def _covered(errors: Sequence[ErrorRecord], n: int) -> bytearray:
    """Which offsets of a text of length ``n`` a syntax error spans (linear in the errors' lengths)."""
    out = bytearray(n)
    for e in errors:
        out[e.start : e.end] = b"\x01" * (min(e.end, n) - e.start)
    return out
