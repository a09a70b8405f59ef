"""Built-in report writers: ``table`` (terminal, the default), ``json``, ``csv``, ``markdown``,
``latex`` (booktabs) and ``html`` (one self-contained page, :mod:`evalfw.reports._html`).

Reporters see only the record (``record.json`` as a mapping), never the data or the engine, so
``evalfw show`` renders any stored version exactly as ``evalfw run`` did. The grid reporters
put systems in rows and (test set, metric[, level]) in columns; ``csv`` and ``json`` keep
every result at full precision.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from evalfw.limits import LIMITS
from evalfw.reports._cells import latex_escape
from evalfw.reports.base import Reporter

if TYPE_CHECKING:
    from evalfw.reports._grid import Grid

_DECIMALS = {
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

    def render(self, record: Mapping[str, Any]) -> str:
        import json

        keep = ("experiment", "version", "created", "specs", "results", "warnings",
                "significance",  # present when the config asked for significance tests
                "judgements", "meta_evaluation")  # human judgements and the meta-evaluation
        return json.dumps({k: record[k] for k in keep if k in record}, indent=1,
                          ensure_ascii=False) + "\n"


CSV_FIELDS = ("test_set", "system", "metric", "level", "score", "score_scale", "bp", "ratio",
              "hyp_len", "ref_len", "precisions", "counts", "totals", "n", "min", "max",
              "flagged", "flagged_lines")


class CsvReporter(Reporter):
    name = "csv"
    description = "one row per test set x system x metric x level, full precision"
    extension = "csv"

    def render(self, record: Mapping[str, Any]) -> str:
        import csv
        import io

        from evalfw.reports import _checks

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        for r in record["results"]:
            flags = _checks.system_flags(record, r["test_set"], r["system"])
            r = {**r, "flagged_lines": _checks.flags_text(flags),
                 "flagged": len(set().union(*flags.values())) if flags else ""}
            writer.writerow([
                " ".join(repr(x) for x in r[k]) if isinstance(r.get(k), list)
                else (repr(r[k]) if isinstance(r.get(k), float) else r.get(k, ""))
                for k in CSV_FIELDS])
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
    import re

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
            out.append("| " + " | ".join([md_escape(s), *(grid.value(s, c) for c in
                                                          grid.columns)]) + " |")
        sig = grid.significance
        if sig:
            from evalfw.reports import _tests_block

            tests = _tests_block.rows(sig)
            head = _tests_block.header(sig)
            if tests:
                out += ["", f"{_tests_block.TITLE}:", "",
                        "| " + " | ".join(md_escape(h) for h in head) + " |",
                        "|:---|:---|:---|" + "---:|" * (len(head) - 3),
                        *("| " + " | ".join(md_escape(c) for c in row) + " |" for row in tests)]
            out += ["", *(md_escape(x, line=True) for x in sig.legend())]
        from evalfw.reports import _checks

        legend = _checks.legend(record)
        if legend:
            out += ["", md_escape(legend, line=True)]
        flagged = _checks.flagged_rows(record)
        if flagged:
            out += ["", "| Test set | System | Flagged segments |", "|:---|:---|:---|",
                    *("| " + " | ".join(md_escape(c) for c in row) + " |" for row in flagged)]
        return "\n".join(out) + "\n"


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
            out.append(" & ".join([latex_escape(s), *(grid.value(s, c, latex=True)
                                                      for c in grid.columns)]) + " \\\\")
        out += ["\\bottomrule", "\\end{tabular}"]
        from evalfw.reports._grid import title

        # the caption carries the legend, so the table explains itself where it is pasted
        from evalfw.reports._checks import legend

        checks = legend(record)
        caption = [f"Results of {latex_escape(title(record))}.",
                   *grid.significance.legend(latex=True),
                   *([latex_escape(checks)] if checks else [])]
        out += ["\\caption{" + " ".join(caption) + "}", "\\end{table}"]
        return "\n".join(out) + "\n"


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
