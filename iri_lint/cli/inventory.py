"""The endpoint inventory: which hosts does this code talk to?

Every literal iri-lint takes for an IRI (a whole absolute IRI, or a value in a URL context: see
docs/design.md) that has an authority (RFC 3986 sec. 3.2) counts towards its endpoint: the scheme,
the host and the port (a scheme's default port is no port, RFC 3987 sec. 5.3.3). For each endpoint:
how many literals name it, in which files, how the code uses them (passed to an API that fetches,
compared as an identifier, or unknown), and flags for a reviewer:

* ``plain-http``: ``http`` or ``ws``, which travel unencrypted;
* ``ip-literal``: an IPv4 or IPv6 address instead of a name (RFC 3986 sec. 3.2.2);
* ``loopback`` and ``private``: addresses the stdlib ``ipaddress`` module calls so, and the names
  RFC 6761 sec. 6.3 reserves for loopback (``localhost``, ``*.localhost``);
* ``idn``: an internationalized name, shown in both forms (Unicode and the ``xn--`` ACE form);
* ``credentials``: a userinfo with a password (masked unless ``--show-secrets``);
* ``templated``: part of the scheme, host or port is filled in at run time (``{…}``).

Hosts are compared in ACE form, ASCII letters in lower case (RFC 3986 sec. 3.2.2).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, TextIO

import idna

from ..core.reference import IRIReference, Span
from ..core.scanner import scan
from ..lint import SourceError, decode_source, parse_source, scan_options
from ..source.literals import find_literals, marked_lines
from ..source.locate import SourceFile, split_lines
from ..source.model import Literal
from ..source.notebook import NotebookError, read_notebook
from ..source.text import is_embedded
from .escape import badges, escape_text, quote_path, unicode_path
from .redact import redact
from .report import dump_json, text_width
from .results import Job, Problem
from .run import map_jobs, read_job

PLAIN = frozenset(("http", "ws"))  # RFC 9110 sec. 4.2.1 and RFC 6455 sec. 3: no TLS
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}
HOLE = "{…}"
FLAGS = ("plain-http", "ip-literal", "loopback", "private", "idn", "credentials", "templated")


class Use(NamedTuple):
    """One literal naming an endpoint."""

    scheme: str
    host: str  # as written (template holes as {…})
    port: int | None
    path: str  # the file
    context: str  # dereferenced | identifier | unknown
    userinfo: str  # "" when none; the password masked unless asked otherwise


class Endpoint(NamedTuple):
    scheme: str
    host: str  # Unicode form for an IDN, else as written (ASCII lower-cased)
    host_ascii: str  # the ACE form ("" when the host has none: an IP address, a template, a bad name)
    port: int | None
    literals: int  # how many literals name it
    files: tuple[str, ...]
    contexts: dict[str, int]
    flags: tuple[str, ...]
    credentials: tuple[str, ...]

    @property
    def address(self) -> str:
        """``scheme://host:port`` as a reader writes it."""
        port = f":{self.port}" if self.port is not None else ""
        return f"{self.scheme}://{self.host}{port}" if self.scheme else f"//{self.host}{port}"


class Inventory(NamedTuple):
    endpoints: list[Endpoint]
    files_checked: int
    problems: list[Problem]


# ------------------------------------------------------------------ per file (in worker processes)

def _text(value: str, span: Span, holes: Sequence[tuple[int, int]]) -> tuple[str, bool]:
    """The component's text with each template hole in it as {…}; whether there was one."""
    inside = [(max(s, span.start), min(e, span.end)) for s, e in holes if s < span.end and e > span.start]
    if not inside:
        return value[span.start : span.end], False
    out, pos = [], span.start
    for s, e in inside:
        out.append(value[pos:s])
        out.append(HOLE)
        pos = e
    out.append(value[pos : span.end])
    return "".join(out), True


def _use(lit: Literal, ref: IRIReference, path: str, show_secrets: bool) -> Use | None:
    if ref.host is None or ref.authority is None:
        return None
    scheme, _ = _text(lit.value, ref.scheme, lit.holes) if ref.scheme is not None else ("", False)
    host, _ = _text(lit.value, ref.host, lit.holes)
    port_text, _ = _text(lit.value, ref.port, lit.holes) if ref.port is not None else ("", False)
    port = int(port_text) if port_text.isdigit() and port_text.isascii() else None
    userinfo = ""
    if ref.userinfo is not None:
        info = ref.userinfo
        userinfo = (lit.value if show_secrets else redact(lit.value))[info.start : info.end]
    if port_text and port is None and HOLE in port_text:
        host = f"{host}:{port_text}"
    return Use(scheme.lower(), host, port, path, str(lit.context), userinfo)


def uses_in(text: str, job: Job, show_secrets: bool) -> list[Use]:
    """The endpoint uses of one module's text (every literal taken for an IRI, as the check finds them)."""
    cfg = job.config
    opts = scan_options(cfg)
    lines = split_lines(text)
    marked = marked_lines(SourceFile(lines), opts) if opts.prefilter else None
    if marked == []:
        return []
    tree = parse_source(text, job.path)
    out = []
    for lit in find_literals(tree, lines, options=opts, marked=marked):
        if is_embedded(lit) and not lit.value:
            continue
        use = _use(lit, scan(lit.value, lit.kind, cfg.profile), job.path, show_secrets)
        if use is not None:
            out.append(use)
    return out


def file_uses(job: Job, show_secrets: bool = False) -> list[Use] | Problem:
    """The endpoint uses in one file, or why it could not be read."""
    data = read_job(job)
    if isinstance(data, Problem):
        return data
    try:
        if job.path.lower().endswith(".ipynb"):
            return uses_in(read_notebook(data).text, job, show_secrets)
        return uses_in(decode_source(data), job, show_secrets)
    except SourceError as exc:
        return Problem(job.path, exc.line, exc.col, str(exc))
    except (NotebookError, RecursionError, ValueError) as exc:
        return Problem(job.path, 1, 0, str(exc) or type(exc).__name__)


# ------------------------------------------------------------------ grouping

def _ascii_host(host: str) -> str:
    """The ACE form of a reg-name (IDNA2008 with UTS #46 mapping), "" when it has none."""
    if not host or HOLE in host or host.startswith("["):
        return ""
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        return "" if not host.isascii() else host.lower()


def _unicode_host(ace: str, written: str) -> str:
    """The Unicode form of a host: IDNA2008's, else each ``xn--`` label's Punycode (RFC 3492) read
    as it is, so that a label IDNA2008 rejects (``xn--n3h``, a snowman) still shows what it says."""
    if "xn--" not in ace:
        return written if not written.isascii() else written.lower()
    try:
        return idna.decode(ace)
    except (idna.IDNAError, UnicodeError, ValueError):
        return ".".join(_punycode(label) for label in ace.split("."))


def _punycode(label: str) -> str:
    if not label.lower().startswith("xn--"):
        return label
    try:
        return label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return label


def _address_flags(host: str) -> list[str]:
    """ip-literal, loopback, private: by ``ipaddress`` for an address, by RFC 6761 for a name."""
    import ipaddress  # here: it costs a few ms to import, and only an inventory needs it

    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return ["loopback"]
    literal = host[1:-1].split("%", 1)[0] if host.startswith("[") and host.endswith("]") else host
    try:
        address = ipaddress.ip_address(literal)
    except ValueError:
        return ["ip-literal"] if host.startswith("[") else []
    flags = ["ip-literal"]
    if address.is_loopback:
        flags.append("loopback")
    elif address.is_private or address.is_link_local:
        flags.append("private")
    return flags


def group(uses: Iterable[Use]) -> list[Endpoint]:
    """Uses grouped by (scheme, host in ACE form, port), the most used first."""
    groups: dict[tuple[str, str, int | None], list[Use]] = {}
    for u in uses:
        port = None if u.port is not None and DEFAULT_PORTS.get(u.scheme) == u.port else u.port
        key = (u.scheme, _ascii_host(u.host) or u.host.lower(), port)
        groups.setdefault(key, []).append(u)
    out = []
    for (scheme, _, port), members in groups.items():
        written = members[0].host
        ace = _ascii_host(written)
        host = _unicode_host(ace, written) if ace else written
        flags = _address_flags(written)
        if scheme in PLAIN:
            flags.insert(0, "plain-http")
        if ace and (ace != host.lower() or "xn--" in ace):
            flags.append("idn")
        credentials = tuple(sorted({u.userinfo for u in members if ":" in u.userinfo and
                                    not u.userinfo.endswith(":")}))
        if credentials:
            flags.append("credentials")
        if any(HOLE in text for text in (u.scheme + u.host for u in members)):
            flags.append("templated")
        contexts: dict[str, int] = {}
        for u in sorted(members, key=lambda u: u.context):
            contexts[u.context] = contexts.get(u.context, 0) + 1
        out.append(Endpoint(scheme, host, ace if ace != host else "", port, len(members),
                            tuple(sorted({u.path for u in members})), contexts,
                            tuple(f for f in FLAGS if f in flags), credentials))
    out.sort(key=lambda e: (-e.literals, e.host_ascii or e.host, e.scheme, e.port or 0))
    return out


def collect(jobs: Sequence[Job], *, show_secrets: bool = False, workers: int | None = None) -> Inventory:
    """The inventory of the files of ``jobs`` (in worker processes when there are many)."""
    uses: list[Use] = []
    problems: list[Problem] = []
    each: Callable[[Job], list[Use] | Problem] = functools.partial(file_uses, show_secrets=show_secrets)
    for found in map_jobs(each, [j for j in jobs if j.path != "-" or j.data is not None], workers):
        if isinstance(found, Problem):
            problems.append(found)
        else:
            uses.extend(found)
    return Inventory(group(uses), len(jobs), problems)


# ------------------------------------------------------------------ writers

def to_json(e: Endpoint) -> dict[str, Any]:
    return {"scheme": e.scheme, "host": e.host, "host_ascii": e.host_ascii or None, "port": e.port,
            "literals": e.literals, "files": [unicode_path(f) for f in e.files], "uses": e.contexts,
            "flags": list(e.flags), "credentials": list(e.credentials)}


def write_json(out: TextIO, inv: Inventory) -> None:
    doc = {"endpoints": [to_json(e) for e in inv.endpoints], "files_checked": inv.files_checked,
           "errors": [{"path": unicode_path(p.path), "line": p.line, "column": p.col + 1, "message": p.message}
                      for p in inv.problems]}
    out.write(dump_json(doc) + "\n")


def write_csv(out: TextIO, inv: Inventory) -> None:
    """One row per endpoint; lists joined by ``;``. Invisible characters as ``\\uXXXX`` text."""
    import csv  # here: only this format needs it

    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["scheme", "host", "host_ascii", "port", "literals", "files", "flags", "credentials",
                     "dereferenced", "identifier", "unknown"])
    for e in inv.endpoints:
        writer.writerow([escape_text(cell) for cell in (
            e.scheme, e.host, e.host_ascii, "" if e.port is None else str(e.port), str(e.literals),
            ";".join(unicode_path(f) for f in e.files), ";".join(e.flags), ";".join(e.credentials),
            *(str(e.contexts.get(k, 0)) for k in ("dereferenced", "identifier", "unknown")))])


def _uses(e: Endpoint) -> str:
    fetched = e.contexts.get("dereferenced", 0)
    return f"{e.literals} {'literal' if e.literals == 1 else 'literals'}" + (f", {fetched} fetched" if fetched else "")


def write_text(out: TextIO, inv: Inventory, *, files_shown: int = 5) -> None:
    """One endpoint per line (address, uses, files, flags), its files on the next."""
    n = len(inv.endpoints)
    out.write(f"{n} {'endpoint' if n == 1 else 'endpoints'} in {inv.files_checked} "
              f"{'file' if inv.files_checked == 1 else 'files'} checked\n")
    shown = [badges(e.address) + (f" ({e.host_ascii})" if e.host_ascii else "") for e in inv.endpoints]
    width = max((text_width(s) for s in shown), default=0)
    for e, address in zip(inv.endpoints, shown, strict=True):
        flags = f"  [{', '.join(e.flags)}]" if e.flags else ""
        creds = f"  credentials: {', '.join(badges(c) for c in e.credentials)}" if e.credentials else ""
        out.write(f"{address}{' ' * (width - text_width(address))}  {_uses(e)} in {len(e.files)} "
                  f"{'file' if len(e.files) == 1 else 'files'}{flags}{creds}\n")
        more = len(e.files) - files_shown
        out.write("    " + ", ".join(quote_path(f) for f in e.files[:files_shown])
                  + (f" and {more} more" if more > 0 else "") + "\n")
