"""Reference resolution (RFC 3986 sec. 5.2) applied to IRIs (RFC 3987 sec. 6.5), in linear time.

Non-ASCII characters are treated like unreserved ones (sec. 6.5): the algorithm only looks at
``/``, ``.``, ``?`` and ``#``. One deliberate addition to RFC 3986 5.3: when the target has no
authority and its path starts with ``//`` (e.g. ``/..//x`` against ``foo:/a``), ``/.`` is put
before the path so the result does not read as an authority (RFC 3986 errata 4005 / WHATWG).
"""

from __future__ import annotations

from .reference import IRIReference
from .scanner import scan

__all__ = ["remove_dot_segments", "resolve"]


def remove_dot_segments(path: str) -> str:
    """RFC 3986 sec. 5.2.4, with a segment stack instead of string rebuilding (linear time)."""
    if "." not in path:
        return path
    out: list[str] = []  # output buffer as segments, each with its leading "/" (if any)
    i, n = 0, len(path)
    while i < n:
        if path.startswith("../", i):  # A
            i += 3
        elif path.startswith("./", i):  # A
            i += 2
        elif path.startswith("/./", i):  # B: "/./" -> "/"
            i += 2
        elif path.startswith("/.", i) and i + 2 == n:  # B: "/." at the end -> "/"
            out.append("/")
            break
        elif path.startswith("/../", i):  # C: "/../" -> "/", drop the last output segment
            i += 3
            if out:
                out.pop()
        elif path.startswith("/..", i) and i + 3 == n:  # C: "/.." at the end -> "/"
            if out:
                out.pop()
            out.append("/")
            break
        elif (path.startswith(".", i) and i + 1 == n) or (path.startswith("..", i) and i + 2 == n):
            break  # D
        else:  # E: move the first segment, with its leading "/", to the output
            j = path.find("/", i + 1 if path[i] == "/" else i)
            if j < 0:
                j = n
            out.append(path[i:j])
            i = j
    return "".join(out)


def _merge(base: IRIReference, ref_path: str) -> str:
    """RFC 3986 sec. 5.2.3."""
    base_path = base.get("path") or ""
    if base.authority is not None and not base_path:
        return "/" + ref_path
    slash = base_path.rfind("/")
    return base_path[: slash + 1] + ref_path


def resolve(base: str, reference: str, *, strict: bool = True) -> str:
    """Resolve ``reference`` against the absolute IRI ``base`` (RFC 3986 sec. 5.2; RFC 3987 6.5).

    ``strict=False`` ignores a reference's scheme equal to the base's (case-insensitively), the
    backwards-compatible behaviour RFC 3986 5.2.2 allows. The base's fragment is ignored (5.2.1).
    Inputs are not validated; a base without a scheme raises ValueError.
    """
    b = scan(base)
    if b.scheme is None:
        raise ValueError(f"the base {base!r} has no scheme; RFC 3986 sec. 5.2.1 requires an "
                         "absolute base IRI")
    r = scan(reference)
    r_scheme = r.get("scheme")
    b_scheme = b.get("scheme") or ""
    if not strict and r_scheme is not None and r_scheme.lower() == b_scheme.lower():
        r_scheme = None
    r_path = r.get("path") or ""
    authority: str | None
    if r_scheme is not None:
        scheme, authority = r_scheme, r.get("authority")
        path, query = remove_dot_segments(r_path), r.get("query")
    else:
        scheme = b_scheme
        if r.authority is not None:
            authority = r.get("authority")
            path, query = remove_dot_segments(r_path), r.get("query")
        else:
            authority = b.get("authority")
            if not r_path:
                path = b.get("path") or ""
                query = r.get("query") if r.query is not None else b.get("query")
            else:
                if r_path.startswith("/"):
                    path = remove_dot_segments(r_path)
                else:
                    path = remove_dot_segments(_merge(b, r_path))
                query = r.get("query")
    fragment = r.get("fragment")
    # sec. 5.3 component recomposition
    out = [scheme, ":"]
    if authority is not None:
        out += ["//", authority]
    elif path.startswith("//"):
        out.append("/.")  # keep "//" from reading as an authority (see the module docstring)
    out.append(path)
    if query is not None:
        out += ["?", query]
    if fragment is not None:
        out += ["#", fragment]
    return "".join(out)
