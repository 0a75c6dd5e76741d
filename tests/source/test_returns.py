"""A helper's return put together from the assignments before it (``source.returns``)."""

from __future__ import annotations

import ast

import pytest

from iri_lint.config import Config
from iri_lint.lint import lint_text
from iri_lint.source.returns import MAX_STEPS, one_return, return_statement


def _function(source: str) -> ast.FunctionDef:
    node = ast.parse(source).body[0]
    assert type(node) is ast.FunctionDef
    return node


def test_the_assignments_before_a_return_are_read_into_it() -> None:
    f = _function('def u(uid):\n    """Doc."""\n    path = "/users/" + uid\n    url: str = BASE + path\n'
                  '    url += "?full=1"\n    return url\n')
    returned = one_return(f)
    assert returned is not None and returned.value is not None
    assert ast.unparse(returned.value) == "BASE + ('/users/' + uid) + '?full=1'"
    assert return_statement(returned) is f.body[-1]
    assert one_return(f) is returned  # (the same node each time)
    literal = f.body[1].value.right  # type: ignore[attr-defined]
    assert any(n is literal for n in ast.walk(returned))  # (a finding still points at the literal itself)


def test_a_single_return_is_the_function_s_own() -> None:
    f = _function("def u(p):\n    return BASE + p\n")
    assert one_return(f) is f.body[0] and type(f.body[0]) is ast.Return and return_statement(f.body[0]) is f.body[0]


@pytest.mark.parametrize("body", [
    "x = BASE + p\n    log(x)\n    return x\n",  # a call: it may do anything
    "x = BASE + p\n    if p:\n        x += '/'\n    return x\n",  # a branch
    "x += p\n    return x\n",  # extends a name bound elsewhere
    "a, b = p\n    return a\n",  # a target that is no name
    "x = BASE + p\n    return\n",  # no value
    "".join(f"x{k} = p\n    " for k in range(MAX_STEPS + 1)) + "return x0\n",  # too many steps
    "x = p\n" + "    x = x + x\n" * 8 + "    return x\n",  # a value that would double past the size limit
])
def test_anything_else_is_no_one_return(body: str) -> None:
    assert one_return(_function(f"def u(p):\n    {body}")) is None


def test_a_helper_of_assignments_is_read_at_its_call() -> None:
    text = ('import requests\nBASE = "https://api.example.com"\n\n\ndef make(p):\n    full = BASE\n    full += p\n'
            '    return full\n\n\ndef noisy(p):\n    full = BASE + p\n    print(full)\n    return full\n\n\n'
            'requests.get(make("items"))\nrequests.get(noisy("items"))\n')
    assert [(f.line, f.col, f.code) for f in lint_text(text, Config())] == [(17, 19, "IRI801")]


def test_a_long_return_expression_costs_no_recursion() -> None:
    """A hostile helper: 900 ``+`` terms after an assignment (as deep as CPython's parser goes) are no helper."""
    text = "def u(p):\n    x = p\n    return x" + " + 'a'" * 900 + "\n"
    assert one_return(ast.parse(text).body[0]) is None
