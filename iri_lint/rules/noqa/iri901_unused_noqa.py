"""IRI901 unused-noqa: A `# noqa` comment names an IRI code that silences nothing."""

from __future__ import annotations

from ..model import Example, Family, FixLevel, Rule, Severity

RULE = Rule(
    code="IRI901",
    name="unused-noqa",
    family=Family.NOQA,
    summary="A `# noqa` comment names an IRI code that silences nothing",
    section="flake8's `# noqa` (as ruff's RUF100)",
    severity=Severity.WARNING,
    default=False,
    fix_level=FixLevel.SOURCE,
    what=("A `# noqa: IRI101, ...` comment naming an iri-lint code (or prefix, `IRI1`) for which no finding "
          "of an enabled rule is on the lines the comment silences, or a code that is no iri-lint rule "
          "(`IRI999`). One finding per comment, listing those codes. A bare `# noqa` and other tools' codes "
          "(`E501`) are never reported: iri-lint cannot know what they silence; nor is a code of a rule "
          "that is not enabled, as another run may enable it."),
    why=("A suppression that silences nothing hides the next real finding on that line: when the URL changes, "
         "a new IRI101 goes unseen. It is also noise for readers, who must wonder what it was for. The "
         "comment is read as flake8 reads it (its logical line, code prefixes), so what iri-lint calls "
         "unused is exactly what flake8 would not use."),
    where="the code (or prefix) in the noqa comment that silences nothing",
    fix_text=("Remove the unused codes from the comment; with none left, remove the `noqa` directive (the "
              "whole comment when nothing else is in it). `# noqa: IRI101, E501` becomes `# noqa: E501`."),
    valid=(
        Example('url = "https://example.net/a b"  # noqa: IRI101\n', kind="python"),
        Example('url = "https://example.net/"  # noqa: E501\n', kind="python"),
    ),
    invalid=(
        Example('url = "https://example.com/"  # noqa: IRI101, E501\n',
                'url = "https://example.com/"  # noqa: E501\n', kind="python"),
        Example('url = "https://example.org/"  # noqa: IRI101\n', 'url = "https://example.org/"\n', kind="python"),
        Example('url = "https://example.com/a b"  # noqa: IRI101, IRI999\n',
                'url = "https://example.com/a b"  # noqa: IRI101\n', kind="python"),
    ),
)
