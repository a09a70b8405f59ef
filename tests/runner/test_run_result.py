"""`evalfw.run()` returns the record as before (dict access, JSON) plus to_pandas(), a
notebook HTML table, sentence scores and the significance tables."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest

import evalfw
from evalfw.errors import ConfigError
from evalfw.runner.result import COLUMNS, RunResult
from tests.support.runs import workdir  # noqa: F401  (fixture)


@pytest.fixture
def result(workdir) -> RunResult:
    return evalfw.run("configs/wmt-significance.yaml")


def test_dict_access_as_before(result):
    assert isinstance(result, dict)
    stored = json.loads((result.path / "record.json").read_text())
    assert json.loads(json.dumps(result)) == stored
    assert result["experiment"] == "wmt-significance" and result["results"]


def test_to_pandas_one_row_per_result_with_intervals_and_p_values(result):
    frame = result.to_pandas()
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == len(result["results"])
    table = result.significance[0]
    for row in frame.itertuples():
        rec = next(r for r in result["results"] if (r["test_set"], r["system"], r["metric"])
                   == (row.test_set, row.system, row.metric))
        assert row.score == rec["score"] and row.signature.startswith("nrefs:2|")
        interval = next(i for i in table["intervals"] if i["system"] == row.system)
        assert (row.lower, row.upper, row.ci) == (interval["lower"], interval["upper"],
                                                  interval["ci"])
        if row.system == table["baseline"]:
            assert math.isnan(row.p_value)
        else:
            comp = next(c for c in table["comparisons"] if c["system"] == row.system)
            assert (row.p_value, row.p_adjusted, row.delta) == (
                comp["p_value"], comp["p_adjusted"], comp["delta"])


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
    assert "Holm-adjusted across the run" in html


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
