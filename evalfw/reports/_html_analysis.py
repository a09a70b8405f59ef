"""The HTML report's analysis, per test set x metric: the chart of scores with interval bars
beside the paired tests table, all pairs, and with buckets the score per length bucket as
small multiples (one chart per system against the baseline, all on one axis: a dozen lines in
one chart cannot be told apart) and the bucket table.

Axes say what they show, from the record: the metric, its scale (:class:`Significance`'s
``scales``: the metric entry's ``score_scale``, else its results'; 0-100 when neither says)
and its direction; bucket axes what was measured and its unit
(:meth:`Significance.length_axis`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from evalfw.reports import _html_parts as parts
from evalfw.reports._cells import Significance
from evalfw.reports._svg import (
    AXIS,
    INTERVAL_WIDTH,
    MULTIPLE_WIDTH,
    SMALLEST,
    Point,
    bucket_chart,
    interval_chart,
)
from evalfw.reports._svg_text import fit, max_width, min_width, text_width

#: the width (px) of a score chart beside its tests table: a little above its size in user
#: units, so that both fit a 1400 px screen side by side
CHART_BASIS = min(max_width(INTERVAL_WIDTH), round(INTERVAL_WIDTH * 1.1) + 2)
def score_axis(sig: Significance, metric: str, short: bool = False) -> str:
    """The score axis of ``metric``'s interval chart (``short``: of a small multiple, which
    has less room): the metric, its range and its direction."""
    scale = sig.scales.get(metric) or 100
    direction = "higher" if sig.higher_is_better.get(metric, True) else "lower"
    if short:
        return _title(metric, f", 0–{scale:g}, {direction} is better", MULTIPLE_WIDTH)
    return _title(metric, f" score (0–{scale:g}, {direction} is better)", INTERVAL_WIDTH)


def _title(metric: str, rest: str, width: float) -> str:
    """An axis title of a chart ``width`` units wide: a long metric name is cut, never the
    range and direction that follow it."""
    room = width - 8 - text_width(rest, AXIS, bold=True)
    return fit(metric, AXIS, room, bold=True) + rest


def _interval_points(table: Mapping[str, Any]) -> dict[str, Point]:
    return {i["system"]: Point(i["score"], i["lower"], i["upper"]) for i in table["intervals"]}


def analysis_section(sig: Significance, colours: Mapping[str, str]) -> str:
    """Per test set x metric: score chart and paired tests, all pairs, bucket charts."""
    out = []
    for table in sig.section.get("tables", []):
        metric = table["metric"]
        name = f"{table['test_set']} · {metric}"
        points = _interval_points(table)
        higher = sig.higher_is_better.get(metric, True)
        places = sig.places(metric)
        rows = []
        for system in table["systems"]:
            cell = sig.cell(system, table["test_set"], metric)
            if system in points:
                rows.append((system, points[system], cell.marker if cell else ""))
        # best first: the highest score, or the lowest for a lower-is-better metric
        rows.sort(key=lambda r: r[1].score, reverse=higher)
        caption = f"{name}: scores with {sig.level_text} intervals"
        chart = interval_chart(caption, rows, score_axis(sig, metric), colours, places)
        out.append(f"<h3 id=\"{parts.anchor('a', table['test_set'], metric)}\">"
                   f"{escape(name)}</h3>")
        out.append(f'<div class="pair"><figure style="flex-basis:{CHART_BASIS}px">'
                   f'<figcaption>{escape(caption)}</figcaption>{chart}</figure>'
                   f'{parts.comparisons_table(sig, table)}</div>')
        out.append(parts.ranking_table(sig, table))
        out.append(parts.pairs_table(sig, table))
        if table.get("buckets"):
            length_axis = sig.length_axis(table)
            out.append(_bucket_charts(name, table, [r[0] for r in rows], colours,
                                      score_axis(sig, metric, short=True), length_axis))
            out.append(parts.buckets_table(sig, table, length_axis))
    return "\n".join(out)


def _bucket_charts(name: str, table: Mapping[str, Any], order: Sequence[str],
                   colours: Mapping[str, str], y_axis: str, x_axis: str) -> str:
    """Small multiples: per system its line across the buckets over the baseline's (grey,
    dashed), every chart on the same score axis."""
    results = table["buckets"]["results"]
    labels = [str(b["label"]) for b in results]
    counts = [int(b["segments"]) for b in results]
    series: dict[str, list[Point | None]] = {}
    for system in order:
        pts: list[Point | None] = []
        for b in results:
            i = next((x for x in b["intervals"] if x["system"] == system), None)
            score = (b.get("scores") or {}).get(system)  # a bucket too small: no whiskers
            pts.append(Point(i["score"], i["lower"], i["upper"]) if i else
                       Point(score) if score is not None else None)
        series[system] = pts
    values = [v for pts in series.values() for p in pts if p is not None
              for v in (p.score, p.lower, p.upper) if v is not None]
    scale = (min(values, default=0.0), max(values, default=1.0))
    base_name = table["baseline"]
    baseline = (base_name, series[base_name]) if base_name in series else None
    panels = []
    for system, pts in series.items():
        ref = None if system == base_name else baseline
        chart = bucket_chart(f"{name}: {system} per bucket of {x_axis}", labels,
                             [(system, pts)], colours, y_axis, ref, scale, counts, x_axis)
        role = " (baseline)" if system == base_name else ""
        panels.append(f'<figure><figcaption><span class="swatch" style="color:'
                      f'{colours.get(system, "#000")}">■</span> {escape(system)}{role}'
                      f"</figcaption>{chart}</figure>")
    caption = (f"{name}: score per bucket of {x_axis} (segments in brackets), each "
               f"system against the baseline {base_name} (grey, dashed); whiskers: bootstrap "
               "intervals (none where a bucket has too few segments)")
    # as many charts a row as fit a little above their smallest readable width (on a phone,
    # one a row at any width above that)
    narrowest = round(min_width(MULTIPLE_WIDTH, SMALLEST) * 1.1)
    grid = f"grid-template-columns:repeat(auto-fill,minmax(min(100%,{narrowest}px),1fr))"
    # a dozen charts are a long scroll on a phone: many systems start folded
    opened = " open" if len(panels) <= 6 else ""
    return (f"<details{opened} class=\"bucket-charts\"><summary>Charts per bucket "
            f"({len(panels)} systems)</summary><figure><figcaption>{escape(caption)}"
            f"</figcaption><div class=\"multiples\" style=\"{grid}\">{''.join(panels)}</div>"
            "</figure></details>")


__all__ = ["analysis_section", "score_axis"]
