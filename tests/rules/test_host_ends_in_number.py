"""IRI509: a host that ends in a number but is no dotted-decimal IPv4 address (RFC 3986 sec. 7.4)."""

from __future__ import annotations

import socket
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from iri_lint.config import Config
from iri_lint.lint import lint_text

SELECTED = Config(extend_select=("IRI509",))


def _found(source: str) -> list[tuple[int, int, str]]:
    return [(f.line, f.col, f.finding.message) for f in lint_text(source, SELECTED) if f.code == "IRI509"]


@st.composite
def _written(draw: st.DrawFn) -> str:
    """An IPv4 address written as inet_aton also reads it: 1 to 4 parts, each decimal, octal or hex."""
    parts = draw(st.integers(1, 4))
    address = draw(st.integers(0, 2**32 - 1))
    widths = [1] * (parts - 1) + [5 - parts]  # the last part fills the bytes the others leave
    numbers, shift = [], 32
    for width in widths:
        shift -= 8 * width
        numbers.append(address >> shift & (256**width - 1))
    forms = [draw(st.sampled_from(("{:d}", "0{:o}", "0x{:x}", "0X{:X}"))).format(n) for n in numbers]
    return ".".join(forms)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's inet_aton is the reference")
@given(_written())
def test_the_address_named_is_the_one_inet_aton_reads(host: str) -> None:
    canonical = socket.inet_ntoa(socket.inet_aton(host))
    found = _found(f"URL = 'http://{host}/'\n")
    if host == canonical:
        assert found == []  # the dotted-decimal IPv4address of RFC 3986 sec. 3.2.2
    else:
        assert len(found) == 1 and f"read it as {canonical} " in found[0][2], (host, found)


@pytest.mark.parametrize(("url", "says"), [
    ("http://127.1/", "read it as 127.0.0.1 (2 parts"),
    ("http://192.168.010.010/", "read it as 192.168.8.8 (a leading 0 is octal)"),
    ("http://0x7f.0.0.1:8080/", "read it as 127.0.0.1 (0x is hexadecimal)"),
    ("http://2130706433/", "read it as 127.0.0.1 (1 part"),
    ("http://1.2.3.4./", "read it as 1.2.3.4 (the final dot"),
    ("http://%31%32%37.0.0.1/", "read it as 127.0.0.1 (once percent-decoded)"),
    ("http://192.168.1.300/", "no IPv4 address (a part is too large)"),
    ("http://127.0.0.0x100/", "no IPv4 address (a part is too large)"),
    ("http://example.123/", "ends in a number"),
    ("http://1.2.3.4.5/", "ends in a number"),
    ("http://1.2.3.09/", "ends in a number"),  # 09 is no octal number: browsers reject the URL
])
def test_each_reading_is_named(url: str, says: str) -> None:
    [(line, col, message)] = _found(f"URL = {url!r}\n")
    assert (line, col) == (1, 14) and says in message and "RFC 3986 sec." in message


@pytest.mark.parametrize("url", [
    "http://127.0.0.1/", "http://10.0.0.1.nip.io/", "https://example.com/", "http://[::1]:8000/",
    "urn:example:127.1", "mailto:user@127.1", "http://localhost:8080/",
    "http://0:0:0:0:0:0:0:1]/",  # an unbracketed IPv6 address: the port's syntax error is the finding
    "http://%C0%80.1/",  # does not decode: IRI402's
])
def test_silent_on_addresses_names_and_other_schemes(url: str) -> None:
    assert _found(f"URL = {url!r}\n") == []


def test_a_hole_in_the_host_is_not_a_number() -> None:
    src = ("import requests\n"
           "def f(ip, x, port):\n"
           "    requests.get(f'http://{ip}:8080/')\n"
           "    requests.get('http://%s/' % ip)\n"
           "    requests.get(f'http://127.{x}/')\n"
           "    requests.get('http://' + ip + '/a')\n"
           "    requests.get('http://127.1:%d/' % port)\n")
    assert [(line, col) for line, col, _ in _found(src)] == [(7, 25)]


def test_opt_in() -> None:
    assert not [f for f in lint_text("URL = 'http://127.1/'\n", Config()) if f.code == "IRI509"]
