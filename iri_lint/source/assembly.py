"""How code assembles URLs from values: joins, ``urljoin`` (RFC 3986 sec. 5.2), client base URLs, yarl.

Every operation works on the pieces, so known characters keep their literal wherever they land. With
holes, an operation is carried out only when known text decides its structure, on one convention: a
hole holds no delimiter that would end the component it stands in (a host hole holds no ``/``, a path
hole may hold ``/`` but no ``?`` or ``#``). Otherwise the result is a hole standing for the call.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple
from urllib.parse import quote, quote_plus

from iri_lint.core.resolve import remove_dot_segments
from iri_lint.source.values import Client, Hole, HoleKind, Src, Text, Value, concat, each_choice, hole, made, may_hold

__all__ = [
    "Parts", "dot_segment_spans", "httpx_merge", "join", "posix_join", "quoted", "removeaffix", "split",
    "strip", "urljoin", "urljoin_drops", "yarl_child", "yarl_with_path",
]

_DELIM = re.compile(r"[:/?#]")
_SCHEME_START = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.\-]*+)?+")  # (what a scheme may begin with, RFC 3986 sec. 3.1)
_PATH_END = re.compile(r"[?#]")
_AUTHORITY_END = re.compile(r"[/?#]")
# characters yarl leaves as they are in a path (RFC 3986 pchar and "/", "%" aside)
_YARL_PATH_SAFE = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/]*+")


class Parts(NamedTuple):
    """RFC 3986 appendix B: component spans over a flat value, delimiters excluded (None: absent)."""

    scheme: tuple[int, int] | None
    authority: tuple[int, int] | None
    path: tuple[int, int]
    query: tuple[int, int] | None
    fragment: tuple[int, int] | None


def split(s: str) -> Parts:
    """Split a reference as RFC 3986 appendix B does (linear: each delimiter is searched once)."""
    n = len(s)
    m = _DELIM.search(s)
    scheme = None
    i = 0
    if m is not None and m.group() == ":" and m.start() > 0:
        scheme, i = (0, m.start()), m.end()
    authority = None
    if s.startswith("//", i):
        e = _AUTHORITY_END.search(s, i + 2)
        end = e.start() if e is not None else n
        authority, i = (i + 2, end), end
    e = _PATH_END.search(s, i)
    path_end = e.start() if e is not None else n
    path = (i, path_end)
    query = fragment = None
    i = path_end
    if i < n and s[i] == "?":
        h = s.find("#", i + 1)
        end = h if h >= 0 else n
        query, i = (i + 1, end), end
    if i < n and s[i] == "#":
        fragment = (i + 1, n)
    return Parts(scheme, authority, path, query, fragment)


def _decided(value: Value) -> bool:
    """Whether known text decides where the value's scheme ends: its first ``:/?#`` comes before any hole
    that may hold one (or it has neither), or what comes before that hole is no scheme's beginning. Such a
    hole first could hold a ``:`` that makes what precedes it a scheme; a number's digits
    (``"page-%d.html" % n``) or what ``quote()`` encodes cannot."""
    first_hole = next((i for i, h in value.holes() if may_hold(h, ":/?#")), None)
    if first_hole is None:
        return True
    text = value.flat()
    m = _DELIM.search(text)
    # (nor when the text before that hole begins no scheme: ``"{" + key + "}/values"``, fixtures187 repro 03)
    return (m is not None and m.start() < first_hole) or _SCHEME_START.fullmatch(text, 0, first_hole) is None


def dot_segment_spans(path: str) -> list[tuple[int, int]]:
    """RFC 3986 sec. 5.2.4 as the spans of ``path`` that make up the output (``core.resolve``'s loop, but
    keeping where each output character comes from): joined, they equal ``remove_dot_segments(path)``."""
    if "." not in path:
        return [(0, len(path))] if path else []
    out: list[tuple[int, int]] = []
    i, n = 0, len(path)
    while i < n:
        if path.startswith("../", i):  # A
            i += 3
        elif path.startswith("./", i):  # A
            i += 2
        elif path.startswith("/./", i):  # B: "/./" -> "/"
            i += 2
        elif path.startswith("/.", i) and i + 2 == n:  # B: "/." at the end -> "/"
            out.append((i, i + 1))
            break
        elif path.startswith("/../", i):  # C: "/../" -> "/", drop the last output segment
            i += 3
            if out:
                out.pop()
        elif path.startswith("/..", i) and i + 3 == n:  # C: "/.." at the end -> "/"
            if out:
                out.pop()
            out.append((i, i + 1))
            break
        elif (path.startswith(".", i) and i + 1 == n) or (path.startswith("..", i) and i + 2 == n):
            break  # D
        else:  # E: move the first segment, with its leading "/", to the output
            j = path.find("/", i + 1 if path[i] == "/" else i)
            if j < 0:
                j = n
            out.append((i, j))
            i = j
    return out


def _remove_dots(path: Value, node: ast.AST, src: Src | None) -> Value:
    """remove_dot_segments on a path value (a hole is an ordinary segment character)."""
    spans = dot_segment_spans(path.flat())
    if spans == [(0, len(path))]:
        return path
    return concat((path.slice(a, b) for a, b in spans), node, src)


def _span(value: Value, span: tuple[int, int] | None, before: int = 0) -> Value:
    """A component with ``before`` delimiter characters in front of it (empty when absent)."""
    if span is None:
        return Value()
    return value.slice(span[0] - before, span[1])


def urljoin(base: Value, ref: Value, node: ast.AST, src: Src | None, *, as_type: str = "str") -> Value:
    """Resolve ``ref`` against ``base`` (RFC 3986 sec. 5.2.2, as ``core.resolve.resolve``), on pieces.

    A hole when known text does not decide the structure: the reference's first delimiter or the
    base's scheme behind a hole, or a hole in the base's last path segment when the reference merges
    with it (sec. 5.2.3: the hole could hold a ``/``)."""
    if not _decided(ref) or not _decided(base):
        return hole(node, src, as_type=as_type)
    bs, rs = base.flat(), ref.flat()
    b, r = split(bs), split(rs)
    if not _resolvable(bs, b):
        return hole(node, src, as_type=as_type)
    fragment = _span(ref, r.fragment, 1)
    if r.scheme is not None:
        scheme, authority = _span(ref, r.scheme), _span(ref, r.authority, 2)
        path, query = _remove_dots(_span(ref, r.path), node, src), _span(ref, r.query, 1)
        has_authority = r.authority is not None
    else:
        scheme = _span(base, b.scheme)
        if r.authority is not None:
            authority, has_authority = _span(ref, r.authority, 2), True
            path, query = _remove_dots(_span(ref, r.path), node, src), _span(ref, r.query, 1)
        else:
            authority, has_authority = _span(base, b.authority, 2), b.authority is not None
            if r.path[0] == r.path[1]:
                path = _span(base, b.path)
                query = _span(ref, r.query, 1) if r.query is not None else _span(base, b.query, 1)
            else:
                query = _span(ref, r.query, 1)
                ref_path = _span(ref, r.path)
                if rs.startswith("/", r.path[0]):
                    path = _remove_dots(ref_path, node, src)
                else:
                    merged = _merge(base, b, ref_path, node, src)
                    if merged is None:
                        return hole(node, src, as_type=as_type)
                    path = _remove_dots(merged, node, src)
    colon = ref.slice(r.scheme[1], r.scheme[1] + 1) if r.scheme is not None else \
        base.slice(b.scheme[1], b.scheme[1] + 1) if b.scheme is not None else Value()
    out = [scheme, colon, authority]
    if not has_authority and path.flat().startswith("//"):
        out.append(made("/.", node, src))  # (as core.resolve: "//" must not read as an authority)
    out += [path, query, fragment]
    return concat(out, node, src, as_type=as_type)


def _resolvable(bs: str, b: Parts) -> bool:
    """Whether urllib's ``urljoin`` resolves against a base as RFC 3986 sec. 5.2 does: an absolute URI, or a
    reference whose path is absolute (``/static``, ``//cdn.example/a``: Django's ``STATIC_URL``); against a
    relative path (``en/admin``) or none it does otherwise (``urljoin("?q", "x")`` is ``/x``)."""
    return b.scheme is not None or bs.startswith("/")


def _merge(base: Value, b: Parts, ref_path: Value, node: ast.AST, src: Src | None) -> Value | None:
    """RFC 3986 sec. 5.2.3; None when a hole in the base's last segment could hold a ``/``."""
    start, end = b.path
    if b.authority is not None and start == end:
        return concat([made("/", node, src), ref_path], node, src)
    slash = base.flat().rfind("/", start, end)
    last = [i for i, _ in base.holes() if max(slash, start) <= i < end]
    if last:
        return None
    return concat([base.slice(start, slash + 1), ref_path], node, src)


def _names_document(path: str) -> bool:
    """Whether a path's last segment names a document by its extension (``index.html``, ``page.php``,
    ``master.m3u8``, ``clip.mp4``); a version (``v2.0``, ``1.0rc1``) has a digit right after its dot."""
    last = path[path.rfind("/") + 1 :]
    dot = last.rfind(".")
    ext = last[dot + 1 :]
    return dot > 0 and 1 <= len(ext) <= 5 and ext.isascii() and ext[0].isalpha() and ext.isalnum()


# resources a site keeps at its root, which code finds by resolving against any of its pages: robots.txt (RFC 9309
# sec. 2.3), well-known URIs (RFC 8615 sec. 3: security.txt, change-password, webfinger), and by convention the
# favicon, the sitemap and the ads.txt files (fixtures207 repro 04, fixtures208 repro 01). Not an issuer's metadata:
# an OpenID issuer's path comes before "/.well-known/openid-configuration" (OpenID Connect Discovery sec. 4), an
# OAuth one's after "/.well-known/oauth-authorization-server" (RFC 8414 sec. 3): resolving drops it
_SITE_ROOT = frozenset(("/robots.txt", "/favicon.ico", "/sitemap.xml", "/ads.txt", "/app-ads.txt", "/humans.txt",
                        "/security.txt"))
_ISSUER_METADATA = ("/.well-known/openid-configuration", "/.well-known/oauth-authorization-server")


def urljoin_drops(base: Value, ref: Value) -> tuple[str, str] | None:
    """What of the base's path ``urljoin(base, ref)`` drops (RFC 3986 sec. 5.2.2-5.2.3): ("relative", the
    last segment) when a relative-path reference replaces the segment after the base's last ``/``;
    ("absolute", the path) when an absolute-path reference replaces a base path that has a segment. None
    when nothing is dropped, or known text does not decide it (a hole in the base's path), or the base is a
    page's URL (its last segment a document's name, ``index.html``): its links resolve against it; nor for a
    resource of the site's root (``/robots.txt``)."""
    if (choices := each_choice(base)) is not None:  # (a module name bound in branches: ``source.choices``)
        return next((f for c in choices if (f := urljoin_drops(c, ref)) is not None), None)
    if not _decided(ref) or not _decided(base):
        return None
    bs, rs = base.flat(), ref.flat()
    b, r = split(bs), split(rs)
    if not _resolvable(bs, b) or r.scheme is not None or r.authority is not None or r.path[0] == r.path[1]:
        return None
    start, end = b.path
    if _names_document(bs[start:end]):
        return None  # a page's URL: resolving against it is what its links mean (RFC 3986 sec. 5.1)
    if rs.startswith("/", r.path[0]):
        path = rs[r.path[0] : r.path[1]]
        if path in _SITE_ROOT or (path.startswith("/.well-known/") and not path.startswith(_ISSUER_METADATA)):
            return None  # (a resource of the site's root: replacing the page's path is the point)
        kept = _keeps(bs[start:end], remove_dot_segments(rs[r.path[0] : r.path[1]]))
        return ("absolute", bs[start:end]) if bs[start:end].strip("/") and not kept else None
    cut = bs.rfind("/", start, end) + 1 if "/" in bs[start:end] else start
    if cut == end or any(start <= i < end for i, _ in base.holes()):
        return None
    # merged (sec. 5.2.3) and without its dot segments (sec. 5.2.4): what is left of the base's path is
    # the part up to the last '/' the two share ("../items" against /api/v2 keeps "/" of it, drops api/v2)
    path, ref_path = bs[start:end], rs[r.path[0] : r.path[1]]
    merged = remove_dot_segments(bs[start:cut] + ref_path)
    if merged == remove_dot_segments(path + "/" + ref_path) or _keeps(path, merged):
        return None  # ("../items": a '/' at the base's end would change nothing; the '..' means to go up;
        # "v1/items" against /api/v1 spells the segment again: /api/v1/items keeps all of the base's path)
    shared = 0
    while shared < min(len(path), len(merged)) and path[shared] == merged[shared]:
        shared += 1
    return "relative", path[path.rfind("/", 0, min(shared, cut - start)) + 1 :]


def refused_base(base: Value) -> Text | None:
    """The known text that spells the last character of an aiohttp base's path when it is no '/', which the session
    refuses (IRI812); None for another base, or one whose path ends with a hole."""
    flat = base.flat()
    parts = split(flat)
    start, end = parts.path
    if parts.authority is None or end == start or flat[end - 1] == "/":
        return None
    piece = base.pieces[bisect_right(base.starts, end - 1) - 1]
    return piece if type(piece) is Text else None


def _keeps(path: str, resolved: str) -> bool:
    """Whether the resolved path still holds all of the base's path, whole segments, at its start."""
    return resolved.startswith(path) and (len(resolved) == len(path) or path.endswith("/") or
                                          resolved[len(path)] == "/")


def httpx_merge(base: Value, ref: Value, node: ast.AST, src: Src | None) -> Value:
    """``httpx.Client(base_url=base)`` requesting ``ref`` (``Client._merge_url``): a URL with a scheme and
    a host is taken as it is; anything else is appended to the base's raw path (its query too), which gets
    one trailing ``/``, with its own leading ``/`` stripped. A fragment, which httpx leaves out of the request,
    is kept: it is written there, and what is wrong in it (a template, a query joined after it) is checked."""
    if not _decided(ref):
        return hole(node, src)
    rs = ref.flat()
    r = split(rs)
    if r.scheme is not None:
        if r.authority is not None and r.authority[0] < r.authority[1]:
            return ref  # absolute: the base is not used
        return hole(node, src)  # "mailto:x" with a base: httpx appends it; no one means that
    lead = len(rs) - len(rs.lstrip("/"))
    rest = ref.slice(lead, len(rs))
    bs = base.flat()
    bparts = split(bs)
    if bparts.fragment is not None:
        return hole(node, src)  # (httpx keeps the base's fragment after the request's query)
    # a base's query is in the raw path httpx appends to: "?appid=demo" + "/" + "alerts?lang=en", as sent
    ends_with_slash = bs.endswith("/") and not base.is_hole(len(bs) - 1)
    sep = Value() if ends_with_slash else made("/", node, src)
    return concat([base, sep, rest], node, src)


def join(sep: Value, items: Sequence[Value], node: ast.AST, src: Src | None) -> Value:
    """``sep.join(items)``."""
    out: list[Value] = []
    for k, item in enumerate(items):
        if k:
            out.append(sep)
        out.append(item)
    return concat(out, node, src)


def posix_join(parts: Sequence[Value], node: ast.AST, src: Src | None) -> Value:
    """``posixpath.join(a, *p)``: a part starting with ``/`` starts afresh; a ``/`` goes between the
    others unless the path so far is empty or ends with one. A hole where that is decided: what comes before
    a part that starts with one is a hole (that part may start afresh), and a ``/`` after a path that ends
    with one is in that hole; the known text after stays (``join(BASE, slug + " hd.mp4")`` ends " hd.mp4"). A path
    that has started afresh keeps its text before such a part (``join(API, "/themes", str(n))``): the URL before
    it is lost whatever the part holds, which is what IRI804 reports (fixtures204 repro 02)."""
    path = parts[0]
    for b in parts[1:]:
        if b.pieces and b.is_hole(0) and not (path.pieces and not path.is_hole(0) and path.flat().startswith("/")):
            path = concat([hole(node, src), b], node, src)
            continue
        if b.flat().startswith("/"):
            path = b
            continue
        n = len(path)
        if n and path.is_hole(n - 1):
            path = concat([path, b], node, src)
            continue
        if not n or path.flat().endswith("/"):
            path = concat([path, b], node, src)
        else:
            path = concat([path, made("/", node, src), b], node, src)
    return path


def quoted(value: Value | None, safe: str | None, node: ast.AST, src: Src | None, *, plus: bool = False,
           name: str | None = None) -> Value:
    """``quote(value, safe)`` (``quote_plus`` with ``plus``): known text quoting leaves as it is keeps its
    literal; other known text is what quoting makes of it, made by the call (a bidi control's UTF-8 octets,
    ``%E2%80%AE``, stay in the URL: IRI203, fixtures219 repro 1); anything else is a hole known to be
    percent-encoded."""
    if safe is None:
        safe = "" if plus else "/"
    text = value.text if value is not None else None
    if value is not None and text is not None:
        encoded = (quote_plus if plus else quote)(text, safe)
        return value if encoded == text else made(encoded, node, src)
    return hole(node, src, kind=HoleKind.ENCODED, name=name, safe=safe + ("+" if plus else ""))


def strip(value: Value, chars: str | None, node: ast.AST, src: Src | None, *, left: bool, right: bool) -> Value:
    """``str.strip`` / ``lstrip`` / ``rstrip`` with known ``chars``: known text stripped; a hole reached
    stays (what it holds is stripped or not, unknown either way)."""
    s = value.flat()
    holes = [i for i, _ in value.holes()]
    a, b = 0, len(s)
    if right:
        last_hole = holes[-1] + 1 if holes else 0
        b = max(len(s[last_hole:].rstrip(chars)) + last_hole, last_hole)
    if left:
        first_hole = holes[0] if holes else len(s)
        a = min(len(s[:first_hole]) - len(s[:first_hole].lstrip(chars)), first_hole)
        a = min(a, b)
    return value.slice(a, b)


def removeaffix(value: Value, affix: str, node: ast.AST, src: Src | None, *, suffix: bool) -> Value:
    """``removesuffix`` / ``removeprefix`` with a known affix; a hole when a hole could hold part of it."""
    if not affix:
        return value
    s = value.flat()
    holes = [i for i, _ in value.holes()]
    if suffix:
        known = len(s) - (holes[-1] + 1 if holes else 0)
        if s.endswith(affix) and known >= len(affix):
            return value.slice(0, len(s) - len(affix))
        return value if known >= len(affix) or not holes else hole(node, src)
    known = holes[0] if holes else len(s)
    if s.startswith(affix) and known >= len(affix):
        return value.slice(len(affix), len(s))
    return value if known >= len(affix) or not holes else hole(node, src)


def replace(value: Value, old: str, new: Value, count: int, node: ast.AST, src: Src | None) -> Value:
    """``str.replace`` with a known needle: each occurrence in the known text (up to ``count``; -1: all) is
    ``new``; a hole stays a hole (what it holds is replaced at run time, unknown either way)."""
    if not old:
        return hole(node, src)
    s, parts, at, n = value.flat(), [], 0, 0
    i = s.find(old)
    while i >= 0 and n != count:
        parts += [value.slice(at, i), new]
        at, n = i + len(old), n + 1
        i = s.find(old, at)
    if not n:
        return value
    parts.append(value.slice(at, len(s)))
    return concat(parts, node, src, as_type=value.type)


def _path_end(s: str) -> int:
    """Where the path of a flat URL ends (its query or fragment, or the end)."""
    p = split(s)
    return p.path[1]


def _yarl_segment(seg: Value, node: ast.AST, src: Src | None, name: str | None) -> Value | None:
    """A path segment yarl quotes: known safe text stays; anything else is an encoded hole; None when
    yarl raises (a segment starting with ``/``) or normalises it (dot segments)."""
    text = seg.text
    if text is not None:
        if text.startswith("/"):
            return None
        if any(part in (".", "..") for part in text.split("/")):
            return None
        if _YARL_PATH_SAFE.fullmatch(text) is not None:
            return seg
    elif seg.flat().startswith("/") and not seg.is_hole(0):
        return None
    return hole(node, src, kind=HoleKind.ENCODED, name=name, safe="!$&'()*+,;=:@/")


def yarl_child(url: Value, seg: Value, node: ast.AST, src: Src | None, name: str | None = None) -> Value:
    """``yarl.URL / "seg"``: the path gets ``/seg`` (one ``/`` between), the query and fragment go."""
    piece = _yarl_segment(seg, node, src, name)
    if piece is None:
        return hole(node, src, as_type=url.type)
    s = url.flat()
    end = _path_end(s)
    head = url.slice(0, end)
    ends_with_slash = end > 0 and s[end - 1] == "/" and not url.is_hole(end - 1)
    sep = Value() if ends_with_slash else made("/", node, src)
    return concat([head, sep, piece], node, src, as_type=url.type)


def yarl_with_path(url: Value, path: Value, node: ast.AST, src: Src | None, name: str | None = None) -> Value:
    """``yarl.URL.with_path(path)``: scheme and authority kept, path replaced (a ``/`` put in front of a
    relative one under an authority), query and fragment dropped."""
    if not _decided(url):
        return hole(node, src, as_type=url.type)
    s = url.flat()
    p = split(s)
    head = url.slice(0, p.path[0])
    text = path.text
    if text is not None and _YARL_PATH_SAFE.fullmatch(text) is None:
        body = hole(node, src, kind=HoleKind.ENCODED, name=name, safe="!$&'()*+,;=:@/")
    else:
        body = path
    relative = bool(path.pieces) and not path.is_hole(0) and not path.flat().startswith("/")
    sep = made("/", node, src) if p.authority is not None and relative else Value()
    return concat([head, sep, body], node, src, as_type=url.type)


def unsplit(scheme: Value, netloc: Value, path: Value, params: Value | None, query: Value, fragment: Value,
            node: ast.AST, src: Src | None) -> Value:
    """``urlunsplit`` / ``urlunparse`` as CPython writes them: ``scheme:``, ``//netloc`` (a ``/`` put before a
    known path that lacks one), the path, ``;params``, ``?query``, ``#fragment``, each delimiter only where its
    part is not empty (a hole's: the delimiter and the part one hole). A path whose known start is no ``/`` gets
    one (a path that starts with a hole: as it is, unknown). A netloc that is a hole stands for a host;
    an empty one makes the whole a hole (whether ``//`` is written depends on the scheme and the path)."""
    if netloc.text == "":
        return hole(node, src)
    parts = [] if scheme.text == "" else [scheme, made(":", node, src)]
    lead = _starts_known(path) and not path.flat().startswith("/")  # (known text first: "thumbs/" + slug too)
    parts += [made("//", node, src), netloc, made("/", node, src) if lead else Value(), path]
    for delimiter, part in ((";", params), ("?", query), ("#", fragment)):
        if part is None or part.text == "":
            continue
        parts.append(concat([made(delimiter, node, src), part], node, src) if part.text is not None or
                     _starts_known(part) else hole(node, src))
    return concat(parts, node, src)


def _starts_known(value: Value) -> bool:
    """Whether a value is not empty for sure: known text before any hole."""
    return bool(value.flat()) and not value.is_hole(0)


def client_request(client: Client, ref: Value, node: ast.AST, src: Src) -> Value:
    """The URL a client requests for ``ref``: httpx appends it to the base, aiohttp resolves it."""
    assert client.base is not None
    if client.merge == "append":
        merged = httpx_merge(client.base, ref, node, src)
    else:
        merged = urljoin(client.base, ref, node, src)
    if len(merged.pieces) == 1 and type(merged.pieces[0]) is Hole and not ref.opaque:
        return concat([merged, ref], node, src)  # (undecided: the URL ends with the request's text all the same)
    return merged
