"""The self-contained HTML report of a run: one file, readable from disk, no network.

Everything is inline: CSS in a ``<style>`` element, charts as inline SVG, no scripts, no
fonts, no images. A Content-Security-Policy ``default-src 'none'`` makes the browser refuse
any external load should one ever slip in. The page holds:

1. the systems x test sets table with intervals and significance markers and its legend
   (each cell carries the exact score, interval and p-value in ``data-*`` attributes);
2. per test set x metric a chart of the scores with their interval bars (best system on
   top, the score axis titled with the metric and its direction), the paired tests table
   and, with buckets, the score per length bucket as small multiples: one chart per system
   against the baseline, all on one axis (a dozen lines in one chart cannot be told apart);
3. the drill-down: each system's worst segments against the baseline, with source,
   references and both hypotheses (texts stored in the record at run time,
   :mod:`evalfw.reports._html_drilldown`);
4. provenance: command, config, seed, environment, plugins, inputs with sha256, signatures.

A system has one colour in every chart. Numbers get the decimals of their metric's scale.
The page fits any screen width (see :mod:`evalfw.reports._html_style`). It renders from the
record alone, so ``evalfw show RUN --format html`` needs no input file.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from evalfw.reports import _html_parts as parts
from evalfw.reports._cells import Significance
from evalfw.reports._html_drilldown import drilldown
from evalfw.reports._html_style import STYLE
from evalfw.reports._svg import Point, bucket_chart, interval_chart, system_colours

CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; "
       "connect-src 'none'; script-src 'none'")

def results_table(record: Mapping[str, Any], sig: Significance) -> str:
    """The paper table: systems x (test set, metric) with intervals and markers."""
    from evalfw.reports._grid import Grid

    grid = Grid(record)
    out = ['<div class="wide"><table class="results"><thead><tr><th rowspan="2">System</th>']
    out += [f'<th colspan="{k}">{escape(t)}</th>' for t, k in grid.test_set_groups()]
    out.append("</tr><tr>")
    out += [f"<th>{escape(c.label)}</th>" for c in grid.columns]
    out.append("</tr></thead><tbody>")
    for system in grid.systems:
        out.append(f"<tr><th scope=\"row\">{escape(system)}</th>")
        for col in grid.columns:
            row = grid.cells.get((system, col))
            if row is None:
                out.append("<td>-</td>")
                continue
            places = sig.places(col.metric)
            attrs = {"data-system": system, "data-test-set": col.test_set,
                     "data-metric": col.metric, "data-level": col.level,
                     "data-score": repr(row["score"])}
            body = f"{row['score']:.{places}f}"
            cls = []
            cell = sig.cell(system, col.test_set, col.metric) if col.level == "corpus" else None
            if cell is not None:
                if cell.ci is not None:
                    attrs.update({"data-ci": repr(cell.ci), "data-lower": repr(cell.lower),
                                  "data-upper": repr(cell.upper)})
                    body += f' <span class="ci">±{cell.ci:.{places}f}</span>'
                if cell.p_value is not None:
                    attrs["data-p"] = repr(cell.p_value)
                    attrs["title"] = parts.p_text(cell.p_value, cell.p_adjusted,
                                                  sig.adjusted_name)
                if any(cell.markers):  # one per configured test, as the legend says
                    body += f' <span class="mark">{escape(sig.marker_text(cell))}</span>'
                cls.append({"°": "baseline", "†": "better", "‡": "worse"}.get(cell.marker, ""))
            attr = "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())
            klass = f' class="{" ".join(c for c in cls if c)}"' if any(cls) else ""
            out.append(f"<td{klass}{attr}>{body}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    legend = "".join(f"<p class=\"legend\">{escape(line)}</p>" for line in sig.legend())
    return "\n".join(out) + legend


def _interval_points(table: Mapping[str, Any]) -> dict[str, Point]:
    return {i["system"]: Point(i["score"], i["lower"], i["upper"]) for i in table["intervals"]}


def _axis(metric: str, sig: Significance) -> str:
    scale = sig.scales.get(metric, 100)
    direction = "higher" if sig.higher_is_better.get(metric, True) else "lower"
    return f"{metric} score (0–{scale:g}, {direction} is better)"


def analysis_section(record: Mapping[str, Any], sig: Significance,
                     colours: Mapping[str, str]) -> str:
    """Per test set x metric: score chart, paired tests, bucket charts."""
    out = []
    for table in sig.section.get("tables", []):
        metric = table["metric"]
        name = f"{table['test_set']} · {metric}"
        points = _interval_points(table)
        higher = sig.higher_is_better.get(metric, True)
        rows = []
        for system in table["systems"]:
            cell = sig.cell(system, table["test_set"], metric)
            if system in points:
                rows.append((system, points[system], cell.marker if cell else ""))
        # best first: the highest score, or the lowest for a lower-is-better metric
        rows.sort(key=lambda r: r[1].score, reverse=higher)
        caption = f"{name}: scores with {sig.level_text} intervals"
        chart = interval_chart(caption, rows, _axis(metric, sig), colours, sig.places(metric))
        out.append(f"<h3 id=\"{parts.anchor('a', table['test_set'], metric)}\">"
                   f"{escape(name)}</h3>")
        out.append(f'<div class="charts"><figure><figcaption>{escape(caption)}</figcaption>'
                   f"{chart}</figure></div>")
        out.append(parts.comparisons_table(table, sig.alpha, higher, sig.places(metric)))
        if table.get("buckets"):
            out.append(_bucket_charts(name, table, [r[0] for r in rows], colours,
                                      _axis(metric, sig), sig.length_axis(table)))
            out.append(parts.buckets_table(table, sig.alpha, higher, sig.places(metric),
                                           sig.length_axis(table)))
    return "\n".join(out)


def _bucket_charts(name: str, table: Mapping[str, Any], order: list[str],
                   colours: Mapping[str, str], axis: str, length_axis: str) -> str:
    """Small multiples: per system its line across the buckets over the baseline's (grey,
    dashed), every chart on the same score axis."""
    results = table["buckets"]["results"]
    labels = [f"{b['label']} ({b['segments']})" for b in results]
    series: dict[str, list[Point | None]] = {}
    for system in order:
        pts: list[Point | None] = []
        for b in results:
            i = next((x for x in b["intervals"] if x["system"] == system), None)
            pts.append(Point(i["score"], i["lower"], i["upper"]) if i else None)
        series[system] = pts
    values = [v for pts in series.values() for p in pts if p is not None
              for v in (p.score, p.lower, p.upper) if v is not None]
    scale = (min(values, default=0.0), max(values, default=1.0))
    base_name = table["baseline"]
    baseline = (base_name, series[base_name]) if base_name in series else None
    panels = []
    for system, pts in series.items():
        ref = None if system == base_name else baseline
        chart = bucket_chart(f"{name}: {system} per bucket of {length_axis}", labels,
                             [(system, pts)], colours, axis, ref, scale,
                             length_axis=length_axis)
        role = " (baseline)" if system == base_name else ""
        panels.append(f'<figure><figcaption><span class="swatch" style="color:'
                      f'{colours.get(system, "#000")}">■</span> {escape(system)}{role}'
                      f"</figcaption>{chart}</figure>")
    caption = (f"{name}: score per bucket of {length_axis} (segments in brackets), each "
               f"system against the baseline {base_name} (grey, dashed); whiskers: bootstrap "
               "intervals")
    # a dozen charts are a long scroll on a phone: many systems start folded
    opened = " open" if len(panels) <= 6 else ""
    return (f"<details{opened} class=\"bucket-charts\"><summary>Charts per bucket "
            f"({len(panels)} systems)</summary><figure><figcaption>{escape(caption)}"
            f"</figcaption><div class=\"multiples\">{''.join(panels)}</div></figure></details>")


def render(record: Mapping[str, Any]) -> str:
    """The whole page."""
    sig = Significance(record)
    from evalfw.reports._grid import Grid

    colours = system_colours(Grid(record).systems)  # one colour per system on the whole page
    title = f"{record['experiment']} · {record['version']}"
    nav = ['<a href="#results">Results</a>']
    body = [f"<header><h1>{escape(record['experiment'])}</h1>"
            f"<p class=\"meta\">version {escape(record['version'])} · created "
            f"{escape(record['created'])} · evalfw {escape(record['evalfw_version'])}</p>"
            "</header>",
            "<h2 id=\"results\">Results</h2>", results_table(record, sig)]
    if sig:
        nav += ['<a href="#analysis">Significance</a>', '<a href="#drilldown">Worst segments</a>']
        body += ['<h2 id="analysis">Significance and intervals</h2>', parts.settings_note(sig),
                 analysis_section(record, sig, colours),
                 '<h2 id="drilldown">Worst segments against the baseline</h2>',
                 drilldown(sig.section.get("drilldown", []), sig.scales)]
    nav.append('<a href="#provenance">Provenance</a>')
    body += ['<h2 id="provenance">Provenance and signatures</h2>', parts.provenance(record)]
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>evalfw report: {escape(title)}</title>",
        '<meta name="generator" content="evalfw">',
        f"<style>{STYLE}</style></head><body>",
        f"<nav>{''.join(nav)}</nav>", *body, "</body></html>", ""])
