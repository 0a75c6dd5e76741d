"""IRI813 urls-run-together: Two URLs written as strings on separate lines run together into one."""

from __future__ import annotations

from collections.abc import Iterator

from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import SCHEME_AND_SLASHES

RULE = Rule(
    code="IRI813",
    name="urls-run-together",
    family=Family.ASSEMBLY,
    summary="Two URLs written on separate lines run together into one: a missing `,`",
    section="RFC 3986 sec. 3.3, 3.4",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("A string that starts with a scheme and `//` (`\"https://b.example/pub/\"`) on the line after another "
          "string that holds an absolute URL, with nothing between them but what Python's grammar allows between "
          "the strings of an implicit concatenation: the list, tuple or call lost the `,` between two URLs, and "
          "Python joins them into one (`\"https://a.example/pub/x.tar.gz\" \"https://b.example/pub/x.tar.gz\"` is "
          "one URL whose path holds the second). Only where the second URL is joined to the first's path (past "
          "its authority: a join to the host is IRI801's, which asks about the comma too), query or fragment, "
          "and not right after a `=`, a `/` or whitespace: a parameter's value or a nested URL wrapped where it "
          "starts (`\"?next=\"` then `\"https://example.org/\"`, `\"https://web.archive.org/web/2020/\"` then "
          "`\"https://example.org/\"`: an archived page's address), or a list of URLs separated by spaces "
          "(OAuth's `redirect_uris`). So a list item that ends with `/` is not reported (`\"https://a.example/x/\"` "
          "then `\"https://b.example/y\"`): the grammar cannot tell it from the archive's address.\n\n"
          "Checked where the value is used as a URL (placement.md), and in every list, tuple or set display "
          "assigned to a name, whatever the name (`MIRRORS = [...]`, `PYTHON_BLOGS = (...)`): an item that two "
          "absolute URLs make is no one's intent."),
    why=("Python joins adjacent string literals into one (the language reference, \"String literal "
         "concatenation\"), so the list holds one item less, and that item is one URL whose path or query "
         "holds the second URL's text (RFC 3986 sec. 3.3, 3.4 allow `:` and `/` there): valid syntax, so nothing "
         "fails until the request goes to the first host for a page that does not exist, and the second mirror "
         "is never tried."),
    where="the second string's first character after its quote (the `h` of `https`)",
    fix_text="Put back the `,` between the two strings.",
    valid=(
        Example('MIRRORS = [\n    "https://a.example/pub/x.tar.gz",\n    "https://b.example/pub/x.tar.gz",\n]\n',
                kind="python"),
        Example('LOGIN_URL = (\n    "https://sso.example/login?next="\n    "https://app.example/home"\n)\n',
                kind="python"),
        Example('ARCHIVED_URL = (\n    "https://web.archive.org/web/20201126185327/"\n    "https://example.org/a"\n)\n',
                kind="python"),
    ),
    invalid=(
        Example('MIRROR_URLS = [\n    "https://a.example/pub/x.tar.gz"\n    "https://b.example/pub/x.tar.gz",\n]\n',
                kind="python"),
        Example('import requests\nfor url in ["https://a.example/search?q=boots"\n'
                '            "https://b.example/search?q=boots", "https://c.example/search?q=boots"]:\n'
                '    requests.get(url)\n', kind="python"),
    ),
    needs=Needs.ASSEMBLY,
)



def check(facts: Facts) -> Iterator[Raw]:
    """A string of an implicit concatenation that starts a URL of its own past the first URL's authority."""
    assembly, ref = facts.assembly, facts.ref
    if assembly is None or ref.scheme is None or ref.authority is None:
        return
    text = ref.text
    for j in assembly.joins:
        before = text[j - 1]
        if j > ref.authority.end and before not in "=/" and not before.isspace() and \
                SCHEME_AND_SLASHES.match(text, j) is not None and assembly.implicitly_joined(j):
            yield Raw(j, j + 1, "two URLs run together: Python joins these two strings into one URL, whose path or "
                                "query holds the second; is a ',' missing between them?")
            return
