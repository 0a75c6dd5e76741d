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
_TEXT_WHAT = (
    "In text mode (opt-in), an IRI found inside a docstring, a bare string statement or a string literal that "
    "reads as prose (within `<...>` or double quotes, or a bare `scheme://...` or registered `scheme:...` token) "
    "on which an enabled IRI{digit}xx {family} rule fires, such as {e_g}. The finding is reported under this "
    "code and names that rule; there is no fix."
)
_TEXT_FIX = ("Correct the IRI in the text as the underlying rule says; iri-lint never edits prose, so "
             "there is no automatic fix.")

RULES: tuple[Rule, ...] = (
    Rule("IRI100", "not-analysed", "iri-lint could not analyse this file", "RFC 3987 sec. 2.2", W, True,
         "A file that iri-lint cannot analyse (it is nested too deeply, or the engine met a case it "
         "does not handle) gets this one finding instead of a crashed flake8 run, so the problem is "
         "visible and the rest of the project is still checked.",
         None, "Report the file to the iri-lint developers; silence it with `# noqa: IRI100`.",
         what="A literal, or under flake8 a whole file, on which iri-lint's own analysis failed: the engine "
              "raised an exception, or the file nests too deeply to walk. The finding quotes the error, and the "
              "other literals and files are still checked.",
         valid=(Ex("https://example.com/"),)),
    # ------------------------------------------------------------------ IRI1xx syntax
    Rule("IRI101", "space-in-iri", "Space character in an IRI", "RFC 3987 sec. 2.2; 3987bis sec. 6.3",
         E, True,
         _ENCODE_WHY.format(reason="spaces delimit IRIs in lists and are added or lost when long "
                            "IRIs are wrapped, so one IRI can be read as two."),
         FixLevel.NONE, "Percent-encode the space as `%20` (or `+` in a form-encoded query).",
         what="A space (U+0020) in any component of the IRI, from scheme to fragment; a run of spaces is one "
              "finding, fixed as `%20` each. Spaces before or after the whole IRI are one finding whose fix "
              "removes them.",
         valid=(Ex("https://example.com/a%20b"),),
         invalid=(Ex("https://example.com/a b", "https://example.com/a%20b"),)),
    Rule("IRI102", "delimiter-in-iri", 'Delimiter character `<`, `>` or `"` in an IRI',
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason='`<`, `>` and `"` are the conventional delimiters around IRIs in '
                            "plain text (RFC 3986 appendix C), so an IRI containing them is cut off."),
         FixLevel.NONE, "Percent-encode the character (`%3C`, `%3E`, `%22`).",
         what="A literal `<`, `>` or `\"` in any component of the IRI; a run of them is one finding, and the fix "
              "percent-encodes each one.",
         valid=(Ex("https://example.com/?q=%3Cb%3E"),),
         invalid=(Ex('https://example.com/say"hi"', "https://example.com/say%22hi%22"),)),
    Rule("IRI103", "unwise-character", "Unwise character (`\\`, `^`, `` ` ``, `{`, `|` or `}`) in an IRI",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason="these characters are shown differently on some systems (U+005C "
                            "as a yen sign) and are used around IRIs, so IRIs with them are read "
                            "piecemeal."),
         FixLevel.NONE, "Percent-encode the character (`%5C`, `%5E`, `%60`, `%7B`, `%7C`, `%7D`).",
         what="A literal backslash, `^`, backtick (U+0060), `{`, `|` or `}` in any component of the IRI; a run of "
              "them is one finding, and the fix percent-encodes each one.",
         valid=(Ex("https://example.com/a%7Cb"),),
         invalid=(Ex("https://example.com/a|b", "https://example.com/a%7Cb"),)),
    Rule("IRI104", "control-character", "Control character (C0, DEL, C1) in an IRI",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason="controls cannot be transmitted reliably as text, are silently "
                            "dropped by some software and can manipulate how the IRI is displayed."),
         FixLevel.NONE, "Remove the control character (a stray tab or newline is usually a typo).",
         what="A C0 control (U+0000-001F, tab and newline included), DEL (U+007F) or C1 control (U+0080-009F) "
              "anywhere in the IRI; a run is one finding, and the fix removes it. Whitespace controls before or "
              "after the whole IRI are one finding.",
         valid=(Ex("https://example.com/a"),),
         invalid=(Ex("https://example.com/a\tb", "https://example.com/ab"),)),
    Rule("IRI105", "special-character", "Special U+FFF0-FFFD (e.g. U+FFFD replacement character)",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         _ENCODE_WHY.format(reason="specials serve byte-order and replacement purposes; U+FFFD "
                            "usually means the text was decoded with the wrong encoding."),
         FixLevel.NONE, "Find the character that was lost and write it instead; the fix removes it.",
         what="A code point of U+FFF0-FFFD (the Specials block: U+FFFD REPLACEMENT CHARACTER, U+FFFC OBJECT "
              "REPLACEMENT CHARACTER, the interlinear annotation characters) anywhere in the IRI; the fix removes "
              "it.",
         valid=(Ex("https://example.com/caf%C3%A9"),),
         invalid=(Ex("https://example.com/caf\ufffd", "https://example.com/caf"),)),
    Rule("IRI106", "private-use-outside-query", "Private-use character outside the query",
         "RFC 3987 sec. 2.2", E, True,
         "RFC 3987 allows private-use code points (`iprivate`) only in the query; their meaning is "
         "undefined without a private agreement and they are not interoperable (3987bis sec. 6.3).",
         FixLevel.URI, "Percent-encode it as UTF-8, which is exactly how the IRI maps to a URI "
         "(sec. 3.1), or move it to the query.",
         what="A private-use code point (U+E000-F8FF, U+F0000-FFFFD, U+100000-10FFFD) in the scheme, authority, "
              "path or fragment: only the query may hold one. Under the `uri` profile IRI115 reports it instead.",
         valid=(Ex("https://example.com/?q=\ue000"),),
         invalid=(Ex("https://example.com/\ue000", "https://example.com/%EE%80%80", context=DEREF),)),
    Rule("IRI107", "tag-character", "Tag character U+E0000-E0FFF outside what the profile allows",
         "RFC 3987 sec. 2.2; 3987bis sec. 2.2, 6.3", E, True,
         "Tag characters carry invisible language tags; language information in identifiers cannot "
         "be input, transmitted or recognized reliably (3987bis sec. 6.3). RFC 3987 excludes them; "
         "3987bis allows them only in the query.",
         FixLevel.NONE, "Remove the tag characters.",
         what="A tag character (U+E0000-E0FFF) anywhere in the IRI under the default `iri` profile (RFC 3987), or "
              "outside the query under `iri-3987bis`; the fix removes it.",
         valid=(Ex("https://example.com/?q=\U000e0041", profile="iri-3987bis"),),
         invalid=(Ex("https://example.com/a\U000e0041", "https://example.com/a"),)),
    Rule("IRI108", "noncharacter", "Unicode non-character in an IRI",
         "RFC 3987 sec. 2.2; 3987bis sec. 6.3", E, True,
         "Non-characters (U+FDD0-FDEF, U+xFFFE, U+xFFFF) are reserved for internal use and are not "
         "prepared for interchange (3987bis sec. 6.3).",
         FixLevel.NONE, "Remove the non-character.",
         what="A Unicode non-character (U+FDD0-FDEF, or U+xFFFE and U+xFFFF, the last two code points of every "
              "plane) anywhere in the IRI; the fix removes it.",
         valid=(Ex("https://example.com/\ufdcf"),),
         invalid=(Ex("https://example.com/a\ufdd0", "https://example.com/a"),)),
    Rule("IRI109", "lone-surrogate", "Lone surrogate code unit in a string",
         "3987bis sec. 6.3", E, True,
         "Surrogate code units U+D800-DFFF do not represent characters; a Python `str` can hold "
         "them only after a decoding error or careless slicing, and they cannot be encoded as UTF-8.",
         FixLevel.NONE, "Remove the surrogate and write the intended character.",
         what="A surrogate code point U+D800-DFFF standing alone in the Python string (left by a decoding error "
              "or a split UTF-16 pair), anywhere in the IRI; the fix removes it.",
         valid=(Ex("https://example.com/\U0001f600"),),
         invalid=(Ex("https://example.com/a\ud800", "https://example.com/a"),)),
    Rule("IRI110", "malformed-percent", "`%` not followed by two hex digits", "RFC 3986 sec. 2.1",
         E, True,
         "In an IRI `%` only starts a percent-encoding `%HH`; a bare `%` makes the IRI invalid and "
         "different libraries repair it differently.",
         FixLevel.NONE, "Write a literal `%` as `%25`.",
         what="A `%` that is not followed by two hexadecimal digits (`%`, `%2`, `%zz`), in any component; the fix "
              "writes the `%` itself as `%25`.",
         valid=(Ex("https://example.com/100%25"),),
         invalid=(Ex("https://example.com/100%", "https://example.com/100%25"),)),
    Rule("IRI111", "invalid-scheme", "Scheme is empty or has characters a scheme cannot have",
         "RFC 3986 sec. 3.1", E, True,
         "A scheme is `ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )`; anything else before the "
         "first `:` makes the string neither an IRI nor a valid relative reference.",
         None, "Correct the scheme; if a relative path has a colon in its first segment, write "
         "`./` before it.",
         what="The part before the first `:` (when no `/`, `?` or `#` comes earlier) is read as the scheme, and "
              "it is empty (`:foo`), does not start with a letter (`1http:`), or holds a character other than "
              "letters, digits, `+`, `-` and `.` (`ht_tp:`).",
         valid=(Ex("svn+ssh://example.com/repo"),),
         invalid=(Ex("1http://example.com/"),)),
    Rule("IRI112", "invalid-port", "Port is not all digits", "RFC 3986 sec. 3.2.3", E, True,
         "The port after the host is `*DIGIT`; anything else means a misplaced `:` or a typo.",
         None, "Write the port as digits, or percent-encode a ':' that belongs to the host.",
         what="The port, after the last `:` of the authority, holds something other than ASCII digits (`:84a3`, "
              "full-width digits). An empty port is IRI309's, a comma-separated host list IRI114's.",
         valid=(Ex("https://example.com:8443/"),),
         invalid=(Ex("https://example.com:84a3/"),)),
    Rule("IRI113", "invalid-ip-literal", "Malformed IPv6 or IPvFuture literal in `[...]`",
         "RFC 3986 sec. 3.2.2", E, True,
         "An IP literal must be a valid IPv6 address or `v<hex>.<chars>`; anything else cannot be "
         "connected to, and URL parsers disagree on what it means.",
         None, "Correct the address.",
         what="A host in `[...]` that is neither a valid IPv6 address nor an IPvFuture `v<hex>.<chars>`, or an IPv6 "
              "address written without the brackets (`http://fd00:ec2::254/`). A zone identifier after a valid "
              "address is IRI118's.",
         valid=(Ex("http://[2001:db8::7]/"), Ex("http://[v7.fe80::a+en1]/")),
         invalid=(Ex("http://[2001:db8:::7]/"), Ex("http://[::1/"))),
    Rule("IRI114", "misplaced-character", "Character not allowed in this component",
         "RFC 3987 sec. 2.2", E, True,
         "Each component allows a set of characters; e.g. `[` only around an IP literal, `@` once "
         "before the host, `#` once before the fragment, `:` not in the first segment of a "
         "relative reference.",
         None, "Percent-encode the character, or fix the structure of the IRI.",
         what="A character allowed in IRIs but not in the component where it stands: `[` or `]` outside an IP "
              "literal, a second `@` in the authority, a second `#`, anything but `:port` after an IP literal. A "
              "comma-separated host list (`h1:5432,h2:5432`) is one finding that says so.",
         valid=(Ex("https://example.com/a%5Bb%5D"),),
         invalid=(Ex("https://example.com/a[b]"), Ex("https://example.com/#a#b"))),
    Rule("IRI115", "non-ascii-in-uri", "Non-ASCII character where a URI is required",
         "RFC 3986 sec. 2", E, True,
         "Under the `uri` profile the string must be a URI, which is ASCII only.",
         FixLevel.URI, "Percent-encode the character as UTF-8 (RFC 3987 sec. 3.1).",
         what="Under the `uri` profile (the `profile` option), any non-ASCII character anywhere in the string, "
              "since a URI is ASCII only; the fix percent-encodes it as UTF-8.",
         valid=(Ex("https://example.com/caf%C3%A9", profile="uri"),),
         invalid=(Ex("https://example.com/café", "https://example.com/caf%C3%A9", profile="uri",
                     context=DEREF),)),
    Rule("IRI116", "missing-scheme", "An absolute IRI is required but there is no scheme",
         "RFC 3987 sec. 2.2", E, True,
         "Where the grammar asks for `IRI` or `absolute-IRI` a relative reference is an error.",
         None, "Add the scheme, e.g. `https:`.",
         what="A string checked through the Python API as the kind `IRI` or `absolute-IRI` (`check(text, "
              "kind=\"IRI\")`) that has no scheme, i.e. a relative reference such as `//example.com/`.",
         valid=(Ex("https://example.com/", kind="IRI"),),
         invalid=(Ex("//example.com/", kind="IRI"),)),
    Rule("IRI117", "fragment-not-allowed", "An absolute-IRI cannot have a fragment",
         "RFC 3987 sec. 2.2", E, True,
         "`absolute-IRI` (used e.g. for base IRIs) excludes the fragment.",
         None, "Remove the fragment.",
         what="A string checked through the Python API as the kind `absolute-IRI` (the form of a base IRI) that "
              "has a `#fragment`.",
         valid=(Ex("https://example.com/a", kind="absolute-IRI"),),
         invalid=(Ex("https://example.com/a#f", kind="absolute-IRI"),)),
    Rule("IRI118", "ipv6-zone-id", "IPv6 zone identifier in an IP literal (`[fe80::1%25eth0]`)",
         "RFC 9844; RFC 3987 sec. 2.2", E, True,
         "A zone identifier names a network interface of one host and means nothing to any other. RFC 3987 "
         "sec. 2.2 never allowed one (\"This syntax does not support IPv6 scoped addressing zone "
         "identifiers\"); RFC 6874 added `%25zone` to URIs, and RFC 9844 (2025) removed it again, since no "
         "browser ever accepted it and URL parsers read it differently.",
         None, "Pass the zone out of band (the scope id of the socket address, or the interface the program "
         "is configured with) and write the address alone, `[fe80::1]`.",
         what="An IPv6 address in `[...]` followed by a zone identifier, however it is written: `%25eth0` (RFC "
              "6874's form) or a raw `%eth0`, in every profile. One finding spans the zone.",
         valid=(Ex("http://[fe80::1]/"),),
         invalid=(Ex("http://[fe80::1%25eth0]/"), Ex("http://[fe80::1%eth0]:8080/"))),
    # ------------------------------------------------------------------ IRI2xx bidi
    Rule("IRI201", "bidi-formatting-character", "Bidi formatting character (LRM, RLM, LRE, RLE, "
         "PDF, LRO, RLO)", "RFC 3987 sec. 4.1", E, True,
         "IRIs MUST NOT contain bidirectional formatting characters: they change the displayed "
         "order, so the IRI a reader sees is not the IRI the program uses, and the visual form "
         "cannot be converted back to the logical one.",
         FixLevel.NONE, "Remove the formatting character.",
         what="One of the bidi formatting characters LRM, RLM (U+200E, U+200F), LRE, RLE, PDF, LRO or RLO "
              "(U+202A-202E) anywhere in the IRI; the fix removes it.",
         valid=(Ex("https://example.com/\u05d0\u05d1\u05d2"),),
         invalid=(Ex("https://example.com/\u202eabc", "https://example.com/abc"),)),
    Rule("IRI202", "bidi-isolate-character", "Bidi isolate or Arabic letter mark (LRI, RLI, FSI, "
         "PDI, ALM)", "RFC 3987 sec. 4.1", E, True,
         "The isolates and ALM were added to Unicode after RFC 3987 and reorder text just like the "
         "characters sec. 4.1 forbids (the 'Trojan Source' attack).",
         FixLevel.NONE, "Remove the isolate character.",
         what="One of the bidi isolates LRI, RLI, FSI, PDI (U+2066-2069) or U+061C ARABIC LETTER MARK anywhere in "
              "the IRI; the fix removes it.",
         valid=(Ex("https://example.com/abc"),),
         invalid=(Ex("https://example.com/\u2067abc\u2069", "https://example.com/abc"),)),
    Rule("IRI203", "percent-encoded-bidi-control", "Percent-encoded bidi control, e.g. `%E2%80%AE`",
         "RFC 3987 sec. 3.2, 4.1", W, True,
         "Encoded, the control is harmless in the URI, but every URI-to-IRI conversion must keep it "
         "encoded (sec. 3.2 step 3) and a careless decoder will reorder the display.",
         None, "Remove the encoded control unless it is deliberate test data.",
         what="The UTF-8 percent-encoding of a bidi control that IRI201 or IRI202 names (`%E2%80%AE` for RLO), in "
              "either case of hex digit, anywhere in the IRI; there is no fix, since it may be deliberate data.",
         valid=(Ex("https://example.com/%E2%82%AC"),),
         invalid=(Ex("https://example.com/%E2%80%AEabc"),)),
    Rule("IRI204", "bidi-mixed-direction", "Component mixes right-to-left and left-to-right "
         "characters", "RFC 3987 sec. 4.2", W, True,
         "A component SHOULD NOT use both right-to-left and left-to-right characters: the display "
         "then depends on the bidi algorithm's details and can be read in the wrong order.",
         FixLevel.URI, "Split the component, or percent-encode the whole component (4.2 last "
         "paragraph), which keeps the URI.",
         what="A component (userinfo, host label, path segment, file extension, query name or value, fragment) "
              "holding both right-to-left (bidi class R or AL) and left-to-right (L) characters; the fix "
              "percent-encodes the whole component.",
         valid=(Ex("http://example.com/\u05d0\u05d1\u05d2/abc"),),
         invalid=(Ex("http://example.com/ab\u05d0\u05d1", "http://example.com/ab%D7%90%D7%91",
                     context=DEREF),)),
    Rule("IRI205", "bidi-rtl-edge", "Right-to-left component does not start and end with a "
         "right-to-left character", "RFC 3987 sec. 4.2, 4.4 examples 8-9", W, True,
         "A component with right-to-left characters SHOULD start and end with one; digits or "
         "percent-escapes at its edge are displayed on the wrong side.",
         FixLevel.URI, "Percent-encode the whole component, which keeps the URI (4.2).",
         what="A component with right-to-left characters and no left-to-right ones that starts or ends with "
              "something else, such as digits, a percent-escape or punctuation (the path segment "
              "`\u05d0\u05d11`); the fix percent-encodes the whole component.",
         valid=(Ex("http://\u05d0\u05d1\u05d2.example/"),),
         invalid=(Ex("http://example.com/\u05d0\u05d11", "http://example.com/%D7%90%D7%911",
                     context=DEREF),)),
    Rule("IRI206", "bidi-digit-component", "All-digit component next to right-to-left ones",
         "RFC 3987 sec. 4.4 example 10", INFO, False,
         "An all-digit component between right-to-left components is displayed in an order that "
         "readers may not expect (sec. 4.4 example 10). Advisory.",
         None, "Consider another structure for the IRI.",
         what="An all-digit component (host label, path segment, query value, or an all-digit port) whose nearest "
              "strong character before it is right-to-left, so that it is displayed out of place "
              "(`\u05d0\u05d1\u05d2.123.\u05d3\u05d4\u05d5`).",
         valid=(Ex("http://example.com/abc/123/def"),),
         invalid=(Ex("http://\u05d0\u05d1\u05d2.123.\u05d3\u05d4\u05d5/"),)),
    # ------------------------------------------------------------------ IRI3xx normalization
    Rule("IRI301", "not-nfc", "IRI is not in Unicode Normalization Form C", "RFC 3987 sec. 5.3.2.2",
         W, True,
         "IRIs are compared character by character; equivalence MUST rely on IRIs being created in "
         "NFC (sec. 5.3.2.2), so a decomposed `é` never matches the composed one.",
         FixLevel.NONE, "Convert to NFC.",
         what="Characters of a non-ASCII IRI that Unicode Normalization Form C changes, such as `e` followed by "
              "U+0301 COMBINING ACUTE ACCENT instead of `\u00e9`; one finding covers the characters that change, "
              "and the fix writes their NFC form.",
         valid=(Ex("https://example.com/caf\u00e9"),),
         invalid=(Ex("https://example.com/cafe\u0301", "https://example.com/caf\u00e9"),)),
    Rule("IRI302", "not-nfkc", "Compatibility character (changes under NFKC), e.g. U+FB01",
         "RFC 3987 sec. 7.5", INFO, False,
         "Sec. 7.5 recommends creating IRIs in NFKC where possible: compatibility characters such as "
         "the ligature U+FB01 look like plain letters but are different identifiers.",
         FixLevel.NONE, "Replace with the NFKC form.",
         what="Characters of a non-ASCII IRI that NFKC changes: compatibility characters such as the ligature "
              "U+FB01 or superscript digits; one finding covers the characters that change, and the fix writes "
              "their NFKC form.",
         valid=(Ex("https://example.com/file"),),
         invalid=(Ex("https://example.com/\ufb01le", "https://example.com/file"),)),
    Rule("IRI303", "uppercase-scheme", "Scheme not in lowercase", "RFC 3987 sec. 5.3.2.1", INFO, False,
         "Schemes are case-insensitive and normalize to lowercase; an uppercase scheme makes simple "
         "string comparison fail.",
         FixLevel.SYNTAX, "Lowercase the scheme.",
         what="An uppercase ASCII letter in the scheme (`HTTPS:`) of an IRI without syntax errors; the fix "
              "lowercases the scheme.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("HTTPS://example.com/", "https://example.com/", context=DEREF),)),
    Rule("IRI304", "uppercase-host", "ASCII host not in lowercase", "RFC 3987 sec. 5.3.2.1", INFO, False,
         "Registered names are case-insensitive and normalize to lowercase.",
         FixLevel.SYNTAX, "Lowercase the host.",
         what="An uppercase ASCII letter in the host (outside `%HH` escapes) of an IRI with a scheme and no "
              "syntax errors; the fix lowercases the host.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https://Example.COM/", "https://example.com/", context=DEREF),)),
    Rule("IRI305", "lowercase-percent-hex", "Percent-encoding with lowercase hex digits",
         "RFC 3987 sec. 5.3.2.1", INFO, False,
         "`%2f` and `%2F` are equivalent; the normal form uses uppercase hex digits.",
         FixLevel.SYNTAX, "Uppercase the hex digits.",
         what="A percent-encoding with a lowercase hex digit (`%2f`, `%c3%a9`) anywhere in an IRI with a scheme "
              "and no syntax errors; the fix uppercases the digits.",
         valid=(Ex("https://example.com/a%2Fb"),),
         invalid=(Ex("https://example.com/a%2fb", "https://example.com/a%2Fb", context=DEREF),)),
    Rule("IRI306", "percent-encoded-unreserved", "Percent-encoded unreserved character",
         "RFC 3987 sec. 5.3.2.3", INFO, False,
         "Unreserved characters (`A-Z a-z 0-9 - . _ ~`) should not be percent-encoded; `%41` and "
         "`A` are equivalent and the normal form is the character.",
         FixLevel.SYNTAX, "Decode the percent-encoding.",
         what="A percent-encoded unreserved character (an ASCII letter or digit, `-`, `.`, `_` or `~`, as in "
              "`%41` for `A`) in an IRI with a scheme and no syntax errors; the fix decodes it.",
         valid=(Ex("https://example.com/A"),),
         invalid=(Ex("https://example.com/%41", "https://example.com/A", context=DEREF),)),
    Rule("IRI307", "dot-segments", "`.` or `..` segments in an absolute IRI's path",
         "RFC 3987 sec. 5.3.2.4; RFC 3986 sec. 5.2.4", INFO, False,
         "Dot-segments are meant for relative references; in an absolute IRI they are removed on "
         "resolution, so `/a/../b` and `/b` name the same resource. Rootless paths lose them too "
         "(`urn:a/../b` resolves to `urn:/b`, RFC 3986 sec. 5.2.2).",
         FixLevel.SYNTAX, "Remove the dot-segments.",
         what="A `.` or `..` segment in the path of an IRI with a scheme and no syntax errors, rootless paths "
              "(`urn:a/../b`) included; relative references keep theirs. The fix removes them as resolution does "
              "(RFC 3986 sec. 5.2.4).",
         valid=(Ex("https://example.com/b"),),
         invalid=(Ex("https://example.com/a/../b", "https://example.com/b", context=DEREF),
                  Ex("tag:example.com,2024:a/./b", "tag:example.com,2024:a/b", context=DEREF))),
    Rule("IRI308", "default-port", "Explicit default port for the scheme", "RFC 3987 sec. 5.3.3",
         INFO, False,
         "A port equal to the scheme's default (`:443` for https) is removed by scheme-based "
         "normalization.",
         FixLevel.SCHEME, "Remove the port.",
         what="A port equal to the scheme's default: 80 for http and ws, 443 for https and wss, 21 for ftp, and "
              "the defaults of the other schemes iri-lint knows (ssh, ldap, imap, coap, ...); the fix removes it.",
         valid=(Ex("https://example.com:8443/"),),
         invalid=(Ex("https://example.com:443/", "https://example.com/", context=DEREF),)),
    Rule("IRI309", "empty-port", "Empty port after `:`", "RFC 3987 sec. 5.3.3", INFO, False,
         "An empty port is allowed by the grammar but means the default; normalization removes "
         "the `:`.",
         FixLevel.SCHEME, "Remove the `:`.",
         what="A `:` after the host with no port digits (`https://example.com:/`), in an IRI without syntax "
              "errors; the fix removes the `:`.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https://example.com:/", "https://example.com/", context=DEREF),)),
    Rule("IRI310", "empty-path", "Empty path after an authority (http-like schemes)",
         "RFC 3987 sec. 5.3.3", INFO, False,
         "For http and https an empty path is equivalent to `/`; the normal form has the `/`.",
         FixLevel.SCHEME, "Add `/`.",
         what="An authority followed by an empty path (`https://example.com`, `https://example.com?q=1`) where "
              "the scheme makes an empty path mean `/`: http, https, ws, wss and the coap family; the fix adds "
              "`/`.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https://example.com", "https://example.com/", context=DEREF),)),
    Rule("IRI311", "ace-label", "Punycode (`xn--`) label that reads better as Unicode",
         "RFC 3987 sec. 5.3.3; 3987bis sec. 3.7", INFO, False,
         "An IDN label and its ACE form are equivalent; for legibility the IRI can show Unicode.",
         FixLevel.SCHEME, "Write the label in Unicode.",
         what="An `xn--` (Punycode) label of a DNS host (http, https, ftp and the other schemes iri-lint knows) "
              "that decodes to a valid IDN label, unless that label would be a confusable spoof (IRI502); the fix "
              "writes the label in Unicode.",
         valid=(Ex("https://b\u00fccher.example/"),),
         invalid=(Ex("https://xn--bcher-kva.example/", "https://b\u00fccher.example/",
                     context=DEREF),)),
    Rule("IRI312", "host-not-idna-mapped", "Non-ASCII host label not in its IDNA-mapped form",
         "RFC 3987 sec. 5.3.3; UTS #46", INFO, False,
         "Internationalized host labels are compared after UTS #46 mapping (case folding, width "
         "mapping); the unmapped form is a different string for the same host.",
         FixLevel.SCHEME, "Use the mapped label.",
         what="A non-ASCII label of a DNS host that UTS #46 mapping changes (uppercase or full-width letters), or "
              "an ideographic full stop used as the label separator; the fix writes the mapped form.",
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
         what="Each percent-encoded octet from `%80` up that is not part of a well-formed UTF-8 sequence (a "
              "Latin-1 `%E9`). In source it is reported by default only where the literal is used as an IRI (it "
              "holds non-ASCII text, or an IRI-consuming API such as an rdflib namespace takes it), elsewhere "
              "only when IRI401 is selected by name.",
         valid=(Ex("https://example.com/caf%C3%A9"),),
         invalid=(Ex("https://example.com/caf%E9"),)),
    Rule("IRI402", "overlong-utf8", "Overlong or invalid UTF-8 escape such as `%C0%AF`",
         "RFC 3987 sec. 8", E, True,
         "Overlong UTF-8 (`%C0%AF` for `/`) and encoded surrogates are a classic way to smuggle "
         "delimiters past filters (sec. 8); they are never legitimate.",
         None, "Use the character itself or its shortest UTF-8 encoding.",
         what="A percent-encoded sequence shaped like UTF-8 that is overlong (`%C0%AF` for `/`), encodes a "
              "surrogate (`%ED%A0%80`) or a code point above U+10FFFF, in either case of hex digit; one finding "
              "per sequence.",
         valid=(Ex("https://example.com/a%2Fb"),),
         invalid=(Ex("https://example.com/%C0%AFetc"),)),
    Rule("IRI403", "idna-failure", "Host label fails IDNA", "3987bis sec. 3.4.2; RFC 5891",
         E, True,
         "A non-ASCII or `xn--` label of a DNS host must convert with IDNA2008 after UTS #46 "
         "mapping; otherwise the IRI cannot be resolved. An `xn--` label that no IDNA version reads "
         "(`xn--d`, bad Punycode, a trailing `-`, one that decodes to ASCII) is a broken name anywhere. "
         "What stays opt-in is the difference between the IDNA versions: in source, an all-ASCII "
         "literal not used as an IRI that holds a valid IDNA2003-era A-label IDNA2008 rejects (a live "
         "name such as `xn--n3h.net`) is reported only when IRI403 is selected by name.",
         None, "Correct the label (the message names the reason).",
         what="A non-ASCII or `xn--` label of a DNS host (http, https, ftp and the other schemes iri-lint knows) "
              "that IDNA2008 with UTS #46 mapping rejects, or an `xn--` label that is no valid A-label. In source, "
              "an all-ASCII literal not used as an IRI is reported for a label IDNA2003 still reads only when "
              "IRI403 is selected by name.",
         valid=(Ex("https://b\u00fccher.example/"), Ex("https://my_host.example/"), Ex("https://xn--bcher-kva.example/")),
         invalid=(Ex("https://xn--a.example/"), Ex("https://xn--d.example/"), Ex("https://xn--abc-.example/"))),
    Rule("IRI404", "iri-to-uri-only-api", "Non-ASCII IRI passed to an API that takes only URIs",
         "RFC 3987 sec. 3.1", E, True,
         "`urllib.request.urlopen`, `http.client` and similar encode the request line as ASCII and "
         "raise UnicodeEncodeError for an IRI; the IRI must be mapped to its URI first.",
         FixLevel.URI, "Use the mapped URI (IDNA for the host, percent-encoded UTF-8 elsewhere).",
         what="A literal with non-ASCII characters (and no syntax errors) passed to an API that sends only ASCII: "
              "`urllib.request.urlopen`, `Request` and `urlretrieve`, an opener's `open`, and `http.client` "
              "`HTTPConnection` / `HTTPSConnection` `request` and `putrequest`. The fix is the mapped URI: IDNA "
              "for a DNS host, percent-encoded UTF-8 elsewhere.",
         valid=(Ex("https://example.com/caf%C3%A9", uri_only_api=True),
                Ex("https://b\u00fccher.example/caf\u00e9", context=DEREF)),
         invalid=(Ex("https://example.com/caf\u00e9", "https://example.com/caf%C3%A9", context=DEREF,
                     uri_only_api=True),)),
    Rule("IRI405", "percent-encoded-text", "Percent-encoded UTF-8 text that reads better as an IRI",
         "RFC 3987 sec. 3.2", INFO, False,
         "IRIs exist so that people can read them; `%E6%97%A5%E6%9C%AC` is `日本`.",
         FixLevel.SYNTAX, "Use the IRI form (URI-to-IRI conversion, sec. 3.2).",
         what="A run of percent-encoded octets that decodes as UTF-8 to characters an IRI may hold as they are "
              "(`%E6%97%A5` for `\u65e5`), in an IRI with a scheme and no syntax errors; the fix shows the "
              "characters (URI-to-IRI conversion).",
         valid=(Ex("https://example.com/a%2Fb"),),
         invalid=(Ex("https://example.com/%E6%97%A5%E6%9C%AC", "https://example.com/\u65e5\u672c",
                     context=DEREF),)),
    # ------------------------------------------------------------------ IRI5xx security
    Rule("IRI501", "mixed-script-host", "Host label mixes scripts", "RFC 3987 sec. 8; UTS #39", W, True,
         "Characters from several scripts in one host label (outside the combinations UTS #39 allows "
         "for Japanese, Chinese and Korean) are the classic sign of a spoofed domain name.",
         None, "Use characters of one script per label.",
         what="A host label whose letters do not resolve to one script (UTS #39 sec. 5.1), outside the "
              "combinations with Latin that Japanese, Chinese and Korean use (`\u0430\u03b2c`: Cyrillic and "
              "Greek). A label that reads as an ASCII one is IRI502's instead.",
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
         what="A non-ASCII host label that reads as an ASCII label it is not: every non-ASCII character has an "
              "ASCII look-alike (UTS #39 skeleton), whether mixed with Latin letters (`p\u0430ypal`) or written "
              "wholly in another script (`\u0430\u0440\u0440\u04cf\u0435`).",
         valid=(Ex("https://paypal.com/"), Ex("https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/")),
         invalid=(Ex("https://p\u0430ypal.com/"), Ex("https://\u0430\u0440\u0440\u04cf\u0435.com/"))),
    Rule("IRI503", "fullwidth-form", "Full-width or half-width form", "RFC 3987 sec. 6.1",
         W, True,
         "Full-width and half-width forms look like ordinary characters but are different code "
         "points; sec. 6.1 and UTS #46 map them to their ordinary forms.",
         FixLevel.NONE, "Use the ordinary (NFKC) character.",
         what="A full-width or half-width form (a character whose compatibility decomposition is `<wide>` or "
              "`<narrow>`, such as U+FF41) anywhere in the IRI, unless it looks like a delimiter (IRI504); a run "
              "is one finding, and the fix writes the ordinary characters.",
         valid=(Ex("https://example.com/abc"),),
         invalid=(Ex("https://example.com/\uff41bc", "https://example.com/abc"),)),
    Rule("IRI504", "delimiter-lookalike", "Look-alike of a delimiter such as U+2215 for `/`",
         "3987bis sec. 9; UTS #39", E, True,
         "Characters that look like `/`, `?`, `#`, `@`, `:` or `.` but are not delimiters make an "
         "IRI appear to have another host or path than it has.",
         FixLevel.NONE, "Use the real delimiter, or percent-encode the character.",
         what="A non-ASCII character that reads as a delimiter under NFKC, UTS #46 mapping or its UTS #39 "
              "skeleton: a look-alike of `/ ? # [ ] @ : % . & = ;` or of a character IRIs exclude, such as U+2215 "
              "DIVISION SLASH for `/`, anywhere in the IRI; one finding per character.",
         valid=(Ex("https://example.com/a/b"),),
         invalid=(Ex("https://example.com\u2215evil.com/", "https://example.com/evil.com/"),)),
    Rule("IRI505", "invisible-character", "Invisible or default-ignorable character",
         "3987bis sec. 9; UTS #39", E, True,
         "Default-ignorable characters (U+200B, U+00AD, U+2060, variation selectors, ZWJ outside "
         "IDNA's allowed contexts) are invisible, so two IRIs that look the same differ.",
         FixLevel.NONE, "Remove the invisible character.",
         what="A default-ignorable (invisible) character anywhere in the IRI, such as U+200B ZERO WIDTH SPACE, "
              "U+00AD SOFT HYPHEN, U+2060 WORD JOINER or a variation selector, and ZWJ or ZWNJ outside the "
              "contexts IDNA allows; bidi controls are IRI201's and IRI202's. The fix removes it.",
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
         what="A userinfo `user:password@` whose password is not empty and not a redaction or placeholder (`***`, "
              "`<password>`, `${PASSWORD}`, `pass`, `tiger`, ...), in any scheme. Files that match `test-files` "
              "are not checked for it.",
         valid=(Ex("https://user@example.com/"), Ex("https://user:***@example.com/"),
                Ex("postgresql://scott:tiger@localhost/test")),
         invalid=(Ex("https://deploy:9fK2xq@example.com/"),)),
    # ------------------------------------------------------------------ IRI6xx scheme
    Rule("IRI507", "mixed-script-component", "Path, query or fragment component mixes scripts",
         "RFC 3987 sec. 8; UTS #39", INFO, False,
         "Outside the host, mixed scripts are rarely an attack and common in real links (a Latin word "
         "in a Cyrillic article title), but can still hide a look-alike. Opt-in.",
         None, "Use characters of one script per component.",
         what="The IRI501 test outside the host: a user name, password, path segment, file extension, query name "
              "or value, or fragment whose letters do not resolve to one script (`p\u0430ypal` in a path).",
         valid=(Ex("https://example.com/日本ご"),),
         invalid=(Ex("https://example.com/pаypal"),)),
    Rule("IRI601", "missing-host", "http(s), ws(s) or ftp IRI without a host", "RFC 9110 sec. 4.2; "
         "RFC 3987 sec. 6.4", E, True,
         "These schemes require an authority with a non-empty host; `http:/example.com` and "
         "`http:example.com` are usually a lost `/`. The fix only restores a host that is there: "
         "`ftp:///srv/data.csv` has a path, not a host, and gets no fix.",
         FixLevel.NONE, "Write `scheme://host/...`.",
         what="An `http`, `https`, `ws`, `wss` or `ftp` IRI without a host: no `//` authority "
              "(`https:/example.com/`, `https:example.com`) or an empty one (`https:///example.com/`). The fix "
              "restores `scheme://` only when what follows reads as a DNS name.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("https:/example.com/", "https://example.com/"),
                  Ex("https:///example.com/", "https://example.com/"),
                  Ex("ftp:///srv/data.csv"))),
    Rule("IRI602", "port-out-of-range", "Port above 65535", "RFC 793; RFC 3986 sec. 3.2.3",
         E, True,
         "TCP and UDP ports are 16-bit numbers; a larger port cannot be connected to.",
         None, "Correct the port.",
         what="A port whose digits make a number above 65535 (`:65536`), in any scheme.",
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
         what="A scheme one edit away from `http`, `https`, `ftp`, `ws`, `wss`, `mailto` or `file` that is not "
              "registered, not in wide use and not two letters long (`htps:`, `httpss:`); also `http//` and "
              "`https//`, which lost their `:`, and `http:\\\\` with backslashes.",
         valid=(Ex("https://example.com/"), Ex("ftps://files.example.com/"), Ex("gs://bucket/key")),
         invalid=(Ex("htps://example.com/", "https://example.com/"),
                  Ex("http//example.com/", "http://example.com/"))),
    Rule("IRI604", "unregistered-scheme", "Scheme not in the IANA URI scheme registry",
         "RFC 7595", INFO, False,
         "Unregistered schemes are not interoperable. Opt-in: private schemes are legitimate in many "
         "applications.",
         None, "Use a registered scheme or register yours.",
         what="A scheme that is not in the IANA URI scheme registry (permanent, provisional or historical), in an "
              "IRI without syntax errors; a likely typo of a common scheme is IRI603's instead.",
         valid=(Ex("https://example.com/"),),
         invalid=(Ex("notascheme://example.com/"),)),
    # ------------------------------------------------------------------ IRI7xx text (RFC 3987 sec. 7.3)
    # Examples are docstring text: the catalog tests lint them as a module docstring.
    Rule("IRI710", "text-iri-syntax", "An IRI in a docstring or prose is not valid (an IRI1xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="syntax", digit="1"),
         None, _TEXT_FIX,
         what=_TEXT_WHAT.format(digit="1", family="syntax",
                                e_g="a space (IRI101) or a bad `%` (IRI110)"),
         valid=(Ex("See <https://example.com/a%20b> for details."),),
         invalid=(Ex("<https://example.com/a b>"),)),
    Rule("IRI720", "text-iri-bidi", "An IRI in a docstring or prose has a bidi problem (an IRI2xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="bidi", digit="2"),
         None, _TEXT_FIX,
         what=_TEXT_WHAT.format(digit="2", family="bidi",
                                e_g="a bidi control (IRI201) or a mixed-direction component (IRI204)"),
         valid=(Ex("Docs: https://example.com/abc."),),
         invalid=(Ex("Docs: https://example.com/\u202eabc."),)),
    Rule("IRI730", "text-iri-normalization", "An IRI in a docstring or prose is not normalized (an IRI3xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", INFO, False,
         _TEXT_WHY.format(family="normalization", digit="3"),
         None, _TEXT_FIX,
         what=_TEXT_WHAT.format(digit="3", family="normalization",
                                e_g="a decomposed character (IRI301)"),
         valid=(Ex("See https://example.com/caf\u00e9."),),
         invalid=(Ex("See https://example.com/cafe\u0301."),)),
    Rule("IRI740", "text-iri-mapping", "An IRI in a docstring or prose does not map to a URI (an IRI4xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="mapping", digit="4"),
         None, _TEXT_FIX,
         what=_TEXT_WHAT.format(digit="4", family="mapping",
                                e_g="percent-encoded octets that are not UTF-8 (IRI401)"),
         valid=(Ex("Page (https://example.com/caf%C3%A9)."),),
         invalid=(Ex("Old page (https://example.com/caf%E9)."),)),
    Rule("IRI750", "text-iri-security", "An IRI in a docstring or prose is deceptive (an IRI5xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="security", digit="5"),
         None, _TEXT_FIX,
         what=_TEXT_WHAT.format(digit="5", family="security",
                                e_g="a host confusable with an ASCII one (IRI502)"),
         valid=(Ex("Log in at \"https://paypal.com/\"."),),
         invalid=(Ex("Log in at \"https://p\u0430ypal.com/\"."),)),
    Rule("IRI760", "text-iri-scheme", "An IRI in a docstring or prose breaks its scheme's rules (an IRI6xx finding)",
         "RFC 3987 sec. 7.3; RFC 3986 appendix C", W, False,
         _TEXT_WHY.format(family="scheme", digit="6"),
         None, _TEXT_FIX,
         what=_TEXT_WHAT.format(digit="6", family="scheme",
                                e_g="a misspelled scheme (IRI603) or a missing host (IRI601)"),
         valid=(Ex("Mirror: https://example.com/files, see also mailto:ops@example.com."),),
         invalid=(Ex("Mirror: htps://example.com/files, see also mailto:ops@example.com."),)),
)

RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in RULES}
RULES_BY_NAME: dict[str, Rule] = {r.name: r for r in RULES}
DEFAULT_CODES: frozenset[str] = frozenset(r.code for r in RULES if r.default)
