"""IRI111 invalid-scheme: Scheme is empty or has characters a scheme cannot have."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...core.chars import SCHEME_CHARS
from ...core.errors import Detail, Kind
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import Subject, report

RULE = Rule(
    code="IRI111",
    name="invalid-scheme",
    family=Family.SYNTAX,
    summary="Scheme is empty or has characters a scheme cannot have",
    section="RFC 3986 sec. 3.1",
    severity=Severity.ERROR,
    default=True,
    fix_level=None,
    what=("The part before the first `:` (when no `/`, `?` or `#` comes earlier) is read as the scheme, and it "
          "is empty (`:foo`), does not start with a letter (`1http:`), or holds a character other than "
          "letters, digits, `+`, `-` and `.` (`ht_tp:`). Given git's scp-like address `user@host:path`, whose "
          "`@` stands there (given to a URL API: elsewhere it is no URL context), the message names it and the "
          "`ssh://` URL it stands for (`requests.get(\"git@github.com:org/repo.git\")`)."),
    why=('A scheme is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`; anything else before the first `:` makes '
         "the string neither an IRI nor a valid relative reference."),
    fix_text="Correct the scheme; if a relative path has a colon in its first segment, write `./` before it.",
    valid=(Example("svn+ssh://example.com/repo"),),
    invalid=(Example("1http://example.com/"),),
    needs=Needs.ERRORS,
)


# git's scp-like ssh address, [user@]host:path: its '@' is where a scheme's characters stop
_SCP = re.compile(r"([^/:@\s]++)@([^/:@\s]++):(?!//)(\S*+)")


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    scp = _SCP.fullmatch(err.text) if err.text[err.rec.start] == "@" else None
    if scp is not None:
        user, host, path = scp.groups()
        return (f"git's scp-like address user@host:path is no URI (its '@' stands where a scheme's characters "
                f"must: RFC 3986 sec. 3.1); as a URL it is 'ssh://{user}@{host}/{path.lstrip('/')}'")
    if err.rec.detail is Detail.EMPTY_SCHEME:
        return "empty scheme before ':' (RFC 3986 sec. 3.1)"
    if err.rec.start == 0 and err.text[0] in SCHEME_CHARS:
        return f"a scheme must start with a letter, not {err.label} (RFC 3986 sec. 3.1)"
    return f'{err.label} is not allowed in a scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986 sec. 3.1)'


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of characters a scheme cannot have, and an empty scheme; not after a hole, which may hold the
    scheme and more (``url += f"{sep}--proxy-server={proxy}"``: the ':' is then no scheme's)."""
    first = min((a for a, _ in facts.holes), default=None)
    return (r for r in report(facts, Kind.SCHEME, message) if first is None or r.start <= first)
