"""The results table as a notebook shows a run (``RunResult._repr_html_``).

Self-styled: every element carries its own ``style`` attribute, so the table reads the same
in a plain page (no style sheet at all) and in Jupyter (whose own table rules, such as
``white-space: normal`` or a fixed table layout, are overridden by inline styles). Colours are
translucent greys that work on light and dark themes. A score, its interval and its markers
never wrap (``†/·`` stays on one line), numbers and their headers are right-aligned, and
unmarked scores keep the markers' room so that the numbers of a column line up. A table wider
than the output area scrolls in its own box.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from itertools import groupby
from typing import Any

from evalfw.reports._grid import Column, Grid, title
from evalfw.reports._legend import legend

_LINE = "rgba(128,128,128,.35)"
_FONT = "system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif"
_CELL = (f"padding:3px 9px;border:0;border-bottom:1px solid {_LINE};vertical-align:top;"
         "line-height:1.4;white-space:nowrap;max-width:none")
_TH = _CELL + ";font-weight:600;background:rgba(128,128,128,.08)"
_LEFT, _RIGHT, _CENTRE = ";text-align:left", ";text-align:right", ";text-align:center"
_MUTED = "opacity:.72;font-size:.88em"
_TABLE = ("border-collapse:collapse;border-spacing:0;table-layout:auto;width:auto;"
          "margin:0;font-size:13px;font-variant-numeric:tabular-nums;color:inherit;"
          "background:transparent")


def _score(grid: Grid, system: str, col: Column) -> str:
    row = grid.cells.get((system, col))
    if row is None:
        return "–"
    sig = grid.significance
    places = sig.places(col.metric)
    text = f"{row['score']:.{places}f}"
    cell = sig.cell(system, col.test_set, col.metric) if col.level == "corpus" else None
    if cell is None:
        return text
    if cell.ci is not None:
        text += f' <span style="{_MUTED}">±{cell.ci:.{places}f}</span>'
    # the marker's room is kept when there is none, so right-aligned numbers line up
    room = 1
    mark = escape(sig.marker_text(cell)) if any(cell.markers) else ""
    return (text + f' <span style="display:inline-block;min-width:{room * 0.62:.2f}em;'
            f'text-align:left;font-weight:700">{mark}</span>')


def notebook_html(record: Mapping[str, Any]) -> str:
    """The run's title, its systems x (test set, metric) table and the legend."""
    grid = Grid(record)
    groups = [(t, len(list(g))) for t, g in groupby(grid.columns, key=lambda c: c.test_set)]
    head = (f'<tr><th rowspan="2" style="{_TH}{_LEFT};vertical-align:bottom">system</th>'
            + "".join(f'<th colspan="{k}" style="{_TH}{_CENTRE}">{escape(t)}</th>'
                      for t, k in groups)
            + "</tr><tr>"
            + "".join(f'<th style="{_TH}{_RIGHT}">{escape(c.label)}</th>' for c in grid.columns)
            + "</tr>")
    rows = "".join(
        f'<tr><th style="{_TH}{_LEFT}">{escape(grid.system(s))}</th>'
        + "".join(f'<td style="{_CELL}{_RIGHT}">{_score(grid, s, c)}</td>'
                  for c in grid.columns) + "</tr>"
        for s in grid.systems)
    notes = "".join(f'<p style="margin:4px 0 0;max-width:100ch;{_MUTED}">{escape(line)}</p>'
                    for line in legend(grid.significance))
    return (f'<div style="max-width:100%;overflow-x:auto;color:inherit;font-family:{_FONT}">'
            f'<p style="margin:0 0 6px;font-weight:600">{escape(title(record))}</p>'
            f'<table style="{_TABLE}"><thead>{head}</thead><tbody>{rows}</tbody></table>'
            f"{notes}</div>")


__all__ = ["notebook_html"]
