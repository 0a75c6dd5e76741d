"""``--format html``: one self-contained audit page (inline CSS and script, nothing fetched at view time).

The page opens with the run (date, tool and data versions, the git commit, the effective settings
and the files checked: ``iri_lint.cli.html_audit``), then totals by rule (by severity, then count)
and by family, findings by folder as a bar chart, the files with the most findings, the endpoint
inventory, and every finding with its source line (the finding's characters marked), message, a
link to its rule's documentation embedded at the end of the page, and the fix that would apply
(the value before and after, its safety and status). Everything from the checked files is
HTML-escaped; characters that are invisible or reorder text are shown as ``U+XXXX`` badges, never
rendered, and a letter in another script than its word is marked with its code point and script
(``iri_lint.cli.html_text``). A Content-Security-Policy lets only this page's own style and script
run (by hash) and loads nothing; a print style sheet makes it a paper document.
"""

from __future__ import annotations

import binascii
import hashlib
import posixpath
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .. import __version__
from ..rules.model import rule_url
from ..rules.registry import FAMILY_PREFIX, RULES_BY_CODE
from .escape import quote_path
from .html_audit import endpoints as endpoints_section
from .html_audit import header, rule_docs
from .html_text import attr as _attr
from .html_text import show as _show
from .html_text import spoofs
from .inventory import Inventory
from .results import FileResult, Problem, Record, written

if TYPE_CHECKING:
    from .output import RunInfo

OPEN_LIMIT = 300  # with more findings than this, the per-file sections start folded
WORST = 15  # rows in "files with the most findings"
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}

CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg2: #f6f8fa; --accent: #0969da;
  --err: #cf222e; --warn: #9a6700; --info: #0969da; --ok: #1a7f37; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 20px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.sub { color: var(--muted); margin: 0 0 16px; }
.totals { display: flex; flex-wrap: wrap; gap: 12px; margin: 0; }
.totals div { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.totals dt { color: var(--muted); font-size: 12px; } .totals dd { margin: 0; font-size: 22px; font-weight: 600; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 0 32px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
button.pick { all: unset; cursor: pointer; color: var(--accent); }
button.pick:hover, button.pick:focus-visible { text-decoration: underline; outline: none; }
tr.on td { background: #ddf4ff; }
svg.bar rect { fill: var(--accent); } svg.bar { display: block; }
code, pre, .src { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.filter { position: sticky; top: 0; background: #fff; padding: 8px 0; border-bottom: 1px solid var(--line);
  display: flex; gap: 12px; align-items: center; z-index: 1; }
.filter input { flex: 1; max-width: 360px; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }
details.file { border: 1px solid var(--line); border-radius: 6px; margin: 10px 0; }
details.file > summary { background: var(--bg2); padding: 6px 10px; cursor: pointer; font-weight: 600; }
details.file > summary .n { color: var(--muted); font-weight: 400; }
article.finding { padding: 8px 12px; border-top: 1px solid var(--line); }
.head { display: flex; gap: 10px; flex-wrap: wrap; align-items: baseline; }
.loc { color: var(--muted); font-family: ui-monospace, monospace; }
.sev-error { color: var(--err); } .sev-warning { color: var(--warn); } .sev-info { color: var(--info); }
a.rule { font-weight: 600; }
.src { background: var(--bg2); padding: 4px 8px; margin: 6px 0; white-space: pre-wrap; word-break: break-all;
  direction: ltr; unicode-bidi: isolate; border-radius: 4px; }
.src mark { background: #ffebe9; outline: 1px solid #ff818266; }
.cc { border: 1px solid var(--err); color: var(--err); border-radius: 3px; padding: 0 2px; font-size: 11px; }
.fix { margin: 4px 0 0; } .fix .tag { font-size: 11px; border-radius: 10px; padding: 1px 7px;
  border: 1px solid var(--line); margin-right: 6px; }
.fix .safe { color: var(--ok); border-color: var(--ok); }
.fix .unsafe { color: var(--warn); border-color: var(--warn); }
del { background: #ffebe9; text-decoration: line-through; } ins { background: #dafbe1; text-decoration: none; }
.value { font-family: ui-monospace, monospace; word-break: break-all; unicode-bidi: isolate; }
.muted { color: var(--muted); }
ul.errors li { margin: 4px 0; }
footer { max-width: 1200px; margin: 32px auto; padding: 0 24px; color: var(--muted); font-size: 12px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 16px; font-size: 13px; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; }
ul.files { margin: 0; padding-left: 18px; } ul.files li { word-break: break-all; }
#endpoint-table { table-layout: fixed; } #endpoint-table td { overflow-wrap: anywhere; }
#endpoint-table th:nth-child(1) { width: 26%; } #endpoint-table th:nth-child(2) { width: 7%; }
#endpoint-table th:nth-child(3) { width: 13%; } #endpoint-table th:nth-child(5) { width: 20%; }
.spoof { background: #fff8c5; outline: 1px solid var(--warn); border-radius: 2px; }
.spoof .cp { font-size: 10px; color: var(--warn); margin-left: 2px; vertical-align: super; }
.flag { font-size: 11px; border: 1px solid var(--line); border-radius: 10px; padding: 0 6px; margin: 0 4px 2px 0;
  display: inline-block; }
.flag-plain-http, .flag-credentials { color: var(--err); border-color: var(--err); }
.flag-ip-literal, .flag-private, .flag-loopback, .flag-idn { color: var(--warn); border-color: var(--warn); }
section.rule-doc { border-top: 1px solid var(--line); padding: 4px 0 8px; }
section.rule-doc h3 { font-size: 15px; margin: 12px 0 2px; } section.rule-doc h4 { font-size: 13px; margin: 8px 0 2px; }
section.rule-doc:target { background: #ddf4ff; }
@media print {
  body { font-size: 11px; color: #000; }
  header, main, footer { max-width: none; padding: 0; }
  .filter, button#clear, #clear { display: none !important; }
  button.pick { color: #000; }
  details.file, article.finding, section.rule-doc, tr { break-inside: avoid; }
  h2 { break-after: avoid; }
  .src { white-space: pre-wrap; }
  a { color: #000; }
  a[href^="http"]::after { content: " <" attr(href) ">"; font-size: 9px; color: var(--muted); }
}
"""

SCRIPT = """
(function () {
  var items = Array.prototype.slice.call(document.querySelectorAll("article.finding"));
  var files = Array.prototype.slice.call(document.querySelectorAll("details.file"));
  var shown = document.getElementById("shown");
  var what = document.getElementById("filter-what");
  var search = document.getElementById("search");
  var clear = document.getElementById("clear");
  var current = null;
  function apply() {
    var text = search.value.toLowerCase();
    var n = 0;
    items.forEach(function (el) {
      var ok = (!current || el.dataset[current.key] === current.value) &&
               (!text || el.textContent.toLowerCase().indexOf(text) >= 0);
      el.hidden = !ok;
      if (ok) { n += 1; }
    });
    files.forEach(function (f) {
      var any = f.querySelector("article.finding:not([hidden])") !== null;
      f.hidden = !any;
      if (any && (current || text)) { f.open = true; }
    });
    shown.textContent = String(n);
    what.textContent = current ? current.label : "";
    clear.hidden = !current && !text;
    document.querySelectorAll("tr.on").forEach(function (r) { r.classList.remove("on"); });
    if (current && current.row) { current.row.classList.add("on"); }
  }
  document.querySelectorAll("button.pick").forEach(function (b) {
    b.addEventListener("click", function () {
      var same = current && current.key === b.dataset.key && current.value === b.dataset.value;
      current = same ? null : {key: b.dataset.key, value: b.dataset.value, label: b.dataset.label,
                               row: b.closest("tr")};
      apply();
      if (current) { document.getElementById("findings").scrollIntoView(); }
    });
  });
  search.addEventListener("input", apply);
  clear.addEventListener("click", function () { current = null; search.value = ""; apply(); });
  var closed = [];
  window.addEventListener("beforeprint", function () {  // paper shows every finding, whatever was folded
    closed = Array.prototype.slice.call(document.querySelectorAll("details:not([open])"));
    closed.forEach(function (d) { d.open = true; });
    items.forEach(function (el) { el.hidden = false; });
    files.forEach(function (f) { f.hidden = false; });
  });
  window.addEventListener("afterprint", function () {
    closed.forEach(function (d) { d.open = false; });
    apply();
  });
  apply();
})();
"""


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()  # base64.b64encode, without importing base64
    return "'sha256-" + binascii.b2a_base64(digest, newline=False).decode("ascii") + "'"


def folder_of(path: str) -> str:
    """The folder a finding counts under: the path's parent, ``.`` for a file named without one (quoted
    as git quotes a path when it holds what a reader cannot see)."""
    folder = posixpath.dirname(Path(path).as_posix())
    return quote_path(folder or ".")


def name_of(path: str) -> str:
    """A file's name as the page shows it (quoted as git quotes a path when it must be)."""
    return quote_path(path)


def family_of(code: str) -> str:
    rule = RULES_BY_CODE.get(code)
    return "other" if rule is None else str(rule.family)


def _pick(key: str, value: str, label: str, text: str | None = None) -> str:
    return (f'<button class="pick" type="button" data-key="{key}" data-value="{_attr(value)}" '
            f'data-label="{_attr(label)}">{_show(text if text is not None else value)}</button>')


def _bar(n: int, most: int, width: int = 220) -> str:
    w = max(1, round(width * n / most)) if most else 0
    return (f'<svg class="bar" width="{width}" height="12" role="img" aria-label="{n}">'
            f'<rect x="0" y="1" width="{w}" height="10" rx="2"></rect></svg>')


def _totals(results: Sequence[FileResult], records: Sequence[Record]) -> str:
    items = [
        ("findings", "findings", len(records)),
        ("files-with-findings", "files with findings", len({r.path for r in records})),
        ("files-checked", "files checked", len(results)),
        ("rules", "rules", len({r.code for r in records})),
        ("fixable", "fixable with --fix", sum(1 for r in records if r.fix is not None and r.fix.status == "available")),
        ("fixed", "fixed", sum(len(res.applied) for res in results)),
        ("errors", "files not checked", sum(1 for res in results if res.problem is not None)),
    ]
    cells = "".join(f'<div><dt>{label}</dt><dd data-total="{key}">{n}</dd></div>' for key, label, n in items)
    return f'<dl class="totals">{cells}</dl>'


def _by_family(records: Sequence[Record]) -> str:
    counts = Counter(family_of(r.code) for r in records)
    rows = []
    for family, prefix in FAMILY_PREFIX.items():
        n = counts.get(family, 0)
        if n:
            button = _pick("family", family, f"family {family} ({prefix}xx)", f"{prefix}xx {family}")
            rows.append(f'<tr data-family="{family}"><td>{button}</td><td class="n">{n}</td></tr>')
    return ('<table id="by-family"><thead><tr><th>family</th><th class="n">findings</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def rule_order(records: Sequence[Record]) -> list[tuple[str, int]]:
    """(code, count) of the rules found, the most severe first, then the most frequent."""
    counts = Counter(r.code for r in records)
    severity = {r.code: SEVERITY_ORDER.get(r.severity, 3) for r in records}
    return sorted(counts.items(), key=lambda kv: (severity[kv[0]], -kv[1], kv[0]))


def _by_rule(records: Sequence[Record]) -> str:
    names = {r.code: r.name for r in records}
    severity = {r.code: r.severity for r in records}
    fixable = Counter(r.code for r in records if r.fix is not None and r.fix.status == "available")
    rows = []
    for code, n in rule_order(records):
        rows.append(f'<tr data-rule="{code}"><td>{_pick("rule", code, f"rule {code}")}</td>'
                    f'<td><a class="rule" href="#rule-{code}">{_show(names[code])}</a></td>'
                    f'<td class="sev-{_attr(severity[code])}">{_attr(severity[code])}</td>'
                    f'<td>{family_of(code)}</td><td class="n">{n}</td><td class="n">{fixable.get(code, 0)}</td></tr>')
    return ('<table id="by-rule"><thead><tr><th>code</th><th>rule</th><th>severity</th><th>family</th>'
            f'<th class="n">findings</th><th class="n">fixable</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _by_folder(records: Sequence[Record]) -> str:
    counts = Counter(folder_of(r.path) for r in records)
    most = max(counts.values(), default=0)
    rows = [f'<tr data-dir="{_attr(d)}"><td>{_pick("dir", d, f"folder {d}")}</td><td>{_bar(n, most)}</td>'
            f'<td class="n">{n}</td></tr>'
            for d, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return ('<table id="by-dir"><thead><tr><th>folder</th><th></th><th class="n">findings</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _worst(records: Sequence[Record]) -> str:
    counts = Counter(name_of(r.path) for r in records)
    rows = []
    for path, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:WORST]:
        rules = Counter(r.code for r in records if name_of(r.path) == path)
        top = ", ".join(f"{c} ×{k}" for c, k in sorted(rules.items(), key=lambda kv: (-kv[1], kv[0]))[:4])
        rows.append(f'<tr data-file="{_attr(path)}"><td>{_pick("file", path, f"file {path}")}</td>'
                    f'<td class="muted">{_show(top)}</td><td class="n">{n}</td></tr>')
    return ('<table id="worst-files"><thead><tr><th>file</th><th>rules</th><th class="n">findings</th></tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table>')


def _source(r: Record) -> str:
    line = r.source_line.rstrip("\r\n")
    start = min(r.col, len(line))
    end = min(r.end_col, len(line)) if r.end_line == r.line else len(line)
    end = max(end, start)
    marks = spoofs(line)  # each word judged whole, though the finding's mark may cut it
    marked = _show(line, start, end, marks) or "&#8203;"
    return (f'<div class="src">{_show(line, 0, start, marks)}<mark>{marked}</mark>'
            f'{_show(line, end, len(line), marks)}</div>')


def _change(value: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """The value with each edit shown as deleted and inserted text."""
    out, pos = [], 0
    marks = spoofs(value)
    for start, end, new in sorted(edits):
        out.append(_show(value, pos, start, marks))
        if end > start:
            out.append(f"<del>{_show(value, start, end, marks)}</del>")
        if new:
            out.append(f"<ins>{_show(new)}</ins>")
        pos = end
    out.append(_show(value, pos, len(value), marks))
    return "".join(out)


_STATUS = {"available": "applied by --fix", "unsafe": "unsafe: applied only with --unsafe-fixes",
           "refused": "not applied", "applied": "applied"}


def _fix(r: Record) -> str:
    fix = r.fix
    if fix is None:
        return '<div class="fix muted">No automatic fix.</div>'
    why = f' <span class="muted">({_show(fix.reason)})</span>' if fix.reason else ""
    value, edits, fixed = written(r)  # holes as the source writes them
    return (f'<div class="fix"><span class="tag {fix.safety}">{fix.safety} fix</span>'
            f'<span class="muted">{_STATUS.get(fix.status, fix.status)}{why}.</span> {_show(fix.description)}'
            f'<div class="value">{_change(value, edits)}</div>'
            f'<div class="value muted">→ {_show(fixed)}</div></div>')


def _where(r: Record) -> str:
    at = f"{r.line}:{r.col + 1}"
    return at if r.cell is None else f"cell {r.cell}, {at}"


def _finding(r: Record) -> str:
    family = family_of(r.code)
    return (f'<article class="finding" data-rule="{r.code}" data-family="{family}" '
            f'data-dir="{_attr(folder_of(r.path))}" data-file="{_attr(name_of(r.path))}">'
            f'<div class="head"><span class="loc">{_show(_where(r))}</span>'
            f'<a class="rule sev-{_attr(r.severity)}" href="#rule-{r.code}" title="the rule\'s documentation, '
            f'below">{r.code}</a><span class="muted">{_show(r.name)}</span></div>'
            f'<div class="msg">{_show(r.message)}</div>{_source(r)}{_fix(r)}</article>')


def _findings(records: Sequence[Record]) -> str:
    by_file: dict[str, list[Record]] = {}
    for r in records:
        by_file.setdefault(name_of(r.path), []).append(r)
    opened = " open" if len(records) <= OPEN_LIMIT else ""
    parts = []
    for path, rs in by_file.items():
        parts.append(f'<details class="file" data-file="{_attr(path)}"{opened}><summary>{_show(path)} '
                     f'<span class="n">{len(rs)}</span></summary>{"".join(_finding(r) for r in rs)}</details>')
    return "".join(parts) or '<p class="muted">No findings.</p>'


def _problems(problems: Sequence[Problem]) -> str:
    if not problems:
        return ""
    items = "".join(f'<li class="error"><code>{_show(name_of(p.path))}:{p.line}:{p.col + 1}</code> '
                    f"{_show(p.message)}</li>" for p in problems)
    return f'<h2>Files not checked</h2><ul class="errors">{items}</ul>'


def _fixed(results: Sequence[FileResult]) -> str:
    applied = [a for res in results for a in res.applied]
    if not applied:
        return ""
    items = "".join(f'<li class="fixed"><code>{_show(name_of(a.path))}:{_show(_where(a))}</code> '
                    f'<a href="#rule-{a.code}">{a.code}</a> '
                    f'{_show(a.fix.description if a.fix else "")}</li>' for a in applied)
    return f'<h2>Fixed</h2><ul class="fixed">{items}</ul>'


def write_html(out: TextIO, results: Sequence[FileResult], records: Sequence[Record], *,
               title: str = "iri-lint report", info: RunInfo | None = None, endpoints: Inventory | None = None) -> None:
    """The whole page."""
    problems = [p for res in results for p in res.problems]
    csp = (f"default-src 'none'; style-src {_csp_hash(CSS)}; script-src {_csp_hash(SCRIPT)}; "
           "img-src 'none'; base-uri 'none'; form-action 'none'")
    out.write(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_show(title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{_show(title)}</h1><p class=\"sub\">URIs and IRIs checked against RFC 3987 by iri-lint "
        f"{_show(__version__)}. Click a rule, family, folder or file to list only its findings, a rule code "
        f"for its documentation.</p>{header(info, [res.path for res in results])}"
        f"{_totals(results, records)}</header><main>"
        '<div class="grid"><section><h2>By family</h2>' + _by_family(records) + "</section>"
        "<section><h2>By folder</h2>" + _by_folder(records) + "</section></div>"
        "<h2>By rule</h2>" + _by_rule(records) +
        "<h2>Files with the most findings</h2>" + _worst(records) + endpoints_section(endpoints) +
        '<section id="findings"><h2>Findings</h2><div class="filter">'
        f'<span>Showing <b id="shown">{len(records)}</b> of <b id="total">{len(records)}</b> '
        '<span id="filter-what" class="muted"></span></span>'
        '<input id="search" type="search" placeholder="Filter by text" aria-label="Filter findings by text">'
        '<button id="clear" type="button" hidden>Show all</button></div>'
        + _findings(records) + "</section>" + _fixed(results) + _problems(problems)
        + rule_docs([code for code, _ in rule_order([*records, *(a for res in results for a in res.applied)])]) +
        f"</main><footer>Generated by iri-lint {_show(__version__)}; rule pages: "
        f'<a href="{_attr(rule_url("IRI101").rsplit("IRI101", 1)[0])}">documentation</a>.</footer>'
        f"<script>{SCRIPT}</script></body></html>\n")
