"""The HTML report's meta-evaluation section: per test set a small chart of each metric's
pairwise accuracy and acc_eq with their intervals, the human scores, a table per level
(metrics x statistics with intervals and clusters), the significant differences in words,
agreement by |delta|, and the legend. Built from the record alone; every value is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from evalfw.reports import _html_parts as parts
from evalfw.reports._html_analysis import CHART_BASIS
from evalfw.reports._meta import (
    GROUPS,
    LABELS,
    facts,
    groups,
    human_direction,
    legend,
    pct,
    share,
)
from evalfw.reports._svg import Point, colour, interval_chart

#: the statistics the chart shows, by level and grouping (WMT's primary ones)
CHARTED = (("system", None, "accuracy"), ("segment", "item", "acc_eq"))


def _value(m: Mapping[str, Any]) -> str:
    if m.get("value") is None:
        return "–"
    out = f"{m['value']:.3f}"
    if m.get("cluster") is not None:
        out += f" <span class=\"mark\" title=\"significance cluster\">#{m['cluster']}</span>"
    if m.get("lower") is not None:
        out += f"<br><span class=\"ci\">[{m['lower']:.3f}, {m['upper']:.3f}]</span>"
    if m.get("epsilon") is not None:
        ties = m.get("ties")
        out += (f"<br><span class=\"ci\">ε {m['epsilon']:.4g}"
                + (f", {pct(ties)} ties" if ties is not None else "") + "</span>")
    return out


def _level_table(stats: Sequence[Mapping[str, Any]]) -> str:
    order = [m["metric"] for m in stats[0]["metrics"]]
    head = "".join(f"<th class=\"num\">{escape(LABELS.get(s['statistic'], s['statistic']))}"
                   "</th>" for s in stats)
    rows = []
    for name in order:
        cells = []
        for stat in stats:
            m: Mapping[str, Any] = next((x for x in stat["metrics"] if x["metric"] == name), {})
            cells.append(f"<td class=\"num\">{_value(m)}</td>")
        rows.append(f"<tr>{parts.system_cell(name)}{''.join(cells)}</tr>")
    return parts.wide(f"<table class=\"meta\"><thead><tr><th class=\"sys\">Metric</th>{head}"
                      f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _differences(stats: Sequence[Mapping[str, Any]]) -> str:
    items = []
    for stat in stats:
        if "tests" not in stat:
            continue
        found = [f"{escape(t['better'])} &gt; {escape(t['worse'])} "
                 f"<span class=\"ci\">(adjusted p {t['p_adjusted']:.3g})</span>"
                 for t in stat["tests"] if t["significant"]]
        label = escape(LABELS.get(stat["statistic"], stat["statistic"]))
        items.append(f"<li>{label}: " + ("; ".join(found) if found else
                                          "no pair of metrics differs significantly (which does "
                                          "not show that they agree equally well)") + "</li>")
    return f"<ul class=\"note\">{''.join(items)}</ul>" if items else ""


def _human(table: Mapping[str, Any]) -> str:
    scores = sorted(table.get("human_scores") or [],
                    key=lambda h: (h["score"] is None, h["score"] or 0.0),
                    reverse=bool(table.get("human_higher_is_better", True)))
    refs = set(table.get("references", ()))
    rows = []
    for h in scores:
        ci = (f" <span class=\"ci\">[{h['lower']:.3f}, {h['upper']:.3f}]</span>"
              if h.get("lower") is not None else "")
        note = "" if h["used"] else " <span class=\"ci\">(reference, not compared)</span>" \
            if h["system"] in refs else " <span class=\"ci\">(left out)</span>"
        score = "–" if h["score"] is None else f"{h['score']:.3f}"
        rows.append(f"<tr>{parts.system_cell(h['system'])}<td class=\"num\">{score}{ci}{note}"
                    "</td></tr>")
    for r in sorted(refs - {h["system"] for h in scores}):
        rows.append(f"<tr>{parts.system_cell(r)}<td>reference (judged, not compared)</td></tr>")
    return parts.wide(f"<table class=\"meta\"><thead><tr><th class=\"sys\">System</th>"
                      f"<th class=\"num\">{escape(table['human'])}<br><span class=\"ci\">"
                      f"{escape(human_direction(table))}</span></th></tr></thead><tbody>"
                      f"{''.join(rows)}</tbody></table>")


def _deltas(table: Mapping[str, Any]) -> str:
    deltas = table.get("deltas") or []
    if not deltas:
        return ""
    lows = [b["low"] for b in deltas[0]["at_least"]]
    same = all([b["low"] for b in d["at_least"]] == lows for d in deltas)
    head = "".join(f"<th class=\"num\">|Δ| ≥ {low:g}</th>" for low in lows) if same else \
        "<th>share of the pairs at least |Δ| apart that agree</th>"
    rows = []
    for d in deltas:
        cells = []
        for a in d["at_least"]:
            text = (f"{pct(share(a['agreed'], a['pairs']))}<br><span class=\"ci\">"
                    f"n = {a['pairs']}</span>") if a["pairs"] else "–"
            lead = "" if same else f"≥ {a['low']:g}: "
            cells.append(f"<td class=\"num\">{lead}{text}</td>")
        rows.append(f"<tr>{parts.system_cell(d['metric'])}{''.join(cells)}</tr>")
    return ("<p class=\"note\">Agreement by metric difference: for the system pairs at least "
            f"|Δ| apart in the metric's own units, the share the metric orders as "
            f"{escape(table['human'])} does, and how many pairs.</p>"
            + parts.wide(f"<table class=\"meta\"><thead><tr><th class=\"sys\">Metric</th>"
                         f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"))


def _chart(table: Mapping[str, Any], names: Sequence[str]) -> str:
    colours = {n: colour(i) for i, n in enumerate(names)}
    figures = []
    for level, grouping, statistic in CHARTED:
        stat = next((s for s in table["statistics"] if (s["level"], s.get("grouping"),
                                                         s["statistic"]) ==
                     (level, grouping, statistic)), None)
        if stat is None:
            continue
        rows = [(m["metric"], Point(m["value"], m.get("lower"), m.get("upper")),
                 f"#{m['cluster']}" if m.get("cluster") is not None else "")
                for m in stat["metrics"] if m.get("value") is not None]
        label = f"{LABELS[statistic]} ({GROUPS[(level, grouping)].lower()})"
        caption = f"{table['test_set']} · {label} against {table['human']}"
        figures.append(f"<figure style=\"flex-basis:{CHART_BASIS}px\"><figcaption>"
                       f"{escape(caption)}</figcaption>"
                       f"{interval_chart(caption, rows, label, colours, 3)}</figure>")
    return f"<div class=\"pair\">{''.join(figures)}</div>" if figures else ""


def meta_section(record: Mapping[str, Any]) -> str:
    """The section (empty when the record has no meta-evaluation)."""
    meta = record.get("meta_evaluation")
    if not meta:
        return ""
    names = [m["metric"] for t in meta["tables"][:1] for m in
             (t["statistics"][0]["metrics"] if t["statistics"] else [])]
    names = sorted(names, key=lambda n: meta["settings"]["metrics"].index(n)
                   if n in meta["settings"]["metrics"] else len(names))
    out = []
    for table in meta["tables"]:
        out.append(f"<h3 id=\"{parts.anchor('m', table['test_set'])}\">"
                   f"{escape(table['test_set'])}: metrics against {escape(table['human'])} "
                   f"<span class=\"ci\">({escape(human_direction(table))})</span></h3>")
        out.append(_chart(table, names))
        out.append(_human(table))
        for (level, grouping), stats in groups(table):
            out.append(f"<h4>{escape(GROUPS.get((level, grouping), level))} "
                       f"<span class=\"ci\">({escape(facts(stats[0]))})</span></h4>")
            out.append(_level_table(stats))
            out.append(_differences(stats))
        out.append(_deltas(table))
    if meta.get("skipped"):
        out.append(f"<p class=\"note\">Not meta-evaluated (no judgements "
                   f"'{escape(meta['settings']['human'])}'): "
                   f"{escape(', '.join(meta['skipped']))}</p>")
    out.append("".join(f"<p class=\"legend\">{escape(line)}</p>" for line in legend(meta)))
    return "\n".join(out)


__all__ = ["CHARTED", "meta_section"]
