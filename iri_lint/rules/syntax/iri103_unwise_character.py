"""IRI103 unwise-character: Unwise character (`\\`, `^`, `` ` ``, `{`, `|` or `}`) in an IRI."""

from __future__ import annotations

from collections.abc import Iterator

from ...core.errors import Kind
from ...core.schemes import windows_path
from ..facts import Facts
from ..model import Example, Family, FixLevel, Needs, Raw, Rule, Severity
from .shared import OBJECT_KEY, Subject, SyntaxFix, report

RULE = Rule(
    code="IRI103",
    name="unwise-character",
    family=Family.SYNTAX,
    summary="Unwise character (`\\`, `^`, `` ` ``, `{`, `|` or `}`) in an IRI",
    section="RFC 3987 sec. 2.2; 3987bis sec. 6.3",
    severity=Severity.ERROR,
    default=True,
    fix_level=FixLevel.NONE,
    what=("A literal backslash, `^`, backtick (U+0060), `{`, `|` or `}` in any component of the IRI; a run of "
          "them is one finding, and the fix percent-encodes each one. A Windows path given to a URL API "
          "(`requests.get(r\"C:\\Users\\me\\a.html\")`, read with `C` as its scheme) is one finding at its "
          "first backslash, with no fix: it needs a `file:` URL (`pathlib.Path(p).as_uri()`); so is a UNC path "
          "(`\\\\server\\share\\a.html`), whose having no scheme (IRI116) follows from it. " + OBJECT_KEY),
    why=("RFC 3987 sec. 2.2 leaves this character out of the IRI grammar and 3987bis sec. 6.3 explains why: "
         "these characters are shown differently on some systems (U+005C as a yen sign) and are used around "
         "IRIs, so IRIs with them are read piecemeal. Software that receives such a string may cut it, reject "
         "it, or map it differently."),
    fix_text="Percent-encode the character (`%5C`, `%5E`, `%60`, `%7B`, `%7C`, `%7D`).",
    valid=(Example("https://example.com/a%7Cb"),),
    invalid=(Example("https://example.com/a|b", "https://example.com/a%7Cb"),),
    needs=Needs.ERRORS,
)


def message(err: Subject) -> str:
    """The finding's message for one error (a run of them gets its length appended)."""
    return (f"{err.label} in {err.component}: "
            f"this character is not allowed in IRIs (3987bis sec. 6.3); {err.remedy('percent-encode it')}")


def path_message(text: str) -> str:
    """The message for a Windows path given where a URL is read (its drive's letter read as a scheme)."""
    if windows_path(text) == "unc":
        end = text.find("\\", 2)
        server = text[2 : end if 2 < end <= 42 else min(len(text), 42)]
        return (f"'\\\\{server}\\' starts a Windows UNC path, not a URL: a URL API reads it as a relative path of "
                f"backslashes; give it pathlib.Path(...).as_uri(), 'file://{server}/...'")
    letter = text[:1]
    return (f"'{letter}:\\' starts a Windows path, not a URL: a URL API reads '{letter}' as the scheme and the "
            f"backslashes as characters of a path; give it pathlib.Path(...).as_uri(), 'file:///{letter}:/...'")


def check(facts: Facts) -> Iterator[Raw]:
    """Each run of unwise characters, percent-encoded by the fix; of a Windows path (``C:\\Users\\...``,
    ``\\\\server\\share``), the first, with no fix: what it needs is a ``file:`` URL."""
    text = facts.ref.text
    if windows_path(text) is not None:
        first = next(iter(report(facts, Kind.UNWISE, message)), None)
        return iter(() if first is None else (first._replace(message=path_message(text), edits=None),))
    return report(facts, Kind.UNWISE, message, SyntaxFix.ENCODE)
