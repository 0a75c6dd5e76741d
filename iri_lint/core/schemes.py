"""What the engine knows about schemes: the IANA registry, schemes in wide use it does not list, and
likely typos of common schemes."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from ..data.schemes import REGISTERED, WIDELY_USED

COMMON = ("http", "https", "ftp", "ws", "wss", "mailto", "file")
# the schemes whose '//' always starts a host (RFC 7230 sec. 2.7, RFC 6455 sec. 3, RFC 1738 sec. 3.2): another
# scheme before a whole URL is a wrapper that hands the URL on (``hls://https://...``, ``pmtiles://https://...``)
WEB_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})


def _one_edit(word: str) -> Iterator[str]:
    """Every string one edit (insert, delete, substitute, transpose) away from ``word``."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(len(word) + 1):
        for c in letters:
            yield word[:i] + c + word[i:]
        if i < len(word):
            yield word[:i] + word[i + 1 :]
            for c in letters:
                yield word[:i] + c + word[i + 1 :]
        if i < len(word) - 1:
            yield word[:i] + word[i + 1] + word[i] + word[i + 2 :]


@functools.cache
def scheme_typos() -> dict[str, str]:
    """Unregistered one-edit variants of the common schemes ("htps" -> "https"), built on first use.

    A scheme someone uses (registered or in ``WIDELY_USED``) is never a typo, nor is any of two
    letters: ``ftps`` is FTP over TLS, not a typo of ``ftp``, and ``gs`` (Google Cloud Storage) is
    not one of ``ws``; correcting either would change what the IRI means. Nor is a common scheme with an
    ``s`` added, the usual name of its variant over TLS (``https``, ``wss``, ``ftps``, ``ldaps``; apprise's
    ``mailtos``), which a project may define for itself; ``httpss`` is a typo still. Nor is a letter changed in a
    scheme of three letters (``ntp``, ``ztp`` beside ``ftp``): one more acronym, more often another protocol or a
    test's unknown scheme than a slip of the finger."""
    known = REGISTERED | WIDELY_USED | set(COMMON)
    table: dict[str, str] = {}
    for good in COMMON:
        for bad in _one_edit(good):
            if bad not in known and len(bad) > 2 and not (bad == good + "s" and not good.endswith("s")) \
                    and not (len(bad) == len(good) <= 3):
                table.setdefault(bad, good)
    for good in ("http", "https"):
        table.setdefault(good + good[-1], good)  # "httpp", "httpss"
    return table


def port_after(text: str, colon: int) -> int:
    """Where the one to five digits after the ':' at ``colon`` end, when they end ``text`` or come before '/', '?'
    or '#': ``localhost:8080/healthz`` is a host and its port the grammar reads as a scheme and a path (RFC 3986
    sec. 3.1, 3.2.3); 0 for anything else (``admin:index``, ``tel:5551234x``)."""
    end = start = colon + 1
    while end < len(text) and end - start < 6 and "0" <= text[end] <= "9":
        end += 1
    return end if 0 < end - start <= 5 and text[end : end + 1] in ("", "/", "?", "#") else 0


def windows_path(text: str) -> str | None:
    """The kind of Windows path ``text`` starts as, which a URL API reads as a URL: ``"drive"`` (``C:\\Users``, its
    letter read as the scheme, as ``port_after``'s host is), ``"unc"`` (``\\\\server\\share``, a relative path);
    None when it is none."""
    if text[1:3] == ":\\" and text[:1].isascii() and text[:1].isalpha():
        return "drive"
    return "unc" if text.startswith("\\\\") and text[2:3] not in ("", "\\") else None

