"""IRI760 text-iri-scheme: An IRI in a docstring or prose breaks its scheme's rules (an IRI6xx finding)."""

from __future__ import annotations

from ..model import Example, Family, Rule, Severity

RULE = Rule(
    code="IRI760",
    name="text-iri-scheme",
    family=Family.TEXT,
    summary="An IRI in a docstring or prose breaks its scheme's rules (an IRI6xx finding)",
    section="RFC 3987 sec. 7.3; RFC 3986 appendix C",
    severity=Severity.WARNING,
    default=False,
    fix_level=None,
    what=("In text mode (opt-in), an IRI found inside a docstring, a bare string statement or a string literal "
          "that reads as prose (within `<...>` or double quotes, or a bare `scheme://...` or registered "
          "`scheme:...` token) on which an enabled IRI6xx scheme rule fires, such as a misspelled scheme "
          "(IRI603) or a missing host (IRI601). The finding is reported under this code and names that rule; "
          "there is no fix."),
    why=("**Experimental.** Its precision on real docstrings has not yet been measured to the project's bar "
         "(90 % of findings right); the last review found epytext `U{...}`, ElementTree `{ns}tag` and "
         "placeholder hosts misread, so keep it for audits, not for CI gates. Text mode (opt-in) finds IRIs "
         "inside docstrings and prose the way mail readers and documentation tools do (RFC 3987 sec. 7.3; RFC "
         "3986 appendix C: inside `<...>` or double quotes, or a bare `scheme://...` or registered "
         "`scheme:...` token ending at whitespace, without trailing sentence punctuation), and checks each one "
         "with the enabled IRI6xx scheme rules. A reader who copies or clicks such a link gets a broken or "
         "misleading one. The finding names the underlying rule, `in text: IRI6xx name: message`; ignoring "
         "that rule silences it in text too. Severity: warning (info for normalization), since documentation "
         "is not executed."),
    fix_text=("Correct the IRI in the text as the underlying rule says; iri-lint never edits prose, so there "
              "is no automatic fix."),
    valid=(Example("Mirror: https://example.com/files, see also mailto:ops@example.com."),),
    invalid=(Example("Mirror: htps://example.com/files, see also mailto:ops@example.com."),),
    text_of=Family.SCHEME,
)
