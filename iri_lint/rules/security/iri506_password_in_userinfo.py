"""IRI506 password-in-userinfo: Password in the userinfo."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.security import PLACEHOLDER_WORDS
from ..facts import Facts
from ..model import Example, Family, Needs, Raw, Rule, Severity
from .shared import problems

RULE = Rule(
    code="IRI506",
    name="password-in-userinfo",
    family=Family.SECURITY,
    summary="Password in the userinfo",
    section="RFC 3986 sec. 3.2.1",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("A userinfo `user:password@` whose password is not empty, not a redaction or placeholder (`***`, "
          "`xxx`, `...`, `<password>`, `[password]`, `{password}`, `${PASSWORD}`, `$PASSWORD`, `%(password)s`, "
          "`%s`, `__PASSWORD__`, one of the words " + ", ".join(f"`{w}`" for w in sorted(PLACEHOLDER_WORDS))
          + " in any case, or one of them after `my` or `your`, `my_secret`, or `your` ... `password`, "
          "`yourStrong(!)Password`, SQL Server's documented sample) and not the user name again "
          "(`guest:guest`), nor anonymous FTP's (`ftp://anonymous:guest@ftp.example.org/`, by convention an e-mail "
          "address, RFC 1635), in any scheme but one whose userinfo is no login (fsspec's "
          "`github://org:repo@sha/path`). A password only partly a placeholder is still one: its letters and "
          "digits are in the source (`Tr0ub%dor`, `Spring{YEAR}!x`); one that is placeholders and punctuation only "
          "(`{a}-{b}`) is a template's. Files that match `test-files` are not checked for it."),
    why=("`user:password@` is deprecated: the password is sent and logged in clear text and ends up in version "
         "control. Redactions and placeholders (`***`, `xxx`, `<password>`, `${PASSWORD}`, `pass`, "
         "`scott:tiger`) are not passwords, nor is a password that repeats the user name (`guest:guest`, "
         "`admin:admin`: a product's default login, which the user name already tells), and test files "
         "(the `test-files` globs: `tests/`, `test_*.py`, `*_test.py`, `conftest.py`) hold fixtures, not "
         "leaks: none of these is reported."),
    fix_text="Pass credentials separately (an auth parameter or environment variable).",
    valid=(
        Example("https://user@example.com/"),
        Example("https://user:***@example.com/"),
        Example("postgresql://scott:tiger@localhost/test"),
        Example("amqp://guest:guest@localhost:5672//"),
        Example("ftp://anonymous:guest@ftp.example.org/pub/"),
    ),
    invalid=(Example("https://deploy:9fK2xq@example.com/"), Example("amqp://guest:guest2@localhost//")),
    needs=Needs.USERINFO,
)

MESSAGE = ("the userinfo holds a password, so it is in the source and in every log of this IRI; "
           '"user:password" is deprecated (RFC 3986 sec. 3.2.1, RFC 3987 sec. 8); pass credentials separately')


def check(facts: Facts) -> Iterator[Raw]:
    """A password that is not a placeholder."""
    for p in problems(facts, "userinfo-password"):
        yield Raw(p.span.start, p.span.end, MESSAGE)
