"""IRI605 http-to-hsts-host: an http IRI to a host that is on the HSTS preload list."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator

from ...core.reference import HostKind
from ..facts import Facts
from ..model import Edit, Example, Family, FixLevel, Raw, Rule, Severity

RULE = Rule(
    code="IRI605",
    name="http-to-hsts-host",
    family=Family.SCHEME,
    summary="`http:` IRI to a host on the HSTS preload list",
    section="RFC 6797 sec. 8.3, 12.3",
    severity=Severity.WARNING,
    default=False,
    fix_level=FixLevel.NONE,
    what=("An `http://` IRI whose host (a registered name, not an IP address) is on the HSTS preload list "
          "that browsers ship, such as `github.com` or any host under `.dev`. The list comes from Chromium, as "
          "the `hstspreload` package carries it (`iri-lint[hsts]`); without that package the rule finds "
          "nothing. A one-label host (`http://foo/`) is a local name and a host with a template hole is never "
          "judged. The fix writes `https:` when the IRI names "
          "no port."),
    why=("A preloaded host promises to serve only HTTPS (RFC 6797 sec. 12.3): browsers rewrite `http:` to "
         "`https:` before any request goes out (sec. 8.3), but Python clients such as urllib and requests do "
         "not, so the program makes a plain-text request that the server answers with a redirect at best, "
         "and that an attacker on the path can read or answer. The `https:` IRI names what the browser "
         "would fetch."),
    fix_text="Write `https:`; the host serves nothing else.",
    valid=(Example("https://github.com/"), Example("http://example.com/"), Example("http://127.0.0.1/"),
           Example("http://foo/")),
    invalid=(Example("http://github.com/python/cpython", "https://github.com/python/cpython"),
             Example("http://app.dev:8080/")),
)


@functools.cache
def _preloaded() -> Callable[[str], bool] | None:
    """``hstspreload.in_hsts_preload`` (Chromium's list), or None when the extra is not installed."""
    try:
        module = importlib.import_module("hstspreload")
    except ImportError:
        return None
    check: Callable[[str], bool] = module.in_hsts_preload
    return functools.lru_cache(maxsize=4096)(check)


def check(facts: Facts) -> Iterator[Raw]:
    """An http IRI to a preloaded host: from the scheme to the end of the host."""
    ref = facts.ref
    scheme, host = ref.scheme, ref.host
    if scheme is None or host is None or ref.host_kind is not HostKind.REG_NAME or ref.error_records:
        return
    text = ref.text
    name = text[host.start : host.end].rstrip(".")
    if text[scheme.start : scheme.end].lower() != "http" or not name.isascii() or "." not in name:
        return  # a one-label host ('http://foo/') is a local name, not the TLD the list may name
    preloaded = _preloaded()
    if preloaded is None or not preloaded(name.lower()):
        return
    edits = None if ref.port is not None else (Edit(scheme.start, scheme.end, "https"),)
    yield Raw(scheme.start, host.end, f"{name!r} is on the HSTS preload list: it serves only HTTPS and browsers "
              "never send it 'http:' (RFC 6797 sec. 8.3, 12.3); write 'https:'", edits)
