"""Helpers of the analyses, against straightforward references."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from iri_lint.core.budget import Budget
from iri_lint.core.context import UriOnly
from iri_lint.core.scanner import scan
from iri_lint.rules import engine, facts
from iri_lint.rules.engine import check
from iri_lint.rules.facts import MAX_PER_CODE
from iri_lint.rules.mapping.octets import octet_problems
from iri_lint.rules.registry import RULES

_HEX = set("0123456789abcdefABCDEF")


def _reference_pct_runs(text: str) -> list[tuple[int, int, bytes]]:
    """Maximal runs of %HH, found one character at a time (RFC 3986 sec. 2.1)."""
    out, i, n = [], 0, len(text)
    while i < n:
        start, octets = i, bytearray()
        while i + 2 < n and text[i] == "%" and text[i + 1] in _HEX and text[i + 2] in _HEX:
            octets.append(int(text[i + 1 : i + 3], 16))
            i += 3
        if octets:
            out.append((start, i, bytes(octets)))
        else:
            i += 1
    return out


# ------------------------------------------------------------------ %-encoded octets (RFC 3629)

# second-byte ranges that make a well-formed-looking sequence overlong, a surrogate or > U+10FFFF
_SMUGGLING = {0xC0: (0x80, 0xBF), 0xC1: (0x80, 0xBF), 0xE0: (0x80, 0x9F), 0xED: (0xA0, 0xBF),
              0xF0: (0x80, 0x8F), 0xF4: (0x90, 0xBF)}


def _utf8_problems(octets: bytes) -> Iterator[tuple[int, int, str]]:
    """(octet start, octet end, kind) for each bad sequence, one octet at a time (RFC 3629)."""
    k, n = 0, len(octets)
    while k < n:
        b = octets[k]
        if b < 0x80:
            k += 1
            continue
        length = 2 if 0xC0 <= b <= 0xDF else 3 if 0xE0 <= b <= 0xEF else 4 if 0xF0 <= b <= 0xF7 else 0
        tail = octets[k + 1 : k + length] if length else b""
        conts = len(tail) == length - 1 and all(0x80 <= t <= 0xBF for t in tail)
        if length and conts and b in _SMUGGLING and _SMUGGLING[b][0] <= tail[0] <= _SMUGGLING[b][1]:
            yield k, k + length, "overlong"
            k += length
        elif length and conts and b <= 0xF4:
            k += length
        else:
            yield k, k + 1, "not-utf8"
            k += 1


def _referenceoctet_problems(text: str) -> list[tuple[int, int, str]]:
    return [(start + 3 * k0, start + 3 * k1, what) for start, _, octets in _reference_pct_runs(text)
            for k0, k1, what in _utf8_problems(octets)]


def _first(problems: list[tuple[int, int, str]], limit: int) -> tuple[list[tuple[int, int, str]],
                                                                         dict[str, int]]:
    """The first ``limit`` problems of each kind, and how many of each kind are left."""
    seen: Counter[str] = Counter()
    kept = []
    for p in problems:
        seen[p[2]] += 1
        if seen[p[2]] <= limit:
            kept.append(p)
    return kept, {kind: n - limit for kind, n in seen.items() if n > limit}


_OCTETS = ["%C0", "%c1", "%AF", "%80", "%bf", "%E0", "%ED", "%A0", "%F0", "%F4", "%90", "%8f",
           "%F5", "%FF", "%F8", "%C3", "%a9", "%E4", "%41", "%9F", "%f1", "%e1", "%EF", "%C2",
           "%DF", "%F7", "a", "%", "%4", "/"]


@given(st.lists(st.sampled_from(_OCTETS), max_size=24).map("".join), st.integers(0, 3))
def test_octet_problems_agree_with_the_octet_loop(text: str, limit: int) -> None:
    want = _referenceoctet_problems(text)
    assert octet_problems(text, None) == want
    budget = Budget(limit)
    kept, left = _first(want, limit)
    assert octet_problems(text, budget) == kept
    assert budget.skipped == left


def test_octet_problems_of_every_sequence_shape() -> None:
    for octets in itertools.product(range(0x80, 0x100), (0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC2),
                                    (0x80, 0xBF, 0x41), (0x80, 0x41)):
        text = "".join(f"%{b:02x}" if k % 2 else f"%{b:02X}" for k, b in enumerate(octets))
        assert octet_problems(text, None) == _referenceoctet_problems(text), text


# ------------------------------------------------------------------ budgets: the first findings, the exact rest

_HOSTILE = {
    "bidi controls": "\u202e",
    "bidi alt": "\u202ea",
    "isolates and formatting": "\u2066\u202e",
    "invisible alt": "\u200ba",
    "joiners": "\u200d\u0915\u094d\u200d",
    "lookalike": "\u2044",
    "lookalike alt": "\u2044a\u2215",
    "fullwidth alt": "\uff41a",
    "pct latin1": "%E4",
    "pct overlong": "%C0%AF",
    "pct mixed": "%C0%AF%E4%e2%80%ae",
    "rtl segments": "\u05d0a/",
    "rtl edges": "1\u05d0/",
    "digits after rtl": "\u05d0/1/",
    "mixed scripts": "a\u0430/",
}


def _hostile(piece: str, n: int) -> list[str]:
    return ["http://example.com/" + piece * n, "http://" + piece.replace("/", ".") * n + "com/x",
            "http://u" + piece.replace("/", "") * n + "@h/"]


def _report(text: str, select: list[str]) -> list[tuple[object, ...]]:
    return [(f.code, f.start, f.end, f.message, f.fix and (f.fix.edits, f.fix.value))
            for f in check(text, select=select)]


@pytest.mark.parametrize("piece", list(_HOSTILE.values()), ids=list(_HOSTILE))
def test_budgeted_analyses_report_what_building_everything_reports(
        piece: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in _hostile(piece, 260):  # past MAX_PER_CODE for one or two codes per piece
        for select in (["IRI"], ["IRI2", "IRI4", "IRI5"]):
            budgeted = _report(text, select)
            with monkeypatch.context() as m:
                m.setattr(facts, "BUILT_PER_CODE", 10**9)  # the checks build everything
                built = _report(text, select)
            assert budgeted == built
            # the engine cut the flood, and said how many more there are
            counts = Counter(f[0] for f in budgeted)
            assert max(counts.values(), default=0) <= MAX_PER_CODE


@given(st.lists(st.sampled_from([*_HOSTILE.values(), "a", "/", ".", "\u05d0", "1", "%41"]),
                max_size=40).map("".join))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example("\u202e\u202e\u202e\u05d0a/\u202e\u05d0")  # IRI205 at an RLO past IRI201's budget: IRI201's alone
def test_small_budgets_keep_the_first_findings_and_count_the_rest(tail: str) -> None:
    for text in ("http://example.com/" + tail, "http://" + tail.replace("/", ".") + ".com/"):
        full = _report(text, ["IRI"])
        ctx_budgeted = _cut(full, 3)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(facts, "MAX_PER_CODE", 3)
            m.setattr(facts, "BUILT_PER_CODE", 3)
            assert _report(text, ["IRI"]) == ctx_budgeted


def _report_with_holes(text: str, holes: tuple[tuple[int, int], ...], by_shape: bool) -> list[tuple[object, ...]]:
    return [(f.code, f.start, f.end, f.message, f.fix and (f.fix.edits, f.fix.value))
            for f in engine.check_ref(scan(text), holes=holes, by_shape=by_shape)]


@given(st.lists(st.sampled_from([" ", "  ", "\"", "|", "%", "%4", "<", ">", "\x01", "a", "/", "\u202e"]),
                min_size=1, max_size=300).map("".join),
       st.lists(st.tuples(st.integers(0, 320), st.integers(1, 4)), max_size=40), st.booleans())
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(" {}" * 150, [(20 + 3 * k, 2) for k in range(150)], False)  # a space beside each of 150 holes
@example("  a a a a a", [(20, 1)], False)  # a hole over a run's second space drops the whole run
def test_budgets_with_holes_report_what_building_everything_reports(tail: str, raw: list[tuple[int, int]],
                                                                    by_shape: bool) -> None:
    """With template holes a check builds only what the engine keeps of its first ``BUILT_PER_CODE`` (a
    literal of 25,000 spaces beside holes built 25,000 findings to keep 100): the report is the same."""
    text = "http://example.com/" + tail
    holes = tuple((a, min(a + w, len(text))) for a, w in raw if a < len(text))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(facts, "MAX_PER_CODE", 3)
        m.setattr(facts, "BUILT_PER_CODE", 3)
        budgeted = _report_with_holes(text, holes, by_shape)
        m.setattr(facts, "BUILT_PER_CODE", 10**9)  # the checks build everything
        assert budgeted == _report_with_holes(text, holes, by_shape)


def _cut(report: list[tuple[object, ...]], limit: int) -> list[tuple[object, ...]]:
    """What the engine makes of a full report with a cap of ``limit`` per code."""
    counts = Counter(f[0] for f in report)
    seen: Counter[object] = Counter()
    out = []
    for f in report:
        seen[f[0]] += 1
        if seen[f[0]] <= limit:
            if seen[f[0]] == limit and counts[f[0]] > limit:
                more = f" (and {counts[f[0]] - limit} more {f[0]} in this IRI)"
                f = (f[0], f[1], f[2], f"{f[3]}{more}", f[4])
            out.append(f)
    return out


@pytest.mark.slow  # stress: a flood of problems
def test_a_flood_builds_a_hundred_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    from iri_lint.core import bidi, security

    built: Counter[str] = Counter()
    for module, name in ((bidi, "BidiProblem"), (security, "SecurityProblem")):
        cls = getattr(module, name)

        def counting(*args: object, _cls: type = cls, **kwargs: object) -> object:
            built[str(args[0])] += 1
            return _cls(*args, **kwargs)

        monkeypatch.setattr(module, name, counting)
    for piece, code in (("\u202e", "IRI201"), ("\u2044", "IRI504"), ("\uff41a", "IRI503"),
                        ("\u200ba", "IRI505"), ("\u05d0a/", "IRI204")):
        built.clear()
        got = check("http://example.com/" + piece * (60_000 // len(piece)), select=["ALL"])
        assert max(built.values()) == MAX_PER_CODE
        last = [f for f in got if f.code == code][-1]
        assert "more " + code in last.message


# ------------------------------------------------------------------ IRI403: many-label hosts

_MANY_LABELS = {
    "repeated failing": ["\u05d0a"] * 300,
    "distinct failing": [f"\u05d0{i}" for i in range(300)],
    "mixed": ["\u05d0a", "b\u00fc", "\u05d01", "x\u200dy", "xn--zz", "plain", "\u05d0\u05d1"] * 60,
    "few distinct, many copies": [f"\u05d0{i % 7}a" for i in range(400)],
}


@pytest.mark.parametrize("labels", list(_MANY_LABELS.values()), ids=list(_MANY_LABELS))
def test_many_label_hosts_report_what_building_everything_reports(
        labels: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("http://" + ".".join(labels) + ".com/", "http://" + "\u3002".join(labels) + "/x"):
        for select in (["IRI"], ["IRI403"], ["IRI2", "IRI4"]):
            budgeted = _report(text, select)
            with monkeypatch.context() as m:
                m.setattr(facts, "BUILT_PER_CODE", 10**9)  # the checks build everything
                built = _report(text, select)
            assert budgeted == built
        idna = [f for f in budgeted if f[0] == "IRI403"]
        assert len(idna) <= MAX_PER_CODE


@pytest.mark.parametrize("labels", list(_MANY_LABELS.values()), ids=list(_MANY_LABELS))
def test_idna_judges_each_distinct_label_once(labels: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import idna

    calls: Counter[str] = Counter()
    for name in ("encode", "decode"):
        real = getattr(idna, name)

        def counted(label: str, *args: object, _real: object = real, **kwargs: object) -> object:
            calls[label] += 1
            return _real(label, *args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(idna, name, counted)
    text = "http://" + ".".join(labels) + ".com/"
    check(text, select=["IRI403"])
    judged = {x for x in labels if not x.isascii() or x.startswith("xn--")}
    assert set(calls) == judged
    assert max(calls.values()) == 1


def test_a_flood_of_failing_labels_is_counted_exactly() -> None:
    n = 1000
    got = [f for f in check("http://" + "\u05d0a." * n + "com/", select=["IRI403"])]
    assert len(got) == MAX_PER_CODE
    assert [f.start for f in got] == [7 + 3 * i for i in range(MAX_PER_CODE)]
    assert got[-1].message.endswith(f"(and {n - MAX_PER_CODE} more IRI403 in this IRI)")
    assert all("(and" not in f.message for f in got[:-1])


@pytest.mark.parametrize(("port", "code"), [("\xb2\xb2", "IRI112"), ("\u0668\u0660", "IRI112"),
                                           ("\uff16\uff15\uff15\uff13\uff16", "IRI503")])
def test_non_ascii_digits_make_an_invalid_port_not_an_error(port: str, code: str) -> None:
    """Full-width digits (a Japanese IME's) are IRI503's, whose fix writes the port: one cause, one finding
    (fixtures161 repro 04); IRI112 says the same when IRI503 is not selected."""
    found = check(f"http://example.com:{port}/")
    codes = {f.code for f in found}
    assert code in codes and (code == "IRI112" or "IRI112" not in codes)
    assert "IRI112" in {f.code for f in check(f"http://example.com:{port}/", select=["IRI112"])}
    assert "IRI602" not in {f.code for f in found}  # int() reads them; the RFC's DIGIT does not


@pytest.mark.parametrize(("port", "more"), [("\uff18\uff14\uff14\uff13", "; 3 more such characters follow"),
                                            ("\uff14\uff14\uff13\uff15", "; 2 in a row; 2 more such characters follow"),
                                            ("\uff18x", "; 1 more such character follows")])
def test_more_such_characters_counts_characters(port: str, more: str) -> None:
    """fixtures161 repro 04: the count after a run is of characters, not of runs."""
    (f,) = check(f"http://example.com:{port}/", select=["IRI112"])
    assert f.message.endswith(more), f.message


@pytest.mark.parametrize(("text", "fixed", "sides"), [
    ("\nhttps://example.org\n    ", "https://example.org", ["before", "after"]),
    (" http://example.org/a b\t", "http://example.org/a%20b", ["before", "after"]),
    ("\r\n\thttp://example.org/", "http://example.org/", ["before"]),
])
def test_surrounding_whitespace_is_removed_as_a_whole(text: str, fixed: str, sides: list[str]) -> None:
    found = check(text)
    assert all(f.fix is not None for f in found)
    assert engine.apply_fixes(text, [f.fix for f in found if f.fix]) == fixed
    edges = [f.fix.description for f in found if f.fix and "the IRI: whitespace" in f.message]
    assert edges == [f"Remove the whitespace {side} the IRI." for side in sides]


@pytest.mark.parametrize(("text", "profile", "span"), [
    ("\U000f0000%c3", "web-address", (1, 4)),
    (" \U000f0000%c3", "web-address", (2, 5)),
    ("\ue000a b%c3", "leiri", (4, 7)),
])
def test_findings_of_preprocessed_text_point_into_the_callers_text(text: str, profile: str,
                                                                   span: tuple[int, int]) -> None:
    found = [f for f in check(text, kind="irelative-ref", profile=profile) if f.code == "IRI401"]
    assert [(f.start, f.end) for f in found] == [span]
    assert text[span[0]:span[1]] == "%c3"


def test_a_fix_on_a_preprocessed_text_edits_the_callers_characters() -> None:
    (f,) = [f for f in check("\uff48\U0010ffff", kind="irelative-ref", profile="leiri") if f.code == "IRI503"]
    assert f.fix is not None
    assert f.fix.value == engine.apply_fixes("\uff48\U0010ffff", [f.fix]) == "h\U0010ffff"


def test_an_error_names_the_callers_character_not_its_preprocessed_form() -> None:
    from iri_lint import parse
    from iri_lint.core import IRISyntaxError

    with pytest.raises(IRISyntaxError) as info:
        parse("a b:c", "IRI-reference", "web-address")
    assert info.value.position == 1 and "U+0020 SPACE" in info.value.message


def test_an_empty_text_has_an_empty_span() -> None:
    assert [(f.code, f.start, f.end) for f in check("", kind="absolute-IRI")] == [("IRI116", 0, 0)]


@pytest.mark.parametrize(("text", "fixed"), [("https:///example.com/", "https://example.com/"),
                                             ("ftp:///srv/data.csv", None), ("http://u@:80/", None),
                                             ("http://%40:%3A@#", None)])
def test_missing_host_fix_never_turns_a_path_into_a_host(text: str, fixed: str | None) -> None:
    (f,) = check(text, select=["IRI601"])
    assert (f.fix.value if f.fix else None) == fixed


@pytest.mark.parametrize(("text", "follows"), [("http:?query", "a query"), ("http:#frag", "a fragment"),
                                               ("http:ok", "a path"), ("http:/ok?a=b", "a path"), ("http:", "no host")])
def test_missing_host_says_what_follows_the_scheme(text: str, follows: str) -> None:
    """outside48's note: 'http:?query' has an empty path; a query follows the scheme, not a path."""
    (f,) = check(text, select=["IRI601"])
    assert f"is followed by {follows};" in f.message


@pytest.mark.parametrize("scheme", ["ftps", "gs", "s3", "s3a", "hdfs", "abfss", "wasbs", "oci", "sftp", "mailtos",
                                    "files", "ntp", "ztp",
                                    "postgresql+psycopg2", "mysql+pymysql", "git+https", "wp", "hs"])
def test_schemes_in_wide_use_are_never_typos(scheme: str) -> None:
    assert "IRI603" not in {f.code for f in check(f"{scheme}://host.example/path")}


@pytest.mark.parametrize(("text", "codes", "fixed"), [
    # fsspec and boto3 read an object store's key verbatim: the character is reported, but %-encoding it
    # would name another object, so there is no fix and the message says why
    ("s3://bucket/reports/Q3 summary.csv", ["IRI101"], False),
    ("S3://bucket/a b?versionId=x y", ["IRI101"], False),
    ("gs://bucket/100%.csv", ["IRI110"], False),
    ("abfs://container/a^b<c>.parquet", ["IRI102", "IRI103"], False),
    ("s3://my bucket/k", ["IRI101"], True),  # the bucket is a host: no key there
    ("https://bucket.s3.amazonaws.com/Q3 summary.csv", ["IRI101"], True),  # over HTTP the key is encoded
    ("s3://bucket/k#a b", ["IRI101"], False),  # '#' is a key's character (fixtures162 repro 02)
])
def test_an_object_stores_key_is_reported_without_a_fix(text: str, codes: list[str], fixed: bool) -> None:
    found = check(text, select=["IRI101", "IRI102", "IRI103", "IRI110"])
    assert sorted({f.code for f in found}) == codes
    assert all((f.fix is not None) == fixed for f in found)
    assert all(("object store" in f.message) != fixed for f in found)


@pytest.mark.parametrize(("typo", "meant"), [("htps", "https"), ("htp", "http"), ("hhtp", "http"),
                                             ("httpp", "http"), ("mailtp", "mailto")])
def test_unknown_near_misses_of_common_schemes_are_typos(typo: str, meant: str) -> None:
    (f,) = check(f"{typo}://host.example/path", select=["IRI603"])
    assert f.fix is not None and f.fix.value == f"{meant}://host.example/path"


def test_opt_in_case_findings_quote_the_whole_scheme_and_one_per_host() -> None:
    """One finding per component, quoting all of it, at the first letter it changes (its page's "first
    character at fault")."""
    found = check("hTtP://Example.COM/x", select=["IRI303", "IRI304"])
    assert [(f.code, f.start, f.end, f.fix.value if f.fix else None) for f in found] == [
        ("IRI303", 1, 4, "http://Example.COM/x"), ("IRI304", 7, 18, "hTtP://example.com/x")]
    assert [f.start for f in check("https://shop.Example.com/", select=["IRI304"])] == [13]
    assert "'hTtP:'" in found[0].message and "'http:'" in found[0].message
    assert "'Example.COM'" in found[1].message and "'example.com'" in found[1].message


@pytest.mark.parametrize(("iri", "found"), [
    ("https://B\u00dcCHER.example/", [("IRI312", 8, "b\u00fccher")]),  # no IRI304: not a US-ASCII only label
    ("https://R\u00c9SUM\u00c9.Example.org/", [("IRI312", 8, "r\u00e9sum\u00e9"),
                                                ("IRI304", 15, "R\u00c9SUM\u00c9.example.org")]),
    ("https://shop\u00ad.example/", [("IRI312", 12, "shop")]),  # at the soft hyphen the mapping removes
    ("https://cafe\u0301.example/", [("IRI312", 11, "caf\u00e9")]),  # at the 'e' NFC composes
])
def test_host_case_is_ascii_labels_and_the_rest_is_idna_mapping(iri: str, found: list[tuple[str, int, str]]) -> None:
    """RFC 3987 sec. 5.3.2.1 lowercases a US-ASCII only host; a non-ASCII label's case is its mapping's (5.3.3)."""
    got = check(iri, select=["IRI304", "IRI312"])
    assert [(f.code, f.start) for f in got] == [(code, start) for code, start, _ in found]
    for f, (_, _, new) in zip(got, found, strict=True):
        assert f"'{new}'" in f.message
    if "\u0301" in iri:  # the two forms look alike: the message spells the code points NFC changes
        assert got[0].message.endswith("it is not in NFC (U+0065 U+0301 is U+00E9)")


@pytest.mark.parametrize(("iri", "flagged"), [
    ("http://user:\u043f\u0430\u0440\u043e\u043b\u044c@h/", []),  # Latin user, Cyrillic password
    ("http://p\u0430ypal:s\u0435cret@h/", ["user name", "password"]),
])
def test_mixed_scripts_are_judged_in_the_user_name_and_the_password_apart(iri: str, flagged: list[str]) -> None:
    found = [f for f in check(iri, select=["IRI507"])]
    assert [f.message.split(" '")[0] for f in found] == flagged


def test_a_bare_ipv6_host_is_one_finding_not_also_a_missing_host() -> None:
    """One finding per root cause: 'http://::1/' lacks brackets (IRI113), not a host (IRI601)."""
    assert [f.code for f in check("http://::1/", select=["IRI"])] == ["IRI113"]
    assert [f.code for f in check("http:///x", select=["IRI"])] == ["IRI601"]


@pytest.mark.parametrize(("text", "codes"), [
    ("http:\\\\example.com/", ["IRI603"]),
    ("https:\\\\user:pw@allowed.example/path", ["IRI603"]),
    ("http:\\\\example.com/a\\b", ["IRI603", "IRI103"]),  # a second '\\' is a mistake of its own
])
def test_a_finding_that_names_the_cause_hides_its_consequences_at_that_place(text: str, codes: list[str]) -> None:
    """'http:\\\\host' lost its '//' (IRI603): no host (IRI601) and a '\\' in the path (IRI103) there
    are the same mistake (issue #26: one finding per cause). Without IRI603 they are reported."""
    assert [f.code for f in check(text)] == codes
    assert {"IRI601", "IRI103"} <= {f.code for f in check(text, ignore=["IRI603"])}


@settings(max_examples=300)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)), max_size=8),
       st.integers(0, 45), st.integers(0, 5), st.booleans())
def test_the_hole_bisection_agrees_with_asking_every_hole(raw: list[tuple[int, int]], start: int, width: int,
                                                          edge: bool) -> None:
    """``_overlaps_hole`` bisects (a literal of n holes and n findings must not cost n * n); holes sorted by
    start, overlapping or not, give what asking each hole gives."""
    holes = tuple(sorted((a, a + w) for a, w in raw))
    end = start + width
    stop = max(end, start + 1)
    every = any((start <= b and a <= stop) if edge else (start < b and a < stop) for a, b in holes)
    reach = list(itertools.accumulate((b for _, b in holes), max))
    assert engine._overlaps_hole(start, end, holes, reach, edge) is every


def _holes_seconds(n: int) -> float:
    text = "https://h.example/" + " 0" * n  # a space beside each of n one-character holes
    holes = tuple((i, i + 1) for i in range(19, len(text), 2))
    ref = scan(text)
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()  # (CPU time: what the work costs, not what other processes take)
        engine.check_ref(ref, holes=holes)
        best = min(best, time.process_time() - t0)
    return best


@pytest.mark.slow
def test_findings_beside_many_holes_grow_linearly() -> None:
    """4x the holes and the findings beside them cost about 4x (16x when each finding asked every hole:
    a literal of 20,000 of them took 30 s)."""
    small, large = _holes_seconds(2000), _holes_seconds(8000)
    assert large / small < 8, f"2,000 holes {small:.3f} s, 8,000 holes {large:.3f} s"


def test_analyses_build_error_messages_only_for_what_they_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 100k-character '@:[' soup has 66k syntax errors; the rules must read the raw records, not
    ``ref.errors`` (which writes a message for each): that made the soup 3x slower."""
    from iri_lint.core.reference import IRIReference

    built = []
    real = IRIReference.error

    def counting(self: IRIReference, index: int) -> object:
        built.append(index)
        return real(self, index)

    monkeypatch.setattr(IRIReference, "error", counting)
    found = check("http://" + "@:[" * 33_333, select=["ALL"])
    assert found and len(built) <= len(found)


def test_scheme_typo_messages_quote_what_was_written() -> None:
    """Each IRI603 form quotes the text as written: a backslash is shown once per backslash."""
    assert [f.message for f in check("http:\\\\example.com/", select=["IRI603"])] == [
        "'http:\\\\' uses backslashes; write 'http://'"]
    assert [f.message for f in check("http//example.com/", select=["IRI603"])] == [
        "'http//' has lost its ':'; write 'http://'"]
    assert [f.message for f in check("htps://example.com/", select=["IRI603"])] == [
        "'htps:' looks like a typo of 'https:'"]
    # a WebSocket's or FTP URL's lost colon too (fixtures162's note: websockets.connect("wss//stream.example/feed"))
    assert [(f.message, f.fix.value if f.fix else None) for f in check("wss//stream.example/feed", select=["IRI603"])] \
        == [("'wss//' has lost its ':'; write 'wss://'", "wss://stream.example/feed")]


def test_a_scheme_written_twice_or_with_a_semicolon_is_a_typo() -> None:
    """fixtures166 repros 01-02: ``https://https://host`` has the host ``https`` and an empty port (IRI309's fix
    of it, equivalent by the ladder, keeps the mistake: hidden here); ``https;//host`` is a relative path."""
    found = check("https://https://api.example.com/v1", select=["ALL"])
    assert [(f.code, f.start, f.message, f.fix.value if f.fix else None) for f in found] == [
        ("IRI603", 0, "the scheme is written twice ('https://https://'): the host is 'https'; write 'https://'",
         "https://api.example.com/v1")]
    assert [f.fix.value if f.fix else None for f in check("http://https://h.example/", select=["IRI603"])] == [
        "https://h.example/"]
    assert [(f.message, f.fix.value if f.fix else None) for f in check("https;//h.example/x", select=["IRI603"])] \
        == [("'https;//' has ';' for ':'; write 'https://'", "https://h.example/x")]
    for fine in ("https://https.example/", "https://http:8080/", "https://h.example/https://x", "https;"):
        assert not check(fine, select=["IRI603"]), fine


@pytest.mark.parametrize("text", ["http:\\\\example.com/", "http//example.com/", "htps://example.com/"])
def test_scheme_mistakes_are_reported_at_the_scheme(text: str) -> None:
    """The three IRI603 forms are one place (its page): the scheme's first character, the quoted text's."""
    assert [f.start for f in check(text, select=["IRI603"])] == [0]


_ANY_IRI = st.lists(st.sampled_from([*"ab1/.?#@:%[] ", "%41", "%E9", "%C0%AF", "%E2%80%AE", "\u202e", "\u05d0",
                                     "\u0430", "\uff41", "\u200b", "\ufffd", "\x00", "xn--a", "u:p@", "HTTP",
                                     ":80", "\u2215", "\ud800"]), max_size=20).map("".join)


@given(st.sampled_from(["http://", "https://u:pw@", "", "x:", "ftp:///"]), _ANY_IRI)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_check_skipped_for_what_it_needs_would_have_found_nothing(prefix: str, tail: str) -> None:
    """Rule.needs is a promise: running every check on every IRI reports the same."""
    every = frozenset(r.code for r in RULES)
    with pytest.MonkeyPatch.context() as m:
        real = engine.checks_for
        m.setattr(engine, "checks_for", lambda enabled, present=-1: real(enabled))
        ungated = check(prefix + tail, select=["ALL"], uri_only_api=True)
    assert check(prefix + tail, select=sorted(every), uri_only_api=True) == ungated


def test_an_empty_port_before_an_at_sign_is_no_cut_password() -> None:
    """Found by the property above: ``http://:/@a`` was IRI112 ("a password holding '/' cut it") when every check
    ran, though its empty port is valid (RFC 3986 sec. 3.2.3) and the rule promises to need a syntax error."""
    assert not check("http://:/@a", select=["IRI112"])
    assert [f.code for f in check("mysql://app:pa/ss@db/app", select=["IRI112"])] == ["IRI112"]


@pytest.mark.parametrize(("text", "fixed"), [
    ("https://a b.example/", False), ("https://a\ue004.example/", False), ("http://a|b.example/", False),
    ("https://a.example/a b", True), ("foo://a b/", True), ("https://a\tb.example/", True),  # (a removal)
])
def test_a_dns_host_s_character_gets_no_percent_encoding_fix(text: str, fixed: bool) -> None:
    """fixtures242: IRI106's fix wrote a private-use character in a host as %EE%80%84, which no resolver reads
    (RFC 3986 sec. 3.2.2: a DNS name is written in IDNA); a path's is encoded, a control removed."""
    (f,) = check(text)
    assert (f.fix is not None) is fixed
    assert ("no resolver reads" in f.message) is (not fixed)


@pytest.mark.parametrize("look_alike", ["\uff0f", "\u2024", "\u2215"])
def test_a_delimiter_s_look_alike_in_a_host_is_one_finding_not_an_idna_failure_too(look_alike: str) -> None:
    """fixtures241 #2: IDNA refuses the label that holds a delimiter's look-alike; writing the delimiter cures both,
    one cause, one finding (IRI504)."""
    assert [f.code for f in check(f"https://bank.example{look_alike}login.evil.example/")] == ["IRI504"]


@pytest.mark.parametrize("dot", ["\u3002", "\uff0e", "\uff61"])
def test_idna_full_stops_separate_labels_of_a_dns_host_and_look_alike_elsewhere(dot: str) -> None:
    """RFC 3490 sec. 3.1: U+3002, U+FF0E and U+FF61 must be recognized as dots between the labels of a
    domain name; in a DNS host they are no look-alike (IRI504), in a path or another scheme's host they are."""
    assert "IRI504" not in [f.code for f in check(f"https://例え{dot}テスト/")]
    assert "IRI504" in [f.code for f in check(f"https://例え.テスト/a{dot}b")]
    assert "IRI504" in [f.code for f in check(f"foo://例え{dot}テスト/")]


@pytest.mark.parametrize(("path", "code", "reported"), [
    ("/搜密。打卡-S2", "IRI504", False), ("/進め！むじな.mp3", "IRI503", False), ("/すごい！", "IRI503", False),
    ("/한국어，텍스트", "IRI503", False), ("/evil。exe", "IRI504", True), ("/a！b", "IRI503", True),
    ("/進め！b", "IRI503", True), ("/資料／2024", "IRI504", True), ("/東京ｍｏｂｉｌｅ", "IRI503", True),
    ("/！", "IRI503", True),
])
def test_east_asian_punctuation_in_east_asian_text_is_no_look_alike(path: str, code: str, reported: bool) -> None:
    """outside50 F2, F3: full-width punctuation beside Han, kana or Hangul and no ASCII letter or digit is that text's
    own (its ASCII form names another resource): no IRI503; the ideographic full stop so placed outside the host,
    where '.' delimits nothing, no IRI504. Beside Latin text, letters, and a look-alike of '/' stay reported."""
    assert (code in [f.code for f in check(f"https://example.com{path}")]) is reported


# ------------------------------------------------------------------ IRI403: empty labels
@pytest.mark.parametrize(("iri", "at"), [
    ("https://www..example.com/", 12), ("https://.example.com/", 8), ("https://example.com../", 20),
    ("http://python.org...:99", 18), ("https://.éxamplé.com/", 8), ("https://a\u3002\u3002b/", 10),
])
def test_an_empty_label_but_the_roots_is_reported_once(iri: str, at: int) -> None:
    """RFC 1034 sec. 3.5 (RFC 3986 sec. 3.2.2 -> RFC 1123): only the root's label is empty."""
    found = [f for f in check(iri) if f.code == "IRI403"]
    assert [(f.start, f.end) for f in found] == [(at, at + 1)] and "empty label" in found[0].message


@pytest.mark.parametrize("iri", [
    "https://example.com./",  # the root's label, after a final dot
    "https://.../back.jpeg", "https://…/", "https://./",  # an ellipsis, no name
    "https://.*", "https://.*\\.example\\.com/",  # patterns (their '\' is IRI103's)
    "foo://a..b/",  # not a DNS scheme
])
def test_an_ellipsis_a_pattern_or_the_root_is_no_empty_label(iri: str) -> None:
    assert not [f for f in check(iri) if f.code == "IRI403" and "empty label" in f.message]


def test_a_host_of_many_empty_labels_is_one_finding_in_linear_time() -> None:
    found = [f for f in check("https://a" + "." * 200_000 + "b/") if f.code == "IRI403"]
    assert len(found) == 1


@pytest.mark.parametrize(("text", "code"), [
    ("https://t.example/\u05e9\u05dc\u05d5\u05dd\u200e", "IRI201"),
    ("https://t.example/\u05e9\u05dc\u05d5\u05dd\u202c", "IRI201"),
    ("https://t.example/ar/\u2067\u0645\u0631\u062d\u0628\u0627/", "IRI202"),  # an isolate (fixtures88, 02)
])
def test_a_bidi_control_at_a_right_to_left_edge_is_one_finding(text: str, code: str) -> None:
    """The mark IRI201 or IRI202 names is what IRI205 would say ends the segment: one mistake, one finding
    (fixtures72)."""
    assert [f.code for f in check(text)] == [code]


@pytest.mark.parametrize(("text", "code"), [
    ("\ufeffhttp://a.example/", "IRI505"),  # yt-dlp's commonmistakes test: a BOM before the scheme
    ("h\u200dttp://a.example/", "IRI505"),
    ("\uff48ttp://a.example/", "IRI503"),
    ("\u202ehttp://a.example/", "IRI201"),
    ("ht\u2024tp://a.example/", "IRI504"),
    ("ht+tp\u00e9://a.example/", "IRI111"),  # a letter that is no scheme's: IRI111 is the cause
])
def test_a_character_in_a_scheme_that_a_rule_names_is_one_finding(text: str, code: str) -> None:
    """An invisible, bidi, full-width or look-alike character in a scheme is the fault; that it is no scheme
    character (IRI111) follows from it: one mistake, one finding."""
    assert [f.code for f in check(text)] == [code]


@pytest.mark.parametrize(("iri", "found"), [
    ("https://h.example/caf\u00e9 menu.pdf", [("IRI101", 22), ("IRI404", 21)]),  # two faults, two places
    ("https://b\u00fccher example/x", [("IRI101", 14), ("IRI404", 9)]),  # (an absolute URL's host is sent too)
    ("https://b\u00fccher.example/caf\u00e9", [("IRI404", 9)]),
    ("https://h.example/\ufffe", [("IRI108", 18)]),  # the character's own fault is the cause: no IRI404 too
    ("https://h.example/caf\u00e9", [("IRI404", 21)]),
    # a bidi control is a fault of its own (sec. 4.1): no fix keeps it encoded (fixtures153 repro 05)
    ("https://h.example/report\u202efdp.exe", [("IRI201", 24), ("IRI404", 24)]),
])
def test_a_uri_only_api_raises_on_non_ascii_whatever_else_is_wrong(iri: str, found: list[tuple[str, int]]) -> None:
    """fixtures119, repro 02: urlopen raises on the 'é' whether or not the space is fixed; IRI404 is reported
    beside the space's IRI101 (without a fix: the mapping takes a valid IRI). http.client writes an absolute URL's
    host in its request line (fixtures172 repro 01)."""
    findings = check(iri, uri_only_api=True)
    assert sorted((f.code, f.start) for f in findings) == sorted(found)
    assert all(f.fix is None for f in findings if f.code == "IRI404" and len(findings) > 1)


@pytest.mark.parametrize(("uri_only", "found"), [
    (UriOnly.BEFORE_FRAGMENT, [("IRI404", 9, "https://xn--bcher-kva.example/RPC2")]),  # (urllib.request's Host)
    (UriOnly.WHOLE, [("IRI404", 9, "https://xn--bcher-kva.example/RPC2")]),  # (http.client's request line)
    (UriOnly.AFTER_HOST, []),  # (xmlrpc.client: the connection writes the host, IDNA)
])
def test_a_non_ascii_host_is_sent_as_it_is_unless_a_connection_takes_it(uri_only: UriOnly,
                                                                         found: list[tuple[str, int, str]]) -> None:
    """fixtures172 repro 01: urllib.request writes the Host header itself, in Latin-1 (``курсы`` raises,
    ``münchen`` goes out as raw bytes); only xmlrpc.client gives the host to a connection that encodes it."""
    findings = check("https://b\u00fccher.example/RPC2", uri_only_api=uri_only)
    assert [(f.code, f.start, f.fix.value if f.fix else None) for f in findings] == found


@pytest.mark.parametrize(("text", "as_url"), [
    ("git@github.com:org/repo.git", "ssh://git@github.com/org/repo.git"),
    ("deploy@host.example:/srv/repo.git", "ssh://deploy@host.example/srv/repo.git"),
    ("ht@tp://x", None),
])
def test_an_scp_address_is_told_as_such(text: str, as_url: str | None) -> None:
    """fixtures117's note: urlparse("git@github.com:org/repo.git") is IRI111 at its '@', whose message read it
    as a scheme; it now names git's scp-like syntax and the ssh:// URL it stands for."""
    (finding,) = [f for f in check(text) if f.code == "IRI111"]
    assert (as_url is not None and f"as a URL it is '{as_url}'" in finding.message) or \
        (as_url is None and "not allowed in a scheme" in finding.message)


@pytest.mark.parametrize(("iri", "code"), [
    ("https://aa\ud800b.example/", "IRI109"), ("https://aa\ufffeb.example/", "IRI108"),
    ("https://aa\ue000b.example/", "IRI106"),
])
def test_a_character_of_no_script_is_its_own_fault_not_a_mixture(iri: str, code: str) -> None:
    """A lone surrogate, a noncharacter or a private-use character in a host label has the script Unknown:
    'mixes the Latin and Unknown scripts' (IRI501) only followed from the character's own fault."""
    assert [(f.code, f.start) for f in check(iri, select=["ALL"])] == [(code, 10)]


@pytest.mark.parametrize(("text", "advice"), [
    ("http://fd00:ec2::254/", "[fd00:ec2::254] ("),  # no group of digits last: one reading
    ("http://2001:db8::10:5432/", "[2001:db8::10:5432], or [2001:db8::10]:5432 if 5432 is its port"),
    ("http://::1234:5678", "[::1234:5678], or [::1234]:5678 if 5678 is its port"),
    ("http://2001:db8::/", "[2001:db8::] ("),
])
def test_an_unbracketed_ipv6_address_is_bracketed_both_ways_when_its_last_group_may_be_a_port(
        text: str, advice: str) -> None:
    """RFC 3986 sec. 3.2.2: without its brackets, ``2001:db8::10:5432`` may be the address or ``2001:db8::10`` and
    port 5432 (``f"http://{V6}:{port}/"``, fixtures123): advising only the first would move the request."""
    (found,) = [f for f in check(text) if f.code == "IRI113"]
    assert advice in found.message


@pytest.mark.parametrize(("text", "shown"), [
    ("https://cdn.example.net/%E6%97%A5%E6%9C%AC", "https://cdn.example.net/\u65e5\u672c"),
    ("https://cdn.example.net/%D7%90%D7%91", "https://cdn.example.net/\u05d0\u05d1"),  # a right-to-left segment
    ("https://cdn.example.net/ab%D7%90%D7%91", None),  # 'ab' + Hebrew: mixed directions (IRI204's)
    ("https://cdn.example.net/%D7%90%D7%911", None),  # a digit at the right-to-left segment's end (IRI205's)
])
def test_percent_encoded_text_is_shown_only_where_it_keeps_sec_4_2(text: str, shown: str | None) -> None:
    """RFC 3987 sec. 3.2 step 4 keeps encoded what is not appropriate as text; a right-to-left run that would break
    sec. 4.2 in its component is (fixtures128, repro 01: IRI405 offered a fix that IRI204's undoes)."""
    found = [f for f in check(text, select=["IRI405"])]
    assert [f.fix.value for f in found if f.fix] == ([] if shown is None else [shown])


@pytest.mark.parametrize(("text", "tail"), [
    ("https://h.example/a%2", "as %25"), ("https://h.example/a%%", "; 2 in a row"),
    ("https://h.example/a%%2", "; 2 in a row"), ("https://h.example/a%zz", "as %25"),
])
def test_a_malformed_percent_run_counts_its_percent_signs(text: str, tail: str) -> None:
    """fixtures133's note: ``"/a%2"`` said "2 such characters in a row" for one '%' (the error spans its partial
    hex digit); a run counts the '%'s."""
    (found,) = [f for f in check(text) if f.code == "IRI110"]
    assert found.message.endswith(tail)


@pytest.mark.parametrize(("text", "code", "fixed"), [
    ("https://\u05d7\u05d3\u05e9\u05d5\u05ea24.example/", "IRI205", None),  # fixtures153 repro 01: a host label
    ("https://h.example/\u05d7\u05d3\u05e9\u05d5\u05ea24/", "IRI205", "https://h.example/%D7%97%D7%93%D7%A9%D7%95%D7%AA24/"),
    ("https://\u05d0\u05d1abc.example/", "IRI204", None),
    ("https://h.example/\u05d0\u05d1abc/", "IRI204", "https://h.example/%D7%90%D7%91abc/"),
])
def test_a_bidi_fix_never_percent_encodes_a_host(text: str, code: str, fixed: str | None) -> None:
    """Sec. 4.2's fix percent-encodes a component; in a host that name resolves nowhere (requests keeps it as it
    is, RFC 3986 sec. 3.2.2 asks for IDNA), so a host's finding has no fix: its message says to write the IDNA
    form."""
    (f,) = [f for f in check(text) if f.code == code]
    if fixed is None:
        assert f.fix is None and "IDNA" in f.message
    else:
        assert f.fix is not None and engine.apply_fixes(text, [f.fix]) == fixed


def test_a_port_made_of_an_encoded_ip_literal_says_so() -> None:
    """outside2 (linkchecker's url_norm): "ldap://%5B2001:db8::7%5D/c=GB" has the host '%5B2001'; the port's letter
    is a symptom of the encoded '['."""
    (f,) = [f for f in check("ldap://%5B2001:db8::7%5D/c=GB") if f.code == "IRI112"]
    assert "'[' is percent-encoded (%5B)" in f.message and "'%5B2001'" in f.message
    assert (f.start, f.end) == (15, 24)
    (g,) = [f for f in check("https://example.com:84a3/") if f.code == "IRI112"]
    assert "digits only" in g.message


@pytest.mark.parametrize(("text", "codes"), [
    ('WIFI:S:\\"foo\\;bar\\\\baz\\";;', []),  # segno's: the WPA3 grammar's backslash escapes (outside4 repro 03)
    ("WIFI:T:WPA;S:My Net;P:p{a}ss^;;", []),
    ("wifi:S:a\u202eb;;", ["IRI201"]),
    ("https://h.example/a b", ["IRI101"]),
])
def test_a_wifi_qr_payload_follows_its_own_grammar(text: str, codes: list[str]) -> None:
    assert sorted({f.code for f in check(text)}) == codes


@pytest.mark.parametrize(("uri", "fixed"), [
    ("https://shop.example/caf%C3%A9", "https://shop.example/caf\u00e9"),
    ("https://shop.example/%EF%BC%A1%EF%BC%A2", None),  # full-width forms: sec. 3.2 step 4 with sec. 6.1 b
    ("https://shop.example/%EF%BD%B1", None),  # half-width Katakana
    ("https://shop.example/cafe%CC%81", None),  # decoded, not NFC (sec. 5.3.2.2; IRI301 would report it)
])
def test_percent_encoded_text_shows_only_what_an_iri_should_hold(uri: str, fixed: str | None) -> None:
    """fixtures163 repro 01: IRI405's safe fix decoded to what IRI503 and IRI301 then reported."""
    found = check(uri, select=["IRI405"])
    assert [f.fix.value if f.fix else None for f in found] == ([] if fixed is None else [fixed])
    if fixed is not None:
        assert not [f for f in check(fixed) if f.code in ("IRI301", "IRI503")]


@pytest.mark.parametrize(("iri", "at", "removed"), [
    ("https://h.example/v2/../v1/legacy", 18, "v2/../"),  # (not '2/../v': v1 and v2 share their 'v')
    ("https://h.example/abc/../abd", 18, "abc/../"),
    ("https://h.example/a/b/../c", 20, "b/../"),
    ("https://h.example/a/./b", 20, "./"),
])
def test_dot_segments_are_reported_from_the_segment_they_remove(iri: str, at: int, removed: str) -> None:
    """fixtures163 repro 03: IRI307 points at the first character of the removed text, a whole segment."""
    (f,) = check(iri, select=["IRI307"])
    assert (f.start, f"'{removed}' resolves to ''" in f.message) == (at, True)


@pytest.mark.parametrize(("text", "fixed"), [
    ("\u2028https://h.example/menu", "https://h.example/menu"),
    ("https://h.example/menu\u2028", "https://h.example/menu"),
    ("https://h.example/a\u3000", "https://h.example/a"),
    ("https://h.example/a\u2028b", "https://h.example/a%20b"),
])
def test_a_separator_around_the_iri_is_removed_not_encoded(text: str, fixed: str) -> None:
    """fixtures164 repro 02: '%20' for a U+2028 before 'https:' made the URL unparsable (IRI111); whitespace
    around the IRI is removed, as IRI101's is; inside it, '%20' stays the advice."""
    (f,) = check(text, select=["IRI504"], context="dereferenced")
    assert f.fix is not None and f.fix.value == fixed
    if fixed.endswith("a%20b"):
        return
    assert check(text, select=["IRI504"]) == []  # (elsewhere it separates the IRI from the text around it)


@pytest.mark.parametrize(("iri", "found"), [
    ("mysql+pymysql://app:pa?ss@db/app", [("IRI112", 22, "'?'")]),
    ("postgres://u:p/w@h/db", [("IRI112", 14, "'/'")]),
    ("mysql://app:pa#ss@db/app", [("IRI112", 14, "'#'")]),
    ("https://h.example:80a?x=@y", [("IRI112", 20, "U+0061")]),  # (a query's value holds the '@')
    ("https://example.com:84a3/", [("IRI112", 22, "U+0061")]),
    # (the host list the cut leaves in the query: its brackets are misplaced only because of it, fixtures173 05)
    ("postgresql://etl:pa?ss@[2001:db8::5]:5432,[2001:db8::6]:5432/etl", [("IRI112", 19, "'?'")]),
])
def test_a_password_cut_by_a_delimiter_is_reported_at_it(iri: str, found: list[tuple[str, int, str]]) -> None:
    """fixtures172 repro 04: the authority ends at the password's '?', and the rest of the user's ':' reads as a
    port; the message says so, at the character to percent-encode."""
    got = [(f.code, f.start, f.message) for f in check(iri)]
    assert [(c, s) for c, s, _ in got] == [(c, s) for c, s, _ in found]
    assert all(w in m for (_, _, m), (_, _, w) in zip(got, found, strict=True))


@pytest.mark.parametrize(("text", "injection"), [
    ("https://example.com/a\r\nSet-Cookie: sessionid=x", True),
    ("mailto:a@b.example\nBcc: c@d.example", True),
    ("https://example.com/a\nX-Injected:1", True),
    ("https://example.com/a\tb", False),
    ("https://example.com/a\nplain words", False),
])
def test_a_line_break_a_header_line_follows_is_called_header_injection(text: str, injection: bool) -> None:
    """fixtures176's note: IRI104's message names the attack a CR or LF before a header field (RFC 9110 sec. 5)
    makes; any other control character is one to remove."""
    found = check(text)
    (f,) = [f for f in found if f.code == "IRI104"]
    assert ("header injection" in f.message) is injection
    assert (f.fix is None) is injection  # (removing it would join the header into the URL: fixtures242)
    # (what the injected header line holds follows from it: one finding, fixtures179 repro 04)
    assert [g.code for g in found if g.code != "IRI104"] == ([] if injection else [g.code for g in found
                                                                                   if g.code == "IRI101"])


@pytest.mark.parametrize(("text", "code", "idna"), [
    ("https://\u05e9\u05dc\u05d5\u05ddabc.example/", "IRI204", False),  # (RFC 5893's Bidi Rule refuses it)
    ("https://\u05e9\u05dc\u05d5\u05dd1.example/", "IRI205", True),
])
def test_a_host_s_bidi_advice_offers_an_idna_form_only_where_there_is_one(text: str, code: str, idna: bool) -> None:
    """fixtures219's note: 'write the host in its IDNA form' for a label IDNA refuses (IRI403 on the same label) was
    advice no one could follow; such a label needs a name of one direction."""
    (f,) = [f for f in check(text) if f.code == code]
    assert ("IDNA form (xn--" in f.message) is idna


def test_a_uri_only_api_s_advice_never_maps_a_look_alike_host() -> None:
    """fixtures219's note: IRI404 offered the IDNA form of a spoof host ('xn--pypal-4ve.com', opaque but still the
    look-alike); it says the host imitates an ASCII one (IRI502's), with no fix; a real IDN host still maps."""
    (f,) = [f for f in check("https://p\u0430ypal.com/signin", uri_only_api=True) if f.code == "IRI404"]
    assert "look-alike" in f.message and "xn--" not in f.message and f.fix is None
    (g,) = [f for f in check("https://b\u00fccher.example/x", uri_only_api=True) if f.code == "IRI404"]
    assert "xn--bcher-kva" in g.message


@pytest.mark.parametrize(("text", "codes"), [
    ("https://bad\u200d.example/", ["IRI505"]), ("https://b\u00fcd\u200d.example/", ["IRI505"]),
    ("https://-b\u00fc\u200d.example/", ["IRI403", "IRI505"]),
])
def test_a_joiner_in_a_host_label_is_one_finding(text: str, codes: list[str]) -> None:
    """fixtures221 #4: a ZWJ that IDNA2008 refuses (CONTEXTJ) was IRI403 and IRI505 for one character; the label
    with it removed passes, so IRI505, whose fix removes it, stands alone; another fault of the label stays."""
    found = sorted({f.code for f in check(text, select=["IRI403", "IRI505"], uri_only_api=False)})
    assert found == codes


@pytest.mark.parametrize(("text", "reported"), [
    ("https://https://example.com/foo", True), ("http://https://example.com/foo", True),
    ("hls://https://example.com/foo", False), ("httpstream://http://example.com/foo", False),
    ("dash://http://example.com/a.mpd", False),
])
def test_a_scheme_of_its_own_before_a_whole_url_is_no_doubled_scheme(text: str, reported: bool) -> None:
    """outside57 #5 (streamlink's tests, 27 findings): ``hls://https://...`` selects a plugin before a whole URL;
    only a web scheme before another is one written twice, whose fix drops it."""
    assert ("IRI603" in [f.code for f in check(text)]) is reported


def test_no_scheme_error_after_a_hole_that_may_hold_the_scheme() -> None:
    """outside57 #1 (changedetection.io): ``url += f"{sep}--proxy-server={proxy}"`` read '=' as a scheme's
    character; with a hole before it the ':' may be a query's, so the scheme is unknown there (IRI111 before the
    hole is still reported)."""
    assert [f.code for f in check("0--proxy-server=http://h.example/", holes=((0, 1),))] == []
    assert "IRI111" in [f.code for f in check("a=b:x/0", holes=((6, 7),))]
