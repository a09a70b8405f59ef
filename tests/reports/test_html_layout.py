"""The HTML report on a phone, a laptop and a wide screen: measured in headless Chromium at
420, 1024 and 1400 CSS px with every ``<details>`` open (``tests/support/layout_probe.js``),
on three runs:

- ``wmt22``: real WMT22 en-de + de-en (9 systems each, not the same nine) x BLEU, chrF++ and
  TER, with both paired tests, all pairs, buckets, the drill-down and a local plugin in a
  deep directory (its path in the Plugins table);
- ``wide``: 4 test sets x 5 metrics (one on a 0-1 scale, one at two levels) x 13 systems, one
  with a long name, and the same local plugin;
- ``4x4``: the same with 4 metrics.

What must hold: the page never scrolls sideways; at 1024 px and wider no table hides a
column; on a phone a table that scrolls keeps its system column in view; numeric headers
align with their numbers; paths wrap at their separators; chart texts are 9 px or larger,
never overlap and never leave their chart; a number never wraps (its marker stays beside
it); chrF's bucket axes count characters. The negative
controls feed the probe a page broken in each of these ways.
"""

from __future__ import annotations

import pytest

from tests.support.expected_warnings import few_resamples, nltk_zero_order
from tests.support.reports import browser, deep_plugin_dir, measure_layout, wide_run
from tests.support.runs import run, write_config
from tests.support.shared_data import need_wmt22

# the runs measured: few resamples for many comparisons, and an nltk metric on short segments
pytestmark = [pytest.mark.browser, pytest.mark.slow, few_resamples, nltk_zero_order]

WIDTHS = (420, 1024, 1400)
RUNS = (pytest.param("wmt22", marks=pytest.mark.wmt22), "wide", "4x4")

WMT22_CONFIG = """\
schema_version: 1
experiment: wmt22-layout
seed: 11
data_root: {data}
output_dir: {out}
plugin_dirs: [{plugins}]
test_sets:
{test_sets}
metrics:
  - name: bleu
  - name: chrfpp
    metric: chrf
    word_order: 2
  - name: ter
    metric: ter
reports: [html]
significance:
  baseline: Online-B
  method: both
  samples: 200
  ar_trials: 200
  all_pairs: true
  buckets: ref-length
  worst_segments: 3
"""

TEST_SET = """\
  - name: {pair}
    langs: {pair}
    source: "{{data_root}}/{pair}/src.txt"
    references: ["{{data_root}}/{pair}/ref.A.txt", "{{data_root}}/{pair}/ref.B.txt"]
    systems:
      "*": "{{data_root}}/{pair}/sys/*.txt"
"""


def wmt22_run(tmp):
    data = need_wmt22()
    plugins = deep_plugin_dir(tmp)
    sets = "".join(TEST_SET.format(pair=p) for p in ("en-de", "de-en"))
    cfg = write_config(tmp / "wmt22.yaml", WMT22_CONFIG.format(
        data=data, out=tmp / "runs", plugins=plugins, test_sets=sets))
    return run(str(cfg))


_MEASURED: dict[str, dict[int, dict]] = {}


@pytest.fixture(scope="module", params=RUNS)
def layouts(request, tmp_path_factory):
    """The probe's measurements of one run's report, by width."""
    name = request.param
    if name not in _MEASURED:
        exe = browser()
        tmp = tmp_path_factory.mktemp(f"layout-{name}")
        outcome = (wmt22_run(tmp) if name == "wmt22" else wide_run(
            tmp, f"plugin_dirs: [{deep_plugin_dir(tmp)}]\n", metrics=4 if name == "4x4" else 5))
        got = measure_layout(exe, outcome.path / "report-html.html", tmp, WIDTHS)
        _MEASURED[name] = dict(zip(WIDTHS, got, strict=True))
    return _MEASURED[name]


@pytest.mark.parametrize("width", WIDTHS)
def test_no_horizontal_page_overflow(layouts, width):
    got = layouts[width]
    assert got["innerWidth"] == width
    assert got["offenders"] == [], f"elements past the edge at {width}px: {got['offenders']}"
    assert got["scrollWidth"] <= width


def test_scores_carry_markers(layouts):
    """The runs have significant differences, so the tables are measured with their marks."""
    assert all(layouts[w]["marked"] >= 10 for w in WIDTHS)


@pytest.mark.parametrize("width", (1024, 1400))
def test_no_table_hides_a_column_on_a_laptop_or_wider(layouts, width):
    got = layouts[width]
    assert got["tables"] >= 10
    assert got["hidden"] == [], f"tables scrolling at {width}px: {got['hidden']}"


def test_on_a_phone_scrolling_tables_keep_the_system_column_in_view(layouts):
    got = layouts[420]
    assert got["hidden"], "no table scrolls at 420 px: the sticky column is not exercised"
    assert got["unpinned"] == []


@pytest.mark.parametrize("width", WIDTHS)
def test_numbers_keep_to_one_line_under_headers_aligned_with_them(layouts, width):
    assert layouts[width]["headers"] == []
    assert layouts[width]["wrapped"] == []


@pytest.mark.parametrize("width", WIDTHS)
def test_paths_wrap_at_separators_not_a_character_a_line(layouts, width):
    paths = layouts[width]["paths"]
    assert paths
    for chars, lines in paths:
        assert lines == 1 or chars / lines >= 12, (chars, lines)


@pytest.mark.parametrize("width", WIDTHS)
def test_chart_texts_are_9px_or_larger(layouts, width):
    got = layouts[width]
    assert got["chartTexts"] > 100
    assert got["small"] == [] and got["minTextPx"] >= 9.0


@pytest.mark.parametrize("width", WIDTHS)
def test_chart_texts_never_overlap_nor_leave_their_chart(layouts, width):
    got = layouts[width]
    assert got["overlaps"] == []
    assert got["clipped"] == []


@pytest.mark.parametrize("width", WIDTHS)
def test_charts_fit_and_drilldown_texts_keep_their_width(layouts, width):
    got = layouts[width]
    assert got["charts"] and max(got["charts"]) <= width
    assert got["texts"] and min(got["texts"]) >= 0.6 * (min(width, 1180) - 60)


def axis_problems(charts: list[dict]) -> list[str]:
    """What the axes of ``charts`` (the probe's ``axes``) fail to say: the metric and its
    range on the score axis, the length and its unit on a bucket axis, characters for chrF."""
    problems = []
    for c in charts:
        if " · " not in (c["chart"] or ""):
            problems.append(f"a chart without its name: {c['axes']}")
            continue
        metric = c["chart"].split(" · ")[1].split(":")[0]
        score = c["axes"][0] if c["axes"] else ""
        if not (score.startswith(metric) and ("0–100" in score or "0–1," in score)):
            problems.append(f"{c['chart']}: score axis {score!r}")
        if " bucket" not in c["chart"]:
            continue
        length = c["axes"][1] if len(c["axes"]) > 1 else ""
        if not length.startswith("reference length ("):
            problems.append(f"{c['chart']}: bucket axis {length!r}")
        elif metric.startswith("chrf") and length != "reference length (characters)":
            problems.append(f"{c['chart']}: chrF counts characters, not {length!r}")
    return problems


def test_axes_name_the_metric_its_range_and_the_length_unit(layouts):
    charts = layouts[1024]["axes"]
    assert sum(" bucket" in c["chart"] for c in charts) >= 4
    assert axis_problems(charts) == []


# ----------------------------------------------------------------------------- negative


BROKEN = """<!DOCTYPE html><html><head><style>
.wide{overflow-x:auto;max-width:100%}th,td{padding:4px;text-align:right}
th:first-child,td:first-child{text-align:left}</style></head><body>
<div class="x" style="width:900px">page wider than the screen</div>
<div class="wide"><table class="results"><thead><tr><th>System</th><th>bleu</th>
<th style="text-align:left">chrf</th></tr></thead><tbody><tr><td>A</td><td>51.00</td>
<td style="padding-left:700px">60.00</td></tr></tbody></table></div>
<p class="txt">t</p>
<svg class="chart" viewBox="0 0 1000 100" style="width:300px"><text x="10" y="20"
 style="font:12px sans-serif">tiny</text><text x="200" y="50" style="font:12px sans-serif"
 >one label</text><text x="204" y="52" style="font:12px sans-serif">over another</text>
<text x="980" y="50" style="font:12px sans-serif">out of the chart</text></svg>
<svg class="chart" viewBox="0 0 300 100" style="width:300px"
 aria-label="t · chrfpp: A per reference length bucket"><text class="axis" x="4" y="24"
 >chrfpp, 0–100</text><text class="axis-x" x="4" y="90">reference length (tokens)</text></svg>
<table class="inputs"><tr><td style="width:1px"><code class="path">PATH</code></td></tr>
</table><table class="tests"><tr><td style="width:1px">43.98 ±1.20 †/·</td></tr></table>
</body></html>"""


def test_the_probe_sees_each_failure(tmp_path):
    """Negative control: a page broken in every way the tests above look for."""
    exe = browser()
    page = tmp_path / "broken.html"
    page.write_text(BROKEN.replace("PATH", "<wbr>".join("abcdefghijklmnop")), encoding="utf-8")
    got = measure_layout(exe, page, tmp_path, (420,))[0]
    assert got["scrollWidth"] > 420 and any(o.startswith("div.x") for o in got["offenders"])
    assert any(h.startswith("table.results") for h in got["hidden"])  # a column off screen
    assert got["unpinned"] == ["table.results : System", "table.results : A"]  # scrolled away
    assert got["headers"] == ["table.results chrf: left over right"]
    assert got["wrapped"] == ["table.tests: 43.98 ±1.20 †/·"]
    assert got["minTextPx"] < 9 and len(got["small"]) == 4  # the second chart's are 16 px
    assert got["overlaps"] == ["one label / over another"]
    assert got["clipped"] == ["out of the chart"]
    assert [chars / lines for chars, lines in got["paths"]] == [1.0]
    assert axis_problems(got["axes"]) == [
        "a chart without its name: []",
        "t · chrfpp: A per reference length bucket: chrF counts characters, not "
        "'reference length (tokens)'"]
