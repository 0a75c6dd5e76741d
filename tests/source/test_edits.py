"""Value edits become minimal source edits that round-trip through the parser."""

from __future__ import annotations

import ast

from iri_lint.source.edits import Refusal, SourceEdit, apply_edits, edit_literal, verify_edit
from iri_lint.source.literals import find_literals
from iri_lint.source.model import Literal


def only(src: str) -> Literal:
    (lit,) = find_literals(ast.parse(src), src.splitlines(True))
    return lit


def roundtrip(src: str, old: str, new: str) -> str:
    lit = only(src)
    i = lit.value.index(old)
    edits = edit_literal(lit, i, i + len(old), new)
    assert not isinstance(edits, Refusal), edits
    out = apply_edits(src, edits)
    expected = lit.value[:i] + new + lit.value[i + len(old) :]
    assert verify_edit(src, out, lit, expected)
    # byte-identical outside the edited spans
    first, last = min(e.start for e in edits), max(e.end for e in edits)
    assert out.startswith(src[:first]) and out.endswith(src[last:])
    return out


def test_simple_replacement_keeps_everything_else() -> None:
    src = 'x = 1\nurl = "http://ex.com/a%2fb"  # c\n'
    assert roundtrip(src, "%2f", "%2F") == 'x = 1\nurl = "http://ex.com/a%2Fb"  # c\n'


def test_untouched_escapes_stay() -> None:
    src = 'url = "http://ex.com/\\u00e9/%7e"\n'
    assert roundtrip(src, "%7e", "~") == 'url = "http://ex.com/\\u00e9/~"\n'


def test_escape_rewritten_only_where_edited() -> None:
    src = "url = 'http://ex.com/\\xe9'\n"
    assert roundtrip(src, "é", "%C3%A9") == "url = 'http://ex.com/%C3%A9'\n"


def test_quotes_and_nonprintables_are_escaped() -> None:
    src = "url = 'http://ex.com/a'\n"
    out = roundtrip(src, "/a", "/'\u202e\n")
    assert out == "url = 'http://ex.com/\\'\\u202e\\n'\n"


def test_raw_string_refusal() -> None:
    lit = only("url = r'http://ex.com/a'\n")
    i = lit.value.index("a")
    assert isinstance(edit_literal(lit, i, i + 1, "'"), Refusal)
    assert isinstance(edit_literal(lit, i, i + 1, "\\"), Refusal)
    assert isinstance(edit_literal(lit, i, i + 1, "\u202e"), Refusal)
    assert not isinstance(edit_literal(lit, i, i + 1, "%41"), Refusal)


def test_fstring_braces_doubled_and_holes_protected() -> None:
    src = 'url = f"http://{h}/a b"\n'
    lit = only(src)
    i = lit.value.index("a b")
    edits = edit_literal(lit, i, i + 3, "{x}")
    assert not isinstance(edits, Refusal)
    out = apply_edits(src, edits)
    assert out == 'url = f"http://{h}/{{x}}"\n'
    scope: dict[str, object] = {"h": "H"}
    exec(out, scope)
    assert scope["url"] == "http://H/{x}"
    assert isinstance(edit_literal(lit, 6, 9, "x"), Refusal)  # covers the {h} placeholder


def test_implicit_concatenation_split_per_piece() -> None:
    src = 'url = ("http://ex.com/a%2"\n       "fb")\n'
    out = roundtrip(src, "%2f", "%2F")
    assert out == 'url = ("http://ex.com/a%2"\n       "Fb")\n'
    # different length: the first piece gets the text, the second loses its part
    out = roundtrip(src, "%2f", "/")
    assert ast.literal_eval(out.split("=", 1)[1].strip()) == "http://ex.com/a/b"


def test_characters_encoded_one_by_one_stay_in_their_pieces() -> None:
    """fixtures103 repro 01: a run of characters spelled by two pieces, percent-encoded, is written in each
    piece for its own characters (cli.md: only the characters of the finding change)."""
    src = 'url = "http://ex.com/a|" "|b"\n'
    assert roundtrip(src, "||", "%7C%7C") == 'url = "http://ex.com/a%7C" "%7Cb"\n'
    src = 'url = ("http://ex.com/e "\n       " f")\n'
    assert roundtrip(src, "  ", "%20%20") == 'url = ("http://ex.com/e%20"\n       "%20f")\n'


def test_percent_template_escapes_percent() -> None:
    src = 'url = "http://%s/a b" % host\n'
    lit = only(src)
    i = lit.value.index(" ")
    edits = edit_literal(lit, i, i + 1, "%20")
    assert edits == [SourceEdit(src.index(" b"), src.index(" b") + 1, "%%20")]
    out = apply_edits(src, edits)
    assert verify_edit(src, out, lit, lit.value.replace(" ", "%20"))


def test_an_edit_keeping_a_templates_escaped_percent_changes_only_what_it_changes() -> None:
    """``%%2f`` of a ``%`` template is the value's ``%2f``: its case fix changes the ``f`` alone, and the escape
    stays as written (fixtures35, repro 02)."""
    assert roundtrip('u = "https://h/%s/a%%2fb" % slug\n', "%2f", "%2F") == 'u = "https://h/%s/a%%2Fb" % slug\n'
    assert roundtrip('u = "https://h/%s/%%7e" % slug\n', "%7e", "~") == 'u = "https://h/%s/~" % slug\n'


def test_insertion_and_verify_rejects_wrong_value() -> None:
    src = 'url = "http://ex.com"\n'
    lit = only(src)
    edits = edit_literal(lit, len(lit.value), len(lit.value), "/")
    assert not isinstance(edits, Refusal)
    out = apply_edits(src, edits)
    assert out == 'url = "http://ex.com/"\n'
    assert verify_edit(src, out, lit, "http://ex.com/")
    assert not verify_edit(src, out, lit, "http://ex.com")
    assert not verify_edit(src, "url = (\n", lit, "http://ex.com/")


def test_raw_bytes_literal_refuses_non_ascii() -> None:
    from iri_lint.source.decode import decode_string
    from iri_lint.source.edits import escape_for

    assert isinstance(escape_for(decode_string("rb'x'"), "\u00a1"), Refusal)  # found by hypothesis
    assert escape_for(decode_string("b'x'"), "\u00a1") == "\\xa1"
    assert escape_for(decode_string("rb'x'"), "ab") == "ab"
