"""What every text-mode rule (IRI7x0) says: one rule per family, reporting that family's findings on
IRIs found in prose (RFC 3987 sec. 7.3). Each module gives what differs: its family and examples."""

from __future__ import annotations

from ..model import Example, Family, Rule, Severity


def text_rule(*, code: str, name: str, of: Family, summary: str, such_as: str, valid: Example, invalid: Example,
              severity: Severity = Severity.WARNING) -> Rule:
    """The IRI7x0 rule reporting family ``of`` in prose; ``such_as``: two of its rules, as examples."""
    rules = f"IRI{code[4]}xx {of}"  # "IRI2xx bidi"
    return Rule(
        code=code,
        name=name,
        family=Family.TEXT,
        summary=summary,
        section="RFC 3987 sec. 7.3; RFC 3986 appendix C",
        severity=severity,
        default=False,
        fix_level=None,
        what=("In text mode (opt-in), an IRI found inside a docstring, a bare string statement or a string "
              "literal that reads as prose (within `<...>` or double quotes, or a bare `scheme://...` or "
              f"registered `scheme:...` token) on which an enabled {rules} rule fires, such as {such_as}. "
              "The finding is reported under this code and names that rule; there is no fix."),
        why=("**Experimental.** Its precision on real docstrings has not yet been measured to the project's bar "
             "(90 % of findings right); the last review found epytext `U{...}`, ElementTree `{ns}tag` and "
             "placeholder hosts misread, so keep it for audits, not for CI gates. Text mode (opt-in) finds IRIs "
             "inside docstrings and prose the way mail readers and documentation tools do (RFC 3987 sec. 7.3; "
             "RFC 3986 appendix C: inside `<...>` or double quotes, or a bare `scheme://...` or registered "
             "`scheme:...` token ending at whitespace, without trailing sentence punctuation), and checks each "
             f"one with the enabled {rules} rules. A reader who copies or clicks such a link gets a broken or "
             f"misleading one. The finding names the underlying rule, `in text: IRI{code[4]}xx name: message`; "
             "ignoring that rule silences it in text too. Severity: warning (info for normalization), since "
             "documentation is not executed."),
        fix_text=("Correct the IRI in the text as the underlying rule says; iri-lint never edits prose, so there "
                  "is no automatic fix."),
        valid=(valid,),
        invalid=(invalid,),
        text_of=of,
    )
