"""IRI809 parameter-join: A parameter joined with `&` to a URL that has no query, or after its fragment."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI809",
    name="parameter-join",
    family=Family.ASSEMBLY,
    summary="A parameter joined with `&` to a URL that has no query, or after its fragment",
    section="RFC 3986 sec. 3.3, 3.4, 3.5",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A URL value assembled in code where a piece starting with `&` and a parameter (`&sort=desc`, or `&` "
          "before a value `urlencode()` made) is joined after a URL with a scheme and an authority whose text has "
          "no `?`: `LISTING + \"&sort=desc\"`, where `LISTING` is `\"https://shop.example/list\"`. Only where "
          "each unknown part before the join is a path segment that known text ends with a `/` "
          "(`API + \"/orgs/\" + org + \"/repos\" + \"&per_page=100\"`: a path's hole holds no `?`, design.md's "
          "convention), or cannot hold a `?` (a number, a percent-encoded value); not an unknown part the join "
          "follows with no `/` between, since an endpoint kept in a name often carries its own query, "
          "`BASE + endpoint + \"&page=2\"`: "
          "`url + \"&page=2\"` with `url` a parameter is not reported, nor is a join "
          "after a query (`f\"{LISTING}?q={q}\" + \"&page=2\"`, the `&`'s place). After a fragment, whatever "
          "comes before it (`SEARCH + \"#results\" + \"&page=2\"`): where the fragment is known text up to the "
          "join and holds no parameters of its own (`#access_token=...&state=...`, OAuth's implicit grant) and is "
          "no page's route (`#/search?q=x`, `#!/...`)."),
    why=("The query begins at the first `?` (RFC 3986 sec. 3.4); without one, `&sort=desc` is part of the path "
         "(sec. 3.3): `/list&sort=desc` names another resource, and the server sees no parameter at all, usually "
         "answering 404 or ignoring it. After a `#`, it is the fragment's (sec. 3.5), which is never sent."),
    where="the `&` that the joined piece starts with",
    fix_text=("Start the query with `?` (`LISTING + \"?sort=desc\"`), or pass the parameters with `params=`; put "
              "the fragment last."),
    valid=(
        Example('import requests\nLISTING = "https://shop.example/list"\nrequests.get(LISTING + "?sort=desc")\n',
                kind="python"),
        Example('import requests\nSEARCH = "https://shop.example/search?q=x"\nrequests.get(SEARCH + "&page=2")\n',
                kind="python"),
        Example('import requests\n\n\ndef page(url):\n    return requests.get(url + "&page=2")\n', kind="python"),
    ),
    invalid=(
        Example('import requests\nLISTING = "https://shop.example/list"\nrequests.get(LISTING + "&sort=desc")\n',
                kind="python"),
        Example('import requests\nLISTING = "https://shop.example/list"\n\n\ndef page(n):\n'
                '    return requests.get(f"{LISTING}&page={n}")\n', kind="python"),
        Example('import requests\nSEARCH = "https://shop.example/search?q=x"\n'
                'requests.get(SEARCH + "#results" + "&page=2")\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)

_PARAMETER = re.compile(r"&[A-Za-z0-9_.~\-\[\]%]++=")


def check(facts: Facts) -> Iterator[Raw]:
    """A join whose piece starts '&' and a parameter, after a URL with no '?' so far (sec. 3.4)."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or ref.authority is None or ref.scheme is None:
        return
    text = ref.text
    # (a hole that may hold '#' may hold '?': neither a number nor what quote() or urlencode() made)
    unknown = sorted({h for h, kept in assembly.holes if "#" in kept} | {t for t, _ in assembly.templates})
    for j in assembly.joins:
        if text[j : j + 1] != "&" or j in assembly.unknown:
            continue
        if _PARAMETER.match(text, j) is None and j + 1 not in assembly.unknown:
            continue  # ('&' and a name and '=', or '&' then a value: "&" + urlencode(params))
        if ref.fragment is not None and ref.fragment.start <= j and _plain_fragment(text, ref.fragment.start, j,
                                                                                     assembly.unknown):
            yield Raw(j, j + 1, f"'&' is joined after the fragment '#{facts.shown[ref.fragment.start : j]}': "
                                "the parameter lands in the fragment, which is never sent (RFC 3986 sec. 3.5); "
                                "put it in the query, before the '#'")
            return
        if not (ref.path.start < j <= ref.path.end):
            continue
        if "?" in text[:j] or "#" in text[:j] or any(u < j and "/" not in text[u + 1 : j] for u in unknown):
            return  # (a query already, or an unknown part that may have begun one: not a path segment's, which a
            # known '/' follows and which holds no '?', "/orgs/" + org + "/repos": fixtures193 repro 02)
        end = min((k for k in (text.find(c, j + 1) for c in "&?#") if k > 0), default=len(text))
        what = "the parameters that follow become" if j + 1 in assembly.unknown else \
            f"'{facts.shown[j + 1 : end]}' becomes"
        yield Raw(j, j + 1, f"'&' is joined where the URL has no query: {what} part of the path "
                            "(RFC 3986 sec. 3.3, 3.4); start the query with '?'")
        return


def _plain_fragment(text: str, start: int, j: int, unknown: set[int]) -> bool:
    """Whether the fragment from ``start`` up to the join at ``j`` is known text that holds no parameters of
    its own (``#access_token=...``) and is no page's route (``#/search?q=x``, ``#!/...``)."""
    return not text.startswith(("/", "!/"), start) and not any(c in text[start:j] for c in "=&?") and \
        not any(start <= u < j for u in unknown)
