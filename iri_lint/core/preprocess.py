"""3987bis sec. 6.1 (LEIRI) and 6.2 (Web Address) preprocessing into the IRI space."""

from __future__ import annotations

from .chars import HEXDIG, Group, group, pct_encode
from .grammar import Profile
from .reference import Preprocessing

# leiri-ucschar = " " / "<" / ">" / '"' / "{" / "}" / "|" / "\" / "^" / "`" / %x0-1F
#               / %x7F-D7FF / %xE000-FFFD / %x10000-10FFFF   (3987bis sec. 6.1)
_ENCODED_GROUPS = frozenset({Group.SPACE, Group.DELIM, Group.UNWISE, Group.CONTROL, Group.SPECIAL,
                             Group.IPRIVATE, Group.TAG, Group.NONCHAR})
_WEB_TRIM = " \r\n\t"  # sec. 6.2 step 1
_WEB_STRIP = "\t\r\n"  # sec. 6.2 step 2: href-strip is left open by the draft; we follow WHATWG URL


def _in_leiri_ucschar(c: str) -> bool:
    cp = ord(c)
    return cp not in (0xFFFE, 0xFFFF) and not 0xD800 <= cp <= 0xDFFF


def preprocess(text: str, profile: Profile) -> tuple[str, list[Preprocessing], list[int]]:  # noqa: C901 - 3987bis sec. 6.2-6.3: one branch per character class
    """Map a LEIRI or Web Address into an IRI; return it, the changes, and each output index's origin."""
    web = profile is Profile.WEB_ADDRESS
    notes: list[Preprocessing] = []
    out: list[str] = []
    origin: list[int] = []
    start, end = 0, len(text)
    if web:
        while start < end and text[start] in _WEB_TRIM:
            notes.append(Preprocessing(start, text[start], "strip", ""))
            start += 1
        while end > start and text[end - 1] in _WEB_TRIM:
            end -= 1
        trailing = [Preprocessing(i, text[i], "strip", "") for i in range(end, len(text))]
    kept: list[int] = []  # sec. 6.2 step 2 strips before step 4 looks at what follows a '%'
    for i in range(start, end):
        if web and text[i] in _WEB_STRIP:
            notes.append(Preprocessing(i, text[i], "strip", ""))
        else:
            kept.append(i)
    in_hier = True  # before the first '?' or '#': backslashes are path separators (sec. 6.2 step 5)
    in_fragment = False
    n = len(kept)
    for k, i in enumerate(kept):
        c = text[i]
        rep = c
        action = ""
        if c == "?" and in_hier:
            in_hier = False
        elif c == "#":
            if in_fragment and web:
                rep, action = "%23", "percent-encode"  # href-ifragment allows '#'
            in_hier = False
            in_fragment = True
        elif web and c == "\\" and in_hier:
            rep, action = "/", "convert"
        elif web and c == "%" and not (k + 2 < n and text[kept[k + 1]] in HEXDIG
                                       and text[kept[k + 2]] in HEXDIG):
            rep, action = "%25", "percent-encode"  # sec. 6.2 step 4
        elif c >= "\x80" or not (c.isalnum() or c in "-._~:/?#[]@!$&'()*+,;=%"):
            if group(c) in _ENCODED_GROUPS and _in_leiri_ucschar(c):
                rep, action = pct_encode(c), "percent-encode"
        if action:
            notes.append(Preprocessing(i, c, action, rep))
        out.append(rep)
        origin.extend([i] * len(rep))
    if web:
        notes.extend(trailing)
        notes.sort(key=lambda note: note.position)
    origin.append(end)  # one past the end, for spans ending at the end
    return "".join(out), notes, origin
