"""IRI806 unencoded-hole: A value put into a query without percent-encoding."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI806",
    name="unencoded-hole",
    family=Family.ASSEMBLY,
    summary="A value put into a query without percent-encoding",
    section="RFC 3986 sec. 2.2, 3.4",
    severity=Severity.INFO,
    default=False,
    fix_level=None,
    what=("A URL value assembled in code with an unknown part (a parameter, a call's result) standing right "
          "after `name=` in the query (`\"?q=\" + term`, `f\"...?q={term}\"`) that did not go through "
          "`quote()`, `quote_plus()` or `urlencode()` (or went through one with `&`, `=` or `#` kept in `safe=`), "
          "and is not known to be a number's digits (`%d`, `{n:.2f}`, "
          "`int(x)`, `len(x)`, `str()` of one, the counter of a `for` over `range()`, `enumerate()`'s index, a "
          "parameter annotated `int` or, not annotated, with an integer default, `rows=100`, a name every "
          "binding of which is an integer, `offset = 0` and `offset += 50` in a loop; an exponent "
          "format, `{x:e}` or `{x:g}`, may print `1e+20`), nor a name every binding of which (at most 16) is a "
          "string literal holding none of `&=#+` (`frame = \"d\"`, then `frame = \"w\"` in a branch, or "
          "`\"w\" if weekly else \"d\"`). "
          "Opt-in: a hint, not a proof, since the value may be "
          "known to hold no reserved character."),
    why=("In a query, `&`, `=`, `#` and `+` are delimiters (RFC 3986 sec. 2.2, 3.4): an unencoded value "
         "holding one changes the structure: it ends the parameter, adds another, or starts the fragment "
         "(a search for `C&A` sends `q=C` and a parameter `A`)."),
    where=("the hole: the whole expression it stands for, when the use's own expression holds it (`term` in "
           "`{term}`, `tag` in `str(tag)`); a hole bound in another statement (`query = \"v=\" + version`, "
           "`page = request.GET.get(\"page\")`) at the name each use reads it by (`query` in "
           "`requests.get(HOST + \"?\" + query)`): once per use, where that use's noqa comment reaches"),
    fix_text="Encode the value (`quote(term, safe=\"\")`), or pass the parameters as `params=` / `urlencode()`.",
    valid=(
        Example('from urllib.parse import quote\nimport requests\n\n\ndef find(term):\n'
                '    return requests.get("https://h.example/search?q=" + quote(term))\n', kind="python"),
        Example('import requests\n\n\ndef find(term):\n'
                '    return requests.get("https://h.example/search", params={"q": term})\n', kind="python"),
    ),
    invalid=(
        Example('import requests\n\n\ndef find(term):\n    return requests.get("https://h.example/search?q=" + term)\n',
                kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each hole that may hold a delimiter (not percent-encoded, no number) right after '=' in the query."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or ref.query is None:
        return
    query, text = ref.query, ref.text
    for at, kept in assembly.holes:
        if kept and query.start < at < query.end and text[at - 1] == "=":
            what = "without percent-encoding" if kept == "&=#+" else f"with {' and '.join(map(repr, kept))} kept safe"
            yield Raw(at, at + 1, f"this value is put into the query {what}: a '&', '=', '#' "
                                  "or '+' in it would change the query's structure")
