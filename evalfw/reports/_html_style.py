"""The HTML report's style sheet (inline in the page: the report loads nothing).

Layout rules, so the page uses a wide screen and fits a phone (~360 px):

- the page itself never scrolls sideways: tables of numbers sit in a ``.wide`` box that
  scrolls on its own where the screen is too narrow, with the system column (``.sys``) sticky
  so every row keeps its name in view; a long system name wraps (``.name``);
- results split per test set sit side by side where they fit (``.sets``), and so do a score
  chart and its paired tests table (``.pair``);
- provenance tables (``.stack``) become one block per row on a phone, each value under its
  label, instead of squeezing a path into a column a few characters wide;
- numbers and their headers are right-aligned (``.num``) and never wrap (a marker stays with
  its score);
- charts are SVG with a ``viewBox``, drawn between a minimum width (their smallest text at
  9 CSS px) and a maximum (see :mod:`evalfw.reports._svg_text`); below the minimum their box
  scrolls; small multiples take as many columns as fit at that minimum;
- a ranking's clusters alternate their rows' background (``tr.band``);
- drill-down texts are a two-column list (role, text) that becomes one column on narrow
  screens, so a text never gets squeezed next to its label;
- hashes are ellipsized (full value in the title and when copied), paths wrap after a ``/``.
"""

from __future__ import annotations

from evalfw.reports._svg import SVG_STYLE

STYLE = """
:root{--fg:#1d2330;--muted:#5b6475;--line:#d9dee7;--bg:#fff;--band:#f4f6fa;--accent:#0b5cad}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
color:var(--fg);background:var(--bg);margin:0 auto;max-width:1500px;
padding:24px clamp(10px,3vw,28px) 60px;overflow-wrap:break-word}
p{max-width:130ch}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:34px 0 10px;padding-bottom:4px;
border-bottom:2px solid var(--line)}h3{font-size:16px;margin:22px 0 8px}
.meta,.legend,.note{color:var(--muted);font-size:13px}
nav{display:flex;flex-wrap:wrap;gap:4px 14px}
nav a{color:var(--accent);text-decoration:none;font-size:14px}
.wide{overflow-x:auto;max-width:100%;margin:6px 0 10px}
.sets,.pair{display:flex;flex-wrap:wrap;gap:0 28px;align-items:flex-start}
.sets>.wide{flex:0 1 auto;min-width:0}.pair>.wide{flex:1 1 auto;min-width:0}
.pair>figure{flex:0 1 auto;margin:6px 0 12px}
table{border-collapse:separate;border-spacing:0;font-variant-numeric:tabular-nums}
.wide>table{margin:0}
th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--band);font-weight:600}
.num{text-align:right;white-space:nowrap}th.num{white-space:normal}.nw{white-space:nowrap}
thead th.set{text-align:center}
.sys{position:sticky;left:0;z-index:1;background:var(--band);box-shadow:inset -1px 0 var(--line)}
.name{display:inline-block;max-width:15em}
td.baseline{background:#f7f3e8}
tr.band>td{background:var(--band)}figure.ranking{margin:6px 0 12px}
.ci{color:var(--muted);font-size:12.5px}.mark{font-weight:700;color:var(--accent)}
.worse .mark{color:#b3261e}.better{color:#0a6b3a}.worse{color:#b3261e}
.multiples{display:grid;gap:10px;margin:6px 0 12px}
figure{margin:0;min-width:0;overflow-x:auto}
figcaption{font-size:13px;font-weight:600;margin:0 0 4px}
.multiples figcaption{font-weight:400}.swatch{font-size:15px}
svg.chart{display:block;width:100%;height:auto;background:#fff;
border:1px solid var(--line);border-radius:6px}
details{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:4px 12px}
summary{cursor:pointer;font-weight:600;padding:4px 0}
.seg{border-top:1px solid var(--line);padding:8px 0}
.seghead{margin:0 0 6px;font-size:13px;font-variant-numeric:tabular-nums}
dl.texts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:3px 12px;margin:0}
dl.texts dt{color:var(--muted);font-size:12px;max-width:16ch;overflow-wrap:anywhere}
dl.texts dd{margin:0;min-width:0}
.txt{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;
white-space:pre-wrap;overflow-wrap:anywhere}
mark{background:#ffe08a;padding:0 1px;border-radius:2px}
.flag{display:inline-block;background:#fde7e4;color:#8c1d13;border-radius:3px;padding:0 5px;
font-size:12.5px;white-space:nowrap}.none{color:var(--muted);font-style:italic}
table.kv{width:100%}table.kv th{width:11em}table.kv td{overflow-wrap:anywhere}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
.sha{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;display:inline-block;
max-width:16ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
pre{background:var(--band);padding:10px;border-radius:6px;overflow:auto;font-size:12.5px}
@media (max-width:640px){
dl.texts{grid-template-columns:minmax(0,1fr)}dl.texts dt{max-width:none;margin-top:6px}
.sys{font-size:13px}.name{max-width:11em}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block}
table.stack thead{display:none}
table.stack tr{border-bottom:1px solid var(--line);padding:4px 0}
table.stack td{border:0;padding:1px 0;text-align:left;display:grid;
grid-template-columns:5.5em minmax(0,1fr);gap:8px}table.stack td:empty{display:none}
table.stack td::before{content:attr(data-label);color:var(--muted);font-size:12.5px}}
""" + SVG_STYLE
