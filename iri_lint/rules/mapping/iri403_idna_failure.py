"""IRI403 idna-failure: Host label fails IDNA."""

from __future__ import annotations

from collections.abc import Iterator

import idna

from ...core.mapping import is_dns_scheme
from ...core.reference import HostKind
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
          "that IDNA2008 with UTS #46 mapping rejects, or an `xn--` label that does not decode. In source, an "
          "all-ASCII literal not used as an IRI is reported only when IRI403 is selected by name."),
    why=("A non-ASCII or `xn--` label of a DNS host must convert with IDNA2008 after UTS #46 mapping; "
         "otherwise the IRI cannot be resolved. In source, an all-ASCII literal that is not used as an IRI (a "
         "live IDNA2003-era name such as `xn--n3h.net`) is reported only when IRI403 is selected by name."),
    fix_text="Correct the label (the message names the reason).",
    valid=(Example("https://bücher.example/"), Example("https://my_host.example/")),
    invalid=(Example("https://xn--a.example/"),),
)


def check(facts: Facts) -> Iterator[Raw]:
    """3987bis sec. 3.4.2: each non-ASCII or ``xn--`` label of a DNS host must pass IDNA2008 + UTS #46."""
    ref = facts.ref
    if ref.host is None or ref.host_kind is not HostKind.REG_NAME or not is_dns_scheme(ref.get("scheme")):
        return
    host = ref.get("host") or ""
    if host.isascii() and "xn--" not in host.lower():
        return
    if any(r.component == "host" for r in ref.error_records):
        return  # the host's syntax error (a control, a surrogate) is the cause, reported once
    # a label's verdict depends only on its text: judge each distinct label once, and past
    # MAX_PER_CODE failing labels only count the rest (hostile hosts repeat one label 30k times)
    verdicts: dict[str, str | None] = {}
    may_skip = facts.may_skip
    built = skipped = 0
    pos = ref.host.start
    for label in host.replace("\u3002", ".").replace("\uff0e", ".").replace("\uff61", ".").split("."):
        if label and (not label.isascii() or label[:4].lower() == "xn--") and "%" not in label:
            if label in verdicts:
                why = verdicts[label]
            else:
                why = None
                try:
                    if label.isascii():
                        idna.decode(label)
                    else:
                        idna.encode(label, uts46=True, std3_rules=True, transitional=False)
                except (idna.IDNAError, UnicodeError, ValueError) as exc:
                    why = str(exc or type(exc).__name__)
                verdicts[label] = why
            if why is not None:
                if may_skip and built >= facts.built:
                    skipped += 1
                else:
                    built += 1
                    yield Raw(pos, pos + len(label),
                              f"host label {label!r} fails IDNA: {why} (3987bis sec. 3.4.2)")
        pos += len(label) + 1
    facts.skip(skipped)
