"""IRI100 not-analysed: iri-lint could not analyse this file."""

from __future__ import annotations

from ..model import Example, Family, Rule, Severity

RULE = Rule(
    code="IRI100",
    name="not-analysed",
    family=Family.SYNTAX,
    summary="iri-lint could not analyse this file",
    section="RFC 3987 sec. 2.2",
    severity=Severity.WARNING,
    default=True,
    fix_level=None,
    what=("A literal, or under flake8 a whole file, on which iri-lint's own analysis failed: the engine raised "
          "an exception, or the file nests too deeply to walk, or (under flake8, which decodes a file Python "
          "refuses as latin-1 and reports no E999 for it) the file's bytes are not in its declared encoding; "
          "`iri-lint check` lists such a file as an error instead. The finding quotes the error, and the other "
          "literals and files are still checked."),
    why=("A file that iri-lint cannot analyse (it is nested too deeply, or the engine met a case it does not "
         "handle) gets this one finding instead of a crashed flake8 run, so the problem is visible and the "
         "rest of the project is still checked."),
    where="the literal whose analysis failed; under flake8, line 1, column 1 of the file",
    fix_text="Report the file to the iri-lint developers; silence it with `# noqa: IRI100`.",
    valid=(Example("https://example.com/"),),
    invalid=(),
)
