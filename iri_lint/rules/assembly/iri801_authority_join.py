"""IRI801 authority-join: A piece joined to an authority without a `/` changes the host or port."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.reference import IRIReference
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import SCHEME_AND_SLASHES

RULE = Rule(
    code="IRI801",
    name="authority-join",
    family=Family.ASSEMBLY,
    summary="A piece joined to an authority without a `/` changes the host or port",
    section="RFC 3986 sec. 3.2, 3.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A URL value assembled in code (`+`, an f-string, `.format`, `%`, `join`) in which a piece is joined "
          "right after a value whose text ends inside its authority (`HOST + \"docs\"`, where `HOST` is "
          "`\"https://cdn.example.net\"`), so that the joined text continues the host or the port, follows an "
          "IP literal, or brings an `@` that turns the host into userinfo (`SITE + \"@mirror.example/\"`: the "
          "request goes to `mirror.example`; not the strings of one literal wrapped over lines, whose author "
          "spells the userinfo, `(\"https://<token>\"` / `\"@cluster.example\")`). Only when the whole "
          "authority up to the join comes from one piece "
          "(after the scheme's: `\"https://\" + HOST + \"docs\"` with a dotted `HOST`), or when the piece "
          "before the join ends the host with whole labels after a part (`f\"https://{sub}.example.com\" + "
          "\"img\"`), and the joined piece starts with known text other than `/`, `?`, `#`, or `:` after a host "
          "with no port yet (after a port, `\":9443/x\"` makes the port `8443:9443`: reported, after a whole "
          "`HOST` with its scheme or a `host:port` after the scheme's piece alike, a userinfo in the scheme's "
          "piece too: `\"postgresql://app@\" + HOST_PORT + \":5432/db\"`). A dotless host given whole (an S3 "
          "bucket, a Kubernetes service: `\"http://\" + SERVICE + \"healthz\"`) counts when the joined word "
          "brings no `.` to the authority either, and a word or a `:` joined right after a port of digits "
          "counts however host and port were built (`\"http://\" + HOST + \":\" + str(PORT) + \"healthz\"`, "
          "`f\"https://{HOST}:{PORT}{READY_PATH}\"`, `f\"https://{HOST}:{PORT}\" + \":9443/x\"`); a host built "
          "on purpose from parts (`\"https://\" + sub + \".example.com\"`, `\"https://[\" + ipv6 + \"]\"`, "
          "`\"https://api.\" + domain`, a dotless name going on with its next label (`\"https://example\" + "
          "\".com/\"`), a country's two-letter label after it (`f\"https://www.icloud.com{'.cn' if china else ''}\"`, "
          "RFC 1591; not a file's extension, `BASE + \".json\"`), "
          "`f\"https://p{x}ypal.com\"`) is not reported."),
    why=("The authority ends at the first `/`, `?` or `#` (RFC 3986 sec. 3.2): without one, the joined path "
         "becomes part of the host (`cdn.example.netimg`) or of the port, and the request goes to another "
         "host, or fails to resolve. Text before an `@` is userinfo (sec. 3.2.1): a piece starting with `@` "
         "sends the request to the host after it, the semantic attack of sec. 7.6."),
    where="the first character of the joined piece, which continues the host or the port",
    fix_text=("Join with a `/` (`HOST + \"/docs\"`), or build the URL with `urljoin` or a client's `base_url`. "
              "Where two strings of a list run together because the `,` between them is missing (Python joins "
              "`\"https://a.example\"` and `\"https://b.example/\"` on the next line into one), the message asks "
              "about the comma: put it back."),
    valid=(
        Example('import requests\nHOST = "https://cdn.example.net"\nrequests.get(HOST + "/img/logo.png")\n',
                kind="python"),
        Example('import requests\n\n\ndef get(sub):\n    return requests.get("https://" + sub + ".example.com/")\n',
                kind="python"),
        Example('ingest_url = ("https://a87826d5-2b1c-4f7e-9a3d"\n              "@cluster.example.com")\n',
                kind="python"),
    ),
    invalid=(
        Example('import requests\nHOST = "https://cdn.example.net"\nrequests.get(HOST + "img/logo.png")\n',
                kind="python"),
        Example('import requests\nSITE = "https://docs.example.org"\nrequests.get(SITE + "@mirror.example.net/")\n',
                kind="python"),
        Example('import requests\n\n\ndef get(sub):\n    return requests.get(f"https://{sub}.example.com" + "img/")\n',
                kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


_DOTS = ".\u3002\uff0e\uff61"  # the label separators IDNA reads (UTS #46 sec. 4, step 1)


def check(facts: Facts) -> Iterator[Raw]:
    """A join inside the host or the port, after one piece that spells the authority up to it."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or ref.authority is None or ref.host is None:
        return
    text = ref.text
    unknown = assembly.unknown
    joins = assembly.joins
    for k, j in enumerate(joins):
        where = next((s for s in (ref.host, ref.port) if s is not None and s.start < j < s.end), None)
        if where is None and j == ref.host.end and text[j - 1] == "]" and j < ref.authority.end and text[j] != ":":
            where = ref.authority  # after an IP literal ("http://[::1]" + "x"): only ':' and a port may follow
        userinfo = ref.userinfo
        if where is None and userinfo is not None and userinfo.start < j <= userinfo.end:
            where = userinfo  # the piece brings the '@': what was the host is now the userinfo (sec. 7.6)
        if where is None or j in unknown or assembly.same_literal(j - 1, j):
            continue  # (one literal spelling both sides: a `.replace(x, "")` deleted text inside the host)
        start = ref.authority.start
        if userinfo is not None and ref.host.start < j and \
                not any(start < p < ref.host.start for p in (*joins[:k], *unknown)):
            start = ref.host.start  # (a userinfo the scheme's piece spells, "postgresql://app@": the host leads)
        built = (k and joins[k - 1] > start - 2 and not _whole_host(text, joins[k - 1], start, j, ref.authority.end)) \
            or any(start <= h < j for h in unknown)
        if built and not _whole_tail(text, start, j, joins[:k], unknown) and not _word_after_port(ref, j, unknown):
            continue  # the authority is built from parts on purpose
        left = text[ref.authority.start : j]
        if left[-1] in "[:@.-_" or ("[" in left and "]" not in left):
            continue  # the piece ends where an authority cannot end: a part is to follow ("ylk_" + token)
        if text[j] in _DOTS and where is ref.host and (
                not any(d in text[ref.host.start : j] for d in _DOTS) or _country_code(text, j + 1, ref.host.end)):
            continue  # a dotless name that the piece goes on with its next label ("https://example" + ".com/"), or
            # a country's two-letter label (f"https://www.icloud.com{'.cn' if china else ''}": pyicloud, RFC 1591)
        if "." not in left and any(j < h < ref.authority.end for h in joins[k + 1 :]):
            continue  # a host spelled in parts on both sides of the piece (f"https://p{X}ypal.com/")
        if where is ref.host and not any(d in text[ref.host.start : j] for d in _DOTS) and \
                any(d in text[j : ref.host.end] for d in _DOTS):
            continue  # a dotless name that the joined word goes on with, its labels after ("https://secure-p" +
            # "aypal.com/": fixtures246 #2; its faults are the labels', IRI403's, IRI502's)
        if where is userinfo:
            if assembly.implicitly_joined(j):
                continue  # (one literal wrapped over lines, ``("https://<token>" "@host")``: its author spells the
                # userinfo; sec. 7.6's attack is text from elsewhere that brings the '@': outside77)
            yield Raw(j, j + 1, f"'{text[j]}' is joined to the authority without a '/': "
                                f"'{facts.shown[where.start : where.end]}' becomes the userinfo and "
                                f"'{facts.shown[ref.host.start : ref.host.end]}' the host (RFC 3986 sec. 7.6)")
            continue
        part = "host" if where is ref.host else "port" if where is ref.port else "authority"
        # (two URLs of a list whose ',' is missing: Python joins the strings, ["https://a" "https://b"])
        comma = " (two strings Python joins into one: is a ',' missing between them?)" if \
            SCHEME_AND_SLASHES.match(text, j) is not None and assembly.implicitly_joined(j) else ""
        # (over what the join made of the host or port: what follows there, a space it brings, is its consequence)
        yield Raw(j, max(j + 1, where.end), f"'{text[j]}' is joined to the authority without a '/': the {part} becomes "
                            f"'{facts.shown[where.start : where.end]}'{comma}")


def _whole_tail(text: str, authority: int, j: int, joins: tuple[int, ...], unknown: set[int]) -> bool:
    """The piece before the join ends the host with whole labels after a part (``f"https://{sub}.example.com"
    + "img"``, ``"https://s3." + region + "." + "amazonaws.com" + "bucket"``): the joined text goes on with the
    last of them, as after a whole host."""
    b = max((p for p in (*joins, *unknown) if authority <= p < j), default=None)
    tail = "" if b is None else text[b + 1 if b in unknown else b : j]
    return "." in tail[:-1] and text[j].isalnum()


def _whole_host(text: str, piece: int, authority: int, j: int, end: int) -> bool:
    """The piece after the scheme's spells a whole dotted host up to the join, and the joined text goes on with
    its last label (``"https://" + HOST + "docs"``), brings an ``@`` that makes it the userinfo
    (``"http://" + HOST + "@corp.example.com/"``) or a ``:`` after its port (``"https://" + REG + ":5000/"``,
    ``REG`` holding ``host:5000``): no part of a host built on purpose (``"." + domain``). A dotless host (an S3
    bucket, a Kubernetes service: ``"http://" + SERVICE + "healthz"``) is whole when the word joined to it
    brings no '.' to the authority either: a host spelled in two words with no label between is no name."""
    spelled = text[authority:j]
    port = ":" in spelled.rpartition("]")[2]  # (past an IP literal's colons)
    dotless = ":" not in spelled and text[j].isalpha() and "." not in text[j:end]
    return piece <= authority and ("." in spelled or dotless) and \
        (text[j].isalnum() or text[j] == "@" or (text[j] == ":" and port))


def _word_after_port(ref: IRIReference, j: int, unknown: set[int]) -> bool:
    """A word or a ``:`` joined right after a port of known digits, however host and port were built (``"http://"
    + HOST + ":" + str(PORT) + "healthz"``, ``f"https://{HOST}:{PORT}" + ":9443/x"``): the path's '/' is missing,
    or a second port follows; no port goes on with letters or a colon."""
    port = ref.port
    return port is not None and port.start < j and (ref.text[j].isalpha() or ref.text[j] == ":") and \
        ref.text[port.start : j].isdigit() and not any(port.start <= h < j for h in unknown)


def _country_code(text: str, start: int, end: int) -> bool:
    """Whether the host ends with a two-letter label from ``start`` (a country code top-level domain, RFC 1591:
    a region's suffix joined on purpose), not a file's extension (``".json"``)."""
    return end - start == 2 and text[start:end].isascii() and text[start:end].isalpha()
