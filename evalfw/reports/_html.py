"""The self-contained HTML report of a run: one file, readable from disk, no network.

Everything is inline: CSS in a ``<style>`` element, charts as inline SVG, no scripts, no
fonts, no images. A Content-Security-Policy ``default-src 'none'`` makes the browser refuse
any external load should one ever slip in. The page holds:

1. the systems x test sets results with intervals and significance markers and its legend
   (:mod:`evalfw.reports._html_results`);
2. the output checks: which ran, what a flag counted for, and the flagged segments with
   source, references and output (:mod:`evalfw.reports._html_checks`);
3. per test set x metric a chart of the scores with their interval bars (best system on
   top), the paired tests table and, with buckets, the score per length bucket as small
   multiples (:mod:`evalfw.reports._html_analysis`);
4. the drill-down: each system's worst segments against the baseline, with source,
   references and both hypotheses (texts stored in the record at run time,
   :mod:`evalfw.reports._html_drilldown`), flagged segments marked;
5. with a meta-evaluation, how each metric agrees with the human judgements
   (:mod:`evalfw.reports._html_meta`);
6. provenance: command, config, seed, environment, plugins, inputs with sha256, signatures.

A system has one colour in every chart. Numbers get the decimals of their metric's scale.
The page fits any screen width, and chart text stays readable at every width (see
:mod:`evalfw.reports._html_style` and :mod:`evalfw.reports._svg_text`). It renders from the
record alone, so ``evalfw show RUN --format html`` needs no input file.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from evalfw.reports import _html_parts as parts
from evalfw.reports._cells import Significance
from evalfw.reports._checks import section as checks_of
from evalfw.reports._grid import Grid
from evalfw.reports._html_analysis import analysis_section
from evalfw.reports._html_checks import checks_section, line_flags
from evalfw.reports._html_drilldown import drilldown
from evalfw.reports._html_meta import meta_section
from evalfw.reports._html_results import results_table
from evalfw.reports._html_style import STYLE
from evalfw.reports._svg import system_colours

CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; "
       "connect-src 'none'; script-src 'none'")

def render(record: Mapping[str, Any]) -> str:
    """The whole page."""
    sig = Significance(record)
    colours = system_colours(Grid(record).systems)  # one colour per system on the whole page
    title = f"{record['experiment']} · {record['version']}"
    nav = ['<a href="#results">Results</a>']
    body = [f"<header><h1>{escape(record['experiment'])}</h1>"
            f"<p class=\"meta\">version {escape(record['version'])} · created "
            f"{escape(record['created'])} · evalfw {escape(record['evalfw_version'])}</p>"
            "</header>",
            "<h2 id=\"results\">Results</h2>", results_table(record, sig)]
    if checks_of(record) is not None:
        nav.append('<a href="#checks">Output checks</a>')
        body += ['<h2 id="checks">Output checks</h2>', checks_section(record)]
    if sig:
        nav += ['<a href="#analysis">Significance</a>', '<a href="#drilldown">Worst segments</a>']
        body += ['<h2 id="analysis">Significance and intervals</h2>', parts.settings_note(sig),
                 analysis_section(sig, colours),
                 '<h2 id="drilldown">Worst segments against the baseline</h2>',
                 drilldown(sig.section.get("drilldown", []), sig.scales, line_flags(record))]
    meta = meta_section(record)
    if meta:
        nav.append('<a href="#meta">Agreement with humans</a>')
        body += ['<h2 id="meta">Agreement with human judgements (meta-evaluation)</h2>', meta]
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
