"""Sentence-level score export (CSV and JSON Lines) round-trips the engine's exact scores."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from evalfw.analysis import export  # noqa: E402
from evalfw.errors import ConfigError  # noqa: E402
from evalfw.metrics.bleu import engine  # noqa: E402
from tests.support import significance as sup

pytestmark = pytest.mark.wmt22


@pytest.mark.parametrize("options", [{"effective_order": True}, {"smoothing": "floor"},
                                     {"preset": "nltk", "smoothing": "method4"}])
def test_rows_csv_jsonl_round_trip(tmp_path, options):
    metric = sup.metric(**options)
    spec = metric.spec
    stats = sup.random_stats(np.random.default_rng(1), 25, order=5, refs=2)
    expected = engine.sentence_scores(spec, stats)
    rows = list(export.sentence_rows(metric, metric.rows(stats), test_set="wmt22:en-de",
                                     system="sysA"))
    assert [r["segment"] for r in rows] == list(range(1, 26))
    assert [r["score"] for r in rows] == [s.score for s in expected]
    assert [r["ref_len"] for r in rows] == engine.chosen_ref_len(spec, stats).tolist()

    path = export.export(rows, tmp_path / "scores.csv")
    with path.open(encoding="utf-8") as handle:
        back = list(csv.DictReader(handle))
    assert tuple(back[0]) == export.FIELDS
    assert [float(r["score"]) for r in back] == [float(s.score) for s in expected]
    assert back[3]["system"] == "sysA" and back[3]["metric"] == "BLEU"

    path = export.export(rows, tmp_path / "scores.jsonl")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines == rows
    assert export.to_text(rows, "jsonl") == path.read_text(encoding="utf-8")


def test_unknown_format():
    with pytest.raises(ConfigError, match=r"\.csv or \.jsonl"):
        export.export([], "scores.tsv")
    buf = io.StringIO()
    export.write_csv([], buf)
    assert buf.getvalue() == ",".join(export.FIELDS) + "\n"
