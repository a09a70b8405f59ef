"""The results of the drop-in command line, byte for byte as sacreBLEU 2.6.0 prints them.

- One system: each metric's line (or JSON object, or bare score with ``-b``); several JSON
  objects are joined into a list; text lines are right-aligned on their first ``=`` (lines
  without one are printed first, as they come, and the alignment pairs the remaining widths
  with the lines from the top, as sacreBLEU's loop does); an interval ``(μ = ...)`` is cyan.
- Several systems: a table (``fancy_grid`` for text, ``latex_booktabs`` for LaTeX) of the
  formatted scores, or paired-test cells ``score (mean ± ci)`` and ``(p = ...)``, then the
  paired test's notes and the signatures; JSON is a list of ``{"system": ..., metric: ...}``.

sacreBLEU cannot print paired-bootstrap JSON for chrF or TER (their resampled means are numpy
float32, which its ``json.dumps`` refuses); here they are printed as the floats they are.
"""

from __future__ import annotations

import json
import re
from typing import Any

from evalfw.compat.sacrebleu import _text as st
from evalfw.compat.sacrebleu._messages import Console
from evalfw.compat.sacrebleu._table import render

__all__ = ["single_results", "table_results"]

_INTERVAL = r"(\(μ = [0-9\.]+ ± [0-9\.]+\))"  # compiled on first use


def single_results(results: list[str], fmt: str, console: Console) -> str:
    """The output of one system's metric lines."""
    if fmt == "json":
        return ("[\n" + ",\n".join(results) + "\n]\n") if len(results) > 1 else results[0] + "\n"
    if "μ" in results[0]:
        results = [re.sub(_INTERVAL, lambda m: console.paint(m.group(), "cyan"), line)
                   for line in results]
    if len(results) == 1:
        return results[0] + "\n"
    out, cuts = [], []
    for line in results:
        if "=" in line:
            cuts.append(line.index("=") - 1)
        else:
            out.append(line + "\n")
    if cuts:
        w = max(cuts)
        out += [f"{line[:cut]:>{w}}{line[cut:]}\n" for cut, line in zip(cuts, results)]
    return "".join(out)


def _plain(value: Any) -> Any:
    """JSON-ready: numpy scalars become the floats they hold."""
    return value if value is None or type(value) in (float, int) else float(value)


def _json(columns: dict[str, list[Any]]) -> str:
    keys = list(columns)
    rows = []
    for i, system in enumerate(columns["System"]):
        row: dict[str, Any] = {"system": system}
        for key in keys[1:]:
            cell = columns[key][i]
            row[key] = cell if isinstance(cell, str) else {
                k: _plain(v) for k, v in vars(cell).items()}
        rows.append(row)
    return json.dumps(rows, indent=4) + "\n"


def table_results(columns: dict[str, list[Any]], signatures: dict[str, str], args: Any,
                  console: Console) -> str:
    """Several systems: ``columns`` holds ``System`` (the names) and each metric's cells
    (formatted scores, or paired-test results)."""
    if args.format == "json":
        return _json(columns)
    fmt = "fancy_grid" if args.format == "text" else "latex_booktabs"
    names = columns["System"]
    header, cells = ["System"], [list(names)]
    bootstrap = False
    for key, values in list(columns.items())[1:]:
        column = []
        for cell in values:
            if isinstance(cell, str):
                column.append(cell)
                continue
            if cell.mean is not None:
                bootstrap = True
            column.append(st.paired_cell(cell.score, cell.mean, cell.ci, cell.p_value,
                                         args.width, fmt == "fancy_grid", console.paint))
        header.append(f"{key} (μ ± 95% CI)" if bootstrap else key)
        cells.append(column)
    baseline, marked = "", False
    for column in cells:
        if column[0].startswith("Baseline:") or marked:  # an empty table fails here too
            if column[0].startswith("Baseline:"):
                baseline = column[0]
            marked = True
            column[0] = console.paint(column[0], "yellow")
    header = [console.paint(h, "cyan") for h in header]
    rows = [list(row) for row in zip(*cells)]
    out = [render(header, rows, fmt, args.width), "\n\n"]
    if args.paired_bs or args.paired_ar:
        method = "bootstrap" if args.paired_bs else "ar"
        n = args.paired_bs_n if args.paired_bs else args.paired_ar_n
        out.append(st.paired_explanation(method, n, baseline, console.paint) + "\n")
    out.append(st.signatures_block(signatures) + "\n")
    return "".join(out)
