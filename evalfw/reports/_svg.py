"""Inline SVG charts for the HTML report: no scripts, no fonts, no external references.

- :func:`interval_chart`: one row per system, a dot at the score and a bar over its
  bootstrap interval (scores with interval bars per test set), best system on top;
- :func:`bucket_chart`: one line per system over the buckets, with interval whiskers (score
  per length bucket); the report draws it once per system against the baseline (small
  multiples), since a dozen crossing lines in one chart cannot be told apart.

A system keeps one colour in every chart of a page (:func:`system_colours`). Every text is
escaped. Sizes are in user units with a ``viewBox``; the browser scales a chart to its column
within the range :func:`evalfw.reports._svg_text.size_style` gives it (returned beside the
chart), so no text shows under 9 CSS px. Labels are laid out by their estimated widths: names
are cut with an ellipsis, tick and bucket labels thinned out, so that no two texts overlap and
none leaves its chart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from evalfw.reports._svg_text import fit, size_style, text_width, thin_out

#: colour-blind-safe palette (Okabe & Ito, then Tol's muted), cycled beyond 14 systems
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442", "#882255", "#44AA99", "#999933", "#332288", "#AA4499", "#888888")


@dataclass(frozen=True)
class Point:
    """A score with an optional interval."""

    score: float
    lower: float | None = None
    upper: float | None = None


#: the reference line of the baseline in small multiples
BASELINE_COLOUR = "#9aa3b2"


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def system_colours(systems: Sequence[str]) -> dict[str, str]:
    """One colour per system, by its position in the record: the same in every chart."""
    return {name: colour(i) for i, name in enumerate(systems)}


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
    on one spot of a 0-100 axis), with about ``count`` round ticks; below 0 only for negative
    data (a cosine similarity can be)."""
    if high <= low:
        high = low + (abs(low) or 1.0) * 0.1
    step = nice_max((high - low) / count)
    start = math.floor(low / step) * step
    start = start if low < 0 else max(0.0, start)
    end = math.ceil(high / step) * step
    ticks = [start + k * step for k in range(int(round((end - start) / step)) + 1)]
    return start, end, ticks


#: font sizes in user units (the style sheet's svg rules are built from them)
TICK, LABEL, VALUE, AXIS = 11.0, 12.0, 11.0, 12.0

#: the charts' part of the page's style sheet
SVG_STYLE = (f"svg .tick{{font:{TICK:g}px sans-serif;fill:#5b6475}}"
             f"svg .axis,svg .axis-x{{font:600 {AXIS:g}px sans-serif;fill:#1d2330}}"
             f"svg .lab{{font:{LABEL:g}px sans-serif;fill:#1d2330}}"
             f"svg .val{{font:{VALUE:g}px sans-serif;fill:#1d2330}}"
             "svg .grid{stroke:#e3e7ee;stroke-width:1}")

#: the smallest font of any chart, which sets how narrow a chart may be drawn
SMALLEST = min(TICK, LABEL, VALUE, AXIS)

#: small multiples' size and the interval chart's width in user units
MULTIPLE_WIDTH, MULTIPLE_HEIGHT, INTERVAL_WIDTH = 300, 220, 440


def _num(x: float) -> str:
    return f"{x:.1f}"


def _label(value: float) -> str:
    return f"{value:g}" if value >= 1 or value == 0 else f"{value:.2g}"


def _open(title: str, width: int, height: int) -> list[str]:
    # the visible title is the page's <figcaption> (page text does not shrink with the chart)
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'role="img" class="chart" style="{size_style(width, SMALLEST)}" '
            f'aria-label="{escape(title)}">', f'<title>{escape(title)}</title>']


def short(name: str, limit: int = 22) -> str:
    """``name`` cut to ``limit`` characters with an ellipsis (chart labels have a fixed
    room; the full name is in the tooltip and the tables)."""
    return name if len(name) <= limit else name[:limit - 1] + "…"


def _ticks_along(ticks: Sequence[float], x: Callable[[float], float]) -> list[bool]:
    """Which tick labels of a horizontal axis to draw so that none touch."""
    return thin_out([x(t) for t in ticks], [text_width(_label(t), TICK) for t in ticks], 6)


def interval_chart(title: str, rows: Sequence[tuple[str, Point, str]], axis: str = "score",
                   colours: Mapping[str, str] | None = None, places: int = 2,
                   width: int = INTERVAL_WIDTH) -> str:
    """Horizontal dot-and-interval chart; ``rows`` are (system, point, marker), drawn in the
    given order (the caller sorts them); ``axis`` titles the score axis."""
    top_pad, row_h = 16, 24
    names = [fit(name, LABEL, 136) for name, _, _ in rows]
    values = [f"{p.score:.{places}f}{(' ' + marker) if marker else ''}" for _, p, marker in rows]
    left = max([text_width(n, LABEL) for n in names], default=0) + 16
    right = max([text_width(v, VALUE) for v in values], default=0) + 14
    height = top_pad + row_h * len(rows) + 46
    lows = [p.lower if p.lower is not None else p.score for _, p, _ in rows]
    highs = [p.upper if p.upper is not None else p.score for _, p, _ in rows]
    start, end, ticks = nice_range(min(lows, default=0.0), max(highs, default=1.0))
    plot_w = width - left - right

    def x(v: float) -> float:
        return left + plot_w * (max(start, min(v, end)) - start) / (end - start)

    out = _open(title, width, height)
    axis_y = top_pad + row_h * len(rows)
    for t, shown in zip(ticks, _ticks_along(ticks, x), strict=True):
        out.append(f'<line x1="{_num(x(t))}" y1="{top_pad - 6}" x2="{_num(x(t))}" y2="{axis_y}" '
                   'class="grid"/>')
        if shown:
            out.append(f'<text x="{_num(x(t))}" y="{axis_y + 16}" class="tick" '
                       f'text-anchor="middle">{_label(t)}</text>')
    title_text = fit(axis, AXIS, width - 8, bold=True)
    half = text_width(title_text, AXIS, bold=True) / 2
    centre = min(max(left + plot_w / 2, 4 + half), width - 4 - half)  # under the plot if it fits
    out.append(f'<text x="{centre:.1f}" y="{axis_y + 38}" class="axis" '
               f'text-anchor="middle">{escape(title_text)}</text>')
    for i, ((name, p, _), label, value) in enumerate(zip(rows, names, values, strict=True)):
        c = (colours or {}).get(name, colour(i))
        cy = top_pad + row_h * i + row_h / 2
        out.append(f'<text x="{left - 8:.1f}" y="{_num(cy + 4)}" text-anchor="end" class="lab">'
                   f'<title>{escape(name)}</title>{escape(label)}</text>')
        if p.lower is not None and p.upper is not None:
            out.append(f'<line x1="{_num(x(p.lower))}" y1="{_num(cy)}" x2="{_num(x(p.upper))}" '
                       f'y2="{_num(cy)}" stroke="{c}" stroke-width="3" '
                       'stroke-linecap="round" opacity="0.55"/>')
        out.append(f'<circle cx="{_num(x(p.score))}" cy="{_num(cy)}" r="5" fill="{c}">'
                   f'<title>{escape(name)}: {p.score:.{places + 2}g}</title></circle>')
        label_x = x(p.upper) if p.upper is not None else x(p.score)
        out.append(f'<text x="{_num(label_x + 8)}" y="{_num(cy + 4)}" class="val">'
                   f'{escape(value)}</text>')
    out.append("</svg>")
    return "\n".join(out)


Series = tuple[str, Sequence[Point | None]]


def bucket_chart(title: str, buckets: Sequence[str], series: Sequence[Series],
                 colours: Mapping[str, str] | None = None, axis: str = "score",
                 baseline: Series | None = None, scale: tuple[float, float] | None = None,
                 counts: Sequence[int] | None = None, x_axis: str = "length",
                 width: int = MULTIPLE_WIDTH, height: int = MULTIPLE_HEIGHT) -> str:
    """One line per system of ``series`` across ``buckets`` (None: empty bucket), with
    interval whiskers; ``baseline`` is drawn underneath in grey for reference. ``scale``
    (low, high) fixes the score axis, so that small multiples share one axis. ``axis`` titles
    the score axis (above the plot), ``x_axis`` the buckets; ``counts`` (segments per bucket)
    go under the bucket labels in brackets."""
    every = [*series, *([baseline] if baseline else [])]
    values = [v for _, pts in every for p in pts if p is not None
              for v in (p.score, p.lower, p.upper) if v is not None]
    low, high = scale or (min(values, default=0.0), max(values, default=1.0))
    start, end, ticks = nice_range(low, high, 4)
    rows = 2 if counts is not None else 1
    top_pad, right = 30, 10
    # a text's box is its font's ascent plus descent: up to 1.4 em in the usual sans-serif
    # fonts (Noto Sans), so the count row sits one such box below the label, not one em
    line = math.ceil(TICK * 1.4)
    bottom = line * rows + 26
    left = max(text_width(_label(t), TICK) for t in ticks) + 14
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    step = plot_w / max(len(buckets), 1)

    def x(k: int) -> float:
        return left + step * (k + 0.5)

    def y(v: float) -> float:
        return top_pad + plot_h * (1 - (max(start, min(v, end)) - start) / (end - start))

    out = _open(title, width, height)
    out.append(f'<text x="4" y="{top_pad - 14}" class="axis">'
               f'{escape(fit(axis, AXIS, width - 8, bold=True))}</text>')
    for t in ticks:
        out.append(f'<line x1="{left:.1f}" y1="{_num(y(t))}" x2="{left + plot_w:.1f}" '
                   f'y2="{_num(y(t))}" class="grid"/>')
        out.append(f'<text x="{left - 6:.1f}" y="{_num(y(t) + 4)}" class="tick" '
                   f'text-anchor="end">{_label(t)}</text>')
    texts = [(label, f"({counts[k]})" if counts is not None else "")
             for k, label in enumerate(buckets)]
    shown = thin_out([x(k) for k in range(len(buckets))],
                     [max(text_width(a, TICK), text_width(b, TICK)) for a, b in texts], 4)
    for k, ((label, count), keep) in enumerate(zip(texts, shown, strict=True)):
        if not keep:
            continue
        base = top_pad + plot_h + 15
        out.append(f'<text x="{_num(x(k))}" y="{base}" class="tick" '
                   f'text-anchor="middle">{escape(label)}</text>')
        if count:
            out.append(f'<text x="{_num(x(k))}" y="{base + line}" class="tick" '
                       f'text-anchor="middle">{count}</text>')
    x_title = fit(x_axis, AXIS, width - 8, bold=True)
    out.append(f'<text x="{width / 2:.1f}" y="{height - 6}" class="axis-x" '
               f'text-anchor="middle">{escape(x_title)}</text>')
    lines = [(baseline, BASELINE_COLOUR)] if baseline else []
    lines += [(s, (colours or {}).get(s[0], colour(i))) for i, s in enumerate(series)]
    for (name, pts), c in lines:
        path = [f"{_num(x(k))},{_num(y(p.score))}" for k, p in enumerate(pts) if p is not None]
        dash = ' stroke-dasharray="5 3"' if c == BASELINE_COLOUR else ""
        if len(path) > 1:
            out.append(f'<polyline points="{" ".join(path)}" fill="none" stroke="{c}" '
                       f'stroke-width="2"{dash}/>')
        for k, p in enumerate(pts):
            if p is None:
                continue
            if p.lower is not None and p.upper is not None:
                out.append(f'<line x1="{_num(x(k))}" y1="{_num(y(p.lower))}" x2="{_num(x(k))}" '
                           f'y2="{_num(y(p.upper))}" stroke="{c}" stroke-width="1.5" '
                           'opacity="0.6"/>')
            n = f", {counts[k]} segments" if counts is not None else ""
            out.append(f'<circle cx="{_num(x(k))}" cy="{_num(y(p.score))}" r="3.5" fill="{c}">'
                       f'<title>{escape(name)} {escape(buckets[k])}{n}: {p.score:.4g}</title>'
                       '</circle>')
    out.append("</svg>")
    return "\n".join(out)
