"""The self-contained HTML report of a run: one file, readable from disk, no network.

Everything is inline: CSS in a ``<style>`` element, charts as inline SVG, no scripts, no
fonts, no images. A Content-Security-Policy ``default-src 'none'`` makes the browser refuse
any external load should one ever slip in. The page holds:

1. the systems x test sets table with intervals and significance markers and its legend
   (each cell carries the exact score, interval and p-value in ``data-*`` attributes);
2. per test set x metric a chart of the scores with their interval bars, the paired tests
   table and, with buckets, a chart of BLEU per length bucket;
3. the drill-down: each system's worst segments against the baseline, with source,
   references and both hypotheses (texts stored in the record at run time);
4. provenance: command, config, seed, environment, plugins, inputs with sha256, signatures.

It renders from the record alone, so ``evalfw show RUN --format html`` needs no input file.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from evalfw.reports import _html_parts as parts
from evalfw.reports._cells import Significance
from evalfw.reports._svg import Point, bucket_chart, interval_chart

CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; "
       "connect-src 'none'; script-src 'none'")

STYLE = """
:root{--fg:#1d2330;--muted:#5b6475;--line:#d9dee7;--bg:#fff;--band:#f4f6fa;--accent:#0b5cad}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
color:var(--fg);background:var(--bg);margin:0 auto;max-width:1180px;padding:24px 28px 60px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:34px 0 10px;padding-bottom:4px;
border-bottom:2px solid var(--line)}h3{font-size:16px;margin:22px 0 8px}
.meta,.legend,.note{color:var(--muted);font-size:13px}
nav a{margin-right:14px;color:var(--accent);text-decoration:none;font-size:14px}
table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}
th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:right;vertical-align:top}
th{background:var(--band);font-weight:600}th:first-child,td:first-child{text-align:left}
thead th[colspan]{text-align:center}table.tests td:nth-child(2),table.tests th:nth-child(2){text-align:left}
.wide{overflow-x:auto;max-width:100%}table.seg th:last-child,table.sigs td:last-child,
table.sigs th:last-child{text-align:left}
table.results td.baseline{background:#f7f3e8}
.ci{color:var(--muted);font-size:12.5px}.mark{font-weight:700;color:var(--accent)}
.worse .mark{color:#b3261e}.better{color:#0a6b3a}.worse{color:#b3261e}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:18px}
svg.chart{width:100%;height:auto;background:#fff;border:1px solid var(--line);border-radius:6px}
svg .ct{font:600 14px sans-serif;fill:#1d2330}svg .tick{font:11px sans-serif;fill:#5b6475}
svg .lab{font:12px sans-serif;fill:#1d2330}svg .val{font:11px sans-serif;fill:#1d2330}
svg .grid{stroke:#e3e7ee;stroke-width:1}
details{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:4px 12px}
summary{cursor:pointer;font-weight:600;padding:4px 0}
table.seg td{text-align:left}table.seg table.seg{width:100%;margin:0}table.seg td.num{text-align:right;white-space:nowrap}
.txt{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;
white-space:pre-wrap;word-break:break-word}mark{background:#ffe08a;padding:0 1px;border-radius:2px}.role{color:var(--muted);font-size:12px;width:110px}
table.kv td{text-align:left}code,.sha{font-family:ui-monospace,Menlo,Consolas,monospace;
font-size:12.5px;overflow-wrap:anywhere;word-break:break-all}
pre{background:var(--band);padding:10px;border-radius:6px;overflow:auto;font-size:12.5px}
"""


def _places(row: Mapping[str, Any]) -> int:
    return 2 if row.get("score_scale", 100) == 100 else 4


def results_table(record: Mapping[str, Any], sig: Significance) -> str:
    """The paper table: systems x (test set, metric) with intervals and markers."""
    from evalfw.reports._grid import Grid

    grid = Grid(record)
    out = ['<table class="results"><thead><tr><th rowspan="2">System</th>']
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
            places = _places(row)
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
                    attrs["title"] = parts.p_text(cell.p_value, cell.p_adjusted)
                if cell.marker:
                    body += f' <span class="mark">{escape(cell.marker)}</span>'
                cls.append({"°": "baseline", "†": "better", "‡": "worse"}.get(cell.marker, ""))
            attr = "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())
            klass = f' class="{" ".join(c for c in cls if c)}"' if any(cls) else ""
            out.append(f"<td{klass}{attr}>{body}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    legend = "".join(f"<p class=\"legend\">{escape(line)}</p>" for line in sig.legend())
    return "\n".join(out) + legend


def _interval_points(table: Mapping[str, Any]) -> dict[str, Point]:
    return {i["system"]: Point(i["score"], i["lower"], i["upper"]) for i in table["intervals"]}


def analysis_section(record: Mapping[str, Any], sig: Significance) -> str:
    """Per test set x metric: score chart, paired tests, bucket chart."""
    out = []
    for table in sig.section.get("tables", []):
        name = f"{table['test_set']} · {table['metric']}"
        points = _interval_points(table)
        rows = []
        for system in table["systems"]:
            cell = sig.cell(system, table["test_set"], table["metric"])
            if system in points:
                rows.append((system, points[system], cell.marker if cell else ""))
        charts = [interval_chart(f"{name}: scores with {sig.level_text} intervals", rows)]
        if table.get("buckets"):
            charts.append(_bucket_chart(name, table))
        out.append(f"<h3 id=\"{parts.anchor('a', table['test_set'], table['metric'])}\">"
                   f"{escape(name)}</h3>")
        out.append('<div class="charts">' + "".join(f"<div>{c}</div>" for c in charts)
                   + "</div>")
        higher = sig.higher_is_better.get(table["metric"], True)
        out.append(parts.comparisons_table(table, sig.alpha, higher))
        if table.get("buckets"):
            out.append(parts.buckets_table(table, sig.alpha, higher))
    return "\n".join(out)


def _bucket_chart(name: str, table: Mapping[str, Any]) -> str:
    results = table["buckets"]["results"]
    labels = [f"{b['label']} ({b['segments']})" for b in results]
    series = []
    for system in table["systems"]:
        pts: list[Point | None] = []
        for b in results:
            i = next((x for x in b["intervals"] if x["system"] == system), None)
            pts.append(Point(i["score"], i["lower"], i["upper"]) if i else None)
        series.append((system, pts))
    return bucket_chart(f"{name}: score per reference-length bucket (segments)", labels, series)


def render(record: Mapping[str, Any]) -> str:
    """The whole page."""
    sig = Significance(record)
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
                 analysis_section(record, sig),
                 '<h2 id="drilldown">Worst segments against the baseline</h2>',
                 parts.drilldown(sig.section.get("drilldown", []))]
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
