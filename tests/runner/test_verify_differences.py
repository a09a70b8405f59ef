"""`verify` names every significance difference in full (test set, metric, test, system,
field) and lists all of them: the text output says how many more there are, --json has all."""

from __future__ import annotations

import copy
import json

from evalfw.cli.main import main
from evalfw.runner.verify import compare_significance
from tests.support.runs import run, workdir, write_config  # noqa: F401  (fixture)


def comparison(system: str, method: str, p: float, bucket: str | None = None) -> dict:
    return {"system": system, "baseline": "Base", "method": method, "p_value": p,
            "p_adjusted": p, "delta": 1.0, "bucket": bucket}


def table(test_set: str, metric: str) -> dict:
    systems = [f"S{i}" for i in range(12)]
    return {
        "test_set": test_set, "metric": metric, "baseline": "Base", "segments": 10,
        "systems": ["Base", *systems],
        "intervals": [{"system": s, "ci": 1.0} for s in ["Base", *systems]],
        "comparisons": [comparison(s, m, 0.01) for m in ("bootstrap", "ar") for s in systems],
        "pairs": [{**comparison("S1", "ar", 0.2), "baseline": "S0"}],
        "buckets": {"bucketer": {"name": "ref-length"}, "results": [
            {"label": "<=10", "segments": 4, "intervals": [{"system": "S0", "ci": 2.0}],
             "comparisons": [comparison("S0", "bootstrap", 0.3, "<=10")]}]},
    }


def section() -> dict:
    return {"settings": {"samples": 100}, "seed": 1,
            "tables": [table("en-de", "bleu"), table("en-de", "chrf"), table("de-en", "bleu")]}


def test_each_difference_names_test_set_metric_test_and_system():
    old = {"significance": section()}
    new = copy.deepcopy(old)
    tables = new["significance"]["tables"]
    tables[1]["comparisons"][12]["p_value"] = 0.5            # en-de chrf, AR, S0
    tables[0]["comparisons"][3]["p_value"] = 0.25            # en-de bleu, bootstrap, S3
    tables[2]["intervals"][0]["ci"] = 3.0                    # de-en bleu, Base
    tables[0]["pairs"][0]["p_adjusted"] = 0.4
    tables[0]["buckets"]["results"][0]["comparisons"][0]["delta"] = 2.0
    new["significance"]["settings"]["samples"] = 200
    found = compare_significance(old, new)
    assert found == [
        "significance.settings.samples: 100 -> 200 (+100)",
        "significance[en-de][bleu].paired_bootstrap[S3].p_value: 0.01 -> 0.25 (+0.24)",
        "significance[en-de][bleu].pairs.paired_ar[S1 vs S0].p_adjusted: 0.2 -> 0.4 (+0.2)",
        "significance[en-de][bleu].buckets[<=10].paired_bootstrap[S0].delta: 1.0 -> 2.0 (+1)",
        "significance[en-de][chrf].paired_ar[S0].p_value: 0.01 -> 0.5 (+0.49)",
        "significance[de-en][bleu].intervals[Base].ci: 1.0 -> 3.0 (+2)",
    ]


def test_no_cap_every_difference_is_listed():
    old = {"significance": section()}
    new = copy.deepcopy(old)
    for t in new["significance"]["tables"]:
        for c in t["comparisons"]:
            c["p_value"] = 0.9
    found = compare_significance(old, new)
    assert len(found) == 3 * 24  # every comparison of every table, far more than 20
    assert len(set(found)) == len(found)


def test_missing_and_added_tables_and_comparisons():
    old = {"significance": section()}
    new = copy.deepcopy(old)
    del new["significance"]["tables"][2]
    new["significance"]["tables"][0]["comparisons"].pop()
    found = compare_significance(old, new)
    assert "significance[en-de][bleu].paired_ar[S11]: missing in the re-run" in found
    assert "significance[de-en][bleu]: missing in the re-run" in found
    assert compare_significance(new, old)[0].endswith("computed now but not recorded")


CONFIG = """\
schema_version: 1
experiment: diffs
seed: 3
data_root: sample
output_dir: ../runs
test_sets:
  - name: en-de
    langs: en-de
    references: ["{data_root}/en-de/ref.A.txt"]
    systems: {"*": "{data_root}/en-de/sys/*.txt"}
metrics:
  - name: bleu
  - name: addk
    smoothing: {name: add-k, value: 2}
reports: [table]
significance: {baseline: Medium, method: both, samples: 50, ar_trials: 50}
"""


def test_verify_cli_lists_all_in_json_and_says_how_many_more_in_text(workdir, capsys):
    write_config(workdir / "configs" / "diffs.yaml", CONFIG)
    outcome = run("configs/diffs.yaml")
    path = outcome.path / "record.json"
    record = json.loads(path.read_text())
    changed = 0
    for t in record["significance"]["tables"]:
        for c in [*t["intervals"], *t["comparisons"]]:
            for key in ("ci", "p_value", "delta", "mean", "upper", "lower"):
                if isinstance(c.get(key), float):
                    c[key] = c[key] / 2 + 1e-3  # stays a valid p-value
                    changed += 1
    path.write_text(json.dumps(record))
    assert changed > 50
    assert main(["verify", str(outcome.path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    named = [p for p in out["problems"] if p.startswith("significance[")]
    assert len(named) == changed
    assert any(p.startswith("significance[en-de][addk].paired_ar[Strong].p_value: ")
               for p in named)
    assert main(["verify", str(outcome.path)]) == 1
    captured = capsys.readouterr()
    assert f"... and {len(out['problems']) - 50} more (all of them with --json)" in captured.out
    assert "all of them with --json" in captured.err
