"""Boundaries of every ucschar and iprivate range of RFC 3987 sec. 2.2, and the 3987bis sec. 6.3 groups."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iri_lint.core import errors as E
from iri_lint.core import scan
from iri_lint.core.chars import (
    IPRIVATE_RANGES,
    TAG_RANGE,
    UCSCHAR_RANGES,
    Group,
    char_label,
    group,
    is_noncharacter,
    pct_encode,
)


def path_codes(cp: int, profile: str = "iri") -> list[tuple[str, int]]:
    return [(e.code, e.position) for e in scan(f"a:x{chr(cp)}", profile=profile).errors]


def query_codes(cp: int, profile: str = "iri") -> list[tuple[str, int]]:
    return [(e.code, e.position) for e in scan(f"a:?{chr(cp)}", profile=profile).errors]


def expected_code(cp: int) -> str:
    """The code a code point outside ucschar gets in a path (3987bis sec. 6.3)."""
    if cp <= 0x9F:
        return E.CONTROL
    if 0xD800 <= cp <= 0xDFFF:
        return E.SURROGATE
    if 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE:
        return E.NONCHARACTER
    if 0xFFF0 <= cp <= 0xFFFD:
        return E.SPECIAL
    if 0xE0000 <= cp <= 0xE0FFF:
        return E.TAG
    return E.PRIVATE_USE


def is_ucschar(c: str) -> bool:
    """RFC 3987 sec. 2.2 ucschar, straight from its ranges (the reference ``group`` is held to)."""
    return any(lo <= ord(c) <= hi for lo, hi in UCSCHAR_RANGES)


def is_iprivate(c: str, *, bis: bool = False) -> bool:
    """RFC 3987 sec. 2.2 iprivate; with ``bis`` the 3987bis tag characters too."""
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in IPRIVATE_RANGES) or (bis and TAG_RANGE[0] <= cp <= TAG_RANGE[1])


UCS_EDGES = sorted({cp for lo, hi in UCSCHAR_RANGES for cp in (lo, hi)})
UCS_NEIGHBOURS = sorted({cp for lo, hi in UCSCHAR_RANGES for cp in (lo - 1, hi + 1)} - set(UCS_EDGES))


def test_ucschar_ranges_are_the_rfc_ones() -> None:
    assert UCSCHAR_RANGES[:3] == ((0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF))
    assert UCSCHAR_RANGES[3:16] == tuple((p << 16, (p << 16) + 0xFFFD) for p in range(1, 14))
    assert UCSCHAR_RANGES[16:] == ((0xE1000, 0xEFFFD),)
    assert IPRIVATE_RANGES == ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
    assert TAG_RANGE == (0xE0000, 0xE0FFF)


@pytest.mark.parametrize("cp", UCS_EDGES, ids=hex)
def test_ucschar_edges_are_in(cp: int) -> None:
    assert is_ucschar(chr(cp)) and group(chr(cp)) is Group.UCSCHAR
    for where in ("a:x{}", "a:?{}", "a:#{}", "//{}", "//{}@h", "{}"):
        text = where.format(chr(cp))
        assert scan(text).errors == (), (hex(cp), text)
        assert scan(text, profile="iri-3987bis").errors == ()
    assert path_codes(cp, "uri") == [(E.NON_ASCII_IN_URI, 3)]


@pytest.mark.parametrize("cp", UCS_NEIGHBOURS, ids=hex)
def test_ucschar_neighbours_are_out(cp: int) -> None:
    assert not is_ucschar(chr(cp))
    assert path_codes(cp) == [(expected_code(cp), 3)]
    assert [(e.code, e.position) for e in scan(f"//{chr(cp)}").errors] == [(expected_code(cp), 2)]


IPRIVATE_EDGES = sorted({cp for lo, hi in IPRIVATE_RANGES for cp in (lo, hi)})


@pytest.mark.parametrize("cp", IPRIVATE_EDGES, ids=hex)
def test_iprivate_edges(cp: int) -> None:
    assert is_iprivate(chr(cp)) and group(chr(cp)) is Group.IPRIVATE
    assert query_codes(cp) == []
    assert query_codes(cp, "iri-3987bis") == []
    assert path_codes(cp) == [(E.PRIVATE_USE, 3)]
    assert query_codes(cp, "uri") == [(E.NON_ASCII_IN_URI, 3)]


@pytest.mark.parametrize("cp", [0xDFFF, 0xF900, 0xEFFFF, 0xFFFFE, 0xFFFFF, 0x10FFFE, 0x10FFFF],
                         ids=hex)
def test_iprivate_neighbours(cp: int) -> None:
    assert not is_iprivate(chr(cp))
    expected = [] if group(chr(cp)) is Group.UCSCHAR else [(expected_code(cp), 3)]
    assert query_codes(cp) == expected


@pytest.mark.parametrize("cp", [0xE0000, 0xE0FFF], ids=hex)
def test_tag_edges(cp: int) -> None:
    assert group(chr(cp)) is Group.TAG
    assert is_iprivate(chr(cp), bis=True) and not is_iprivate(chr(cp))
    assert query_codes(cp, "iri-3987bis") == []
    assert query_codes(cp) == [(E.TAG, 3)]
    assert path_codes(cp, "iri-3987bis") == [(E.TAG, 3)]


@pytest.mark.parametrize("cp", [0xDFFFD, 0xE1000], ids=hex)
def test_tag_neighbours_are_ucschar(cp: int) -> None:
    assert group(chr(cp)) is Group.UCSCHAR
    assert path_codes(cp) == []


@pytest.mark.parametrize("cp", [0xD800, 0xDBFF, 0xDC00, 0xDFFF], ids=hex)
def test_surrogates(cp: int) -> None:
    assert group(chr(cp)) is Group.SURROGATE
    assert path_codes(cp) == [(E.SURROGATE, 3)]
    assert query_codes(cp) == [(E.SURROGATE, 3)]
    assert path_codes(cp, "uri") == [(E.SURROGATE, 3)]


NONCHARS = [0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF] + [(p << 16) | low for p in range(1, 17)
                                               for low in (0xFFFE, 0xFFFF)]


@pytest.mark.parametrize("cp", NONCHARS, ids=hex)
def test_noncharacters_of_every_plane(cp: int) -> None:
    assert is_noncharacter(cp) and group(chr(cp)) is Group.NONCHAR
    assert path_codes(cp) == [(E.NONCHARACTER, 3)]
    assert query_codes(cp) == [(E.NONCHARACTER, 3)]
    assert query_codes(cp, "iri-3987bis") == [(E.NONCHARACTER, 3)]
    assert path_codes(cp, "uri") == [(E.NONCHARACTER, 3)]


@pytest.mark.parametrize("cp", [0xFDCF, 0xFDF0, 0xFFFD - 0x10000 + 0x20000, 0x1FFFD], ids=hex)
def test_noncharacter_neighbours(cp: int) -> None:
    assert not is_noncharacter(cp)


@pytest.mark.parametrize("cp", [0xFFF0, 0xFFF8, 0xFFF9, 0xFFFC, 0xFFFD], ids=hex)
def test_specials(cp: int) -> None:
    assert group(chr(cp)) is Group.SPECIAL
    assert path_codes(cp) == [(E.SPECIAL, 3)]
    assert query_codes(cp) == [(E.SPECIAL, 3)]


def test_special_neighbours() -> None:
    assert group("\uffef") is Group.UCSCHAR
    assert group("\ufffe") is Group.NONCHAR


@pytest.mark.parametrize("cp", [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)], ids=hex)
def test_controls(cp: int) -> None:
    assert group(chr(cp)) is Group.CONTROL
    assert path_codes(cp) == [(E.CONTROL, 3)]
    assert query_codes(cp) == [(E.CONTROL, 3)]
    assert path_codes(cp, "uri") == [(E.CONTROL, 3)]


def test_nbsp_is_ucschar() -> None:
    assert group("\xa0") is Group.UCSCHAR
    assert path_codes(0xA0) == []
    assert path_codes(0xA0, "uri") == [(E.NON_ASCII_IN_URI, 3)]


@pytest.mark.parametrize(("c", "code", "g"), [
    (" ", E.SPACE, Group.SPACE),
    ("<", E.DELIMITER, Group.DELIM), (">", E.DELIMITER, Group.DELIM), ('"', E.DELIMITER, Group.DELIM),
    *[(c, E.UNWISE, Group.UNWISE) for c in "\\^`{|}"],
])
def test_ascii_groups_everywhere(c: str, code: str, g: Group) -> None:
    assert group(c) is g
    for text, pos in ((f"{c}a:b", 0), (f"a{c}:b", 1), (f"//{c}", 2), (f"//{c}@h", 2),
                      (f"//h:{c}", 4), (f"a:{c}", 2), (f"a:?{c}", 3), (f"a:#{c}", 3),
                      (f"//[{c}::1]", 3), (f"{c}", 0)):
        for profile in ("uri", "iri", "iri-3987bis"):
            assert [(e.code, e.position) for e in scan(text, profile=profile).errors] == [(code, pos)], text


def test_every_ascii_character_has_a_group() -> None:
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=")
    for cp in range(128):
        c = chr(cp)
        in_path = scan(f"a:x{c}").errors
        if c in allowed or c in ":@/?#%":
            # '%' alone is malformed; '?' and '#' start components
            assert not in_path or c == "%"
        else:
            assert in_path, repr(c)


def test_group_covers_every_code_point_kind() -> None:
    samples = {0x41: Group.UNRESERVED, 0x2F: Group.GEN_DELIM, 0x21: Group.SUB_DELIM,
               0x25: Group.PERCENT, 0x5B: Group.GEN_DELIM, 0x10FFFD: Group.IPRIVATE}
    for cp, g in samples.items():
        assert group(chr(cp)) is g


@pytest.mark.parametrize(("c", "label"), [
    ("A", "U+0041 LATIN CAPITAL LETTER A"),
    ("\x00", "U+0000 <control-0000>"),
    ("\x9f", "U+009F <control-009F>"),
    ("\ud800", "U+D800 <surrogate-D800>"),
    ("\ufffe", "U+FFFE <noncharacter-FFFE>"),
    ("\ue000", "U+E000 <private-use-E000>"),
    ("\U0010fffd", "U+10FFFD <private-use-10FFFD>"),
    ("\U0001f600", "U+1F600 GRINNING FACE"),
    ("\U000e0001", "U+E0001 LANGUAGE TAG"),
    ("\U0003fffd", "U+3FFFD <reserved-3FFFD>"),
])
def test_char_label(c: str, label: str) -> None:
    assert char_label(c) == label


@given(st.text(max_size=30))
def test_pct_encode_is_utf8_octets_in_uppercase_hex(s: str) -> None:
    # RFC 3987 sec. 3.1 step 2: each octet as %HH, uppercase hex
    expected = "".join(f"%{b:02X}" for b in s.encode("utf-8", "surrogatepass"))
    assert pct_encode(s, errors="surrogatepass") == expected


def test_pct_encode_examples() -> None:
    assert pct_encode("") == ""
    assert pct_encode(" ") == "%20"
    assert pct_encode("é€𝄞") == "%C3%A9%E2%82%AC%F0%9D%84%9E"
    with pytest.raises(UnicodeEncodeError):
        pct_encode("\ud800")
