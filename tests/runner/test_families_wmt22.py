"""The WMT22 sweep (four pairs, every system, first reference, BLEU, chrF, chrF++ and TER,
Online-A as the baseline, both tests, otherwise defaults) keeps its conclusions: with the
default family (one table) at least half of the raw-significant comparisons stay significant
for each test, where a correction across the whole run erased every bootstrap mark; its
legends name the family and its sizes. Too few resamples are announced with the number that
would do."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from evalfw.analysis.resolution import p_value_resolution
from evalfw.analysis.results import holm
from evalfw.cli.main import main
from evalfw.reports._cells import WORSE, Significance
from evalfw.reports._html import render as html
from evalfw.reports.reporters import LatexReporter, MarkdownReporter, TableReporter
from evalfw.runner.progress import LogProgress
from tests.support.runs import run, write_config
from tests.support.shared_data import need_wmt22, wmt22_pairs

pytestmark = [pytest.mark.wmt22, pytest.mark.slow]

HEAD = """\
schema_version: 1
experiment: sweep
seed: 12345
data_root: {root}
output_dir: {out}
test_sets:
{test_sets}
metrics:
  - name: bleu
  - name: chrf
    metric: chrf
  - name: chrfpp
    metric: chrf
    word_order: 2
  - name: ter
    metric: ter
reports: [table]
significance: {{baseline: Online-A, method: both{extra}}}
"""
TEST_SET = """\
  - name: {pair}
    langs: {pair}
    references: ["{{data_root}}/{pair}/ref.A.txt"]
    systems: {{"*": "{{data_root}}/{pair}/sys/*.txt"}}
"""


def sweep_config(tmp: Path, pairs: list[str], extra: str = "") -> str:
    root = need_wmt22()
    text = HEAD.format(root=root, out=tmp / "runs", extra=extra,
                       test_sets="".join(TEST_SET.format(pair=p) for p in pairs))
    return str(write_config(tmp / "sweep.yaml", text))


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    root = need_wmt22()
    log = io.StringIO()
    tmp = tmp_path_factory.mktemp("sweep")
    return run(sweep_config(tmp, wmt22_pairs(root)), progress=LogProgress(log)), log.getvalue()


def counts(tables, method: str, adjusted) -> tuple[int, int]:
    comps = [c for t in tables for c in t["comparisons"] if c["method"] == method]
    raw = sum(c["p_value"] <= 0.05 for c in comps)
    return raw, sum(p <= 0.05 for p in adjusted(comps))


def test_at_least_half_of_the_raw_significant_comparisons_stay_significant(sweep):
    outcome, log = sweep
    section = outcome.record["significance"]
    assert len(section["tables"]) == 16
    assert (section["settings"]["correction"], section["settings"]["family"]) == \
        ("holm", "table")
    for method in ("bootstrap", "ar"):
        raw, kept = counts(section["tables"], method,
                           lambda comps: [c["p_adjusted"] for c in comps])
        assert raw >= 50 and kept >= raw / 2, (method, raw, kept)
    # what a correction across the whole run (160 comparisons per test) made of the same
    # p-values: no bootstrap mark at all, since 160 / 1001 > 0.05
    raw, kept = counts(section["tables"], "bootstrap",
                       lambda comps: holm([c["p_value"] for c in comps]))
    assert raw >= 50 and kept == 0
    assert not p_value_resolution("bootstrap", 1000, 160, "holm", 0.05).reachable
    assert all(p["reachable"] for p in section["resolution"])
    assert "warning" not in log and "resolution_warning" not in section


def test_en_ja_ter_online_b_is_marked_worse(sweep):
    record = sweep[0].record
    sig = Significance(record)
    cell = sig.cell("Online-B", "en-ja", "ter")
    assert cell.markers == (WORSE,) and cell.p_adjusted <= 0.05  # the primary: bootstrap
    ar = sig.comparison("Online-B", "en-ja", "ter", "ar")  # and the secondary test agrees
    assert ar is not None and ar["p_adjusted"] <= 0.05 and ar["delta"] > 0


def test_every_legend_names_the_family_and_its_sizes(sweep):
    record = sweep[0].record
    family = ("Multiple comparisons: Holm correction within each table, a family being one "
              "test set x metric x test: 8 comparisons in de-en, en-de; 12 in en-ja, en-zh.")
    for out in (TableReporter().render(record), MarkdownReporter().render(record),
                LatexReporter().render(record), html(record)):
        assert "Holm-adjusted within each table" in out and family in out
    for table in record["significance"]["tables"]:
        size = 8 if table["test_set"] in ("de-en", "en-de") else 12
        assert {(f["kind"], f["method"], f["size"]) for f in table["families"]} == {
            ("comparisons", "bootstrap", size), ("comparisons", "ar", size)}


def test_ten_resamples_say_significance_is_out_of_reach(tmp_path, capsys):
    need_wmt22()
    config = sweep_config(tmp_path, ["en-ja"], ", samples: 10, ar_trials: 100")
    assert main(["run", config, "--set", "metrics=[{name: ter, metric: ter}]"]) == 0
    err = capsys.readouterr().err
    assert err.count("significance is out of reach") == 1
    assert ("evalfw: warning: significance is out of reach: with 10 paired bootstrap resamples "
            "the smallest possible p-value is 1/11 = 0.09091, 1 after Holm over a family of 12 "
            "comparisons (one test set x metric x test), above alpha 0.05: no comparison in "
            "such a family can be significant; 239 resamples would reach alpha, 4800 resamples "
            "(20 x family size / alpha) are recommended (significance.samples: 4800); with 100 "
            "approximate randomization trials") in err
    assert "239 trials would reach alpha, 4800 trials (20 x family size / alpha) are " \
        "recommended (significance.ar_trials: 4800)" in err
