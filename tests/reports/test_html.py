"""The HTML report in a real headless Chromium, and the significance cells of the text reports.

Set-up: a Chromium on PATH (``.ci/run`` installs Debian's); without one the browser tests skip
with the reason. The browser is driven by its command line only: ``--dump-dom`` for the
rendered DOM, ``--screenshot`` for a PNG, ``--enable-logging=stderr`` for console errors ("Uncaught ...").
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.reports._html import render
from tests.support.expected_warnings import few_resamples
from tests.support.reports import browser
from tests.support.runs import REPO, run, write_config

SAMPLE = REPO / "configs" / "sample"
ODD = 'A<b>&"x\''  # a legal system name that must be escaped everywhere

CONFIG = """\
schema_version: 1
experiment: report
seed: 3
data_root: {root}
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    source: "{{data_root}}/en-de/src.txt"
    references: ["{{data_root}}/en-de/ref.A.txt", "{{data_root}}/en-de/ref.B.txt"]
    systems:
      Medium: "{{data_root}}/en-de/sys/Medium.txt"
      Strong: "{{data_root}}/en-de/sys/Strong.txt"
      '{odd}': "{{data_root}}/en-de/sys/Weak.txt"
  - name: en-de-A
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt"]
    systems:
      Medium: "{{data_root}}/en-de/sys/Medium.txt"
      Strong: "{{data_root}}/en-de/sys/Strong.txt"
      '{odd}': "{{data_root}}/en-de/sys/Weak.txt"
metrics:
  - name: sacrebleu
  - name: chrf-like
    smoothing: floor
    level: [corpus, sentence]
reports: [table, markdown, latex, html]
significance:
  baseline: Medium
  samples: 400
  buckets: ref-length
  correction: {correction}
"""


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    cfg = write_config(tmp / "report.yaml", CONFIG.format(
        root=SAMPLE, out=tmp / "runs", odd=ODD.replace("'", "''"), correction="holm"))
    return run(str(cfg))


# ----------------------------------------------------------------------------- chromium


@pytest.fixture(scope="module")
def chromium() -> str:
    return browser()  # skips, saying why, where no browser is installed (.ci/run installs one)


def browse(exe: str, page: Path, profile: Path, *extra: str) -> subprocess.CompletedProcess:
    args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
            "--host-resolver-rules=MAP * ~NOTFOUND", *extra, page.resolve().as_uri()]
    return subprocess.run(args, capture_output=True, text=True, timeout=180)


class Cells(HTMLParser):
    """Collects results-table cells (attributes and text) and all text of the page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[tuple[str, str, str, str], tuple[dict[str, str], str]] = {}
        self.text: list[str] = []
        self.tags: set[str] = set()
        self._open: tuple[tuple[str, str, str, str], dict[str, str]] | None = None
        self._buf: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        a = {k: v or "" for k, v in attrs}
        if tag == "td" and "data-score" in a:
            self._open = ((a["data-system"], a["data-test-set"], a["data-metric"],
                           a["data-level"]), a)
            self._buf = []

    def handle_endtag(self, tag):
        if tag == "td" and self._open:
            key, a = self._open
            self.cells[key] = (a, "".join(self._buf).strip())
            self._open = None

    def handle_data(self, data):
        self.text.append(data)
        if self._open:
            self._buf.append(data)


def expected_marker(record, system, test_set, metric) -> str:
    table = next(t for t in record["significance"]["tables"]
                 if (t["test_set"], t["metric"]) == (test_set, metric))
    if system == table["baseline"]:
        return "°"
    comp = next(c for c in table["comparisons"] if c["system"] == system)
    p = comp["p_adjusted"] if comp["p_adjusted"] is not None else comp["p_value"]
    return ("†" if comp["delta"] > 0 else "‡") if p <= 0.05 else ""


def test_page_renders_the_records_numbers_in_chromium(outcome, chromium, tmp_path):
    record = outcome.record
    page = outcome.path / "report-html.html"
    dom = browse(chromium, page, tmp_path / "profile", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "Uncaught" not in dom.stderr
    parsed = Cells()
    parsed.feed(dom.stdout)
    corpus = [r for r in record["results"] if r["level"] == "corpus"]
    assert len(corpus) == 2 * 2 * 3
    for r in corpus:
        attrs, text = parsed.cells[(r["system"], r["test_set"], r["metric"], "corpus")]
        assert attrs["data-score"] == repr(r["score"])
        table = next(t for t in record["significance"]["tables"]
                     if (t["test_set"], t["metric"]) == (r["test_set"], r["metric"]))
        interval = next(i for i in table["intervals"] if i["system"] == r["system"])
        assert attrs["data-ci"] == repr(interval["ci"])
        marker = expected_marker(record, r["system"], r["test_set"], r["metric"])
        want = f"{r['score']:.2f} ±{interval['ci']:.2f}" + (f" {marker}" if marker else "")
        assert " ".join(text.split()) == want
    for r in (r for r in record["results"] if r["level"] == "sentence"):
        attrs, text = parsed.cells[(r["system"], r["test_set"], r["metric"], "sentence")]
        assert attrs["data-score"] == repr(r["score"]) and "±" not in text
    body = "".join(parsed.text)
    assert "b" not in parsed.tags and "script" not in parsed.tags  # the odd name stayed text
    assert ODD in body
    for item in record["inputs"]:
        assert item["sha256"] in body
    for spec in record["specs"]:
        assert (spec["sacrebleu_signature"] or spec["signature"]) in body
    worst = record["significance"]["drilldown"][0]["systems"][0]["segments"][0]
    assert worst["hypothesis"] in body and worst["references"][1] in body
    assert "significantly better" in body and "Holm-adjusted" in body


def test_screenshot(outcome, chromium, tmp_path):
    shot = tmp_path / "report.png"
    out = browse(chromium, outcome.path / "report-html.html", tmp_path / "profile",
                 f"--screenshot={shot}", "--window-size=1280,2000", "--hide-scrollbars")
    assert out.returncode == 0 and shot.is_file(), out.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 2000)
    assert len(data) > 40_000  # a blank page compresses to a few kB
    keep = os.environ.get("EVALFW_SCREENSHOT_DIR")
    if keep:  # for looking at it by eye
        shutil.copy(shot, Path(keep) / "report.png")


def test_the_harness_sees_script_errors(chromium, tmp_path):
    """Negative control: a page whose script throws is reported by the log scan."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction();</script>"
                    "</body></html>", encoding="utf-8")
    out = browse(chromium, page, tmp_path / "profile", "--dump-dom")
    assert "Uncaught" in out.stderr


# ----------------------------------------------------------------------------- no browser


def test_page_is_self_contained(outcome):
    text = (outcome.path / "report-html.html").read_text("utf-8")
    assert text.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in text
    assert "default-src 'none'" in text
    lowered = text.lower()
    for needle in ("<script", "<link", "<img", "<iframe", "@import", "url(", "src=",
                   "https://", "href=\"http"):
        assert needle not in lowered, needle
    assert lowered.count("http://") == lowered.count('xmlns="http://www.w3.org/2000/svg"')
    # per test set x metric: the interval chart and one bucket chart per system (3)
    assert text.count("<svg") == 2 * 2 * (1 + 3)


def test_show_html_equals_the_stored_report(outcome, capsys):
    stored = (outcome.path / "report-html.html").read_text("utf-8")
    assert main(["show", str(outcome.path), "--format", "html"]) == 0
    assert capsys.readouterr().out == stored == render(outcome.record)


def test_text_reports_show_intervals_markers_and_legend(outcome):
    record = outcome.record
    table = (outcome.path / "report-table.txt").read_text("utf-8")
    md = (outcome.path / "report-markdown.md").read_text("utf-8")
    tex = (outcome.path / "report-latex.tex").read_text("utf-8")
    for r in (r for r in record["results"] if r["level"] == "corpus"):
        t = next(t for t in record["significance"]["tables"]
                 if (t["test_set"], t["metric"]) == (r["test_set"], r["metric"]))
        ci = next(i for i in t["intervals"] if i["system"] == r["system"])["ci"]
        marker = expected_marker(record, r["system"], r["test_set"], r["metric"])
        cell = f"{r['score']:.2f} ±{ci:.2f}" + (f" {marker}" if marker else "")
        assert cell in table and cell in md
        latex_mark = {"†": r"$^{\dagger}$", "‡": r"$^{\ddagger}$", "°": r"$^{\circ}$", "": ""}
        assert f"{r['score']:.2f} {{\\small$\\pm${ci:.2f}}}{latex_mark[marker]}" in tex
    for text in (table, md):
        assert "half-width of each system's own 95% bootstrap confidence interval (400 " \
            "resamples of segments, seed 3" in text
        assert "p ≤ 0.05 by paired bootstrap resampling with 400 resamples, Holm-adjusted" in text
        assert "no mark: inconclusive at α = 0.05" in text
        assert "unadjusted for multiple comparisons" in text
    assert r"95\% bootstrap" in tex and r"p $\le$ 0.05" in tex


def test_reports_without_significance_are_unchanged(tmp_path):
    text = CONFIG.format(root=SAMPLE, out=tmp_path / "runs", odd="Weak", correction="none")
    cfg = write_config(tmp_path / "plain.yaml", text.split("significance:")[0])
    outcome = run(str(cfg))
    assert "significance" not in outcome.record
    table = (outcome.path / "report-table.txt").read_text("utf-8")
    assert "±" not in table and "†" not in table and "°" not in table
    html = (outcome.path / "report-html.html").read_text("utf-8")
    assert "<svg" not in html and "data-score" in html and "Provenance" in html


def test_chart_positions_follow_the_numbers():
    """Dots sit at their scores on the (zoomed) axis, interval bars span lower..upper."""
    import re

    from evalfw.reports._svg import Point, bucket_chart, interval_chart

    rng = __import__("random").Random(4)
    rows = []
    for k in range(9):
        s = rng.uniform(40, 60)
        rows.append((f"s{k}", Point(s, s - rng.uniform(0.5, 2), s + rng.uniform(0.5, 2)), ""))
    svg = interval_chart("t", rows)
    dots = [float(v) for v in re.findall(r'<circle cx="([0-9.]+)"', svg)]
    bars = [(float(a), float(b)) for a, b in re.findall(r'<line x1="([0-9.]+)" y1="[0-9.]+" '
                                                       r'x2="([0-9.]+)" y2="[0-9.]+" stroke=', svg)]
    grid = [float(v) for v in re.findall(r'<line x1="([0-9.]+)"[^>]*class="grid"', svg)]
    scores = [p.score for _, p, _ in rows]
    hi_k, lo_k = scores.index(max(scores)), scores.index(min(scores))
    scale = (dots[hi_k] - dots[lo_k]) / (scores[hi_k] - scores[lo_k])
    for (_, p, _), dot, (lo, hi) in zip(rows, dots, bars, strict=True):
        assert abs(dot - (dots[lo_k] + scale * (p.score - scores[lo_k]))) < 0.2
        assert abs(lo - (dot - scale * (p.score - p.lower))) < 0.2
        assert abs(hi - (dot + scale * (p.upper - p.score))) < 0.2
        assert min(grid) <= lo < dot < hi <= max(grid)  # inside the plot, between its ticks
    assert scale > 8  # zoomed: 9 systems within ~24 points spread over the plot width
    series = [("a", [Point(10, 8, 12), None, Point(30, 25, 35)])]
    chart = bucket_chart("b", ["<10", "10-19", "20+"], series)
    ys = [float(v) for v in re.findall(r'<circle cx="[0-9.]+" cy="([0-9.]+)"', chart)]
    assert len(ys) == 2 and ys[0] > ys[1]  # higher score, higher on the page


def test_json_report_carries_the_significance_results(outcome, capsys):
    import json

    assert main(["show", str(outcome.path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["significance"] == outcome.record["significance"]


def test_a_missing_browser_is_a_skip_with_the_reason(monkeypatch):
    monkeypatch.setenv("PATH", "")
    with pytest.raises(pytest.skip.Exception, match="on PATH"):
        browser()


@pytest.mark.parametrize("block", [
    "  baseline: Strong\n  mode: sacrebleu\n  method: ar\n  ar_trials: 200\n"
    "  metrics: [sacrebleu]\n  worst_segments: 0\n",
    pytest.param("  baseline: Medium\n  method: both\n  all_pairs: true\n  samples: 100\n"
                 "  ar_trials: 96\n  confidence: 0.9\n  alpha: 0.01\n", marks=few_resamples),
])
def test_other_settings_render(tmp_path, block):
    text = CONFIG.format(root=SAMPLE, out=tmp_path / "runs", odd="Weak", correction="none")
    text = text.split("significance:")[0] + "significance:\n" + block
    outcome = run(str(write_config(tmp_path / "c.yaml", text)))
    page = (outcome.path / "report-html.html").read_text("utf-8")
    parsed = Cells()
    parsed.feed(page)
    for r in outcome.record["results"]:
        attrs, _ = parsed.cells[(r["system"], r["test_set"], r["metric"], r["level"])]
        assert attrs["data-score"] == repr(r["score"])
    table = (outcome.path / "report-table.txt").read_text("utf-8")
    settings = outcome.record["significance"]["settings"]
    if settings["mode"] == "sacrebleu":
        assert "approximate randomization with 200 trials" in table and "sacrebleu mode" in table
        assert "No drill-down stored" in page
        assert "chrf-like" in table  # analysed metrics only get cells with intervals
    else:
        assert "90% bootstrap" in table and "p ≤ 0.01" in table and "All pairs" in page


def test_drilldown_marks_words_missing_from_every_reference():
    from evalfw.reports._html_drilldown import highlight

    assert highlight("Das <b> Haus ist", ["Das Haus", "ist klein"]) == \
        "Das <mark>&lt;b&gt;</mark> Haus ist"
    assert highlight("", ["x"]) == ""


def test_chrf_bucket_axes_count_characters(tmp_path):
    """The bucket axis names the unit the record gives: characters for chrF; a record that
    names none says what was measured without a unit."""
    text = CONFIG.format(root=SAMPLE, out=tmp_path / "runs", odd="Weak", correction="none")
    text = text.replace("  - name: chrf-like\n    smoothing: floor\n",
                        "  - name: chrf\n    metric: chrf\n")
    outcome = run(str(write_config(tmp_path / "c.yaml", text)))
    units = {m["name"]: m.get("length_unit") for m in outcome.record["metrics"]}
    assert units["chrf"] == "characters"
    page = (outcome.path / "report-html.html").read_text("utf-8")
    import re

    charts = re.findall(r'<svg [^>]*aria-label="([^"]*)"(.*?)</svg>', page, re.S)
    chrf = [body for label, body in charts if "· chrf:" in label and "bucket" in label]
    assert chrf and all(">reference length (characters)</text>" in c for c in chrf)
    older = json.loads(json.dumps(outcome.record))  # as written before units were kept
    for m in older["metrics"]:
        del m["length_unit"]
    for t in older["significance"]["tables"]:
        del t["buckets"]["unit"], t["buckets"]["quantity"]
    page = render(older)
    assert ">reference length</text>" in page and "(characters)" not in page
