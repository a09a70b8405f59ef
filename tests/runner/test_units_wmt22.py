"""Length units and bucket edges on the real WMT22 en-de data: every bucket table names the
unit its metric counts in (chrF characters, BLEU 13a tokens, TER words), and the default
edges follow the data so that no bucket holds half of the segments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.runner.run import run_experiment
from tests.support.expected_warnings import few_resamples
from tests.support.shared_data import need_wmt22

# the runs' 50 resamples, for bucket layouts only
pytestmark = [pytest.mark.wmt22, few_resamples]

CONFIG = """\
schema_version: 1
experiment: units
seed: 5
output_dir: runs
data_root: {data}
test_sets:
  - name: en-de
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt", "{{data_root}}/en-de/ref.B.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
metrics:
  - {{name: chrf, metric: chrf}}
  - {{name: bleu}}
  - {{name: ter, metric: ter}}
significance: {{baseline: Online-A, samples: 50, buckets: ref-length}}
reports: [html]
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The config with data-driven edges and with the fixed edges 10..60 (chrF only)."""
    data = need_wmt22()
    where = tmp_path_factory.mktemp("units")
    config = where / "units.yaml"
    config.write_text(CONFIG.format(data=data), "utf-8")
    here = Path.cwd()
    try:
        import os

        os.chdir(where)
        default = run_experiment(str(config), cache=False)
        fixed = run_experiment(str(config), [
            "significance.buckets={name: ref-length, edges: [10, 20, 30, 40, 50, 60]}",
            "significance.metrics=[chrf]", "reports=[]"], cache=False)
    finally:
        os.chdir(here)
    return {"default": default.record, "fixed": fixed.record,
            "html": (default.path / "report-html.html").read_text("utf-8")}


def buckets(record: dict, metric: str) -> dict:
    return next(t for t in record["significance"]["tables"] if t["metric"] == metric)["buckets"]


def test_fixed_edges_put_most_chrf_segments_in_one_bucket(runs):
    b = buckets(runs["fixed"], "chrf")
    counts = {r["label"]: r["segments"] for r in b["results"]}
    # lengths of the first reference (two references: chrF's best one depends on the system)
    assert counts["60+"] == 1375 and sum(counts.values()) == 2037
    assert b["unit"] == "characters" and b["edges"] == [10, 20, 30, 40, 50, 60]


@pytest.mark.parametrize("metric, unit", [("chrf", "characters"), ("bleu", "13a tokens"),
                                          ("ter", "words")])
def test_default_edges_follow_the_data_in_the_metrics_unit(runs, metric, unit):
    b = buckets(runs["default"], metric)
    counts = [r["segments"] for r in b["results"]]
    assert sum(counts) == 2037
    assert max(counts) * 2 <= 2037 and min(counts) > 0, counts
    assert len(counts) == len(b["edges"]) + 1 >= 4
    assert b["unit"] == unit and b["quantity"] == "reference length"
    assert "edges" not in b["bucketer"]  # chosen from the data, recorded beside the options
    entry = next(m for m in runs["default"]["metrics"] if m["name"] == metric)
    assert entry["length_unit"] == unit and entry["score_scale"] == 100


def test_the_report_labels_bucket_axes_with_the_unit(runs):
    html = runs["html"]
    for unit in ("characters", "13a tokens", "words"):
        assert f">reference length ({unit})</text>" in html
        assert f"Scores per bucket of reference length ({unit})" in html
    assert "(tokens)" not in html


def test_show_renders_the_stored_units_again(runs, tmp_path, monkeypatch, capsys):
    version = tmp_path / "v"
    version.mkdir()
    (version / "record.json").write_text(json.dumps(runs["default"]), "utf-8")
    # the record alone renders (show does not read segments for a report)
    assert main(["show", str(version), "--format", "html"]) == 0
    assert ">reference length (characters)</text>" in capsys.readouterr().out
