"""Which module ``django.conf.settings`` stands for: the one ``DJANGO_SETTINGS_MODULE`` names.

Django's ``settings`` is a lazy object whose attributes are those of the module named by the environment
variable ``DJANGO_SETTINGS_MODULE``; a project sets it where it starts Django (``manage.py``'s
``os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mysite.settings")``) or for its tests (pytest-django's
``DJANGO_SETTINGS_MODULE = mysite.settings`` in ``pytest.ini``, ``setup.cfg``, ``tox.ini`` or
``pyproject.toml``). Those files are read (never run) at the project root and in its ``src`` folder; where
they name two modules (the tests' own, ``settings.test``), the one ``manage.py`` names is the application's;
a project that sets it nowhere there, or in two ways without a ``manage.py`` that decides, has no settings
module: its ``settings`` stays an outside object, each attribute a hole.
"""

from __future__ import annotations

import os
import re

__all__ = ["SETTINGS", "settings_module"]

SETTINGS = "django.conf.settings"
_FILES = ("manage.py", "pytest.ini", "setup.cfg", "tox.ini", "pyproject.toml")
# the name as manage.py passes it to os.environ (setdefault, [...] =) or a config file assigns it
_NAMED = re.compile(r"""DJANGO_SETTINGS_MODULE['"]?\s*+(?:[,=:]|\]\s*+=)\s*+['"]?([A-Za-z_][A-Za-z0-9_.]*+)""")
_MAX_BYTES = 1 << 20


def settings_module(root: str) -> tuple[str | None, list[str]]:
    """The dotted name of the project's settings module (None when not set once, in one way), and the files
    that said so or may (where a change changes the answer)."""
    names: set[str] = set()
    started: set[str] = set()  # (what manage.py names: the settings the application starts with)
    seen: list[str] = []
    for folder in (root, os.path.join(root, "src")):
        for name in _FILES:
            path = os.path.join(folder, name)
            seen.append(path)
            text = _read(path)
            if text is not None and "DJANGO_SETTINGS_MODULE" in text:
                named = {m.group(1) for m in _NAMED.finditer(text)}
                names |= named
                started |= named if name == "manage.py" else set()
    one = names if len(names) == 1 else started if len(started) == 1 else set()
    return (one.pop() if one else None), seen


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_BYTES)
    except OSError:
        return None
    return data.decode("utf-8", "replace")
