"""The meta-evaluation in the terminal table: per test set the human scores, a table per level
(metrics x statistics, each value with its interval and cluster), the significant differences
in words, agreement by |delta|, and the legend.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from evalfw.reports._meta import (
    GROUPS,
    LABELS,
    facts,
    groups,
    human_direction,
    legend,
    pct,
    section,
    share,
)

GAP = "  "


def _aligned(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [GAP.join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:]))])
             .rstrip() for r in rows]
    return [lines[0], GAP.join("-" * w for w in widths), *lines[1:]]


def value(m: Mapping[str, Any], places: int = 3) -> str:
    """``0.705 [0.615, 0.795] #1``."""
    if m.get("value") is None:
        return "-"
    text = f"{m['value']:.{places}f}"
    if m.get("lower") is not None:
        text += f" [{m['lower']:.{places}f}, {m['upper']:.{places}f}]"
    if m.get("cluster") is not None:
        text += f" #{m['cluster']}"
    return text


def epsilon(m: Mapping[str, Any]) -> str:
    if m.get("epsilon") is None:
        return "-"
    ties = m.get("ties")
    return f"{m['epsilon']:.4g}" + (f" ({pct(ties)} ties)" if ties is not None else "")


def _level(stats: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    first = stats[0]
    order = [m["metric"] for m in first["metrics"]]  # best first by the first statistic
    head = ["metric"]
    for stat in stats:
        head.append(LABELS.get(stat["statistic"], stat["statistic"]))
        if stat["statistic"] == "acc_eq":
            head.append("epsilon")
    rows = [head]
    for name in order:
        row = [name]
        for stat in stats:
            m: Mapping[str, Any] = next((x for x in stat["metrics"] if x["metric"] == name), {})
            row.append(value(m))
            if stat["statistic"] == "acc_eq":
                row.append(epsilon(m))
        rows.append(row)
    return _aligned(rows)


def _differences(stats: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for stat in stats:
        if "tests" not in stat:
            continue
        found = [f"{t['better']} > {t['worse']} (p {t['p_adjusted']:.3g})"
                 for t in stat["tests"] if t["significant"]]
        label = LABELS.get(stat["statistic"], stat["statistic"])
        out.append(f"  {label}: " + ("; ".join(found) if found else
                                     "no pair of metrics differs significantly (which does not "
                                     "show that they agree equally well)"))
    return out


def _deltas(table: Mapping[str, Any]) -> list[str]:
    deltas = table.get("deltas") or []
    if not deltas:
        return []
    out = ["", f"Agreement with {table['human']} by metric difference (system pairs; share of "
           "the pairs at least |delta| apart that the metric orders as the humans do, and how "
           "many pairs):"]
    rows = [["metric", *(f">= {b['low']:g}" for b in deltas[0]["at_least"])]]
    same = all([b["low"] for b in d["at_least"]] == [b["low"] for b in deltas[0]["at_least"]]
               for d in deltas)
    for d in deltas:
        cells = [f"{pct(share(a['agreed'], a['pairs']))} ({a['pairs']})"
                 if a["pairs"] else "- (0)" for a in d["at_least"]]
        if not same:
            cells = [f">= {a['low']:g}: {c}" for a, c in zip(d["at_least"], cells)]
        rows.append([d["metric"], *cells])
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    return out + _aligned(rows)


def _human(table: Mapping[str, Any]) -> list[str]:
    scores = table.get("human_scores") or []
    refs, humans = set(table.get("references", ())), set(table.get("human_systems", ()))
    rows = [["system", f"{table['human']} ({human_direction(table)})"]]
    ranked = sorted(scores, key=lambda h: (h["score"] is None, h["score"] or 0.0),
                    reverse=bool(table.get("human_higher_is_better", True)))
    if not table.get("human_higher_is_better", True):
        ranked = sorted(scores, key=lambda h: (h["score"] is None, h["score"] or 0.0))
    for h in ranked:
        note = " (reference, not compared)" if h["system"] in refs else \
            " (human translation, left out)" if h["system"] in humans and not h["used"] else \
            "" if h["used"] else " (left out)"
        text = "-" if h["score"] is None else f"{h['score']:.3f}"
        if h.get("lower") is not None:
            text += f" [{h['lower']:.3f}, {h['upper']:.3f}]"
        rows.append([h["system"] + note, text])
    for r in table.get("references", ()):
        if r not in {h["system"] for h in scores}:
            rows.append([f"{r} (reference)", "judged, not compared"])
    return _aligned(rows)


def _prose(lines: Sequence[str], width: int | None) -> list[str]:
    if width is None:
        return list(lines)
    return [w for line in lines for w in (textwrap.wrap(
        line, width, subsequent_indent="  ", break_on_hyphens=False) or [""])]


def render(record: Mapping[str, Any], width: int | None = None) -> list[str]:
    """The meta-evaluation's lines (none when the record has none); with ``width`` the prose
    is wrapped to it (tables are not: a terminal scrolls them)."""
    meta = section(record)
    if not meta:
        return []
    out: list[str] = []
    for table in meta["tables"]:
        names = [m["metric"] for m in table["statistics"][0]["metrics"]] \
            if table["statistics"] else []
        out += ["", *_prose([f"Meta-evaluation on {table['test_set']}: metrics against the "
                             f"human judgements {table['human']} ({human_direction(table)})"],
                            width), "", *_human(table)]
        for (level, grouping), stats in groups(table):
            out += ["", *_prose([f"{GROUPS.get((level, grouping), level)} ({facts(stats[0])}):"],
                                width), *_level(stats, names)]
            diffs = _differences(stats)
            if diffs:
                out += ["Significant differences:", *_prose(diffs, width)]
        deltas = _deltas(table)
        out += [*_prose(deltas[:2], width), *deltas[2:]]
    if meta.get("skipped"):
        out += ["", *_prose([f"Not meta-evaluated (no judgements "
                             f"'{meta['settings']['human']}'): {', '.join(meta['skipped'])}"],
                            width)]
    out += ["", *_prose(legend(meta), width)]
    return out


__all__ = ["epsilon", "render", "value"]
