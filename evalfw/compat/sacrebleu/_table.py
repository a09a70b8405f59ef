"""Tables as sacreBLEU 2.6.0 prints them through tabulate 0.10: ``fancy_grid`` (text) and
``latex_booktabs`` (LaTeX), first column right-aligned, the others centred.

What has to agree with tabulate, cell for cell:

- widths: the longest visible line of a column (colour codes do not count), at least its
  header plus 2; one space of padding on each side of every cell; a line's width is what
  ``wcwidth.wcswidth`` says when the wcwidth package is installed (tabulate then counts a CJK
  character as two columns), else its length in characters, as tabulate decides;
- a cell is stripped at both ends, then padded (centred cells put the odd space right);
- cells with a line break make every row as tall as its tallest cell (``fancy_grid`` only;
  the other lines are blank), each line padded on its own;
- columns tabulate reads as floats (every non-empty cell a number, not all integers) are
  printed again with the table's ``.{w}f`` format;
- LaTeX escapes ``& % $ # _ ^ { } ~ \\ < >`` after padding.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

__all__ = ["render", "strip_colours"]

_COLOUR = re.compile(r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]")
_THOUSANDS = re.compile(r"^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$")
_LINE_BREAK = re.compile(r"\r|\n")
_NOT_PLAIN = re.compile(r"[^\x20-\x7e\r\n\x1b]")

_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "^": r"\^{}",
          "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "\\": r"\textbackslash{}",
          "<": r"\ensuremath{<}", ">": r"\ensuremath{>}"}


def strip_colours(text: str) -> str:
    return _COLOUR.sub("", text)


def _width_function(texts: list[str]) -> Callable[[str], int]:
    """How tabulate measures a line in this environment. Printable ASCII measures the same
    either way, so wcwidth is imported only for tables that hold other characters (colour
    codes and line breaks are taken out before measuring)."""
    if not any(_NOT_PLAIN.search(t) for t in texts):
        return len
    try:
        from wcwidth import wcswidth
    except ImportError:
        return len
    return wcswidth


def _converts(kind: type, text: str) -> bool:
    try:
        kind(text)
    except (ValueError, TypeError):
        return False
    return True


def _kind(text: str) -> int:
    """tabulate's reading of one cell: 0 empty, 1 bool, 2 int, 3 float, 5 text."""
    if not text:
        return 0
    if text in ("True", "False"):
        return 1
    thousands = _THOUSANDS.match(text) is not None
    if _converts(int, text) or (thousands and "." not in text):
        return 2
    if _converts(float, text):
        value = float(text)
        if not (math.isinf(value) or math.isnan(value)) or text.lower() in ("inf", "-inf", "nan"):
            return 3
    return 3 if thousands else 5


def _reformat(cells: list[str], decimals: int | None, coloured: bool) -> list[str]:
    """A column tabulate reads as floats, printed again with ``.{decimals}f``."""
    if decimals is None:
        return cells
    kinds = [_kind(strip_colours(c) if coloured else c) for c in cells]
    if max(kinds, default=1) != 3:
        return cells
    out: list[str] = []
    for cell in cells:
        if not cell:
            out.append(cell)
            continue
        raw = strip_colours(cell) if coloured else cell.replace(",", "")
        try:
            text = format(float(raw), f".{decimals}f")
        except ValueError:
            out.append(cell if coloured else raw)
            continue
        out.append(cell.replace(raw, text) if coloured else text)
    return out


def _pad(text: str, width: int, align: str, visible: int) -> str:
    width += len(text) - visible  # colour codes take no room
    return f"{text:>{width}}" if align == "right" else f"{text:^{width}}"


def _lines(cell: str, multiline: bool) -> list[str]:
    return cell.splitlines() if multiline else [cell]


def render(header: list[str], rows: list[list[str]], fmt: str = "fancy_grid",
           decimals: int | None = None) -> str:
    """The table (``fmt``: ``fancy_grid`` or ``latex_booktabs``), without a final newline;
    ``decimals``: the ``.{w}f`` of columns read as floats (None: cells as given)."""
    ncols = len(header)
    texts = [*header, *(c for row in rows for c in row)]
    coloured = any("\x1b" in t for t in texts)
    multiline = fmt == "fancy_grid" and any(_LINE_BREAK.search(t) for t in texts)
    measure = _width_function(texts)
    width_of = (lambda s: measure(strip_colours(s))) if coloured else measure
    columns = [_reformat([row[c] for row in rows], decimals, coloured) for c in range(ncols)]
    aligns = ["right", *["center"] * (ncols - 1)] if rows else ["center"] * ncols
    widths = []
    for c in range(ncols):
        cells = [cell.strip() for cell in columns[c]]
        columns[c] = cells
        longest = max((width_of(line) for cell in cells for line in
                       (_LINE_BREAK.split(cell) if multiline else [cell])), default=0)
        widths.append(max(width_of(header[c]) + 2, longest))
    padded_rows = []
    for r in range(len(rows)):
        row_cells = []
        for c in range(ncols):
            lines = _lines(columns[c][r], multiline)
            row_cells.append([_pad(line, widths[c], aligns[c], width_of(line)) for line in lines])
        padded_rows.append(row_cells)
    head = [[_pad(line, widths[c], aligns[c], width_of(line)) for line in
             (_LINE_BREAK.split(header[c]) if multiline else [header[c]])] for c in range(ncols)]
    if fmt == "latex_booktabs":
        return _latex(head, padded_rows, aligns if rows else [])
    return _fancy_grid(head, padded_rows, widths)


def _stack(cells: list[list[str]], widths: list[int]) -> list[list[str]]:
    """The physical lines of one row: missing lines of shorter cells are blank."""
    height = max((len(cell) for cell in cells), default=1)
    return [[cell[i] if i < len(cell) else " " * w for cell, w in zip(cells, widths)]
            for i in range(height)]


def _fancy_grid(head: list[list[str]], rows: list[list[list[str]]], widths: list[int]) -> str:
    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def lines(cells: list[list[str]]) -> list[str]:
        return ["│ " + " │ ".join(line) + " │" for line in _stack(cells, widths)]

    out = [rule("╒", "═", "╤", "╕"), *lines(head), rule("╞", "═", "╪", "╡")]
    for i, row in enumerate(rows):
        if i:
            out.append(rule("├", "─", "┼", "┤"))
        out += lines(row)
    out.append(rule("╘", "═", "╧", "╛"))
    return "\n".join(out)


def _latex(head: list[list[str]], rows: list[list[list[str]]], aligns: list[str]) -> str:
    def line(cells: list[list[str]]) -> str:
        escaped = ["".join(_LATEX.get(ch, ch) for ch in cell[0]) for cell in cells]
        return ("&".join(f" {text} " for text in escaped) + "\\\\").rstrip()

    letters = "".join("r" if a == "right" else "c" for a in aligns)
    out = ["\\begin{tabular}{" + letters + "}", "\\toprule", line(head), "\\midrule"]
    out += [line(row) for row in rows]
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out)
