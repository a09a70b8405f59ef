"""Bucketed analysis: a metric per bucket of segments, with intervals and paired tests.

Segments are bucketed once, by a :class:`evalfw.analysis.bucketing.Bucketer` applied to the
*baseline's* segment lengths (as its metric reports them, or as the runner counts them from
the texts), so every system is compared on the same segments.
Each bucket is then analysed like a small test set: a bootstrap interval of every system's
score and a paired test of every other system against the baseline. Every bucket uses a fresh
stream with the same seed, so a bucket's numbers do not depend on the other buckets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from typing import TYPE_CHECKING

from evalfw.analysis import significance as sig
from evalfw.analysis.bucketing import Bucketer
from evalfw.analysis.results import ComparisonResult, ConfidenceResult
from evalfw.errors import EvalfwError, PluginError

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric, SegmentLengths


@dataclass(frozen=True)
class BucketResult:
    """One bucket: its label, segment count, intervals (one per system, baseline first) and
    comparisons against the baseline (empty when the bucket has no segments)."""

    label: str
    segments: int
    intervals: tuple[ConfidenceResult, ...]
    comparisons: tuple[ComparisonResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "segments": self.segments,
                "intervals": [i.to_json() for i in self.intervals],
                "comparisons": [c.to_json() for c in self.comparisons]}


def assign(bucketer: Bucketer, lengths: SegmentLengths) -> tuple[np.ndarray, list[str]]:
    """Bucket index per segment (-1: none) and labels, checked."""
    try:
        index, labels = bucketer.assign(lengths)
    except Exception as exc:
        if isinstance(exc, EvalfwError):  # its own error, saying what to do
            raise
        raise PluginError(f"bucketer '{bucketer.name}' raised {type(exc).__name__}: {exc}; "
                          "report this to its plugin author") from exc
    index = np.asarray(index)
    labels = [str(label) for label in labels]
    if index.shape != (len(lengths.reference),) or not np.issubdtype(index.dtype, np.integer) \
            or (index >= len(labels)).any() or (index < -1).any():
        raise PluginError(f"bucketer '{bucketer.name}' returned an invalid assignment (shape "
                          f"{index.shape}, {len(labels)} labels); report this to its plugin author")
    return index, labels


def bucketed_analysis(stats_by_system: Mapping[str, np.ndarray], baseline: str,
                      metric: Metric, bucketer: Bucketer, lengths: SegmentLengths,
                      method: str = "bootstrap", n: int | None = None,
                      seed: int | str | None = None, mode: str = "default",
                      level: float = 0.95) -> list[BucketResult]:
    """Per bucket: every system's interval and paired tests against ``baseline``;
    ``lengths`` are the baseline's segment lengths the bucketer groups by."""
    index, labels = assign(bucketer, lengths)
    ordered = {baseline: stats_by_system[baseline],
               **{k: v for k, v in stats_by_system.items() if k != baseline}}
    out = []
    for b, label in enumerate(labels):
        rows = np.flatnonzero(index == b)
        if len(rows) == 0:
            out.append(BucketResult(label, 0, (), ()))
            continue
        subset = {name: st[rows] for name, st in ordered.items()}
        comps: tuple[ComparisonResult, ...] = ()
        shared: tuple[ConfidenceResult, ...] = ()
        if len(subset) > 1:
            outcome = sig.paired_analysis(subset, baseline, metric, method, n, seed, mode, level)
            comps = tuple(replace(c, bucket=label) for c in outcome.comparisons)
            shared = outcome.intervals  # default-mode bootstrap: the same resamples
        intervals = shared or tuple(sig.confidence_intervals(
            subset, metric, n if method == "bootstrap" and n else 1000, seed, mode, level))
        out.append(BucketResult(label, len(rows), intervals, comps))
    return out


__all__ = ["assign", "bucketed_analysis", "BucketResult"]
