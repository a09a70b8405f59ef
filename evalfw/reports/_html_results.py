"""The HTML report's results: systems x (test set, metric) with intervals and markers.

One table when all its columns fit a laptop screen (1024 CSS px); otherwise one table per test
set, side by side where the screen has room, so that no column hides behind a scrollbar on a
screen of 1024 px or more for a run of up to 4 test sets x 4 metrics. Widths are estimated
from the texts with the widest common font's advances (:mod:`evalfw.reports._svg_text`).
On a narrow screen each table scrolls in its own box with the system column kept in view.

Every cell carries the exact score, interval and p-value in ``data-*`` attributes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from itertools import groupby
from typing import Any

from evalfw.reports._cells import Significance
from evalfw.reports._grid import Column, Grid
from evalfw.reports._html_parts import p_text, system_cell, wide
from evalfw.reports._legend import legend
from evalfw.reports._svg_text import text_width

#: the width a table may take before it is split (px): a 1024 px screen less the page margins
FITS = 950
#: the page's font sizes (px) of a score, its interval and a row or column name
FONT, SMALL = 15.0, 12.5
PADDING = 21.0  # cell padding and border
NAME_MAX = 15 * FONT  # a system name wraps beyond 15em (see _html_style: .name)

_CLASSES = {"°": "baseline", "†": "better", "‡": "worse"}


def _cell(grid: Grid, sig: Significance, system: str, col: Column) -> tuple[str, float]:
    """The ``<td>`` of one score and its estimated width."""
    row = grid.cells.get((system, col))
    if row is None:
        return "<td class=\"num\">-</td>", text_width("-", FONT) + PADDING
    places = sig.places(col.metric)
    attrs = {"data-system": system, "data-test-set": col.test_set, "data-metric": col.metric,
             "data-level": col.level, "data-score": repr(row["score"])}
    score = f"{row['score']:.{places}f}"
    body, width = score, text_width(score, FONT)
    klass = "num"
    cell = sig.cell(system, col.test_set, col.metric) if col.level == "corpus" else None
    if cell is not None:
        if cell.ci is not None:
            attrs.update({"data-ci": repr(cell.ci), "data-lower": repr(cell.lower),
                          "data-upper": repr(cell.upper)})
            ci = f"±{cell.ci:.{places}f}"
            body += f' <span class="ci">{ci}</span>'
            width += text_width(" " + ci, SMALL)
        if cell.p_value is not None:
            attrs["data-p"] = repr(cell.p_value)
            attrs["title"] = p_text(cell.p_value, cell.p_adjusted, sig.adjusted_name)
        if cell.marker:  # the marking test's, as the legend says
            mark = sig.marker_text(cell)
            body += f' <span class="mark">{escape(mark)}</span>'
            width += text_width(" " + mark, FONT, bold=True)
        if cell.marker in _CLASSES:
            klass += " " + _CLASSES[cell.marker]
    attr = "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())
    return f"<td class=\"{klass}\"{attr}>{body}</td>", width + PADDING


def _table(grid: Grid, sig: Significance, columns: Sequence[Column]) -> tuple[str, float]:
    """One results table over ``columns`` and its estimated width."""
    groups = [(t, len(list(g))) for t, g in groupby(columns, key=lambda c: c.test_set)]
    # a header wraps at its spaces ("sacrebleu (sentence)"): its longest word counts
    widths = [max(text_width(w, FONT, bold=True) for w in c.label.split()) + PADDING
              for c in columns]
    systems = grid.systems_in(list(columns))  # a test set's table: the systems it has
    names = [min(text_width(grid.system(s), FONT, bold=True), NAME_MAX) for s in systems]
    name_w = max([text_width("System", FONT, bold=True), *names]) + PADDING
    sets = " ".join(t for t, _ in groups)
    out = [f'<table class="results" data-test-set="{escape(sets)}"><thead><tr>'
           '<th rowspan="2" class="sys">System</th>']
    out += [f'<th colspan="{k}" class="set">{escape(t)}</th>' for t, k in groups]
    out.append("</tr><tr>")
    # a header wraps at its spaces only, never after the hyphen of a name (chen-cherry-2)
    out += ['<th class="num">' + " ".join(f'<span class="nw">{escape(w)}</span>'
                                          for w in c.label.split()) + "</th>" for c in columns]
    out.append("</tr></thead><tbody>")
    for system in systems:
        out.append(f"<tr>{system_cell(grid.system(system))}")
        for k, col in enumerate(columns):
            html, width = _cell(grid, sig, system, col)
            widths[k] = max(widths[k], width)
            out.append(html)
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out), name_w + sum(widths)


def results_table(record: Mapping[str, Any], sig: Significance) -> str:
    """The paper table (or one per test set, see the module docstring) and its legend."""
    grid = Grid(record)
    table, width = _table(grid, sig, grid.columns)
    sets = [t for t, _ in grid.test_set_groups()]
    if width > FITS and len(sets) > 1:
        parts = [_table(grid, sig, [c for c in grid.columns if c.test_set == t])[0]
                 for t in sets]
        body = "<div class=\"sets\">" + "".join(wide(p) for p in parts) + "</div>"
    else:
        body = wide(table)
    from evalfw.reports._meta import units

    notes = "".join(f"<p class=\"legend\">{escape(line)}</p>"
                    for line in [*units(record), *legend(sig)])
    return body + notes


__all__ = ["results_table"]
