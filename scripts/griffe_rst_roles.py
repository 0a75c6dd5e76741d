"""Griffe extension for the docs build (mkdocs.yml): the reST roles our docstrings use, as Markdown.

mkdocstrings renders docstrings as Markdown, where ``:func:`~.mapping.to_iri``` would show as
written. Double-backtick literals need nothing: they are Markdown code spans already.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, GriffeLoader, Object

_CALLABLE = re.compile(r":(?:func|meth):`~?\.?(?:[\w.]*\.)?(\w+)`")
_NAME = re.compile(r":(?:class|data|attr|mod|exc):`~?\.?(?:[\w.]*\.)?(\w+)`")


def rst_roles_to_md(text: str) -> str:
    """``:func:`~pkg.f``` -> `` `f()` ``, ``:class:`pkg.C``` -> `` `C` `` (the last name, as Sphinx's ``~``)."""
    return _NAME.sub(r"`\1`", _CALLABLE.sub(r"`\1()`", text))


class RstRoles(Extension):
    """Rewrite the roles in every docstring once the object tree is complete."""

    def on_object(self, *, obj: Object, loader: GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rst_roles_to_md(obj.docstring.value)
