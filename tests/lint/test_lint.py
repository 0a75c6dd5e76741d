"""The shared pipeline: positions survive characters str.splitlines treats as line breaks."""

from __future__ import annotations

import pytest

from iri_lint.config import Config
from iri_lint.lint import SourceError, decode_source, lint_text
from iri_lint.noqa import is_noqa


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x0c", "\x1c", "\x85"])
def test_unicode_line_separators_do_not_shift_or_drop_findings(sep: str) -> None:
    text = f's = """a{sep}b"""\ny = "http://example.com/%zz"\n'
    found = lint_text(text, Config())
    assert [(f.code, f.line, f.col) for f in found] == [("IRI110", 2, 24)]


def test_noqa_follows_flake8() -> None:
    assert is_noqa("IRI110", "x  # noqa")
    assert is_noqa("IRI110", "x  # noqa: IRI1")
    assert is_noqa("IRI110", "x  # NOQA:IRI110,E501")
    assert not is_noqa("IRI110", "x  # noqa: IRI2")
    assert not is_noqa("IRI110", "x")


def test_noqa_covers_every_line_of_a_multiline_string_token_as_in_flake8() -> None:
    text = 'x = "http://example.com/%zz\\\nabc"  # noqa: IRI110\n'
    assert lint_text(text, Config(), honour_noqa=False)[0].line == 1
    assert lint_text(text, Config()) == []
    # an NL inside brackets ends flake8's noqa range: the comment after ")" does not reach line 2
    text = 'x = (\n    "http://example.com/%zz"\n)  # noqa: IRI110\n'
    assert [f.line for f in lint_text(text, Config())] == [2]


def test_bad_files_raise_a_clear_error() -> None:
    with pytest.raises(SourceError, match="syntax error"):
        lint_text('x = "http://a b/"\ndef (:\n', Config())
    with pytest.raises(SourceError, match="cannot decode"):
        decode_source(b"# -*- coding: utf-8 -*-\nx = '\xff\xfe'\n")
    assert decode_source(b"\xef\xbb\xbfx = 1\r\n") == "x = 1\r\n"


def test_a_name_after_text_that_lowercases_longer_is_still_found() -> None:
    # 'İ' lowers to two code points: line marks found on lowered text would land 300 places late
    text = "# " + "İ" * 300 + "\n" + "x = 1\n" * 3 + "homepage_url = '/path/%zz'\n"
    found = lint_text(text, Config())
    assert [(f.line, f.col, f.code) for f in found] == [(5, 22, "IRI110")]


@pytest.fixture
def failing_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """An analysis that raises on any value holding 'boom': an engine bug in one literal."""
    import dataclasses

    from iri_lint.rules import engine
    from iri_lint.rules.facts import Facts
    from iri_lint.rules.model import Raw
    from iri_lint.rules.registry import full_rule

    def explode(facts: Facts) -> list[Raw]:
        if "boom" in facts.ref.text:
            raise ValueError("injected failure")
        return []

    extra = dataclasses.replace(full_rule("IRI101"), check=explode)
    real = engine.checks_for
    monkeypatch.setattr(engine, "checks_for", lambda enabled, present=-1: (
        (*real(enabled, present), extra) if "IRI101" in enabled else real(enabled, present)))


@pytest.mark.usefixtures("failing_rule")
def test_an_engine_error_costs_one_literal_not_the_file() -> None:
    text = 'a = "http://example.com/%zz"\nb = "http://boom.example/"\nc = "http://example.org/%qq"\n'
    found = lint_text(text, Config())
    assert [(f.code, f.line, f.col) for f in found] == [("IRI110", 1, 24), ("IRI100", 2, 5), ("IRI110", 3, 24)]
    assert "ValueError: injected failure" in found[1].finding.message


@pytest.mark.parametrize(("value", "col"), [("http://example.com:\xb2\xb2", 19), ("http://h:\u0668\u0660/", 9)])
def test_non_ascii_digits_in_a_port_are_a_finding_not_a_crash(value: str, col: int) -> None:
    text = f'a = "{value}"\nb = "http://example.com/%zz"\n'
    found = [f for f in lint_text(text, Config()) if f.code != "IRI504"]  # U+0660 looks like "."
    assert [(f.code, f.line, f.col) for f in found] == [("IRI112", 1, 5 + col), ("IRI110", 2, 24)]


@pytest.mark.parametrize(("path", "reported"), [
    ("app/settings.py", True), ("tests/test_db.py", False), ("pkg/tests/helpers.py", False),
    ("test_db.py", False), ("db_test.py", False), ("conftest.py", False), ("./tests/x.py", False),
    ("contest.py", True), ("shop/tests.py", False), ("tests.py", False), ("shop/mytests.py", True),
])
def test_passwords_in_test_files_are_fixtures_not_leaks(path: str, reported: bool) -> None:
    text = 'DB_URL = "postgresql://app:Zq8v77@db.internal/prod"\n'
    assert any(f.code == "IRI506" for f in lint_text(text, Config(), path=path)) is reported
    assert any(f.code == "IRI506" for f in lint_text(text, Config(test_files=()), path=path))


SECURITY_MIX = (
    'BIDI_URL = "http://example.com/a\\u202eb"\nBAD_URL = "http://[::1"\nHOST = "http://p\\u0430ypal.com/"\n'
    'ZW = "http://exa\\u200bmple.com/"\nPCT = "http://example.com/%zz"\nDB_URL = "postgresql://app:Zq8v77@db/x"\n'
)


@pytest.mark.parametrize(("path", "security_only", "codes"), [
    ("tests/test_urls.py", True, ["IRI201", "IRI502", "IRI505"]),  # bidi, spoof, invisible: kept
    ("tests/test_urls.py", False, ["IRI201", "IRI113", "IRI502", "IRI505", "IRI110"]),
    ("app/urls.py", True, ["IRI201", "IRI113", "IRI502", "IRI505", "IRI110", "IRI506"]),  # no test file
])
def test_test_files_security_only_keeps_the_security_families(path: str, security_only: bool,
                                                              codes: list[str]) -> None:
    config = Config(test_files_security_only=security_only)
    assert [f.code for f in lint_text(SECURITY_MIX, config, path=path)] == codes
    opt_in = Config(test_files_security_only=security_only, extend_select=("IRI303",))  # selected, but
    quiet = security_only and path.startswith("tests/")  # not a security rule: off in a test file too
    assert bool(lint_text('U = "HTTP://example.com/"\n', opt_in, path=path)) is not quiet


MISSES = '''import requests, yarl, httpx, hyperlink, rfc3986
from furl import furl
from urllib3.util import parse_url
from w3lib.url import safe_url_string
a_url = "https://victim.example\\r\\nX-Injected: 1"
b = "http://example.org/blank space"
c = requests.get(" http://example.org/")
d_url = "10.0.0.1:3128"
e_url = "[::1]:8080"
g = "http://example.org/a\\tb"
h = yarl.URL("http://example.com/a b")
i = httpx.URL("https://example.com/%zz")
j = furl("http://example.com/a|b")
k = hyperlink.URL.from_text("http://example.com/a^b")
m = parse_url("http://example.com/a`b")
n = rfc3986.uri_reference("http://example.com:99999/")
o = safe_url_string("http://example.com/a b")
'''


def test_misses_of_real_code_are_found_at_their_column() -> None:
    """Issue #14: header injection, one more word, a leading space, URL-object constructors; and an
    IP host:port is an address, not an IRI."""
    found = [(f.line, f.col, f.code) for f in lint_text(MISSES, Config())]
    assert found == [
        (5, 31, "IRI104"),  # the escape "\\r" of the CR-LF run (the header's space follows from it)
        (6, 29, "IRI101"), (7, 18, "IRI101"), (10, 25, "IRI104"),
        (11, 34, "IRI101"), (12, 35, "IRI110"), (13, 30, "IRI103"), (14, 49, "IRI103"),
        (15, 35, "IRI103"), (16, 46, "IRI602"), (17, 41, "IRI101"),
    ], found
    lines = MISSES.splitlines()
    for line, col, code in found:
        assert lines[line - 1][col] in {"IRI104": "\\\\", "IRI101": " ", "IRI110": "%", "IRI103": "|^`",
                                        "IRI602": "9"}[code]


USED_AS_IRI = '''import rdflib
a_url = "http://example.com/%E9"
b_url = "http://caf\\u00e9.example/%E9"
c = rdflib.URIRef("http://example.com/%E9")
d_url = "http://xn--n3h.net/"
e_url = "http://xn--d.example/"
f = "https://api.xn--abc-.example/v1"
g_url = "http://\u2603.net/"
h = rdflib.URIRef("http://xn--n3h.net/")
i_url = "https://ex!\u00e4mple.example/"
'''


def test_no_iri_form_findings_only_where_the_literal_is_used_as_an_iri() -> None:
    """IRI401 is right but rarely actionable in an ASCII URL: in default mode it is reported for non-ASCII
    literals and identifiers only. IRI403's difference between the IDNA versions (a label IDNA2003 reads,
    U-label or A-label, wherever it is) is reported only when IRI403 is named; a label no IDNA version
    reads is a broken name wherever it is (issue #26). Naming the codes reports them all."""
    found = [(f.line, f.col, f.code) for f in lint_text(USED_AS_IRI, Config())]
    assert found == [(3, 34, "IRI401"), (4, 38, "IRI401"), (6, 16, "IRI403"), (7, 24, "IRI403"),
                     (10, 19, "IRI403")]  # (each at the character at fault: the hyphen, the '!')
    named = Config(extend_select=("IRI401", "IRI403"))
    assert [(f.line, f.code) for f in lint_text(USED_AS_IRI, named)] == [
        (2, "IRI401"), (3, "IRI401"), (4, "IRI401"), (5, "IRI403"), (6, "IRI403"), (7, "IRI403"),
        (8, "IRI403"), (9, "IRI403"), (10, "IRI403")]
    snowman = next(f for f in lint_text(USED_AS_IRI, named) if f.line == 8)
    assert "IDNA2003" in snowman.finding.message and snowman.col == 16


IDNA_APIS = '''import httpx, requests, urllib.request, yarl
httpx.URL("https://\u2603.com/")
requests.get("http://\u2764.ws/x")
yarl.URL("http://xn--n3h.net/")
urllib.request.urlopen("http://\u2603.net/")
a_url = "http://\U0001f607.example/"
b_url = "http://\u0378.net/"
link = "http://\u2603.org/"
requests.get(link)
'''


def test_a_label_only_idna2003_reads_is_reported_where_an_idna2008_api_takes_it() -> None:
    """requests, httpx, aiohttp/yarl and urllib3 encode hosts with the idna package (IDNA2008): the call
    raises. urllib.request encodes with Python's IDNA2003 codec. An emoji newer than Unicode 3.2 (U+1F607) is
    no stored string of IDNA2003 (RFC 3490 sec. 4) but browsers' UTS #46 reads it (NV8: fixtures153 repro 02):
    the versions differ, as for U+2603; an unassigned code point (U+0378) no version reads: everywhere."""
    found = [(f.line, f.code) for f in lint_text(IDNA_APIS, Config()) if f.code == "IRI403"]
    assert found == [(2, "IRI403"), (3, "IRI403"), (4, "IRI403"), (7, "IRI403"), (8, "IRI403")]
    named = Config(extend_select=("IRI403",))
    assert (6, "IRI403") in [(f.line, f.code) for f in lint_text(IDNA_APIS, named)]


TEMPLATES = '''import logging
a = "http://[fe80::1%eth0]/"
b = "http://example.com/?q=%.x"
c_url = "http://example.com/{x}"
d_url = "http://example.com/{x}".format(x=1)
e_url = "http://example.com/?next=<id>&x=<int:y>"
f_url = "/users/<int:id>"
g = "http://example.com/%s/%d" % (1, 2)
h_url = "http://example.com/%s"
i_url = "http://example.com/${HOST}/x"
j_url = "http://example.com/?v=%e" % 1
logging.info("http://example.com/%e/x", 1)
k_url = "http://example.com/a(b)*c d"
BASE = "http://example.com/{id}/x"
u = BASE.format(id=1)
TPL_URL = "http://example.com/ID<>/%e"
v = TPL_URL.replace("ID<>", "7") % 3
'''


def test_templates_are_holes_by_their_grammar_wherever_they_are_filled() -> None:
    """Issue #26: a format field or RFC 6570 expression is a hole whether or not this module fills the
    literal; %e/%.x only when %-formatted or logged; a <word> is a placeholder in an absolute IRI too,
    a <conv:route> never; sub-delims make no regex; a substring a later .replace() fills in is a
    placeholder."""
    found = [(f.line, f.code) for f in lint_text(TEMPLATES, Config())]
    assert found == [(2, "IRI118"), (3, "IRI110"), (6, "IRI102"), (13, "IRI101")], found


@pytest.mark.parametrize(("comment", "left"), [
    ("# flake8: noqa", []),
    ("# iri-lint: noqa", []),
    ("#iri-lint:noqa: IRI110", ["IRI101"]),
    ("# iri-lint: noqa: IRI1", []),
    ("# flake8: noqa: IRI110", ["IRI101", "IRI110"]),  # flake8 ignores a file-level noqa with codes
    ("x = 1  # flake8: noqa", ["IRI101", "IRI110"]),  # only on a line of its own
])
def test_a_file_level_noqa_silences_the_file(comment: str, left: list[str]) -> None:
    text = f'{comment}\na = "http://example.com/%zz"\nb = "http://example.com/a b"\n'
    assert sorted(f.code for f in lint_text(text, Config())) == left


def test_a_value_met_again_is_reported_at_each_place() -> None:
    # a file's literals go through the rules once per value and use: each place keeps its own position
    text = ('import requests\nA = "http://example.com/%zz"\nB = "http://example.com/%zz"\n'
            'requests.get("http://example.com/%zz")\nC = "http://example.com/%zz"\n')
    found = lint_text(text, Config())
    assert [(f.code, f.line, f.col) for f in found] == [("IRI110", n, col) for n, col in
                                                        ((2, 24), (3, 24), (4, 33), (5, 24))]


BESIDE_HOLES = '''import requests
def f(name, x):
    requests.get(f"{x}/files/{name} copy")
    requests.get("https://h.example/{}\\tb".format(name))
    requests.get(f"https://h.example/%{x}/a")
    requests.get(f"https://h.example:{x}/a")
    requests.get('https://h.example/search?q="{}"'.format(name))
    requests.get(f"https://h.example/a/<{x}>/b")
'''


def test_a_character_wrong_in_every_iri_is_reported_beside_a_hole() -> None:
    """A space, a control or a quote next to a template hole is wrong whatever fills the hole; a '%' or ':' before
    one may be completed by it ('%' + two hex digits, a port), and '<' '>' around one may be a placeholder's
    brackets, so those stay silent."""
    found = [(f.line, f.col, f.code) for f in lint_text(BESIDE_HOLES, Config())]
    assert found == [(3, 35, "IRI101"), (4, 38, "IRI104"), (7, 45, "IRI102")]


@pytest.mark.parametrize(("piece", "code"), [
    ("/icons/{name}\\ue000.svg", "IRI106"), ("/icons/\\ue000{name}", "IRI106"), ("/a#{name}\\ue000", "IRI106"),
    ("/icons/{name}\\ufffd.svg", "IRI105"), ("/icons?{name}\\ue000", None)])
def test_a_private_use_or_special_character_beside_a_hole_is_reported(piece: str, code: str | None) -> None:
    """fixtures241 #1: a private-use character outside the query is wrong whatever a path's or fragment's hole
    holds (no '?', the convention for structure; RFC 3987 sec. 2.2), as a special is anywhere (3987bis sec. 6.3)."""
    src = f'import requests\ndef f(name):\n    requests.get(f"https://api.example.org{piece}")\n'
    assert [f.code for f in lint_text(src, Config())] == ([code] if code else [])


def test_a_bidi_message_displays_a_hole_as_an_ellipsis_not_a_digit() -> None:
    """fixtures241: IRI204's "displayed as" put the ``0`` a hole is checked as beside the right-to-left segment, a
    digit the author never wrote; the display is of the text with the hole as ``…``."""
    src = 'import requests\ndef f(slug):\n    requests.get(f"https://he.example.org/\u05d0\u05d1/{slug}/abc\u05e9")\n'
    [found] = lint_text(src, Config())
    shown = "displayed as 'https://he.example.org/\u05d1\u05d0/\u2026/abc\u05e9'"
    assert found.code == "IRI204" and shown in found.finding.message


@pytest.mark.parametrize(("piece", "expected"), [
    ('"icon\\ue000/K\\u00f6ln"', ["IRI106", "IRI404"]), ('"tag\\U000e0041/K\\u00f6ln"', ["IRI107", "IRI404"]),
    ('"a b/K\\u00f6ln"', ["IRI101", "IRI404"]), ('"icon\\ue000"', ["IRI106"]),
    # (fixtures246 #1: a bidi control, a full-width form, an invisible are other rules' too; no fix keeps them)
    ('"\\u202ecaf\\u00e9"', ["IRI201", "IRI404"]), ('"\\uff41\\u00e9"', ["IRI503", "IRI404"]),
    ('"\\u200d\\u00e9"', ["IRI505", "IRI404"]),
])
def test_an_ascii_only_api_raises_on_the_first_character_no_other_finding_is_about(piece: str,
                                                                                   expected: list[str]) -> None:
    """fixtures244 A: a private-use character's own finding (and its safe fix) left the 'ö' after it unreported,
    which urlopen still raises on; a character another finding is about is that finding's."""
    src = f'from urllib.request import urlopen\nWIKI = "https://wiki.example.org/wiki/"\nurlopen(WIKI + {piece})\n'
    found = lint_text(src, Config())
    assert [f.code for f in found] == expected
    assert all(("U+00F6" in f.finding.message or "U+00E9" in f.finding.message) and f.finding.fix is None
               for f in found if f.code == "IRI404")  # (at the 'ö' or 'é', with no fix beside another finding)


def test_braces_around_a_hole_build_a_template_expression() -> None:
    """wbgapi's ``url += '/series/{' + k + '}'`` (outside26 repro 01): the braces enclose a name known at run time,
    an RFC 6570 expression (sec. 2.2) filled before use, as a literal's ``{name}`` is; a brace a hole does not close
    is still reported."""
    src = ("def f(db, k):\n    url = 'sources/{}'.format(db)\n    url += '/series/{' + k + '}'\n"
           "    url2 = 'sources/{}/series/{{{}}}'.format(db, k)\n    url3 = 'https://h.example/a/{' + k + '/b'\n"
           "    url4 = 'https://h.example/a/' + k + '}/b'\n    return url, url2, url3, url4\n")
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(5, 32, "IRI103"), (6, 41, "IRI103")]


@pytest.mark.parametrize(("pieces", "col"), [('"/a/{" + k + "}}"', 32), ('"/a/{{" + k + "}"', 21)])
def test_a_stray_brace_beside_a_hole_s_braces_is_reported_alone(pieces: str, col: int) -> None:
    """fixtures187 repro 04: in ``"/a/{" + k + "}}"`` the first ``}`` closes the expression (IRI805 at its
    ``{``), so IRI103 is the second's alone, one character with its one fix, not a run of two from the first."""
    src = f'import requests\nG = "https://g.example"\nrequests.get(G + {pieces})\n'
    found = [f for f in lint_text(src, Config()) if f.code == "IRI103"]
    assert [(f.line, f.col, f.end.col - f.col) for f in found] == [(3, col, 1)]
    assert "in a row" not in found[0].finding.message


def test_a_password_partly_a_placeholder_is_still_a_password() -> None:
    """fixtures181 repro 01: ``Tr0ub%dor`` (a printf conversion wherever the literal stands) and ``Spring{YEAR}!x``
    still put most of a credential in the source (IRI506); a password that is placeholders and punctuation only
    is a template's (``{a}-{b}``, ``%(password)s``)."""
    src = ('DATABASE_URL = "postgres://app:Tr0ub%dor@db.internal/app"\nB_URL = f"postgres://app:Spring{YEAR}!x@db/app"\n'
           'C_URL = f"redis://:{a}-{b}@r/0"\nD_URL = "postgres://app:%(password)s@db/app"\n'
           'E_URL = f"https://{u}:{p}@h.example/"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(1, 31, "IRI506"), (2, 25, "IRI506")]


def test_a_template_s_password_is_reported_once_at_the_template() -> None:
    """fixtures185 repro 01: ``"...:{env}-Secr3t@...".format(env=ENV)`` is the template's password, reported at its
    literal; not again at ``ENV = "prod"``, where the field is filled, nor at the ``pw`` a ``%`` fills in."""
    src = ('ENV = "prod"\n\n\ndef replica_url(pw):\n'
           '    replica_db_url = "postgresql://replica:{env}-Secr3t@db.internal/vault".format(env=ENV)\n'
           '    warehouse_db_url = "mysql://etl:%s2024@warehouse.internal/etl" % pw\n'
           '    return replica_db_url, warehouse_db_url\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(5, 43, "IRI506"), (6, 36, "IRI506")]


def test_a_dns_host_label_that_begins_or_ends_with_a_hyphen_is_reported() -> None:
    """RFC 3986 sec. 3.2.2: a registered name for DNS lookup has RFC 1123's syntax; interior hyphens
    ('r3---sn-ab', a live CDN name) are fine. Not for a scheme whose host is no DNS name."""
    src = ('a_url = "https://-sts.googleapis.com"\nb_url = "https://us-east-.example.com/x"\n'
           'c_url = "https://r3---sn-ab.example.com/"\nd_url = "file://-host-/x"\n')
    # (at the hyphen: the character at fault)
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(1, 17, "IRI403"), (2, 24, "IRI403")]


def test_a_user_name_that_reads_as_another_host_is_reported_at_it() -> None:
    """RFC 3986 sec. 7.6's semantic attack: the reader takes the user name for the authority (opt-in)."""
    src = ('a_url = "https://www.example.com@attacker.example/"\nb_url = "ftp://john.doe@ftp.example.com/"\n'
           'c_url = "https://mtls.api.example.com.@attacker.invalid/v1"\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config(extend_select=("IRI508",)))] == [
        (1, 17, "IRI508"), (3, 17, "IRI508")]
    assert lint_text(src, Config()) == []  # opt-in


def test_captured_output_that_starts_with_an_iri_is_text() -> None:
    """gallery-dl's test_job.py: a test's expected output, a line of IRIs then ``| `` lines, is text (no IRI104,
    IRI103 and IRI101 on one literal); an IRI broken by a line break before one word, or given to a URL API, or
    followed by a header where a URL is expected, is still one IRI with a control character; elsewhere a header
    line after an IRI is text (a robots.txt's ``Sitemap:``, fixtures178 repro 01)."""
    text = ('import requests\nexpected = """\\\nhttps://example.org/1.jpg\n| https://example.org/alt/1.jpg\n'
            'https://example.org/2.jpg\n"""\nnote = "https://example.com\\nSee also the docs"\n'
            'broken = "http://exa\\nmple.com/p"\nrequests.get("https://example.com/a\\nb c")\n'
            'hdr_url = "https://victim.example\\nX-Injected: 1"\n'
            'robots = "https://h.example/a\\nSitemap: https://h.example/s.xml"\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [
        (8, "IRI104"), (9, "IRI104"), (9, "IRI101"), (10, "IRI104")]


def test_a_percent_before_a_space_is_no_placeholder_where_the_literal_is_not_formatted() -> None:
    """fixtures151 repro 01: "50% sale.pdf" given to a URL API is a bare '%' and a space (IRI110, IRI101), not a
    printf conversion with a space flag left unfilled (IRI805); "%s" still is one."""
    text = ('import requests\nrequests.get("https://h.example/promo/50% sale.pdf")\n'
            'requests.get("https://h.example/q?id=%s")\n')
    assert [(f.line, f.code) for f in lint_text(text, Config())] == [(2, "IRI110"), (2, "IRI101"), (3, "IRI805")]


@pytest.mark.parametrize("literal", ['f"http://[fe80::1%25{iface}]:8080/"', 'f"http://[fe80::1%{iface}]:8080/"',
                                     '"http://[fe80::1%25{iface}]:8080/".format(iface=name)'])
def test_a_zone_filled_from_a_variable_is_a_zone_still(literal: str) -> None:
    """fixtures156 repro 02: after an IPv6 address in '[...]' a '%' starts a zone identifier whatever the hole after
    it holds (RFC 3987 sec. 2.2): the hole does not drop the finding, which points at the '%'."""
    src = f"import requests\n\n\ndef f(iface, name):\n    return requests.get({literal})\n"
    found = [(f.line, f.col, f.code, f.finding.message) for f in lint_text(src, Config())]
    assert [(line, col, code) for line, col, code, _ in found] == [(5, 24 + literal.index("%"), "IRI118")]
    assert "'%" in found[0][3] and "…'" in found[0][3]


@pytest.mark.parametrize("literal", ['f"https://h.example/menus/caf\\u00e9{n}.pdf"',
                                     '"https://h.example/caf\\u00e9%d.pdf" % n', '"https://h.example/caf\\u00e9{}".format(n)'])
def test_an_ascii_only_api_raises_on_a_non_ascii_character_beside_a_hole(literal: str) -> None:
    """fixtures157 repro 02: urlopen raises on the 'é' whatever fills the placeholder after it (the rule that drops a
    finding at a hole's edge is for characters a hole may mend)."""
    src = f"from urllib.request import urlopen\n\n\ndef f(n):\n    return urlopen({literal})\n"
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(5, 19 + literal.index("\\"), "IRI404")]


def test_a_default_or_an_alternative_written_at_the_api_is_that_api_s_url() -> None:
    """fixtures160 repro 02: ``urlopen(os.getenv("X", "https://h/größe"))``, ``requests.get(u or "https://h/ ")``:
    the literal is what the API gets when the variable is unset or ``u`` empty, so every rule runs on it as on
    the API's argument (IRI404, an end's whitespace), as for ``a if c else b``; ``a and b`` gives ``b``."""
    src = ('import os\nfrom urllib.request import urlopen\nimport requests\n\n\ndef f(u):\n'
           '    urlopen(os.getenv("REPORT_URL", "https://h.example/gr\u00f6\u00dfe"))\n'
           '    requests.get(os.environ.get("S", default="https://h.example/v1/ "))\n'
           '    requests.get(u or "https://h.example/v2/ ")\n'
           '    requests.get(u and "https://h.example/v3/ ")\n'
           '    requests.get("https://h.example/v4/ " and u)\n'
           '    x = os.getenv("NAME", "a b")\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [
        (7, "IRI404"), (8, "IRI101"), (9, "IRI101"), (10, "IRI101")]


def test_urllib_request_cuts_the_fragment_off_and_http_client_sends_it() -> None:
    """fixtures161 repro 01: urllib.request's Request drops the fragment before the request line (Request.full_url),
    so a non-ASCII anchor raises nothing there, through a literal or a value; http.client sends it, and a
    non-ASCII path is reported at either."""
    src = ('import http.client\nfrom urllib.request import Request, urlopen, urlretrieve\n'
           'W = "https://de.wikipedia.org/wiki/Berlin"\n'
           'urlopen("https://de.wikipedia.org/wiki/Berlin#Bev\u00f6lkerung")\n'
           'urlretrieve(W + "#\u0399\u03c3\u03c4\u03bf\u03c1\u03af\u03b1", "a.html")\n'
           'Request("https://ja.wikipedia.org/wiki/\u6771#x")\n'
           'http.client.HTTPSConnection("de.wikipedia.org").request("GET", "/p#K\u00f6ln")\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [(6, 39, "IRI404"), (7, 68, "IRI404")]


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_a_literal_s_fix_does_not_depend_on_a_list_item_of_the_same_text(order: tuple[int, int]) -> None:
    """fixtures157 repro 06: an IRI inside a list has no fix (one is proven on a whole literal), a literal alone
    holding the same text has its own, whichever comes first in the file."""
    lines = ['MIRROR_URLS = "https://m1.example.org/feeds/ https://m2.example.org/feeds/a|b/"\n',
             'ONE_URL = "https://m2.example.org/feeds/a|b/"\n']
    src = "".join(lines[k] for k in order)
    fixed = {f.line - 1 == order.index(0): f.finding.fix for f in lint_text(src, Config())}  # (in the list?)
    assert fixed[True] is None and fixed[False] is not None


def test_an_identifier_api_given_a_base_takes_a_relative_reference() -> None:
    """outside8 (rdflib's graph.py): ``URIRef("#context", base=uri)`` is ``urljoin(base, value)``, no relative
    identifier: no IRI116, written at the call or bound to a name in a branch before it; without a base (or
    ``None``) it is; the reference's own faults are found either way."""
    src = ('from rdflib import URIRef\n\n\ndef f(uri, cid=None):\n    if cid is None:\n        cid = "#context"\n'
           '    return URIRef(cid, base=uri)\n\n\n'
           'def g(uri):\n'
           '    return URIRef("#context", base=uri), URIRef("#c"), URIRef("#c", None), URIRef("a b", uri)\n')
    assert [(f.line, f.col, f.code) for f in lint_text(src, Config())] == [
        (11, 49, "IRI116"), (11, 63, "IRI116"), (11, 84, "IRI101")]
