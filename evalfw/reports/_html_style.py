"""The HTML report's style sheet (inline in the page: the report loads nothing).

Layout rules, so the page fits any screen from a phone (~360 px) to a wide monitor:

- the page itself never scrolls sideways: tables that can be wider than the screen (results,
  paired tests, buckets, inputs) sit in a ``.wide`` box that scrolls on its own;
- charts are SVG with a ``viewBox`` and no fixed size, in grids whose columns shrink to the
  screen width (``min(100%, ...)``), so a chart is never wider than its column;
- drill-down texts are a two-column list (role, text) that becomes one column on narrow
  screens, so a text never gets squeezed next to its label;
- hashes are ellipsized (full value in the title and when copied), paths wrap at ``/``.
"""

from __future__ import annotations

STYLE = """
:root{--fg:#1d2330;--muted:#5b6475;--line:#d9dee7;--bg:#fff;--band:#f4f6fa;--accent:#0b5cad}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
color:var(--fg);background:var(--bg);margin:0 auto;max-width:1180px;
padding:24px clamp(10px,3vw,28px) 60px;overflow-wrap:break-word}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:34px 0 10px;padding-bottom:4px;
border-bottom:2px solid var(--line)}h3{font-size:16px;margin:22px 0 8px}
.meta,.legend,.note{color:var(--muted);font-size:13px}
nav{display:flex;flex-wrap:wrap;gap:4px 14px}
nav a{color:var(--accent);text-decoration:none;font-size:14px}
.wide{overflow-x:auto;max-width:100%;margin:6px 0 10px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
.wide>table{margin:0}
th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:right;vertical-align:top}
th{background:var(--band);font-weight:600}th:first-child,td:first-child{text-align:left}
thead th[colspan]{text-align:center}
table.results td,table.tests td,table.buckets td{white-space:nowrap}
table.tests td:nth-child(2),table.tests th:nth-child(2){text-align:left}
table.results td.baseline{background:#f7f3e8}
.ci{color:var(--muted);font-size:12.5px}.mark{font-weight:700;color:var(--accent)}
.worse .mark{color:#b3261e}.better{color:#0a6b3a}.worse{color:#b3261e}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));
gap:18px;margin:6px 0 12px}
.multiples{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,230px),1fr));
gap:10px;margin:6px 0 12px}
figure{margin:0;min-width:0}figcaption{font-size:13px;font-weight:600;margin:0 0 4px}
.multiples figcaption{font-weight:400}.swatch{font-size:15px}
svg.chart{display:block;width:100%;max-width:100%;height:auto;background:#fff;
border:1px solid var(--line);border-radius:6px}
svg .tick{font:11px sans-serif;fill:#5b6475}svg .axis{font:600 12px sans-serif;fill:#1d2330}
svg .lab{font:12px sans-serif;fill:#1d2330}svg .val{font:11px sans-serif;fill:#1d2330}
svg .grid{stroke:#e3e7ee;stroke-width:1}
details{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:4px 12px}
summary{cursor:pointer;font-weight:600;padding:4px 0}
.seg{border-top:1px solid var(--line);padding:8px 0}
.seghead{margin:0 0 6px;font-size:13px;font-variant-numeric:tabular-nums}
dl.texts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:3px 12px;margin:0}
dl.texts dt{color:var(--muted);font-size:12px;max-width:16ch;overflow-wrap:anywhere}
dl.texts dd{margin:0;min-width:0}
@media (max-width:640px){dl.texts{grid-template-columns:minmax(0,1fr)}
dl.texts dt{max-width:none;margin-top:6px}}
.txt{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;
white-space:pre-wrap;overflow-wrap:anywhere}
mark{background:#ffe08a;padding:0 1px;border-radius:2px}
table.kv th,table.kv td,table.inputs th,table.inputs td,table.sigs th,table.sigs td{
text-align:left}
table.kv td{overflow-wrap:anywhere}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;
overflow-wrap:anywhere}
.sha{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;display:inline-block;
max-width:16ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
pre{background:var(--band);padding:10px;border-radius:6px;overflow:auto;font-size:12.5px}
"""
