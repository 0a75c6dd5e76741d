"""The names a module fills in: found in the lines that can hold a filling as in the whole tree."""

from __future__ import annotations

import ast
import pathlib
import sysconfig
import textwrap

import pytest

from iri_lint.source.filling import filled_names, find_filled_names
from iri_lint.source.locate import SourceFile, split_lines
from iri_lint.source.templates import Filling

STDLIB = pathlib.Path(sysconfig.get_paths()["stdlib"])


def _both(text: str) -> tuple[dict[str, Filling], dict[str, Filling]]:
    tree = ast.parse(text)
    return filled_names(tree, SourceFile(split_lines(text))), find_filled_names(tree)


@pytest.mark.parametrize("name", ["logging/__init__.py", "argparse.py", "string.py", "http/server.py",
                                  "urllib/request.py", "pydoc.py", "email/_header_value_parser.py"])
def test_the_lines_that_hold_one_give_the_whole_trees_fillings(name: str) -> None:
    text = (STDLIB / name).read_text(encoding="utf-8")
    found, whole = _both(text)
    assert found == whole


def test_fillings_deep_in_expressions_that_span_many_lines() -> None:
    text = textwrap.dedent("""\
        x = call(
            a,
            [b for b in c if ok(
                B.replace("ID", b))],
            lambda: {
                "k": A
                % b,
            },
            C.format_map(
                d),
        )
        log.info("%s", D)
    """)
    found, whole = _both(text)
    assert found == whole
    assert set(found) == {"A", "B", "C"}


def test_what_sql_puts_after_like_is_a_pattern_and_a_subscript_fills_the_items() -> None:
    text = textwrap.dedent("""\
        def condition(std, x):
            return (f"standard_id LIKE '{STDIDS[std][0]}' AND a ilike {TERMS.x}"
                    + " OR b LIKE '%s'" % SSA + f" AND c = '{PLAIN}'" + "d LIKE %s AND e = '%s'" % NOT_LIKE)

        FORMATS[k].format(x)
        q = "a LIKE '%s' AND d = '%s' OR b LIKE %(p)s" % (TUPLED, DAY) + "x LIKE %(p)s" % {"p": KEYED, "q": NOT}
        """)
    found, whole = _both(text)
    assert found == whole
    like = Filling(replaced=("%",))
    assert found == {"STDIDS": like._replace(items=True), "TERMS.x": like, "SSA": like,
                     "FORMATS": Filling(fmt=True, items=True), "TUPLED": like, "KEYED": like}


def test_a_name_a_query_binds_to_a_parameter_after_like_is_a_pattern() -> None:
    text = textwrap.dedent("""\
        def find(cur, conn):
            cur.execute("SELECT id FROM pages WHERE url LIKE ? AND kind = ?", (PATTERN, KIND))
            conn.execute(text("SELECT 1 FROM t WHERE u ILIKE :p OR v = :q"), {"p": cfg.NAMED, "q": OTHER})
            cur.execute("SELECT id FROM pages WHERE url = %s", [SITE])
        """)
    found, whole = _both(text)
    assert found == whole
    assert found == {"PATTERN": Filling(replaced=("%",)), "cfg.NAMED": Filling(replaced=("%",))}


def test_what_a_collection_named_for_like_patterns_is_given_is_a_pattern() -> None:
    """outside60 (pyvo, 4 false IRI110 outside tests): ``self.like_patterns.add(NEW_STYLE_STDIDS[std][0])``, later
    put after ``like`` in a loop: a collection whose name says it holds LIKE patterns holds patterns, so what it is
    given is one (the items of a name read by subscript, of a name it is extended by); other collections, no."""
    text = textwrap.dedent("""\
        NEW_STYLE_STDIDS = {"sia2": ("ivo://ivoa.net/std/sia#query-2.%", None)}
        class S:
            def __init__(self, std):
                self.like_patterns = set()
                self.like_patterns.add(NEW_STYLE_STDIDS[std][0])
                ilike_terms.extend(TERMS)
                self.patterns.add(OTHER[std])
                likes.append(NOT_ONE)
        """)
    found, whole = _both(text)
    assert found == whole
    like = Filling(replaced=("%",))
    assert found == {"NEW_STYLE_STDIDS": like._replace(items=True), "TERMS": like._replace(items=True)}
