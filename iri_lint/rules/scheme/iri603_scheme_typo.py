"""IRI603 scheme-typo: Likely typo of a common scheme (`htps:`, `http//`, `https:\\\\`)."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.schemes import WEB_SCHEMES, scheme_typos
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Raw, Rule, Severity

RULE = Rule(
    code="IRI603",
    name="scheme-typo",
    family=Family.SCHEME,
    summary="Likely typo of a common scheme (`htps:`, `http//`, `https:\\\\`)",
    section="RFC 3986 sec. 3.1",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A scheme one edit away (a letter added, dropped or changed; a transposition, `hptts:`, is two and "
          "is not reported) from `http`, `https`, `ftp`, `ws`, `wss`, `mailto` or `file` that is not "
          "registered, not in wide use, not two letters long, not one of those seven with an `s` added, the usual "
          "name of its variant over TLS (apprise's `mailtos:`, as `https:` and `wss:`; `httpss:` and `wsss:` add "
          "one to a TLS variant and are reported), and not a three-letter scheme with one letter changed from a "
          "three-letter one (`ntp:` beside `ftp:`: another acronym; `htp:` is still `http` less a letter): "
          "`htps:`, `httpss:`; "
          "also `http//`, "
          "`https//`, `ws//`, `wss//` and `ftp//`, which lost their `:` (or have the `;` beside it, `https;//`: "
          "a valid relative path whose first segment is `https;`), `http:\\\\` with backslashes, and a scheme "
          "written twice, `https://https://host` (fixtures166: its host is `https` with an empty port, which "
          "IRI309's fix would keep); a web scheme (http, https, ws, wss, ftp) before another, not a scheme of "
          "its own before a whole URL (`hls://https://...`, streamlink's: a selector of what reads it). The "
          "forms without `:` have no scheme, so they are read where the text is a URL by its place (a URL API's "
          "argument, a URL-named target): alone, `\"wss//a.internal/socket\"` is no IRI by its shape."),
    why=("A misspelled scheme makes the IRI relative or unresolvable, which usually shows up only at run time. "
         "Only unknown one-edit variants of common schemes count: a registered scheme, one in wide use though "
         "unregistered (`ftps`, `gs`, `s3`, `hdfs`, `abfss`, `oci`, database URLs; the list and its sources "
         "are in `scripts/data/unregistered-schemes.csv`) or any two-letter scheme is never a typo, so the fix "
         "never changes what a scheme means."),
    where=("the scheme's first character, for each of the three mistakes (`htps:`, `http//`, `https:\\\\`): the "
           "scheme and its delimiter are read as one"),
    fix_text="Correct the scheme.",
    valid=(Example("https://example.com/"), Example("ftps://files.example.com/"), Example("gs://bucket/key")),
    invalid=(Example("htps://example.com/", "https://example.com/"), Example("http//example.com/", "http://example.com/"),
             Example("https://https://example.com/", "https://example.com/"),
             Example("https;//example.com/", "https://example.com/")),
)


def check(facts: Facts) -> Iterator[Raw]:
    """'http//', 'https//', 'wss//'... without a scheme; a scheme one edit from a common one; 'http:\\\\'."""
    ref = facts.ref
    text = ref.text
    if ref.scheme is None:
        # "http//host", "wss//host": the colon went missing (longest first: "wss" before "ws")
        # "https;//host": the key beside ':' (a valid relative path whose first segment is "https;")
        low = text.lower()
        for good in _COMMON:
            n = len(good)
            if low.startswith(good + "//") and len(text) > n + 2:
                yield Raw(0, n + 2, f"{text[:n + 2]!r} has lost its ':'; write '{good}://'", (Edit(n, n, ":"),))
                break
            if low.startswith(good + ";//") and len(text) > n + 3:
                yield Raw(0, n + 3, f"{text[:n + 3]!r} has ';' for ':'; write '{good}://'",
                          (Edit(n, n + 1, ":"),))
                break
        return
    scheme = text[ref.scheme.start : ref.scheme.end]
    low = scheme.lower()
    after = ref.scheme.end + 1
    typo_of = scheme_typos().get(low)
    if typo_of is not None:
        yield Raw(ref.scheme.start, ref.scheme.end, f"'{scheme}:' looks like a typo of '{typo_of}:'",
                  (Edit(ref.scheme.start, ref.scheme.end, typo_of),))
    elif low in _COMMON and (inner := _doubled(text, after)) is not None:  # (not "hls://https://...": a selector)
        # "https://https://host": its host is "https", an empty port, and a path "//host" (IRI309's fix of the
        # empty port, equivalent by the ladder, would keep the mistake)
        end = after + 2 + len(inner) + 3
        yield Raw(ref.scheme.start, end, f"the scheme is written twice ({text[ref.scheme.start:end]!r}): the host "
                  f"is '{inner}'; write '{text[after + 2:end]}'", (Edit(ref.scheme.start, after + 2, ""),))
    elif low in ("http", "https") and text.startswith("\\\\", after):
        yield Raw(ref.scheme.start, after + 2, f"'{scheme}:\\\\' uses backslashes; write '{low}://'",
                  (Edit(after, after + 2, "//"),))


_COMMON = tuple(sorted(WEB_SCHEMES, key=lambda s: (-len(s), s)))  # (longest first: "wss" before "ws")


def _doubled(text: str, after: int) -> str | None:
    """The scheme written again after ``scheme://`` (``https://https://host``), or None."""
    if not text.startswith("//", after):
        return None
    low = text[after + 2 : after + 10].lower()
    return next((text[after + 2 : after + 2 + len(s)] for s in _COMMON if low.startswith(s + "://")), None)
