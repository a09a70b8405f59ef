"""The terminal table: the results grid, the paired tests, the legend and the signatures.

With a ``width`` (the terminal's, when printing to one) nothing goes past it: the grid's
columns are wrapped into several blocks, each repeating the system column, and long legend
lines are wrapped; stored reports are written without a width, so they keep one block.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from evalfw.reports import _checks, _ranking_block, _tests_block
from evalfw.reports._grid import Grid, title
from evalfw.reports._legend import legend

__all__ = ["aligned", "column_blocks", "render_table", "ruled"]

GAP = "  "


def aligned(rows: Sequence[Sequence[str]], left: int = 1, last_left: bool = False) -> list[str]:
    """``rows`` as lines: the first ``left`` columns left-aligned, the others right-aligned
    (the last one left-aligned too with ``last_left``)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lefts = [i < left or (last_left and i == len(widths) - 1) for i in range(len(widths))]
    return [GAP.join(c.ljust(w) if lft else c.rjust(w)
                     for c, w, lft in zip(r, widths, lefts)).rstrip() for r in rows]


def ruled(head: Sequence[Sequence[str]], body: Sequence[Sequence[str]],
          left: int = 1, last_left: bool = False) -> list[str]:
    """Header rows, a rule of dashes, then the body, aligned together."""
    widths = [max(len(r[i]) for r in [*head, *body]) for i in range(len(head[0]))]
    lines = aligned([*head, *body], left, last_left)
    return [*lines[:len(head)], GAP.join("-" * w for w in widths), *lines[len(head):]]


def column_blocks(widths: Sequence[int], width: int | None, fixed: int = 1) -> list[list[int]]:
    """Indices of the columns after the first ``fixed`` ones, grouped so that each block
    (with the fixed columns repeated) fits ``width``; one block without a width. A column
    wider than the width on its own still gets a block of its own."""
    rest = list(range(fixed, len(widths)))
    if width is None:
        return [rest]
    base = sum(widths[:fixed]) + len(GAP) * (fixed - 1)
    blocks: list[list[int]] = []
    used = base
    for i in rest:
        need = len(GAP) + widths[i]
        if blocks and used + need <= width:
            blocks[-1].append(i)
            used += need
        else:
            blocks.append([i])
            used = base + need
    return blocks


def _wrap(lines: list[str], width: int | None, indent: str = "") -> list[str]:
    if width is None:
        return lines
    out = []
    for line in lines:
        lead = line[:len(line) - len(line.lstrip())] or indent
        out += textwrap.wrap(line, width, subsequent_indent=lead + "  ",
                             break_on_hyphens=False, break_long_words=True) or [""]
    return out


def _blocks(head: Sequence[str], body: Sequence[Sequence[str]], width: int | None, left: int,
            last_left: bool = False) -> list[str]:
    """A ruled table whose columns after the first ``left`` wrap into blocks that fit
    ``width``; ``last_left``: the last column (words) is left-aligned."""
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    out: list[str] = []
    for n, block in enumerate(column_blocks(widths, width, fixed=left)):
        keep = [*range(left), *block]
        words = last_left and keep[-1] == len(head) - 1  # result words read left to right
        out += [""] * (n > 0) + ruled([[head[i] for i in keep]],
                                      [[r[i] for i in keep] for r in body], left=left,
                                      last_left=words)
    return out


def render_table(record: Mapping[str, Any], decimals: int | None,
                 width: int | None = None) -> str:
    grid = Grid(record, decimals)
    head1 = ["", *(c.test_set for c in grid.columns)]
    head2 = ["system", *(c.label for c in grid.columns)]
    rows = [[grid.system(s), *(grid.value(s, c) for c in grid.columns)] for s in grid.systems]
    table = [head1, head2, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(head2))]
    out = _wrap([title(record)], width)
    for block in column_blocks(widths, width):
        keep = [0, *block]
        # a block of one test set's columns shows the systems that test set has
        present = set(grid.systems_in([grid.columns[i - 1] for i in block]))
        body = [r for r, s in zip(rows, grid.systems) if s in present]
        out += ["", *ruled([[h[i] for i in keep] for h in (head1, head2)],
                           [[r[i] for i in keep] for r in body])]
    from evalfw.reports._meta import units

    out += ["", *_wrap(units(record), width)] if units(record) else []
    checked = _checks.summary(record)
    if checked:
        out += ["", *_wrap(checked, width)]
    sig = grid.significance
    if sig:
        tests = _tests_block.rows(sig)
        if tests:
            out += ["", *_wrap([_tests_block.heading(sig)], width)]
            out += _blocks(_tests_block.header(sig), tests, width, left=3, last_left=True)
        for caption, head, body in _ranking_block.tables(sig):
            out += ["", *_wrap([caption], width)]
            out += _blocks(head, body, width, left=2)
        out += ["", *_wrap(legend(sig), width)]
    from evalfw.reports import _meta_text

    out += _meta_text.render(record, width)
    out += ["", "Signatures:"]
    out += _wrap([f"  {spec['test_set']} {spec['metric']}: "
                  f"{spec.get('sacrebleu_signature') or spec['signature']}"
                  for spec in record.get("specs", [])], width)
    if record.get("warnings"):
        out += ["", "Data warnings:"]
        out += [f"  {w['file']}{':' + str(w['first_line']) if 'first_line' in w else ''}: "
                f"{w['message']}" for w in record["warnings"]]
    return "\n".join(out) + "\n"
