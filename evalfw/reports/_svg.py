"""Inline SVG charts for the HTML report: no scripts, no fonts, no external references.

- :func:`interval_chart`: one row per system, a dot at the score and a bar over its
  bootstrap interval (scores with interval bars per test set);
- :func:`bucket_chart`: one line per system over the buckets, with interval whiskers (BLEU
  per length bucket).

Every text is escaped; sizes are in user units with a ``viewBox`` so the browser scales the
chart to the column width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

#: colour-blind-safe palette (Okabe & Ito, then Tol's muted), cycled beyond 14 systems
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442", "#882255", "#44AA99", "#999933", "#332288", "#AA4499", "#888888")


@dataclass(frozen=True)
class Point:
    """A score with an optional interval."""

    score: float
    lower: float | None = None
    upper: float | None = None


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def nice_max(value: float) -> float:
    """An axis end at or above ``value``: 1, 2, 2.5 or 5 times a power of ten."""
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if value <= step * power:
            return step * power
    return 10.0 * power


def nice_range(low: float, high: float, count: int = 5) -> tuple[float, float, list[float]]:
    """An axis covering [low, high] zoomed to the data (scores of close systems would all sit
    on one spot of a 0-100 axis), with about ``count`` round ticks; never below 0."""
    if high <= low:
        high = low + (abs(low) or 1.0) * 0.1
    step = nice_max((high - low) / count)
    start = max(0.0, math.floor(low / step) * step)
    end = math.ceil(high / step) * step
    ticks = [start + k * step for k in range(int(round((end - start) / step)) + 1)]
    return start, end, ticks


def _num(x: float) -> str:
    return f"{x:.1f}"


def _label(value: float) -> str:
    return f"{value:g}" if value >= 1 or value == 0 else f"{value:.2g}"


def interval_chart(title: str, rows: Sequence[tuple[str, Point, str]], width: int = 640) -> str:
    """Horizontal dot-and-interval chart; ``rows`` are (system, point, marker)."""
    left, right, top_pad, row_h = 170, 70, 34, 24
    height = top_pad + row_h * len(rows) + 30
    lows = [p.lower if p.lower is not None else p.score for _, p, _ in rows]
    highs = [p.upper if p.upper is not None else p.score for _, p, _ in rows]
    start, end, ticks = nice_range(min(lows, default=0.0), max(highs, default=1.0))
    plot_w = width - left - right

    def x(v: float) -> float:
        return left + plot_w * (max(start, min(v, end)) - start) / (end - start)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'role="img" class="chart" aria-label="{escape(title)}">',
           f'<title>{escape(title)}</title>',
           f'<text x="{left}" y="18" class="ct">{escape(title)}</text>']
    axis_y = top_pad + row_h * len(rows)
    for t in ticks:
        out.append(f'<line x1="{_num(x(t))}" y1="{top_pad - 6}" x2="{_num(x(t))}" y2="{axis_y}" '
                   'class="grid"/>')
        out.append(f'<text x="{_num(x(t))}" y="{axis_y + 16}" class="tick" '
                   f'text-anchor="middle">{_label(t)}</text>')
    for i, (name, p, marker) in enumerate(rows):
        cy = top_pad + row_h * i + row_h / 2
        out.append(f'<text x="{left - 8}" y="{_num(cy + 4)}" text-anchor="end" class="lab">'
                   f'{escape(name)}</text>')
        if p.lower is not None and p.upper is not None:
            out.append(f'<line x1="{_num(x(p.lower))}" y1="{_num(cy)}" x2="{_num(x(p.upper))}" '
                       f'y2="{_num(cy)}" stroke="{colour(i)}" stroke-width="3" '
                       'stroke-linecap="round" opacity="0.55"/>')
        out.append(f'<circle cx="{_num(x(p.score))}" cy="{_num(cy)}" r="5" fill="{colour(i)}">'
                   f'<title>{escape(name)}: {p.score:.4g}</title></circle>')
        label_x = x(p.upper) if p.upper is not None else x(p.score)
        out.append(f'<text x="{_num(label_x + 8)}" y="{_num(cy + 4)}" class="val">'
                   f'{p.score:.2f}{(" " + escape(marker)) if marker else ""}</text>')
    out.append("</svg>")
    return "\n".join(out)


def bucket_chart(title: str, buckets: Sequence[str],
                 series: Sequence[tuple[str, Sequence[Point | None]]],
                 width: int = 640, height: int = 320) -> str:
    """One line per system across ``buckets`` (None: empty bucket), with whiskers."""
    left, right, top_pad, bottom = 50, 150, 34, 48
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    values = [v for _, pts in series for p in pts if p is not None
              for v in (p.score, p.lower, p.upper) if v is not None]
    start, end, ticks = nice_range(min(values, default=0.0), max(values, default=1.0), 4)
    step = plot_w / max(len(buckets), 1)

    def x(k: int) -> float:
        return left + step * (k + 0.5)

    def y(v: float) -> float:
        return top_pad + plot_h * (1 - (max(start, min(v, end)) - start) / (end - start))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'role="img" class="chart" aria-label="{escape(title)}">',
           f'<title>{escape(title)}</title>',
           f'<text x="{left}" y="18" class="ct">{escape(title)}</text>']
    for t in ticks:
        out.append(f'<line x1="{left}" y1="{_num(y(t))}" x2="{left + plot_w}" y2="{_num(y(t))}" '
                   'class="grid"/>')
        out.append(f'<text x="{left - 6}" y="{_num(y(t) + 4)}" class="tick" '
                   f'text-anchor="end">{_label(t)}</text>')
    for k, label in enumerate(buckets):
        out.append(f'<text x="{_num(x(k))}" y="{top_pad + plot_h + 18}" class="tick" '
                   f'text-anchor="middle">{escape(label)}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" class="tick" '
               'text-anchor="middle">reference length (tokens)</text>')
    for i, (name, pts) in enumerate(series):
        c = colour(i)
        shift = (i - (len(series) - 1) / 2) * min(6.0, step / (2 * max(len(series), 1)))
        path = [f"{_num(x(k) + shift)},{_num(y(p.score))}" for k, p in enumerate(pts)
                if p is not None]
        if len(path) > 1:
            out.append(f'<polyline points="{" ".join(path)}" fill="none" stroke="{c}" '
                       'stroke-width="2"/>')
        for k, p in enumerate(pts):
            if p is None:
                continue
            cx = x(k) + shift
            if p.lower is not None and p.upper is not None:
                out.append(f'<line x1="{_num(cx)}" y1="{_num(y(p.lower))}" x2="{_num(cx)}" '
                           f'y2="{_num(y(p.upper))}" stroke="{c}" stroke-width="1.5" '
                           'opacity="0.6"/>')
            out.append(f'<circle cx="{_num(cx)}" cy="{_num(y(p.score))}" r="3.5" fill="{c}">'
                       f'<title>{escape(name)} {escape(buckets[k])}: {p.score:.4g}</title>'
                       '</circle>')
        ly = top_pad + 18 * i + 6
        out.append(f'<rect x="{left + plot_w + 16}" y="{ly - 8}" width="12" height="12" '
                   f'fill="{c}"/>')
        out.append(f'<text x="{left + plot_w + 34}" y="{ly + 2}" class="lab">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)
