"""IRI504 delimiter-lookalike: Look-alike of a delimiter such as U+2215 for `/`."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.chars import NOT_ALLOWED_ASCII, char_label
from ...core.mapping import is_dns_scheme
from ...core.reference import HostKind
from ...core.security import delimiter_for, in_east_asian_text
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Needs, Raw, Rule, Severity, UseContext
from .shared import problems

RULE = Rule(
    code="IRI504",
    name="delimiter-lookalike",
    family=Family.SECURITY,
    summary="Look-alike of a delimiter such as U+2215 for `/`",
    section="3987bis sec. 9; UTS #39",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A non-ASCII character that reads as a delimiter under NFKC, UTS #46 mapping or its UTS #39 "
          "skeleton (without the `icu` extra: Unicode's confusables data, which the skeleton is made of): a "
          "look-alike of `/ ? # [ ] @ : % . & = ;` or of a character IRIs exclude, such as U+2215 "
          "DIVISION SLASH for `/`, anywhere in the IRI; one finding per character. A separator no form maps to "
          "the space (U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR, U+1680 OGHAM SPACE MARK: Unicode's "
          "general categories Zs, Zl, Zp) is whitespace as the space is, which 3987bis sec. 6.3 excludes, and "
          "is reported as one; around the IRI (U+2028 before `https:`) it is whitespace, as IRI101's is: "
          "removed where the value is fetched (a URL API's argument), no finding elsewhere, where it separates "
          "the IRI from the text around it. In the host of a DNS "
          "scheme, the ideographic, fullwidth and halfwidth full stops (U+3002, U+FF0E, U+FF61) are label "
          "separators (RFC 3490 sec. 3.1), not look-alikes; outside the host, where `.` is no delimiter, they "
          "are East Asian text's own full stop beside a Han, kana, Hangul or Bopomofo character and no ASCII "
          "letter or digit (`/搜密。打卡`), not a look-alike."),
    why=("Characters that look like `/`, `?`, `#`, `@`, `:` or `.` but are not delimiters make an IRI appear "
         "to have another host or path than it has."),
    fix_text="Use the real delimiter, or percent-encode the character.",
    valid=(Example("https://example.com/a/b"), Example("https://例え。テスト/"),
           Example("https://example.com/搜密。打卡")),
    invalid=(Example("https://example.com∕evil.com/", "https://example.com/evil.com/"),
             Example("https://de.wikipedia.org/wiki/Neue\u2028Wache")),
    needs=Needs.NON_ASCII,
)


def message(c: str) -> str:
    """What look-alike ``c`` reads as, and why that misleads."""
    target = delimiter_for(c) or ""
    if target in NOT_ALLOWED_ASCII:
        why = ("which IRIs exclude (3987bis sec. 6.3); readers will copy or split the IRI "
               f"wrongly (RFC 3987 sec. 6.1 b); write {f'%{ord(target):02X}'!r} if that is meant")
    else:
        why = ("but is not a delimiter; readers will split the IRI in the wrong place "
               f"(RFC 3987 sec. 6.1 b, 8); write {target!r} if the delimiter is meant")
    return f"{char_label(c)} looks like {target!r} ({char_label(target)}) {why}"


# RFC 3490 sec. 3.1 (1): "the following characters MUST be recognized as dots" between the labels of a
# domain name; UTS #46 maps them to U+002E. In a DNS host they are its label separators, not look-alikes.
IDNA_DOTS = frozenset("\u3002\uff0e\uff61")


def check(facts: Facts) -> Iterator[Raw]:
    """Each look-alike of a delimiter; the fix writes the delimiter (or its escape)."""
    ref = facts.ref
    text = ref.text
    dns_host = ref.host_kind is HostKind.REG_NAME and is_dns_scheme(ref.get("scheme"))
    lead, trail = len(text) - len(text.lstrip()), len(text.rstrip())  # (str.strip: Unicode's whitespace)
    for p in problems(facts, "delimiter-lookalike"):
        if text[p.span.start] in IDNA_DOTS and ((dns_host and facts.in_host(p.span)) or (
                not facts.in_host(p.span) and in_east_asian_text(text, p.span.start, p.span.end))):
            continue  # (a DNS host's label separator; outside the host, where '.' delimits nothing, a sentence's end)
        if p.span.end <= lead or p.span.start >= trail:  # whitespace around the IRI: removed, as IRI101's is
            if facts.context is not UseContext.DEREFERENCED:
                continue  # (elsewhere it separates the IRI from the text around it, as a space does: IRI101)
            where = "before" if p.span.end <= lead else "after"
            yield Raw(p.span.start, p.span.end, f"{char_label(text[p.span.start])} {where} the IRI is whitespace, "
                      "not part of it (3987bis sec. 6.3); remove it", (Edit(p.span.start, p.span.end, ""),))
            continue
        yield Raw(p.span.start, p.span.end, message(text[p.span.start]),
                  (Edit(p.span.start, p.span.end, p.replacement or ""),))
