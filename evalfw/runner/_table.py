"""One significance table: intervals, paired tests, all pairs and buckets of one test set x
metric, from the per-segment statistics (:func:`analyse_table`), with its share of the
stage's progress (:func:`table_parts`). :mod:`evalfw.runner._analyse` runs every table of a
run and corrects their p-values together.

In default mode one stream of bootstrap resamples serves the whole table: every system's
interval, the paired bootstrap against the baseline, every pair's (with ``all_pairs``), the
rank intervals, and the interval of each difference that approximate randomization tests.
When the test set names its documents, that stream resamples documents.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis import significance as sig
from evalfw.analysis.buckets import DESCRIPTIVE, TOO_FEW, assign, bucketed_analysis
from evalfw.analysis.results import ComparisonResult, ConfidenceResult
from evalfw.analysis.units import Units, widening
from evalfw.errors import ConfigError
from evalfw.metrics.base import SegmentLengths

if TYPE_CHECKING:
    from evalfw.executors.base import Executor
    from evalfw.metrics.base import Metric
    from evalfw.runner._settings import Plan, Settings
    from evalfw.runner._side_by_side import Share
    from evalfw.runner.progress import StagePart, StageWork

__all__ = ["analyse_table", "bucket_lengths", "bucket_tests", "bucket_unit", "resampling",
           "table_parts"]


def _paired_intervals(out: sig.PairedOutcome) -> tuple[ConfidenceResult, ...]:
    """sacreBLEU-mode paired bootstrap: the intervals ``--paired-bs`` prints (the baseline's
    and each system's, from the paired resamples)."""
    if out.baseline is None:
        return ()
    intervals = [out.baseline]
    for c in out.comparisons:
        if c.mean is None or c.ci is None or c.lower is None or c.upper is None:
            raise RuntimeError(f"the paired bootstrap of '{c.system}' carries no interval")
        intervals.append(ConfidenceResult(c.system, c.score, c.mean, c.ci, c.lower, c.upper, c.n,
                                          out.baseline.level, c.seed, c.mode))
    return tuple(intervals)


def table_parts(s: Settings, buckets: bool) -> list[tuple[str, int]]:
    """The resampling work of one table as (part, resamples or trials), in the order
    :func:`analyse_table` does it: the progress a stage's bar counts."""
    if s.mode == "sacrebleu":
        parts = [(method, s.trials(method)) for method in s.methods]
        if "bootstrap" not in s.methods:
            parts.append(("intervals", s.samples))
    else:  # one bootstrap stream for intervals, comparisons and pairs; AR on its own
        parts = [("bootstrap" if "bootstrap" in s.methods else "intervals", s.samples)]
        if "ar" in s.methods:
            parts.append(("ar", s.ar_trials))
            if s.all_pairs:
                parts.append(("pairs ar", s.ar_trials))
    if buckets:
        parts.append(("buckets", s.trials(s.marking)))
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


def bucket_lengths(metric: Metric, stats: Mapping[str, np.ndarray], baseline: str, label: str,
                   lengths: Callable[[], SegmentLengths] | None,
                   reference: Callable[[], np.ndarray] | None = None) -> SegmentLengths:
    """The segment lengths buckets group by: the baseline's hypothesis lengths (for
    ``hyp-length``) and reference lengths that no system changes. The metric's own reference
    lengths serve when every system has the same ones (one reference; TER's average); with
    several references BLEU and chrF measure the reference closest to each hypothesis, so
    the first reference's length in the metric's unit (``reference``) is used instead. A
    metric that reports no lengths gets the runner's count of words from the texts."""
    own = {name: metric.lengths(rows) for name, rows in stats.items()}
    base = own[baseline]
    if base is None:
        if lengths is None:
            raise ConfigError(f"metric '{label}' reports no segment lengths to bucket by")
        return lengths()
    if all(o is not None and np.array_equal(o.reference, base.reference) for o in own.values()):
        return base
    if reference is None:
        raise ConfigError(f"metric '{label}': the reference lengths differ between systems "
                          "and no reference text is at hand to measure them")
    return SegmentLengths(base.hypothesis, reference())


def bucket_unit(metric: Metric, baseline_stats: np.ndarray) -> str:
    """The unit of :func:`bucket_lengths`: the metric's ``length_unit``, or ``words`` (the
    runner's whitespace count) for a metric that reports no lengths."""
    return metric.length_unit if metric.lengths(baseline_stats) is not None else "words"


def resampling(s: Settings, units: Units | None, strata: str | None) -> dict[str, Any]:
    """What the table's tests resampled and swapped, for the record and every legend."""
    if units is None or s.mode == "sacrebleu":
        return {"bootstrap": "segment", "ar": "segment", "documents": None, "strata": None,
                "widening": None}
    return {"bootstrap": "document", "ar": units.ar, "documents": units.count,
            "strata": ({"column": strata, "count": len(units.strata_names)}
                       if units.strata is not None else None),
            "widening": widening(units.count, s.confidence)}


def _default_tests(plan: Plan, metric: Metric, ordered: Mapping[str, np.ndarray],
                   part: _Parts, executor: Executor | Share | None, units: Units | None
                   ) -> tuple[list[ComparisonResult], tuple[ConfidenceResult, ...],
                              list[ComparisonResult], list[dict[str, Any]]]:
    """Default mode: comparisons, intervals, pairs and rank intervals."""
    s = plan.settings
    tick = part("bootstrap" if "bootstrap" in s.methods else "intervals", s.samples)
    boot = sig.bootstrap_analysis(ordered, s.baseline, metric, s.samples, plan.seed,
                                  s.confidence, tick, executor, units, pairs=s.all_pairs,
                                  ranks=s.all_pairs)
    part.done(tick)
    comparisons = list(boot.comparisons) if "bootstrap" in s.methods else []
    pairs = list(boot.pairs) if "bootstrap" in s.methods else []
    if "ar" in s.methods:
        tick = part("ar", s.ar_trials)
        ar = sig.paired_analysis(ordered, s.baseline, metric, "ar", s.ar_trials, plan.seed,
                                 "default", s.confidence, tick, executor, units)
        part.done(tick)
        comparisons += sig.with_deltas(ar.comparisons, boot.comparisons)
        if s.all_pairs:
            tick = part("pairs ar", s.ar_trials)
            pairs += sig.with_deltas(sig.all_pairs(ordered, metric, "ar", s.ar_trials,
                                                   plan.seed, s.confidence, tick, executor,
                                                   units).comparisons, boot.pairs)
            part.done(tick)
    return comparisons, boot.intervals, pairs, [r.to_json() for r in boot.ranks]


def _sacrebleu_tests(plan: Plan, metric: Metric, ordered: Mapping[str, np.ndarray],
                     part: _Parts) -> tuple[list[ComparisonResult], tuple[ConfidenceResult, ...]]:
    """sacreBLEU mode: its tests, and the intervals it prints."""
    s = plan.settings
    comparisons: list[ComparisonResult] = []
    intervals: tuple[ConfidenceResult, ...] = ()
    for method in s.methods:
        tick = part(method, s.trials(method))
        out = sig.paired_analysis(ordered, s.baseline, metric, method, s.trials(method),
                                  plan.seed, s.mode, s.confidence)
        part.done(tick)
        comparisons += out.comparisons
        intervals = intervals or _paired_intervals(out)
    if not intervals:  # AR alone: intervals as sacreBLEU's `--confidence` computes them
        tick = part("intervals", s.samples)
        intervals = tuple(sig.confidence_intervals(ordered, metric, s.samples, plan.seed,
                                                   s.mode, s.confidence))
        part.done(tick)
    return comparisons, intervals


def analyse_table(plan: Plan, metric: Metric, stats: Mapping[str, np.ndarray],
                  test_set: str, label: str, work: StageWork | None = None,
                  lengths: Callable[[], SegmentLengths] | None = None,
                  executor: Executor | Share | None = None, units: Units | None = None,
                  labels: Callable[[], Sequence[str]] | None = None,
                  reference: Callable[[], np.ndarray] | None = None,
                  strata: str | None = None) -> dict[str, Any]:
    """Intervals, paired tests, all pairs and buckets of one test set x metric (``label``:
    its name in the config), each counted as a part of ``work`` (:func:`table_parts`).
    ``lengths`` gives segment lengths counted from the texts for a metric that reports none,
    ``reference`` the first reference's lengths in the metric's unit, ``labels`` the
    per-segment labels of a label bucketer; ``units`` the test set's documents (``strata``:
    the column naming their strata); ``executor`` runs blocks of resamples (buckets run
    here)."""
    s = plan.settings
    if executor is not None and not executor.streams and executor.parallelism < 2:
        executor = None  # one job at a time here: the blocks as before, without any hand-over
    ordered = {s.baseline: stats[s.baseline], **{k: v for k, v in stats.items()
                                                  if k != s.baseline}}
    part = _Parts(work, f"{test_set}/{label}")
    pairs: list[ComparisonResult] = []
    ranks: list[dict[str, Any]] = []
    if s.mode == "sacrebleu":
        comparisons, intervals = _sacrebleu_tests(plan, metric, ordered, part)
    else:
        comparisons, intervals, pairs, ranks = _default_tests(plan, metric, ordered, part,
                                                              executor, units)
    buckets = None
    if plan.bucketer is not None:
        tick = part("buckets", s.trials(s.marking))
        seg_lengths = _lengths_for(plan, metric, ordered, label, lengths, reference)
        results = bucketed_analysis(
            ordered, s.baseline, metric, plan.bucketer, seg_lengths, s.marking,
            s.trials(s.marking), plan.seed, s.mode, s.confidence, s.min_bucket_size,
            units if s.mode == "default" else None,
            labels() if plan.bucketer.reads_labels and labels is not None else None,
            s.samples)
        part.done(tick)
        buckets = {"bucketer": {"name": plan.bucketer.name, "version": plan.bucketer.version,
                                **dict(plan.bucketer.options)},
                   "quantity": plan.bucketer.quantity,
                   **({"unit": bucket_unit(metric, ordered[s.baseline])}
                      if not plan.bucketer.reads_labels else {}),
                   **plan.bucketer.at_least(s.min_bucket_size).record_entry(seg_lengths),
                   "min_segments": s.min_bucket_size,
                   "descriptive": plan.bucketer.descriptive,
                   "results": [b.to_json() for b in results]}
    out = {"test_set": test_set, "metric": label, "baseline": s.baseline,
           "segments": len(ordered[s.baseline]), "systems": list(ordered),
           "resampling": resampling(s, units, strata),
           "intervals": [i.to_json() for i in intervals],
           "comparisons": [c.to_json() for c in comparisons],
           "pairs": [c.to_json() for c in pairs], "buckets": buckets}
    if ranks:
        out["ranks"] = ranks
    return out


def _lengths_for(plan: Plan, metric: Metric, ordered: Mapping[str, np.ndarray], label: str,
                 lengths: Callable[[], SegmentLengths] | None,
                 reference: Callable[[], np.ndarray] | None) -> SegmentLengths:
    """The lengths a bucketer groups by (a label bucketer reads none: only the count)."""
    if plan.bucketer is not None and plan.bucketer.reads_labels:
        size = len(ordered[plan.settings.baseline])
        return SegmentLengths(None, np.zeros(size, dtype=np.int64))
    return bucket_lengths(metric, ordered, plan.settings.baseline, label, lengths, reference)


def bucket_tests(plan: Plan, metric: Metric, stats: Mapping[str, np.ndarray], label: str,
                 lengths: Callable[[], SegmentLengths] | None,
                 labels: Callable[[], Sequence[str]] | None = None,
                 reference: Callable[[], np.ndarray] | None = None) -> int:
    """How many bucket tests a table will have (buckets with at least the minimum number of
    segments x other systems; none for a descriptive bucketer), before any resampling."""
    s = plan.settings
    if plan.bucketer is None or len(stats) < 2 or plan.bucketer.descriptive:
        return 0
    ordered = {s.baseline: stats[s.baseline], **stats}
    seg_lengths = _lengths_for(plan, metric, ordered, label, lengths, reference)
    index, names = assign(plan.bucketer, seg_lengths, s.min_bucket_size,
                          labels() if plan.bucketer.reads_labels and labels is not None
                          else None)
    tested = sum(int(np.sum(index == b)) >= s.min_bucket_size for b in range(len(names)))
    return tested * (len(stats) - 1)


#: why a bucket has no tests, in words (tables and legends)
UNTESTED = {TOO_FEW: TOO_FEW, DESCRIPTIVE: "descriptive: no tests"}
