"""sacreBLEU's bootstrap confidence and paired bootstrap without numpy, for the drop-in
command line (``evalfw-sacrebleu -ci`` and ``--paired-bs``), where importing numpy costs more
than the resampling itself.

The numbers are :mod:`evalfw.analysis.sacrebleu_mode`'s (and so sacreBLEU 2.6.0's) for the
same seed: the compiled kernel :mod:`evalfw.analysis._sacreboot` draws the same PCG64 indices
and sums the same float32 rows; the metric turns each resample's sums into a score (for BLEU,
the kernel's float32 precisions and Python's logarithms, as sacreBLEU); and this module
computes the intervals, means and p-values as numpy computes them on float64 arrays
(:func:`numpy_sum` is numpy's pairwise summation). ``tests/analysis/test_sacrebleu_lean.py``
compares every result with the numpy path on random statistics and seeds.

Each resample's statistics come as one int64 buffer per system, ``[segments][width]``; a
metric's ``scores_of(rows, words)`` returns the resampled scores (Python floats) of its rows
drawn with the PCG64 seed words ``words`` (:func:`seed_words`).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

from evalfw.analysis._seedseq import pcg64_words

__all__ = ["available", "confidence", "interval", "numpy_mean", "numpy_sum", "paired_bootstrap",
           "PairedCell", "resampled_sums", "seed_words"]

#: (rows, seed words) -> the resampled scores, in sample order
ScoresOf = Callable[[bytes, tuple[int, int, int, int]], list[float]]

_BLOCK = 128  # numpy's PW_BLOCKSIZE


def available() -> bool:
    """Whether the compiled kernel is built (else the numpy path computes the same)."""
    from evalfw import kernels

    return kernels.load("evalfw.analysis._sacreboot") is not None


def seed_words(seed: int | None) -> tuple[int, int, int, int]:
    """PCG64's seed words of ``numpy.random.default_rng(seed)`` (None: fresh OS entropy)."""
    return pcg64_words(seed)


def resampled_sums(rows: bytes, width: int, n: int, words: tuple[int, int, int, int]) -> bytes:
    """float32 ``[n][width]`` sums of ``n`` resamples of the int64 rows, as sacreBLEU sums
    ``stats_np[idxs]`` (``width`` >= 2)."""
    from evalfw.analysis import _sacreboot

    return _sacreboot.float32_sums(rows, width, n, *words)  # type: ignore[no-any-return]


def numpy_sum(values: Sequence[float], start: int = 0, count: int | None = None) -> float:
    """``numpy.sum`` of a contiguous float64 array: pairwise, eight running sums per block of
    at most 128 values, halves split at a multiple of eight."""
    n = len(values) - start if count is None else count
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += values[i]
        return total
    if n <= _BLOCK:
        r = list(values[start:start + 8])
        i = 8
        end = n - n % 8
        while i < end:
            base = start + i
            r = [r[j] + values[base + j] for j in range(8)]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for k in range(start + i, start + n):
            total += values[k]
        return total
    half = n // 2
    half -= half % 8
    return numpy_sum(values, start, half) + numpy_sum(values, start + half, n - half)


def numpy_mean(values: Sequence[float]) -> float:
    """``numpy.mean`` of a float64 array."""
    return numpy_sum(values) / len(values)


def interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """(lower, upper, half-width) from sacreBLEU's order statistics n//40 and n-n//40-1."""
    ordered = sorted(scores)
    lo = len(ordered) // 40
    lower, upper = ordered[lo], ordered[len(ordered) - lo - 1]
    return lower, upper, 0.5 * (upper - lower)


def confidence(scores: Sequence[float]) -> tuple[float, float]:
    """``Score.estimate_ci`` of one system: (mean, half-width); the mean is
    ``statistics.mean`` of the scores, as sacreBLEU's."""
    return statistics.mean(scores), interval(scores)[2]


class PairedCell:
    """One row of the paired bootstrap: the score, and its resampled mean and half-width;
    ``p_value`` against the baseline (None for the baseline itself)."""

    __slots__ = ("score", "mean", "ci", "p_value")

    def __init__(self, score: float, mean: float, ci: float, p_value: float | None) -> None:
        self.score, self.mean, self.ci, self.p_value = score, mean, ci, p_value


def _paired_mean(scores: Sequence[float]) -> float:
    """``estimate_ci``'s mean in paired tests: numpy's mean of the sorted scores."""
    return numpy_mean(sorted(scores))


def paired_bootstrap(scores_of: ScoresOf, baseline: tuple[bytes, float],
                     systems: Sequence[tuple[bytes, float]], n: int, seed: int | None,
                     paired_seed: int | None) -> list[PairedCell]:
    """sacreBLEU's ``--paired-bs`` of ``(rows, score)`` pairs: the baseline's cell (drawn with
    ``seed``), then one cell per system (each drawn with ``paired_seed`` together with the
    baseline; None: fresh indices for every system)."""
    bl_rows, bl_score = baseline
    bl_words = seed_words(seed)
    bl_scores = scores_of(bl_rows, bl_words)
    cells = [PairedCell(bl_score, _paired_mean(bl_scores), interval(bl_scores)[2], None)]
    shared = paired_seed is not None and paired_seed == seed
    for rows, score in systems:
        words = bl_words if shared else seed_words(paired_seed)
        base = bl_scores if shared else scores_of(bl_rows, words)
        sys_scores = scores_of(rows, words)
        diffs = [abs(s - b) for s, b in zip(sys_scores, base)]
        middle = numpy_mean(diffs)
        observed = abs(bl_score - score)
        above = sum(1 for d in diffs if d - middle > observed)
        cells.append(PairedCell(score, _paired_mean(sys_scores), interval(sys_scores)[2],
                                (above + 1) / (n + 1)))
    return cells
