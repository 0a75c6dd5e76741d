"""IRI803 query-delimiter-join: A join adds a second `?`, or a `?` after the `#`."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.context import Assembly
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import names_url

RULE = Rule(
    code="IRI803",
    name="query-delimiter-join",
    family=Family.ASSEMBLY,
    summary="A join adds a second `?`, or a `?` after the `#`",
    section="RFC 3986 sec. 3.4, 3.5",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A URL value assembled in code where a piece holding `?` is joined after a value that already has a "
          "query (`LISTING + \"?sort=desc\"`, where `LISTING` ends with `?page=1`) or a fragment (`#top`).\n\n"
          "Reported:\n\n"
          "- the `?` and the earlier `?` known text of different pieces, with no unknown part between them but "
          "parameters' values and parts that cannot hold a `#` (what `quote()` or `urlencode()` percent-encoded, a "
          "number): `LISTING + \"&\" + urlencode(params) + \"?expand=data\"`, "
          "`LISTING + \"&sort=desc\" + \"?view=grid\"`;\n"
          "- after a `#`, a piece starting with `?`, however many pieces and unknown parts stand between (nothing "
          "ends a fragment: `\"#L\" + str(line) + \"?plain=1\"`, and in a template with a field between them, "
          "`f\"{LIST}#L{line}?plain=1\"`);\n"
          "- after a parameter's value an earlier piece gave, however spelled: `\"?appid=demo\" + "
          "\"/alerts?lang=en\"`, `\"?appid=\" + KEY + \"/alerts?lang=en\"`, and an httpx client's request after "
          "a base with a query, which httpx appends to;\n"
          "- in a format template or an f-string, around another parameter's value (`f\"?q={q}?page={page}\"`) or "
          "a number's or a percent-encoded one (`?Expires={n:d}?Signature=x`).\n\n"
          "Not reported:\n\n"
          "- a single literal holding both: the literal's own business, and valid syntax (each string of an "
          "implicit concatenation over lines is one of its own);\n"
          "- a format template's or an f-string's `?` after the value of a parameter named for a URL (`url`, "
          "`uri`, `href`, `link` at its end, `next`, `redirect`, `return_to`, `continue`, `callback`, `service`, "
          "`RelayState`, ...) that may hold a URL too (`\"?url={}?sig={}\".format(u, s)`: a nested URL's query);\n"
          "- a piece joined right after `=`: a parameter's value (`\"?next=\" + \"/home?tab=1\"`, its `?` data "
          "as in `\"&next=/home?tab=1\"`), a `?` further in a piece after a parameter's `=` "
          "(`\"&sort=asc?view=grid\"`, which the query's grammar cannot tell from that), or a value that holds a "
          "URL;\n"
          "- after a value unknown in between, which may end the query, unless it is in a parameter's value, past "
          "its `=` (`?lang={lang}` then `?fmt=vtt`, `size={w}x{h}` then `?markers=`: data ends nothing);\n"
          "- after a `#` a value unknown right after it may make a page's route, or text joined after a `#` that "
          "may be a route of the page's own (`#/path?q=1`), or a `?` joined to a fragment that is a route "
          "(`\"https://app.example/#/orders\" + \"?tab=open\"`, `#!/...`);\n"
          "- a URN's `?=` q-component joined after its `?+` r-component, its grammar (RFC 8141 sec. 2);\n"
          "- a `?` after the piece's own `#`: the fragment's data (`LIST + \"?q=\" + q + \"#faq?\"`, sec. 3.5)."),
    why=("Only the first `?` starts the query (RFC 3986 sec. 3.4): the second one is data, so the parameters run "
         "together (`page=1?sort=desc` is one parameter named `page`). After a `#` everything is the fragment "
         "(sec. 3.5), which is never sent to the server: the query is lost."),
    where="the `?` (or `#`) that the joined piece brings",
    fix_text=("Join further parameters with `&`, or build the query with `urlencode` and `params=`; put the "
              "fragment last."),
    valid=(
        Example('import requests\nLISTING = "https://shop.example/list?page=1"\nrequests.get(LISTING + "&sort=desc")\n',
                kind="python"),
        Example('import requests\nLIST = "https://shop.example/list"\n\ndef help_page(q):\n'
                '    return requests.get(LIST + "?q=" + q + "#faq?")\n', kind="python"),
    ),
    invalid=(
        Example('import requests\nLISTING = "https://shop.example/list?page=1"\nrequests.get(LISTING + "?sort=desc")\n',
                kind="python"),
        Example('import requests\nPAGE = "https://shop.example/list#top"\nrequests.get(PAGE + "?sort=desc")\n',
                kind="python"),
        Example('import requests\nLIST = "https://shop.example/list?page=2"\n'
                'requests.get(LIST + "&sort=desc" + "?view=grid")\n', kind="python"),
        Example('import requests\nWEATHER = "https://weather.example/v1?appid=demo"\n'
                'requests.get(WEATHER + "/alerts?lang=en")\n', kind="python"),
        Example('import requests\nLIST = "https://shop.example/list"\n\ndef page(lang):\n'
                '    return requests.get(LIST + "?lang=" + lang + "?view=grid")\n', kind="python"),
        Example('import requests\nLIST = "https://shop.example/list"\n\ndef page(q, n):\n'
                '    return requests.get(f"{LIST}?q={q}?page={n}")\n', kind="python"),
        Example('import requests\nBLOB = "https://code.example/org/repo/blob/main/"\n\ndef raw_line(path, line):\n'
                '    return requests.get(BLOB + path + "#L" + str(line) + "?plain=1")\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """A joined piece's '?' after known text of earlier pieces that holds a '?' or a '#' (a hole between
    them may be anything)."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or not assembly.joins:
        return
    text = ref.text
    joins = assembly.joins
    # (a hole whose text cannot hold '#', percent-encoded or a number, cannot end the query)
    unknown = {h for h, kept in assembly.holes if "#" in kept}
    for k, j in enumerate(joins):
        end = joins[k + 1] if k + 1 < len(joins) else len(text)
        q = text.find("?", j, end)
        if q < 0 or text[j - 1] == "=":
            continue  # (a piece joined after '=' is a parameter's value: a '?' in it is data, sec. 3.4)
        if text.find("#", j, q) >= 0:
            continue  # (the piece's own '#' starts the fragment, whose '?' is data: "#faq?", sec. 3.5)
        if q > j and _parameter_data(text, j, q):
            continue  # (further in a piece, after a parameter's '=': data too, "&next=/home?tab=1")
        # the known text since the last hole that may end the query: a parameter's value (a hole right after
        # "=" past a '?') is data, whatever it holds, and ends nothing
        known = max((h + 1 for h in unknown if h < j and not _parameter_value(text, h)), default=0)
        before = joins[k - 1] if k else 0
        # in a fragment: a piece that starts a query ("?sort=desc") after a piece holding the '#'; a piece
        # with a '?' further in may be a route of the page's own ("#" + "/route?x=1"). In a query: its '?'
        # anywhere in the known text
        fragment = text.rfind("#", 0, j)
        if fragment >= 0:
            # ("#/orders", "#!/orders": a page's route; so may be a hole right after the '#')
            route = text.startswith(("/", "!/"), fragment + 1) or fragment + 1 in assembly.unknown
            # (nothing a hole holds ends a fragment: '#L' + line + '?plain=1' is as lost as '#logs' + '?x', sec. 3.5;
            # so is a template's f"#L{line}?plain=1", a field between them: fixtures203 repro 02)
            later = fragment < before and (not assembly.same_literal(fragment, q) or
                                           any(fragment < h < q for h, _ in assembly.holes))
            mark = fragment if (fragment >= max(known, before) or later) and q == j and not route else -1
        else:
            mark = text.rfind("?", known, j)
        if mark < 0 or _urn_components(text, mark, q) or _nested(assembly, text, mark, q):
            continue
        what = "the fragment" if text.find("#", 0, j) >= 0 else "the query"
        yield Raw(q, q + 1, f"a '?' is joined after {what} (a piece before it holds a '{text[mark]}', "
                            f"{_around(facts.shown, mark, j)}): "
                  + ("it starts no new query, the parameters run together" if what == "the query"
                     else "it lands in the fragment, which is never sent"))
        return


def _around(shown: str, mark: int, j: int) -> str:
    """The text around the earlier '?' or '#', up to the join at ``j``, as the message quotes it (a hole as '…'):
    ``'….example/list?q=…'``."""
    a, b = max(0, mark - 16), min(j, mark + 8)
    return f"'{'…' if a else ''}{shown[a:b]}{'…' if b < j else ''}'"


def _nested(assembly: Assembly, text: str, mark: int, q: int) -> bool:
    """One literal writes both '?' with a value between them that may hold a URL, whose query the second one
    goes on with (``"?url={}?sig={}".format(u, s)``: valid syntax, a nested URL's); not when what stands between
    is a number or percent-encoded (``?Expires={n:d}?Signature=x``), nor a parameter that names no URL
    (``f"?q={q}?page={p}"``: the second query is a mistake)."""
    if text[mark] == "#" or not assembly.same_literal(mark, q):
        return False  # (no '?' ends a fragment: "#L{line}?plain=1" is none of a nested URL's)
    literal = {k for a, b, k in assembly.spelled if a <= mark < b}
    own = [(a, b) for a, b, k in assembly.spelled if k in literal]  # (the literal's text around its holes)
    holes = dict(assembly.holes)  # (a hole that may hold '#' may hold '?': no number, nothing quote() made)
    return any(("#" in holes[p] and _url_parameter(text, p)) if p in holes
               else not any(a <= p < b for a, b in own) for p in range(mark + 1, q))


def _parameter_data(text: str, j: int, q: int) -> bool:
    """Whether the '?' at ``q``, in the piece joined at ``j``, is in a parameter's value: one the piece itself
    opens (``"&next=/home?tab=1"``), or one that holds a URL (``"?next=https://h" + "/home?tab=1"``, a parameter
    named for one); not a value an earlier piece gave, however it was spelled (``"?appid=" + KEY`` then
    ``"/alerts?lang=en"``: a path and a query joined after the query; fixtures165, fixtures167)."""
    eq = text.find("=", max(0, *(text.rfind(c, 0, q) for c in "&;?")), q)
    return eq >= 0 and (eq >= j or "://" in text[eq:q] or _url_parameter(text, eq + 1))


def _url_parameter(text: str, hole: int) -> bool:
    """Whether the hole at ``hole`` is the value of a parameter named for a URL (``url=``, ``next=``,
    ``redirect_uri=``): what it holds may have a query of its own."""
    if not hole or text[hole - 1] != "=":
        return False
    return names_url(text[max(text.rfind(c, 0, hole - 1) for c in "?&;") + 1 : hole - 1])


def _parameter_value(text: str, hole: int) -> bool:
    """Whether the hole at ``hole`` is in a query parameter's value: past a ``?`` and its parameter's ``=`` (sec. 3.4:
    ``size={w}x{h}``, ``q=tag:{q}``, fixtures193 repro 01; not a name's, ``?{key}=v``)."""
    start = max(text.rfind(c, 0, hole) for c in "?&;")
    return start >= 0 and "?" in text[:hole] and "#" not in text[:hole] and text.find("=", start, hole) >= 0


def _urn_components(text: str, mark: int, q: int) -> bool:
    """A URN's q-component joined after its r-component: ``urn:x:doc?+r`` + ``?=lang=en`` (RFC 8141 sec. 2,
    ``rq-components = [ "?+" r-component ] [ "?=" q-component ]``)."""
    return text[:4].lower() == "urn:" and text.startswith("?+", mark) and text.startswith("?=", q) \
        and "?" not in text[mark + 1 : q]
