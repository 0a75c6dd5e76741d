"""Every rule, one line each: ``<family>.<module>`` under ``iri_lint/rules/``, in code order.

A rule's module holds ``RULE`` (its metadata, message, docs and examples) and ``check`` (what it
finds, read from ``rules.facts``); a rule without ``check`` is reported by the engine itself.
Codes are never renumbered. ``scripts/new_rule.py`` writes a new module and adds its line here.

A run reads the rules' metadata from ``rules/index.py``, which ``scripts/gen_rule_index.py`` writes from
the modules, and imports a rule's module when its check first runs (``full_rule``): checking clean ASCII
IRIs imports a few of them (docs/design.md, "Lazy boundaries"). The catalog tests, the docs generator,
``iri-lint explain`` and the rule-describing reports read the rules whole (``all_rules``).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib

from .index import INDEX
from .model import Family, Rule, RuleInfo

MODULES = (
    "syntax.iri100_not_analysed",
    "syntax.iri101_space_in_iri",
    "syntax.iri102_delimiter_in_iri",
    "syntax.iri103_unwise_character",
    "syntax.iri104_control_character",
    "syntax.iri105_special_character",
    "syntax.iri106_private_use_outside_query",
    "syntax.iri107_tag_character",
    "syntax.iri108_noncharacter",
    "syntax.iri109_lone_surrogate",
    "syntax.iri110_malformed_percent",
    "syntax.iri111_invalid_scheme",
    "syntax.iri112_invalid_port",
    "syntax.iri113_invalid_ip_literal",
    "syntax.iri114_misplaced_character",
    "syntax.iri115_non_ascii_in_uri",
    "syntax.iri116_missing_scheme",
    "syntax.iri117_fragment_not_allowed",
    "syntax.iri118_ipv6_zone_id",
    "bidi.iri201_bidi_formatting_character",
    "bidi.iri202_bidi_isolate_character",
    "bidi.iri203_percent_encoded_bidi_control",
    "bidi.iri204_bidi_mixed_direction",
    "bidi.iri205_bidi_rtl_edge",
    "bidi.iri206_bidi_digit_component",
    "normalization.iri301_not_nfc",
    "normalization.iri302_not_nfkc",
    "normalization.iri303_uppercase_scheme",
    "normalization.iri304_uppercase_host",
    "normalization.iri305_lowercase_percent_hex",
    "normalization.iri306_percent_encoded_unreserved",
    "normalization.iri307_dot_segments",
    "normalization.iri308_default_port",
    "normalization.iri309_empty_port",
    "normalization.iri310_empty_path",
    "normalization.iri311_ace_label",
    "normalization.iri312_host_not_idna_mapped",
    "mapping.iri401_percent_not_utf8",
    "mapping.iri402_overlong_utf8",
    "mapping.iri403_idna_failure",
    "mapping.iri404_iri_to_uri_only_api",
    "mapping.iri405_percent_encoded_text",
    "security.iri501_mixed_script_host",
    "security.iri502_confusable_host",
    "security.iri503_fullwidth_form",
    "security.iri504_delimiter_lookalike",
    "security.iri505_invisible_character",
    "security.iri506_password_in_userinfo",
    "security.iri507_mixed_script_component",
    "security.iri508_userinfo_looks_like_host",
    "security.iri509_host_ends_in_number",
    "scheme.iri601_missing_host",
    "scheme.iri602_port_out_of_range",
    "scheme.iri603_scheme_typo",
    "scheme.iri604_unregistered_scheme",
    "scheme.iri605_http_to_hsts_host",
    "text.iri710_text_iri_syntax",
    "text.iri720_text_iri_bidi",
    "text.iri730_text_iri_normalization",
    "text.iri740_text_iri_mapping",
    "text.iri750_text_iri_security",
    "text.iri760_text_iri_scheme",
    "assembly.iri801_authority_join",
    "assembly.iri802_double_slash_join",
    "assembly.iri803_query_delimiter_join",
    "assembly.iri804_urljoin_drops_path",
    "assembly.iri805_unfilled_template",
    "assembly.iri806_unencoded_hole",
    "assembly.iri807_segment_join",
    "assembly.iri808_scheme_join",
    "assembly.iri809_parameter_join",
    "assembly.iri810_client_base_query",
    "assembly.iri811_path_after_query_join",
    "assembly.iri812_client_base_slash",
    "assembly.iri813_urls_run_together",
    "noqa.iri901_unused_noqa",
)


@functools.cache
def full_rule(code: str) -> Rule:
    """Rule ``code`` whole, with its module's ``check`` (if it has one): its module is imported here."""
    name = RULES_BY_CODE[code].module
    module = importlib.import_module(f"{__package__}.{name}")
    found = module.RULE
    assert isinstance(found, Rule) and found.code == code, name
    return dataclasses.replace(found, check=getattr(module, "check", None))


def all_rules() -> tuple[Rule, ...]:
    """Every rule whole, in code order (every rule module imported)."""
    return tuple(full_rule(r.code) for r in RULES)


# the metadata of every rule (``RuleInfo``: no prose, examples or check), in code order
RULES: tuple[RuleInfo, ...] = INDEX
RULES_BY_CODE: dict[str, RuleInfo] = {r.code: r for r in RULES}
DEFAULT_CODES: frozenset[str] = frozenset(r.code for r in RULES if r.default)
# the text-mode rule (IRI7x0) that reports each family's findings inside prose
TEXT_RULE_OF: dict[Family, RuleInfo] = {r.text_of: r for r in RULES if r.text_of is not None}
# each family's codes share their hundreds ("IRI1" for syntax): its short name in reports, "IRI1xx"
FAMILY_PREFIX: dict[Family, str] = {f: min(r.code for r in RULES if r.family == f)[:4] for f in Family}


def family_of(code: str) -> Family | None:
    """The family of rule ``code`` (None for an unknown code)."""
    found = RULES_BY_CODE.get(code)
    return None if found is None else found.family
