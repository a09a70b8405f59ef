"""Built-in report writers: ``table`` (terminal, the default), ``json``, ``csv``, ``markdown``,
``latex`` (booktabs) and ``html`` (one self-contained page, :mod:`evalfw.reports._html`).

Reporters see only the record (``record.json`` as a mapping), never the data or the engine, so
``evalfw show`` renders any stored version exactly as ``evalfw run`` did. The grid reporters
put systems in rows and (test set, metric[, level]) in columns; ``csv`` and ``json`` keep
every result at full precision.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from evalfw.limits import LIMITS
from evalfw.reports._cells import latex_escape
from evalfw.reports.base import Reporter

if TYPE_CHECKING:
    from evalfw.reports._grid import Grid

_DECIMALS: dict[str, Any] = {
    "type": "object",
    "properties": {"decimals": {
        "description": "digits after the point; default 2 for 0-100 scores and 4 for 0-1",
        **LIMITS["width"].schema(default=None), "type": ["integer", "null"]}},
    "additionalProperties": False,
}


def _grid(record: Mapping[str, Any], decimals: int | None) -> Grid:
    # imported here: registering the reporters (every plugin host does) must stay cheap
    from evalfw.reports._grid import Grid

    return Grid(record, decimals)


class TableReporter(Reporter):
    name = "table"
    description = ("aligned terminal table: systems x test set/metric, the paired tests, "
                   "then signatures")
    extension = "txt"
    options_schema = {**_DECIMALS, "properties": {**_DECIMALS["properties"], "width": {
        "description": "wrap columns and text to this many characters (default: no limit; "
                       "the command line passes the terminal's width)",
        "type": ["integer", "null"], "minimum": 20, "default": None}}}

    def render(self, record: Mapping[str, Any]) -> str:
        # imported here: registering the reporters (every plugin host does) must stay cheap
        from evalfw.reports._text_table import render_table

        return render_table(record, self.options["decimals"], self.options["width"])


class JsonReporter(Reporter):
    name = "json"
    description = "the results and signatures as JSON (full precision)"
    extension = "json"
    machine_readable = True

    def render(self, record: Mapping[str, Any]) -> str:
        keep = ("experiment", "version", "created", "specs", "results", "warnings",
                "significance",  # present when the config asked for significance tests
                "judgements", "meta_evaluation")  # human judgements and the meta-evaluation
        return json.dumps({k: record[k] for k in keep if k in record}, indent=1,
                          ensure_ascii=False) + "\n"


CSV_FIELDS = ("test_set", "system", "metric", "level", "score", "score_scale", "bp", "ratio",
              "hyp_len", "ref_len", "precisions", "counts", "totals", "n", "min", "max",
              "flagged", "flagged_lines")
#: with a significance analysis, per corpus row: the system's own interval, its paired
#: difference from the baseline with the difference's interval (unadjusted), the marking
#: test's p-values, minimum detectable difference and result, and the secondary test's
CSV_SIGNIFICANCE = ("ci_level", "ci_lower", "ci_upper", "delta", "delta_lower", "delta_upper",
                    "delta_interval", "test", "resampled", "p_value", "p_adjusted",
                    "correction", "mdd", "result", "secondary_test", "secondary_p_value",
                    "secondary_p_adjusted")


def _csv_value(value: Any) -> Any:
    from evalfw.names import csv_text

    if isinstance(value, list):
        return " ".join(repr(x) for x in value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):  # a text cell never starts a formula (a system =cmd|...)
        return csv_text(value)
    return "" if value is None else value


def _significance_fields(sig: Any, r: Mapping[str, Any]) -> dict[str, Any]:
    """The :data:`CSV_SIGNIFICANCE` values of result row ``r`` (empty when not analysed)."""
    table = sig.tables.get((r["test_set"], r["metric"]))
    if table is None or r["level"] != "corpus":
        return {}
    interval = next((i for i in table["intervals"] if i["system"] == r["system"]), None)
    out: dict[str, Any] = {}
    if interval is not None:
        out.update(ci_level=sig.level, ci_lower=interval["lower"], ci_upper=interval["upper"])
    comp = sig.comparison(r["system"], r["test_set"], r["metric"], sig.method)
    if comp is None:
        return out
    out.update(delta=comp["delta"], delta_lower=comp.get("delta_lower"),
               delta_upper=comp.get("delta_upper"),
               delta_interval="unadjusted" if comp.get("delta_lower") is not None else None,
               test=sig.method, resampled=sig.unit(table, sig.method),
               p_value=comp["p_value"], p_adjusted=comp.get("p_adjusted"),
               correction=sig.correction, mdd=sig.mdd(comp),
               result=sig.verdict(comp, r["metric"]))
    if sig.secondary is not None:
        other = sig.comparison(r["system"], r["test_set"], r["metric"], sig.secondary)
        if other is not None:
            out.update(secondary_test=sig.secondary, secondary_p_value=other["p_value"],
                       secondary_p_adjusted=other.get("p_adjusted"))
    return out


class CsvReporter(Reporter):
    name = "csv"
    description = ("one row per test set x system x metric x level, full precision; with a "
                   "significance analysis also the interval, the paired difference from the "
                   "baseline with its interval, p-values and the result")
    extension = "csv"

    def render(self, record: Mapping[str, Any]) -> str:
        from evalfw.reports import _checks
        from evalfw.reports._cells import Significance

        sig = Significance(record)
        fields = CSV_FIELDS + (CSV_SIGNIFICANCE if sig else ())
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(fields)
        for r in record["results"]:
            flags = _checks.system_flags(record, r["test_set"], r["system"])
            row = {**r, "flagged_lines": _checks.flags_text(flags),
                   "flagged": len(set().union(*flags.values())) if flags else ""}
            if sig:
                row.update(_significance_fields(sig, r))
            writer.writerow([_csv_value(row.get(k)) for k in fields])
        return buf.getvalue()


#: what a name embedded in Markdown must not be read as: HTML (``<``, ``&``; ``>`` too, for
#: symmetry), and the inline Markdown it could start: escapes, code, emphasis, strikethrough,
#: links and images, table cells, e-mail autolinks (``a@b``; the colon of a URL scheme and
#: the dot of ``www.`` are escaped where they occur)
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MD_ESCAPED = set("\\`*_~[]|@")


def md_escape(text: str, line: bool = False) -> str:
    """``text`` as Markdown that renders as exactly this text in a table cell (or, with
    ``line``, as a line of its own): HTML characters as entities, Markdown's inline
    metacharacters backslash-escaped, a ``www.`` (an autolink on GitHub) broken by an
    escaped dot, control characters replaced; a line's leading block marker (``#``, ``-``,
    ``+``, ``=``, ``1.``) escaped too."""
    out = []
    for char in text:
        if char in _MD_ENTITIES:
            out.append(_MD_ENTITIES[char])
        elif char in _MD_ESCAPED:
            out.append("\\" + char)
        elif char < " " or char == "\x7f":
            out.append("\ufffd")
        else:
            out.append(char)
    escaped = "".join(out)
    escaped = re.sub(r"(?i)(www)\.", r"\1\\.", escaped)
    escaped = re.sub(r"(?i)\b(https?|ftp|mailto|xmpp)(:)", r"\1\\\2", escaped)
    if not line:
        return escaped
    escaped = re.sub(r"^(\s*)(\d+)([.)])", r"\1\2\\\3", escaped)
    return re.sub(r"^(\s*)([#+=-])", r"\1\\\2", escaped)


class MarkdownReporter(Reporter):
    name = "markdown"
    description = "a Markdown (GitHub) table, systems x test set/metric"
    extension = "md"
    options_schema = _DECIMALS

    def render(self, record: Mapping[str, Any]) -> str:
        grid = _grid(record, self.options["decimals"])
        head = ["System", *(f"{c.test_set} {c.label}" for c in grid.columns)]
        out = ["| " + " | ".join(md_escape(h) for h in head) + " |",
               "|:---|" + "---:|" * len(grid.columns)]
        for s in grid.systems:
            out.append("| " + " | ".join([md_escape(grid.system(s)),
                                          *(grid.value(s, c) for c in grid.columns)]) + " |")
        sig = grid.significance
        if sig:
            from evalfw.reports import _ranking_block, _tests_block

            tests = _tests_block.rows(sig)
            head = _tests_block.header(sig)
            if tests:
                out += ["", md_escape(_tests_block.heading(sig), line=True), "",
                        *_md_table(head, tests, 3, last_left=True)]
            for caption, head, body in _ranking_block.tables(sig):
                out += ["", md_escape(caption, line=True), "", *_md_table(head, body, 2)]
            from evalfw.reports._legend import legend

            out += ["", *(md_escape(x, line=True) for x in legend(sig))]
        from evalfw.reports import _checks

        checks = _checks.legend(record)
        if checks:
            out += ["", md_escape(checks, line=True)]
        flagged = _checks.flagged_rows(record)
        if flagged:
            out += ["", *_md_table(("Test set", "System", "Flagged segments"), flagged, 3)]
        return "\n".join(out) + "\n"


def _md_table(head: Sequence[str], body: Sequence[Sequence[str]], left: int,
              last_left: bool = False) -> list[str]:
    """A Markdown table: the first ``left`` columns (and the last, with ``last_left``)
    left-aligned, the others right-aligned; every cell escaped."""
    rule = ["---" if i < left or (last_left and i == len(head) - 1) else "---:"
            for i in range(len(head))]
    rule = [(":" + r) if r == "---" else r for r in rule]
    return ["| " + " | ".join(md_escape(h) for h in head) + " |", "|" + "|".join(rule) + "|",
            *("| " + " | ".join(md_escape(c) for c in row) + " |" for row in body)]


class LatexReporter(Reporter):
    name = "latex"
    description = ("a LaTeX table float: booktabs tabular (needs \\usepackage{booktabs}) "
                   "and a caption with the significance legend")
    extension = "tex"
    options_schema = _DECIMALS

    def render(self, record: Mapping[str, Any]) -> str:
        grid = _grid(record, self.options["decimals"])
        n = len(grid.columns)
        out = ["\\begin{table}[t]", "\\centering", f"\\begin{{tabular}}{{l{'r' * n}}}",
               "\\toprule"]
        groups = grid.test_set_groups()
        out.append(" & ".join(["", *(f"\\multicolumn{{{k}}}{{c}}{{{latex_escape(t)}}}"
                                     for t, k in groups)]) + " \\\\")
        start, rules = 2, []
        for _, k in groups:
            rules.append(f"\\cmidrule(lr){{{start}-{start + k - 1}}}")
            start += k
        out.append(" ".join(rules))
        out.append(" & ".join(["System", *(latex_escape(c.label) for c in grid.columns)])
                   + " \\\\")
        out.append("\\midrule")
        for s in grid.systems:
            out.append(" & ".join([latex_escape(grid.system(s)),
                                   *(grid.value(s, c, latex=True) for c in grid.columns)])
                       + " \\\\")
        out += ["\\bottomrule", "\\end{tabular}"]
        # the caption carries the legend, so the table explains itself where it is pasted
        from evalfw.reports._checks import legend as checks_legend
        from evalfw.reports._grid import title
        from evalfw.reports._legend import legend

        checks = checks_legend(record)
        caption = [f"Results of {latex_escape(title(record))}.",
                   *legend(grid.significance, latex=True),
                   *([latex_escape(checks)] if checks else [])]
        out += ["\\caption{" + " ".join(caption) + "}", "\\end{table}"]
        if grid.significance:
            out += _latex_deltas(grid, title(record))
        return "\n".join(out) + "\n"


def _latex_deltas(grid: Grid, name: str) -> list[str]:
    """A second float: each system's paired difference from the baseline with its interval
    and the marking test's mark, in the results table's columns."""
    sig = grid.significance
    columns = [c for c in grid.columns if c.level == "corpus" and sig.tables.get(
        (c.test_set, c.metric))]
    if not columns:
        return []
    out = ["", "\\begin{table}[t]", "\\centering",
           f"\\begin{{tabular}}{{l{'r' * len(columns)}}}", "\\toprule",
           " & ".join(["System", *(latex_escape(f"{c.test_set} {c.label}") for c in columns)])
           + " \\\\", "\\midrule"]
    for system in grid.systems:
        cells = []
        for col in columns:
            table = sig.tables[(col.test_set, col.metric)]
            places = sig.places(col.metric)
            comp = sig.comparison(system, col.test_set, col.metric, sig.method)
            if system == table["baseline"]:
                cells.append("---")
            elif comp is None:
                cells.append("-")
            else:
                cell = sig.cell(system, col.test_set, col.metric)
                span = "" if comp.get("delta_lower") is None else (
                    f" {{\\small[{comp['delta_lower']:+.{places}f}, "
                    f"{comp['delta_upper']:+.{places}f}]}}")
                mark = sig.marker_text(cell, latex=True) if cell is not None else ""
                cells.append(f"${comp['delta']:+.{places}f}${span}{mark}")
        out.append(" & ".join([latex_escape(system), *cells]) + " \\\\")
    baseline = latex_escape(str(sig.settings.get("baseline")))
    caption = (f"Paired differences from the baseline {baseline} "
               f"in {latex_escape(name)} (system $-$ baseline), with their "
               f"{latex_escape(sig.level_text)} bootstrap intervals, unadjusted for multiple "
               "comparisons; marks as in the results table.")
    out += ["\\bottomrule", "\\end{tabular}", "\\caption{" + caption + "}", "\\end{table}"]
    return out


class HtmlReporter(Reporter):
    name = "html"
    description = ("self-contained HTML page: results table with intervals and significance "
                   "markers, SVG charts, worst-segment drill-down, provenance")
    extension = "html"

    def render(self, record: Mapping[str, Any]) -> str:
        from evalfw.reports._html import render  # the page code loads only when used

        return render(record)


__all__ = [
    "CSV_FIELDS", "CsvReporter", "HtmlReporter", "JsonReporter",
    "latex_escape", "LatexReporter", "MarkdownReporter", "md_escape", "TableReporter",
]
