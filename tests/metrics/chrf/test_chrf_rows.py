"""chrF's statistics without numpy (``Chrf.segment_rows``: Python ints, each segment's best
reference chosen by the scalar F-score) equal the numpy rows (``segment_statistics``, the
vectorized choice), ties and missing references included, with and without the kernel."""

from __future__ import annotations

import random

import pytest

from evalfw.metrics.chrf.metric import Chrf

WORDS = ["ab", "b", "ba", "c", "abc", "a", "cab", ".", "a,", "(b)"]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6)))


@pytest.mark.parametrize("native", ["1", "0"])
@pytest.mark.parametrize("seed", range(12))
def test_rows_without_numpy_equal_the_numpy_rows(seed, native, monkeypatch):
    monkeypatch.setenv("EVALFW_NATIVE", native)
    rng = random.Random(seed)
    n, k = 60, rng.randint(1, 4)
    hyps = [_text(rng) for _ in range(n)]
    refs = [[_text(rng) if j == 0 or rng.random() > 0.3 else None for _ in range(n)]
            for j in range(k)]
    for options in ({}, {"word_order": 2}, {"eps_smoothing": True, "beta": 1},
                    {"lowercase": True, "whitespace": True, "char_order": 3}):
        metric = Chrf(**options)
        prepared = metric.prepare_references(refs)
        assert metric.segment_rows(hyps, prepared) == \
            metric.segment_statistics(hyps, prepared).tolist()
