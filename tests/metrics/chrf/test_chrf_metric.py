"""The ``chrf`` metric behind evalfw's Metric contract: registration, names, signatures, result
text, statistics checks, and vectorized scores equal to the scalar formula."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as SacreCHRF

from evalfw.errors import ConfigError, InputError
from evalfw.metrics.chrf import core
from evalfw.metrics.chrf.metric import Chrf
from tests.support.pythons import needs_nep50

pytestmark = pytest.mark.parity

HYPS = ["The cat sat on the mat.", "Ein Hund!", "", "猫が座った。", "x"]
REFS = [["The cat is on the mat.", "Ein Hund bellt.", "a", "猫は座った。", None],
        ["A cat sat on a mat!", None, "", "猫が座りました。", "x"]]


def test_registered_as_builtin(host):
    metric = host.component("metric", "chrf", {"word_order": 2})
    assert isinstance(metric, Chrf) and metric.display_name == "chrF2++"
    assert Chrf().display_name == "chrF2" and Chrf(beta=1, word_order=1).display_name == "chrF1+"


def test_signatures_and_result_text():
    metric = Chrf(word_order=2, lowercase=True)
    stats = metric.segment_statistics(HYPS, REFS)
    sacre = SacreCHRF(word_order=2, lowercase=True)
    theirs = sacre.corpus_score(HYPS, REFS)
    result = metric.result(stats, "var")
    assert (repr(result.score), str(result)) == (repr(theirs.score), str(theirs))
    assert metric.foreign_signature("var") == str(sacre.get_signature())
    assert metric.signature(2).startswith("chrF2++|nc:6|nw:2|beta:2|case:lc|")
    assert result.to_json()["word_order"] == 2
    sentences = metric.sentence_results(stats, "var")
    assert [str(s) for s in sentences] == \
        [str(sacre.sentence_score(h, [r[i] for r in REFS if r[i] is not None]))
         for i, h in enumerate(HYPS)]


@pytest.mark.parametrize("eps", [False, True])
def test_vectorized_scores_equal_scalar_formula(eps):
    metric = Chrf(word_order=2, eps_smoothing=eps)
    stats = metric.segment_statistics(HYPS, REFS)
    scalar = [metric.score(stats[i:i + 1]) for i in range(len(stats))]
    assert metric.sentence_scores(stats).tolist() == scalar
    sums = np.stack([stats.sum(axis=0), stats[:2].sum(axis=0), stats[3:].sum(axis=0)])
    assert metric.score_rows(sums).tolist() == [metric.score(stats), metric.score(stats[:2]),
                                                 metric.score(stats[3:])]


@pytest.mark.parametrize("native", ["1", "0"])
def test_row_scores_equal_the_scalar_formula_on_random_rows(native, monkeypatch):
    """``core.f_scores`` (the kernel's F-score, or the scalar formula row by row) equals
    ``core.f_score`` bit for bit: zero counts on either side, matches up to the smaller
    count, integer and fractional betas, both smoothing modes, shapes with a reference axis."""
    monkeypatch.setenv("EVALFW_NATIVE", native)
    rng = np.random.default_rng(29)
    for _ in range(60):
        config = core.ChrfConfig(int(rng.integers(0, 4)), int(rng.integers(1, 3)),
                                 rng.choice([2, 1, 3, 0, 0.5, 1.7, 0.1]).item(),
                                 eps_smoothing=bool(rng.integers(2)))
        hyp = rng.integers(0, 40, size=(7, 3, config.orders)) * rng.integers(0, 2, (7, 3, 1))
        ref = rng.integers(0, 40, size=hyp.shape)
        match = rng.integers(0, np.minimum(hyp, ref) + 1)
        stats = np.stack([hyp, ref, match], axis=-1).reshape(7, 3, config.width)
        got = core.f_scores(stats, config)
        assert got.shape == (7, 3)
        want = [[core.f_score(row, config) for row in seg] for seg in stats.tolist()]
        assert [[repr(x) for x in seg] for seg in got.tolist()] == \
            [[repr(float(x)) for x in seg] for seg in want], config


@needs_nep50
def test_float32_score_is_sacrebleus():
    metric = Chrf()
    stats = metric.segment_statistics(HYPS, REFS)
    row32 = stats.astype(np.float32).sum(axis=0)
    theirs = SacreCHRF()._compute_score_from_stats(row32).score
    assert isinstance(theirs, np.float32)
    assert metric.sacrebleu_float32_score(row32) == float(theirs)
    assert metric.sacrebleu_resampling


def test_check_statistics():
    metric = Chrf(word_order=2)
    stats = metric.segment_statistics(HYPS, REFS)
    assert metric.check_statistics(stats) is None
    assert "columns" in metric.check_statistics(stats[:, :-3])
    assert "integer" in metric.check_statistics(stats.astype(np.float64))
    bad = stats.copy()
    bad[0, 2] = bad[0, 0] + 1
    assert "more matches" in metric.check_statistics(bad)
    bad[0, 2] = -1
    assert "negative" in metric.check_statistics(bad)
    lengths = metric.lengths(stats)
    assert lengths.reference.tolist() == stats[:, 1].tolist()


def test_references_prepared_once_and_errors():
    metric = Chrf()
    prepared = metric.prepare_references(REFS)
    assert (metric.segment_statistics(HYPS, prepared) ==
            metric.segment_statistics(HYPS, REFS)).all()
    assert metric.references_key() == Chrf(beta=3, word_order=2).references_key()
    assert metric.statistics_key() != Chrf(beta=3).statistics_key()
    with pytest.raises(InputError, match="no reference"):
        metric.prepare_references([["a", None], ["b", None]])
    with pytest.raises(InputError, match="hypotheses"):
        metric.segment_statistics(HYPS[:2], prepared)
    with pytest.raises(ConfigError):
        Chrf(char_order=0, word_order=0)


def test_python_fallback_switch(monkeypatch):
    monkeypatch.setenv("EVALFW_NATIVE", "0")
    assert core.kernel() is None and "Python" in Chrf.implementation()
