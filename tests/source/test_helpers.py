"""Calls of the module's own helpers, read at the call (``iri_lint.source.helpers``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from iri_lint.config import Config
from iri_lint.lint import lint_text
from iri_lint.source.project import Project


def found(text: str) -> list[tuple[int, int, str]]:
    return [(f.line, f.col, f.code) for f in lint_text(text, Config())]


def package(root: Path, name: str, modules: dict[str, str]) -> dict[str, Path]:
    """A project at ``root`` whose package ``name`` holds ``modules`` (module name -> text): their paths."""
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    (root / name).mkdir()
    paths = {m: root / name / f"{m}.py" for m in ("__init__", *modules)}
    for m, path in paths.items():
        path.write_text(modules.get(m, ""), encoding="utf-8")
    return paths


def found_in(path: Path, project: Project) -> list[tuple[int, int, str]]:
    """``found`` of a file of a project, reading the project's other modules through ``project``."""
    text = path.read_text(encoding="utf-8")
    return [(f.line, f.col, f.code) for f in lint_text(text, Config(), path=str(path), project=project, file=str(path))]


HELPERS = '''\
import requests

BASE = "https://api.example.com"


def endpoint(path, version="v2"):
    return BASE + "/" + version + "/" + path


class Api:
    ROOT = "https://api.example.com"

    def _u(self, kind, name):
        """The URL of one thing."""
        return f"{self.ROOT}/{kind}/{name}"

    @staticmethod
    def _s(x):
        return BASE + "/s/" + x

    @classmethod
    def _c(cls, x):
        return cls.ROOT + "/c/" + x

    def get_user(self, uid):
        requests.get(self._u("users", "x y"))
        requests.get(self._u("users", uid))
        requests.get(self._u(kind="users", name="a b"))
        requests.get(self._s("c d"))
        requests.get(self._c("e f"))


requests.get(endpoint("items/a b"))
requests.get(endpoint("items", version="v 3"))
requests.get(endpoint(path="ok"))
requests.get(endpoint("items") + "?q=1?r=2")
'''


def test_a_helper_s_return_is_read_with_the_call_s_arguments() -> None:
    """A function or method whose body is one return: its parameters hold the call's arguments (a default
    where none is given, a keyword by its name); a finding stands on the argument's literal that holds it."""
    assert found(HELPERS) == [(26, 40, "IRI101"), (28, 50, "IRI101"), (29, 31, "IRI101"), (30, 31, "IRI101"),
                              (33, 30, "IRI101"), (34, 41, "IRI101")]


@pytest.mark.parametrize("helper", [
    "def endpoint(path, **kw):\n    return BASE + '/' + path\n",  # **kwargs: not followed
    "def endpoint(path):\n    x = path\n    log(x)\n    return BASE + '/' + x\n",  # more than assignments
    "@cache\ndef endpoint(path):\n    return BASE + '/' + path\n",  # a decorator may change what it gives
    # (a ``cache`` not imported from functools is any decorator)
    "async def endpoint(path):\n    return BASE + '/' + path\n",  # its call is a coroutine
    "def endpoint(path):\n    return BASE + '/' + path\nendpoint = other\n",  # bound twice
    "def endpoint(path):\n    return BASE + '/' + (p := path)\n",  # its return binds a name
    "def endpoint(path):\n    return endpoint(path) + '/'\n",  # calls itself
    "def endpoint(path):\n    return BASE + '/' + ''.join(c for c in path)\n",  # a comprehension binds
])
def test_what_is_not_a_helper_leaves_the_call_a_hole(helper: str) -> None:
    """Anything but a plain one-return helper called plainly is a hole: no value, so no finding."""
    text = f'import requests\nBASE = "https://api.example.com"\n{helper}requests.get(endpoint("a b"))\n'
    assert [c for _, _, c in found(text)] == []


def test_a_method_a_subclass_overrides_or_that_is_called_otherwise_is_a_hole() -> None:
    """``self.m`` may be a subclass's ``m``; ``other.m`` is not this class's; ``endpoint(*args)``,
    ``endpoint(**kw)``, too many or unknown arguments match no parameters."""
    text = ('import requests\nBASE = "https://api.example.com"\n'
            'class A:\n    def _u(self, x):\n        return BASE + "/" + x\n'
            '    def go(self, other):\n        requests.get(self._u("a b"))\n        requests.get(other._u("c d"))\n'
            'class B(A):\n    def _u(self, x):\n        return x\n'
            'def endpoint(path):\n    return BASE + "/" + path\n'
            'def calls(args, kw):\n    requests.get(endpoint(*args, "e f"))\n    requests.get(endpoint("g h", **kw))\n'
            '    requests.get(endpoint("i j", "k"))\n    requests.get(endpoint(nope="l m"))\n')
    assert found(text) == []


def test_helpers_calling_each_other_stop_at_the_depth_limit() -> None:
    """Helpers calling helpers (a chain of 2,000, and two calling each other) are read to the depth limit:
    a hole past it, never a recursion error."""
    chain = "".join(f"def h{i}(x):\n    return h{i + 1}(x) + 'z'\n" for i in range(2000))
    text = ('import requests\n' + chain + 'def h2000(x):\n    return "https://h.example/" + x\n'
            'def a(x):\n    return b(x)\ndef b(x):\n    return a(x)\n'
            'requests.get(h0("a b"))\nrequests.get(a("c d"))\nrequests.get(h1990("e f"))\n')
    # h1990 is ten helpers deep; h0 is past the depth limit, a and b call each other: holes
    assert [(line, code) for line, _, code in found(text)] == [(4010, "IRI101")]


def test_a_helper_s_star_parameter_holds_the_other_arguments() -> None:
    """``def _url(self, *parts)``: the call's other positional arguments, a tuple a display can splice
    (``[BASE, *parts]``), as a tuple constant can be (fixtures17's SDK)."""
    text = ('import requests\nPARTS = ("v1", "a b")\n'
            'class Api:\n    BASE_URL = "https://api.pay.example"\n'
            '    def _url(self, *parts):\n        return "/".join([self.BASE_URL, *parts])\n'
            '    def users(self, uid):\n        requests.get(self._url("users", "x y"))\n'
            '        requests.get(self._url("users", uid))\n        requests.get(self._url(*PARTS))\n'
            'requests.get("/".join(["https://h.example", *PARTS]))\n')
    assert found(text) == [(2, 17, "IRI101"), (8, 42, "IRI101")]  # (line 11: at the constant spelling "a b")



def test_another_module_s_helper_is_read_at_the_call(tmp_path: Path) -> None:
    """``from pkg.urls import endpoint``, absolute or relative: its one return is read at the call with the
    call's arguments, and so is a return after assignments (``source.returns``); another module's function that
    does more stays a hole."""
    paths = package(tmp_path, "pkg", {
        "urls": 'BASE = "https://api.example.com"\n\n\ndef endpoint(path, version="v1"):\n'
                '    """A path of the API."""\n    return BASE + "/" + version + "/" + path\n\n\n'
                'def other(path):\n    x = BASE + "/" + path\n    log(x)\n    return x\n\n\n'
                'def chained(path):\n    x = BASE + "/"\n    x += path\n    return x\n',
        "app": 'import requests\nfrom pkg.urls import chained, endpoint, other\nfrom .urls import endpoint as ep\n\n'
               'requests.get(endpoint("a b"))\nrequests.get(ep("items", version="v 2"))\n'
               'requests.get(other("c d"))\nrequests.get(endpoint("fine"))\nrequests.get(chained("e f"))\n',
    })
    assert found_in(paths["app"], Project()) == [(5, 24, "IRI101"), (6, 35, "IRI101"), (9, 23, "IRI101")]


def test_a_helper_a_base_class_defines_is_read_at_a_subclass_s_call(tmp_path: Path) -> None:
    """``class Charges(BaseClient)`` calling ``self._url(...)`` that ``BaseClient`` defines, in this module or
    another: read as the base's helper with ``self`` the calling class's (``Local``'s own ``BASE_URL``,
    fixtures180 repro 01), unless the class has several bases (the resolution order decides)."""
    paths = package(tmp_path, "sdk", {
        "base": 'class BaseClient:\n    BASE_URL = "https://api.pay.example"\n\n'
                '    def _url(self, *parts):\n        return "/".join([self.BASE_URL, *parts])\n',
        "resources": 'import requests\nfrom sdk.base import BaseClient\n\n\n'
                     'class Charges(BaseClient):\n    def list(self):\n'
                     '        return requests.get(self._url("charges", "a b"))\n\n\n'
                     'class Local(BaseClient):\n    BASE_URL = "https://other.example"\n\n'
                     '    def list(self):\n        return requests.get(self._url("local", "c d"))\n\n\n'
                     'class Mixed(BaseClient, dict):\n    def list(self):\n'
                     '        return requests.get(self._url("mixed", "e f"))\n\n\n'
                     'class Inner(Charges):\n    def list(self):\n'
                     '        return requests.get(self._url("inner", "g h"))\n',
    })
    assert found_in(paths["resources"], Project()) == [(7, 51, "IRI101"), (14, 49, "IRI101"), (24, 49, "IRI101")]


def test_a_subclass_binding_a_name_the_helper_does_not_read_keeps_it_read(tmp_path: Path) -> None:
    """``class Rail(ProviderClient)`` setting only ``TIMEOUT``: ``endpoint_url`` reads ``self.BASE_URL`` alone,
    which ``Rail`` leaves as it is, so the call is read (fixtures70, repro 01); a helper whose return hands
    the receiver on (``self.build(path)``) reads ``build`` with it: ``Staging``'s BASE_URL, whose '/' the
    ``"/x"`` doubles (the base's has none)."""
    paths = package(tmp_path, "sdk", {
        "base": 'class ProviderClient:\n    BASE_URL = "https://api.example.com"\n    TIMEOUT = 5\n\n'
                '    def endpoint_url(self, path):\n        return self.BASE_URL + path\n\n'
                '    def build(self, path):\n        return self.BASE_URL + path\n\n'
                '    def via_url(self, path):\n        return self.build(path)\n',
        "rail": 'import requests\nfrom sdk.base import ProviderClient\n\n\n'
                'class Rail(ProviderClient):\n    TIMEOUT = 30\n\n'
                '    def get(self):\n        return requests.get(self.endpoint_url("/trains/ice 5"))\n\n\n'
                'class Staging(ProviderClient):\n    BASE_URL = "https://staging.example.com/"\n\n'
                '    def get(self):\n        return requests.get(self.via_url("/x"))\n',
    })
    assert found_in(paths["rail"], Project()) == [(9, 58, "IRI101"), (16, 42, "IRI802")]


def test_a_base_s_helper_called_through_self_reads_self_as_the_calling_class(tmp_path: Path) -> None:
    """``Legacy(ProviderClient)`` beside the base binds ``BASE_URL``, so the base's own methods read a hole;
    but ``self.endpoint_url(...)`` in ``Rail``, a sibling in another module, reads ``self`` as a ``Rail``,
    whose ``BASE_URL`` is the base's: the '//' the call makes is known (fixtures70)."""
    paths = package(tmp_path, "sdk", {
        "base": 'class ProviderClient:\n    BASE_URL = "https://p.example/api/"\n\n'
                '    def endpoint_url(self, path):\n        return self.BASE_URL + path\n\n\n'
                'class Legacy(ProviderClient):\n    BASE_URL = "https://legacy.example"\n',
        "rail": 'import requests\nfrom sdk.base import ProviderClient\n\n\n'
                'class Rail(ProviderClient):\n    def tickets(self):\n'
                '        return requests.get(self.endpoint_url("/tickets"))\n',
    })
    assert found_in(paths["rail"], Project()) == [(7, 47, "IRI802")]


@pytest.mark.parametrize("call", ["cls.class_url()", "Thing.class_url()", "self.class_url()", "Thing().class_url()"])
def test_a_base_s_classmethod_reads_cls_as_the_class_called_through(tmp_path: Path, call: str) -> None:
    """stripe-python's resources: ``APIResource.class_url()`` reads ``cls.OBJECT_NAME``, which only the subclass
    binds; called through ``Thing`` (or from its methods), ``cls`` is ``Thing`` (fixtures80, repro 02)."""
    receiver = "self" if call.startswith("self") else "cls"
    deco = "" if receiver == "self" else "    @classmethod\n"
    paths = package(tmp_path, "sdk", {
        "base": 'class Base:\n    @classmethod\n    def class_url(cls):\n        return "/v1/" + cls.OBJECT_NAME\n',
        "thing": 'import requests\nfrom sdk.base import Base\n\n\n'
                 'class Thing(Base):\n    OBJECT_NAME = "bank account"\n\n'
                 f'{deco}    def fetch({receiver}):\n        return requests.get("https://api.example" + {call})\n',
    })
    assert found_in(paths["thing"], Project()) == [(6, 23, "IRI101")]


def test_a_base_s_classmethod_called_through_a_subclass_reads_what_it_rebinds(tmp_path: Path) -> None:
    """``Charge.class_url(...)`` with ``Charge`` rebinding ``PREFIX`` that the base binds too: ``cls`` is exactly
    ``Charge``, so its ``PREFIX`` is read (fixtures87, repro 02); a sibling that does not rebind reads the base's."""
    paths = package(tmp_path, "pkg", {
        "base": 'class Resource:\n    HOST = "https://api.example"\n    PREFIX = "/v1"\n\n    @classmethod\n'
                '    def class_url(cls, name):\n        return cls.HOST + cls.PREFIX + "/" + name\n',
        "app": 'import requests\nfrom pkg.base import Resource\n\n\nclass Charge(Resource):\n    PREFIX = "v2"\n\n\n'
               'class Refund(Resource):\n    OBJECT = "refunds"\n\n\nrequests.get(Charge.class_url("items"))\n'
               'requests.get(Charge.class_url("open items"))\nrequests.get(Refund.class_url("open items"))\n',
    })
    assert found_in(paths["app"], Project()) == [(6, 14, "IRI801"), (14, 35, "IRI101"), (15, 35, "IRI101")]


def test_an_inherited_class_constant_outlives_unrelated_bindings_and_a_get_method(tmp_path: Path) -> None:
    """``BASE_URL`` bound in ``K0``'s body only: ``K1`` and ``K2`` both binding ``LEVEL`` change nothing of it
    (fixtures71, repro 01), and a plain class with a method named ``get`` is no client whose requests it
    changes (repro 02): ``self.BASE_URL`` and an object's ``.BASE_URL`` stay known."""
    paths = package(tmp_path, "pk", {
        "k0": 'class K0:\n    BASE_URL = "https://k.example"\n',
        "k1": "from pk.k0 import K0\n\n\nclass K1(K0):\n    LEVEL = 1\n",
        "k2": "from pk.k1 import K1\n\n\nclass K2(K1):\n    LEVEL = 2\n",
        "use": "import requests\nfrom pk.k1 import K1\nfrom pk.k2 import K2\n\n\n"
               "class Three(K2):\n    def fetch(self):\n        return requests.get(self.BASE_URL + 'img')\n\n\n"
               "class Two(K1):\n    def get(self):\n        return requests.get(self.BASE_URL + 'img')\n\n\n"
               "requests.get(Three().BASE_URL + 'img')\nrequests.get(Two().BASE_URL + 'img')\n",
    })
    assert [(line, code) for line, _, code in found_in(paths["use"], Project())] == [
        (8, "IRI801"), (13, "IRI801"), (16, "IRI801"), (17, "IRI801")]


def test_a_url_named_helper_s_own_join_is_reported_where_it_returns_it(tmp_path: Path) -> None:
    """``health_url()`` of another module: its return, a URL-named function's, is checked there, so the join
    it makes is not reported again at each call (one finding per cause, fixtures23); a helper not named so
    is checked at its calls, its pieces placed at the name that brings them."""
    paths = package(tmp_path, "p", {
        "base": 'HOST = "https://h.example"\n\n\ndef health_url():\n    return HOST + "health"\n\n\n'
                'def health():\n    return HOST + "health"\n',
        "use": 'import requests\n\nfrom .base import health, health_url\n\n\n'
               'requests.get(health_url())\nrequests.get(health())\n',
    })
    project = Project()
    assert found_in(paths["use"], project) == [(7, 13, "IRI801")]
    assert found_in(paths["base"], project) == [(5, 19, "IRI801")]


OBJECTS = '''\
import requests


class Api:
    BASE = "https://api.example.com"

    def url(self, path):
        return self.BASE + path

    @staticmethod
    def build(path):
        return "https://api.example.com/" + path

    @classmethod
    def make(cls, path):
        return cls.BASE + "/" + path


api = Api()
requests.get(api.url("/x y"))
requests.get(Api().url("/a b"))
requests.get(api.BASE + "/c d")
requests.get(Api.build("e f"))
requests.get(Api.make("g h"))


def use():
    a = Api()
    return requests.get(a.url("items"))
'''


def test_an_object_a_project_class_makes_is_read_through_its_class() -> None:
    """``api = Api()`` of a class deriving from nothing else: ``api.BASE`` is the class's, ``api.url(...)`` its
    one-return method read at the call; static and class methods through the class too."""
    assert found(OBJECTS) == [(20, 24, "IRI101"), (21, 26, "IRI101"), (22, 27, "IRI101"), (23, 25, "IRI101"),
                              (24, 24, "IRI101"), (29, 31, "IRI801")]


@pytest.mark.parametrize("cls", [
    "@register\nclass Api:\n    BASE = 'https://api.example.com'\n",  # a decorator may return another class
    "class Api:\n    BASE = 'https://api.example.com'\n    def __getattribute__(self, name):\n        return name\n",
    "class Api:\n    BASE = 'https://api.example.com'\n    def __new__(cls):\n        return other\n",
    "class Api(metaclass=Meta):\n    BASE = 'https://api.example.com'\n",
    "class Api:\n    BASE = 'https://api.example.com'\n    def __init__(self, base):\n        self.BASE = base\n",
    "class Api(Base, dict):\n    BASE = 'https://api.example.com'\n",  # several bases: their order decides
    "class Api(Outside):\n    BASE = 'https://api.example.com'\n",  # (an outside class: only its clients are known)
])
def test_what_changes_an_object_leaves_it_a_hole(cls: str) -> None:
    """A decorator, a metaclass, ``__new__``, ``__getattribute__``, an ``__init__`` setting the attribute from an
    argument, or a base outside the project: what the object holds is not what its class body says."""
    text = (f"import requests\nfrom x import register, Meta, Base, Outside\n{cls}"
            "api = Api()\nrequests.get(api.BASE + 'items')\n")
    assert found(text) == []


def test_an_object_made_in_another_module_is_read_through_its_class(tmp_path: Path) -> None:
    """``from pkg.client import api`` (made there by ``Api()``), or ``Api()`` called here: its one-return method
    is read at the call; a subclass chain of the project's classes is read up to the one defining it."""
    paths = package(tmp_path, "pkg", {
        "client": 'class Base:\n    BASE = "https://api.example.com"\n\n    def url(self, path):\n'
                  '        return self.BASE + path\n\n\nclass Api(Base):\n    pass\n\n\napi = Api()\n',
        "use": 'import requests\nfrom pkg.client import api, Api\n\nrequests.get(api.url("/p q"))\n'
               'requests.get(Api().url("nope"))\n',
    })
    assert found_in(paths["use"], Project()) == [(4, 24, "IRI101"), (5, 24, "IRI801")]


@pytest.mark.parametrize("binds", [
    "api.BASE = 'https://fixed.example/'",
    "api.BASE += '/v2/'",
    "setattr(api, 'BASE', 'https://fixed.example/')",
    "api.__dict__.update(BASE='https://fixed.example/')",
    "vars(api)['BASE'] = 'https://fixed.example/'",
])
def test_an_object_whose_attribute_is_bound_outside_its_class_is_a_hole(binds: str) -> None:
    """``api.BASE = ...`` (or ``setattr``, ``__dict__``, ``vars``) gives the object a ``BASE`` of its own: neither
    ``api.BASE`` nor its methods reading ``self.BASE`` are the class's any more (fixtures26, repro 04)."""
    text = ("import requests\n\n\nclass Api:\n    BASE = 'https://api.example.com'\n\n"
            "    def url(self, path):\n        return self.BASE + path\n\n\n"
            f"api = Api()\n{binds}\nrequests.get(api.BASE + 'items')\nrequests.get(api.url('items'))\n")
    assert found(text) == []


def test_a_class_setting_attributes_by_computed_names_makes_holes() -> None:
    """``setattr(self, k, v)`` in ``__init__`` may set any attribute of the object (fixtures26, repro 05); an
    attribute bound on ``self`` in the class's own methods is the class's business, read as before."""
    text = ("import requests\n\n\nclass Cfg:\n    BASE = 'https://f.example.com'\n\n"
            "    def __init__(self, **kw):\n        for k, v in kw.items():\n            setattr(self, k, v)\n\n\n"
            "requests.get(Cfg(BASE='https://ok.example/').BASE + 'v1')\n")
    assert found(text) == []
    kept = text.replace("        for k, v in kw.items():\n            setattr(self, k, v)\n", "        self.n = 1\n")
    assert found(kept) == [(11, 53, "IRI801")]


def test_an_object_s_class_chain_is_its_own_not_its_siblings() -> None:
    """``Api()`` of ``class Api(Base)`` reads ``BASE`` up its own chain: a ``class Sibling(Base)`` binding
    ``BASE`` is no class of the object (fixtures26, repro 01), while for ``self`` in ``Base``'s methods it may
    be; the method called on the object reads ``self`` as that object."""
    text = ("import requests\n\n\nclass Base:\n    BASE = 'https://chain.example.com/'\n\n"
            "    def url(self, path):\n        return self.BASE + path\n\n\n"
            "class Api(Base):\n    pass\n\n\nclass Sibling(Base):\n    BASE = 'https://other.example/'\n\n\n"
            "requests.get(Api().BASE + '/v4')\nrequests.get(Api().url('/v5'))\n")
    assert found(text) == [(19, 27, "IRI802"), (20, 24, "IRI802")]


def test_a_class_attribute_bound_on_another_class_leaves_an_object_known() -> None:
    """``Patched.BASE = ...`` binds ``Patched``'s own attribute (a hole for ``Patched`` and its objects, through
    ``rebound_outside``): an object of another class keeps its class's ``BASE`` (fixtures26's p06)."""
    text = ("import requests\n\n\nclass Api:\n    BASE = 'https://api.example.com'\n\n\n"
            "class Patched:\n    BASE = 'https://p.example.com'\n\n\nPatched.BASE = 'https://p.example.com/'\n"
            "requests.get(Api().BASE + 'items')\nrequests.get(Patched().BASE + 'items')\n")
    assert found(text) == [(13, 27, "IRI801")]


def test_an_object_made_where_it_is_read_was_bound_by_its_class_only() -> None:
    """``Api().BASE``: no statement ran between making the object and reading it, so a ``setattr`` on another
    object of the module leaves it known (fixtures26's p09); ``api.BASE`` of a named object does not."""
    text = ("import requests\n\n\nclass Api:\n    BASE = 'https://api.example.com'\n\n"
            "    def url(self, path):\n        return self.BASE + path\n\n\n"
            "other = Api()\nsetattr(other, 'BASE', 'https://set.example/')\n"
            "requests.get(Api().BASE + 'v1')\nrequests.get(Api().url('v2'))\nrequests.get(other.BASE + 'v3')\n")
    assert found(text) == [(13, 27, "IRI801"), (14, 24, "IRI801")]


def test_a_base_s_method_called_on_a_subclass_object_reads_the_subclass(tmp_path: Path) -> None:
    """``Sub().url("/v4")``, ``url`` defined by ``Api`` in another module, ``Sub`` binding its own ``BASE``: the
    object is given as the method's ``self``, so ``self.BASE`` is ``Sub``'s (fixtures26's p09); for ``self``
    in ``Sub``'s own methods, a class below it may bind ``BASE``, and the call stays a hole."""
    paths = package(tmp_path, "svc", {
        "base": 'class Api:\n    BASE = "https://api.example.com"\n\n    def url(self, path):\n'
                '        return self.BASE + path\n',
        "sub": 'from svc.base import Api\n\n\nclass Sub(Api):\n    BASE = "https://sub.example.com/"\n',
        "use": 'import requests\nfrom svc.sub import Sub\n\nrequests.get(Sub().url("v2"))\n'
               'requests.get(Sub().url("/v4"))\n',
    })
    assert found_in(paths["use"], Project()) == [(5, 24, "IRI802")]


def test_a_join_given_to_a_method_of_an_object_an_imported_class_makes_is_checked(tmp_path: Path) -> None:
    """fixtures183 repro 02: ``StatusPoster("t").send(DASH + "statuses/" + sha)`` with ``send(self, status_url,
    state)`` in another module, in place or through a name bound to the object, module-level, local or kept on
    ``self`` (fixtures185 repro 03)."""
    paths = package(tmp_path, "ci", {
        "status": 'import requests\nDASH = "https://ci.example.dev"\n\n\nclass StatusPoster:\n'
                  '    def __init__(self, token):\n        self.token = token\n\n'
                  '    def send(self, status_url, state):\n        return requests.post(status_url, json=state)\n',
        "notify": 'from ci.status import DASH, StatusPoster\nPOSTER = StatusPoster("t")\n\n\ndef a(sha):\n'
                  '    return StatusPoster("t").send(DASH + "statuses/" + sha, "ok")\n\n\ndef b(sha):\n'
                  '    poster = StatusPoster("t")\n    return poster.send(DASH + "statuses/" + sha, "ok")\n\n\n'
                  'def c(sha):\n    return POSTER.send(DASH + "statuses/" + sha, "ok")\n\n\n'
                  'class Bot:\n    def __init__(self, token):\n        self.poster = StatusPoster(token)\n\n'
                  '    def post(self, sha):\n        return self.poster.send(DASH + "statuses/" + sha, "ok")\n',
    })
    assert found_in(paths["notify"], Project()) == [(6, 42, "IRI801"), (11, 31, "IRI801"), (15, 31, "IRI801"),
                                                    (23, 40, "IRI801")]
