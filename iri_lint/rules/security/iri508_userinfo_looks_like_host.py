"""IRI508 userinfo-looks-like-host: A user name that reads as a host name."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.grammar import LDH, is_ldh_label
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI508",
    name="userinfo-looks-like-host",
    family=Family.SECURITY,
    summary="User name that reads as a host name",
    section="RFC 3986 sec. 7.6; RFC 3987 sec. 8",
    severity=Severity.WARNING,
    default=False,
    fix_level=None,
    what=("A userinfo whose user name begins with a DNS host name of three or more labels (`www.example.com`, "
          "`cnn.example.com&story=...`) or one written with its final dot, other than the IRI's own host, in "
          "any scheme with an authority. A user name of one or two labels (`john.doe`) is a name, not a host. "
          "Opt-in: telling a host from a dotted user name (`first.middle.last@`) needs more than its shape."),
    why=("The userinfo comes before the host and is rarely used, so a host name in it makes a reader (and "
         "a user shown the link) take the wrong authority: `https://www.example.com@attacker.example/` "
         "goes to attacker.example. RFC 3986 sec. 7.6 names this semantic attack, with "
         "`ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm` as its example; RFC 3987 "
         "sec. 8 adds that IRIs make it easier to hide."),
    fix_text=("Remove the userinfo (pass credentials separately), or, if the host in it is the one meant, "
              "make it the host."),
    valid=(Example("ftp://john.doe@ftp.example.com/"), Example("https://user@example.com/"),
           Example("https://www.example.com@www.example.com/")),
    invalid=(Example("https://www.example.com@attacker.example/"),
             Example("ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm"),
             Example("https://bank.example.@login.attacker.example/")),
    needs=Needs.USERINFO,
)

_NAME = LDH | {"."}  # what a host name at the start of the user name may hold


def check(facts: Facts) -> Iterator[Raw]:
    """RFC 3986 sec. 7.6: a host name at the start of the user name misleads about the authority."""
    ref = facts.ref
    if ref.userinfo is None or ref.host is None:
        return
    text = ref.text
    start = ref.userinfo.start
    end = start
    while end < ref.userinfo.end and text[end] in _NAME:
        end += 1
    name = text[start:end]
    host = (ref.get("host") or "").rstrip(".").lower()
    if _reads_as_host(name) and name.rstrip(".").lower() != host:
        yield Raw(start, end, f"the user name begins with the host name {name!r}, but the host is "
                              f"{ref.get('host')!r}: a reader takes the wrong authority (RFC 3986 sec. 7.6); "
                              "remove the userinfo")


def _reads_as_host(name: str) -> bool:
    """Whether ``name`` is a DNS host name (RFC 1123 sec. 2.1) of three or more labels, or one written
    with its final dot, whose top-level label is letters (RFC 3696 sec. 2)."""
    labels = name[:-1].split(".") if name.endswith(".") else name.split(".")
    if len(labels) < (2 if name.endswith(".") else 3):
        return False
    if not all(map(is_ldh_label, labels)):
        return False
    top = labels[-1]
    return len(top) >= 2 and top.isascii() and top.isalpha()
