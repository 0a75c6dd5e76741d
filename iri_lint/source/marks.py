"""Which lines of a module are worth walking: the text a candidate IRI literal or a URL context needs.

A file with none (no ``://``, no quoted registered scheme, no URL-named variable or URL API) is not
parsed at all; in the others, only the statements that span a marked line are walked.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import partial
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple

from iri_lint.data.schemes import REGISTERED
from iri_lint.source.url_apis import DEFAULT_URL_APIS, parse_extra_api

if TYPE_CHECKING:
    from iri_lint.source.locate import SourceFile

__all__ = ["DEFAULT_OPTIONS", "ScanOptions", "api_call_lines", "api_call_lines_of", "api_words", "call_lines",
           "imported_names", "last_word", "marked_lines", "marked_lines_of", "matching_open", "may_give_base",
           "may_join", "names_class", "spans_lines", "word_starts"]


class ScanOptions(NamedTuple):
    """What counts as a candidate literal (all have quiet defaults)."""

    url_names: tuple[str, ...] = ("url", "uri", "href")
    extra_url_apis: tuple[str, ...] = ()  # "pkg.mod.func", "pkg.mod.Class().method:1", "pd.read_csv:url-or-path"
    include_bytes: bool = False
    include_docstrings: bool = False
    prefilter: bool = True  # skip files whose text cannot hold a candidate


DEFAULT_OPTIONS = ScanOptions()


_MARKER_CACHE: dict[ScanOptions, tuple[re.Pattern[str], ...]] = {}
_AUTHORITY_MARK = re.compile(r"://")
# a quoted scheme not followed by "//" (that is found above), one pattern per quote: a pattern that starts
# with a character is found at C speed, where a class ([\"']) is tested at every position (2.6x the time)
_QUOTED_SCHEMES = tuple(re.compile(q + r"[A-Za-z][A-Za-z0-9+.\-]*+:(?!//)") for q in "\"'")
# a name bound to one of these modules marks the lines that use it
_API_ROOTS = frozenset(api.name.split(".", 1)[0] for api in DEFAULT_URL_APIS)
_ROOTS_RE = "|".join(sorted(_API_ROOTS))
_IMPORT_MARKS = (
    re.compile(rf"import[ \t]++(?:{_ROOTS_RE})\b"),
    re.compile(rf"from[ \t]++(?:{_ROOTS_RE})\b"),
)
# a client class's call with arguments, the first of which may be its base (``TileSession(TILE_ROOT)``, an SDK's
# class that hands base_url on: fixtures194 repro 01); what it makes is decided by its class, where it is read
_CLIENT_CALLS = (re.compile(r"Session[ \t]*+\((?![ \t]*+\))"), re.compile(r"Client[ \t]*+\((?![ \t]*+\))"))
# in a module that defines a client class, its ``super().__init__(...)`` with arguments, which may hand a base on
# positionally (``super().__init__(TILES, **kw)``: a line without URL text)
_CLASS_BASES = re.compile(r"class[ \t]++\w++[ \t]*+\(([^)\n]*+)")
_SUPER_INIT = re.compile(r"super\(\)\.__init__\((?![ \t]*+\))")


def _name_regexes(options: ScanOptions) -> tuple[re.Pattern[str], ...]:
    """URL-like names (on lowercased text): url, uri, href and configured ones, plurals and numbered ones too.

    One pattern per name: each starts with its name, which is found at C speed, where
    ``(?:href|uri|url)s?\\b`` tries every position of the text (twice the time of the three)."""
    pats = _MARKER_CACHE.get(options)
    if pats is None:
        names = {n.lower() for n in options.url_names}
        for spec in options.extra_url_apis:
            names.add(spec.split(":")[0].rsplit(".", 1)[-1].lower())
        # (no names: the empty one, as in the single pattern this was; it marks every line with a word)
        # (numbered or versioned too: url2, mirror_url_2, users_url_v2)
        pats = _MARKER_CACHE[options] = tuple(re.compile(re.escape(n) + r"s?(?:_?v?[0-9]++)?\b")
                                              for n in sorted(names) or [""])
    return pats


def marked_lines(source: SourceFile, options: ScanOptions, extra: Sequence[str] = ()) -> list[int]:
    """Sorted 1-based lines holding text that a candidate or a URL context needs (with ``extra`` words:
    the lines holding one of them; calls: ``call_lines``)."""
    return _marked(source.text, source.line_offsets, options, extra)


def marked_lines_of(lines: Sequence[str], options: ScanOptions) -> list[int]:
    """``marked_lines`` of a module given as its lines, without a ``SourceFile``: the flake8 entry point's
    pre-check, which imports nothing of the source layer but this module (docs/design.md, "Lazy boundaries")."""
    return _marked("".join(lines), [0, *accumulate(map(len, lines))], options)


@functools.lru_cache(maxsize=16)
def api_words(extra_url_apis: tuple[str, ...] = ()) -> frozenset[str]:
    """The last words of the URL APIs' names (``get`` of ``httpx.Client().get``): a call of one of them may
    reach a URL API."""
    names = [api.name for api in DEFAULT_URL_APIS] + [parse_extra_api(spec).name for spec in extra_url_apis]
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


def api_call_lines(source: SourceFile, options: ScanOptions) -> list[int]:
    """The lines calling a URL API's name (``API.get(``) in a module that imports anything. What a file with
    no ``marked_lines`` needs parsing for: a client or a constant another module of the project made
    (``from pkg.clients import API``, then ``API.get("items/a b")``) reaches a URL API there."""
    return _call_lines(source.text, source.line_offsets, options)


def api_call_lines_of(lines: Sequence[str], options: ScanOptions) -> list[int]:
    """``api_call_lines`` of a module given as its lines (the flake8 entry point's pre-check)."""
    return _call_lines("".join(lines), [0, *accumulate(map(len, lines))], options)


def _call_lines(text: str, offsets: list[int], options: ScanOptions) -> list[int]:
    if "import" not in text:  # (every URL API and every other module is reached through an import)
        return []
    # (and a helper of the project given a join: ``get_json(API + "/x")``, the module's only URL)
    return call_lines(text, offsets, api_words(tuple(options.extra_url_apis)), frozenset(), imported_names(text))


# a call read backwards: "(", blanks, the word called, and the word before its dot if any (``helpers.fetch(``)
# (a repeated group keeps its last match: read backwards, the chain's first name, ``pkg`` of ``pkg.utils.f(``)
# (``)`` last: the receiver is a call's value, ``Poster(t).send(``)
_CALL_BACKWARDS = re.compile(r"\([ \t]*+(\w++)(?:[ \t]*+\.[ \t]*+(\w++))*+(?:[ \t]*+\.[ \t]*+(\)))?+")
# what stands before a call on its line when its value is bound to a name: ``poster = Poster(t)``
_BOUND_TO = re.compile(r"[ \t]*+((?:self[ \t]*+\.[ \t]*+)?+\w++)[ \t]*+=[ \t]*+$")  # (``self.poster = ...`` too)


def call_lines(text: str, offsets: list[int], api: frozenset[str], own: frozenset[str],
               imported: frozenset[str]) -> list[int]:
    """The lines (1-based; ``offsets``: where each starts) calling a name of ``api``; or one of ``own`` (the
    module's functions taking a URL) with arguments that may join a value or give another call's; or one of
    ``imported`` (holding ``*``, a star import's: any name), or a function of a module of theirs (``helpers.fetch(``,
    ``pkg.utils.f(``), with arguments that may join text (``may_join``). Not in a ``raise``: an exception's class
    takes no URL. One search of the reversed text for every call: every ``(`` is a call or a group, and the words
    share few first characters (0.4x the time of a search per first character, on run.py's default corpus)."""
    backwards = text[::-1]
    n = len(text)
    lines: set[int] = set()
    star = "*" in imported
    calls = list(_CALL_BACKWARDS.finditer(backwards))
    made = _made_by(text, offsets, calls, imported)  # (objects an imported class makes: their methods too)
    kept_on_self = any(name.startswith("self.") for name in made)
    for m in calls:
        word = m[1][::-1]
        if word in api:
            lines.add(bisect_right(offsets, n - m.end(1)))
            continue
        receiver = m[2][::-1] if m[2] is not None else None
        if receiver == "self" and kept_on_self:  # (``self.poster.send(``: the attribute an object is kept in)
            receiver = ".".join("".join(m[0][::-1].split()).split(".")[:2])
        helper = word in imported or star or (receiver is not None and (receiver in imported or receiver in made)) \
            or (m[3] is not None and receiver is None and _made_in_place(text, n - m.end(3), imported))
        if not (helper or word in own):
            continue
        line = bisect_right(offsets, n - m.end(1))
        if line in lines or text.startswith("raise", _indent_end(text, offsets[line - 1])):
            continue
        if may_join(text, n - m.start(), _JOINED_TEXT if helper else _JOINED):
            lines.add(line)
    return sorted(lines)


def _made_by(text: str, offsets: list[int], calls: list[re.Match[str]], imported: frozenset[str]) -> frozenset[str]:
    """The names bound to a call of an imported name (``poster = Poster(t)``, ``api = sdk.Api()``): a method of
    such an object may take a URL-named parameter, as the imported function may (fixtures183 repro 02)."""
    n = len(text)
    out = set()
    for m in calls:
        root = (m[2] or m[1])[::-1]
        if root in imported and names_class(m[1][::-1]):
            start = n - m.end()
            if (bound := _BOUND_TO.match(text, offsets[bisect_right(offsets, start) - 1], start)) is not None:
                out.add("".join(bound[1].split()))
    return frozenset(out)


def names_class(name: str) -> bool:
    """Whether a callee's name is a class's, in PEP 8's CapWords (``Poster``): the object its call makes may
    have methods taking URLs; any other call's value (``Model.objects.filter(...)``) is not followed."""
    return name[:1].isupper()


def _made_in_place(text: str, close: int, imported: frozenset[str]) -> bool:
    """Whether the call whose ``)`` is at ``close`` makes an object of an imported class (``Poster(t).send(``,
    ``sdk.Api().get(``), its parentheses read back at most ``_ARGS_READ`` characters."""
    opening = matching_open(text, close, "()", _ARGS_READ)
    m = _CALLEE_BEFORE.search(text, max(0, opening - 100), opening) if opening >= 0 else None
    if m is None:
        return False
    chain = "".join(m[1].split()).split(".")
    return chain[0] in imported and names_class(chain[-1])


_CALLEE_BEFORE = re.compile(r"(\w++(?:[ \t]*+\.[ \t]*+\w++)*+)[ \t]*+$")


def matching_open(text: str, close: int, pair: str, within: int, *, one_line: bool = False) -> int:
    """Where the opening bracket of ``pair`` matching the closing one at ``close`` stands, read back at most
    ``within`` characters (on its line only, ``one_line``); -1 when it is not there."""
    opener, closer = pair[0], pair[1]
    depth = 0
    for i in range(close, max(close - within, -1), -1):
        c = text[i]
        if c == closer:
            depth += 1
        elif c == opener:
            depth -= 1
            if not depth:
                return i
        elif one_line and c == "\n":
            return -1
    return -1


def _indent_end(text: str, start: int) -> int:
    """Where the text of a line starting at ``start`` starts after its indent."""
    i = start
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


# what an import statement imports (parenthesized: on many lines); the line before it says from where
_IMPORT_WORD = re.compile(r"import[ \t]++(\([^)]*+\)|[^\n#;]*+)")  # (led by a literal: found at C speed)
_IMPORTED = re.compile(r"([\w.]++|\*)(?:[ \t]++as[ \t]++(\w++))?")
_FROM = re.compile(r"from[ \t]++([.\w]++)[ \t]++")


def imported_names(text: str) -> frozenset[str]:
    """The names a module's import statements bind, read from its text (``import a.b`` binds ``a``; ``*`` for a
    star import), but those of the standard library's modules: what a helper of the project given a URL may be
    called by."""
    out: set[str] = set()
    for m in _IMPORT_WORD.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        head = text[start : m.start()].strip(" \t")
        if head:  # (``from m import``; any other text before ``import`` is no import statement of its line)
            f = _FROM.fullmatch(head + " ")
            if f is None:
                continue
            module: str | None = f[1]
        else:
            module = None
        if module is not None and not module.startswith(".") and module.split(".", 1)[0] in sys.stdlib_module_names:
            continue
        for n in _IMPORTED.finditer(m[1]):
            top = n[1].split(".", 1)[0]
            if module is not None or top not in sys.stdlib_module_names:
                out.add(n[2] or (n[1] if module is not None else top))
    return frozenset(w for w in out if w.isidentifier() or w == "*")


# (arguments that may give a call a join: an operator, an f-string, a string's method that joins; or another
# call's value, ``fetch(build_link("x"))``, which only the module's own functions are read for)
_JOINED_TEXT = re.compile(r"[+%]|\b[rR]?[fF][rR]?[\"']|\.\s*+(?:format|format_map|join)\s*+\(|\burljoin\s*+\("
                          r"|(?i:ur[li]|href)s?\s*+\(")  # (a URL-named helper's value: ``get_json(item_url(x))``)
_JOINED = re.compile(_JOINED_TEXT.pattern + r"|\w\s*+\(")
_ARGS_READ = 400


def may_join(text: str, start: int, joined: re.Pattern[str] = _JOINED) -> bool:
    """Whether the arguments of a call opened just before ``start`` may join a value (``joined`` finds one
    before the call closes, on its line or the next), or go on for more than ``_ARGS_READ`` characters."""
    depth = 1
    for p in _PARENTHESES(text, start, min(len(text), start + _ARGS_READ)):
        depth += 1 if p[0] == "(" else -1
        if not depth:
            return joined.search(text, start, p.start()) is not None
    return True


_PARENTHESES = re.compile(r"[()]").finditer


def _marked(text: str, offsets: list[int], options: ScanOptions, extra: Sequence[str] = ()) -> list[int]:
    starts: list[int] = []
    if extra:
        starts = word_starts(text, extra)
    else:
        starts = [m.start() for m in _AUTHORITY_MARK.finditer(text)]
        for pat in _QUOTED_SCHEMES:
            for m in pat.finditer(text):
                if m.group()[1:-1].lower() in REGISTERED:  # not "Label:" text
                    starts.append(m.start())
        for pat in (*_IMPORT_MARKS, *_CLIENT_CALLS):  # function-level imports of URL API modules, client classes
            starts.extend([m.start() for m in pat.finditer(text)])
        if any("Session" in m[1] or "Client" in m[1] for m in _CLASS_BASES.finditer(text)):
            starts.extend([m.start() for m in _SUPER_INIT.finditer(text)])
        low = text.lower()
        for pattern in _name_regexes(options):
            if len(low) == len(text):
                starts.extend([m.start() for m in pattern.finditer(low)])
            else:  # lowering changed lengths ('İ' is two code points lowered): offsets must stay the text's
                starts.extend([m.start() for m in re.finditer(pattern.pattern, text, re.IGNORECASE)])
    return sorted(set(map(partial(bisect_right, offsets), starts)))


@functools.lru_cache(maxsize=1024)
def _words_regex(words: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for words that share their first characters: their common prefix, then what follows it
    in each (the longest first), then a word's end."""
    prefix = words[0][: min(map(len, words))]
    while not all(w.startswith(prefix) for w in words):
        prefix = prefix[:-1]
    rests = sorted({w[len(prefix) :] for w in words}, key=lambda r: (-len(r), r))
    alternatives = "" if rests == [""] else "(?:" + "|".join(map(re.escape, rests)) + ")"
    return re.compile(re.escape(prefix) + alternatives + r"\b")


def word_starts(text: str, words: Sequence[str]) -> list[int]:
    """Where each identifier of ``words`` stands as a whole word in ``text`` (``\\bword\\b``), in no particular
    order (a word called: ``call_lines``).

    One search per group of words with the same first character (``url``, ``urljoin``, ``urlopen``: one): a
    pattern that starts with a literal character is found at C speed, where ``\\b(?:a|b)\\b`` tries every
    position of the text. Inside a match no other word can start (an identifier goes on there)."""
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[:1], []).append(word)
    out: list[int] = []
    for group in groups.values():
        for m in _words_regex(tuple(group)).finditer(text):
            i = m.start()
            if i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"):  # what \\w is, as a class
                out.append(i)
    return out


_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def spans_lines(node: ast.stmt, lines: list[int]) -> bool:
    """Whether a statement spans one of the sorted ``lines`` (its decorators included)."""
    first = node.lineno
    if type(node) in _DECORATED and node.decorator_list:  # type: ignore[attr-defined]
        first = min(first, *(d.lineno for d in node.decorator_list))  # type: ignore[attr-defined]
    i = bisect_left(lines, first)
    return i < len(lines) and lines[i] <= (node.end_lineno or first)


def may_give_base(call: ast.Call) -> bool:
    """Whether a call gives a ``base_url`` by keyword, or first something a URL may be: a join, text with a ':', a
    constant's or a URL-named name (a project class's other calls are not resolved: that reads its module)."""
    if any(k.arg == "base_url" for k in call.keywords):
        return True
    if not call.args:
        return False
    first = call.args[0]
    if type(first) is ast.Constant:
        return type(first.value) is str and ":" in first.value
    word = last_word(first)
    return type(first) in (ast.BinOp, ast.JoinedStr) or word.isupper() or \
        word.lower().endswith(DEFAULT_OPTIONS.url_names)


def last_word(func: ast.expr) -> str:
    """The name an expression ends with (``Poster`` of ``api.Poster``; "" for another expression)."""
    return func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
