"""What makes the HTML report an audit document: who made it, when, from which commit and with which
settings, over which files; each reported rule's documentation, embedded so it reads offline; and the
endpoint inventory (``iri_lint.cli.inventory``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..config import Config
from ..core.lazy import lazy_regex
from ..files.discover import DEFAULT_EXCLUDE
from ..files.gitrepo import find_top, head_commit
from ..rules.model import Rule, rule_url
from ..rules.registry import RULES, full_rule
from .escape import quote_path
from .html_text import attr, show
from .inventory import Endpoint, Inventory
from .version import version_line

if TYPE_CHECKING:
    from .output import RunInfo

_code = lazy_regex("`([^`]*+)`")
_strong = lazy_regex("\\*\\*([^*]*+)\\*\\*")
FILES_SHOWN = 5  # an endpoint's files listed before "and N more"


def generated_at() -> str:
    """Now, in UTC (ISO 8601); ``SOURCE_DATE_EPOCH`` (reproducible builds) fixes it."""
    import datetime  # here: only the audit page needs it

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch.isdigit()
            else datetime.datetime.now(datetime.UTC))
    return when.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _commit(paths: Sequence[str]) -> str:
    folder = os.path.abspath(paths[0] if paths else ".")
    top = find_top(folder if os.path.isdir(folder) else os.path.dirname(folder))
    found = head_commit(top) if top is not None else None
    if found is None:
        return '<span class="muted">not in a git work tree</span>' if top is None else \
            '<span class="muted">unknown (git did not answer)</span>'
    sha, dirty = found
    return f'<code id="commit">{attr(sha)}</code>' + (" with uncommitted changes" if dirty else "")


def _list(items: Sequence[str], empty: str = "none") -> str:
    return ", ".join(f"<code>{show(i)}</code>" for i in items) if items else f'<span class="muted">{empty}</span>'


def _settings(cfg: Config, config_file: str | None) -> str:
    """The effective configuration: file, profile, rules, excludes."""
    enabled = sorted(cfg.codes_for(None))
    excludes = [*(cfg.exclude or DEFAULT_EXCLUDE), *cfg.extend_exclude]
    rows = [
        ("configuration file", f"<code>{show(quote_path(config_file))}</code>" if config_file
         else '<span class="muted">none (defaults)</span>'),
        ("profile", f"<code>{attr(cfg.profile)}</code>"),
        ("select", _list(cfg.select or (), "the default rules")),
        ("extend-select", _list(cfg.extend_select)),
        ("ignore", _list(cfg.ignore)),
        ("per-file-ignores", _list([f"{p}: {', '.join(c)}" for p, c in cfg.per_file_ignores])),
        ("rules enabled", f'<details><summary>{len(enabled)} rules</summary>{_list(enabled)}</details>'),
        ("excludes", _list(excludes)),
        ("respect-gitignore", "yes" if cfg.respect_gitignore else "no"),
    ]
    return "".join(f'<dt>{k}</dt><dd data-setting="{k}">{v}</dd>' for k, v in rows)


def header(info: RunInfo | None, files: Sequence[str]) -> str:
    """The run: date, tool, commit, effective settings, files checked."""
    paths = [j.path for j in info.jobs] if info is not None else list(files)
    listed = "".join(f"<li>{show(quote_path(p))}</li>" for p in files)
    rows = [("generated", f'<time id="generated">{generated_at()}</time>'),
            ("tool", f'<span id="tool">{show(version_line())}</span>'),
            ("commit", _commit(paths)),
            ("files checked", f'<details id="files"><summary>{len(files)} files</summary><ul class="files">'
                              f"{listed}</ul></details>")]
    meta = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    settings = _settings(info.config, info.config_file) if info is not None and info.config is not None else ""
    return f'<dl class="meta" id="run">{meta}{settings}</dl>'


# ------------------------------------------------------------------ the rules' own pages, embedded

def _prose(text: str) -> str:
    """A rule's text (Markdown's `code` and **strong** only) as HTML."""
    html = show(text)
    html = _code().sub(lambda m: f"<code>{m.group(1)}</code>", html)
    return _strong().sub(lambda m: f"<strong>{m.group(1)}</strong>", html)


def _examples(rule: Rule) -> str:
    parts = []
    if rule.invalid:
        items = "".join(f"<li><code>{show(ex.text)}</code>"
                        + (f' → <code>{show(ex.fixed)}</code>' if ex.fixed is not None else "")
                        + (f' <span class="muted">(used as: {attr(str(ex.context))})</span>'
                           if str(ex.context) != "unknown" else "") + "</li>" for ex in rule.invalid)
        parts.append(f"<h4>Reported</h4><ul>{items}</ul>")
    if rule.valid:
        items = "".join(f"<li><code>{show(ex.text)}</code></li>" for ex in rule.valid)
        parts.append(f"<h4>Fine</h4><ul>{items}</ul>")
    return "".join(parts)


def rule_doc(rule: Rule) -> str:
    """One rule's page, as ``iri-lint explain`` and docs/rules/ give it."""
    default = "on by default" if rule.default else "opt-in"
    return (f'<section class="rule-doc" id="rule-{rule.code}"><h3>{rule.code} {attr(rule.name)}: '
            f'{_prose(rule.summary)}</h3>'
            f'<p class="muted">{attr(rule.family)} · {attr(str(rule.severity))} · {default} · '
            f'{_prose(rule.section)}</p>'
            f"<h4>What it does</h4><p>{_prose(rule.what)}</p><h4>Why</h4><p>{_prose(rule.why)}</p>"
            f"{_examples(rule)}<h4>How to fix</h4><p>{_prose(rule.fix_text)}</p>"
            f"<h4>Fix safety</h4><p>{_prose(rule.fix_safety_text)}</p>"
            f'<p class="muted">Online: <a href="{attr(rule_url(rule.code))}">{attr(rule_url(rule.code))}</a></p>'
            "</section>")


def rule_docs(codes: Sequence[str]) -> str:
    wanted = set(codes)
    docs = "".join(rule_doc(full_rule(r.code)) for r in RULES if r.code in wanted)
    return f'<section id="rules"><h2>Rules reported</h2>{docs}</section>' if docs else ""


# ------------------------------------------------------------------ endpoints

def _endpoint_row(e: Endpoint) -> str:
    idn = f'<div class="muted">{show(e.host_ascii)}</div>' if e.host_ascii else ""
    files = "".join(f"<li>{show(quote_path(f))}</li>" for f in e.files[:FILES_SHOWN])
    more = f'<li class="muted">and {len(e.files) - FILES_SHOWN} more</li>' if len(e.files) > FILES_SHOWN else ""
    flags = "".join(f'<span class="flag flag-{f}">{f}</span>' for f in e.flags)
    creds = "".join(f"<div><code>{show(c)}</code></div>" for c in e.credentials)
    uses = ", ".join(f"{n} {k}" for k, n in sorted(e.contexts.items()))
    return (f'<tr data-endpoint="{attr(e.address)}"><td><code>{show(e.address)}</code>{idn}</td>'
            f'<td class="n">{e.literals}</td><td class="muted">{attr(uses)}</td>'
            f'<td><ul class="files">{files}{more}</ul></td>'
            f"<td>{flags}{creds}</td></tr>")


def endpoints(inv: Inventory | None) -> str:
    """The endpoint inventory section (``iri-lint inventory`` prints the same)."""
    if inv is None:
        return ""
    if not inv.endpoints:
        return '<section id="endpoints"><h2>Endpoints</h2><p class="muted">No IRI with a host.</p></section>'
    rows = "".join(_endpoint_row(e) for e in inv.endpoints)
    return ('<section id="endpoints"><h2>Endpoints</h2><p class="sub">Every scheme, host and port the code names '
            "in an IRI, with how often, where, and what a reviewer asks first.</p>"
            '<table id="endpoint-table"><thead><tr><th>endpoint</th><th class="n">literals</th><th>used as</th>'
            f"<th>files</th><th>flags</th></tr></thead><tbody>{rows}</tbody></table></section>")
