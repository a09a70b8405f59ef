"""Sections of the HTML report built from plain record data: paired tests, buckets and
provenance (the drill-down is :mod:`evalfw.reports._html_drilldown`). Every value from the
record is escaped; nothing here fetches anything.

Tables of numbers sit in a ``.wide`` box that scrolls sideways on its own where the screen is
too narrow, with the system column (``.sys``) kept in view; numeric cells and their headers
are ``.num`` (right-aligned). Provenance tables are ``.stack``: on a phone each row becomes a
block of "label: value" lines (the labels come from ``data-label``), see ``_html_style``.
"""

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


def system_cell(name: str) -> str:
    """The row header of a system: kept in view while its row scrolls sideways; a long name
    wraps (after a hyphen, where it has one) instead of widening the column."""
    return f"<th scope=\"row\" class=\"sys\"><span class=\"name\">{escape(name)}</span></th>"


def _head(names: Sequence[str], numeric: Sequence[bool]) -> str:
    """A header row; the first column is the system column."""
    kinds = ["sys", *("num" if num else "" for num in numeric[1:])]
    cells = [f"<th class=\"{kind}\">{name}</th>" if kind else f"<th>{name}</th>"
             for name, kind in zip(names, kinds, strict=True)]
    return "<thead><tr>" + "".join(cells) + "</tr></thead>"


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
        cells = [f"<td>{escape(c['baseline'])}</td>"] if with_baseline else []
        test = METHOD_WORDS.get(c["method"], c["method"]).replace("paired ", "")
        cells.append(f"<td>{escape(test)}</td>")
        cells += [f"<td class=\"num\">{x}</td>" for x in (
            f"{c['delta']:+.{places}f}",
            (f"[{c['delta_lower']:+.{places}f}, {c['delta_upper']:+.{places}f}]"
             if c.get("delta_lower") is not None else "–"),
            _p(c["p_value"]), _p(c.get("p_adjusted")))]
        cells.append(f"<td>{'yes' if sig else 'no'}</td>")
        out.append(f"<tr{klass} data-system=\"{escape(c['system'])}\" "
                   f"data-p=\"{c['p_value']!r}\">" + system_cell(c["system"]) + "".join(cells)
                   + "</tr>")
    return out


HEAD = ("System", "Test", "Δ score", "Δ interval", "p", "p (adjusted)", "significant")
NUMERIC = (False, False, True, True, True, True, False)


def comparisons_table(table: Mapping[str, Any], alpha: float, higher_is_better: bool = True,
                      places: int = 2) -> str:
    """Paired tests against the baseline; differences get ``places`` decimals (the metric's
    scale)."""
    rows = _comparison_rows(table["comparisons"], alpha, False, higher_is_better, places)
    if not rows:
        return ""
    return wide("<table class=\"tests\">" + _head(HEAD, NUMERIC) + "<tbody>" + "".join(rows)
                + "</tbody></table>")


def pairs_table(table: Mapping[str, Any], alpha: float, higher_is_better: bool = True,
                places: int = 2) -> str:
    """Every pair of systems (when run), folded."""
    if not table.get("pairs"):
        return ""
    head = ("System", "against", *HEAD[1:])
    return ("<details><summary>All pairs</summary>" + wide(
        "<table class=\"tests\">" + _head(head, (False, *NUMERIC)) + "<tbody>"
        + "".join(_comparison_rows(table["pairs"], alpha, True, higher_is_better, places))
        + "</tbody></table>") + "</details>")


def buckets_table(table: Mapping[str, Any], alpha: float, higher_is_better: bool = True,
                  places: int = 2, length_axis: str = "length") -> str:
    results = table["buckets"]["results"]
    systems = table["systems"]
    head = "".join(f"<th class=\"num\">{escape(b['label'])}<br><span class=\"ci\">"
                   f"{b['segments']} seg.</span></th>" for b in results)
    out = [f"<details><summary>Scores per bucket of {escape(length_axis)} "
           f"({escape(table['buckets']['bucketer']['name'])})</summary>",
           f"<div class=\"wide\"><table class=\"buckets\"><thead><tr><th class=\"sys\">System"
           f"</th>{head}</tr></thead><tbody>"]
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
            cells.append(f"<td class=\"num\">{text}</td>")
        out.append(f"<tr>{system_cell(system)}{''.join(cells)}</tr>")
    out.append("</tbody></table></div></details>")
    return "".join(out)


def _sha(value: str) -> str:
    # ellipsized by the style sheet; the whole hash stays in the text (copy, search) and title
    return f"<span class=\"sha\" title=\"{escape(value)}\">{escape(value)}</span>"


def _path(value: str) -> str:
    """A path that may wrap after each ``/`` or ``\\`` (not in the middle of a name)."""
    parts = re.split(r"(?<=[/\\])", value)
    return "<code class=\"path\">" + "<wbr>".join(escape(part) for part in parts) + "</code>"


def _signature(value: str) -> str:
    """A signature that may wrap after each ``|`` field."""
    return "|<wbr>".join(escape(part) for part in value.split("|"))


def _kv(pairs: Sequence[tuple[str, Any]]) -> str:
    return "<table class=\"kv\">" + "".join(
        f"<tr><th>{escape(k)}</th><td>{v}</td></tr>" for k, v in pairs) + "</table>"


def _stack(klass: str, head: Sequence[str], rows: Sequence[Sequence[str]],
           numeric: Sequence[bool] | None = None) -> str:
    """A table that becomes one block per row on a phone (labels from ``data-label``); the
    cells are HTML."""
    num = [' class="num"' if n else "" for n in (numeric or [False] * len(head))]
    th = "".join(f"<th{n}>{escape(h)}</th>" for h, n in zip(head, num, strict=True))
    body = "".join("<tr>" + "".join(
        f"<td data-label=\"{escape(h)}\"{n}><span>{cell}</span></td>" if cell else "<td></td>"
        for h, n, cell in zip(head, num, row, strict=True)) + "</tr>" for row in rows)
    return (f"<table class=\"stack {klass}\"><thead><tr>{th}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


def _plugin(p: Mapping[str, Any]) -> list[str]:
    where = [escape(" ".join(str(p[k]) for k in ("distribution", "version") if k in p))]
    if "path" in p:
        where.append(_path(str(p["path"])))
    if "sha256" in p:
        where.append("sha256 " + _sha(str(p["sha256"])))
    if "error" in p:
        where.append(f"<span class=\"worse\">{escape(str(p['error']))}</span>")
    return [escape(p["name"]), escape(p["source"]), " ".join(w for w in where if w)]


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
    sigs = [[escape(s["test_set"]), escape(s["metric"]),
             f"<code>{_signature(s.get('sacrebleu_signature') or s['signature'])}</code>"]
            for s in record["specs"]]
    inputs = [[escape(i["test_set"]), escape(i["role"]), escape(i.get("system", "")),
               _path(i["path"]), str(i["lines"]), _sha(i["sha256"])] for i in record["inputs"]]
    warnings = "".join(f"<li>{escape(w['file'])}: {escape(w['message'])}</li>"
                       for w in record.get("warnings", []))
    return "\n".join([
        _kv(facts),
        "<h3>Signatures</h3>" + _stack("sigs", ("test set", "metric", "signature"), sigs),
        "<h3>Inputs</h3>" + _stack("inputs", ("test set", "role", "system", "path", "lines",
                                              "sha256"), inputs,
                                   (False, False, False, False, True, False)),
        "<details><summary>Plugins</summary>" + _stack(
            "plugins", ("plugin", "source", "from"),
            [_plugin(p) for p in record["plugins"]]) + "</details>",
        f"<h3>Data warnings</h3><ul>{warnings}</ul>" if warnings else ""])
