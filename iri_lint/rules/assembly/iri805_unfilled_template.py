"""IRI805 unfilled-template: A URL template reaches a URL API unfilled."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity

RULE = Rule(
    code="IRI805",
    name="unfilled-template",
    family=Family.ASSEMBLY,
    summary="A URL template reaches a URL API unfilled",
    section="RFC 6570 sec. 1.1; RFC 3986 sec. 2",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A value passed to a URL API (`requests.get`, `urlopen`, an HTTP client's methods, ...) whose known "
          "text still holds a template placeholder: a Python format field (`{user}`), an RFC 6570 expression "
          "(`{?page,size}`), a printf conversion (`%s`, `%(id)d`), a `${VAR}`, an example's `<id>`, or braces "
          "around a value known at run time, an expression whose name the code chose (`\"{\" + key + \"}\"`, "
          "`\"{{{}}}\".format(key)`). The "
          "value is followed through names, constants of the project's modules and joins; a template filled "
          "on the way (`.format`, `%`, an f-string) is not reported, nor is one that only reaches a URL-named "
          "variable (a template kept for later is silent; so is one given to a URL-named parameter of the project's "
          "own function, `get_json(ROUTE)`, even where its body sends it: the body is not followed), nor one that "
          "only reaches a join "
          "(`urljoin(ROOT, \"%d/move/\")`, `posixpath.join`: filled where the join's value goes)."),
    why=("A placeholder is no part of any URL: `{`, `}` and `<` are not allowed in one (RFC 3986 sec. 2), "
         "and `%s` is a malformed percent-encoding. Sent as it is, the request goes to a path nobody serves "
         "(often after the client percent-encodes the braces), and the bug hides behind a 404."),
    where=("the first character of the placeholder (`{`, `%`, `$`, `<`); one finding for a "
           "literal's placeholders, at the first. A template of this module sent unfilled from several calls is "
           "that one finding, in its literal (a `# noqa` there silences them all); one spelled in another module "
           "is reported at each use, at the name bringing it in"),
    fix_text="Fill the template before the call (`URL.format(user=user)`, `uritemplate.expand`, an f-string).",
    valid=(
        Example('import requests\nAVATAR_URL = "https://cdn.example/{user}/{size}.png"\n'
                'requests.get(AVATAR_URL.format(user="a", size=64))\n', kind="python"),
        Example('PROFILE_URL = "https://social.example/u/{user}"\n', kind="python"),
    ),
    invalid=(
        Example('import requests\nAVATAR_URL = "https://cdn.example/{user}/{size}.png"  # IRI805\n'
                'requests.get(AVATAR_URL)  # (a template of this module: reported at its literal)\n', kind="python"),
        Example('import requests\nrequests.get("http://127.0.0.1:{port}/api")\n', kind="python"),
        Example('import requests\nAPI = "https://stats.example/v1"\n\ndef values(name):\n'
                '    return requests.get(API + "/fields/{" + name + "}/values")\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)


def check(facts: Facts) -> Iterator[Raw]:
    """Each placeholder left in a value that reaches a URL API."""
    assembly = facts.assembly
    if assembly is None or not assembly.at_api:
        return
    for at, placeholder in assembly.templates:
        yield Raw(at, at + 1, f"the template placeholder '{placeholder}' reaches the URL API unfilled")
