"""Issue #26 (and #30 item 6): what real code holds that is no IRI at fault, and the misses, at their columns."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from iri_lint.config import Config
from iri_lint.lint import lint_text
from iri_lint.source.project import Project


def found(source: str, config: Config | None = None) -> list[tuple[int, int, str]]:
    return [(f.line, f.col, f.code) for f in lint_text(textwrap.dedent(source), config or Config())]


# ---------------------------------------------------------------- causes of false findings


QUIET = {
    # 1. templates by their grammar, wherever they are filled
    "format field filled in another module": '''
        class GitHub:
            PULL_URL = "https://api.github.com/repos/{owner}/{repo}/pulls/{number}"
            FILE_URL = "https://raw.example.com/{0}/{1!s}/{path.name}/{parts[0]}"
            ARCHIVE = "https://example.com/archive/{date:%Y/%m}/{slug:>{width}}.html"

            def pull(self, number):
                return self.session.get(self.PULL_URL.format(owner="o", repo="r", number=number))
        ''',
    "RFC 6570 template for uritemplate": '''
        import uritemplate
        ISSUES = "https://api.github.com/repos/{owner}/{repo}/issues{/number}{?state,labels*}{&page}"
        SEARCH = "https://example.com/search{?q,lang:2}{#section}{.format}{;params}{+base}"
        url = uritemplate.expand(ISSUES, owner="o", repo="r")
        ''',
    "printf and shell templates": '''
        API = "https://%(host)s:%(port)d/v1/%s"
        DEPLOY = "https://${DEPLOY_HOST}/api/${VERSION:-v1}"
        PAGE = "https://example.com/{{ page.slug }}/{% if lang %}{{ lang }}{% endif %}"
        ''',
    # 2. placeholders in examples
    "placeholders in examples": '''
        SERVER = "http://API-HOST:API-PORT/"
        TOKEN_URL = "https://login.<Region>.example.com/oauth2/token"
        PULLS = "https://api.github.com/repos/octo/hello/pulls/<number>"
        LOGGED = "https://[Filtered]@sentry.example.com/?token=[REDACTED]&key=***"
        DOCS = "postgres://user:password@host:port/dbname"
        ''',
    # 3. text that holds IRIs
    "scope and origin lists": '''
        SCOPES = "openid https://www.googleapis.com/auth/drive https://www.googleapis.com/auth/gmail.readonly"
        CORS_ORIGINS = "https://app.example.com https://admin.example.com"
        ORIGINS = "https://a.example.com,https://b.example.com"
        DEV_ORIGINS = "http://localhost:3000, http://127.0.0.1:3000"  # (', ' after a port: fixtures158 repro 01)
        MIXED = "http://localhost:3000; http://localhost:8080"
        LISTENERS = "PLAINTEXT://kafka-1:9092, PLAINTEXT://kafka-2:9092"
        BROKER_URL = "amqp://guest@rabbit1:5672//;amqp://guest@rabbit2:5672//"
        KAFKA_LISTENERS = "PLAINTEXT://0.0.0.0:9092,SASL_SSL://0.0.0.0:9093,EXTERNAL_TLS://0.0.0.0:9094"
        KAFKA_BROKERS_URL = "SASL_SSL://kafka-1.example:9093,SASL_SSL://kafka-2.example:9093"
        CORS_ALLOWED_ORIGINS = ["http://localhost:*", "https://*.example.com"]  # (patterns: fixtures101)
        STEP = {"uses": "docker://alpine:3.19"}  # (GitHub Actions, skopeo: an image reference, fixtures109)
        IMAGE = "docker://busybox@sha256:" + "ab" * 32
        ''',
    "fsspec URL chains (fixtures111, repro 01)": '''
        import fsspec
        ZIP_CHAIN = "zip://daily.csv::https://data.example.org/daily.zip"
        TAR_CHAIN = "tar://*.csv::s3://survey-raw/archive.tar.gz"
        fsspec.open("libarchive://x.csv::https://h.example/a.7z")
        CACHED = "simplecache::s3://survey-raw/big.nc"
        NESTED = "filecache::zip://my file.csv::https://h.example/x.zip"
        ''',
    "lines of URLs, records and captured output": '''
        SITEMAP = """
        https://example.com/
        https://example.com/about
        """
        ROWS = "https://example.com/a\\t200\\tOK\\nhttps://example.com/b\\t404\\tNot Found\\n"
        out = "https://example.com/health\\n"
        ''',
    # 4. not IRIs at all
    "XML qualified names and pool keys": '''
        ENVELOPE = ("soap:Envelope", "soap:Body", "http:NegotiateAuthentication")
        POOL_KEY = "http:example.com:81"
        ''',
    "route patterns given to a router": '''
        from django.urls import path, re_path
        from starlette.routing import Route

        urlpatterns = [path("articles/<int:year>/", view), re_path(r"^feed/(?P<fmt>\\w+)$", feed)]
        routes = [Route("https://{subdomain}.example.com/{path:path}", endpoint)]

        @app.route("https://<tenant>.example.com/<path:rest>")
        def tenant(rest):
            ...

        app.router.add_route("GET", "https://{host}/items/{id:\\\\d+}", handler)
        config.add_route("item", "https://example.com/items/{id}")
        ''',
    "messages: logged, printed, raised, asserted (fixtures101, repro 01)": '''
        import logging, warnings, pytest
        log = logging.getLogger(__name__)
        assert r.ok, "http://testserver unreachable"
        assert r.ok, f"https://shop.example/{path}: failed"
        pytest.fail("http://localhost:8000/health unreachable")
        log.info("https://cdn.example.net/img fetched")
        log.warning("https://cdn.example.net/%s timed out", name)
        print("http://localhost:8000/ ready")
        warnings.warn("https://old.example/api deprecated")
        raise RuntimeError("http://testserver/api/items?page=2 failed")
        ''',
    "Django view names in URL contexts": '''
        from django.shortcuts import redirect
        redirect("wagtailadmin_pages:add", parent.id)
        next_url = "admin:index"
        ''',
    "an OpenAPI client's field types (kubernetes, influxdb-client: not in the corpus)": '''
        class V1PolicyRule:
            openapi_types = {"non_resource_urls": "List[str]", "urls": "list[str]", "base_url": "str"}
            swagger_types = {"callback_urls": "dict(str, str)", "links": "Dict[str, List[V1Link]]"}
            attribute_map = {"non_resource_urls": "nonResourceURLs"}
            def __init__(self, urls: "Optional[List[str]]" = None, home_url: "Optional[str]" = None): ...
        ''',
    "search terms and SQL LIKE patterns with a scheme's name (dagster, prefect: not in the corpus)": '''
        def selection(key, value, db):
            terms = [f'tag:"{key}"="{value}"', 'tag:"team"', 'urn:"x"']
            return db.Limit.name.like("tag:%"), db.Limit.name.ilike("http:%"), db.Tags.name.contains("tag:%")
        ''',
    "HTML image candidates with their descriptors (fixtures121's note)": '''
        SRC_2X = "https://cdn.example.net/img/logo@2x.png 2x"
        SRCSET = "https://cdn.example.net/a.png 1x, https://cdn.example.net/a@2x.png 2x"
        WIDE = "https://cdn.example.net/a-480.png 480w, https://cdn.example.net/a-960.png 960w"
        ''',
    "OpenAPI callbacks keyed by runtime expressions (fixtures118, repro 01)": '''
        CALLBACKS = {"http://notify.example.com?id={$request.body#/id}&email={$request.body#/email}": {}}
        callback_url = "{$request.body#/callbackUrl}"
        ''',
    "SQLite's database in memory as a database URL (reader: not in the corpus)": '''
        reader = make_reader(url=":memory:")
        DATABASE_URL = ":memory:"
        ''',
    "A tool's keyword where it takes URLs, and a regex matching it (yt-dlp's feeds: outside50 F1)": '''
        _TESTS = [{'url': ':ytfav', 'only_matching': True}, {'url': ':ytwatchlater'}]
        _VALID_URL = r':ytwatchlater'
        ''',
    "A redaction marker where a URL was (posthog's MCP sanitizer: not in the corpus)": '''
        _REDACTED_VALUE = "[redacted]"
        API_URL = "[REDACTED]"
        PROXY_URL = "***"

        def _sanitize_single_url(value, suffix):
            if len(value) > 4096:
                return _REDACTED_VALUE
            return _REDACTED_VALUE + suffix
        ''',
    "Text for a terminal, colored by ANSI escapes (langchain-community's manticore repr: not in the corpus)": '''
        def __repr__(self):
            _repr = f"\\033[92m\\033[1m{self.config.table} @ "
            _repr += f"http://{self.config.host}:{self.config.port}\\033[0m\\n\\n"
            return _repr
        ''',
    "An IVOA identifier kept as a LIKE pattern in a name that says so (pyvo: not in the corpus)": '''
        def _make_obscore_constraint(self):
            obscore_pat = 'ivo://ivoa.net/std/obscore%'
            return f"ivo_nocasematch(detail_value, '{obscore_pat}')"
        ''',
    "a display under a name that says template holds templates, a dict's values too (as its list's items)": '''
        LINK_TEMPLATES = {"search": ("https://example.com/search?q=%q", "q"), "tag": ["https://example.com/t/%t"]}
        ''',
    "a line template of a text file, its placeholder the URL's base (pelican-sitemap, outside13 repro 01)": '''
        BASE = "https://example.com"
        TXT_URL = "{0}/{1}\\n"
        LINE_URL = "%s/%s\\r\\n"
        PAGE_URL = f"{BASE}/a\\n"
        ''',
    "SQL LIKE patterns by where they go: after LIKE in SQL, a query's bind parameter (outside9, fixtures169)": '''
        import sqlalchemy as sa

        NEW_STYLE_STDIDS = {"sia2": ("ivo://ivoa.net/std/sia#query-2.%", None)}
        SSA = "ivo://ivoa.net/std/ssa#%"

        def condition(std):
            return f"standard_id LIKE '{NEW_STYLE_STDIDS[std][0]}'" + " OR x like '%s'" % SSA

        def vizier(cur, conn):
            cur.execute("SELECT ivoid FROM rr.resource WHERE ivoid LIKE %s", ("ivo://cds.vizier/%",))
            conn.execute(sa.text("SELECT ivoid FROM rr.resource WHERE ivoid ILIKE :p"), {"p": "ivo://cds.vizier/%"})

        async def vizier_asyncpg(conn):
            return await conn.fetch("SELECT ivoid FROM rr.resource WHERE ivoid LIKE $1", "ivo://cds.vizier/%")
        ''',
    "A test helper's regex and a membership test's needle (fixtures132, repros 01 and 02)": '''
        import pytest

        def test_it(self, r):
            with pytest.raises(ValueError, match="https://www.example.com/a|b"):
                pass
            with pytest.warns(UserWarning, match="https://www.example.com/c|d"):
                pass
            with self.assertRaisesRegex(ValueError, "https://www.example.com/a|b"):
                pass
            self.assertRegex(r.text, "https://www.example.com/c|d")
            self.assertNotRegex(r.text, expected_regex="https://www.example.com/e|f")
            assert "https://www.example.com/a b" in r.text
            self.assertIn("https://www.example.com/a b", r.text)
            self.assertNotIn("https://www.example.com/a b", ["x"])
        ''',
    "A URL's syntax with its optional parts in brackets (superset's engine specs: not in the corpus)": '''
        class ClickHouseEngineSpec:
            sqlalchemy_uri_placeholder = (
                "clickhousedb://user:password@host[:port][/dbname][?secure=value&=value...]"
            )
            metadata = {"connection_string": "solr://{username}:{password}@{host}:{port}/{path}[/?use_ssl=true|false]"}
        ''',
    "A sanitizer's replacement with redaction markers as host and path (superset: not in the corpus)": '''
        import re

        def sanitize(error_str):
            return re.sub(r"postgresql://[^@\\s]{1,100}@[^/\\s]{1,100}/[^\\s]{0,100}",
                          "postgresql://[REDACTED]@[REDACTED]/[REDACTED]", error_str)
        ''',
    "A URL's shape in a notation with optional parts (tekore's error message: not in the corpus)": '''
        valid_url = "[http[s]://]open.spotify.com/{type}/{id}"
        msg = f"Invalid URL: expected format {valid_url!r}, got {url!r}!"
        ''',
    "XPath queries under the key href of a dict an xpath name holds (outside16 repros 01, 02: ddgs)": '''
        elements_xpath = {
            "title": ".//div[contains(@class, 'Title')]//h3//text()",
            "href": ".//div[contains(@class, 'Title')]//a/@href",
        }
        LINK_SELECTORS = {"href": "a[href^='https://'] span"}
        ''',
    "A test's expected repr: a URL, then a listing's headings without values (outside16 repros 03, 04: siphon)": '''
        def test_print(ds):
            assert str(ds) == ('http://localhost:8080/thredds/a.nc\\n'
                               "Dimensions:\\n<class 'x.Dimension'> name = station, size = 5\\n")
            truth = """http://localhost:8080/thredds/a.nc
        Groups:
        g1
        Dimensions:
        <class 'x.Dimension'> name = dim, size = 1
        """
            assert str(ds) == truth
        ''',
    "An IRI and a word written as two pieces split at the space (outside33 repros 01, 02: django-embed-video)": '''
        def test_tags(self):
            self.assertRenderedTemplate(
                template, "https://www.youtube.com/embed/jsrRJyHBvzw?wmode=opaque " "YoutubeBackend")
            self.assertRenderedTemplate(
                template,
                "https://w.soundcloud.com/player/?visual=true&amp;show_artwork=true "
                "SoundCloudBackend",
            )
        ''',
}


@pytest.mark.parametrize("source", QUIET.values(), ids=QUIET.keys())
def test_real_code_that_holds_no_iri_at_fault_is_quiet(source: str) -> None:
    assert found(source) == []


def test_a_like_pattern_s_percent_is_a_wildcard_and_the_rest_is_still_checked() -> None:
    """A LIKE pattern's '%' is any text (a hole): the IRI around it is checked, and a query without LIKE holds
    no pattern, nor does the parameter of its '=' (fixtures173 repros 01, 02)."""
    source = '''
        STDIDS = {"a": ("ivo://ivoa.net/std/x y#%", None)}
        A = "ivo://a.example/x#%"
        B = "ivo://b.example/x#%"

        def run(cur, k):
            cur.execute(f"SELECT * FROM t WHERE id LIKE '{STDIDS[k][0]}'")
            cur.execute("SELECT * FROM t WHERE id LIKE %s", ("ivo://cds.vizier/a b%",))
            cur.execute("INSERT INTO t VALUES (%s)", ("ivo://cds.vizier/%zz",))
            cur.execute("SELECT 1 WHERE url = %s OR m LIKE %s", ("http://x.example/%zz", "ivo://e/%"))
            cur.execute("SELECT 1 WHERE a LIKE '{}'".format(A))
            cur.execute("SELECT 1 WHERE b LIKE '" + B + "'")
        '''
    assert found(source) == [(2, 37, "IRI101"), (8, 72, "IRI101"), (9, 64, "IRI110"), (10, 75, "IRI110")]


def test_a_name_bound_to_a_parameter_after_like_is_a_pattern() -> None:
    """A constant a query binds to a parameter its SQL puts after LIKE is a pattern there, as a literal is: its '%'
    is any text and the rest is checked; the one bound to ``url = ?`` is not (fixtures173's left LIKE item)."""
    source = '''
        HOST_LIKE = "http://%/a%20b%"
        SPACED_LIKE = "http://%.example.com/a b/%"
        SITE = "https://x.example.org/%zz"

        def find(cur):
            cur.execute("SELECT id FROM pages WHERE url LIKE :p", {"p": HOST_LIKE})
            cur.execute("SELECT id FROM pages WHERE url LIKE ? OR url = ?", (SPACED_LIKE, SITE))
        '''
    assert found(source) == [(3, 37, "IRI101"), (4, 30, "IRI110")]


def test_a_line_break_after_a_template_is_one_at_a_url_api_and_in_a_token_s_middle() -> None:
    """A template's line break ends a line of text, as a whole IRI's does; at a URL API it is the URL's, and a
    placeholder that begins no token holds no base."""
    source = '''
        import requests
        requests.get("{0}/{1}\\n".format(a, b))
        NEXT_URL = "page-{0}/{1}\\n"
        '''
    assert [code for _, _, code in found(source)] == ["IRI104", "IRI104"]


def test_a_line_break_after_a_token_a_placeholder_begins_separates_it() -> None:
    """A token a placeholder begins may be a whole URL whatever follows the placeholder; a line break after it ends
    a line of text (outside70: leafmap's Markdown badge line ``badge_url = f"{badge}({url})\\n"``), filled by
    ``.format`` or ``%`` too (fixtures242 #1)."""
    source = '''
        def badge_line(badge, url):
            badge_url = f"{badge}({url})\\n"
            feed_url = "{}/feed.xml\\n".format(url)
            page_url = "%s/page.html\\n" % url
            return badge_url, feed_url, page_url
        '''
    assert found(source) == []


def test_whitespace_at_an_end_of_an_absolute_or_hole_led_url_named_literal_is_no_finding() -> None:
    """fixtures242 #2: at a URL-named target the line break after an IRI separates it from text whatever the IRI
    holds, as IRI101's page says; the space inside is still the IRI's fault."""
    source = '''
        def f(base):
            a_url = "https://h.example/a b\\n"
            b_url = f"{base}/c d\\n"
            return a_url, b_url
        '''
    assert [code for _, _, code in found(source)] == ["IRI101", "IRI101"]


def test_one_character_s_finding_is_printed_once_when_the_scan_splits_the_text() -> None:
    """fixtures246 #6: ``"%s/a|b " % root`` at a URL-named target: the literal scan checks the IRI of the text alone
    (a literal starting elsewhere than the value's), the value check the whole; one '|', one finding."""
    source = '''
        def names(root):
            link_url = "%s/a|b " % root
            other_url = "{}/c|d ".format(root)
            return link_url, other_url
        '''
    assert [(line, code) for line, _, code in found(source)] == [(3, "IRI103"), (4, "IRI103")]


def test_a_redaction_marker_is_a_url_only_where_a_url_api_takes_it() -> None:
    """``[REDACTED]`` where a URL was is a placeholder of the whole URL, not a relative reference; a URL API sends it
    all the same, and a bracketed index (``[0]``) is no redaction marker."""
    src = ('import requests\n\nrequests.get("[REDACTED]")\n\n\ndef other_url(x):\n    return "[0]" + x\n'
           'SHOWN_URL = "[redacted] and more"\n')
    assert [(f.line, f.code) for f in lint_text(src, Config())] == [(3, "IRI114"), (7, "IRI114")]


def test_one_finding_per_literal_for_one_cause() -> None:
    """Issue #26 item 5: a literal with four spaces is one thing to fix; its fix makes every change."""
    src = 'link_url = "https://example.com/My Annual Report 2024 final.pdf"\n'
    (f,) = lint_text(src, Config())
    assert (f.line, f.col, f.code) == (1, 34, "IRI101")
    assert f.finding.message.endswith("(and 3 more places in this literal)")
    assert f.finding.fix is not None
    assert f.finding.fix.value == "https://example.com/My%20Annual%20Report%202024%20final.pdf"


# ---------------------------------------------------------------- misses, at their columns


def test_a_port_with_a_wildcard_and_digits_is_still_no_port() -> None:
    """Only a port that is ``*`` alone is a pattern's wildcard; ``:8*`` is a port with a stray character."""
    assert found('''\
        ORIGINS = ["http://localhost:8*"]
        ''') == [(1, 30, "IRI112")]


def test_a_message_is_checked_where_it_holds_one_iri_alone() -> None:
    """A message is text, where whitespace ends an IRI (RFC 3986 appendix C); one that is an IRI alone is still
    checked, and a URL API's argument inside a raise stays a URL."""
    assert found('''\
        import logging, requests
        logging.info("https://h.example/a|b")
        assert ok, "https://h.example/x\\u202ey"
        raise RuntimeError(requests.get("http://h.example/a b").text)
        ''') == [(2, 33, "IRI103"), (3, 31, "IRI201"), (4, 51, "IRI101")]


def test_url_api_arguments_are_never_prose_or_regex() -> None:
    """Issue #30 item 6, issue #26: an argument of a URL API is one URL whatever it holds."""
    assert found('''\
        import requests, urllib.request
        requests.get("https://example.com/files/My Annual Report 2024.pdf")
        requests.get("https://example.com/files/" "My Annual" " Report" " 2024.pdf")
        urllib.request.urlopen("http://h.example/sparql?q=SELECT ?x WHERE { ?x a ?y } ORDER BY DESC(?y)")
        requests.get("https://a.example/ https://b.example/")
        requests.get("https://example.com/health\\n")
        ''') == [(2, 42, "IRI101"), (3, 45, "IRI101"), (4, 56, "IRI101"), (4, 66, "IRI103"),
                 (5, 32, "IRI101"), (6, 40, "IRI104")]


def test_quotes_and_angles_in_a_query_are_reported_unless_a_placeholder() -> None:
    assert found('''\
        XSS = 'https://example.com/search?q="><script>alert(1)</script>'
        FRAG = "https://example.com/page#<a href=x>"
        OK = "https://example.com/search?q=<term>"
        ''') == [(1, 36, "IRI102"), (2, 33, "IRI102"), (2, 35, "IRI101")]


def test_control_characters_at_either_end_of_a_literal() -> None:
    assert found('''\
        A = "\\x19https://example.com/\\x06"
        B = "\\x00http://example.com/"
        ''') == [(1, 5, "IRI104"), (2, 5, "IRI104")]


def test_header_injection_after_an_iri_in_any_scheme() -> None:
    """Where a URL is expected, one finding at the line break (what the header line holds follows from it: fixtures179
    repro 04); elsewhere the same text, CR-LF or LF, is text (a test's expected HTTP head: fixtures178 repro 01,
    fixtures179 repro 03), and a header name with no value is a heading (siphon's listings)."""
    assert found('''\
        A_URL = "https://example.com/a\\r\\nHost: evil.example"
        B_URL = "mailto:a@b.example\\r\\nBcc: c@d.example"
        C_URL = "https://example.com/a\\nX-Injected:1"
        D = "https://example.com/a\\nX-Empty:\\nnext line"
        E = "https://shop.example.com/robots.txt\\r\\nUser-Agent: monitor/1.0"
        ''') == [(1, 30, "IRI104"), (2, 27, "IRI104"), (3, 30, "IRI104")]


def test_each_iri_of_a_list_is_checked_at_its_column() -> None:
    assert found('''\
        SCOPES = "https://a.example/x https://b.example/%zz https://c.example/y|z"
        PAIR = ["https://www.youtube.com/watch?v=X|https://open.spotify.com/track/4B2k", "https://h.example/a|https"]
        ''') == [(1, 48, "IRI110"), (1, 71, "IRI103"), (2, 101, "IRI103")]


def test_a_bar_before_the_next_scheme_separates_two_iris() -> None:
    """outside32 repro 01: spotdl's ``"YT_URL|SPOTIFY_URL"`` pairs are two IRIs, as with ``,`` or ``;`` before the
    next ``scheme://`` ('|' is no URI character, RFC 3986 sec. 2); a '|' before anything else stays IRI103's."""
    assert found('''\
        PAIR = "https://www.youtube.com/watch?v=BZKwsPIhVO8|https://open.spotify.com/track/4B2kkxg3wKSTZw5JPaUtzQ"
        ONE_URL = "https://h.example/a|b"
        ''') == [(2, 30, "IRI103")]


def test_an_oauth_scope_s_iris_are_checked_alone() -> None:
    """An OAuth scope is tokens separated by spaces (RFC 6749 sec. 3.3), some of them IRIs, some not
    (``offline_access``, apprise's office365 plugin): at a scope-named target, keyword or key each IRI is
    checked alone; the same text at a URL-named target is one IRI with a space (3987bis sec. 6.3)."""
    assert found('''\
        personal_scope = "https://graph.microsoft.com/Mail.Send offline_access"
        SCOPES = ["openid https://www.googleapis.com/auth/drive", "profile https://h.example/a|b"]
        session = OAuth2Session("id", scope="openid https://graph.microsoft.com/.default offline_access")
        TOKEN = {"scope": "openid https://a.example/%zz email", "grant_type": "client_credentials"}
        prose_url = "https://graph.microsoft.com/Mail.Send offline_access"
        ''') == [(2, 86, "IRI103"), (4, 44, "IRI110"), (5, 50, "IRI101")]


def test_a_wifi_payload_is_one_whatever_its_network_s_name_holds() -> None:
    """fixtures164 repro 01: "WIFI:S:Notibot Guest;..." is no prose (the WPA3 grammar takes spaces), so a
    Trojan Source override or a control in it is reported; its space is the grammar's own."""
    assert found('''\
        GUEST_WIFI = "WIFI:S:Notibot Guest;T:WPA;P:\\u202ekiosk2024;;"
        VISITOR_WIFI = "WIFI:S:Visitor Net;T:WPA;P:guest\\x00;;"
        PLAIN_WIFI = "WIFI:S:Lobby Guest;T:WPA;P:welcome1;;"
        ''') == [(1, 43, "IRI201"), (2, 48, "IRI104")]


def test_a_password_masked_where_the_port_would_be_is_a_placeholder() -> None:
    """outside4 repro 08: apprise's privacy mode shows "clicksend://user:****" (cut before the '@') and
    "sender:u...m" (first and last characters): masks, not ports; a port of letters stays IRI112."""
    assert found('''\
        PRIVACY_URL = "clicksend://user:****"
        MASKED_URL = "octopush://sender:u...m/****/+1111111111"
        BAD_URL = "https://h.example:http/"
        ''') == [(3, 29, "IRI112")]


def test_a_markdown_link_s_destination_may_be_relative() -> None:
    """outside4 repro 02: a link's destination is a URI reference (CommonMark, RFC 3986 sec. 4.1), so ``</x>``
    and ``<#>`` in an expected Markdown output compared with ``==`` need no scheme (IRI116); what a relative
    destination holds is still checked."""
    assert found('''\
        assert to_md("<a href='/x'>link</a>") == "[link](</x>)"
        assert to_md("<a href='#anchor'>x</a>") == "[x](<#anchor>)"
        assert to_md("<a href='x'>click</a>") == "[click](<#>)"
        assert to_md("<a href='x'>click</a>") == "[click](/a|b)"
        ''') == [(4, 52, "IRI103")]


def test_a_markdown_link_to_an_iri_is_checked_wherever_it_stands() -> None:
    """fixtures162 repro 01: a badge or a link in an ordinary constant, the whole text, is checked at its destination
    as the bare IRI would be (design.md: "its destination is checked alone"); a relative one, and text around a
    link, are left to where a URL is expected (text mode reads prose)."""
    assert found('''\
        BADGE = "![cov](https://img.shields.io/badge/coverage-95%-brightgreen)"
        LINK = "[report](https://h.example/q3?growth=50%)"
        DOCS = "[docs](/guide a)"
        SEE = "see [report](https://h.example/a b)."
        ''') == [(1, 56, "IRI110"), (2, 47, "IRI110")]


def test_an_fsspec_chain_s_last_link_is_checked_alone() -> None:
    """``proto://member::https://h/x.zip``: the last link is the file system's URL, checked at its own columns; an
    IPv6 literal's ``::`` is no chain (fixtures111, repro 01)."""
    assert found('''\
        A = "zip://a b.csv::https://h.example/a|b.zip"
        B = "simplecache::s3://bucket/k%zz"
        C = "http://[::1]:80/a|b"
        ''') == [(1, 39, "IRI103"), (2, 31, "IRI110"), (3, 22, "IRI103")]


def test_invalid_a_labels_and_zone_identifiers() -> None:
    assert found('''\
        A = "https://xn--d.example/"
        B = "http://[fe80::1%25eth0]:8080/"
        ''') == [(1, 13, "IRI403"), (2, 20, "IRI118")]


def test_an_image_candidate_s_url_is_checked_alone() -> None:
    """``"url 2x"`` is HTML's image candidate string: its descriptor is no word of a broken IRI, its URL is checked."""
    assert found('SRC_2X = "https://cdn.example.net/a|b.png 2x"\nBAD = "https://cdn.example.net/a.png x2"\n') == [
        (1, 35, "IRI103"), (2, 36, "IRI101")]


def test_each_item_a_loop_gives_its_variable_is_checked_at_its_own_column() -> None:
    """A loop variable read where a URL API takes the value holds each item of the loop's display in turn: the
    item that joins no '/' to the authority is IRI801 at its first character, a space in another IRI101 there."""
    assert found('''\
        import requests
        BASE = "https://api.example.com"
        for path in ("/health", "ready", "/a b"):
            requests.get(BASE + path)
        ''') == [(3, 25, "IRI801"), (3, 36, "IRI101")]


def test_a_percent_right_after_a_hole_is_malformed_by_what_follows_it() -> None:
    """fixtures174 repro 01: a hole before a '%' cannot give it its two hex digits (RFC 3986 sec. 2.1); a hole in
    those two may, and a printf '%%' is one '%'."""
    assert found('''\
        import requests
        API = "https://shop.example/v1"
        def promos(pct: int, code):
            requests.get(f"{API}/promos?min_discount={pct}%&sort=top")
            requests.get("%s/promos?off=%d%%&all=1" % (API, pct))
            requests.get("{}/promos?off={}%".format(API, pct))
            requests.get(f"{API}/promos?tag=%{code}&x=1")
        ''') == [(4, 50, "IRI110"), (5, 34, "IRI110"), (6, 34, "IRI110")]


def test_a_bracket_before_a_hole_in_a_path_is_misplaced_whatever_the_hole_holds() -> None:
    """outside59's side note: ``f"https://example.com/a[{x}]"`` gave no finding (IRI114 at the '[' was dropped for
    the hole at its edge) and ``[{x}b]`` was reported at the ']': what stands before a '[' makes it an IP
    literal's (RFC 3986 sec. 3.2.2), so a hole after it cannot mend it; one before it may (``{base}[{addr}]``)."""
    assert found('''\
        a = f"https://example.com/a[{x}]"
        b = f"https://example.com/a[{x}b]"
        c = "https://example.com/a[%s]" % x
        d = f"{base}[{x}]:8080/"
        e = f"https://[{x}]:8080/a"
        ''') == [(1, 27, "IRI114"), (2, 27, "IRI114"), (3, 26, "IRI114")]


def test_a_windows_path_given_to_a_url_api_is_one_finding_that_names_it() -> None:
    """fixtures226 A: ``requests.get(r"C:\\Users\\me\\report.html")`` was read as a route name (``C:`` a namespace)
    and silent, while a UNC path was reported: a URL API reads 'C' as the scheme (requests raises InvalidSchema).
    One IRI103 at the first backslash, naming the path, with no fix; a URL-named target holding one stays silent
    (a name is no proof of a URL), and so does a URL-or-path API's argument (pandas reads a path)."""
    found_ = found('''\
        import requests
        import pandas as pd
        requests.get(r"C:\\Users\\me\\report.html")
        requests.get(url=r"d:\\data\\x.html")
        backup_uri = r"C:\\backups\\nightly"
        pd.read_csv(r"C:\\data\\x.csv")
        ''')
    assert found_ == [(3, 17, "IRI103"), (4, 21, "IRI103")]


def test_a_bracket_class_of_one_range_is_a_glob_or_regex_not_an_iri() -> None:
    """outside62 (datasets' tests): ``"mock://top/date=2019-10-0[1-4]"`` given to ``xglob`` was IRI114 twice; a class
    of one range holds no IRI (RFC 3986 sec. 3.3) and is fnmatch's or a regex's, as '[0-9]' already read. A
    bracket of no range is still misplaced."""
    assert found('''\
        import glob
        A = "mock://top/date=2019-10-0[1-4]"
        glob.glob("s3://bucket/day=0[a-f]/*")
        B = "https://example.com/a[b]"
        C = "https://example.com/a[1-]"
        ''') == [(4, 26, "IRI114"), (5, 26, "IRI114")]


def test_a_windows_path_reaching_a_url_api_through_a_name_and_a_unc_path_are_named() -> None:
    """fixtures229 #1 and its note: a drive path bound to a name, then given to a URL API, was silent (the value
    read as a route name); a UNC path was IRI103 "percent-encode it", whose fix names nothing, and IRI116 "put
    https:// before it". Each is one IRI103 that names the Windows path and has no fix."""
    src = '''\
        import requests
        WIN = r"C:\\reports\\today.html"
        def get(local):
            src = r"D:\\reports" + "\\\\today.html"
            requests.get(WIN)
            requests.get(src)
            requests.get(r"\\\\fileserver\\share\\report.html")
        '''
    assert found(src) == [(2, 10, "IRI103"), (4, 14, "IRI103"), (7, 19, "IRI103")]
    (unc,) = [f for f in lint_text(textwrap.dedent(src), Config()) if f.line == 7]
    assert "UNC path" in unc.finding.message and "'file://fileserver/...'" in unc.finding.message
    assert unc.finding.fix is None


def test_a_literal_a_collection_named_for_like_patterns_is_given_is_a_pattern() -> None:
    """fixtures234 #1: ``self.like_patterns.add("ivo://ivoa.net/std/TAP%")`` was IRI110 (and its unsafe fix, '%25',
    would make the wildcard a literal '%'): a literal, or a display's items given to ``extend``/``update``, that
    a collection named for LIKE patterns is given is a pattern, as a name it is given is; other collections'
    are IRIs."""
    assert found('''\
        like_patterns = set()
        like_patterns.add("ivo://ivoa.net/std/TAP%")
        like_patterns.update({"ivo://ivoa.net/std/SIA%"})
        like_patterns.extend(["ivo://ivoa.net/std/SSA%"])
        other_ids = []
        other_ids.append("ivo://ivoa.net/std/TAP%")
        ''') == [(6, 40, "IRI110")]


def test_a_percent_encoding_or_closed_dot_segment_before_a_hole_is_still_reported() -> None:
    """fixtures236 #1: ``B + "%7e" + uid``, ``B + "v1/../" + slug`` gave no IRI305/IRI306/IRI307: a finding at a hole's
    edge was dropped, though a percent-encoding whole in known text, or a dot segment its '/' closes, is what it is
    whatever the hole holds; ``"v1/.." + slug`` may be no dot segment ("..x"). The hole in IRI304's message is
    '…', not the '0' it is checked as; NFKC's change of what NFC changes is IRI301's alone."""
    config = Config(extend_select=("IRI3", "IRI405"))
    src = '''\
        import requests
        B = "https://api.example.com/"
        def f(slug, uid, tenant):
            requests.get(B + "v1/../" + slug)
            requests.get(B + "%7e" + uid)
            requests.get(B + "x%c3%a9" + uid)
            requests.get(B + "v1/.." + slug)
            requests.get(f"https://{tenant}.Example.com/{uid}")
            requests.get(B + "cafe\\u0301/" + uid)
        '''
    assert [(line, code) for line, _, code in found(src, config)] == [
        (4, "IRI307"), (5, "IRI305"), (5, "IRI306"), (6, "IRI305"), (6, "IRI405"), (8, "IRI304"), (9, "IRI301")]
    (host,) = [f for f in lint_text(textwrap.dedent(src), config) if f.code == "IRI304"]
    assert "host '….Example.com'" in host.finding.message and "'….example.com'" in host.finding.message


def test_a_percent_encoding_s_fault_through_a_url_named_helper_is_its_literal_s_once() -> None:
    """fixtures236 #2: ``avatar_url(user)`` returning ``BASE + "Avatars/%2d/" + user`` had IRI305/IRI306 at its
    literal and again at ``requests.get(avatar_url(user))``: a percent-encoding's own fault is its literal's,
    placed there once (as a space of the same helper is), not the call's."""
    assert found('''\
        import requests
        BASE = "https://catalog.example.com/"
        def avatar_url(user):
            return BASE + "Avatars/%2d/" + user
        def fetch_avatar(user):
            return requests.get(avatar_url(user))
        ''', Config(extend_select=("IRI3",))) == [(4, 27, "IRI305"), (4, 27, "IRI306")]


def test_a_host_label_s_known_hyphen_at_an_end_is_reported_beside_a_hole() -> None:
    """fixtures236 #4: ``"https://" + tenant + "-.example.com/"``: whatever ``tenant`` holds, the label before
    ``.example.com`` ends with '-', which no DNS name does (IRI403, quoting the hole as '…'); ``"a-" + tenant``
    may be any label."""
    assert found('''\
        import requests
        def regional(tenant):
            requests.get("https://" + tenant + "-.example.com/")
            requests.get("https://-" + tenant + ".example.com/")
            requests.get("https://a-" + tenant + ".example.com/")
            requests.get("https://ex-" + tenant + "/")
        ''') == [(3, 40, "IRI403"), (4, 26, "IRI403")]  # (at the hyphen, the character at fault)


def test_a_name_read_from_the_environment_joins_its_default_url() -> None:
    """fixtures175 repro 01: where the variable is unset the default is the URL, and what is joined to it is
    checked against it (IRI802, IRI801); an empty default says the variable must be set: a hole."""
    assert found('''\
        import os
        import requests
        SITE_URL = os.environ.get("SITE_URL", "https://shop.example.com/")
        SMS_STATUS_URL = SITE_URL + "/sms/status/"
        PARTNER_URL = os.getenv("PARTNER_URL", default="https://partner.example.net")
        requests.get(PARTNER_URL + "orders")
        requests.get(os.getenv("API_BASE", "") + "/v1/users")
        ''') == [(4, 29, "IRI802"), (6, 28, "IRI801")]


def test_an_environment_read_s_default_may_be_a_name_bound_to_the_url(tmp_path: Path) -> None:
    """fixtures176 repro 01: ``X = os.environ.get("X", DEFAULT)``, ``DEFAULT`` a constant of the module that spells
    the read (this one or another): unset, X is DEFAULT."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "settings.py").write_text('import os\nDEFAULT = "https://search.example.com/"\n'
                                          'BACKEND = os.environ.get("BACKEND", DEFAULT)\n', encoding="utf-8")
    use = ('import os\nimport requests\nfrom settings import BACKEND, DEFAULT\nLOCAL_DEFAULT = "https://l.example/"\n'
           'LOCAL = os.getenv("LOCAL", LOCAL_DEFAULT)\nrequests.get(BACKEND + "/_search")\n'
           'requests.get(LOCAL + "/_search")\nrequests.get(os.environ.get("S", DEFAULT) + "/_search")\n')
    got = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in got] == [(6, 24, "IRI802"), (7, 22, "IRI802"), (8, 45, "IRI802")]


def test_a_url_named_iri_without_an_authority_is_one_whatever_its_spaces() -> None:
    """fixtures176 repro 05: a URL-named value that starts as an absolute IRI is one, spaces and all, whatever its
    scheme writes after its ':' (``tel:+1 415 ...``), as ``https://...`` is."""
    assert found('''\
        ESCALATION_TEL_HREF = "tel:+1 415 555 0199"
        CONTACT_HREF = "mailto:sales@shop.example?subject=Request a quote today"
        ''') == [(1, 29, "IRI101"), (2, 57, "IRI101")]


def test_a_class_attribute_bound_to_nothing_is_a_slot_subclasses_fill() -> None:
    """outside19 repro 01 (bigcommerce): ``resource_name = ""`` in a base class its methods read through ``cls.``
    is filled by subclasses in other modules: unknown there, so the joins around it make no '//'; an ``""`` that
    overrides a base's value is a value (fixtures182 repro 02)."""
    assert found('''\
        import requests
        class ApiResource:
            resource_name = ""
        class ApiSubResource(ApiResource):
            parent_resource = None
            @classmethod
            def _get_path(cls, id, parentid):
                return "%s/%s/%s/%s" % (cls.parent_resource, parentid, cls.resource_name, id)
            @classmethod
            def get(cls, parentid, id):
                return requests.get("https://api.example.com/v2" + cls._get_path(id, parentid))
        class Prefixed:
            prefix = "/v1/"
            def get(self):
                return requests.get("https://api.example.com" + self.prefix + "/users")
        class Api:
            prefix = "/v2"
        class Webhook(Api):
            prefix = ""
            def post(self):
                return requests.get("https://h.example/x?a=1" + self.prefix + "?b=2")
        ''') == [(15, 71, "IRI802"), (21, 71, "IRI803")]


def test_an_environment_default_is_the_base_of_every_join() -> None:
    """fixtures177 repros 01, 02: the default is what urljoin resolves against, what aiohttp resolves a request
    against, and what a '%' or '.format' field holds, as it is for '+' and f-strings; a default a name of the read's
    module holds too."""
    assert found('''\
        import os
        from urllib.parse import urljoin
        import aiohttp, requests
        ISSUER = os.environ.get("OIDC_ISSUER", "https://login.example.com/realms/acme")
        PUBLIC_URL = os.getenv("PUBLIC_URL", "https://mirror.example/")
        requests.get(urljoin(ISSUER, "/.well-known/openid-configuration"))
        DEFAULT_ROOT = "https://geo.example.com/api"
        ROOT = os.getenv("GEO_ROOT", DEFAULT_ROOT)
        requests.get(urljoin(ROOT + "/v2", "reverse"))
        requests.get("%s/simple/%s" % (PUBLIC_URL, "pkg"))
        requests.get("{}/simple/{}".format(PUBLIC_URL, "pkg"))
        async def userinfo():
            async with aiohttp.ClientSession(base_url=ISSUER + "/") as s:
                await s.get("/protocol/openid-connect/userinfo")
        ''') == [(6, 30, "IRI804"), (9, 36, "IRI804"), (10, 16, "IRI802"), (11, 16, "IRI802"),
                     (14, 21, "IRI804")]


def test_an_environment_default_reaches_a_client_s_request() -> None:
    """fixtures179 repro 01: an absolute URL joined to an environment read's default, requested through an httpx
    or aiohttp client, is checked with the default as at requests.get."""
    assert found('''\
        import os
        import httpx
        ISSUER = os.getenv("ISSUER", "https://login.example.org/realms/shop/")
        async def certs():
            async with httpx.AsyncClient() as client:
                await client.get(ISSUER + "/protocol/certs")
        ''') == [(6, 35, "IRI802")]


def test_a_client_s_base_read_from_the_environment_is_its_default_where_unset(tmp_path: Path) -> None:
    """fixtures179 repro 02: a name bound to an environment read, this module's or another's, given as a client's
    base: unset, the base is the default, whose query each request is appended after (IRI810 at its '?')."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "conf.py").write_text('import os\nPAY_URL = os.getenv("PAY", "https://pay.example.com/v1?v=2")\n',
                                      encoding="utf-8")
    use = ('import os\nimport httpx\nimport conf\nLOCAL = os.getenv("L", "https://l.example/v1?v=2")\n'
           'a = httpx.Client(base_url=conf.PAY_URL)\nb = httpx.Client(base_url=LOCAL)\n'
           'c = httpx.Client(base_url=os.getenv("E", ""))\n')
    got = lint_text(use, Config(), path=str(tmp_path / "use.py"), project=Project())
    assert [(f.line, f.col, f.code) for f in got] == [(4, 44, "IRI810"), (5, 26, "IRI810")]


def test_a_space_split_from_its_word_is_the_iri_s_where_a_url_is_expected_or_inside_a_piece() -> None:
    """Only a piece that ends with the space between an IRI and one word makes them text; in one piece, or where a
    URL is expected, the space is the IRI's."""
    assert found('''
        doc = ("https://h.example/my" " file.pdf")
        PAGE_URL = ("https://h.example/my "
                    "file.pdf")
        x = "https://h.example/my file.pdf"
        ''') == [(2, 31, "IRI101"), (3, 33, "IRI101"), (5, 25, "IRI101")]
