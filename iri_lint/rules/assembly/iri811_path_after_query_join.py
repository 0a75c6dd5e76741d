"""IRI811 path-after-query-join: A path is joined after a query or fragment that one piece wrote whole."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.context import Assembly
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import PATH_PARAMETERS, names_url

RULE = Rule(
    code="IRI811",
    name="path-after-query-join",
    family=Family.ASSEMBLY,
    summary="A path is joined after a query or fragment that one piece wrote whole",
    section="RFC 3986 sec. 3.3, 3.4, 3.5",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("A URL value assembled in code where a piece starting with `/` is joined right after a query parameter "
          "that an earlier piece wrote whole, its name, `=` and value up to its end (`KEYED_API + \"/alerts\"`, "
          "where `KEYED_API` ends with `?appid=demo`; the '/' `posixpath.join(SAS, \"daily\", \"x.csv\")` puts "
          "between its parts too), or after a fragment one piece wrote whole "
          "(`PAGE + \"/edit\"`, `PAGE` ending with `#top`). Not where the value was joined as a piece of its own "
          "(`\"?prefix=\" + BUCKET + \"/logs\"`, `\"?path=\" + folder + \"/\" + name`: a value that is a path is "
          "written so), nor where the value already holds a `/` or a `:` (a path or a URL, "
          "`\"?next=/home\" + \"/tab\"`), is empty (`\"?path=\" + \"/docs\"`), or is a parameter named for a URL "
          "(`url`, `uri`, `href`, `link` at its end, `next`, `redirect`, `return_to`, `continue`, `callback`, "
          "`service`, `RelayState`, ...) or a path (`path`, `prefix`, `dir`, `folder`, `file`), nor after a "
          "parameter without a value (`?debug`); nor after a fragment that is a page's route (`#/orders`, "
          "`#!/orders`). "
          "Where the value then gets a `?` that IRI803 reports (the piece's own, or a later piece's: "
          "`KEYED + \"/events\" + \"?event=\" + ev`), IRI803 reports the join instead: one cause, one finding."),
    why=("The path ends where the query begins (RFC 3986 sec. 3.3, 3.4): text after the `?` is the query, `/` "
         "included, so the joined path is not a path at all but the end of the last parameter's value "
         "(`?appid=demo/alerts`): the request goes to the base's path with a key the server does not know. After a "
         "`#` it is the fragment (sec. 3.5), which is never sent."),
    where="the `/` that the joined piece brings",
    fix_text=("Keep the query out of the base: join the path first and give the parameters last (`params=` with "
              "requests or httpx, `urlencode`), or put the fragment last."),
    valid=(
        Example('import requests\nAPI = "https://weather.example/v1"\n'
                'requests.get(API + "/alerts", params={"appid": "demo"})\n', kind="python"),
        Example('import requests\nBUCKET = "logs"\n'
                'requests.get("https://s3.example/list?prefix=" + BUCKET + "/2024")\n', kind="python"),
    ),
    invalid=(
        Example('import requests\nKEYED_API = "https://weather.example/v1?appid=demo"\n'
                'requests.get(KEYED_API + "/alerts")\n', kind="python"),
        Example('import requests\nPAGE = "https://docs.example/guide#install"\n'
                'requests.get(PAGE + "/linux")\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """A joined piece's '/' right after a query parameter, or a fragment, that one earlier piece wrote whole."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or not assembly.joins or assembly.appends:
        return  # (an httpx base's query, which each request is appended after, is IRI810's)
    text = ref.text
    for k, j in enumerate(assembly.joins):
        if not text.startswith("/", j) or not _whole_before(assembly, text, j) or \
                not any(a <= j < b for a, b, _ in assembly.spelled):
            continue  # (a '/' no literal spells is the model's: an httpx base's, IRI810's)
        if text.find("?", j) >= 0:
            continue  # (a '?' joined after the query: IRI803's)
        end = assembly.joins[k + 1] if k + 1 < len(assembly.joins) else len(text)
        if ref.query is not None and ref.query.start <= j <= ref.query.end and _finished_parameter(text, j):
            yield Raw(j, j + 1, f"a path is joined after the query: the last parameter becomes "
                                f"'{_parameter(facts.shown, j, end)}', and the request keeps the base's path")
            return
        if ref.fragment is not None and ref.fragment.start < j <= ref.fragment.end and \
                not text.startswith(("/", "!/"), ref.fragment.start) and "/" not in text[ref.fragment.start : j]:
            yield Raw(j, j + 1, "a path is joined after the fragment: it lands in the fragment, which is never sent")
            return


def _whole_before(assembly: Assembly, text: str, j: int) -> bool:
    """Whether one piece spelled the text from the last '?', '&', ';' or '#' up to the join at ``j``."""
    start = max(text.rfind(c, 0, j) for c in "?&;#")
    return 0 <= start < j - 1 and assembly.same_literal(start, j - 1) and \
        not any(start < p < j for p in (*assembly.joins, *assembly.unknown))


def _finished_parameter(text: str, j: int) -> bool:
    """Whether the parameter before ``j`` is ``name=value``, its value a plain word (no path, no URL) and its
    name none that carries a URL or a path."""
    start = max(text.rfind(c, 0, j) for c in "?&;") + 1
    name, eq, value = text[start:j].partition("=")
    return bool(eq and value and name) and not any(c in value for c in "/:") and not names_url(name) and \
        name.lower() not in PATH_PARAMETERS


def _parameter(shown: str, j: int, end: int) -> str:
    """The last parameter as the join makes it, up to the joined piece's end or the next '&', ';' or '#'."""
    start = max(shown.rfind(c, 0, j) for c in "?&;") + 1
    stop = min((i for i in (shown.find(c, j, end) for c in "&;#") if i >= 0), default=end)
    return shown[start:stop]
