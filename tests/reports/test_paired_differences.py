"""Every table format shows each system's paired difference from the baseline with its
interval (labelled unadjusted), every unmarked comparison reads "inconclusive" with the
smallest difference its test could have detected, and a p-value at its floor prints as
"< 1/(n+1)"; the CSV carries the interval, the difference and the p-values at full
precision."""

from __future__ import annotations

import csv
import io

import pytest

from evalfw.reports._cells import Significance, significant
from evalfw.reports._html import render as html
from evalfw.reports.reporters import (
    CSV_FIELDS,
    CSV_SIGNIFICANCE,
    CsvReporter,
    LatexReporter,
    MarkdownReporter,
    TableReporter,
    md_escape,
)
from tests.support.runs import REPO, run, write_config

CONFIG = """\
schema_version: 1
experiment: deltas
seed: 8
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: [{data}/ref.A.txt]
    systems: {{"*": "{data}/sys/*.txt"}}
metrics:
  - name: bleu
  - name: ter
    metric: ter
reports: [table]
significance:
  baseline: Medium
  method: both
  samples: 200
  ar_trials: 200
"""


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("deltas")
    cfg = write_config(tmp / "d.yaml", CONFIG.format(out=tmp / "runs",
                                                     data=REPO / "configs" / "sample" / "en-de"))
    return run(str(cfg)).record


def _comparisons(record):
    for table in record["significance"]["tables"]:
        for c in table["comparisons"]:
            if c["method"] == "bootstrap":
                yield table, c


def test_the_terminal_and_markdown_tests_show_the_difference_and_its_interval(record):
    sig = Significance(record)
    text, md = TableReporter().render(record), MarkdownReporter().render(record)
    assert "interval: of the difference, unadjusted" in text
    for table, c in _comparisons(record):
        places = sig.places(table["metric"])
        interval = f"[{c['delta_lower']:+.{places}f}, {c['delta_upper']:+.{places}f}]"
        row = next(x for x in text.splitlines() if x.split()[:3] == [
            table["test_set"], table["metric"], c["system"]])
        assert f"{c['delta']:+.{places}f}" in row and interval in row
        assert md_escape(interval) in md  # brackets escaped: they render as themselves
        verdict = sig.verdict(c, table["metric"])
        assert row.rstrip().endswith(verdict)
        if not significant(c, sig.alpha):
            assert verdict == f"inconclusive (could detect ≥{c['mdd_adjusted']:.{places}f})"


def test_a_p_value_at_its_floor_prints_as_less_than(record):
    floor = [c for _, c in _comparisons(record) if c["p_value"] == 1 / 201]
    assert floor, "the sample's strong system is never matched by a resample"
    text = TableReporter().render(record)
    assert "<0.0050" in text and "0.0050 " not in text.replace("<0.0050", "")
    assert "< before a p-value: no resample or trial was as extreme as the observed " \
        "difference, so the p-value is only known to be below 1/(n + 1) (1/201 = 0.004975 " \
        "with 200 resamples)" in " ".join(text.split())
    assert "&lt;0.0050" in html(record)  # escaped in the page


def test_the_legend_names_the_smallest_detectable_differences(record):
    text = " ".join(TableReporter().render(record).split())
    sig = Significance(record)
    mdd = [c["mdd_adjusted"] for t, c in _comparisons(record) if t["metric"] == "bleu"]
    span = f"{min(mdd):.2f}–{max(mdd):.2f} (bleu)"
    assert "Minimum detectable difference (MDD): the true difference a test would detect " \
        f"with 80 % power (two-sided, at α/m); here {span}" in text
    assert sig.mdd(next(c for _, c in _comparisons(record))) is not None
    assert "no mark: inconclusive at α = 0.05, the test could not tell the systems apart" in text


def test_latex_has_a_table_of_differences(record):
    tex = LatexReporter().render(record)
    assert tex.count(r"\begin{table}") == 2
    second = tex[tex.rindex(r"\begin{table}"):]
    assert "Paired differences from the baseline Medium" in second
    assert "unadjusted for multiple comparisons" in second
    sig = Significance(record)
    for table, c in _comparisons(record):
        places = sig.places(table["metric"])
        assert f"${c['delta']:+.{places}f}$ {{\\small[{c['delta_lower']:+.{places}f}, " \
            f"{c['delta_upper']:+.{places}f}]}}" in second
    assert "Medium & --- & ---" in second


def test_the_csv_carries_intervals_differences_and_p_values(record):
    rows = list(csv.DictReader(io.StringIO(CsvReporter().render(record))))
    assert list(rows[0]) == [*CSV_FIELDS, *CSV_SIGNIFICANCE]
    sig = Significance(record)
    for table, c in _comparisons(record):
        (row,) = [r for r in rows if (r["test_set"], r["metric"], r["system"]) ==
                  (table["test_set"], table["metric"], c["system"])]
        assert float(row["delta"]) == c["delta"] and float(row["p_value"]) == c["p_value"]
        assert float(row["delta_lower"]) == c["delta_lower"]
        assert float(row["p_adjusted"]) == c["p_adjusted"]
        assert row["delta_interval"] == "unadjusted" and row["test"] == "bootstrap"
        assert row["resampled"] == "segment" and row["secondary_test"] == "ar"
        assert row["result"] == sig.verdict(c, table["metric"])
        interval = next(i for i in table["intervals"] if i["system"] == c["system"])
        assert float(row["ci_lower"]) == interval["lower"]
    base = [r for r in rows if r["system"] == "Medium"]
    assert base and all(r["delta"] == "" and r["ci_lower"] for r in base)


def test_an_unmarked_comparison_reads_inconclusive_with_what_it_could_detect(record):
    import copy

    weaker = copy.deepcopy(record)
    table = weaker["significance"]["tables"][0]
    comp = next(c for c in table["comparisons"] if c["method"] == "bootstrap")
    comp["p_value"], comp["p_adjusted"] = 0.3, 0.6  # as if the test had not shown it
    sig = Significance(weaker)
    text = TableReporter().render(weaker)
    row = next(x for x in text.splitlines() if x.split()[:3] == [
        table["test_set"], table["metric"], comp["system"]])
    assert row.endswith(f"inconclusive (could detect ≥{comp['mdd_adjusted']:.2f})")
    cell = sig.cell(comp["system"], table["test_set"], table["metric"])
    assert cell.marker == "" and f"±{cell.ci:.2f}" in text
    assert "inconclusive (could detect ≥" in html(weaker)
    rows = list(csv.DictReader(io.StringIO(CsvReporter().render(weaker))))
    (line,) = [r for r in rows if (r["metric"], r["system"]) == (table["metric"],
                                                                 comp["system"])]
    assert line["result"].startswith("inconclusive") and float(line["mdd"]) == \
        comp["mdd_adjusted"]
