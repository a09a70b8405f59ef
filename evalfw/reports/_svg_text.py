"""Room for text in the report's SVG charts: estimated widths, shortening, thinning out, and
the width range that keeps chart text readable.

A chart is drawn in user units and the browser scales it to its column: a text's size on
screen is its font size times that scale. :func:`size_style` bounds a chart's rendered width
so that its smallest font never shows under :data:`MIN_PX` CSS px (below that width its box
scrolls instead of shrinking it) and never grows past :data:`ZOOM_MAX` times its size.

Widths are estimated from DejaVu Sans' advance widths, the widest of the common sans-serif
fonts (Debian's default), so a label that fits by this estimate fits in narrower fonts too.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence

#: no chart text is shown smaller than this many CSS px
MIN_PX = 9.0
#: a chart is never drawn larger than this times its size in user units
ZOOM_MAX = 1.25

# advance widths in em (DejaVu Sans Book, rounded up); others by their kind (_em)
_EM: dict[str, float] = {" ": 0.318, ".": 0.318, ",": 0.318, ":": 0.337, ";": 0.337,
                         "-": 0.361, "–": 0.5, "—": 1.0, "+": 0.838, "<": 0.838, ">": 0.838,
                         "=": 0.838, "(": 0.39, ")": 0.39, "[": 0.39, "]": 0.39, "/": 0.337,
                         "|": 0.337, "†": 0.5, "‡": 0.5, "°": 0.5, "·": 0.318, "±": 0.838,
                         "%": 0.95, "_": 0.5, "'": 0.275, "…": 1.0, "↑": 0.838, "↓": 0.838}
_EM.update(dict.fromkeys("0123456789", 0.636))
_EM.update(dict.fromkeys("fjilrt", 0.4))
_EM.update(dict.fromkeys("mwMW", 1.0))
_LOWER, _UPPER, _OTHER, _BOLD = 0.64, 0.8, 0.85, 1.1


def _em(c: str) -> float:
    if c in _EM:
        return _EM[c]
    if c.isascii():
        return _LOWER if c.islower() else _UPPER
    # wide (CJK) characters take a whole em; accented and other letters about a capital's
    return 1.0 if unicodedata.east_asian_width(c) in ("W", "F") else _OTHER


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Estimated width of ``text`` at font ``size`` (user units; never an underestimate for
    DejaVu Sans, Noto Sans, Liberation Sans or Arial)."""
    return sum(_em(c) for c in text) * size * (_BOLD if bold else 1.0)


def fit(text: str, size: float, room: float, bold: bool = False) -> str:
    """``text``, cut with an ellipsis where it would be wider than ``room``."""
    if text_width(text, size, bold) <= room:
        return text
    while text and text_width(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def thin_out(centres: Sequence[float], widths: Sequence[float], gap: float) -> list[bool]:
    """Which of the labels centred at ``centres`` (increasing, evenly spaced) with
    ``widths`` to draw: every k-th one, the smallest k with ``gap`` units between neighbours
    drawn; the first label is always drawn."""
    n = len(centres)
    if n < 2:
        return [True] * n
    step = (centres[-1] - centres[0]) / (n - 1)
    widest = max(widths)
    every = max(1, math.ceil((widest + gap) / step)) if step > 0 else n
    return [k % every == 0 for k in range(n)]


def min_width(width: float, smallest_font: float) -> int:
    """The narrowest CSS width (px, with a 1 px border on each side) at which a chart
    ``width`` user units wide shows text of ``smallest_font`` units at :data:`MIN_PX`."""
    return math.ceil(width * MIN_PX / smallest_font) + 2


def max_width(width: float) -> int:
    """The widest CSS width (px) a chart ``width`` user units wide is drawn at."""
    return math.ceil(width * ZOOM_MAX) + 2


def size_style(width: float, smallest_font: float) -> str:
    """CSS for an SVG ``width`` user units wide whose smallest text has ``smallest_font``
    units: rendered between :func:`min_width` and :func:`max_width`."""
    return f"min-width:{min_width(width, smallest_font)}px;max-width:{max_width(width)}px"


__all__ = ["MIN_PX", "ZOOM_MAX", "fit", "max_width", "min_width", "size_style", "text_width",
           "thin_out"]
