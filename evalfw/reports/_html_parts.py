"""Sections of the HTML report built from plain record data: tests, buckets, drill-down,
provenance. Every value from the record is escaped; nothing here fetches anything."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from evalfw.reports._cells import METHOD_WORDS, Significance, significant


def p_text(p: float, adjusted: float | None) -> str:
    text = f"p = {p:.4g}"
    return text + (f", Holm-adjusted p = {adjusted:.4g}" if adjusted is not None else "")


def anchor(*names: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9_-]+", "_", n) for n in names)


def _f(value: Any, places: int = 2) -> str:
    return "–" if value is None else f"{value:.{places}f}"


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
              f"correction {escape(str(s.get('correction')))}"]
    return f"<p class=\"note\">{' · '.join(items)}. p-values are two-sided in default mode.</p>"


def _comparison_rows(comps: Sequence[Mapping[str, Any]], alpha: float, with_baseline: bool,
                     higher_is_better: bool) -> list[str]:
    out = []
    for c in comps:
        sig = significant(c, alpha)
        better = (c["delta"] > 0) == higher_is_better
        klass = (" class=\"better\"" if better else " class=\"worse\"") if sig else ""
        cells = [escape(c["system"])]
        if with_baseline:
            cells.append(escape(c["baseline"]))
        cells += [escape(METHOD_WORDS.get(c["method"], c["method"]).replace("paired ", "")),
                  f"{c['delta']:+.2f}",
                  (f"[{c['delta_lower']:+.2f}, {c['delta_upper']:+.2f}]"
                   if c.get("delta_lower") is not None else "–"),
                  _p(c["p_value"]), _p(c.get("p_adjusted")), "yes" if sig else "no"]
        out.append(f"<tr{klass} data-system=\"{escape(c['system'])}\" "
                   f"data-p=\"{c['p_value']!r}\">" + "".join(f"<td>{x}</td>" for x in cells)
                   + "</tr>")
    return out


def comparisons_table(table: Mapping[str, Any], alpha: float, higher_is_better: bool = True
                      ) -> str:
    head = ["System", "Test", "Δ score", "Δ interval", "p", "p (Holm)", "significant"]
    rows = _comparison_rows(table["comparisons"], alpha, False, higher_is_better)
    out = ""
    if rows:
        out += ("<table class=\"tests\"><thead><tr>" + "".join(f"<th>{h}</th>" for h in head)
                + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
    if table.get("pairs"):
        head2 = ["System", "against", *head[1:]]
        out += ("<details><summary>All pairs</summary><table class=\"tests\"><thead><tr>"
                + "".join(f"<th>{h}</th>" for h in head2) + "</tr></thead><tbody>"
                + "".join(_comparison_rows(table["pairs"], alpha, True, higher_is_better))
                + "</tbody></table></details>")
    return out


def buckets_table(table: Mapping[str, Any], alpha: float, higher_is_better: bool = True) -> str:
    results = table["buckets"]["results"]
    systems = table["systems"]
    head = "".join(f"<th>{escape(b['label'])}<br><span class=\"ci\">{b['segments']} seg.</span>"
                   "</th>" for b in results)
    out = [f"<details><summary>Scores per bucket "
           f"({escape(table['buckets']['bucketer']['name'])})</summary>",
           f"<table class=\"buckets\"><thead><tr><th>System</th>{head}</tr></thead><tbody>"]
    for system in systems:
        cells = []
        for b in results:
            i = next((x for x in b["intervals"] if x["system"] == system), None)
            c = next((x for x in b["comparisons"] if x["system"] == system), None)
            text = "–" if i is None else \
                f"{i['score']:.2f} <span class=\"ci\">±{i['ci']:.2f}</span>"
            if c is not None and significant(c, alpha):
                better = (c["delta"] > 0) == higher_is_better
                text += " <span class=\"mark\">" + ("†" if better else "‡") + "</span>"
            cells.append(f"<td>{text}</td>")
        out.append(f"<tr><th scope=\"row\">{escape(system)}</th>{''.join(cells)}</tr>")
    out.append("</tbody></table></details>")
    return "".join(out)


def highlight(hypothesis: str, references: Sequence[str]) -> str:
    """Escaped ``hypothesis`` with the words no reference contains marked (a reading aid by
    whitespace words, not the metric's tokenization)."""
    known = {w for r in references for w in r.split()}
    return " ".join(escape(w) if w in known else f"<mark>{escape(w)}</mark>"
                    for w in hypothesis.split())


def _segment_rows(seg: Mapping[str, Any], system: str, baseline: str) -> str:
    texts: list[tuple[str, str]] = []
    if seg.get("source") is not None:
        texts.append(("source", escape(seg["source"])))
    texts += [(f"reference {k + 1}", escape(r)) for k, r in enumerate(seg["references"])]
    texts += [(f"baseline ({baseline})", highlight(seg["baseline_hypothesis"], seg["references"])),
              (system, highlight(seg["hypothesis"], seg["references"]))]
    lines = "".join(f"<tr><td class=\"role\">{escape(role)}</td><td class=\"txt\">{t}</td>"
                    "</tr>" for role, t in texts)
    return (f"<tr data-segment=\"{seg['segment']}\"><td class=\"num\">{seg['segment']}</td>"
            f"<td class=\"num\">{seg['score']:.2f}</td><td class=\"num\">"
            f"{seg['baseline_score']:.2f}</td><td class=\"num worse\">{seg['delta']:+.2f}</td>"
            f"<td><table class=\"seg\">{lines}</table></td></tr>")


def drilldown(items: Sequence[Mapping[str, Any]]) -> str:
    if not items:
        return "<p class=\"note\">No drill-down stored (significance.worst_segments: 0).</p>"
    out = []
    for item in items:
        out.append(f"<h3>{escape(item['test_set'])}</h3><p class=\"note\">Sentence scores by "
                   f"metric {escape(item['metric'])}; Δ = system − baseline "
                   f"({escape(item['baseline'])}), smallest first. <mark>Marked</mark>: words "
                   "of a hypothesis that no reference contains.</p>")
        for k, entry in enumerate(item["systems"]):
            rows = "".join(_segment_rows(s, entry["system"], item["baseline"])
                           for s in entry["segments"])
            opened = " open" if k == 0 else ""  # the first one visible without a click
            if not entry["segments"]:
                out.append(f"<p class=\"note\">{escape(entry['system'])}: no segment scores "
                           "below the baseline.</p>")
                continue
            out.append(f"<details{opened} data-system=\"{escape(entry['system'])}\"><summary>"
                       f"{escape(entry['system'])}: {len(entry['segments'])} worst segments"
                       "</summary><table class=\"seg\"><thead><tr><th>#</th><th>score</th>"
                       "<th>baseline</th><th>Δ</th><th>texts</th></tr></thead><tbody>"
                       f"{rows}</tbody></table></details>")
    return "\n".join(out)


PLUGIN_KEYS = ("distribution", "version", "path")


def _sha(value: str) -> str:
    return f"<span class=\"sha\">{escape(value)}</span>"


def _kv(pairs: Sequence[tuple[str, Any]]) -> str:
    return "<table class=\"kv\">" + "".join(
        f"<tr><th>{escape(k)}</th><td>{v}</td></tr>" for k, v in pairs) + "</table>"


def provenance(record: Mapping[str, Any]) -> str:
    cmd, cfg, env = record["command"], record["config"], record["environment"]
    argv = " ".join(cmd["argv"]) if cmd.get("argv") else "(Python API)"
    facts = [("command", f"<code>{escape(argv)}</code>"),
             ("overrides", escape(", ".join(o.get("set", json.dumps(o)) for o in cmd["overrides"])
                                  or "none")),
             ("config", f"<code>{escape(str(cfg['path']))}</code> sha256 "
                        + _sha(str(cfg["sha256"]))),
             ("resolved config sha256", _sha(cfg["resolved_sha256"])),
             ("seed", escape(str(record["seed"]))),
             ("python", escape(f"{env['python']} ({env['implementation']}) on {env['platform']}")),
             ("packages", escape(", ".join(f"{k} {v}" for k, v in env["packages"].items()))),
             ("segments file", f"<code>{escape(record['segments']['file'])}</code> sha256 "
                               + _sha(record["segments"]["sha256"]))]
    sigs = "".join(f"<tr><td>{escape(s['test_set'])}</td><td>{escape(s['metric'])}</td>"
                   f"<td><code>{escape(s.get('sacrebleu_signature') or s['signature'])}</code>"
                   "</td></tr>" for s in record["specs"])
    inputs = "".join(f"<tr><td>{escape(i['test_set'])}</td><td>{escape(i['role'])}</td>"
                     f"<td>{escape(i.get('system', ''))}</td><td><code>{escape(i['path'])}</code>"
                     f"</td><td>{i['lines']}</td><td class=\"sha\">{escape(i['sha256'])}</td></tr>"
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
        "<h3>Inputs</h3><table><thead><tr><th>test set</th><th>role</th><th>system</th>"
        "<th>path</th><th>lines</th><th>sha256</th></tr></thead>"
        f"<tbody>{inputs}</tbody></table>",
        f"<details><summary>Plugins</summary><table><tbody>{plugins}</tbody></table></details>",
        f"<h3>Data warnings</h3><ul>{warnings}</ul>" if warnings else ""])
