"""One significance table: intervals, paired tests, all pairs and buckets of one test set x
metric, from the per-segment statistics (:func:`analyse_table`), with its share of the
stage's progress (:func:`table_parts`). :mod:`evalfw.runner._analyse` runs every table of a
run and corrects their p-values together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis.buckets import assign, bucketed_analysis
from evalfw.analysis import significance as sig
from evalfw.analysis.results import ComparisonResult, ConfidenceResult
from evalfw.errors import ConfigError

if TYPE_CHECKING:
    from evalfw.executors.base import Executor
    from evalfw.metrics.base import Metric, SegmentLengths
    from evalfw.runner._settings import Plan, Settings
    from evalfw.runner._side_by_side import Share
    from evalfw.runner.progress import StagePart, StageWork

__all__ = ["analyse_table", "bucket_lengths", "bucket_tests", "bucket_unit", "table_parts"]


def _paired_intervals(out: sig.PairedOutcome) -> tuple[ConfidenceResult, ...]:
    """sacreBLEU-mode paired bootstrap: the intervals ``--paired-bs`` prints (the baseline's
    and each system's, from the paired resamples)."""
    if out.baseline is None:
        return ()
    return (out.baseline, *(ConfidenceResult(c.system, c.score, c.mean, c.ci, c.lower, c.upper,
                                             c.n, out.baseline.level, c.seed, c.mode)
                            for c in out.comparisons))


def table_parts(s: Settings, buckets: bool) -> list[tuple[str, int]]:
    """The resampling work of one table as (part, resamples or trials), in the order
    :func:`analyse_table` does it: the progress a stage's bar counts."""
    parts = [(method, s.trials(method)) for method in s.methods]
    if "bootstrap" not in s.methods:
        parts.append(("intervals", s.samples))
    if s.all_pairs:
        parts += [(f"pairs {method}", s.trials(method)) for method in s.methods]
    if buckets:
        parts.append(("buckets", s.trials(s.methods[0])))
    return parts


class _Parts:
    """The parts of one table in a stage's work (nothing counted without one)."""

    def __init__(self, work: StageWork | None, where: str) -> None:
        self.work, self.where = work, where

    def __call__(self, name: str, size: int) -> StagePart | None:
        return None if self.work is None else \
            self.work.part((self.where, name), size, f"{self.where} {name}")

    @staticmethod
    def done(part: StagePart | None) -> None:
        if part is not None:
            part.complete()


def bucket_lengths(metric: Metric, baseline_stats: np.ndarray, label: str,
                   lengths: Callable[[], SegmentLengths] | None) -> SegmentLengths:
    """The baseline's segment lengths the bucketer groups by: the metric's own, else the
    runner's count from the texts."""
    seg_lengths = metric.lengths(baseline_stats)
    if seg_lengths is None:
        if lengths is None:
            raise ConfigError(f"metric '{label}' reports no segment lengths to bucket by")
        seg_lengths = lengths()
    return seg_lengths


def bucket_unit(metric: Metric, baseline_stats: np.ndarray) -> str:
    """The unit of :func:`bucket_lengths`: the metric's ``length_unit``, or ``words`` (the
    runner's whitespace count) for a metric that reports no lengths."""
    return metric.length_unit if metric.lengths(baseline_stats) is not None else "words"


def analyse_table(plan: Plan, metric: Metric, stats: Mapping[str, np.ndarray],
                  test_set: str, label: str, work: StageWork | None = None,
                  lengths: Callable[[], SegmentLengths] | None = None,
                  executor: Executor | Share | None = None) -> dict[str, Any]:
    """Intervals, paired tests, all pairs and buckets of one test set x metric (``label``:
    its name in the config), each counted as a part of ``work`` (:func:`table_parts`).
    ``lengths`` gives the baseline's segment lengths for buckets when the metric reports
    none; ``executor`` runs blocks of resamples (buckets run here)."""
    s = plan.settings
    if executor is not None and not executor.streams and executor.parallelism < 2:
        executor = None  # one job at a time here: the blocks as before, without any hand-over
    ordered = {s.baseline: stats[s.baseline], **{k: v for k, v in stats.items()
                                                  if k != s.baseline}}
    part = _Parts(work, f"{test_set}/{label}")
    comparisons: list[ComparisonResult] = []
    intervals = ()
    for method in s.methods:
        tick = part(method, s.trials(method))
        out = sig.paired_analysis(ordered, s.baseline, metric, method, s.trials(method),
                                  plan.seed, s.mode, s.confidence, tick, executor)
        part.done(tick)
        comparisons += out.comparisons
        intervals = intervals or out.intervals or _paired_intervals(out)
    if not intervals:  # AR alone: intervals as sacreBLEU's `--confidence` computes them
        tick = part("intervals", s.samples)
        intervals = tuple(sig.confidence_intervals(
            ordered, metric, s.samples, plan.seed, s.mode, s.confidence, tick, executor))
        part.done(tick)
    pairs: list[ComparisonResult] = []
    if s.all_pairs:
        for method in s.methods:
            tick = part(f"pairs {method}", s.trials(method))
            pairs += sig.all_pairs(ordered, metric, method, s.trials(method), plan.seed,
                                   s.confidence, tick, executor).comparisons
            part.done(tick)
    buckets = None
    if plan.bucketer is not None:
        tick = part("buckets", s.trials(s.methods[0]))
        seg_lengths = bucket_lengths(metric, ordered[s.baseline], label, lengths)
        results = bucketed_analysis(
            ordered, s.baseline, metric, plan.bucketer, seg_lengths,
            s.methods[0], s.trials(s.methods[0]), plan.seed, s.mode, s.confidence)
        part.done(tick)
        buckets = {"bucketer": {"name": plan.bucketer.name, "version": plan.bucketer.version,
                                **dict(plan.bucketer.options)},
                   "quantity": plan.bucketer.quantity,
                   "unit": bucket_unit(metric, ordered[s.baseline]),
                   **plan.bucketer.describe(seg_lengths),
                   "results": [b.to_json() for b in results]}
    return {"test_set": test_set, "metric": label, "baseline": s.baseline,
            "segments": len(ordered[s.baseline]), "systems": list(ordered),
            "intervals": [i.to_json() for i in intervals],
            "comparisons": [c.to_json() for c in comparisons],
            "pairs": [c.to_json() for c in pairs], "buckets": buckets}


def bucket_tests(plan: Plan, metric: Metric, stats: Mapping[str, np.ndarray], label: str,
                 lengths: Callable[[], SegmentLengths] | None) -> int:
    """How many bucket tests a table will have (non-empty buckets x other systems), before
    any resampling."""
    if plan.bucketer is None or len(stats) < 2:
        return 0
    index, labels = assign(plan.bucketer, bucket_lengths(
        metric, stats[plan.settings.baseline], label, lengths))
    filled = sum(bool(np.any(index == b)) for b in range(len(labels)))
    return filled * (len(stats) - 1)
