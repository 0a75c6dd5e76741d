"""IRI403 idna-failure: Host label fails IDNA."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...core.grammar import LDH, is_ldh_label
from ...core.joiners import JOINERS
from ...core.mapping import is_dns_scheme
from ...core.reference import HostKind
from ...core.security import delimiter_for
from ..facts import Facts
from ..model import Example, Family, Raw, Rule, Severity

RULE = Rule(
    code="IRI403",
    name="idna-failure",
    family=Family.MAPPING,
    summary="Host label fails IDNA",
    section="3987bis sec. 3.4.2; RFC 5891",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A non-ASCII or `xn--` label of a DNS host (http, https, ftp and the other schemes iri-lint knows) "
          "that no IDNA version reads: IDNA2008 with UTS #46 mapping rejects it, and so do IDNA2003 and "
          "browsers' UTS #46 processing, or it "
          "is an `xn--` label that is no valid A-label; an ASCII label that begins or ends with `-`, which "
          "no DNS host name does; and an empty label other than the root's (`example..com`, `.example.com`; "
          "a final dot is the root's, and a host of dots alone, `https://...`, is an ellipsis). "
          "A label only IDNA2003 or browsers' UTS #46 reads (`☃`, `xn--n3h`, an emoji such as `🍕`) is "
          "reported where the value reaches an API that encodes hosts with IDNA2008 (requests, httpx, "
          "aiohttp and yarl, urllib3), and everywhere when IRI403 is selected by name. A label whose only "
          "fault is a zero-width joiner or non-joiner outside the contexts IDNA allows is IRI505's, whose "
          "removal cures both (one cause, one finding); so is one whose only fault is a delimiter's look-alike "
          "(`bank.example／login.evil.example`) IRI504's, whose fix writes the delimiter."),
    why=("A non-ASCII or `xn--` label of a DNS host must convert with IDNA2008 after UTS #46 "
         "mapping; otherwise the IRI cannot be resolved. An `xn--` label that no IDNA version reads "
         "(`xn--d`, bad Punycode, a trailing `-`, one that decodes to ASCII) is a broken name anywhere, and "
         "so is an ASCII label that begins or ends with `-`, or an empty one: a registered name for DNS "
         "lookup has the syntax of RFC 1123 sec. 2.1 (RFC 3986 sec. 3.2.2), whose labels end in a letter "
         "or digit, and only the root's label is empty (RFC 1034 sec. 3.5; `idna` and requests reject "
         "`http://.example.com`). "
         "What stays opt-in is the difference between the IDNA versions: a label that IDNA2003 (and "
         "browsers' UTS #46 processing) reads but IDNA2008 rejects, a symbol such as `☃.net` or its "
         "A-label `xn--n3h.net`, names a live host that Python's `idna` package (requests, httpx) "
         "refuses; it is reported by default only where the value reaches such an API (the call raises), "
         "elsewhere when IRI403 is selected by name."),
    fix_text="Correct the label (the message names the reason).",
    where=("the character at fault: a hyphen at the label's start or end, the first of two in its 3rd and 4th "
           "places, the code point IDNA refuses; the label's first character where IDNA refuses it as a whole (its "
           "length, the Bidi Rule)"),
    valid=(Example("https://bücher.example/"), Example("https://my_host.example/"), Example("https://r3---sn-ab.example/"),
           Example("https://xn--bcher-kva.example/"), Example("https://example.com./"), Example("https://.../")),
    invalid=(Example("https://xn--a.example/"), Example("https://xn--d.example/"), Example("https://xn--abc-.example/"),
             Example("https://ex!ämple.example/"), Example("https://-sts.example.com/"),
             Example("https://www..example.com/")),
)


_NAME = LDH | {"_"}  # what the labels of a host name are made of, besides non-ASCII letters


def check(facts: Facts) -> Iterator[Raw]:
    """3987bis sec. 3.4.2: each non-ASCII or ``xn--`` label of a DNS host must pass IDNA2008 + UTS #46;
    RFC 3986 sec. 3.2.2: an ASCII label is a DNS host name's, which no hyphen begins or ends and which is
    empty only as the root's (RFC 1034 sec. 3.5)."""
    ref = facts.ref
    if ref.host is None or ref.host_kind is not HostKind.REG_NAME or not is_dns_scheme(ref.get("scheme")):
        return
    host = ref.get("host") or ""
    if not host.strip(".\u2026"):
        return  # an ellipsis (``https://...``, ``https://…``): text left out, no name to check
    if host.isascii() and "xn--" not in host.lower() and not _hyphen_at_an_end(host) and not _empty_label(host):
        return
    if any(r.component == "host" for r in ref.error_records):
        return  # the host's syntax error (a control, a surrogate) is the cause, reported once
    # a label's verdict depends only on its text: judge each distinct label once, and past
    # MAX_PER_CODE failing labels only count the rest (hostile hosts repeat one label 30k times)
    verdicts: dict[str, str | None] = {}
    joiners_reported = "IRI505" in facts.enabled
    look_alikes_reported = "IRI504" in facts.enabled
    may_skip = facts.may_skip
    built = skipped = 0
    pos = ref.host.start
    labels = host.replace("\u3002", ".").replace("\uff0e", ".").replace("\uff61", ".").split(".")
    empty_seen = not _named_but_for_empty_labels(labels)
    for i, label in enumerate(labels):
        if not label and i < len(labels) - 1 and not empty_seen:  # the last is the root's, after a final dot
            empty_seen = True  # one mistake, one finding: the first empty label
            yield Raw(pos, pos + 1, f"host {host!r} has an empty label: a DNS name has none but the root's, "
                                    "written as one final dot (RFC 3986 sec. 3.2.2 -> RFC 1034 sec. 3.5)")
        elif label and "%" not in label and (not label.isascii() or label[:4].lower() == "xn--"
                                           or label[0] == "-" or label[-1] == "-"):
            if label in verdicts:
                message = verdicts[label]
            elif joiners_reported and not JOINERS.isdisjoint(label) and _fine(label.translate(_NO_JOINERS),
                                                                               facts.idna_versions):
                message = verdicts[label] = None  # (its joiner alone: IRI505's, whose removal cures this too)
            elif look_alikes_reported and _fine_but_for_look_alikes(label, facts.idna_versions):
                message = verdicts[label] = None  # (IRI504's: writing the delimiter cures this too, fixtures241 #2)
            else:
                message = verdicts[label] = _label_problem(label, facts.idna_versions)
            if message is not None:
                if may_skip and built >= facts.built:
                    skipped += 1
                else:
                    built += 1
                    shown = facts.shown[pos : pos + len(label)]  # (a hole as '…', not the '0' it is checked as)
                    yield Raw(pos + _fault_in(label, message), pos + len(label), message if shown == label else
                              message.replace(repr(label), repr(shown), 1))
        pos += len(label) + 1
    facts.skip(skipped)


_NO_JOINERS = dict.fromkeys(map(ord, JOINERS))


def _fine(label: str, idna_versions: bool) -> bool:
    """Whether a (non-empty) label passes: an ASCII one no hyphen begins or ends, any other IDNA's."""
    if label.isascii() and label[:4].lower() != "xn--":
        return bool(label) and label[0] != "-" and label[-1] != "-"
    return _label_problem(label, idna_versions) is None


def _fine_but_for_look_alikes(label: str, idna_versions: bool) -> bool:
    """Whether the label holds a delimiter's look-alike (``example／login``) and each part between them passes: the
    look-alike is the fault, whichever delimiter it stands for ends the label."""
    cuts = [i for i, c in enumerate(label) if c >= "\x80" and delimiter_for(c) is not None]
    if not cuts:
        return False
    parts = [label[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(label)], strict=True)]
    return all(not part or _fine(part, idna_versions) for part in parts)


def _empty_label(host: str) -> bool:
    """Whether ``host`` may have an empty label other than the root's (``a..b``, ``.a``, ``a..``)."""
    return ".." in host or host.startswith(".")


def _named_but_for_empty_labels(labels: list[str]) -> bool:
    """Whether the labels name a DNS host but for their empty ones: some label, and every label made of
    letters, digits, '-' and '_' or non-ASCII (an IDN). All dots (``https://...``) is an ellipsis, no name;
    ``https://.*`` is a pattern, not a name."""
    named = [label for label in labels if label]
    return bool(named) and all(c in _NAME or not c.isascii() for label in named for c in label)


def _hyphen_at_an_end(host: str) -> bool:
    """Whether a label of ``host`` begins or ends with '-'."""
    return host.startswith("-") or host.endswith("-") or "-." in host or ".-" in host


_CODEPOINT = re.compile(r"[Cc]odepoint U\+([0-9A-Fa-f]{4,6})")


def _fault_in(label: str, message: str) -> int:
    """Where in the label the character at fault is: a hyphen at an end, hyphens in the 3rd and 4th places, the
    code point IDNA names; else the label's first character (its length, the Bidi Rule: the label as a whole)."""
    if "3rd and 4th" in message:
        return 2
    if "hyphen" in message:
        return len(label) - 1 if label[-1:] == "-" and label[:1] != "-" else 0
    m = _CODEPOINT.search(message)
    return max(label.find(chr(int(m[1], 16))), 0) if m is not None else 0


def _label_problem(label: str, idna_versions: bool) -> str | None:
    """The finding's message for one label of a DNS host that may be wrong, None when it is right."""
    if label.isascii() and label[:4].lower() != "xn--":
        side = "begins" if label[0] == "-" else "ends"
        return (f"host label {label!r} {side} with a hyphen, which no DNS host name does (RFC 3986 sec. 3.2.2 "
                "-> RFC 1123 sec. 2.1; RFC 5890 sec. 2.3.1)")
    import idna  # lazy boundary (c): IDNA's tables, for an IDN label

    try:
        if label.isascii():
            idna.decode(label)
        else:
            idna.encode(label, uts46=True, std3_rules=True, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError) as exc:
        why = str(exc or type(exc).__name__)
    else:
        return None
    if _idna2003_label(label) or _uts46_label(label):  # the versions differ: opt-in, or at an IDNA2008 API
        return None if not idna_versions else (
            f"host label {label!r} fails IDNA2008: {why}; only IDNA2003 and browsers' UTS #46 read it "
            "(3987bis sec. 3.4.2; RFC 5891)")
    if label.isascii():
        return (f"host label {label!r} is not a valid A-label: {why} (RFC 5891 sec. 5.4; neither IDNA2008 "
                "nor IDNA2003 reads it)")
    return f"host label {label!r} fails IDNA: {why} (3987bis sec. 3.4.2)"


def _uts46_label(label: str) -> bool:
    """Whether browsers' UTS #46 processing reads ``label``, which IDNA2008 rejects only for symbols UTS #46
    keeps valid (``🍕``, U+1F355, "NV8" in its table: a live emoji domain): the mapping accepts every code
    point, and the label passes IDNA2008 once each code point IDNA2008 does not allow stands for a letter."""
    import idna  # lazy boundary (c): the same tables as above
    from idna import idnadata, intranges

    try:
        mapped = idna.uts46_remap(label, std3_rules=True, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError):
        return False
    classes = idnadata.codepoint_classes.values()
    stand_in = "".join(c if any(intranges.intranges_contain(ord(c), k) for k in classes) else "a" for c in mapped)
    if stand_in == mapped:
        return False  # (what IDNA2008 rejects is not a symbol's code point: a hyphen, a joiner, bidi)
    try:
        idna.encode(stand_in, uts46=False)
    except (idna.IDNAError, UnicodeError, ValueError):
        return False
    return True


def _idna2003_label(label: str) -> bool:
    """Whether IDNA2003 reads ``label`` as a stored string (RFC 3490 sec. 4; Python's ``idna`` codec):
    ToUnicode of an A-label; ToASCII of a U-label with AllowUnassigned false (no code point unassigned
    in Unicode 3.2, RFC 3454 table A.1) and the STD3 host name rules that IDNA2008 keeps (RFC 1123 LDH)."""
    import encodings.idna as idna2003  # lazy boundary (c): IDNA2003's nameprep tables, for a failing label
    import stringprep  # lazy boundary (c): the same

    try:
        if label.isascii():
            idna2003.ToUnicode(label)
            return True
        ace = idna2003.ToASCII(label).decode("ascii")
    except (UnicodeError, ValueError):
        return False
    return label[0] != "-" and label[-1] != "-" and is_ldh_label(ace) and not any(map(stringprep.in_table_a1, label))
