"""IRI730 text-iri-normalization: An IRI in a docstring or prose is not normalized (an IRI3xx finding)."""

from __future__ import annotations

from ..model import Example, Family, Rule, Severity

RULE = Rule(
    code="IRI730",
    name="text-iri-normalization",
    family=Family.TEXT,
    summary="An IRI in a docstring or prose is not normalized (an IRI3xx finding)",
    section="RFC 3987 sec. 7.3; RFC 3986 appendix C",
    severity=Severity.INFO,
    default=False,
    fix_level=None,
    what=("In text mode (opt-in), an IRI found inside a docstring, a bare string statement or a string literal "
          "that reads as prose (within `<...>` or double quotes, or a bare `scheme://...` or registered "
          "`scheme:...` token) on which an enabled IRI3xx normalization rule fires, such as a decomposed "
          "character (IRI301). The finding is reported under this code and names that rule; there is no fix."),
    why=("**Experimental.** Its precision on real docstrings has not yet been measured to the project's bar "
         "(90 % of findings right); the last review found epytext `U{...}`, ElementTree `{ns}tag` and "
         "placeholder hosts misread, so keep it for audits, not for CI gates. Text mode (opt-in) finds IRIs "
         "inside docstrings and prose the way mail readers and documentation tools do (RFC 3987 sec. 7.3; RFC "
         "3986 appendix C: inside `<...>` or double quotes, or a bare `scheme://...` or registered "
         "`scheme:...` token ending at whitespace, without trailing sentence punctuation), and checks each one "
         "with the enabled IRI3xx normalization rules. A reader who copies or clicks such a link gets a broken "
         "or misleading one. The finding names the underlying rule, `in text: IRI3xx name: message`; ignoring "
         "that rule silences it in text too. Severity: warning (info for normalization), since documentation "
         "is not executed."),
    fix_text=("Correct the IRI in the text as the underlying rule says; iri-lint never edits prose, so there "
              "is no automatic fix."),
    valid=(Example("See https://example.com/café."),),
    invalid=(Example("See https://example.com/cafe\u0301."),),
    text_of=Family.NORMALIZATION,
)
