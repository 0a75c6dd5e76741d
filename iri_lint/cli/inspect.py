"""``iri-lint inspect '<iri>'``: what an IRI means, component by component, and what is wrong with it."""

from __future__ import annotations

import json
import unicodedata
from typing import Any, TextIO

from ..core import normalize_trace, scan, to_iri, to_uri
from ..core.bidi import bidi_components, display_order, visible
from ..core.grammar import COMPONENTS
from ..rules.engine import check, select_codes
from ..rules.registry import RULES


def _try(fn: Any, *args: Any, **kwargs: Any) -> tuple[str | None, str | None]:
    """(value, None) or (None, error message)."""
    try:
        return fn(*args, **kwargs), None
    except ValueError as exc:
        return None, str(exc)


def describe(iri: str, *, profile: str = "iri", context: str = "unknown",
             select: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Everything ``inspect`` shows, as data (``--format json`` prints exactly this)."""
    ref = scan(iri, "IRI-reference", profile)
    comps: dict[str, Any] = {}
    for name in COMPONENTS:
        span = getattr(ref, name)
        if span is not None:
            comps[name] = {"text": ref.text[span.start : span.end], "start": span.start, "end": span.end}
    enabled = select_codes(select) if select else select_codes([r for r in _all_codes()])
    findings = [{"code": f.code, "name": f.name, "message": f.message, "start": f.start, "end": f.end,
                 "severity": str(f.severity),
                 "fix": None if f.fix is None else {"value": f.fix.value, "level": str(f.fix.level),
                                                    "safety": str(f.fix.safety),
                                                    "description": f.fix.description}}
                for f in check(iri, profile=profile, context=context, select=enabled)]
    uri, uri_err = _try(to_uri, iri)
    uri_enc, uri_enc_err = _try(to_uri, iri, encode_ascii="encode")
    uri_idna, uri_idna_err = _try(to_uri, iri, idna=True, encode_ascii="encode")
    back, back_err = _try(to_iri, uri or uri_enc or iri)
    back_idna, back_idna_err = _try(to_iri, uri_idna or uri or uri_enc or iri, decode_idna=True)
    ladder: list[dict[str, Any]] = []
    for level in ("syntax", "scheme"):
        try:
            norm = normalize_trace(iri, level=level)
        except ValueError as exc:
            ladder.append({"level": level, "error": str(exc)})
            continue
        ladder.append({"level": level, "value": norm.value, "steps": [
            {"name": s.name, "level": s.level, "section": s.section, "description": s.description, "before": s.before,
             "after": s.after} for s in norm.steps]})
    out: dict[str, Any] = {
        "iri": iri, "profile": profile, "valid": ref.is_valid,
        "errors": [{"kind": e.kind, "position": e.position, "message": e.message} for e in ref.errors],
        "components": comps, "findings": findings,
        "to_uri": {"value": uri, "error": uri_err},
        "to_uri_encoding_ascii": {"value": uri_enc, "error": uri_enc_err},
        "to_uri_idna": {"value": uri_idna, "error": uri_idna_err},
        "to_iri": {"value": back, "error": back_err},
        "to_iri_idna": {"value": back_idna, "error": back_idna_err},
        "ladder": ladder,
    }
    out["bidi"] = _bidi(iri, ref)
    return out


def _all_codes() -> list[str]:
    return [r.code for r in RULES if r.code != "IRI100"]


def _bidi(iri: str, ref: Any) -> dict[str, Any] | None:
    if all(not _rtl(c) for c in iri):
        return None
    try:
        comps = [{"kind": c.kind, "text": c.text, "displayed": display_order(c.text)} for c in bidi_components(ref)]
    except Exception:  # components need a parsed IRI; a broken one still gets the whole-string view
        comps = []
    return {"logical": visible(iri), "displayed": display_order(iri), "components": comps}


def _rtl(c: str) -> bool:
    return unicodedata.bidirectional(c) in ("R", "AL", "RLE", "RLO", "RLI")


def write_inspect(out: TextIO, data: dict[str, Any], *, as_json: bool = False) -> None:
    if as_json:
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return
    v = visible
    out.write(f"IRI        {v(data['iri'])}\n")
    out.write(f"profile    {data['profile']}  ({'valid' if data['valid'] else 'NOT valid'})\n")
    for e in data["errors"]:
        out.write(f"  error    {e['kind']} at {e['position']}: {e['message']}\n")
    out.write("\nComponents\n")
    for name, c in data["components"].items():
        out.write(f"  {name:<10} [{c['start']}:{c['end']}]  {v(c['text'])!s}\n")
    out.write("\nFindings (every rule, opt-in ones included)\n")
    if not data["findings"]:
        out.write("  none\n")
    for f in data["findings"]:
        out.write(f"  {f['code']} {f['name']} [{f['start']}:{f['end']}]: {f['message']}\n")
        if f["fix"]:
            fx = f["fix"]
            out.write(f"      fix ({fx['level']}, {fx['safety']} unless dereferenced): {v(fx['value'])}\n"
                      if fx["safety"] == "unsafe" and fx["level"] != "none" else
                      f"      fix ({fx['level']}, {fx['safety']}): {v(fx['value'])}\n")
    out.write("\nMapping (RFC 3987 sec. 3)\n")
    for key, label in (("to_uri", "to_uri"), ("to_uri_encoding_ascii", "to_uri (encode ASCII)"),
                       ("to_uri_idna", "to_uri (IDNA host)"), ("to_iri", "to_iri"),
                       ("to_iri_idna", "to_iri (decode IDNA)")):
        m = data[key]
        out.write(f"  {label:<22} {v(m['value']) if m['value'] is not None else 'fails: ' + str(m['error'])}\n")
    out.write("\nComparison ladder (RFC 3987 sec. 5.3)\n")
    out.write(f"  simple     {v(data['iri'])}\n")
    for rung in data["ladder"]:
        if "error" in rung:
            out.write(f"  {rung['level']:<10} fails: {rung['error']}\n")
            continue
        out.write(f"  {rung['level']:<10} {v(rung['value'])}\n")
        for s in rung["steps"]:
            if rung["level"] == "scheme" and s["level"] != "scheme":
                continue  # shown on the syntax rung already
            out.write(f"    - {s['name']} ({s['section']}): {v(s['before'])} -> {v(s['after'])}\n")
    if data["bidi"]:
        b = data["bidi"]
        out.write("\nBidi (RFC 3987 sec. 4): logical order | displayed order\n")
        out.write(f"  whole      {b['logical']}  |  {b['displayed']}\n")
        for c in b["components"]:
            out.write(f"  {c['kind']:<10} {v(c['text'])}  |  {c['displayed']}\n")
