"""The HTML report fits the screen: measured in headless Chromium at 420, 1024 and 1400 CSS
px on a run with 4 test sets x 5 metrics x 13 systems. The page must never scroll sideways
(wide tables scroll in their own box), charts must fit their column, and drill-down texts
must keep most of the width on a phone (not one character per line)."""

from __future__ import annotations

import pytest

from tests.reports.report_support import browser, measure_layout, wide_run

WIDTHS = (420, 1024, 1400)


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    exe = browser()
    tmp = tmp_path_factory.mktemp("layout")
    outcome = wide_run(tmp)
    got = measure_layout(exe, outcome.path / "report-html.html", tmp, WIDTHS)
    return dict(zip(WIDTHS, got, strict=True))


@pytest.mark.parametrize("width", WIDTHS)
def test_no_horizontal_page_overflow(layouts, width):
    got = layouts[width]
    assert got["innerWidth"] == width
    assert got["offenders"] == [], f"elements past the edge at {width}px: {got['offenders']}"
    assert got["scrollWidth"] <= width


@pytest.mark.parametrize("width", WIDTHS)
def test_charts_fit_and_drilldown_texts_keep_their_width(layouts, width):
    got = layouts[width]
    assert got["charts"] and max(got["charts"]) <= width
    assert got["texts"] and min(got["texts"]) >= 0.6 * (min(width, 1180) - 60)


def test_the_wide_results_table_scrolls_in_its_own_box(layouts):
    table, box = layouts[1400]["results"]
    assert table > box  # 4 test sets x 6 columns are wider than the page even at 1400 px
    assert box <= 1400


def test_the_probe_sees_overflow(tmp_path):
    """Negative control: a page wider than the screen is reported."""
    exe = browser()
    page = tmp_path / "wide.html"
    page.write_text('<!DOCTYPE html><html><body><div class="x" style="width:900px">x</div>'
                    '<p class="txt">t</p><svg class="chart" width="10" height="10"></svg>'
                    '<table class="results"><tr><td>1</td></tr></table></body></html>',
                    encoding="utf-8")
    got = measure_layout(exe, page, tmp_path, (420,))[0]
    assert got["scrollWidth"] > 420 and any(o.startswith("div.x") for o in got["offenders"])
