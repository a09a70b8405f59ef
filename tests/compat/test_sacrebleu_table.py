"""The drop-in's tables against tabulate 0.10 called as sacreBLEU 2.6.0 calls it, on random
cells: numbers (read and re-formatted as floats by tabulate), multi-line paired cells, empty
cells, colour codes, LaTeX's special characters, spaces around cells, and empty tables."""

from __future__ import annotations

import random
import sys

import pytest

from evalfw.compat.sacrebleu._table import render

tabulate = pytest.importorskip("tabulate").tabulate

PIECES = ["sys", "1", "2.50", "-3", "1,000", "1,000.25", "x_y", "a&b", "50%", "{t}", "~", "\\", "<>", "#",
          "$", "^", "μ", "±", "中文", " ", "", "(p = 0.0123)*", "1e3", "nan", "inf", "True"]
COLOURS = ["\x1b[33m", "\x1b[36m", "\x1b[31m"]


def _cell(rng: random.Random, multiline: bool, coloured: bool) -> str:
    roll = rng.random()
    if roll < 0.3:
        text = f"{rng.uniform(0, 100):.{rng.randint(0, 3)}f}"
    elif roll < 0.4:
        text = str(rng.randint(-5, 500))
    else:
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 4)))
    if multiline and rng.random() < 0.4:
        text += "\n" + rng.choice(["(p = 0.0010)*", "(p = 0.3077)", ""])
    if coloured and rng.random() < 0.3:
        text = f"{rng.choice(COLOURS)}{text}\x1b[0m"
    return text


@pytest.fixture(params=["wcwidth", "no-wcwidth"])
def widths(request, monkeypatch):
    """tabulate counts wide characters as two columns only when wcwidth is installed: the
    drop-in has to follow whichever environment it runs in."""
    module = sys.modules["tabulate"]
    if request.param == "no-wcwidth":
        monkeypatch.setitem(sys.modules, "wcwidth", None)  # import fails, as when not installed
        monkeypatch.setattr(module, "wcwidth", None)
    elif module.wcwidth is None:
        pytest.skip("wcwidth is not installed, so tabulate cannot count wide characters")
    return request.param


@pytest.mark.parametrize("seed", range(300))
def test_tables_equal_tabulates(seed, widths):
    rng = random.Random(seed)
    fmt = rng.choice(["fancy_grid", "latex_booktabs"])
    ncols, nrows = rng.randint(1, 4), rng.choice([0, 1, 2, 3, 5])
    multiline, coloured = rng.random() < 0.4, rng.random() < 0.3
    header = ["System"] + [f"M{c}" + rng.choice(["", " (μ ± 95% CI)", "_x"])
                           for c in range(1, ncols)]
    if coloured:
        header = [f"\x1b[36m{h}\x1b[0m" for h in header]
    columns = [[_cell(rng, multiline and c > 0 and fmt == "fancy_grid", coloured)
                for _ in range(nrows)] for c in range(ncols)]
    if rng.random() < 0.5:  # a column of formatted scores, as sacreBLEU's table has
        columns[-1] = [f"{rng.uniform(0, 100):.1f}" for _ in range(nrows)]
    decimals = rng.randint(0, 4)
    theirs = tabulate(dict(zip(header, columns)), headers="keys", tablefmt=fmt,
                      colalign=("right",), stralign="center", numalign="center",
                      floatfmt=f".{decimals}f")
    ours = render(header, [list(r) for r in zip(*columns)], fmt, decimals)
    assert ours == theirs
