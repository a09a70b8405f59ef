"""Room for chart text: width estimates that the browser's fonts never exceed, labels cut
to their room, thinned-out labels that keep apart, and chart widths that keep text at 9 px."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from evalfw.reports._svg import (
    INTERVAL_WIDTH,
    MULTIPLE_WIDTH,
    SMALLEST,
    Point,
    bucket_chart,
    interval_chart,
)
from evalfw.reports._svg_text import (
    MIN_PX,
    ZOOM_MAX,
    fit,
    max_width,
    min_width,
    text_width,
    thin_out,
)
from tests.support.reports import browser, dump_dom

SAMPLES = ["<10", "10-19", "100-199", "(2037)", "60+", "46.25", "0.3125", "43.98 †/·",
           "52.32 °", "JDExploreAcademy", "Online-Translator-With-A-Very-Long-Name-2022",
           "chrfpp, 0–100, higher is better", "reference length (characters)",
           "ter score (0–100, lower is better)", "MMMMWWWW", "iiiilll", "Ünïcödé ßystem"]
FAMILIES = ("sans-serif", "'DejaVu Sans'", "'Noto Sans'", "'Liberation Sans'", "Arial")


def test_fit_cuts_to_the_room_with_an_ellipsis():
    for text in SAMPLES:
        for room in (20, 60, 140):
            got = fit(text, 12, room)
            assert text_width(got, 12) <= room or got == "…"
            assert got == text or (got.endswith("…") and text.startswith(got[:-1].rstrip()))
    assert fit("bleu", 12, 200) == "bleu"


def test_thinned_labels_keep_their_gap():
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(1, 30)
        step = rng.uniform(5, 80)
        centres = [10 + k * step for k in range(n)]
        widths = [rng.uniform(5, 60) for _ in range(n)]
        shown = thin_out(centres, widths, 4)
        assert shown[0]
        kept = [(c, w) for c, w, s in zip(centres, widths, shown, strict=True) if s]
        for (c1, _), (c2, _) in zip(kept, kept[1:]):
            assert c2 - c1 >= max(widths) + 4 - 1e-9


def test_chart_widths_keep_the_smallest_text_at_9px():
    for width in (MULTIPLE_WIDTH, INTERVAL_WIDTH):
        assert SMALLEST * (min_width(width, SMALLEST) - 2) / width >= MIN_PX
        assert max_width(width) <= width * ZOOM_MAX + 2
    svg = interval_chart("t", [("a", Point(50, 49, 51), "")])
    low, high = map(int, re.search(r"min-width:(\d+)px;max-width:(\d+)px", svg).groups())
    assert (low, high) == (min_width(INTERVAL_WIDTH, SMALLEST), max_width(INTERVAL_WIDTH))


def test_many_buckets_are_thinned_not_overlapped():
    labels = [f"{k * 10}-{k * 10 + 9}" for k in range(24)]
    chart = bucket_chart("b", labels, [("a", [Point(40 + k % 5) for k in range(24)])],
                         counts=[100 + k for k in range(24)], x_axis="reference length (x)")
    shown = [label for label in labels if f">{label}</text>" in chart]
    assert labels[0] in shown and 2 <= len(shown) < len(labels)


@pytest.mark.browser
def test_estimates_are_never_below_the_browsers_widths(tmp_path):
    """The fonts (what sans-serif resolves to here, and the common sans-serif families where
    installed) measure each sample, regular and bold, no wider than :func:`text_width` says."""
    exe = browser()
    pairs = [(t, w, f) for t in SAMPLES for w in ("400", "600") for f in FAMILIES]
    texts = "".join(f'<text x="0" y="{12 * (k + 1)}" style="font:{w} 12px {f}">'
                    f"{html.escape(t)}</text>" for k, (t, w, f) in enumerate(pairs))
    script = ("var out=[];document.querySelectorAll('text').forEach(function(t){"
              "out.push(t.getComputedTextLength());});var p=document.createElement('pre');"
              "p.id='widths';p.textContent=JSON.stringify(out);document.body.appendChild(p);")
    page = tmp_path / "widths.html"
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="900" '
           f'height="{12 * len(pairs) + 20}">{texts}</svg>')
    page.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{svg}'
                    f"<script>{script}</script></body></html>", encoding="utf-8")
    dom = dump_dom(exe, page, tmp_path / "profile", 1000)
    widths = json.loads(html.unescape(re.search(r'<pre id="widths">(.*?)</pre>', dom).group(1)))
    assert len(widths) == len(pairs)
    for (text, weight, family), got in zip(pairs, widths, strict=True):
        assert got > 0
        assert got <= text_width(text, 12, bold=weight == "600") + 0.5, (text, weight, family, got)
