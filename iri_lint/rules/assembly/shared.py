"""What the assembly rules share: query parameters whose values are URLs or paths by convention, the start of a
URL with an authority."""

from __future__ import annotations

import re

# Query parameters that carry a URL by convention: OAuth's redirect_uri (RFC 6749 sec. 3.1.2), CAS's service,
# SAML's RelayState, OpenID's return_to, and the next/continue/callback of login and proxy endpoints.
URL_PARAMETERS = frozenset({"next", "redirect", "redirectto", "return", "returnto", "continue", "callback",
                            "dest", "destination", "target", "goto", "service", "relaystate", "location", "src"})
# ... and those that carry a path: an object store's listing prefix, a file browser's folder
PATH_PARAMETERS = frozenset({"path", "prefix", "dir", "folder", "file"})


def names_url(name: str) -> bool:
    """Whether a query parameter's name says its value is a URL (``url``, ``redirect_uri``, ``next``)."""
    key = name.lower().replace("_", "").replace("-", "")
    return key.endswith(("url", "uri", "href", "link")) or key in URL_PARAMETERS


# a scheme and '//' where a piece starts: a URL of its own (RFC 3986 sec. 3.1, 3.2)
SCHEME_AND_SLASHES = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+://")
