"""Hypothesis strategies for IRIs: from the RFC 3987 grammar (sec. 2.2), and from raw Unicode.

The grammar strategies build every component from valid pieces and from the near misses real code
holds (stray ``%``, non-ASCII digits, bidi controls, surrogates, private use, tags, look-alikes),
so most examples are almost-IRIs: the inputs where a validator's edges are.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from iri_lint.core.grammar import KINDS, Profile

# `pytest -m fuzz` runs only the property tests, with many more examples (tests/conftest.py)
FUZZ = os.environ.get("IRI_LINT_FUZZ") == "1"
PROPERTY = settings(
    max_examples=int(os.environ.get("IRI_LINT_FUZZ_EXAMPLES", "20000")) if FUZZ else 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    derandomize=not FUZZ,  # the quick profile is reproducible in CI; the long one explores
    database=None if not FUZZ or settings.default is None else settings.default.database,
)

PROFILES = tuple(Profile)
kinds = st.sampled_from(KINDS)
profiles = st.sampled_from(PROFILES)

# near misses and hazards, each one "character" of a component
_HAZARDS = [
    "%", "%4", "%G1", "%%", "%7e", "%41", "%2F", "%2E", "%2e%2E", "%25", "%C3%BC", "%c3%bc", "%E9",
    "%C0%AF", "%ED%A0%80", "%F4%8F%BF%BF", "%E2%80%AE", "%00",
    " ", "\t", "\n", "\r", "\x00", "\x7f", "\x85", "<", ">", '"', "\\", "^", "`", "{", "}", "|",
    "\u00b2", "\u0660", "\u0668", "\uff10", "\u0663",  # digits int() reads, the grammar does not
    "\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c",  # bidi controls
    "\u05d0", "\u05d1\u05d2", "\u0627", "\u0645\u062b\u0627\u0644",  # right-to-left text
    "\u200b", "\u200c", "\u200d", "\u00ad", "\ufeff", "\u00a0", "\u3000", "\u2028",  # invisible
    "\ud800", "\udfff", "\ue000", "\U000f0000", "\U0010fffd", "\U000e0041", "\U000e007f",
    "\ufffe", "\uffff", "\U0001fffe", "\ufdd0", "\ufff9",  # private use, tags, nonchars, specials
    "\uff48", "\uff0f", "\u2215", "\u2044", "\uff1a", "\u0430", "\u0440", "\u04cf", "\u0455",
    "e\u0301", "\u00e9", "\u212b", "\ufb01", "\u1e9b\u0323",  # NFC / NFKC
    ".", "..", "/", "?", "#", "@", ":", "[", "]", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";",
    "=", "~", "_", "-",
]
_UNRESERVED = "abcxyzABCXYZ0189-._~"
_ucs = st.characters(min_codepoint=0xA0, max_codepoint=0x10FFFF)
_piece = st.one_of(
    st.sampled_from(list(_UNRESERVED)),
    st.sampled_from(_HAZARDS),
    _ucs,
)


def _joined(piece: st.SearchStrategy[str], max_size: int) -> st.SearchStrategy[str]:
    return st.lists(piece, max_size=max_size).map("".join)


schemes = st.one_of(
    st.sampled_from(["http", "https", "HTTP", "hTtP", "ftp", "ftps", "file", "mailto", "urn", "tag",
                     "foo", "a+b.c-d", "s3", "gs", "postgresql+psycopg2", "xmpp", "data", "ws", "htps",
                     "1http", "ht\u00e9tp", ""]),
    st.from_regex(r"[A-Za-z][A-Za-z0-9+.-]{0,8}", fullmatch=True),
)
_dec_octet = st.one_of(st.integers(0, 255).map(str), st.sampled_from(["256", "00", "01", "999", "\u0661"]))
ipv4 = st.lists(_dec_octet, min_size=3, max_size=5).map(".".join)
_h16 = st.one_of(st.sampled_from(["0", "1", "db8", "ffff", "FFFF", "2001", "fe80", "12345", "g"]),
                 st.from_regex(r"[0-9a-fA-F]{1,4}", fullmatch=True))
ipv6 = st.one_of(
    st.lists(_h16, min_size=1, max_size=9).map(":".join),
    st.tuples(st.lists(_h16, max_size=4).map(":".join), st.lists(_h16, max_size=4).map(":".join))
    .map(lambda t: f"{t[0]}::{t[1]}"),
    st.tuples(st.lists(_h16, max_size=5).map(":".join), ipv4).map(lambda t: f"{t[0]}::{t[1]}"),
)
zone = st.sampled_from(["", "%25eth0", "%25en1", "%eth0", "%25", "%25%C3%BC", "%2525"])
ip_literal = st.one_of(
    st.tuples(ipv6, zone).map(lambda t: f"[{t[0]}{t[1]}]"),
    st.sampled_from(["[v1.x]", "[vF.a:b]", "[v.x]", "[v1.]", "[::1", "[]", "[fe80::1%25eth0]"]),
)
labels = st.one_of(
    st.sampled_from(["example", "EXAMPLE", "com", "xn--r8jz45g", "xn--n3h", "xn--zz", "xn--",
                     "b\u00fccher", "\u4f8b\u3048", "\u0430\u0440\u0440\u04cf\u0435",
                     "p\u0430ypal", "\u0440\u0430\u0443\u0440\u0430\u04cf", "\u05d0\u05d1", "1", "-a", "a-",
                     "a_b", "", "localhost", "\u00df", "\u03c2", "r%C3%A9sum%C3%A9", "%zz", "\uff41"]),
    _joined(_piece, 6),
)
reg_name = st.lists(labels, min_size=1, max_size=4).map(".".join)
hosts = st.one_of(reg_name, ipv4, ip_literal)
ports = st.one_of(st.none(), st.sampled_from(["", "80", "443", "080", "8080", "65536", "99999",
                                              "\u00b2\u00b2", "\u0668\u0660", "a"]),
                  st.integers(0, 70000).map(str))
userinfo = st.one_of(st.none(), st.sampled_from(["user", "user:pass", "u:p:q", "***:***", "%40:%3A", "\u00fc"]),
                     _joined(_piece, 5))
segment = st.one_of(st.sampled_from([".", "..", "", "%2E", "%2e%2E"]), _joined(_piece, 6))


@st.composite
def grammar_iris(draw: st.DrawFn) -> str:
    """An IRI reference built component by component (RFC 3987 sec. 2.2), with near misses."""
    out = ""
    scheme = draw(st.one_of(st.none(), schemes))
    if scheme is not None:
        out += scheme + ":"
    if draw(st.booleans()):
        out += "//"
        info = draw(userinfo)
        if info is not None:
            out += info + "@"
        out += draw(hosts)
        port = draw(ports)
        if port is not None:
            out += ":" + port
        path = draw(st.lists(segment, max_size=5))
        out += "".join("/" + s for s in path)
    else:
        path = draw(st.lists(segment, max_size=5))
        out += ("/" if draw(st.booleans()) else "") + "/".join(path)
    if draw(st.booleans()):
        out += "?" + draw(_joined(_piece, 8))
    if draw(st.booleans()):
        out += "#" + draw(_joined(_piece, 6))
    if draw(st.integers(0, 9)) == 0:  # surrounding whitespace, as literals in real code have
        out = draw(st.sampled_from(["", " ", "\n", "\t"])) + out + draw(st.sampled_from(["", " ", "\n    "]))
    return out


raw_text = st.text(max_size=40)
any_iri = st.one_of(grammar_iris(), grammar_iris(), raw_text)
