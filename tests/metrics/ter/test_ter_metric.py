"""The ``ter`` metric behind evalfw's Metric contract: registration, names, direction,
signatures, result text, vectorized scores equal to the scalar formula, sacreBLEU's float32
resample score, statistics checks, reference preparation and errors."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import TER as SacreTER

from evalfw.errors import ConfigError, InputError
from evalfw.metrics.ter import core
from evalfw.metrics.ter.metric import Ter
from tests.support.pythons import needs_nep50

pytestmark = pytest.mark.parity

HYPS = ["The cat sat on the mat.", "Ein Hund!", "", "猫が座った。", "x", "a b"]
REFS = [["The cat is on the mat.", "Ein Hund bellt.", "a", "猫は座った。", None, ""],
        ["A cat sat on a mat!", None, "", "猫が座りました。", "x", "b a c"],
        ["on the mat the cat sat", None, "b", None, None, None]]


def test_registered_as_builtin(host):
    metric = host.component("metric", "ter", {"normalized": True})
    assert isinstance(metric, Ter) and metric.display_name == "TER"
    assert metric.options == {"normalized": True, "no_punct": False, "asian_support": False,
                              "case_sensitive": False}
    assert Ter.higher_is_better is False and Ter.score_scale == 100


def test_options_are_checked():
    with pytest.raises(ConfigError):
        Ter(normalised=True)
    with pytest.raises(ConfigError):
        Ter(no_punct="yes")


@pytest.mark.parametrize("options", [{}, {"normalized": True, "asian_support": True},
                                     {"no_punct": True, "case_sensitive": True}])
def test_signatures_and_result_text(options):
    metric = Ter(**options)
    stats = metric.segment_statistics(HYPS, REFS)
    sacre = SacreTER(**options)
    theirs = sacre.corpus_score(HYPS, REFS)
    result = metric.result(stats, "var")
    assert (repr(result.score), str(result)) == (repr(theirs.score), str(theirs))
    assert (result.num_edits, repr(result.ref_length)) == \
        (theirs.num_edits, repr(theirs.ref_length))
    assert metric.foreign_signature("var") == str(sacre.get_signature())
    assert result.to_json()["num_edits"] == theirs.num_edits
    sentences = metric.sentence_results(stats, "var")
    expected = [sacre.sentence_score(h, [r[i] for r in REFS if r[i] is not None])
                for i, h in enumerate(HYPS)]
    assert [(repr(s.score), str(s)) for s in sentences] == \
        [(repr(s.score), str(s)) for s in expected]


def test_signature_strings():
    assert Ter().foreign_signature(1) == \
        "nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
    assert Ter(no_punct=True, case_sensitive=True).signature(2).startswith(
        "TER|case:mixed|tok:tercom|norm:no|punct:no|asian:no|nrefs:2|ter:1|evalfw:")


def test_vectorized_scores_equal_scalar_formula():
    metric = Ter()
    stats = metric.segment_statistics(HYPS, REFS)
    scalar = [metric.score(stats[i:i + 1]) for i in range(len(stats))]
    assert metric.sentence_scores(stats).tolist() == scalar
    sums = np.stack([stats.sum(axis=0), stats[:2].sum(axis=0), stats[3:].sum(axis=0),
                     np.zeros(2), np.array([3.0, 0.0])])
    assert metric.score_rows(sums).tolist() == [metric.score(stats), metric.score(stats[:2]),
                                                 metric.score(stats[3:]), 0.0, 100.0]


def test_corpus_sums_in_segment_order():
    # averages of three references are not binary fractions: another summation order than
    # sacreBLEU's left-to-right one changes the last bit of some scores
    rng = np.random.default_rng(3)
    stats = np.column_stack([rng.integers(0, 30, 500), rng.integers(1, 90, 500) / 3])
    edits, length = core.totals(stats)
    total = 0
    for value in stats[:, 1].tolist():
        total += value
    assert (edits, length) == (int(stats[:, 0].sum()), total)
    assert Ter().score(stats) == 100 * (edits / total)


@needs_nep50
def test_float32_score_is_sacrebleus():
    metric = Ter()
    stats = metric.segment_statistics(HYPS, REFS)
    row32 = stats.astype(np.float32).sum(axis=0)
    theirs = SacreTER()._compute_score_from_stats(row32).score
    assert isinstance(theirs, np.float32)
    assert metric.sacrebleu_float32_score(row32) == float(theirs)
    assert metric.sacrebleu_resampling
    for row, value in [([0, 0], 0.0), ([2, 0], 100.0)]:
        row32 = np.array(row, dtype=np.float32)
        assert metric.sacrebleu_float32_score(row32) == value == \
            SacreTER()._compute_score_from_stats(row32).score


def test_check_statistics():
    metric = Ter()
    stats = metric.segment_statistics(HYPS, REFS)
    assert stats.dtype == np.float64 and stats.shape == (len(HYPS), 2)
    assert metric.check_statistics(stats) is None
    assert "columns" in metric.check_statistics(stats[:, :1])
    bad = stats.copy()
    bad[0, 0] = 0.5
    assert "whole" in metric.check_statistics(bad)
    bad[0, 0] = -1
    assert "negative" in metric.check_statistics(bad)
    bad[0, 0] = np.nan
    assert "NaN" in metric.check_statistics(bad)


def test_references_prepared_once_and_errors():
    metric = Ter()
    prepared = metric.prepare_references(REFS)
    assert (metric.segment_statistics(HYPS, prepared) ==
            metric.segment_statistics(HYPS, REFS)).all()
    assert prepared.counts.tolist() == [3, 1, 3, 2, 1, 2]
    assert metric.references_key() == Ter().references_key()
    assert metric.statistics_key() != Ter(normalized=True).statistics_key()
    with pytest.raises(InputError, match="no reference"):
        metric.prepare_references([["a", None], ["b", None]])
    with pytest.raises(InputError, match="hypotheses"):
        metric.segment_statistics(HYPS[:2], prepared)
    with pytest.raises(InputError, match="different numbers"):
        metric.prepare_references([["a", "b"], ["c"]])
    with pytest.raises(InputError, match="other options"):
        Ter(normalized=True).segment_statistics(HYPS, prepared)


def test_python_fallback_switch(monkeypatch):
    assert "compiled" in Ter.implementation()
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert core.kernel() is None and "Python" in Ter.implementation()
