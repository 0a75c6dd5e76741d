"""Laws of the public API (RFC 3987 sec. 2.2, 3, 5.3; RFC 3986 sec. 5.2), on grammar-built and raw input.

Each failure hypothesis once found is kept as an explicit ``@example``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from iri_lint import check, equivalent, normalize, parse, resolve, scan, to_iri, to_uri
from iri_lint.core import IDNAError, IRISyntaxError, MappingError, is_valid
from iri_lint.core.grammar import KINDS, Profile
from iri_lint.core.mapping import idna2003_host, uri_edits
from iri_lint.rules.engine import apply_fixes

from .strategies import PROPERTY, any_iri, grammar_iris, kinds, profiles

pytestmark = pytest.mark.fuzz
LEVELS = ("simple", "syntax", "scheme")


@PROPERTY
@given(any_iri, kinds, profiles)
@example("http://example.com:\xb2\xb2", "IRI-reference", Profile.IRI)
@example("", "absolute-IRI", Profile.IRI)
@example("a b:c", "IRI-reference", Profile.WEB_ADDRESS)
@example(" ", "IRI", Profile.WEB_ADDRESS)
def test_scan_and_parse_raise_only_syntax_errors(text: str, kind: str, profile: Profile) -> None:
    ref = scan(text, kind, profile)
    try:
        parse(text, kind, profile)
    except IRISyntaxError as exc:
        assert not ref.is_valid
        assert 0 <= exc.position <= exc.end <= len(text)
    else:
        assert ref.is_valid
    for e in ref.errors:
        assert 0 <= e.position <= e.end <= len(text)
        assert e.position < e.end or not text


@PROPERTY
@given(any_iri, kinds, profiles)
@example("\U000f0000%c3", "irelative-ref", Profile.WEB_ADDRESS)
@example("\uff48\U0010ffff", "irelative-ref", Profile.LEIRI)
@example("\nhttps://example.org\n    ", "IRI-reference", Profile.IRI)
@example("http://example.com:\xb2\xb2", "IRI-reference", Profile.IRI)
def test_findings_lie_in_the_text_and_fixes_edits_give_their_value(text: str, kind: str, profile: Profile) -> None:
    for f in check(text, kind=kind, profile=profile, select=["ALL"]):
        assert 0 <= f.start <= f.end <= len(text), f
        if f.fix is not None:
            assert f.fix.edits, f
            for e in f.fix.edits:
                assert 0 <= e.start <= e.end <= len(text), f
            assert apply_fixes(text, [f.fix]) == f.fix.value, f


@PROPERTY
@given(any_iri, st.sampled_from(LEVELS))
@example("/%/../%7e", "syntax")
@example("/%/../\u2066", "scheme")
@example("http://h:\u0668\u0660", "scheme")
def test_normalize_reaches_its_fixed_point_in_one_call(text: str, level: str) -> None:
    once = normalize(text, level=level)  # type: ignore[arg-type]
    assert normalize(once, level=level) == once  # type: ignore[arg-type]
    assert equivalent(text, once, level=level)  # type: ignore[arg-type]


@PROPERTY
@given(any_iri, any_iri, st.sampled_from(LEVELS))
def test_equivalence_is_reflexive_and_symmetric(a: str, b: str, level: str) -> None:
    assert equivalent(a, a, level=level)  # type: ignore[arg-type]
    assert equivalent(a, b, level=level) == equivalent(b, a, level=level)  # type: ignore[arg-type]


@PROPERTY
@given(grammar_iris())
def test_to_uri_then_to_iri_gives_an_equivalent_iri(text: str) -> None:
    """Sec. 3.1 then 3.2: a valid IRI survives the round trip, up to the ladder's syntax level."""
    if not is_valid(text):
        return
    try:
        uri = to_uri(text)
    except (MappingError, IDNAError):
        return  # documented: characters with no URI form (sec. 3.1 SHOULD fail)
    assert is_valid(uri, profile="uri")
    assert equivalent(to_iri(uri), text)


def _strays(text: str) -> int:
    """How many "%" start no percent-encoding (RFC 3986 sec. 2.1)."""
    return text.count("%") - len(_TRIPLET.findall(text))


_TRIPLET = re.compile(r"%[0-9A-Fa-f]{2}")


@PROPERTY
@given(any_iri, st.booleans())
@example("%3%30", False)  # gave "%30", then "0" (issue 30)
@example("%%34%31", False)
@example("http://h/%?%30", False)
def test_to_iri_is_idempotent_and_creates_no_escape(text: str, decode_idna: bool) -> None:
    """Sec. 3.2 step 2 decodes "%" with two hex digits only: never around a stray "%", so it makes no
    new escape, and converting the result again changes nothing."""
    once = to_iri(text, decode_idna=decode_idna)
    assert to_iri(once, decode_idna=decode_idna) == once
    assert _strays(once) == _strays(text)
    assert len(_TRIPLET.findall(once)) <= len(_TRIPLET.findall(text))


@PROPERTY
@given(any_iri, kinds, profiles)
@example("http://example.com", "IRI", Profile.IRI)  # IRI310's insertion of "/" was made twice
def test_applying_fixes_is_idempotent_on_duplicates(text: str, kind: str, profile: Profile) -> None:
    """A fix gives its value, applied once or twice; a list of fixes given twice applies as once."""
    fixes = [f.fix for f in check(text, kind=kind, profile=profile, select=["ALL"]) if f.fix is not None]
    for fix in fixes:
        assert apply_fixes(text, [fix]) == apply_fixes(text, [fix, fix]) == fix.value
    assert apply_fixes(text, fixes + fixes) == apply_fixes(text, fixes)


@PROPERTY
@given(any_iri, st.booleans(), st.sampled_from(["fail", "encode"]))
def test_mapping_raises_only_its_documented_errors(text: str, idna: bool, encode_ascii: str) -> None:
    try:
        uri = to_uri(text, idna=idna, encode_ascii=encode_ascii)  # type: ignore[arg-type]
    except (MappingError, IDNAError):
        pass
    else:
        assert uri.isascii() or not is_valid(text)
    to_iri(text)
    to_iri(text, decode_idna=True)


@PROPERTY
@given(grammar_iris(), grammar_iris(), st.booleans())
@example("http://h/", "urn:a/../b", True)
@example("http:%2E/..", "", False)
def test_resolving_valid_references_gives_a_parsable_iri(base: str, ref: str, strict: bool) -> None:
    """RFC 3986 sec. 5.2: the target of a valid reference against a valid base parses, and
    resolving it again (strictly) changes nothing more. (It need not be ``equivalent`` to the target:
    sec. 5.2.4 removes literal dots only, normalization decodes ``%2E`` first.)"""
    if not (is_valid(base, "absolute-IRI") and is_valid(ref)):
        return
    target = resolve(base, ref, strict=strict)
    assert is_valid(target, "IRI"), target
    again = resolve(base, target)  # strict: a non-strict resolver reads "http:x" as relative "x"
    assert resolve(base, again) == again


@PROPERTY
@given(any_iri, st.sampled_from(KINDS))
def test_resolve_raises_only_for_a_base_without_scheme(base: str, kind: str) -> None:
    try:
        resolve(base, "a/b")
    except ValueError:
        assert scan(base).scheme is None


@PROPERTY
@given(any_iri, kinds, profiles)
@example("http://%40:%3A@#", "IRI-reference", Profile.URI)
@example("http:@", "IRI-reference", Profile.URI)
@example("\r\x96", "IRI-reference", Profile.IRI_BIS)
@example("\nhttps://example.org\n    ", "IRI-reference", Profile.IRI)
@example(" //[::1\n    ", "IRI-reference", Profile.URI)  # the unclosed '[' spanned the trailing whitespace
@example("http://\uff0f\u3002", "IRI-reference", Profile.URI)  # the solidus ends the host: '。' is in the path
@example("a\u3002\u3002", "IRI-reference", Profile.URI)  # (the second '。' stands by 'a', before and after the fix)
def test_a_fix_changes_the_text_and_leaves_fewer_findings_of_its_rule(text: str, kind: str, profile: Profile) -> None:
    """A fix removes what it says it removes: its value differs and has fewer of that finding. A fix that
    writes a delimiter (a look-alike's, IRI504, NFKC's) moves what follows into another component, where it is
    read anew: there the law is that the fixed character is not reported again."""
    found = check(text, kind=kind, profile=profile, select=["ALL"])
    for f in found:
        if f.fix is None:
            continue
        assert f.fix.value != text, f
        after = check(f.fix.value, kind=kind, profile=profile, select=["ALL"])
        if _delimiters(f.fix.value) > _delimiters(text):
            assert not any(g.code == f.code and g.start == f.start for g in after), (f, after)
        else:
            assert sum(g.code == f.code for g in after) < sum(g.code == f.code for g in found), (f, after)


def _delimiters(text: str) -> int:
    """How many of RFC 3986's gen-delims (sec. 2.2) a text holds."""
    return sum(text.count(c) for c in ":/?#[]@")


def _applied(text: str, edits: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, new in edits:
        assert pos <= start <= end
        out += [text[pos:start], new]
        pos = end
    return "".join([*out, text[pos:]])


@PROPERTY
@given(grammar_iris())
@example("http://\u0660/\ud800")  # (IDNA refuses the host, then the lone surrogate stops the fallback)
@example("http://0.0.\u0661")  # (IDNA2008 refuses the host, IDNA2003 maps it: its A-label, not %D9%A1)
def test_uri_edits_are_to_uri_with_idna_where_idna_takes_the_host(text: str) -> None:
    """``uri_edits``: IDNA for a DNS host when it succeeds (3987bis 3.4.2), else IDNA2003 where Python's codec maps
    it back to the same name, else the host percent-encoded (3.4.1); everything else exactly as ``to_uri`` maps it;
    only runs that change are edited."""
    try:
        try:
            want = to_uri(text, idna=True, encode_ascii="encode")
        except IDNAError:  # (IDNA2003's form, else the host percent-encoded: a lone surrogate may stop that too)
            ref = scan(text)
            host = ref.host
            old = idna2003_host(text[host.start : host.end]) if host is not None else None
            fixed = text if old is None else text[: host.start] + old + text[host.end :]  # type: ignore[union-attr]
            want = to_uri(fixed, encode_ascii="encode")
    except MappingError:  # (a lone surrogate: no URI form either way)
        with pytest.raises(MappingError):
            uri_edits(scan(text), encode_ascii="encode")
        return
    edits = uri_edits(scan(text), encode_ascii="encode")
    assert _applied(text, edits) == want
    assert all(text[a:b] != new for a, b, new in edits)
