"""Every rule, declared once. Codes are never renumbered; docs are generated from these records."""

from __future__ import annotations

from .model import Example as Ex
from .model import FixLevel, Rule, Severity, UseContext

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
DEREF = UseContext.DEREFERENCED

_ENCODE_WHY = (
    "RFC 3987 sec. 2.2 leaves this character out of the IRI grammar and 3987bis sec. 6.3 explains "
    "why: {reason} Software that receives such a string may cut it, reject it, or map it differently."
)

_TEXT_WHY = (
    "**Experimental.** Its precision on real docstrings has not yet been measured to the project's "
    "bar (90 % of findings right); the last review found epytext `U{{...}}`, ElementTree `{{ns}}tag` "
    "and placeholder hosts misread, so keep it for audits, not for CI gates. "
    "Text mode (opt-in) finds IRIs inside docstrings and prose the way mail readers and documentation "
    "tools do (RFC 3987 sec. 7.3; RFC 3986 appendix C: inside `<...>` or double quotes, or a bare "
    "`scheme://...` or registered `scheme:...` token ending at whitespace, without trailing sentence "
    "punctuation), and checks each one with the enabled IRI{digit}xx {family} rules. A reader who copies "
    "or clicks such a link gets a broken or misleading one. The finding names the underlying rule, "
    "`in text: IRI{digit}xx name: message`; ignoring that rule silences it in text too. Severity: "
    "warning (info for normalization), since documentation is not executed."
)
_TEXT_FIX = ("Correct the IRI in the text as the underlying rule says; iri-lint never edits prose, so "
             "there is no automatic fix.")

RULES: tuple[Rule, ...] = (
    Rule("IRI100", "not-analysed", "iri-lint could not analyse this file", "RFC 3987 sec. 2.2", W, True,
         "A file that iri-lint cannot analyse (it is nested too deeply, or the engine met a case it "
         "does not handle) gets this one finding instead of a crashed flake8 run, so the problem is "
         "visible and the rest of the project is still checked.",
         None, "Report the file to the iri-lint developers; silence it with `# noqa: IRI100`.",
         valid=(Ex("https://example.com/"),)),
    # ------------------------------------------------------------------ IRI1xx syntax
    Rule("IRI101", "space-in-iri", "Space character in an IRI", "RFC 3987 sec. 2.2; 3987bis sec. 6.3",
         E, True,
         _ENCODE_WHY.format(reason="spaces delimit IRIs in lists and are added or lost when long "
                            "IRIs are wrapped, so one IRI can be read as two."),
         FixLevel.NONE, "Percent-encode the space as `%20` (or `+` in a form-encoded query).",
         valid=(Ex("https://example.com/a%20b"),),
         invalid=(Ex("https://example.com/a b", "https://example.com/a%20b"),)),
    Rule("IRI102", "delimiter-in-iri", 'Delimiter character `<`, `>` or `"` in an IRI',
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason='`<`, `>` and `"` are the conventional delimiters around IRIs in '
                            "plain text (RFC 3986 appendix C), so an IRI containing them is cut off."),
         FixLevel.NONE, "Percent-encode the character (`%3C`, `%3E`, `%22`).",
         valid=(Ex("https://example.com/?q=%3Cb%3E"),),
         invalid=(Ex('https://example.com/say"hi"', "https://example.com/say%22hi%22"),)),
    Rule("IRI103", "unwise-character", "Unwise character (`\\ ^ ` { | }`) in an IRI",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason="these characters are shown differently on some systems (U+005C "
                            "as a yen sign) and are used around IRIs, so IRIs with them are read "
                            "piecemeal."),
         FixLevel.NONE, "Percent-encode the character (`%5C`, `%5E`, `%60`, `%7B`, `%7C`, `%7D`).",
         valid=(Ex("https://example.com/a%7Cb"),),
         invalid=(Ex("https://example.com/a|b", "https://example.com/a%7Cb"),)),
    Rule("IRI104", "control-character", "Control character (C0, DEL, C1) in an IRI",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason="controls cannot be transmitted reliably as text, are silently "
                            "dropped by some software and can manipulate how the IRI is displayed."),
         FixLevel.NONE, "Remove the control character (a stray tab or newline is usually a typo).",
         valid=(Ex("https://example.com/a"),),
         invalid=(Ex("https://example.com/a\tb", "https://example.com/ab"),)),
    Rule("IRI105", "special-character", "Special U+FFF0-FFFD (e.g. U+FFFD replacement character)",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason="specials serve byte-order and replacement purposes; U+FFFD "
                            "usually means the text was decoded with the wrong encoding."),
         FixLevel.NONE, "Find the character that was lost and write it instead; the fix removes it.",
         valid=(Ex("https://example.com/caf%C3%A9"),),
         invalid=(Ex("https://example.com/caf\ufffd", "https://example.com/caf"),)),
    Rule("IRI106", "private-use-outside-query", "Private-use character outside the query",
         "RFC 3987 sec. 2.2", E, True,
         "RFC 3987 allows private-use code points (`iprivate`) only in the query; their meaning is "
         "undefined without a private agreement and they are not interoperable (3987bis sec. 6.3).",
         FixLevel.URI, "Percent-encode it as UTF-8, which is exactly how the IRI maps to a URI "
         "(sec. 3.1), or move it to the query.",
         valid=(Ex("https://example.com/?q=\ue000"),),
         invalid=(Ex("https://example.com/\ue000", "https://example.com/%EE%80%80", context=DEREF),)),
    Rule("IRI107", "tag-character", "Tag character U+E0000-E0FFF outside what the profile allows",
         "RFC 3987 sec. 2.2; 3987bis sec. 2.2, 6.3", E, True,
         "Tag characters carry invisible language tags; language information in identifiers cannot "
         "be input, transmitted or recognized reliably (3987bis sec. 6.3). RFC 3987 excludes them; "
         "3987bis allows them only in the query.",
         FixLevel.NONE, "Remove the tag characters.",
         valid=(Ex("https://example.com/?q=\U000e0041", profile="iri-3987bis"),),
         invalid=(Ex("https://example.com/a\U000e0041", "https://example.com/a"),)),
    Rule("IRI108", "noncharacter", "Unicode non-character in an IRI",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         "Non-characters (U+FDD0-FDEF, U+xFFFE, U+xFFFF) are reserved for internal use and are not "
         "prepared for interchange (3987bis sec. 6.3).",
         FixLevel.NONE, "Remove the non-character.",
         valid=(Ex("https://example.com/\ufdcf"),),
         invalid=(Ex("https://example.com/a\ufdd0", "https://example.com/a"),)),
    Rule("IRI109", "lone-surrogate", "Lone surrogate code unit in a string",
         "3987bis sec. 6.3", E, True,
         "Surrogate code units U+D800-DFFF do not represent characters; a Python `str` can hold "
         "them only after a decoding error or careless slicing, and they cannot be encoded as UTF-8.",
         FixLevel.NONE, "Remove the surrogate and write the intended character.",
         valid=(Ex("https://example.com/\U0001f600"),),
         invalid=(Ex("https://example.com/a\ud800", "https://example.com/a"),)),
    Rule("IRI110", "malformed-percent", "`%` not followed by two hex digits", "RFC 3986 sec. 2.1",
         E, True,
         "In an IRI `%` only starts a percent-encoding `%HH`; a bare `%` makes the IRI invalid and "
         "different libraries repair it differently.",
         FixLevel.NONE, "Write a literal `%` as `%25`.",
         valid=(Ex("https://example.com/100%25"),),
         invalid=(Ex("https://example.com/100%", "https://example.com/100%25"),)),
    Rule("IRI111", "invalid-scheme", "Scheme is empty or has characters a scheme cannot have",
         "RFC 3986 sec. 3.1", E, True,
         "A scheme is `ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )`; anything else before the "
         "first `:` makes the string neither an IRI nor a valid relative reference.",
         None, "Correct the scheme; if a relative path has a colon in its first segment, write "
         "`./` before it.",
         valid=(Ex("svn+ssh://example.com/repo"),),
         invalid=(Ex("1http://example.com/"),)),
    Rule("IRI112", "invalid-port", "Port is not all digits", "RFC 3986 sec. 3.2.3", E, True,
         "The port after the host is `*DIGIT`; anything else means a misplaced `:` or a typo.",
         None, "Write the port as digits, or percent-encode a ':' that belongs to the host.",
         valid=(Ex("https://example.com:8443/"),),
         invalid=(Ex("https://example.com:84a3/"),)),
    Rule("IRI113", "invalid-ip-literal", "Malformed IPv6 or IPvFuture literal in `[...]`",
         "RFC 3986 sec. 3.2.2", E, True,
         "An IP literal must be a valid IPv6 address or `v<hex>.<chars>`. An IPv6 zone identifier "
         "is accepted in every profile as RFC 6874 writes it, after `%25` (the `%` percent-encoded): "
         "RFC 3987 sec. 3.2.2 predates it, and link-local URLs use it. A raw `%eth0` is an error.",
         None, "Correct the address; write a zone identifier as `%25` followed by the zone.",
         valid=(Ex("http://[2001:db8::7]/"), Ex("http://[v7.fe80::a+en1]/"), Ex("http://[fe80::1%25eth0]/")),
         invalid=(Ex("http://[2001:db8:::7]/"), Ex("http://[fe80::1%eth0]/"))),
    Rule("IRI114", "misplaced-character", "Character not allowed in this component",
         "RFC 3987 sec. 2.2", E, True,
         "Each component allows a set of characters; e.g. `[` only around an IP literal, `@` once "
         "before the host, `#` once before the fragment, `:` not in the first segment of a "
         "relative reference.",
         None, "Percent-encode the character, or fix the structure of the IRI.",
         valid=(Ex("https://example.com/a%5Bb%5D"),),
         invalid=(Ex("https://example.com/a[b]"), Ex("https://example.com/#a#b"))),
    Rule("IRI115", "non-ascii-in-uri", "Non-ASCII character where a URI is required",
         "RFC 3986 sec. 2", E, True,
         "Under the `uri` profile the string must be a URI, which is ASCII only.",
         FixLevel.URI, "Percent-encode the character as UTF-8 (RFC 3987 sec. 3.1).",
         valid=(Ex("https://example.com/caf%C3%A9", profile="uri"),),
         invalid=(Ex("https://example.com/café", "https://example.com/caf%C3%A9", profile="uri",
                     context=DEREF),)),
    Rule("IRI116", "missing-scheme", "An absolute IRI is required but there is no scheme",
         "RFC 3987 sec. 2.2", E, True,
         "Where the grammar asks for `IRI` or `absolute-IRI` a relative reference is an error.",
         None, "Add the scheme, e.g. `https:`.",
         valid=(Ex("https://example.com/", kind="IRI"),),
         invalid=(Ex("//example.com/", kind="IRI"),)),
    Rule("IRI117", "fragment-not-allowed", "An absolute-IRI cannot have a fragment",
         "RFC 3987 sec. 2.2", E, True,
         "`absolute-IRI` (used e.g. for base IRIs) excludes the fragment.",
         None, "Remove the fragment.",
         valid=(Ex("https://example.com/a", kind="absolute-IRI"),),
         invalid=(Ex("https://example.com/a#f", kind="absolute-IRI"),)),
    # ------------------------------------------------------------------ IRI2xx bidi
    Rule("IRI201", "bidi-formatting-character", "Bidi formatting character (LRM, RLM, LRE, RLE, "
         "PDF, LRO, RLO)", "RFC 3987 sec. 4.1", E, True,
         "IRIs MUST NOT contain bidirectional formatting characters: they change the displayed "
         "order, so the IRI a reader sees is not the IRI the program uses, and the visual form "
         "cannot be converted back to the logical one.",
         FixLevel.NONE, "Remove the formatting character.",
         valid=(Ex("https://example.com/\u05d0\u05d1\u05d2"),),
         invalid=(Ex("https://example.com/\u202eabc", "https://example.com/abc"),)),
    Rule("IRI202", "bidi-isolate-character", "Bidi isolate or Arabic letter mark (LRI, RLI, FSI, "
         "PDI, ALM)", "RFC 3987 sec. 4.1", E, True,
         "The isolates and ALM were added to Unicode after RFC 3987 and reorder text just like the "
         "characters sec. 4.1 forbids (the 'Trojan Source' attack).",
         FixLevel.NONE, "Remove the isolate character.",
         valid=(Ex("https://example.com/abc"),),
         invalid=(Ex("https://example.com/\u2067abc\u2069", "https://example.com/abc"),)),
    Rule("IRI203", "percent-encoded-bidi-control", "Percent-encoded bidi control, e.g. `%E2%80%AE`",
         "RFC 3987 sec. 3.2, 4.1", W, True,
         "Encoded, the control is harmless in the URI, but every URI-to-IRI conversion must keep it "
         "encoded (sec. 3.2 step 3) and a careless decoder will reorder the display.",
         None, "Remove the encoded control unless it is deliberate test data.",
         valid=(Ex("https://example.com/%E2%82%AC"),),
         invalid=(Ex("https://example.com/%E2%80%AEabc"),)),
    Rule("IRI204", "bidi-mixed-direction", "Component mixes right-to-left and left-to-right "
         "characters", "RFC 3987 sec. 4.2", W, True,
         "A component SHOULD NOT use both right-to-left and left-to-right characters: the display "
         "then depends on the bidi algorithm's details and can be read in the wrong order.",
         FixLevel.URI, "Split the component, or percent-encode the whole component (4.2 last "
         "paragraph), which keeps the URI.",
         valid=(Ex("http://example.com/\u05d0\u05d1\u05d2/abc"),),
         invalid=(Ex("http://example.com/ab\u05d0\u05d1", "http://example.com/ab%D7%90%D7%91",
                     context=DEREF),)),
    Rule("IRI205", "bidi-rtl-edge", "Right-to-left component does not start and end with a "
         "right-to-left character", "RFC 3987 sec. 4.2, 4.4 examples 8-9", W, True,
         "A component with right-to-left characters SHOULD start and end with one; digits or "
         "percent-escapes at its edge are displayed on the wrong side.",
         FixLevel.URI, "Percent-encode the whole component, which keeps the URI (4.2).",
         valid=(Ex("http://\u05d0\u05d1\u05d2.example/"),),
         invalid=(Ex("http://example.com/\u05d0\u05d11", "http://example.com/%D7%90%D7%911",
                     context=DEREF),)),
    Rule("IRI206", "bidi-digit-component", "All-digit component next to right-to-left ones",
         "RFC 3987 sec. 4.4 example 10", INFO, False,
         "An all-digit component between right-to-left components is displayed in an order that "
         "readers may not expect (sec. 4.4 example 10). Advisory.",
         None, "Consider another structure for the IRI.",
         valid=(Ex("http://example.com/abc/123/def"),),
         invalid=(Ex("http://\u05d0\u05d1\u05d2.123.\u05d3\u05d4\u05d5/"),)),
    # ------------------------------------------------------------------ IRI3xx normalization
    Rule("IRI301", "not-nfc", "IRI is not in Unicode Normalization Form C", "RFC 3987 sec. 5.3.2.2",
         W, True,
         "IRIs are compared character by character; equivalence MUST rely on IRIs being created in "
         "NFC (sec. 5.3.2.2), so a decomposed `é` never matches the composed one.",
         FixLevel.NONE, "Convert to NFC.",
         valid=(Ex("https://example.com/caf\u00e9"),),
         invalid=(Ex("https://example.com/cafe\u0301", "https://example.com/caf\u00e9"),)),
    Rule("IRI302", "not-nfkc", "Compatibility character (changes under NFKC), e.g. U+FB01",
         "RFC 3987 sec. 7.5", INFO, False,
         "Sec. 7.5 recommends creating IRIs in NFKC where possible: compatibility characters such as "
         "the ligature U+FB01 look like plain letters but are different identifiers.",
         FixLevel.NONE, "Replace with the NFKC form.",
         valid=(Ex("https://example.com/file"),),
         invalid=(Ex("https://example.com/\ufb01le", "https://example.com/file"),)),
    Rule("IRI303", "uppercase-scheme", "Scheme not in lowercase", "RFC 3987 sec. 5.3.2.1", INFO, False,
         "Schemes are case-insensitive and normalize to lowercase; an uppercase scheme makes simple "
         "string comparison fail.",
         FixLevel.SYNTAX, "Lowercase the scheme.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("HTTPS://example.com/", "https://example.com/", context=DEREF),)),
    Rule("IRI304", "uppercase-host", "ASCII host not in lowercase", "RFC 3987 sec. 5.3.2.1", INFO, False,
         "Registered names are case-insensitive and normalize to lowercase.",
         FixLevel.SYNTAX, "Lowercase the host.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https://Example.COM/", "https://example.com/", context=DEREF),)),
    Rule("IRI305", "lowercase-percent-hex", "Percent-encoding with lowercase hex digits",
         "RFC 3987 sec. 5.3.2.1", INFO, False,
         "`%2f` and `%2F` are equivalent; the normal form uses uppercase hex digits.",
         FixLevel.SYNTAX, "Uppercase the hex digits.",
         valid=(Ex("https://example.com/a%2Fb"),),
         invalid=(Ex("https://example.com/a%2fb", "https://example.com/a%2Fb", context=DEREF),)),
    Rule("IRI306", "percent-encoded-unreserved", "Percent-encoded unreserved character",
         "RFC 3987 sec. 5.3.2.3", INFO, False,
         "Unreserved characters (`A-Z a-z 0-9 - . _ ~`) should not be percent-encoded; `%41` and "
         "`A` are equivalent and the normal form is the character.",
         FixLevel.SYNTAX, "Decode the percent-encoding.",
         valid=(Ex("https://example.com/A"),),
         invalid=(Ex("https://example.com/%41", "https://example.com/A", context=DEREF),)),
    Rule("IRI307", "dot-segments", "`.` or `..` segments in an absolute IRI's path",
         "RFC 3987 sec. 5.3.2.4; RFC 3986 sec. 5.2.4", INFO, False,
         "Dot-segments are meant for relative references; in an absolute IRI they are removed on "
         "resolution, so `/a/../b` and `/b` name the same resource. Rootless paths lose them too "
         "(`urn:a/../b` resolves to `urn:/b`, RFC 3986 sec. 5.2.2).",
         FixLevel.SYNTAX, "Remove the dot-segments.",
         valid=(Ex("https://example.com/b"),),
         invalid=(Ex("https://example.com/a/../b", "https://example.com/b", context=DEREF),
                  Ex("tag:example.com,2024:a/./b", "tag:example.com,2024:a/b", context=DEREF))),
    Rule("IRI308", "default-port", "Explicit default port for the scheme", "RFC 3987 sec. 5.3.3",
         INFO, False,
         "A port equal to the scheme's default (`:443` for https) is removed by scheme-based "
         "normalization.",
         FixLevel.SCHEME, "Remove the port.",
         valid=(Ex("https://example.com:8443/"),),
         invalid=(Ex("https://example.com:443/", "https://example.com/", context=DEREF),)),
    Rule("IRI309", "empty-port", "Empty port after `:`", "RFC 3987 sec. 5.3.3", INFO, False,
         "An empty port is allowed by the grammar but means the default; normalization removes "
         "the `:`.",
         FixLevel.SCHEME, "Remove the `:`.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https://example.com:/", "https://example.com/", context=DEREF),)),
    Rule("IRI310", "empty-path", "Empty path after an authority (http-like schemes)",
         "RFC 3987 sec. 5.3.3", INFO, False,
         "For http and https an empty path is equivalent to `/`; the normal form has the `/`.",
         FixLevel.SCHEME, "Add `/`.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https://example.com", "https://example.com/", context=DEREF),)),
    Rule("IRI311", "ace-label", "Punycode (`xn--`) label that reads better as Unicode",
         "RFC 3987 sec. 5.3.3; 3987bis sec. 3.7", INFO, False,
         "An IDN label and its ACE form are equivalent; for legibility the IRI can show Unicode.",
         FixLevel.SCHEME, "Write the label in Unicode.",
         valid=(Ex("https://b\u00fccher.example/"),),
         invalid=(Ex("https://xn--bcher-kva.example/", "https://b\u00fccher.example/",
                     context=DEREF),)),
    Rule("IRI312", "host-not-idna-mapped", "Non-ASCII host label not in its IDNA-mapped form",
         "RFC 3987 sec. 5.3.3; UTS #46", INFO, False,
         "Internationalized host labels are compared after UTS #46 mapping (case folding, width "
         "mapping); the unmapped form is a different string for the same host.",
         FixLevel.SCHEME, "Use the mapped label.",
         valid=(Ex("https://b\u00fccher.example/"),),
         invalid=(Ex("https://B\u00dcCHER.example/", "https://b\u00fccher.example/",
                     context=DEREF),)),
    # ------------------------------------------------------------------ IRI4xx mapping
    Rule("IRI401", "percent-not-utf8", "Percent-encoded octets that are not UTF-8",
         "RFC 3987 sec. 3.2, 6.4", W, True,
         "Octets that do not decode as UTF-8 (e.g. Latin-1 `%E9`) have no IRI form (sec. 6.4): the "
         "IRI cannot be displayed, and servers disagree on what it names. In source, reported by "
         "default where the literal is used as an IRI (it holds non-ASCII text, or names an "
         "identifier such as an rdflib namespace); an ASCII URL with `%E9` is a valid URI, so "
         "there it is reported only when IRI401 is selected by name.",
         None, "Percent-encode the UTF-8 bytes of the intended character (`%C3%A9` for `é`).",
         valid=(Ex("https://example.com/caf%C3%A9"),),
         invalid=(Ex("https://example.com/caf%E9"),)),
    Rule("IRI402", "overlong-utf8", "Overlong or invalid UTF-8 escape such as `%C0%AF`",
         "RFC 3987 sec. 8", E, True,
         "Overlong UTF-8 (`%C0%AF` for `/`) and encoded surrogates are a classic way to smuggle "
         "delimiters past filters (sec. 8); they are never legitimate.",
         None, "Use the character itself or its shortest UTF-8 encoding.",
         valid=(Ex("https://example.com/a%2Fb"),),
         invalid=(Ex("https://example.com/%C0%AFetc"),)),
    Rule("IRI403", "idna-failure", "Host label fails IDNA", "3987bis sec. 3.4.2; RFC 5891",
         E, True,
         "A non-ASCII or `xn--` label of a DNS host must convert with IDNA2008 after UTS #46 "
         "mapping; otherwise the IRI cannot be resolved. In source, an all-ASCII literal that is "
         "not used as an IRI (a live IDNA2003-era name such as `xn--n3h.net`) is reported only "
         "when IRI403 is selected by name.",
         None, "Correct the label (the message names the reason).",
         valid=(Ex("https://b\u00fccher.example/"), Ex("https://my_host.example/")),
         invalid=(Ex("https://xn--a.example/"),)),
    Rule("IRI404", "iri-to-uri-only-api", "Non-ASCII IRI passed to an API that takes only URIs",
         "RFC 3987 sec. 3.1", E, True,
         "`urllib.request.urlopen`, `http.client` and similar encode the request line as ASCII and "
         "raise UnicodeEncodeError for an IRI; the IRI must be mapped to its URI first.",
         FixLevel.URI, "Use the mapped URI (IDNA for the host, percent-encoded UTF-8 elsewhere).",
         valid=(Ex("https://example.com/caf%C3%A9"),),
         invalid=()),
    Rule("IRI405", "percent-encoded-text", "Percent-encoded UTF-8 text that reads better as an IRI",
         "RFC 3987 sec. 3.2", INFO, False,
         "IRIs exist so that people can read them; `%E6%97%A5%E6%9C%AC` is `日本`.",
         FixLevel.SYNTAX, "Use the IRI form (URI-to-IRI conversion, sec. 3.2).",
         valid=(Ex("https://example.com/a%2Fb"),),
         invalid=(Ex("https://example.com/%E6%97%A5%E6%9C%AC", "https://example.com/\u65e5\u672c",
                     context=DEREF),)),
    # ------------------------------------------------------------------ IRI5xx security
    Rule("IRI501", "mixed-script-host", "Host label mixes scripts", "RFC 3987 sec. 8; UTS #39", W, True,
         "Characters from several scripts in one host label (outside the combinations UTS #39 allows "
         "for Japanese, Chinese and Korean) are the classic sign of a spoofed domain name.",
         None, "Use characters of one script per label.",
         valid=(Ex("https://日本ご.example/"), Ex("https://example.com/pаypal")),
         invalid=(Ex("https://аβc.example/"),)),
    Rule("IRI502", "confusable-host", "Host label looks like an ASCII label", "RFC 3987 sec. 8; UTS #39",
         E, True,
         "A host label whose characters are confusable with ASCII letters (Cyrillic `а` in "
         "`pаypal`) imitates another domain; so does a label written wholly in another script that "
         "reads as a Latin word (all-Cyrillic `аррӏе`, UTS #39 sec. 4 whole-script confusables). "
         "Judged with ICU's SpoofChecker when `iri-lint[icu]` is installed, else with Unicode's "
         "confusables data (`confusable-homoglyphs`). IRI311 never proposes showing such a label.",
         None, "Use the real ASCII host.",
         valid=(Ex("https://paypal.com/"), Ex("https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/")),
         invalid=(Ex("https://p\u0430ypal.com/"), Ex("https://\u0430\u0440\u0440\u04cf\u0435.com/"))),
    Rule("IRI503", "fullwidth-form", "Full-width or half-width form", "RFC 3987 sec. 6.1",
         W, True,
         "Full-width and half-width forms look like ordinary characters but are different code "
         "points; sec. 6.1 and UTS #46 map them to their ordinary forms.",
         FixLevel.NONE, "Use the ordinary (NFKC) character.",
         valid=(Ex("https://example.com/abc"),),
         invalid=(Ex("https://example.com/\uff41bc", "https://example.com/abc"),)),
    Rule("IRI504", "delimiter-lookalike", "Look-alike of a delimiter such as U+2215 for `/`",
         "3987bis sec. 9; UTS #39", E, True,
         "Characters that look like `/`, `?`, `#`, `@`, `:` or `.` but are not delimiters make an "
         "IRI appear to have another host or path than it has.",
         FixLevel.NONE, "Use the real delimiter, or percent-encode the character.",
         valid=(Ex("https://example.com/a/b"),),
         invalid=(Ex("https://example.com\u2215evil.com/", "https://example.com/evil.com/"),)),
    Rule("IRI505", "invisible-character", "Invisible or default-ignorable character",
         "3987bis sec. 9; UTS #39", E, True,
         "Default-ignorable characters (U+200B, U+00AD, U+2060, variation selectors, ZWJ outside "
         "IDNA's allowed contexts) are invisible, so two IRIs that look the same differ.",
         FixLevel.NONE, "Remove the invisible character.",
         valid=(Ex("https://example.com/ab"),),
         invalid=(Ex("https://example.com/a\u200bb", "https://example.com/ab"),)),
    Rule("IRI506", "password-in-userinfo", "Password in the userinfo", "RFC 3986 sec. 3.2.1",
         W, True,
         "`user:password@` is deprecated: the password is sent and logged in clear text and ends "
         "up in version control. Redactions and placeholders (`***`, `xxx`, `<password>`, "
         "`${PASSWORD}`, `pass`, `scott:tiger`) are not passwords, and test files (the "
         "`test-files` globs: `tests/`, `test_*.py`, `*_test.py`, `conftest.py`) hold fixtures, not "
         "leaks: neither is reported.",
         None, "Pass credentials separately (an auth parameter or environment variable).",
         valid=(Ex("https://user@example.com/"), Ex("https://user:***@example.com/"),
                Ex("postgresql://scott:tiger@localhost/test")),
         invalid=(Ex("https://deploy:9fK2xq@example.com/"),)),
    # ------------------------------------------------------------------ IRI6xx scheme
    Rule("IRI507", "mixed-script-component", "Path, query or fragment component mixes scripts",
         "RFC 3987 sec. 8; UTS #39", INFO, False,
         "Outside the host, mixed scripts are rarely an attack and common in real links (a Latin word "
         "in a Cyrillic article title), but can still hide a look-alike. Opt-in.",
         None, "Use characters of one script per component.",
         valid=(Ex("https://example.com/日本ご"),),
         invalid=(Ex("https://example.com/pаypal"),)),
    Rule("IRI601", "missing-host", "http(s), ws(s) or ftp IRI without a host", "RFC 9110 sec. 4.2; "
         "RFC 3987 sec. 6.4", E, True,
         "These schemes require an authority with a non-empty host; `http:/example.com` and "
         "`http:example.com` are usually a lost `/`. The fix only restores a host that is there: "
         "`ftp:///srv/data.csv` has a path, not a host, and gets no fix.",
         FixLevel.NONE, "Write `scheme://host/...`.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https:/example.com/", "https://example.com/"),
                  Ex("https:///example.com/", "https://example.com/"),
                  Ex("ftp:///srv/data.csv"))),
    Rule("IRI602", "port-out-of-range", "Port above 65535", "RFC 793; RFC 3986 sec. 3.2.3",
         E, True,
         "TCP and UDP ports are 16-bit numbers; a larger port cannot be connected to.",
         None, "Correct the port.",
         valid=(Ex("https://example.com:65535/"),),
         invalid=(Ex("https://example.com:65536/"),)),
    Rule("IRI603", "scheme-typo", "Likely typo of a common scheme (`htps:`, `http//`, `https:\\\\`)",
         "RFC 3986 sec. 3.1", E, True,
         "A misspelled scheme makes the IRI relative or unresolvable, which usually shows up only at "
         "run time. Only unknown one-edit variants of common schemes count: a registered scheme, one "
         "in wide use though unregistered (`ftps`, `gs`, `s3`, `hdfs`, `abfss`, `oci`, database URLs; "
         "the list and its sources are in `scripts/data/unregistered-schemes.csv`) or any two-letter "
         "scheme is never a typo, so the fix never changes what a scheme means.",
         FixLevel.NONE, "Correct the scheme.",
         valid=(Ex("https://example.com/"), Ex("ftps://files.example.com/"), Ex("gs://bucket/key")),
         invalid=(Ex("htps://example.com/", "https://example.com/"),
                  Ex("http//example.com/", "http://example.com/"))),
    Rule("IRI604", "unregistered-scheme", "Scheme not in the IANA URI scheme registry",
         "RFC 7595", INFO, False,
         "Unregistered schemes are not interoperable. Opt-in: private schemes are legitimate in many "
         "applications.",
         None, "Use a registered scheme or register yours.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("notascheme://example.com/"),)),
    # ------------------------------------------------------------------ IRI7xx text (RFC 3987 sec. 7.3)
    # Examples are docstring text: the catalog tests lint them as a module docstring.
    Rule("IRI710", "text-iri-syntax", "An IRI in a docstring or prose is not valid (an IRI1xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="syntax", digit="1"),
         None, _TEXT_FIX,
         valid=(Ex("See <https://example.com/a%20b> for details."),),
         invalid=(Ex("<https://example.com/a b>"),)),
    Rule("IRI720", "text-iri-bidi", "An IRI in a docstring or prose has a bidi problem (an IRI2xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="bidi", digit="2"),
         None, _TEXT_FIX,
         valid=(Ex("Docs: https://example.com/abc."),),
         invalid=(Ex("Docs: https://example.com/\u202eabc."),)),
    Rule("IRI730", "text-iri-normalization", "An IRI in a docstring or prose is not normalized (an IRI3xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", INFO, False,
         _TEXT_WHY.format(family="normalization", digit="3"),
         None, _TEXT_FIX,
         valid=(Ex("See https://example.com/caf\u00e9."),),
         invalid=(Ex("See https://example.com/cafe\u0301."),)),
    Rule("IRI740", "text-iri-mapping", "An IRI in a docstring or prose does not map to a URI (an IRI4xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="mapping", digit="4"),
         None, _TEXT_FIX,
         valid=(Ex("Page (https://example.com/caf%C3%A9)."),),
         invalid=(Ex("Old page (https://example.com/caf%E9)."),)),
    Rule("IRI750", "text-iri-security", "An IRI in a docstring or prose is deceptive (an IRI5xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="security", digit="5"),
         None, _TEXT_FIX,
         valid=(Ex("Log in at \"https://paypal.com/\"."),),
         invalid=(Ex("Log in at \"https://p\u0430ypal.com/\"."),)),
    Rule("IRI760", "text-iri-scheme", "An IRI in a docstring or prose breaks its scheme's rules (an IRI6xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="scheme", digit="6"),
         None, _TEXT_FIX,
         valid=(Ex("Mirror: https://example.com/files, see also mailto:ops@example.com."),),
         invalid=(Ex("Mirror: htps://example.com/files, see also mailto:ops@example.com."),)),
)

RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in RULES}
RULES_BY_NAME: dict[str, Rule] = {r.name: r for r in RULES}
DEFAULT_CODES: frozenset[str] = frozenset(r.code for r in RULES if r.default)
