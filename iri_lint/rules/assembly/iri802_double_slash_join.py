"""IRI802 double-slash-join: A join makes `//` inside the path."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI802",
    name="double-slash-join",
    family=Family.ASSEMBLY,
    summary="A join makes `//` inside the path",
    section="RFC 3986 sec. 3.3",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("A URL value assembled in code where a piece ending with `/` (a base such as `\"https://api.example.com/\"`) "
          "is joined to a piece starting with `/` (`\"/health\"`), or a `\"/\".join` puts a `/` between them, so "
          "that the path holds `//`: an empty segment that neither piece spells by itself. Only in the path, "
          "after the authority; both slashes must be known text. Not a `//` that starts the path after an "
          "empty authority (`\"sqlite:///\" + \"/srv/app.db\"`, `file:////host/share`): a form of its own; nor "
          "an AMQP URL's whole path `//`, the virtual host `/` as kombu and Celery write it "
          "(`\"amqp://guest@localhost:5672/\" + \"/\"`). And a "
          "relative reference that the join makes start with `//` (`LOGOUT_REDIRECT_URL = \"/\"` joined to "
          "`\"/goodbye/\"`): its first segment becomes a host, `goodbye` (sec. 4.2, a network-path reference)."),
    why=("`//` in a path is an empty segment (RFC 3986 sec. 3.3), a different path from the one with a single "
         "`/`: many servers and routers answer it with 404 or a redirect, caches and signatures treat it as "
         "another resource, and relative references resolve against it differently."),
    where="the second `/`: the joined piece's own, or the separator a `\"/\".join` inserts",
    fix_text="Drop one of the slashes: the base's trailing one or the piece's leading one.",
    valid=(
        Example('import requests\nBASE = "https://api.example.com/"\nrequests.get(BASE + "health")\n', kind="python"),
        Example('import requests\nrequests.get("https://api.example.com//raw")\n', kind="python"),
        Example('AMQP = "amqp://guest@localhost:5672/"\nBROKER_URL = AMQP + "/"\n', kind="python"),
    ),
    invalid=(
        Example('import requests\nBASE = "https://api.example.com/"\nrequests.get(BASE + "/health")\n', kind="python"),
        Example('import requests\nBASE = "https://api.example.com/"\nrequests.get("/".join([BASE, "health"]))\n',
                kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


_AMQP = frozenset(("amqp", "amqps", "pyamqp", "librabbitmq"))


def check(facts: Facts) -> Iterator[Raw]:
    """A '/' on either side of a join in the path."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None:
        return
    text, path = ref.text, ref.path
    # after an empty authority a path that starts with '//' is a form of its own: "sqlite:////abs/path",
    # "file:////host/share" (RFC 8089 appendix E.3.2)
    empty = ref.authority is not None and ref.authority.start == ref.authority.end
    scheme = text[ref.scheme.start : ref.scheme.end].lower() if ref.scheme is not None else ""
    if text[path.start : path.end] == "//" and scheme in _AMQP:
        return  # the virtual host "/", as kombu and Celery write it: "amqp://guest@localhost:5672//"
    for j in assembly.joins:
        if j == 1 and ref.scheme is None and text.startswith("//") and ref.authority is not None:
            host = facts.shown[ref.authority.start : ref.authority.end]  # (a hole as "…", not the "0" it is read as)
            yield Raw(j, j + 1, f"this join makes the reference start with '//': '{host}' is now read as a host "
                                "(a network-path reference, RFC 3986 sec. 4.2), where a path was meant")
            continue
        if path.start < j < path.end and text[j - 1] == "/" and text[j] == "/" and \
                (ref.authority is not None or j - 1 > path.start) and not (empty and j - 1 == path.start):
            yield Raw(j, j + 1, f"this join makes '//' in the path, {_meeting(facts.shown, 0, j)}: an "
                                "empty segment, another path than with one '/'")


_SHOWN = 16  # characters quoted on each side of the join


def _meeting(shown: str, start: int, j: int) -> str:
    """The two texts the join puts together, as a message quotes them: ``'…/v2/' + '/orders…'``."""
    a, b = max(start, j - _SHOWN), min(len(shown), j + _SHOWN)
    return f"'{'…' if a > start else ''}{shown[a:j]}' + '{shown[j:b]}{'…' if b < len(shown) else ''}'"
