"""Test sets made of documents in config runs: `documents:` and `strata:` make every bootstrap
resample whole documents within strata, the record and every legend say so, the documents
file is an input that `verify` checks and re-runs with, label buckets group by one of its
columns, and `all_pairs` ranks the systems (clusters and rank intervals)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evalfw.analysis.significance import bootstrap_analysis
from evalfw.analysis.units import Units, widening
from evalfw.errors import ConfigError
from evalfw.records.document import validate_record
from evalfw.reports._html import render as html
from evalfw.reports.reporters import MarkdownReporter, TableReporter
from evalfw.runner._evaluate import build_metrics
from evalfw.runner.verify import verify
from tests.support.runs import REPO, run, write_config

SAMPLE = REPO / "configs" / "sample"

CONFIG = """\
schema_version: 1
experiment: docs
seed: 21
data_root: {root}
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
    documents: {docs}
{strata}metrics:
  - name: bleu
reports: [table]
significance:
  baseline: Medium
  method: both
  samples: 300
  ar_trials: 320
  all_pairs: true
  min_bucket_size: 5
  buckets: {{name: label, column: domain}}
{extra}"""


def documents(tmp_path: Path, size: int = 5) -> Path:
    """40 segments in documents of ``size``, alternately news and chat."""
    rows = ["line\tdoc_id\tdomain"] + [
        f"{i + 1}\tdoc{i // size}\t{'news' if (i // size) % 2 == 0 else 'chat'}"
        for i in range(40)]
    path = tmp_path / "docs.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def config(tmp_path: Path, extra: str = "", strata: bool = True) -> str:
    text = CONFIG.format(root=SAMPLE, out=tmp_path / "runs", docs=documents(tmp_path),
                         strata="    strata: domain\n" if strata else "", extra=extra)
    return str(write_config(tmp_path / "docs.yaml", text))


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("docs")
    return run(config(tmp)), tmp


def test_the_record_says_what_was_resampled(outcome):
    result, tmp = outcome
    record = result.record
    validate_record(record)
    (table,) = record["significance"]["tables"]
    assert table["resampling"] == {"bootstrap": "document", "ar": "segment", "documents": 8,
                                   "strata": {"column": "domain", "count": 2},
                                   "widening": widening(8)}
    assert {(c["method"], c["unit"]) for c in table["comparisons"]} == {
        ("bootstrap", "document"), ("ar", "segment")}
    (entry,) = [i for i in record["inputs"] if i["role"] == "documents"]
    assert entry["path"].endswith("docs.tsv") and entry["lines"] == 41
    assert record["test_sets"][0]["documents"] == entry["path"]
    assert record["test_sets"][0]["strata"] == "domain"


def test_the_numbers_are_the_document_bootstrap_of_the_api(outcome):
    result, tmp = outcome
    from evalfw.config import load_config

    cfg, host = load_config(tmp / "docs.yaml")
    metric = build_metrics(cfg, host, cfg.test_sets[0])["bleu"]
    stats = result.evaluation.statistics("en-de", "bleu")
    ordered = {"Medium": stats["Medium"], **stats}
    domains = ["news" if (i // 5) % 2 == 0 else "chat" for i in range(40)]
    units = Units.from_ids([f"doc{i // 5}" for i in range(40)], domains)
    want = bootstrap_analysis(ordered, "Medium", metric, 300, 21, units=units, pairs=True,
                              ranks=True)
    (table,) = result.record["significance"]["tables"]
    assert table["intervals"] == [i.to_json() for i in want.intervals]
    got = [c for c in table["comparisons"] if c["method"] == "bootstrap"]
    assert [c["p_value"] for c in got] == [c.p_value for c in want.comparisons]
    assert [(r["system"], r["rank_lower"], r["rank_upper"]) for r in
            table["ranking"]["systems"]] == sorted(
        [(r.system, r.lower, r.upper) for r in want.ranks], key=lambda x: (
            -next(i.score for i in want.intervals if i.system == x[0])))


def test_every_legend_states_the_unit(outcome):
    record = outcome[0].record
    for out in (TableReporter().render(record), MarkdownReporter().render(record),
                html(record)):
        assert "300 resamples of whole documents (8 in en-de, within 2 strata by domain, " \
            f"spread ×{widening(8):.2f} for their number)" in " ".join(out.split())
        assert "Approximate randomization swaps segments between the two systems (valid " \
            "under its null hypothesis whatever the documents)" in " ".join(out.split())


def test_label_buckets_by_domain(outcome):
    (table,) = outcome[0].record["significance"]["tables"]
    buckets = table["buckets"]
    assert buckets["column"] == "domain" and buckets["bucketer"]["name"] == "label"
    assert [(b["label"], b["segments"], b["documents"]) for b in buckets["results"]] == [
        ("chat", 20, 4), ("news", 20, 4)]
    assert all(c["unit"] == "document" for b in buckets["results"] for c in b["comparisons"])


def test_the_ranking_is_in_the_record_and_every_text_report(outcome):
    record = outcome[0].record
    (table,) = record["significance"]["tables"]
    ranking = table["ranking"]
    assert [r["system"] for r in ranking["systems"]] == ["Strong", "Medium", "Weak"]
    assert sum(len(c) for c in ranking["clusters"]) == 3 and "ranks" not in table
    text = TableReporter().render(record)
    assert "Ranking of en-de bleu" in text and "95% rank interval" in text
    assert "Ranking: WMT-style clusters" in text
    page = html(record)
    assert "figure class=\"ranking\"" in page and "rank interval" in page


def test_verify_proves_it_and_notices_changed_documents(outcome):
    result, tmp = outcome
    verdict = verify(str(result.path), data_roots=[SAMPLE, tmp])
    assert verdict.ok, verdict.problems
    docs = tmp / "docs.tsv"
    text = docs.read_text("utf-8")
    try:
        docs.write_text(text.replace("doc7", "doc5"), encoding="utf-8")  # both chat
        verdict = verify(str(result.path), data_roots=[SAMPLE, tmp])
        assert not verdict.ok
        assert any("documents" in p and "docs.tsv" in p for p in verdict.problems)
        assert any("resampling.documents: 8 -> 7" in p for p in verdict.problems), \
            verdict.problems
    finally:
        docs.write_text(text, encoding="utf-8")


def test_document_settings_fail_before_scoring(tmp_path):
    sacre = Path(config(tmp_path)).read_text("utf-8").replace("  all_pairs: true\n", "")
    sacre = sacre.replace("  buckets: {name: label, column: domain}\n", "  mode: sacrebleu\n")
    with pytest.raises(ConfigError, match="mode sacrebleu resamples segments.*names its "
                                          "documents"):
        run(str(write_config(tmp_path / "sacre.yaml", sacre)))
    text = CONFIG.format(root=SAMPLE, out=tmp_path / "runs", docs=documents(tmp_path),
                         strata="    strata: domain\n", extra="").replace(
        "    documents: ", "    other: ")
    text = text.replace(f"    other: {tmp_path / 'docs.tsv'}\n", "")
    with pytest.raises(ConfigError, match="strata are a column of the documents file"):
        run(str(write_config(tmp_path / "bad.yaml", text)))
    no_docs = text.replace("    strata: domain\n", "")
    with pytest.raises(ConfigError, match="bucketer 'label' reads its column from each test "
                                          "set's documents file"):
        run(str(write_config(tmp_path / "bad2.yaml", no_docs)))


def test_per_document_swaps_when_asked(tmp_path):
    record = run(config(tmp_path, "  ar_unit: document\n", strata=False)).record
    (table,) = record["significance"]["tables"]
    assert table["resampling"]["ar"] == "document" and table["resampling"]["strata"] is None
    assert {c["unit"] for c in table["comparisons"] if c["method"] == "ar"} == {"document"}
    assert "Approximate randomization swaps whole documents (8 in en-de) between" in \
        " ".join(TableReporter().render(record).split())
    assert np.isfinite([c["p_value"] for c in table["comparisons"]]).all()
