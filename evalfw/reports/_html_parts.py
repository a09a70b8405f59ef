"""Sections of the HTML report built from plain record data: paired tests, buckets and
provenance (the drill-down is :mod:`evalfw.reports._html_drilldown`). Every value from the
record is escaped; nothing here fetches anything. Tables that can outgrow a narrow screen are
wrapped in a ``.wide`` box that scrolls sideways on its own (see ``_html_style``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from evalfw.reports._cells import METHOD_WORDS, Significance, significant


def p_text(p: float, adjusted: float | None, correction: str | None = "Holm") -> str:
    text = f"p = {p:.4g}"
    return text + (f", {correction}-adjusted p = {adjusted:.4g}" if adjusted is not None
                   else "")


def anchor(*names: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9_-]+", "_", n) for n in names)


def wide(table: str) -> str:
    """``table`` in its own horizontally scrolling box (the page itself never scrolls)."""
    return f"<div class=\"wide\">{table}</div>"


def _p(value: Any) -> str:
    return "–" if value is None else f"{value:.4f}"


def settings_note(sig: Significance) -> str:
    s = sig.settings
    items = [f"baseline <strong>{escape(str(s.get('baseline')))}</strong>",
             f"method {escape(str(s.get('method')))}", f"mode {escape(str(s.get('mode')))}",
             f"{s.get('samples')} bootstrap resamples"]
    if s.get("method") in ("ar", "both"):
        items.append(f"{s.get('ar_trials')} AR trials")
    items += [f"seed {sig.section.get('seed')}", f"α = {sig.alpha:g}",
              f"correction {escape(sig.correction)}", f"family {escape(sig.family)}"]
    return f"<p class=\"note\">{' · '.join(items)}. p-values are two-sided in default mode.</p>"


def _comparison_rows(comps: Sequence[Mapping[str, Any]], alpha: float, with_baseline: bool,
                     higher_is_better: bool, places: int) -> list[str]:
    out = []
    for c in comps:
        sig = significant(c, alpha)
        better = (c["delta"] > 0) == higher_is_better
        klass = (" class=\"better\"" if better else " class=\"worse\"") if sig else ""
        cells = [escape(c["system"])]
        if with_baseline:
            cells.append(escape(c["baseline"]))
        cells += [escape(METHOD_WORDS.get(c["method"], c["method"]).replace("paired ", "")),
                  f"{c['delta']:+.{places}f}",
                  (f"[{c['delta_lower']:+.{places}f}, {c['delta_upper']:+.{places}f}]"
                   if c.get("delta_lower") is not None else "–"),
                  _p(c["p_value"]), _p(c.get("p_adjusted")), "yes" if sig else "no"]
        out.append(f"<tr{klass} data-system=\"{escape(c['system'])}\" "
                   f"data-p=\"{c['p_value']!r}\">" + "".join(f"<td>{x}</td>" for x in cells)
                   + "</tr>")
    return out


def comparisons_table(table: Mapping[str, Any], alpha: float, higher_is_better: bool = True,
                      places: int = 2) -> str:
    """Paired tests against the baseline (and all pairs, when run); differences get
    ``places`` decimals (the metric's scale)."""
    head = ["System", "Test", "Δ score", "Δ interval", "p", "p (adjusted)", "significant"]
    rows = _comparison_rows(table["comparisons"], alpha, False, higher_is_better, places)
    out = ""
    if rows:
        out += wide("<table class=\"tests\"><thead><tr>" + "".join(f"<th>{h}</th>" for h in head)
                    + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
    if table.get("pairs"):
        head2 = ["System", "against", *head[1:]]
        out += ("<details><summary>All pairs</summary>" + wide(
            "<table class=\"tests\"><thead><tr>" + "".join(f"<th>{h}</th>" for h in head2)
            + "</tr></thead><tbody>"
            + "".join(_comparison_rows(table["pairs"], alpha, True, higher_is_better, places))
            + "</tbody></table>") + "</details>")
    return out


def buckets_table(table: Mapping[str, Any], alpha: float, higher_is_better: bool = True,
                  places: int = 2, length_axis: str = "length") -> str:
    results = table["buckets"]["results"]
    systems = table["systems"]
    head = "".join(f"<th>{escape(b['label'])}<br><span class=\"ci\">{b['segments']} seg.</span>"
                   "</th>" for b in results)
    out = [f"<details><summary>Scores per bucket of {escape(length_axis)} "
           f"({escape(table['buckets']['bucketer']['name'])})</summary>",
           f"<div class=\"wide\"><table class=\"buckets\"><thead><tr><th>System</th>{head}"
           "</tr></thead><tbody>"]
    for system in systems:
        cells = []
        for b in results:
            i = next((x for x in b["intervals"] if x["system"] == system), None)
            c = next((x for x in b["comparisons"] if x["system"] == system), None)
            text = "–" if i is None else \
                f"{i['score']:.{places}f} <span class=\"ci\">±{i['ci']:.{places}f}</span>"
            if c is not None and significant(c, alpha):
                better = (c["delta"] > 0) == higher_is_better
                text += " <span class=\"mark\">" + ("†" if better else "‡") + "</span>"
            cells.append(f"<td>{text}</td>")
        out.append(f"<tr><th scope=\"row\">{escape(system)}</th>{''.join(cells)}</tr>")
    out.append("</tbody></table></div></details>")
    return "".join(out)


PLUGIN_KEYS = ("distribution", "version", "path")


def _sha(value: str) -> str:
    # ellipsized by the style sheet; the whole hash stays in the text (copy, search) and title
    return f"<span class=\"sha\" title=\"{escape(value)}\">{escape(value)}</span>"


def _path(value: str) -> str:
    """A path that may wrap after each ``/`` (not in the middle of a name)."""
    return "<code>" + "/<wbr>".join(escape(part) for part in value.split("/")) + "</code>"


def _signature(value: str) -> str:
    """A signature that may wrap after each ``|`` field."""
    return "|<wbr>".join(escape(part) for part in value.split("|"))


def _kv(pairs: Sequence[tuple[str, Any]]) -> str:
    return "<table class=\"kv\">" + "".join(
        f"<tr><th>{escape(k)}</th><td>{v}</td></tr>" for k, v in pairs) + "</table>"


def provenance(record: Mapping[str, Any]) -> str:
    cmd, cfg, env = record["command"], record["config"], record["environment"]
    argv = " ".join(cmd["argv"]) if cmd.get("argv") else "(Python API)"
    facts = [("command", f"<code>{escape(argv)}</code>"),
             ("overrides", escape(", ".join(o.get("set", json.dumps(o)) for o in cmd["overrides"])
                                  or "none")),
             ("config", f"{_path(str(cfg['path']))} sha256 "
                        + _sha(str(cfg["sha256"]))),
             ("resolved config sha256", _sha(cfg["resolved_sha256"])),
             ("seed", escape(str(record["seed"]))),
             ("python", escape(f"{env['python']} ({env['implementation']}) on {env['platform']}")),
             ("packages", escape(", ".join(f"{k} {v}" for k, v in env["packages"].items()))),
             ("segments file", f"{_path(record['segments']['file'])} sha256 "
                               + _sha(record["segments"]["sha256"]))]
    sigs = "".join(f"<tr><td>{escape(s['test_set'])}</td><td>{escape(s['metric'])}</td>"
                   f"<td><code>{_signature(s.get('sacrebleu_signature') or s['signature'])}</code>"
                   "</td></tr>" for s in record["specs"])
    inputs = "".join(f"<tr><td>{escape(i['test_set'])}</td><td>{escape(i['role'])}</td>"
                     f"<td>{escape(i.get('system', ''))}</td><td>{_path(i['path'])}</td>"
                     f"<td>{i['lines']}</td><td>{_sha(i['sha256'])}</td></tr>"
                     for i in record["inputs"])
    plugins = "".join(f"<tr><td>{escape(p['name'])}</td><td>{escape(p['source'])}</td><td>"
                      f"{escape(' '.join(str(p[k]) for k in PLUGIN_KEYS if k in p))}"
                      f"</td></tr>" for p in record["plugins"])
    warnings = "".join(f"<li>{escape(w['file'])}: {escape(w['message'])}</li>"
                       for w in record.get("warnings", []))
    return "\n".join([
        _kv(facts),
        "<h3>Signatures</h3><table class=\"sigs\"><thead><tr><th>test set</th><th>metric</th>"
        f"<th>signature</th></tr></thead><tbody>{sigs}</tbody></table>",
        "<h3>Inputs</h3>" + wide(
            "<table class=\"inputs\"><thead><tr><th>test set</th><th>role</th><th>system</th>"
            "<th>path</th><th>lines</th><th>sha256</th></tr></thead>"
            f"<tbody>{inputs}</tbody></table>"),
        f"<details><summary>Plugins</summary><table><tbody>{plugins}</tbody></table></details>",
        f"<h3>Data warnings</h3><ul>{warnings}</ul>" if warnings else ""])
