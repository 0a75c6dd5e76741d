"""What a top-level statement lets the values of other statements read (``source.exports``): an edit that
keeps it lets the editor find again only the values used in the edited statements."""

from __future__ import annotations

import ast

import pytest

from iri_lint.source.exports import export_signature


def sig(source: str) -> str:
    (stmt,) = ast.parse(source).body
    return export_signature(stmt)


@pytest.mark.parametrize(("before", "after"), [
    # a function's body is not read from elsewhere, unless it is one return (a helper: ``source.helpers``)
    ("def f():\n    log()\n    return get('http://a/x')\n", "def f():\n    log()\n    return get('http://a/x y')\n"),
    ("def f():\n    x = 1\n", "def f():\n    x = 2\n    y = x\n"),
    # nor an expression statement, nor a docstring, nor where a statement stands
    ("requests.get(URL)\n", "requests.get(URL + 'x')\n"),
    ("class C:\n    '''Doc.'''\n    u = 'a'\n", "class C:\n    '''Other doc.'''\n\n    u = 'a'\n"),
    ("class C:\n    def m(self):\n        get(self.u)\n", "class C:\n    def m(self):\n        get(self.u + 'x')\n"),
])
def test_what_no_other_statement_reads_may_change(before: str, after: str) -> None:
    assert sig(before) == sig(after)


@pytest.mark.parametrize(("before", "after"), [
    ("HOST = 'https://h'\n", "HOST = 'https://h/'\n"),  # a module-level name's value
    ("HOST = 'https://h'\n", "HOSTS = 'https://h'\n"),
    ("from a import b\n", "from a import c\n"),
    ("if x:\n    HOST = 'a'\n", "if y:\n    HOST = 'a'\n"),  # the header of a block binding in it
    ("try:\n    H = 'a'\nexcept E:\n    H = 'b'\n", "try:\n    H = 'a'\nexcept E:\n    H = 'c'\n"),
    ("print(x := 'a')\n", "print(x := 'b')\n"),  # a walrus at module level binds a module name
    # a class: its name, bases, body bindings, and the attributes its methods bind
    ("class C(A):\n    u = 'a'\n", "class C(B):\n    u = 'a'\n"),
    ("class C:\n    u = 'a'\n", "class C:\n    u = 'b'\n"),
    ("class C:\n    def __init__(self):\n        self.u = 'a'\n",
     "class C:\n    def __init__(self):\n        self.u = 'b'\n"),
    ("class C:\n    def m(self):\n        if x:\n            self.u += 'a'\n",
     "class C:\n    def m(self):\n        if x:\n            self.u += 'b'\n"),
    ("class C:\n    def m(self):\n        for self.u in x:\n            pass\n",
     "class C:\n    def m(self):\n        for u in x:\n            pass\n"),
    ("class C:\n    def m(self):\n        with a as self.u:\n            pass\n",
     "class C:\n    def m(self):\n        with a as u:\n            pass\n"),
    ("class C:\n    def m(self):\n        self.u = 1\n", "class C:\n    def m(this):\n        self.u = 1\n"),
    ("class C:\n    def m(self):\n        del self.u\n", "class C:\n    def m(self):\n        del u\n"),
    ("class C:\n    @staticmethod\n    def m(self):\n        pass\n", "class C:\n    def m(self):\n        pass\n"),
    ("def f():\n    pass\n", "def g():\n    pass\n"),  # a def's name: known by its name as an API is
    # a helper's return, read at its calls; and a body that stops being one return
    ("def f(p):\n    return 'http://a/' + p\n", "def f(p):\n    return 'http://b/' + p\n"),
    ('class C:\n    def u(self, p):\n        "Doc."\n        return self.r + p\n',
     'class C:\n    def u(self, p):\n        "Doc."\n        return self.r + "/" + p\n'),
    ("def f(p):\n    return p\n", "def f(p):\n    log(p)\n    return p\n"),
    # the assignments before a return, read into it (``source.returns``)
    ("def f(p):\n    q = 'http://a/' + p\n    return q\n", "def f(p):\n    q = 'http://b/' + p\n    return q\n"),
])
def test_what_another_statement_may_read_is_in_the_signature(before: str, after: str) -> None:
    assert sig(before) != sig(after)
