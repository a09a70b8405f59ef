"""``default`` mode: evalfw's own bootstrap intervals and paired tests.

Differences from sacreBLEU's method (``sacrebleu`` mode), each deliberate:

- statistics are summed exactly (integers, float64 BLAS) and scored with the metric's own
  arithmetic, so a resample of the full corpus scores exactly like the corpus (for integer
  statistics; floating-point ones are summed in float64);
- memory is bounded: resamples are processed in blocks (:mod:`evalfw.analysis.resampling`)
  and only one score per resample and system is kept;
- intervals are percentile intervals at a chosen level (default 0.95);
- the paired bootstrap is two-sided and centred on the observed difference:
  p = (1 + #{|d_b - d| >= |d|}) / (n + 1), d_b the resampled and d the observed difference
  (a system compared with itself gets p = 1, not the smallest p as with a strict ">");
- approximate randomization counts |A - B| >= |d| for the same reason;
- one stream per analysis: every system sees the same resamples and masks, seeded by a
  ``numpy.random.Generator`` (PCG64);
- a paired bootstrap whose resampled differences do not vary (one segment, or one document,
  in a bucket) has no information: p = 1 and ``zero_variance`` set, never a mark;
- each paired bootstrap keeps the standard deviation of its resampled differences (``se``),
  from which the smallest difference it could detect follows
  (:func:`evalfw.analysis.power.detectable`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from evalfw.analysis import _blocks
from evalfw.analysis import resampling as rs
from evalfw.analysis.results import ComparisonResult, ConfidenceResult

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric

Progress = Callable[[int, int], None]
Named = Sequence[tuple[str, rs.Columns]]


def _tick(progress: Progress | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


def corpus_scores(metric: Metric, named: Named) -> list[float]:
    """Each system's corpus score (the metric's own, as recorded)."""
    return [float(metric.score(cols.sums)) for _, cols in named]


def bootstrap_matrix(metric: Metric, named: Named, n: int, rng: np.random.Generator,
                     progress: Progress | None = None,
                     executor: _blocks.Mapper | None = None,
                     draw: rs.Draw = rs.draw_indices) -> np.ndarray:
    """(n, systems) resampled scores; every system sees the same resamples (rows of the
    columns: segments or documents, drawn by ``draw``). With an ``executor`` its blocks are
    jobs there, drawing the same resamples (:mod:`evalfw.analysis._blocks`)."""
    segments = rs.check_aligned(named)
    if executor is not None:
        return _blocks.bootstrap_matrix(metric, [c for _, c in named], n, rng, executor,
                                        progress, draw)
    table = rs.stack([c for _, c in named])
    out = np.empty((n, len(named)), dtype=np.float64)
    done = 0
    for idx in rs.index_blocks(rng, segments, n, draw):
        sums = rs.split(rs.exact_product(rs.count_matrix(idx, segments), table), len(named))
        for k, (_, cols) in enumerate(named):
            last = None if cols.last is None else cols.last[idx[:, -1]]
            out[done:done + len(idx), k] = metric.score_rows(sums[k], last, cols.size)
        done += len(idx)
        _tick(progress, done, n)
    return out


def interval(scores: np.ndarray, level: float) -> tuple[float, float, float, float]:
    """(mean, lower, upper, half-width) of a percentile interval."""
    tail = (1.0 - level) / 2.0
    lower, upper = (float(q) for q in np.quantile(scores, [tail, 1.0 - tail]))
    return float(np.mean(scores)), lower, upper, (upper - lower) / 2.0


def confidence(named: Named, matrix: np.ndarray, observed: Sequence[float], level: float,
               seed: int) -> list[ConfidenceResult]:
    out = []
    for k, (name, _) in enumerate(named):
        mean, lower, upper, half = interval(matrix[:, k], level)
        out.append(ConfidenceResult(name, observed[k], mean, half, lower, upper, len(matrix),
                                    level, seed, "default"))
    return out


def constant(values: np.ndarray) -> bool:
    """Whether resampled values do not vary (up to float rounding of the same sums): a
    resampling distribution without spread, which can decide nothing."""
    if len(values) == 0:
        return True
    scale = max(1.0, float(np.max(np.abs(values))))
    return float(np.ptp(values)) <= 1e-9 * scale


def bootstrap_comparison(name: str, base: str, sys_s: np.ndarray, base_s: np.ndarray,
                         score: float, base_score: float, level: float,
                         seed: int, unit: str = "segment") -> ComparisonResult:
    n = len(sys_s)
    delta = score - base_score
    diffs = sys_s - base_s
    flat = constant(diffs)
    extreme = n if flat else int(np.sum(np.abs(diffs - delta) >= abs(delta)))
    mean, lower, upper, half = interval(sys_s, level)
    _, d_lower, d_upper, _ = interval(diffs, level)
    return ComparisonResult(
        name, base, "bootstrap", "default", n, seed, score, base_score, delta,
        (extreme + 1) / (n + 1), mean=mean, ci=half, lower=lower, upper=upper,
        delta_lower=d_lower, delta_upper=d_upper, wins=float(np.mean(diffs > 0)),
        se=float(np.std(diffs, ddof=1)) if n > 1 else 0.0, unit=unit, zero_variance=flat)


def ar_exceedances(metric: Metric, pairs: Sequence[tuple[rs.Columns, rs.Columns]],
                   observed: Sequence[float], n: int, rng: np.random.Generator,
                   progress: Progress | None = None,
                   executor: _blocks.Mapper | None = None) -> list[int]:
    """For each (a, b) pair: trials whose |score(A) - score(B)| >= observed, where pseudo-system
    A takes a's segment where the shared mask is true and b's elsewhere, B the complement.
    With an ``executor`` its blocks are jobs there, on the same masks."""
    segments = rs.check_aligned([(str(i), c) for pair in pairs for i, c in enumerate(pair)])
    if executor is not None:
        return _blocks.ar_exceedances(metric, pairs, observed, n, rng, executor, progress)
    counts = [0] * len(pairs)
    done = 0
    deltas = _blocks.ar_deltas(pairs)
    for mask in rs.mask_blocks(rng, segments, n):
        block = _blocks.ar_block_counts(metric, pairs, observed, mask, deltas)
        counts = [a + b for a, b in zip(counts, block)]
        done += len(mask)
        _tick(progress, done, n)
    return counts


def ar_comparisons(metric: Metric, pairs: Sequence[tuple[tuple[str, rs.Columns], tuple[str, rs.Columns]]],
                   n: int, rng: np.random.Generator, seed: int,
                   progress: Progress | None = None,
                   executor: _blocks.Mapper | None = None,
                   unit: str = "segment") -> list[ComparisonResult]:
    """One AR result per (system, baseline) pair, all pairs on shared masks (rows of the
    columns swapped together: segments or documents, ``unit``)."""
    scores = [corpus_scores(metric, [s, b]) for s, b in pairs]
    observed = [abs(s - b) for s, b in scores]
    counts = ar_exceedances(metric, [(b[1], s[1]) for s, b in pairs], observed, n, rng, progress,
                            executor)
    return [
        ComparisonResult(s[0], b[0], "ar", "default", n, seed, sc, bc, sc - bc, (c + 1) / (n + 1),
                         unit=unit)
        for (s, b), (sc, bc), c in zip(pairs, scores, counts)
    ]
