"""Editor latency: a scripted LSP client types into a large file and times the diagnostics.

    python benchmarks/lsp_latency.py                       # 5,000 lines, 200 IRIs, 120 keystrokes
    python benchmarks/lsp_latency.py --strict              # exit 1 when a goal is missed
    python benchmarks/lsp_latency.py --pythonpath /tmp/old  # the server of another checkout

The client speaks JSON-RPC over ``iri-lint server``'s stdin/stdout: it opens a generated module,
types words into IRI paths, comments and a new statement (60-160 ms between keys, in bursts of
1-6 keys), and times each burst's last keystroke to the diagnostics for that version. The server
reports its own lint time per run as ``$/logTrace`` (the client asks for traces in ``initialize``).
Before and after the typing it times hovers on IRI literals and code actions at diagnostics, as an
editor asks for them (a light bulb's request names no ``only`` kind), spread over the file.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOALS = {"latency_ms": 150, "lint_ms": 30, "open_ms": 150, "request_ms": 30}

HEADER = '''"""Clients for the example services (generated for the editor latency benchmark).

The API is described at https://docs.example.com/api/ and the changelog lives in CHANGES.md.
"""

from __future__ import annotations

import json
import logging
import os
from urllib.parse import urljoin
from urllib.request import urlopen

import requests

log = logging.getLogger(__name__)
API_ROOT = "https://api.example.com/v1/"
session = requests.Session()

'''

# one block: a class of about 50 lines holding two IRIs (every fifth holds a problem)
BLOCK = '''

class Client{n}:
    """A client for service {n}: fetches items and reports on them."""

    base_url = "https://svc{n}.example.com/api/"
    retries = {r}

    def __init__(self, token: str, timeout: float = 5.0) -> None:
        self.token = token
        self.timeout = timeout
        self.cache: dict[str, object] = {{}}
        self.hits = 0
        self.misses = 0

    def headers(self) -> dict[str, str]:
        return {{"Authorization": f"Bearer {{self.token}}", "Accept": "application/json"}}

    def fetch(self, item_id: int) -> dict[str, object]:
        key = f"item-{{item_id}}"
        if key in self.cache:
            self.hits += 1
            return self.cache[key]  # type: ignore[return-value]
        self.misses += 1
        resp = session.get({second}, headers=self.headers(), timeout=self.timeout)
        resp.raise_for_status()
        data = resp.json()
        self.cache[key] = data
        log.debug("fetched %s from service {n} (%d hits, %d misses)", key, self.hits, self.misses)
        return data

    def summary(self, items: list[int]) -> dict[str, int]:
        counts: dict[str, int] = {{}}
        for item_id in items:
            data = self.fetch(item_id)
            kind = str(data.get("kind", "unknown"))
            counts[kind] = counts.get(kind, 0) + 1
            if len(counts) % 10 == 0:
                log.info("service {n}: %d kinds so far", len(counts))
        total = sum(counts.values())
        if total > {r} * 100:
            log.warning("service {n}: %d items is a lot", total)
        return counts

    def dump(self, path: str) -> None:
        with open(os.path.join(path, "client{n}.json"), "w", encoding="utf-8") as fh:
            json.dump({{"hits": self.hits, "misses": self.misses, "size": len(self.cache)}}, fh)


def check_client{n}(client: Client{n}) -> bool:
    """Whether service {n} answers (its status page)."""
    return client.hits >= 0 and urljoin(client.base_url, "status") != ""
'''

SECOND = [
    'f"https://svc{n}.example.com/items/{{item_id}}"',
    'f"https://svc{n}.example.com/items/{{item_id}}?lang=fr"',
    '"http://svc{n}.example.com/items/%zz"',  # IRI110
    'f"https://svc{n}.example.com/caf\u00e9/{{item_id}}"',
    '"http://svc{n}.example.com/a b"',  # IRI101
    'f"https://svc{n}.example.com/\u05e9\u05dc\u05d5\u05dd{n}/{{item_id}}"',  # IRI205, a safe fix
]


def generate(lines: int = 5000, iris: int = 200) -> str:
    """A realistic module: imports, a module-level session, classes and functions, ``iris`` IRI literals."""
    blocks = []
    n = 0
    while len(blocks) * 2 < iris:
        second = SECOND[n % len(SECOND)].format(n=n)
        blocks.append(BLOCK.format(n=n, r=n % 7 + 1, second=second))
        n += 1
    text = HEADER + "".join(blocks)
    have = text.count("\n")
    filler = []
    i = 0
    while have + len(filler) * 6 < lines:
        filler.append(f"\n\ndef helper{i}(values: list[int]) -> int:\n    total = 0\n"
                      f"    for v in values:\n        total += v * {i % 9 + 1}\n    return total\n")
        i += 1
    # spread the helpers between the classes, so that every part of the file looks alike
    parts = text.split("\n\n\nclass ")
    out = [parts[0]]
    per = max(1, len(filler) // max(1, len(parts) - 1))
    for k, part in enumerate(parts[1:]):
        out.append("\n\n\nclass " + part)
        out.extend(filler[k * per : (k + 1) * per])
    out.extend(filler[(len(parts) - 1) * per :])
    return "".join(out)


# ---------------------------------------------------------------------------- the scripted client
class Client:
    """A minimal LSP client over the server's stdin/stdout (JSON-RPC with Content-Length framing)."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.published: list[tuple[float, str, int | None, list[dict[str, Any]]]] = []  # (time, uri, version, ...)
        self.traces: list[str] = []
        self.new_publication = asyncio.Event()
        self.reader = asyncio.create_task(self.read())

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await asyncio.wait_for(future, 60)

    async def read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = await stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(await stream.readexactly(length))
            now = time.perf_counter()
            method = message.get("method")
            if method is None:
                future = self.pending.pop(message.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(message.get("result"))
            elif "id" in message:  # a request from the server (registerCapability, configuration)
                result: Any = [None] * len(message["params"].get("items", ())) \
                    if method == "workspace/configuration" else None
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif method == "textDocument/publishDiagnostics":
                params = message["params"]
                self.published.append((now, params["uri"], params.get("version"), params["diagnostics"]))
                self.new_publication.set()
            elif method == "$/logTrace":
                self.traces.append(message["params"]["message"])

    async def diagnostics_for(self, version: int, uri: str | None = None,
                              timeout: float = 30) -> tuple[float, list[dict[str, Any]]]:
        """When diagnostics for ``version`` (or a later one) of ``uri`` (any) arrived, and what they were."""
        deadline = time.perf_counter() + timeout
        while True:
            for when, u, v, diags in self.published:
                if v is not None and v >= version and uri in (None, u):
                    return when, diags
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no diagnostics for version {version} within {timeout} s")
            self.new_publication.clear()
            try:
                await asyncio.wait_for(self.new_publication.wait(), remaining)
            except TimeoutError:
                pass


@dataclass
class Keystroke:
    line: int  # 0-based
    col: int
    insert: str  # "" with delete=True: backspace before (line, col)
    delete: bool = False


def plan_typing(text: str, keystrokes: int, seed: int) -> list[list[Keystroke]]:
    """Keystrokes at sites spread over the file (IRI paths, comments, a new statement, typos fixed),
    each site's cut into bursts of 1-6 keys: a pause after each burst is when diagnostics are timed."""
    rng = random.Random(seed)
    lines = text.split("\n")
    words = ["v2/", "items/", "search", "?q=", "caf\u00e9/", "docs/", "a%20b/", "%zz/", "x y"]
    comments = ["  # reset on clear", "  # see the docs", "  # TODO: count per kind"]
    statements = ["        retries_total = self.retries * 2", "        url = self.base_url + 'items'"]
    bursts: list[list[Keystroke]] = []
    typed = 0
    while typed < keystrokes:
        sites = {kind: [i for i, s in enumerate(lines) if s.strip().startswith(start)] for kind, start in
                 (("url", "base_url = "), ("hits", "self.hits = 0"), ("raise", "resp.raise_for_status()"))}
        kind = rng.random()
        action: list[Keystroke] = []
        if kind < 0.6:  # a word in the path of an IRI (before its closing quote)
            line = rng.choice(sites["url"])
            col = len(lines[line]) - 1
            for ch in rng.choice(words):
                action.append(Keystroke(line, col, ch))
                col += 1
            if rng.random() < 0.3:  # a typo, corrected
                action += [Keystroke(line, col, "q"), Keystroke(line, col + 1, "", delete=True)]
        elif kind < 0.85:  # a comment at the end of a line
            line = rng.choice(sites["hits"])
            col = len(lines[line])
            action = [Keystroke(line, col + k, ch) for k, ch in enumerate(rng.choice(comments))]
        else:  # a new statement: Enter (auto-indented), then the line; most states on the way do not parse
            line = rng.choice(sites["raise"])
            stmt = rng.choice(statements)
            action = [Keystroke(line, len(lines[line]), "\n" + stmt[:8])]
            action += [Keystroke(line + 1, 8 + k, ch) for k, ch in enumerate(stmt[8:])]
        for key in action:  # keep the model in step: later sites are found on the new text
            lines = _apply(lines, key)
        typed += len(action)  # (whole actions: the last text parses)
        while action:  # a burst never spans two sites: moving elsewhere takes longer than a keystroke
            n = rng.randint(1, 6)
            bursts.append(action[:n])
            action = action[n:]
    return bursts


def _apply(lines: list[str], key: Keystroke) -> list[str]:
    line = lines[key.line]
    if key.delete:
        new = line[: key.col - 1] + line[key.col :]
        return [*lines[: key.line], new, *lines[key.line + 1 :]]
    new = line[: key.col] + key.insert + line[key.col :]
    return [*lines[: key.line], *new.split("\n"), *lines[key.line + 1 :]]


def _change(key: Keystroke) -> dict[str, Any]:
    if key.delete:
        start = {"line": key.line, "character": key.col - 1}
        return {"range": {"start": start, "end": {"line": key.line, "character": key.col}}, "text": ""}
    at = {"line": key.line, "character": key.col}
    return {"range": {"start": at, "end": at}, "text": key.insert}


@dataclass
class Result:
    open_ms: list[float]  # one figure per round (a copy of the file opened, then closed)
    open_ratios: list[float]  # each round's figure / ast.parse of the file timed just before it
    hover_ms: dict[str, list[float]]  # "after open" / "after typing" -> one figure per hover
    action_ms: dict[str, list[float]]  # the same, code actions at each diagnostic (no "only": a light bulb)
    fix_all_ms: float  # "fix all safe problems" asked for by name (as on save), after open
    latencies_ms: list[float]
    lint_ms: list[float]
    modes: dict[str, int]
    exact: bool
    keystrokes: int
    traces: list[str]


async def time_requests(client: Client, uri: str, text: str, diagnostics: list[dict[str, Any]],
                        count: int) -> tuple[list[float], list[float], float]:
    """Hovers on ``count`` IRI literals spread over the file, code actions (as a light bulb asks: no
    ``only``) at ``count`` diagnostics, the time of each round trip in ms; and of "fix all" (on save)."""
    lines = text.split("\n")
    sites = [(i, line.index('"') + 3) for i, line in enumerate(lines) if line.strip().startswith("base_url = ")]
    hovers: list[float] = []
    for line, col in _spread(sites, count):
        started = time.perf_counter()
        got = await client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                          "position": {"line": line, "character": col}})
        hovers.append((time.perf_counter() - started) * 1000)
        assert got is not None, f"no hover at {line}:{col}"
    actions: list[float] = []
    for diag in _spread([d for d in diagnostics if d.get("code")], count):
        started = time.perf_counter()
        got = await client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
        actions.append((time.perf_counter() - started) * 1000)
        assert got, f"no code action for {diag['code']} at {diag['range']['start']}"
    everything = {"start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}
    started = time.perf_counter()
    got = await client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": everything,
                                                           "context": {"diagnostics": [], "only": ["source.fixAll"]}})
    fix_all = (time.perf_counter() - started) * 1000
    assert got and got[0].get("edit"), "no fix-all edit"
    return hovers, actions, fix_all


def _spread(items: list[Any], count: int) -> list[Any]:
    step = max(1, len(items) // max(1, count))
    return items[::step][:count]


async def run_session(server: list[str], text: str, keystrokes: int, seed: int, pause: float,
                      env: dict[str, str] | None = None, requests: int = 20, open_rounds: int = 4) -> Result:
    """Open the file, type the planned bursts, and time every burst's diagnostics."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big_module.py"
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        proc = await asyncio.create_subprocess_exec(*server, stdin=asyncio.subprocess.PIPE,
                                                    stdout=asyncio.subprocess.PIPE, env=env, cwd=tmp)
        client = Client(proc)
        await client.request("initialize", {
            "processId": os.getpid(), "rootUri": Path(tmp).as_uri(), "trace": "verbose",
            "capabilities": {"general": {"positionEncodings": ["utf-16"]},
                             "textDocument": {"publishDiagnostics": {"versionSupport": True},
                                              "synchronization": {"didSave": True},
                                              # as VS Code: an action's edit is asked for when it is picked
                                              "codeAction": {"dataSupport": True,
                                                             "resolveSupport": {"properties": ["edit"]}}}}})
        client.notify("initialized", {})
        open_ms: list[float] = []
        open_ratios: list[float] = []
        for k in range(open_rounds):  # copies, each opened, timed against ast.parse just before, closed
            other = (Path(tmp) / f"copy_{k}.py").as_uri()
            floor = _parse_ms(text, 1)
            start = time.perf_counter()
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": other, "languageId": "python", "version": 1, "text": text}})
            when, _ = await client.diagnostics_for(1, other)
            open_ms.append((when - start) * 1000)
            open_ratios.append(open_ms[-1] / floor)
            client.notify("textDocument/didClose", {"textDocument": {"uri": other}})
            await asyncio.sleep(2 * pause)
        floor = _parse_ms(text, 1)
        start = time.perf_counter()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}})
        when, first = await client.diagnostics_for(1, uri)
        open_ms.append((when - start) * 1000)
        open_ratios.append(open_ms[-1] / floor)
        hover_ms: dict[str, list[float]] = {}
        action_ms: dict[str, list[float]] = {}
        phase = "after open"
        hover_ms[phase], action_ms[phase], fix_all_ms = await time_requests(client, uri, text, first, requests)
        client.traces.clear()
        await asyncio.sleep(pause)
        version = 1
        lines = text.split("\n")
        latencies: list[float] = []
        rng = random.Random(seed + 1)
        for burst in plan_typing(text, keystrokes, seed):
            sent = 0.0
            for k, key in enumerate(burst):
                if k:
                    await asyncio.sleep(rng.uniform(0.06, 0.16))  # 60-160 ms between keys: 6-16 keys a second
                version += 1
                lines = _apply(lines, key)
                client.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version}, "contentChanges": [_change(key)]})
                sent = time.perf_counter()
            when, _ = await client.diagnostics_for(version, uri)
            latencies.append((when - sent) * 1000)
            await asyncio.sleep(rng.uniform(pause, 2 * pause))  # reading what was typed
        final = next(d for _, u, v, d in reversed(client.published) if u == uri and v == version)
        exact = _same_as_full_lint("\n".join(lines), final)
        phase = "after typing"  # (the statements below each edit have moved since they were linted)
        hover_ms[phase], action_ms[phase], _ = await time_requests(client, uri, "\n".join(lines), final, requests)
        await client.request("shutdown", None)
        client.notify("exit", None)
        await asyncio.wait_for(proc.wait(), 10)
    lint_ms: list[float] = []
    modes: dict[str, int] = {}
    for message in client.traces:
        m = _TRACE.search(message)
        if m:
            lint_ms.append(float(m.group("ms")))
            modes[m.group("mode")] = modes.get(m.group("mode"), 0) + 1
    return Result(open_ms, open_ratios, hover_ms, action_ms, fix_all_ms, latencies, lint_ms, modes, exact, version - 1,
                  client.traces)


_TRACE = re.compile(r"linted .* in (?P<ms>[0-9.]+) ms \((?P<mode>[a-z]+)")


def _same_as_full_lint(text: str, diagnostics: list[dict[str, Any]]) -> bool:
    """The last diagnostics against ``lint_text`` of the final text, in process (codes and where they start;
    the generated text has no character outside the BMP, so UTF-16 columns are code point columns)."""
    from iri_lint.config import Config
    from iri_lint.lint import SourceError, lint_text

    try:
        want = sorted((f.code, f.line - 1, f.col) for f in lint_text(text, Config()))
    except SourceError:
        want = []
    got = sorted((str(d.get("code")), d["range"]["start"]["line"], d["range"]["start"]["character"])
                 for d in diagnostics if d.get("code"))
    return got == want


def _parse_ms(text: str, rounds: int = 5) -> float:
    """``ast.parse`` of the text, best of ``rounds``: the machine's speed, for the ratios."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        ast.parse(text)
        best = min(best, time.perf_counter() - started)
    return best * 1000


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="time iri-lint server's diagnostics while a scripted client types")
    ap.add_argument("--lines", type=int, default=5000, help="lines in the generated file (default: %(default)s)")
    ap.add_argument("--iris", type=int, default=200, help="IRI literals in it (default: %(default)s)")
    ap.add_argument("--keystrokes", type=int, default=120, help="keystrokes to type (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--pause", type=float, default=0.25, help="seconds between bursts, at least")
    ap.add_argument("--opens", type=int, default=5, help="times the file is opened (default: %(default)s)")
    ap.add_argument("--requests", type=int, default=20,
                    help="hovers and code actions timed after opening and after typing (default: %(default)s)")
    ap.add_argument("--server", default=f"{sys.executable} -m iri_lint.lsp",
                    help="the server command (default: %(default)s); extra words go to it")
    ap.add_argument("--pythonpath", help="run the server with this PYTHONPATH (e.g. an older checkout)")
    ap.add_argument("--traces", action="store_true", help="print the server's $/logTrace lines (one per run)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    args = ap.parse_args(argv)
    text = generate(args.lines, args.iris)
    env = dict(os.environ)
    env["PYTHONPATH"] = args.pythonpath or str(ROOT)
    result = asyncio.run(run_session(args.server.split(), text, args.keystrokes, args.seed, args.pause, env,
                                     args.requests, max(0, args.opens - 1)))
    floor = _parse_ms(text)
    lat, lint = result.latencies_ms, result.lint_ms
    if args.traces:
        print("\n".join(result.traces))
    print(f"file: {text.count(chr(10))} lines, {text.count('://')} IRIs; {result.keystrokes} keystrokes "
          f"in {len(lat)} bursts (60-160 ms apart)")
    print(f"{'measure':<44} {'median':>8} {'p90':>8} {'goal':>9}")
    print(f"{'open -> first diagnostics (ms)':<44} {statistics.median(result.open_ms):>8.0f} "
          f"{_quantile(result.open_ms, 0.9):>8.0f} {'<= ' + str(GOALS['open_ms']):>9}")
    for phase in result.hover_ms:
        for what, times in (("hover", result.hover_ms[phase]), ("code action", result.action_ms[phase])):
            print(f"{f'{what}, {phase} (ms)':<44} {statistics.median(times):>8.1f} {_quantile(times, 0.9):>8.1f} "
                  f"{'<= ' + str(GOALS['request_ms']):>9}")
    print(f"{'fix all safe problems, on save (ms)':<44} {result.fix_all_ms:>8.0f}")
    print(f"{'last keystroke -> diagnostics (ms)':<44} {statistics.median(lat):>8.0f} "
          f"{_quantile(lat, 0.9):>8.0f} {'<= ' + str(GOALS['latency_ms']):>9}")
    if lint:
        print(f"{'lint per debounced change (ms, server trace)':<44} {statistics.median(lint):>8.1f} "
              f"{_quantile(lint, 0.9):>8.1f} {'<= ' + str(GOALS['lint_ms']):>9}")
        print("  runs: " + ", ".join(f"{mode} {n}" for mode, n in sorted(result.modes.items())))
    else:
        print(f"{'lint per debounced change (ms, server trace)':<44} {'n/a':>8} (the server sends no $/logTrace)")
    print(f"final diagnostics equal a full lint of the final text: {'yes' if result.exact else 'NO'}")
    requests = [t for phase in result.hover_ms for t in (*result.hover_ms[phase], *result.action_ms[phase])]
    print(f"baseline: ast.parse of the file in this process, {floor:.1f} ms (best of 5); open "
          f"{statistics.median(result.open_ratios):.2f}x it (median of {len(result.open_ratios)} rounds, each against "
          f"ast.parse just before), hover and code action {statistics.median(requests) / floor:.2f}x it")
    missed = [what for what, bad in (
        ("latency", statistics.median(lat) > GOALS["latency_ms"]),
        ("lint time", not lint or statistics.median(lint) > GOALS["lint_ms"]),
        ("open", statistics.median(result.open_ms) > GOALS["open_ms"]),
        ("hover and code actions", any(statistics.median(t) > GOALS["request_ms"]
                                       for times in (result.hover_ms, result.action_ms) for t in times.values())),
        ("exactness", not result.exact)) if bad]
    print("goals: " + (f"missed ({', '.join(missed)})" if missed else "met"))
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
