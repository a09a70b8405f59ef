"""The numpy-free sacreBLEU bootstrap (:mod:`evalfw.analysis.sacrebleu_lean`, its compiled
kernel and :mod:`evalfw.analysis._seedseq`) against numpy and sacreBLEU 2.6.0 themselves:
seed words, drawn indices, float32 sums, numpy's pairwise sum, and the intervals, means and
p-values of random BLEU statistics."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evalfw.analysis import sacrebleu_lean as lean
from evalfw.analysis._seedseq import pcg64_words

kernel = pytest.importorskip("evalfw.analysis._sacreboot",
                             reason="the compiled bootstrap kernel is not built")


def _numpy_words(seed: int) -> tuple[int, ...]:
    return tuple(int(w) for w in np.random.SeedSequence(seed).generate_state(4, np.uint64))


def test_seed_words_are_numpys_seed_sequence():
    rnd = random.Random(11)
    seeds = [0, 1, 7, 12345, 2 ** 32 - 1, 2 ** 32, 2 ** 64 + 5, 2 ** 128 - 1, 2 ** 200 + 77]
    seeds += [rnd.getrandbits(rnd.randint(1, 300)) for _ in range(300)]
    for seed in seeds:
        assert pcg64_words(seed) == _numpy_words(seed), seed


def test_unseeded_words_differ_and_negative_seeds_are_refused():
    assert pcg64_words(None) != pcg64_words(None)
    with pytest.raises(ValueError, match="non-negative"):
        pcg64_words(-1)


def test_indices_are_default_rng_choice():
    rnd = random.Random(12)
    for _ in range(200):
        seed = rnd.choice([0, 12345, rnd.getrandbits(64)])
        segments = rnd.choice([1, 2, 3, 7, 400, 2037, rnd.randint(1, 5000)])
        n = rnd.randint(0, 40)
        theirs = np.random.default_rng(seed).choice(segments, size=(n, segments), replace=True)
        ours = np.frombuffer(kernel.indices(segments, n, *pcg64_words(seed)), dtype=np.int64)
        assert np.array_equal(ours.reshape(n, segments), theirs), (seed, segments, n)


def _sacrebleu_sums(rows: np.ndarray, n: int, seed: int) -> np.ndarray:
    """sacreBLEU's ``stats_np[idxs]`` row sums (``_bootstrap_resample``)."""
    idx = np.random.default_rng(seed).choice(len(rows), size=(n, len(rows)), replace=True)
    return np.array([s.sum(0) for s in rows.astype(np.float32)[idx]], dtype=np.float32)


def test_float32_sums_are_sacrebleus_including_inexact_ones():
    """Totals beyond 2**24 round in float32; the order of the additions must be numpy's."""
    rnd = random.Random(13)
    for case in range(200):
        segments, width, n = rnd.randint(1, 200), rnd.randint(2, 30), rnd.randint(1, 30)
        high = rnd.choice([10, 1000, 2 ** 20, 2 ** 26, 2 ** 40])
        rows = np.random.default_rng(case).integers(0, high, size=(segments, width))
        seed = rnd.getrandbits(32)
        ours = np.frombuffer(lean.resampled_sums(rows.astype(np.int64).tobytes(), width, n,
                                                 pcg64_words(seed)), dtype=np.float32)
        assert np.array_equal(ours.reshape(n, width), _sacrebleu_sums(rows, n, seed)), case


def test_one_column_tables_are_refused():
    """numpy sums a single column pairwise, not row after row: the kernel does not claim it."""
    with pytest.raises(ValueError, match="width >= 2"):
        kernel.float32_sums(np.arange(5, dtype=np.int64).tobytes(), 1, 3, *pcg64_words(1))


def test_numpy_sum_and_mean_are_numpys():
    rnd = random.Random(14)
    for _ in range(1500):
        n = rnd.choice([rnd.randint(1, 20), rnd.randint(1, 300), rnd.randint(100, 3000), 1000])
        values = [rnd.uniform(-1, 1) * 10 ** rnd.randint(-6, 6) for _ in range(n)]
        assert lean.numpy_sum(values) == float(np.sum(np.array(values)))
        assert lean.numpy_mean(values) == float(np.mean(np.array(values)))
    assert lean.numpy_sum([]) == 0.0


def test_interval_is_sacrebleus_order_statistics():
    from sacrebleu.significance import estimate_ci

    rnd = random.Random(15)
    for _ in range(200):
        scores = [rnd.uniform(0, 60) for _ in range(rnd.randint(1, 500))]
        mean, ci = estimate_ci(np.array(scores))
        assert (lean.numpy_mean(sorted(scores)), lean.interval(scores)[2]) == (mean, ci)
