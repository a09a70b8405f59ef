"""Under numpy 1.x, sacreBLEU's float32 bootstrap arithmetic promotes to float64 at the first
Python float (value-based casting) where numpy 2 stays in float32 (NEP 50); evalfw's sacreBLEU
mode reproduces numpy 2's. The difference is in the float32 rounding of resampled scores only:
corpus scores and statistics are identical under both numpys (the rest of the suite checks
them), and the resampled scores agree to float32 precision."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER

from evalfw.metrics.chrf.metric import Chrf
from evalfw.metrics.ter.metric import Ter
from tests.support.pythons import NEP50

pytestmark = [pytest.mark.parity,
              pytest.mark.skipif(NEP50, reason="numpy 2: the float32 scores are sacreBLEU's "
                                               "bit for bit (test_float32_score_is_sacrebleus)")]

HYPS = ["The cat sat on the mat.", "Ein Hund!", "猫が座った。", "a b c d e f"]
REFS = [["The cat is on the mat.", "Ein Hund bellt.", "猫は座った。", "a b d c e g"]]


@pytest.mark.parametrize("ours, theirs", [(Chrf, SacreCHRF), (Ter, SacreTER)],
                         ids=["chrf", "ter"])
def test_float32_scores_agree_to_float32_precision(ours, theirs) -> None:
    metric = ours()
    row32 = metric.segment_statistics(HYPS, REFS).astype(np.float32).sum(axis=0)
    expected = float(theirs()._compute_score_from_stats(row32).score)
    got = metric.sacrebleu_float32_score(row32)
    assert math.isclose(got, expected, rel_tol=1e-6), (got, expected)
    # the corpus score itself is the same under every numpy
    stats = metric.segment_statistics(HYPS, REFS)
    assert metric.score(stats) == theirs().corpus_score(HYPS, REFS).score
