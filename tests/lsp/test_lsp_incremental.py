"""The server's incremental lint equals a full ``lint_text`` after every edit (seeded random edit sequences).

Each sequence types, deletes, pastes and undoes over a real module; after every edit the findings of
``IncrementalLinter`` (which re-lints only the statements the edit touched) must equal those of
``lint_text`` on the whole new text, to the column and the message, and so must a syntax error. The
statements it lints again for hovers and fixes (``view``) must give what ``lint_text`` gives for them:
literals, findings, fix edits and noqa edits. ``IRI_LINT_FUZZ=1`` (``pytest -m fuzz``) runs longer sequences.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest

from iri_lint.config import Config
from iri_lint.fix import source_edits
from iri_lint.lint import SourceError, SourceFinding, lint_text
from iri_lint.lsp.actions import noqa_edit
from iri_lint.lsp.hover import file_literals
from iri_lint.lsp.incremental import IncrementalLinter
from iri_lint.lsp.positions import finding_offsets
from iri_lint.source.edits import SourceEdit
from iri_lint.source.locate import split_lines
from iri_lint.source.model import Literal, SourcePos

# random edits make invalid escapes ("\\q") that ast.parse warns about, in both lints alike
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::SyntaxWarning")

HERE = Path(__file__).resolve().parent
LONG = os.environ.get("IRI_LINT_FUZZ") == "1"
STEPS = 400 if LONG else 70

# complete statements and the pieces an editor's user types, many of them about what the slices share
SNIPPETS = [
    "import requests\n", "s = requests.Session()\n", 'x = "http://example.com/%zz"\n', "  # noqa\n",
    "# flake8: noqa\n", "# iri-lint: noqa: IRI110\n", "TEMPLATE % 3\n", "NAME = 'http://e.com/%s/%zz'\n",
    "@decorator\n", "a = 1; b = 'http://x/ y'\n", " \\\n", "def f():\n    return fetch('http://a b/')\n",
    '"""\n', "(", ")", "\n", "    ", "url = 'x y'\n", "from urllib.request import urlopen\n",
    'f"http://{host}/%zz"', "resp = session.get('http://q/%zz')\n", "  # noqa: IRI110", "\u00e9",
    "\U0001f600", "%", ".format(x)", "class A:\n  u = 'http://a/%zz'\n", "session = None\n",
    "client = requests.Session()\n", "PAGE.replace('name', x)\n", "u = 'http://e.com/\\u202e'\n",
    # what URL values read across statements (issue #27): constants, class and self attributes, bases
    "HOST = 'https://other.example/'\n", "requests.get(HOST + 'docs')\n", "        self.root = 'https://r/x y'\n",
    "class Sub2(Client):\n    base_url = 'https://sub.example'\n", "    global HOST\n", "# nonlocal\n",
    "self.token = HOST\n", "name = 'x'\n", "    def fetch(self):\n        return 1\n",
]
# the fixtures every quick run edits (the real modules of real_files run with the slow mark)
QUICK = ("incremental_module", "values_module")


def real_files() -> list[tuple[str, str]]:
    files = [(name, (HERE / "fixtures" / f"{name}.py.txt").read_text(encoding="utf-8")) for name in QUICK]
    import urllib.parse

    files.append(("urllib.parse", Path(urllib.parse.__file__).read_text(encoding="utf-8")))
    try:
        import rdflib

        files.append(("rdflib.compare", (Path(rdflib.__file__).parent / "compare.py").read_text(encoding="utf-8")))
    except ImportError:  # the test extra pins rdflib; without it the other files still run
        pass
    return files


def in_a_string(rng: random.Random, text: str) -> int | None:
    """An offset just inside a quoted literal on a random line (typing into a URL, say)."""
    lines = text.splitlines(keepends=True)
    quoted = [k for k, line in enumerate(lines) if '"' in line or "'" in line]
    if not quoted:
        return None
    k = rng.choice(quoted)
    line = lines[k]
    quote = max(line.rfind('"'), line.rfind("'"))
    return sum(len(x) for x in lines[:k]) + quote


def edit(rng: random.Random, text: str) -> str:
    """One edit as an editor makes it."""
    r = rng.random()
    pos = rng.randrange(len(text) + 1)
    lines = text.splitlines(keepends=True)
    if r < 0.3:  # type into a string literal (it keeps parsing)
        at = in_a_string(rng, text)
        if at is not None:
            return text[:at] + rng.choice(["a", " ", "%", "/", "%zz", "é", "\\u202e", "{x}", "%s"]) + text[at:]
    if r < 0.45:  # type or delete one character anywhere
        if rng.random() < 0.5:
            return text[:pos] + rng.choice("ab x=:'\"()#\n%/.\\") + text[pos:]
        return text[:pos] + text[pos + rng.choice([1, 1, 2, 7]) :]
    if r < 0.75:  # paste a snippet at the start of a line
        k = rng.randrange(len(lines) + 1)
        return "".join(lines[:k]) + rng.choice(SNIPPETS) + "".join(lines[k:])
    if r < 0.85:  # paste a snippet anywhere
        return text[:pos] + rng.choice(SNIPPETS) + text[pos:]
    if r < 0.93 and lines:  # delete or duplicate a line
        k = rng.randrange(len(lines))
        return "".join(lines[:k] + ([lines[k]] * 2 if rng.random() < 0.4 else []) + lines[k + 1 :])
    if lines:  # join a line with the next
        k = rng.randrange(len(lines))
        return "".join(lines[:k]) + lines[k].rstrip("\r\n") + "".join(lines[k + 1 :])
    return text


def outcome(fn: object, text: str) -> tuple[object, ...]:
    try:
        found = fn(text)  # type: ignore[operator]
    except SourceError as err:
        return ("error", str(err), err.line, err.col)
    return ("ok", [summary(f) for f in found])


def summary(f: SourceFinding) -> tuple[object, ...]:
    fix = f.finding.fix
    return (f.code, f.start, f.end, f.finding.message, f.finding.severity,
            None if fix is None else (fix.safety, fix.description))


def literal(lit: Literal, delta: int = 0) -> tuple[object, ...]:
    start, end = SourcePos(lit.start.line + delta, lit.start.col), SourcePos(lit.end.line + delta, lit.end.col)
    return (lit.value, lit.reason, lit.context, lit.kind, start, end, lit.holes, lit.api, lit.uri_only_api)


def check_view(linter: IncrementalLinter, text: str, config: Config, rng: random.Random) -> None:
    """What hovers and fixes read on a few lines (the statements there, linted alone): the literals,
    findings, fix edits and noqa edits a full lint gives for them, moved by the view's offset."""
    n = text.count("\n") + 1
    first = rng.randint(1, n)
    last = min(n, first + rng.choice([0, 3, 40]))
    view = linter.view(text, first, last)
    assert view is not None
    span = range(view.line_delta + 1, view.line_delta + len(split_lines(view.text)) + 1)
    got = [view.in_document(f) for f in view.findings]
    want = [f for f in lint_text(text, config) if f.start.line in span]
    assert [summary(f) for f in got] == [summary(f) for f in want]
    moved = [literal(lit, view.line_delta) for lit in view.literals]
    assert moved == [literal(lit) for lit in file_literals(text, config) if lit.start.line in span]
    for sf, full in zip(view.findings, want, strict=True):
        assert moved_edits(source_edits(view.text, sf), view.offset) == source_edits(text, full)
        start, _ = finding_offsets(view.text, sf)
        statement = view.statement_of(sf.start.line)
        assert moved_edits(noqa_edit(view.text, start, sf.code, statement), view.offset) == \
            noqa_edit(text, finding_offsets(text, full)[0], sf.code)


def moved_edits(edits: object, by: int) -> object:
    if isinstance(edits, SourceEdit):
        return SourceEdit(edits.start + by, edits.end + by, edits.new)
    if isinstance(edits, list):
        return [moved_edits(e, by) for e in edits]
    return edits  # None, or why there is no fix


# (IRI901 reads every finding before noqa: with it on, the editor lints the whole file; see below)
CONFIGS = {"default": Config(), "all": Config(select=("ALL",), ignore=("IRI901",)), "text": Config(text_mode=True)}


@pytest.mark.parametrize("config", list(CONFIGS), ids=list(CONFIGS))
@pytest.mark.parametrize(("name", "source"), [  # the stdlib and rdflib modules: long sequences on long files
    pytest.param(n, s, id=n, marks=() if n in QUICK else pytest.mark.slow) for n, s in real_files()])
def test_incremental_equals_full_after_every_edit(name: str, source: str, config: str) -> None:
    cfg = CONFIGS[config]
    rng = random.Random(f"{name}/{config}")
    linter = IncrementalLinter(cfg)
    text = last_good = source
    modes: Counter[str] = Counter()
    values: Counter[str] = Counter()
    broken = False
    for step in range(STEPS):
        text = edit(rng, last_good if broken and rng.random() < 0.5 else text)  # undo to what parsed, or go on
        want = outcome(lambda t: lint_text(t, cfg), text)
        broken = want[0] == "error"
        got = outcome(linter.lint, text)
        assert got == want, f"step {step} ({linter.last.describe()})"
        modes[linter.last.mode] += 1
        values[linter.last.values] += 1
        if want[0] == "ok":
            last_good = text
            if rng.random() < 0.25:
                check_view(linter, text, cfg, rng)
    assert modes["incremental"] >= STEPS // 5, modes  # the sequences do exercise the slices
    if name == "values_module":  # and the values found again in the slice only, and in the whole module
        assert values["slice"] >= STEPS // 10 and values["module"], values


def test_typing_into_a_url_relints_one_statement() -> None:
    source = real_files()[0][1]
    linter = IncrementalLinter(Config())
    before = linter.lint(source)
    at = source.index('"http://example.com/items/%zz"') + len('"http://example.com/items/')
    text = source
    for k, ch in enumerate("a%zz"):
        text = text[: at + k] + ch + text[at + k :]
        assert [summary(f) for f in linter.lint(text)] == [summary(f) for f in lint_text(text, Config())]
        assert linter.last.mode == "incremental" and linter.last.linted <= 3, linter.last.describe()
    after = linter.lint(text)
    assert len(after) == len(before)  # the new %zz joins its literal's finding: one per rule
    assert any(f.finding.message.endswith("(and 1 more place in this literal)") for f in after)


def test_new_lines_shift_the_findings_below() -> None:
    source = real_files()[0][1]
    linter = IncrementalLinter(Config())
    before = linter.lint(source)
    at = source.index("def get(")
    text = source[:at] + "x = 1\ny = 2\n\n\n" + source[at:]
    after = linter.lint(text)
    assert linter.last.mode == "incremental"
    below = [f for f in before if f.line >= source[:at].count("\n") + 1]
    assert below and [(f.code, f.line + 4) for f in below] == [(f.code, f.line) for f in after if f.line > 22]


@pytest.mark.parametrize(("change", "why"), [
    (lambda t: t.replace("import logging\n", "import logging, os\n"), "import"),
    (lambda t: t.replace("session = requests.Session()", "session = None"), "bind"),
    (lambda t: t.replace("TEMPLATE % names[0]", "names[0]"), "format"),
    (lambda t: t.replace("def get(name):", "def get(name:"), "parse"),
])
def test_what_the_slices_cannot_stand_for_lints_the_whole_file(change: object, why: str) -> None:
    source = real_files()[0][1]
    linter = IncrementalLinter(Config())
    linter.lint(source)
    text = change(source)  # type: ignore[operator]
    assert text != source
    assert outcome(linter.lint, text) == outcome(lambda t: lint_text(t, Config()), text)
    assert linter.last.mode == "full" and why in linter.last.why, linter.last.describe()


def test_file_level_noqa_is_read_from_the_whole_text() -> None:
    source = real_files()[0][1]
    linter = IncrementalLinter(Config())
    assert linter.lint(source)
    text = source.replace("class Client:", "# iri-lint: noqa: IRI110\nclass Client:")
    assert [summary(f) for f in linter.lint(text)] == [summary(f) for f in lint_text(text, Config())]
    assert linter.last.mode == "incremental"
    assert not any(f.code == "IRI110" for f in linter.lint(text))


def test_unused_noqa_in_the_editor_lints_the_whole_file() -> None:
    config = Config(extend_select=("IRI901",))
    linter = IncrementalLinter(config)
    source = real_files()[0][1] + "x = 1  # noqa: IRI101\n"
    for text in (source, source.replace("x = 1", "x = 2")):
        found = linter.lint(text)
        assert [summary(f) for f in found] == [summary(f) for f in lint_text(text, config)]
        assert any(f.code == "IRI901" for f in found) and linter.last.mode == "full"


def test_a_lone_cr_or_barry_lints_the_whole_file() -> None:
    linter = IncrementalLinter(Config())
    for text in ['x = 1\n\ny = "http://a/%zz"  # noqa\rz = "http://b/%zz"\n',
                 'x = 1\n\ny = "http://a/%zz"  # noqa\rz = "http://b/%zzz"\n',
                 'x = 1\n\ny = "http://a/%zz"\nz = "http://b/%zz"  # barry_as_FLUFL\n']:
        assert outcome(linter.lint, text) == outcome(lambda t: lint_text(t, Config()), text)
        assert linter.last.mode == "full", linter.last.describe()


def test_a_first_lint_answers_as_lint_text_and_the_table_comes_after() -> None:
    """An opened document's first diagnostics come from ``lint_text`` (about 0.4x sooner); until ``lint``
    builds the statement table, hovers and fixes have no view (the server reads the whole file)."""
    source = real_files()[0][1]
    linter = IncrementalLinter(Config())
    assert linter.fresh
    assert [summary(f) for f in linter.first_lint(source)] == [summary(f) for f in lint_text(source, Config())]
    assert not linter.fresh and linter.view(source, 1, 99) is None
    linter.lint(source)
    assert linter.last.mode == "full" and linter.view(source, 1, 99) is not None
    text = source.replace('"http://example.com/items/%zz"', '"http://example.com/items/%zz%zz"')
    assert [summary(f) for f in linter.lint(text)] == [summary(f) for f in lint_text(text, Config())]
    assert linter.last.mode == "incremental"


def test_a_view_of_a_text_with_nothing_iri_like_is_empty() -> None:
    linter = IncrementalLinter(Config())
    assert linter.lint("x = 1\n") == []
    view = linter.view("x = 1\n", 1, 1)
    assert view is not None and view.literals == [] and view.findings == []
    assert linter.view("y = 2\n", 1, 1) is None  # (not the text it linted)


def test_a_url_value_across_statements_is_reported_as_lint_text_reports_it() -> None:
    """Issue #27: a value's pieces stand in several statements; an edit of one changes the finding."""
    text = ('import requests\nHOST = "https://h.example"\n\n\ndef fetch():\n'
            '    return requests.get(HOST + "docs")  # a join without a "/"\n')
    cfg = Config()
    linter = IncrementalLinter(cfg)
    assert [summary(f) for f in linter.lint(text)] == [summary(f) for f in lint_text(text, cfg)]
    assert [f.code for f in linter.lint(text)] == ["IRI801"]
    check_view(linter, text, cfg, random.Random(6))
    view = linter.view(text, 6, 6)
    assert view is not None  # (it starts at the def)
    assert [(f.line, f.col, f.code) for f in view.findings] == [(2, 32, "IRI801")]
    fixed = text.replace('"https://h.example"', '"https://h.example/"')
    assert linter.lint(fixed) == [] == lint_text(fixed, cfg)


def test_a_per_file_ignored_cause_hides_its_consequences_as_lint_text_does() -> None:
    """fixtures129 (repro 01): per-file ignores hide findings after the rules ran, as flake8's do: an ignored IRI801
    still hides the IRI112 its join makes in the port, in the editor as in the command."""
    text = ('import requests\nPARTNER = "https://partner.example.com:8443"\n\n\ndef f():\n'
            '    return requests.get(PARTNER + ":9443/x")\n')
    assert [f.code for f in lint_text(text, Config(), path="hooks.py")] == ["IRI801"]
    cfg = Config(per_file_ignores=(("hooks.py", ("IRI801",)),))
    assert IncrementalLinter(cfg, "hooks.py").lint(text) == [] == lint_text(text, cfg, path="hooks.py")
    assert [f.code for f in IncrementalLinter(Config(ignore=("IRI801",)), "hooks.py").lint(text)] == ["IRI112"]


def test_values_found_again_in_the_slice_only_while_it_exports_what_it_did() -> None:
    """The values used outside an edited statement are kept while it binds what it bound; an edit of what
    another statement reads (here an attribute a subclass's urljoin reads) finds every value again."""
    text = (HERE / "fixtures" / "values_module.py.txt").read_text(encoding="utf-8")
    cfg = Config()
    linter = IncrementalLinter(cfg)
    assert [summary(f) for f in linter.lint(text)] == [summary(f) for f in lint_text(text, cfg)]
    assert "IRI804" in [f.code for f in linter.lint(text)]  # urljoin(self.root, "items") drops "v2"
    steps = [
        ('return requests.get(HOST + "docs")', 'return requests.get(HOST + "docs ")', "slice"),
        ('"""Fetch one item."""', '"""Fetch one item,\n        and more."""', "slice"),  # lines move below
        ('self.root = "https://root.example/v2"', 'self.root = "https://root.example/v2/"', "module"),
        ('HOST = "https://h.example"', 'HOST = "https://h.example/x"', "module"),
        ("    # global HOST", "    # global HOST", "module"),
    ]
    for old, new, values in steps:
        if old == new:  # a comment naming ``global``: the evaluator reads those words from the text
            text = text.replace("def avatar():\n", "def avatar():\n" + new + "\n")
        else:
            assert old in text
            text = text.replace(old, new)
        got = linter.lint(text)
        assert [summary(f) for f in got] == [summary(f) for f in lint_text(text, cfg)], old
        assert (linter.last.mode, linter.last.values) == ("incremental", values), old
    assert "IRI804" not in [f.code for f in linter.lint(text)]


def test_only_the_latest_documents_keep_their_tree_and_the_others_parse_again() -> None:
    """A module tree is about 60x its text: the server keeps those of the KEPT_TREES documents linted last;
    the next edit of another document parses its module again, with the same answer."""
    from iri_lint.lsp.incremental import KEPT_TREES

    source = (HERE / "fixtures" / "values_module.py.txt").read_text(encoding="utf-8")
    cfg = Config()
    linters = [IncrementalLinter(cfg) for _ in range(KEPT_TREES + 1)]
    for linter in linters:
        linter.lint(source)
    first = linters[0]
    assert first.base is not None and first.base.body is None  # let go
    assert all(linter.base is not None and linter.base.body is not None for linter in linters[1:])
    text = source
    for values in ("module", "slice"):
        text = text.replace('HOST + "docs"', 'HOST + "docs/"', 1) if values == "module" else \
            text.replace('"orders/x y"', '"orders/x yz"')  # (in a function of more than a return)
        assert [summary(f) for f in first.lint(text)] == [summary(f) for f in lint_text(text, cfg)]
        assert (first.last.mode, first.last.values) == ("incremental", values)
    assert linters[1].base is not None and linters[1].base.body is None  # the oldest kept, let go in turn


def test_a_file_a_slice_s_values_read_is_watched_too(tmp_path: Path) -> None:
    """Values found again in an edited slice may read another file of the project: when that file changes,
    the next edit finds every value again, as for the files the whole module's values read."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    config = tmp_path / "config.py"
    config.write_text('CDN = "https://cdn.example.net"\n', encoding="utf-8")
    app = tmp_path / "app.py"
    text = ("import requests\nfrom config import CDN\n\n\ndef f():\n    x = 1\n    log(x)\n    return x\n\n\n"
            "def g():\n    return 2\n")
    cfg = Config()
    linter = IncrementalLinter(cfg, str(app))
    assert linter.lint(text) == []
    text = text.replace("return x", 'return requests.get(CDN + "img")')  # a use reading config.py
    assert [f.code for f in linter.lint(text)] == ["IRI801"]
    assert linter.last.values == "slice"
    config.write_text('CDN = "https://cdn.example.net/"\n', encoding="utf-8")
    os.utime(config, ns=(1, 1))  # (another stamp, whatever the clock's resolution)
    text = text.replace("def g():", "def g():\n    pass")  # another statement than the use's
    assert [summary(f) for f in linter.lint(text)] == [summary(f) for f in lint_text(text, cfg, path=str(app))] == []
    assert linter.last.values == "module"


def test_the_project_is_found_from_the_document_not_from_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server matches per-file settings on a path relative to the pyproject's folder; the project's other
    modules are read from where the document is, wherever the server runs (fixtures35, repro 04)."""
    proj = tmp_path / "proj"
    (proj / "shop").mkdir(parents=True)
    (proj / "pyproject.toml").write_text("", encoding="utf-8")
    (proj / "shop" / "__init__.py").write_text("", encoding="utf-8")
    (proj / "shop" / "config.py").write_text('CDN = "https://cdn.example.net"\n', encoding="utf-8")
    app = proj / "shop" / "app.py"
    text = 'import requests\nfrom .config import CDN\n\nrequests.get(CDN + "img/logo.png")\n\n\ndef f():\n    pass\n'
    monkeypatch.chdir(tmp_path)
    linter = IncrementalLinter(Config(), "shop/app.py", file=str(app))
    assert [(f.start, f.code) for f in linter.lint(text)] == [(SourcePos(4, 20), "IRI801")]
    text = text.replace("    pass", "    return 1")  # an edit elsewhere: the values found again
    assert [(f.start, f.code) for f in linter.lint(text)] == [(SourcePos(4, 20), "IRI801")]


def test_a_relatively_imported_url_api_is_found_in_the_slices_too(tmp_path: Path) -> None:
    """A configured API imported with ``from .http import fetch``: the statements linted again after an edit
    bind it as the whole module's scan does."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("", encoding="utf-8")
    app = str(tmp_path / "pk" / "u.py")
    cfg = Config(extra_url_apis=("pk.http.fetch",))
    text = 'from .http import fetch\n\n\ndef f():\n    fetch("/a")\n'
    linter = IncrementalLinter(cfg, "pk/u.py", file=app)
    assert linter.lint(text) == []
    text = text.replace('"/a"', '"/a b"')
    assert [(f.start.line, f.code) for f in linter.lint(text)] == [(5, "IRI101")]
    assert linter.last.mode == "incremental"
    assert [summary(f) for f in linter.lint(text)] == [summary(f) for f in lint_text(text, cfg, path=app)]


def test_the_same_text_is_linted_again_when_a_file_its_values_read_changed(tmp_path: Path) -> None:
    """The document did not change, a module it imports did (saved in the editor): its values are found
    again, not taken from the last lint of this text."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    config = tmp_path / "config.py"
    config.write_text('CDN = "https://cdn.example.net"\n', encoding="utf-8")
    app = str(tmp_path / "app.py")
    text = 'import requests\nfrom config import CDN\nrequests.get(CDN + "/img")\n'
    linter = IncrementalLinter(Config(), app)
    assert linter.first_lint(text) == linter.lint(text) == []
    assert not linter.reads({str(tmp_path / "other.py")}) and linter.reads({os.path.realpath(config)})
    config.write_text('CDN = "https://cdn.example.net/"\n', encoding="utf-8")
    assert [f.code for f in linter.lint(text)] == ["IRI802"]


def test_a_file_whose_only_mark_is_a_url_api_call_is_linted_as_lint_text_lints_it(tmp_path: Path) -> None:
    """A client another module made (``from http_clients import API``): the file has no IRI-like text of its
    own, only calls of a URL API's name; it is linted whole, before and after edits that add or remove a
    literal mark."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "http_clients.py").write_text('import httpx\nAPI = httpx.Client(base_url="https://h.example/v1/")\n',
                                              encoding="utf-8")
    path = str(tmp_path / "app.py")
    cfg = Config()
    linter = IncrementalLinter(cfg, path)
    text = "from http_clients import API\n\n\ndef f():\n    return API.get('items/a b')\n"
    for step in (text, text + "\nLINK = 'https://h.example/ok'\n", text, text.replace("a b", "ab")):
        want = [summary(f) for f in lint_text(step, cfg, path=path)]
        assert [summary(f) for f in linter.lint(step)] == want
        assert bool(want) == ("a b" in step)
    # and slice by slice, as any other: a 5,000-line file of such calls took a whole lint (167 ms) a keystroke
    linter.lint(text)
    edited = text.replace("def f():", "def f():\n    x = 1")
    assert [summary(f) for f in linter.lint(edited)] == [summary(f) for f in lint_text(edited, cfg, path=path)]
    assert linter.last.mode == "incremental", linter.last.describe()


def test_an_edit_of_what_a_client_class_or_setattr_gives_finds_the_values_elsewhere_again() -> None:
    """A client class's ``super().__init__(base_url=...)`` and a module's ``setattr(K, ...)`` decide values
    used in other statements: an edit of either is part of what its statement exports (``source.exports``),
    so those uses are found again, not kept from before the edit."""
    cfg = Config()
    text = ('import aiohttp\nimport requests\n\n\nclass Api(aiohttp.ClientSession):\n    def __init__(self):\n'
            '        super().__init__(base_url="https://h.example/api/")\n\n\n'
            'async def go():\n    return await Api().get("/items")\n\n\n'
            'class K:\n    ROOT = "https://k.example"\n\n\nNOTE = 1\n\n\n'
            'def use():\n    return requests.get(K.ROOT + "docs")\n')
    linter = IncrementalLinter(cfg)
    assert sorted(f.code for f in linter.lint(text)) == ["IRI801", "IRI804"]
    for edited in (text.replace('base_url="https://h.example/api/"', 'base_url="https://h.example/"'),
                   text.replace("NOTE = 1", 'setattr(K, "ROOT", "https://o.example/")')):
        linter.lint(text)
        assert [summary(f) for f in linter.lint(edited)] == [summary(f) for f in lint_text(edited, cfg)]
        assert len(linter.lint(edited)) == 1


def test_an_edit_of_a_helper_s_return_finds_its_calls_values_again() -> None:
    """A one-return helper is read at its calls (``source.helpers``): an edit of its return changes what the
    statement exports, so the values of the calls in other statements are found again."""
    cfg = Config()
    linter = IncrementalLinter(cfg)
    text = ('import requests\nBASE = "https://api.example.com"\n\n\ndef endpoint(path):\n'
            '    return BASE + "/" + path\n\n\nrequests.get(endpoint("items"))\n')
    assert linter.lint(text) == [] == lint_text(text, cfg)
    text = text.replace('return BASE + "/" + path', 'return BASE + path')  # the host becomes api.example.comitems
    got = linter.lint(text)
    assert [summary(f) for f in got] == [summary(f) for f in lint_text(text, cfg)]
    assert [f.code for f in got] == ["IRI801"] and linter.last.values == "module"
