"""`evalfw.run()` returns the record as before (dict access, JSON) plus to_pandas(), a
notebook HTML table, sentence scores and the significance tables; `evalfw.load_run()` gives
the same for a stored version without recomputing."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest

import evalfw
from evalfw.errors import ConfigError
from evalfw.runner.result import COLUMNS, RunResult
from tests.support.expected_warnings import nltk_zero_order
from tests.support.runs import workdir  # noqa: F401  (fixture)


@pytest.fixture
def result(workdir) -> RunResult:
    return evalfw.run("configs/wmt-significance.yaml",
                      overrides=["significance.method=both", "significance.min_bucket_size=5"])


def test_dict_access_as_before(result):
    assert isinstance(result, dict)
    stored = json.loads((result.path / "record.json").read_text())
    assert json.loads(json.dumps(result)) == stored
    assert result["experiment"] == "wmt-significance" and result["results"]


def _same(value, expected) -> bool:
    return (value is None or isinstance(value, float) and math.isnan(value)) \
        if expected is None else value == expected


def test_to_pandas_one_row_per_result_and_test_method_with_intervals_and_p_values(result):
    frame = result.to_pandas()
    assert list(frame.columns) == list(COLUMNS)
    whole = frame[frame["bucket"].isna()]
    assert len(whole) == 2 * len(result["results"])  # bootstrap and AR for every result
    keys = list(zip(whole.test_set, whole.metric, whole.system, whole.method))
    assert len(set(keys)) == len(keys)
    assert {m for *_, m in keys} == {"bootstrap", "ar"}
    table = result.significance[0]
    families = {(f["kind"], f["method"]): f["size"] for f in table["families"]}
    for row in whole.itertuples():
        rec = next(r for r in result["results"] if (r["test_set"], r["system"], r["metric"])
                   == (row.test_set, row.system, row.metric))
        assert row.score == rec["score"] and row.signature.startswith("nrefs:2|")
        assert row.segments == 40 and row.baseline == "Medium"
        assert row.trials == (1000 if row.method == "bootstrap" else 10000)
        assert (row.correction, row.family) == ("holm", "table")
        assert row.family_size == families[("comparisons", row.method)] == 2
        interval = next(i for i in table["intervals"] if i["system"] == row.system)
        assert (row.lower, row.upper, row.ci) == (interval["lower"], interval["upper"],
                                                  interval["ci"])
        if row.system == table["baseline"]:
            assert math.isnan(row.p_value) and row.significant is None
            continue
        comp = next(c for c in table["comparisons"] if c["system"] == row.system
                    and c["method"] == row.method)
        for key in ("p_value", "p_adjusted", "delta", "delta_lower", "delta_upper"):
            assert _same(getattr(row, key), comp[key]), key
        assert row.significant == (comp["p_adjusted"] <= 0.05)


def test_to_pandas_has_a_row_per_bucket_and_system(result):
    frame = result.to_pandas()
    buckets = frame[frame["bucket"].notna()]
    table = result.significance[0]
    results = table["buckets"]["results"]
    assert len(buckets) == sum(len(b["intervals"]) for b in results) > 0
    for b in results:
        rows = buckets[buckets["bucket"] == b["label"]]
        assert list(rows.system) == [i["system"] for i in b["intervals"]]
        for row, interval in zip(rows.itertuples(), b["intervals"]):
            assert (row.score, row.ci, row.segments) == (interval["score"], interval["ci"],
                                                         b["segments"])
            assert row.method == "bootstrap"  # bucket tests use the primary test
            comp = next((c for c in b["comparisons"] if c["system"] == row.system), None)
            assert _same(row.p_adjusted, comp and comp["p_adjusted"])
            assert row.family_size == sum(len(x["comparisons"]) for x in results)


def test_buckets_too_small_to_test_have_scores_only(workdir):
    result = evalfw.run("configs/wmt-significance.yaml")  # 40 segments, 30 a tested bucket
    buckets = result.to_pandas()
    buckets = buckets[buckets["bucket"].notna()]
    results = result.significance[0]["buckets"]["results"]
    filled = [b for b in results if b["segments"]]
    assert filled and all(b["untested"] == "too few segments" and not b["intervals"]
                          and not b["comparisons"] for b in filled)
    assert len(buckets) == sum(len(b["scores"]) for b in filled)
    assert buckets["p_value"].isna().all() and buckets["ci"].isna().all()
    for row in buckets.itertuples():
        b = next(x for x in filled if x["label"] == row.bucket)
        assert row.score == b["scores"][row.system]


def test_load_run_gives_the_same_result_without_recomputing(result, monkeypatch):
    import importlib

    frame = result.to_pandas()

    def refuse(*args, **kwargs):
        raise AssertionError("load_run must not score or resample anything")

    for module, name in (("evalfw.runner.run", "run_experiment"),
                         ("evalfw.runner._evaluate", "evaluate"),
                         ("evalfw.analysis.significance", "paired_analysis")):
        monkeypatch.setattr(importlib.import_module(module), name, refuse)
    for name in (result.path, str(result.path / "record.json"),
                 f"wmt-significance/{result['version']}"):
        loaded = evalfw.load_run(name, "runs")
        assert type(loaded) is RunResult and loaded.path.resolve() == result.path.resolve()
        assert dict(loaded) == json.loads(json.dumps(result))
        assert loaded.to_pandas().equals(frame)
    loaded = evalfw.load_run("wmt-significance", "runs")  # the latest version
    assert loaded["version"] == result["version"]
    assert loaded._repr_html_() == result._repr_html_()
    assert loaded.significance == result.significance
    ours, stored = result.sentence_scores("en-de", "sacrebleu"), \
        loaded.sentence_scores("en-de", "sacrebleu")  # corpus level only: rebuilt metric
    assert sorted(ours) == sorted(stored)
    assert all(np.array_equal(ours[k], stored[k]) for k in ours)


@nltk_zero_order  # the nltk metric's sentence scores
def test_load_run_sentence_scores_of_a_sentence_level_metric(workdir):
    result = evalfw.run("configs/wmt.yaml")
    loaded = evalfw.load_run("wmt", "runs")
    assert loaded.to_pandas().equals(result.to_pandas())
    for metric in ("sacrebleu-eff", "nltk"):  # stored sentence scores / rebuilt metric
        ours, stored = result.sentence_scores("en-de", metric), \
            loaded.sentence_scores("en-de", metric)
        assert sorted(ours) == sorted(stored) and all(
            np.array_equal(ours[k], stored[k]) for k in ours)
    with pytest.raises(ConfigError, match="en-de/sacrebleu"):
        loaded.sentence_scores("en-de", "sacrebleu2")


def test_load_run_of_an_unknown_run_is_a_record_error(workdir):
    from evalfw.errors import RecordError

    with pytest.raises(RecordError, match="no run 'nothing'"):
        evalfw.load_run("nothing", "runs")


def test_missing_pandas_is_a_one_line_error_naming_the_extra(result, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError) as err:
        result.to_pandas()
    assert str(err.value) == "RunResult.to_pandas() needs pandas: pip install 'evalfw[pandas]'"


def test_notebook_html_shows_the_results_table(result):
    from html.parser import HTMLParser

    class Rows(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows: list[list[str]] = []

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th") and self.rows:
                self.rows[-1].append("")

        def handle_data(self, data):
            if self.rows and self.rows[-1]:
                self.rows[-1][-1] += data

    html = result._repr_html_()
    parsed = Rows()
    parsed.feed(html)
    rows = {r[0]: [" ".join(c.split()) for c in r[1:]] for r in parsed.rows[2:]}
    for r in (r for r in result["results"] if r["level"] == "corpus"):
        assert any(c.startswith(f"{r['score']:.2f} ±") for c in rows[r["system"]])
    assert "Holm-adjusted within each table" in html and "2 comparisons" in html


def test_sentence_scores_and_significance_tables(result):
    scores = result.sentence_scores("en-de", "sacrebleu")
    assert sorted(scores) == ["Medium", "Strong", "Weak"]
    assert all(isinstance(v, np.ndarray) and len(v) == 40 for v in scores.values())
    assert result.significance[0]["baseline"] == "Medium"
    with pytest.raises(ConfigError, match="en-de/sacrebleu"):
        result.sentence_scores("en-de", "sacrebleu2")


def test_plain_record_without_significance(workdir):
    result = evalfw.run("configs/wmt.yaml")
    assert result.significance == []
    frame = result.to_pandas()
    assert frame["p_value"].isna().all() and len(frame) == len(result["results"])
    assert frame["method"].isna().all() and frame["bucket"].isna().all()
