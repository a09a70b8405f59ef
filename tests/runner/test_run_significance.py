"""Significance in config runs: what `evalfw run` computes from the per-segment
statistics, what the record keeps, that the seed reproduces it and that `verify` checks it."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from evalfw.analysis import bucketed_analysis, holm, paired_analysis
from evalfw.analysis.significance import with_deltas
from evalfw.cli.main import main
from evalfw.errors import ConfigError
from evalfw.metrics.base import SegmentLengths
from evalfw.records.document import validate_record
from evalfw.records.load import load_segments
from evalfw.runner._evaluate import build_metrics
from evalfw.runner.verify import verify
from tests.support.expected_warnings import nltk_zero_order
from tests.support.runs import REPO, run, workdir, write_config  # noqa: F401  (fixture)

# CONFIG's nltk metric on the sample data
pytestmark = [pytest.mark.parity, nltk_zero_order]

SAMPLE = REPO / "configs" / "sample" / "en-de"
SYSTEMS = ("Medium", "Strong", "Weak")

CONFIG = """\
schema_version: 1
experiment: sig
seed: {seed}
data_root: sample
output_dir: ../runs
test_sets:
  - name: en-de
    langs: en-de
    source: "{{data_root}}/en-de/src.txt"
    references: ["{{data_root}}/en-de/ref.A.txt", "{{data_root}}/en-de/ref.B.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
    tokenizer: 13a
  - name: en-de-A
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
metrics:
  - name: sacrebleu
  - name: eff
    effective_order: true
    level: [corpus, sentence]
  - name: nltk
    preset: nltk
reports: [table]
significance:
{block}
"""
BLOCK = """\
  baseline: Medium
  samples: 300
  ar_trials: 640
  method: both
  correction: holm
  buckets: {name: ref-length, edges: [8, 12]}
  min_bucket_size: 5
  sentence_export: [csv, jsonl]
  worst_segments: 3
"""
#: what the run adds to each comparison once its family is known
FAMILY_FIELDS = ("p_adjusted", "mdd", "mdd_adjusted")


def config(workdir: Path, block: str = BLOCK, seed: int = 7, name: str = "sig.yaml") -> str:
    write_config(workdir / "configs" / name, CONFIG.format(seed=seed, block=block))
    return f"configs/{name}"


def cell(outcome, test_set: str, metric: str) -> dict[str, np.ndarray]:
    """System -> the stored statistics rows of ``metric`` on ``test_set``."""
    arrays = load_segments(outcome.path, outcome.record)
    return {r["system"]: arrays[r["segments"]] for r in outcome.record["results"]
            if (r["test_set"], r["metric"], r["level"]) == (test_set, metric, "corpus")}


@pytest.fixture
def outcome(workdir):
    return run(config(workdir))


def test_record_holds_every_table_and_validates(outcome):
    record = outcome.record
    validate_record(record)
    assert json.loads((outcome.path / "record.json").read_text())["significance"] == \
        record["significance"]
    section = record["significance"]
    assert section["seed"] == 7 and section["settings"]["baseline"] == "Medium"
    assert section["settings"]["mode"] == "default" and section["settings"]["confidence"] == 0.95
    keys = [(t["test_set"], t["metric"]) for t in section["tables"]]
    assert keys == [(ts, m) for ts in ("en-de", "en-de-A") for m in ("sacrebleu", "eff", "nltk")]
    for table in section["tables"]:
        assert [i["system"] for i in table["intervals"]] == ["Medium", "Strong", "Weak"]
        assert sorted((c["system"], c["method"]) for c in table["comparisons"]) == \
            sorted((s, m) for s in ("Strong", "Weak") for m in ("bootstrap", "ar"))
        for i in table["intervals"]:
            assert i["lower"] <= i["score"] <= i["upper"] or i["ci"] == 0
            row = next(r for r in record["results"] if (r["test_set"], r["metric"], r["system"],
                       r["level"]) == (table["test_set"], table["metric"], i["system"], "corpus"))
            assert i["score"] == row["score"]  # the interval belongs to the recorded score


def test_numbers_equal_the_analysis_api_on_the_stored_statistics(outcome):
    """Recomputing from segments.npz with the recorded seed gives the recorded numbers."""
    record = outcome.record
    for table in record["significance"]["tables"]:
        stats = cell(outcome, table["test_set"], table["metric"])
        from evalfw.config import load_config

        cfg, host = load_config("configs/sig.yaml")
        ts = next(t for t in cfg.test_sets if t.name == table["test_set"])
        metric = build_metrics(cfg, host, ts)[table["metric"]]
        bs = paired_analysis(stats, "Medium", metric, "bootstrap", 300, 7, "default", 0.95)
        ar = paired_analysis(stats, "Medium", metric, "ar", 640, 7, "default", 0.95)
        assert table["intervals"] == [i.to_json() for i in bs.intervals]
        got = [{k: v for k, v in c.items() if k not in FAMILY_FIELDS}
               for c in table["comparisons"]]
        want = [{k: v for k, v in c.to_json().items() if k not in FAMILY_FIELDS}
                for c in (*bs.comparisons, *with_deltas(ar.comparisons, bs.comparisons))]
        assert got == want
        # buckets by the first reference's length, whatever reference each system is near
        refs = [(SAMPLE / f"ref.{x}.txt").read_text("utf-8").splitlines()
                for x in ("A", "B")][:len(ts.references)]
        ref_a = metric.lengths(metric.segment_statistics(refs[0], refs)).hypothesis
        buckets = bucketed_analysis(stats, "Medium", metric, host.component(
            "bucketer", "ref-length", {"edges": [8, 12]}),
            SegmentLengths(metric.lengths(stats["Medium"]).hypothesis, ref_a),
            "bootstrap", 300, 7, min_segments=5)
        got_b = [{**b, "comparisons": [{k: v for k, v in c.items() if k not in FAMILY_FIELDS}
                                       for c in b["comparisons"]]}
                 for b in table["buckets"]["results"]]
        want_b = [{**b.to_json(), "comparisons": [{k: v for k, v in c.to_json().items()
                                                   if k not in FAMILY_FIELDS}
                                                  for c in b.comparisons]}
                  for b in buckets]
        assert got_b == want_b
        assert [b["label"] for b in got_b] == ["<8", "8-11", "12+"]
        assert sum(b["segments"] for b in got_b) == table["segments"] == 40


def test_holm_within_each_table_per_method_by_default(outcome):
    section = outcome.record["significance"]
    assert section["settings"]["family"] == "table"
    for table in section["tables"]:
        for method in ("bootstrap", "ar"):
            family = [c for c in table["comparisons"] if c["method"] == method]
            assert len(family) == 2  # the systems other than the baseline
            assert [c["p_adjusted"] for c in family] == holm([c["p_value"] for c in family])
            buckets = [c for b in table["buckets"]["results"] for c in b["comparisons"]
                       if c["method"] == method]
            if buckets:
                assert [c["p_adjusted"] for c in buckets] == \
                    holm([c["p_value"] for c in buckets])
        sizes = {(f["kind"], f["method"]): f["size"] for f in table["families"]}
        assert sizes[("comparisons", "bootstrap")] == sizes[("comparisons", "ar")] == 2
        assert sizes[("buckets", "bootstrap")] == sum(
            len(b["comparisons"]) for b in table["buckets"]["results"])


def test_same_seed_same_numbers_other_seed_other_numbers(workdir):
    first = run(config(workdir)).record["significance"]
    second = run(config(workdir)).record["significance"]
    assert first == second
    other = run(config(workdir, seed=8, name="other.yaml")).record["significance"]
    assert other["seed"] == 8
    assert other["tables"][0]["intervals"] != first["tables"][0]["intervals"]


def test_sentence_exports_beside_the_record(outcome):
    import sacrebleu

    exports = {e["format"]: e for e in outcome.record["significance"]["exports"]}
    assert set(exports) == {"csv", "jsonl"}
    with (outcome.path / "sentences.csv").open(encoding="utf-8") as handle:
        rows_csv = list(csv.DictReader(handle))
    rows_jsonl = [json.loads(x) for x in (outcome.path / "sentences.jsonl").read_text("utf-8")
                  .splitlines()]
    assert len(rows_csv) == len(rows_jsonl) == exports["csv"]["rows"] == 2 * 3 * 3 * 40
    import hashlib

    for entry in exports.values():
        data = (outcome.path / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    refs = [(SAMPLE / f"ref.{k}.txt").read_text("utf-8").split("\n")[:-1] for k in "AB"]
    bleu = sacrebleu.BLEU(effective_order=True)
    for system in SYSTEMS:
        hyps = (SAMPLE / "sys" / f"{system}.txt").read_text("utf-8").split("\n")[:-1]
        want = [bleu.sentence_score(h, list(r)).score for h, *r in zip(hyps, *refs)]
        got_csv = [float(r["score"]) for r in rows_csv
                   if (r["test_set"], r["system"], r["metric"]) == ("en-de", system, "eff")]
        got_json = [r["score"] for r in rows_jsonl
                    if (r["test_set"], r["system"], r["metric"]) == ("en-de", system, "eff")]
        assert got_csv == got_json == want


def test_drilldown_keeps_the_worst_segments_with_their_texts(outcome):
    (item, _) = outcome.record["significance"]["drilldown"]
    # by default the entry also scored per sentence (effective order), not the first one
    assert item["metric"] == "eff" and item["baseline"] == "Medium"
    lines = {name: (SAMPLE / f"{name}.txt").read_text("utf-8").split("\n")[:-1]
             for name in ("src", "ref.A", "ref.B", "sys/Medium", "sys/Weak")}
    weak = next(s for s in item["systems"] if s["system"] == "Weak")
    assert 0 < len(weak["segments"]) <= 3
    deltas = [s["delta"] for s in weak["segments"]]
    assert deltas == sorted(deltas) and all(d < 0 for d in deltas)
    stats = cell(outcome, "en-de", "eff")
    from evalfw.config import load_config

    cfg, host = load_config("configs/sig.yaml")
    metric = build_metrics(cfg, host, cfg.test_sets[0])["eff"]
    delta = metric.sentence_scores(stats["Weak"]) - metric.sentence_scores(stats["Medium"])
    assert deltas == np.sort(delta)[:len(deltas)].tolist()
    for seg in weak["segments"]:
        i = seg["segment"] - 1
        assert seg["hypothesis"] == lines["sys/Weak"][i]
        assert seg["baseline_hypothesis"] == lines["sys/Medium"][i]
        assert seg["source"] == lines["src"][i]
        assert seg["references"] == [lines["ref.A"][i], lines["ref.B"][i]]


def test_verify_reproduces_and_catches_an_edited_p_value(outcome):
    assert verify(str(outcome.path)).ok
    path = outcome.path / "record.json"
    record = json.loads(path.read_text())
    record["significance"]["tables"][1]["comparisons"][0]["p_value"] = 0.5
    path.write_text(json.dumps(record))
    verdict = verify(str(outcome.path))
    assert not verdict.ok
    assert any("significance" in p and "p_value" in p and "0.5" in p for p in verdict.problems)


def test_all_pairs(workdir):
    block = ("  baseline: Weak\n  all_pairs: true\n  samples: 200\n  method: both\n"
             "  ar_trials: 320\n  correction: holm\n")
    record = run(config(workdir, block)).record
    tables = record["significance"]["tables"]
    for table in tables:
        pairs = {(c["baseline"], c["system"], c["method"]) for c in table["pairs"]}
        assert len(pairs) == len(table["pairs"]) == 3 * 2
        assert table["buckets"] is None
    # the all-pairs tests are a Holm family of their own (per table, as the comparisons):
    # the table's markers do not change
    for table in tables:
        for key in ("comparisons", "pairs"):
            for method in ("bootstrap", "ar"):
                family = [c for c in table[key] if c["method"] == method]
                assert [c["p_adjusted"] for c in family] == holm([c["p_value"] for c in family])


@pytest.mark.parametrize("block, words", [
    ("  baseline: Mediun\n", ["significance.baseline", "'Mediun'", "did you mean 'Medium'"]),
    ("  baseline: Medium\n  metrics: [bleu]\n", ["significance.metrics", "'bleu'"]),
    ("  baseline: Medium\n  mode: sacrebleu\n", ["metric 'nltk'", "significance.metrics"]),
    ("  baseline: Medium\n  mode: sacrebleu\n  metrics: [sacrebleu]\n  all_pairs: true\n",
     ["all_pairs", "mode 'default'"]),
    ("  baseline: Medium\n  buckets: ref-lenght\n", ["significance.buckets", "ref-length"]),
    ("  baseline: Medium\n  buckets: {name: ref-length, edges: [20, 10]}\n",
     ["significance.buckets", "increase"]),
    ("  baseline: Medium\n  sampels: 10\n", ["sampels"]),
    ("  method: bootstrap\n", ["baseline"]),
])
def test_bad_blocks_fail_before_anything_is_stored(workdir, block, words):
    with pytest.raises(ConfigError) as err:
        run(config(workdir, block))
    for word in words:
        assert word in str(err.value)
    assert not (workdir / "runs" / "sig").exists() or not any((workdir / "runs" / "sig").iterdir())


def test_sacrebleu_mode_seed_zero_refused(workdir):
    block = "  baseline: Medium\n  mode: sacrebleu\n  metrics: [sacrebleu]\n"
    with pytest.raises(ConfigError, match="non-zero seed"):
        run(config(workdir, block, seed=0))


def test_progress_reports_significance_phases(workdir):
    calls = []
    run(config(workdir), progress=lambda d, t, label: calls.append((d, t, label)))
    labels = {label for _, _, label in calls}
    assert "en-de/sacrebleu bootstrap" in labels and "en-de-A/nltk ar" in labels
    assert not any(label.startswith("significance") for label in labels)  # the stage's name
    # one total over the whole stage: 6 tables x (300 resamples + 640 trials + 300 buckets)
    stage = [c for c in calls if "/" in c[2]]
    assert {t for _, t, _ in stage} == {6 * (300 + 640 + 300)}
    done = [d for d, _, _ in stage]
    assert done == sorted(done) and done[-1] == stage[-1][1]


def test_cli_writes_no_progress_bar_when_stderr_is_not_a_terminal(workdir, capsys):
    assert main(["run", config(workdir)]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and "\x1b" not in err and "stored" in err
    assert main(["run", "--quiet", config(workdir)]) == 0
    err = capsys.readouterr().err  # (Python warnings of NLTK-style metrics may still appear)
    assert "\r" not in err and "\x1b" not in err and "stored" not in err and "[#" not in err


def test_example_config_runs_out_of_the_box(workdir):
    outcome = run("configs/wmt-significance.yaml")
    section = outcome.record["significance"]
    assert section["settings"]["baseline"] == "Medium" and section["seed"] == 12345
    for name in ("report-html.html", "report-table.txt", "sentences.csv", "sentences.jsonl"):
        assert (outcome.path / name).is_file()
    assert verify(str(outcome.path)).ok


def test_reference_length_buckets_depend_on_no_system():
    """With one reference every system has the same reference lengths, which serve; with
    several, BLEU measures the reference closest to each hypothesis, so the first
    reference's own length is used: the buckets are the same whoever the baseline is."""
    from evalfw.runner._table import bucket_lengths
    from tests.support import significance as sup

    metric = sup.metric()
    rng = np.random.default_rng(0)
    one = sup.rows(metric, {s: sup.random_stats(rng, 30) for s in ("a", "b")})
    same = one["a"].copy()
    one["b"][:, 1] = same[:, 1]  # one reference: the same lengths for every system
    got = bucket_lengths(metric, one, "a", "bleu", None, lambda: pytest.fail("not needed"))
    assert np.array_equal(got.reference, same[:, 1])
    two = sup.rows(metric, {s: sup.random_stats(rng, 30, refs=2) for s in ("a", "b")})
    first = np.arange(30)
    for baseline in ("a", "b"):
        got = bucket_lengths(metric, two, baseline, "bleu", None, lambda: first)
        assert np.array_equal(got.reference, first)
        assert np.array_equal(got.hypothesis, two[baseline][:, 0])
