"""Multiple-comparison families in config runs: the correction (holm, bonferroni, none) runs
within one table, one test set or the whole run, per kind of test and test method; the record
states each table's families and sizes; resamples that cannot reach alpha are announced once
(stderr, record, legend), in sacreBLEU mode on stderr only."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import pytest

from evalfw.analysis.results import bonferroni, holm
from evalfw.cli.main import main
from evalfw.errors import ConfigError, ResolutionWarning
from evalfw.records.document import validate_record
from evalfw.reports._html import render as html
from evalfw.reports.reporters import LatexReporter, MarkdownReporter, TableReporter
from evalfw.runner.progress import LogProgress
from evalfw.runner.verify import verify
from tests.support.expected_warnings import few_resamples
from tests.support.runs import REPO, run, write_config

CONFIG = """\
schema_version: 1
experiment: fam
seed: 3
data_root: {root}
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
  - name: en-de-B
    langs: en-de
    references: ["{{data_root}}/en-de/ref.B.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
metrics:
  - name: bleu
  - name: chrf
    metric: chrf
reports: [table]
significance:
  baseline: Medium
  method: both
  samples: {samples}
  ar_trials: 200
  all_pairs: true
  buckets: {{name: ref-length, edges: [10]}}
  min_bucket_size: 5
{extra}"""

ADJUST: dict[str, Callable[[list[float]], list[float]]] = {"holm": holm,
                                                          "bonferroni": bonferroni}


def config(tmp_path, extra: str = "", samples: int = 200) -> str:
    text = CONFIG.format(root=REPO / "configs" / "sample", out=tmp_path / "runs",
                         samples=samples, extra=extra)
    return str(write_config(tmp_path / "fam.yaml", text))


def scope(family: str, table: dict) -> tuple:
    return {"table": (table["test_set"], table["metric"]), "test_set": (table["test_set"],),
            "run": ()}[family]


def members_of(table: dict, kind: str) -> list[dict]:
    if kind == "buckets":
        return [c for b in table["buckets"]["results"] for c in b["comparisons"]]
    return table[kind]


@pytest.mark.parametrize("correction,family", [
    ("holm", "table"), ("holm", "test_set"),
    # the run's family is too large for the config's resamples
    pytest.param("holm", "run", marks=few_resamples), ("bonferroni", "table"),
    pytest.param("bonferroni", "run", marks=few_resamples)])
def test_each_family_is_corrected_on_its_own(tmp_path, correction, family):
    record = run(config(tmp_path, f"  correction: {correction}\n  family: {family}\n")).record
    validate_record(record)
    section = record["significance"]
    assert (section["settings"]["correction"], section["settings"]["family"]) == \
        (correction, family)
    tables = section["tables"]
    for kind in ("comparisons", "pairs", "buckets"):
        for method in ("bootstrap", "ar") if kind != "buckets" else ("bootstrap",):
            groups: dict[tuple, list[dict]] = {}
            for t in tables:
                groups.setdefault(scope(family, t), []).extend(
                    c for c in members_of(t, kind) if c["method"] == method)
            for t in tables:
                members = groups[scope(family, t)]
                assert [c["p_adjusted"] for c in members] == \
                    ADJUST[correction]([c["p_value"] for c in members])
                stated = next(f for f in t["families"]
                              if (f["kind"], f["method"]) == (kind, method))
                assert stated == {"kind": kind, "method": method, "family": family,
                                  "correction": correction, "size": len(members)}
    sizes = {"table": 2, "test_set": 4, "run": 8}[family]
    assert all(f["size"] == sizes for t in tables for f in t["families"]
               if f["kind"] == "comparisons")


def test_none_adjusts_nothing_and_still_states_the_families(tmp_path):
    record = run(config(tmp_path, "  correction: none\n")).record
    for t in record["significance"]["tables"]:
        assert all(c["p_adjusted"] is None for kind in ("comparisons", "pairs", "buckets")
                   for c in members_of(t, kind))
        assert {(f["kind"], f["correction"], f["size"]) for f in t["families"]} >= {
            ("comparisons", "none", 2), ("pairs", "none", 3)}


def test_the_table_family_is_the_default_and_verifies(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    outcome = run(config(tmp_path))
    assert outcome.record["significance"]["settings"]["family"] == "table"
    verdict = verify(str(outcome.path), data_roots=[REPO / "configs" / "sample"])
    assert verdict.ok, verdict.problems


def test_an_unknown_family_or_correction_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match=r"significance.family: .*\"tabel\" .did you mean 'table'"):
        run(config(tmp_path, "  family: tabel\n"))
    with pytest.raises(ConfigError, match=r"significance.correction.*\"bonferroni\""):
        run(config(tmp_path, "  correction: bonferoni\n"))


# ------------------------------------------------------------------------ p-value resolution


def test_ten_resamples_warn_once_before_resampling(tmp_path):
    log = io.StringIO()
    record = run(config(tmp_path, samples=10), progress=LogProgress(log)).record
    lines = log.getvalue().splitlines()
    warnings = [x for x in lines if x.startswith("evalfw: warning:")]
    assert len(warnings) == 1 and lines[0] == warnings[0]  # before the stages, once
    text = warnings[0]
    assert "significance is out of reach: with 10 paired bootstrap resamples the smallest " \
        "possible p-value is 1/11 = 0.09091" in text
    assert "19 resamples would reach alpha" not in text  # families of 2, not 1
    assert "39 resamples would reach alpha, 800 resamples (20 x family size / alpha) are " \
        "recommended (significance.samples: 800)" in text
    assert "all-pairs tests: with 10 paired bootstrap resamples" in text
    assert "approximate randomization" not in text  # 200 trials reach alpha in 2 or 3
    section = record["significance"]
    by = {(p["kind"], p["method"]): p for p in section["resolution"]}
    assert not by[("comparisons", "bootstrap")]["reachable"]
    assert by[("comparisons", "bootstrap")]["needed"] == 39
    assert by[("comparisons", "ar")]["reachable"] and by[("buckets", "bootstrap")]["size"] == 4
    assert section["resolution_warning"].startswith("significance is out of reach")
    assert "bucket tests: with 10 paired bootstrap resamples" in section["resolution_warning"]
    for out in (TableReporter().render(record), MarkdownReporter().render(record),
                html(record)):
        assert "Warning: significance is out of reach: with 10 paired bootstrap" in out
    assert r"1/11 = 0.09091" in LatexReporter().render(record)


def test_enough_resamples_warn_nothing(tmp_path):
    log = io.StringIO()
    record = run(config(tmp_path, samples=100), progress=LogProgress(log)).record
    assert "warning" not in log.getvalue()
    assert "resolution_warning" not in record["significance"]
    assert all(p["reachable"] for p in record["significance"]["resolution"])
    assert "Warning:" not in TableReporter().render(record)


def test_the_api_warns_through_python_warnings(tmp_path):
    with pytest.warns(ResolutionWarning, match="significance is out of reach: with 10 paired"):
        run(config(tmp_path, samples=10))


def test_the_command_line_warns_on_stderr(tmp_path, capsys):
    assert main(["run", config(tmp_path, samples=10), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("evalfw: warning: significance is out of reach") == 1
    assert json.loads(captured.out)["significance"]["resolution_warning"]
    assert main(["run", config(tmp_path, samples=10), "--quiet"]) == 0
    assert "out of reach" not in capsys.readouterr().err


def test_sacrebleu_mode_warns_on_stderr_only(tmp_path):
    log = io.StringIO()
    extra = "  mode: sacrebleu\n  metrics: [bleu]\n  all_pairs: false\n"
    text = CONFIG.replace("  all_pairs: true\n", "")
    cfg = write_config(tmp_path / "s.yaml", text.format(
        root=REPO / "configs" / "sample", out=tmp_path / "runs", samples=10, extra=extra))
    record = run(str(cfg), progress=LogProgress(log)).record
    assert "evalfw: warning: significance is out of reach: with 10 paired bootstrap " \
        "resamples the smallest possible p-value is 1/11 = 0.09091, above alpha 0.05: no " \
        "comparison can be significant; 19 resamples" in log.getvalue()
    assert "resolution_warning" not in record["significance"]
    assert not record["significance"]["resolution"][0]["reachable"]
    assert "Warning: significance is out of reach" not in TableReporter().render(record)


def test_sacrebleu_mode_says_what_its_paired_bootstrap_costs(tmp_path):
    """stderr (once), the record and every legend: sacreBLEU's paired bootstrap is
    anti-conservative and evalfw's default mode is calibrated."""
    from evalfw.analysis.sacrebleu_mode import SACREBLEU_BOOTSTRAP
    from evalfw.errors import AntiConservativeWarning

    log = io.StringIO()
    extra = "  mode: sacrebleu\n  metrics: [bleu]\n"
    text = CONFIG.replace("  all_pairs: true\n", "")
    cfg = write_config(tmp_path / "s.yaml", text.format(
        root=REPO / "configs" / "sample", out=tmp_path / "runs", samples=400, extra=extra))
    record = run(str(cfg), progress=LogProgress(log)).record
    assert log.getvalue().count(f"evalfw: warning: {SACREBLEU_BOOTSTRAP}") == 1
    assert record["significance"]["sacrebleu_warning"] == SACREBLEU_BOOTSTRAP
    validate_record(record)
    for out in (TableReporter().render(record), MarkdownReporter().render(record),
                html(record)):
        assert "anti-conservative" in out and "default mode is calibrated" in out
    assert "anti-conservative" in LatexReporter().render(record)
    with pytest.warns(AntiConservativeWarning, match="anti-conservative"):
        run(str(cfg))
    ar = write_config(tmp_path / "ar.yaml", text.format(
        root=REPO / "configs" / "sample", out=tmp_path / "runs", samples=400,
        extra=extra.replace("metrics", "method: ar\n  metrics").replace(
            "  method: both\n", "")).replace("  method: both\n", ""))
    log = io.StringIO()
    record = run(str(ar), progress=LogProgress(log)).record
    assert "anti-conservative" not in log.getvalue()
    assert "sacrebleu_warning" not in record["significance"]
