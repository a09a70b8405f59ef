"""``sacrebleu`` mode: sacreBLEU 2.6.0's bootstrap CI, paired bootstrap and paired
approximate randomization, reproduced number for number for the same seed.

What has to match (sacreBLEU 2.6.0's `significance.py`, as run and read):

- RNG: ``numpy.random.default_rng(seed)`` (PCG64); bootstrap indices as
  ``choice(S, (n, S))``, AR masks as ``integers(2, (n, S), dtype=bool)``, drawn here block by
  block with the same stream (see :mod:`evalfw.analysis.resampling`);
- seeds: ``SACREBLEU_SEED`` (default ``12345``; ``none`` = unseeded). The single-system and
  baseline bootstraps honour seed 0; per-system paired tests treat 0 as unseeded;
- bootstrap sums in float32 (accumulated segment by segment) and the metric's formula on those
  float32 values (``Metric.sacrebleu_float32_score``); AR sums in exact integers (float64 for
  floating-point statistics) scored on the normal path, full-corpus scores by ``Metric.score``;
- the resampled scores keep the type the formula gives them: BLEU's are Python floats, chrF's
  numpy float32 scalars (a Python ``0.0`` among them makes the array float64, as in sacreBLEU).
  Means, half-widths, differences and p-value comparisons then run in that dtype, as
  sacreBLEU's do (a float32 array's mean is a float32 pairwise sum; comparing it with a Python
  float casts the float to float32);
- interval: sorted scores, half-width from order statistics n//40 and n-n//40-1; the mean is
  ``statistics.mean`` for a single system and ``numpy.mean`` of the sorted scores in paired tests;
- p-values: (#{t > observed} + 1) / (n + 1), bootstrap differences centred on their mean.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis import _default_mode as dm
from evalfw.analysis import resampling as rs
from evalfw.analysis.results import ComparisonResult, ConfidenceResult
from evalfw.errors import ConfigError
from evalfw.limits import LIMITS, parse_int

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric

#: what sacreBLEU's paired bootstrap costs, said wherever its results are shown (legends, the
#: record, stderr); the figure comes from benchmarks/calibration.py
SACREBLEU_BOOTSTRAP = (
    "sacreBLEU's paired bootstrap (mode sacrebleu) takes absolute differences before "
    "centring them, which makes it anti-conservative: on truly equal systems it is "
    "significant about twice as often as alpha says; evalfw's default mode is calibrated")

SEED_ENV = "SACREBLEU_SEED"
DEFAULT_SEED = "12345"
DEFAULT_N = {"bootstrap": 1000, "ar": 10000}
_F32_EXACT = float(1 << 24)


@dataclass(frozen=True)
class SacreSeed:
    """A seed as sacreBLEU reads it: ``value`` for the RNG, ``label`` for its signature."""

    value: int | None
    label: str

    @property
    def paired_value(self) -> int | None:
        """Per-system paired tests pass ``seed if seed else None``: 0 means unseeded."""
        return self.value if self.value else None


def read_seed(value: str | int | None = None, bounded: bool = True) -> SacreSeed:
    """``value`` (a ``--seed`` option) or else ``$SACREBLEU_SEED`` or else 12345; the text
    ``none`` (any case) means an unseeded RNG. ``bounded``: within evalfw's seed limits (a
    record keeps 32-bit seeds); else any non-negative integer, as sacreBLEU (the drop-ins)."""
    text = os.environ.get(SEED_ENV, DEFAULT_SEED) if value is None else str(value)
    if text.lower() == "none":
        return SacreSeed(None, "none")
    where = "--seed" if value is not None else f"${SEED_ENV}"
    seed = parse_int(text)
    if seed is None:
        raise ConfigError(f"{where}: expected an integer or 'none', got {text[:40]!r}")
    if not bounded:
        if seed < 0:
            raise ValueError("expected non-negative integer")  # numpy's words
        return SacreSeed(seed, text.lower())
    return SacreSeed(LIMITS["seed"].check(seed, where), text.lower())


def supports(metric: Metric) -> bool:
    """Whether the metric reproduces sacreBLEU's resampling arithmetic (its float32 bootstrap
    scores; for BLEU: sacreBLEU's smoothing and mean, uniform weights)."""
    return metric.sacrebleu_resampling


def check_metric(metric: Metric) -> None:
    if not supports(metric):
        raise ConfigError(
            f"significance mode 'sacrebleu' reproduces sacreBLEU and needs a metric it can "
            f"compute with sacreBLEU's arithmetic; {metric.display_name} "
            f"({metric.signature('-')}) is not one; use mode 'default' for it"
        )


def _f32_sums(systems: Sequence[rs.Columns], idx: np.ndarray) -> list[np.ndarray]:
    """float32 sums of resampled rows, equal to sacreBLEU's ``stats32[idx].sum(0)``."""
    table = rs.stack(systems)
    if table.dtype.kind == "i" and table.min(initial=0) >= 0:
        exact = rs.exact_product(rs.count_matrix(idx, table.shape[0]), table)
        if exact.max(initial=0) <= _F32_EXACT:
            # every partial sum is an integer <= the total, so exact in float32 too
            return rs.split(exact.astype(np.float32), len(systems))
    rows32 = table.astype(np.float32)
    acc = np.zeros((idx.shape[0], rows32.shape[1]), dtype=np.float32)
    for column in np.ascontiguousarray(idx.T):  # numpy's axis-0 sum adds row after row
        acc += rows32[column]
    return rs.split(acc, len(systems))


def raw_bootstrap_scores(metric: Metric, systems: Sequence[rs.Columns], n: int,
                          seed: int | None) -> list[list[Any]]:
    """Each system's resampled scores as the formula returns them (Python floats or numpy
    float32 scalars), in sample order, on shared indices."""
    rng = np.random.default_rng(seed)
    segments = systems[0].segments
    out: list[list[Any]] = [[] for _ in systems]
    for idx in rs.index_blocks(rng, segments, n):
        for k, sums in enumerate(_f32_sums(systems, idx)):
            out[k].extend(metric.sacrebleu_float32_score(row) for row in sums)
    return out


def bootstrap_scores(metric: Metric, systems: Sequence[rs.Columns], n: int,
                     seed: int | None) -> list[np.ndarray]:
    """sacreBLEU's bootstrap scores (in sample order) of several systems on shared indices,
    each an array of the dtype sacreBLEU's ``np.array`` of them has."""
    return [np.array(raw) for raw in raw_bootstrap_scores(metric, systems, n, seed)]


def interval(scores: np.ndarray) -> tuple[float, float, float]:
    """(lower, upper, half-width) from sacreBLEU's order statistics, the half-width computed
    in the scores' dtype."""
    ordered = np.sort(scores)
    lo = len(ordered) // 40
    lower, upper = ordered[lo], ordered[len(ordered) - lo - 1]
    return float(lower), float(upper), float(0.5 * (upper - lower))


def _paired_mean(scores: np.ndarray) -> float:
    """``estimate_ci``'s mean: numpy's mean of the sorted scores, in their dtype."""
    return float(np.sort(scores).mean())


def corpus_value(metric: Metric, cols: rs.Columns) -> float:
    return float(metric.score(cols.sums))


def estimate_ci(raw: Sequence[Any]) -> tuple[Any, Any, Any, Any]:
    """``Score.estimate_ci`` of one system's resampled scores, in their own type: (mean,
    half-width, lower, upper) from the sorted scores' order statistics n//40 and n-n//40-1,
    the mean by ``statistics.mean``."""
    ordered = sorted(raw)
    lo = len(ordered) // 40
    lower, upper = ordered[lo], ordered[len(ordered) - lo - 1]
    return statistics.mean(ordered), 0.5 * (upper - lower), lower, upper


def confidence(metric: Metric, cols: rs.Columns, n: int = 1000, seed: SacreSeed | None = None,
               system: str = "system", paired: bool = False) -> ConfidenceResult:
    """``--confidence`` (or, ``paired=True``, the baseline row of ``--paired-bs``)."""
    check_metric(metric)
    seed = seed or read_seed()
    raw = raw_bootstrap_scores(metric, [cols], n, seed.value)[0]
    if paired:
        scores = np.array(raw)
        lower, upper, half = interval(scores)
        mean = _paired_mean(scores)
    else:
        mean, half, lower, upper = (float(x) for x in estimate_ci(raw))
    return ConfidenceResult(system, corpus_value(metric, cols), mean, half, lower, upper, n,
                            0.95, seed.value, "sacrebleu")


def paired_bootstrap(metric: Metric, baseline: tuple[str, rs.Columns],
                     systems: Sequence[tuple[str, rs.Columns]], n: int = 1000,
                     seed: SacreSeed | None = None) -> tuple[ConfidenceResult, list[ComparisonResult]]:
    """``--paired-bs``: the baseline's interval and one result per other system."""
    check_metric(metric)
    seed = seed or read_seed()
    rs.check_aligned([baseline, *systems])
    bl_name, bl_cols = baseline
    bl_score = corpus_value(metric, bl_cols)
    shared = seed.paired_value is not None and seed.paired_value == seed.value
    everything = bootstrap_scores(metric, [bl_cols, *(c for _, c in systems)], n, seed.value) \
        if shared else None
    bl_scores = everything[0] if everything else \
        bootstrap_scores(metric, [bl_cols], n, seed.value)[0]
    lower, upper, half = interval(bl_scores)
    bl_conf = ConfidenceResult(bl_name, bl_score, _paired_mean(bl_scores), half, lower,
                               upper, n, 0.95, seed.value, "sacrebleu")
    results = []
    for k, (name, cols) in enumerate(systems):
        if everything:
            base_s, sys_s = everything[0], everything[k + 1]
        else:  # unseeded (or seed 0): each comparison draws its own indices
            base_s, sys_s = bootstrap_scores(metric, [bl_cols, cols], n, seed.paired_value)
        score = corpus_value(metric, cols)
        diffs = np.abs(sys_s - base_s)
        centred = diffs - diffs.mean()
        # a Python float against a float32 array is compared in float32, as in sacreBLEU
        p = (int(np.sum(centred > abs(bl_score - score))) + 1) / (n + 1)
        lo, up, ci = interval(sys_s)
        # beyond sacreBLEU's output (its p-value stays as it is): the paired differences'
        # 95% percentile interval and spread, and whether they varied at all
        paired = sys_s.astype(np.float64) - base_s.astype(np.float64)
        _, d_lo, d_up, _ = dm.interval(paired, 0.95)
        results.append(ComparisonResult(
            name, bl_name, "bootstrap", "sacrebleu", n, seed.paired_value, score, bl_score,
            score - bl_score, p, mean=_paired_mean(sys_s), ci=ci, lower=lo, upper=up,
            delta_lower=d_lo, delta_upper=d_up, wins=float(np.mean(sys_s > base_s)),
            se=float(np.std(paired, ddof=1)) if n > 1 else 0.0,
            zero_variance=dm.constant(paired)))
    return bl_conf, results


def paired_ar(metric: Metric, baseline: tuple[str, rs.Columns],
              systems: Sequence[tuple[str, rs.Columns]], n: int = 10000,
              seed: SacreSeed | None = None) -> list[ComparisonResult]:
    """``--paired-ar``: one result per other system (no interval, as sacreBLEU's CLI)."""
    check_metric(metric)
    seed = seed or read_seed()
    segments = rs.check_aligned([baseline, *systems])
    bl_name, bl_cols = baseline
    bl_score = corpus_value(metric, bl_cols)
    bl_total = bl_cols.sums.sum(axis=0)
    shared = seed.paired_value is not None
    groups = [list(systems)] if shared else [[s] for s in systems]
    results: dict[str, ComparisonResult] = {}
    for group in groups:
        rng = np.random.default_rng(seed.paired_value)
        deltas = rs.stack([rs.Columns(bl_cols.sums - c.sums, None) for _, c in group])
        totals = [c.sums.sum(axis=0) for _, c in group]
        observed = [abs(bl_score - corpus_value(metric, c)) for _, c in group]
        exceed = [0] * len(group)
        for mask in rs.mask_blocks(rng, segments, n):
            moved = rs.split(rs.exact_product(mask.astype(np.float64), deltas), len(group))
            for k, shift in enumerate(moved):
                a = metric.score_rows(totals[k] + shift, None, segments)
                b = metric.score_rows(bl_total - shift, None, segments)
                exceed[k] += int(np.sum(np.abs(a - b) > observed[k]))
        for k, (name, cols) in enumerate(group):
            score = corpus_value(metric, cols)
            results[name] = ComparisonResult(
                name, bl_name, "ar", "sacrebleu", n, seed.paired_value, score, bl_score,
                score - bl_score, (exceed[k] + 1) / (n + 1))
    return [results[name] for name, _ in systems]


__all__ = [
    "bootstrap_scores", "check_metric", "confidence", "corpus_value", "DEFAULT_N", "DEFAULT_SEED",
    "estimate_ci", "interval", "paired_ar", "paired_bootstrap", "raw_bootstrap_scores",
    "read_seed", "SACREBLEU_BOOTSTRAP", "SacreSeed", "SEED_ENV", "supports",
]
