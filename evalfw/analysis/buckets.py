"""Bucketed analysis: a metric per bucket of segments, with intervals and paired tests.

Segments are bucketed once, by a :class:`evalfw.analysis.bucketing.Bucketer`, so every system
is compared on the same segments: by default by what does not depend on any system (the
reference's length, or a label such as the document's domain). A bucketer that groups by a
system's own output (``hyp-length``: the baseline's hypothesis length) is *descriptive*: a
bucket then selects segments by the very output being compared, which biases the bucket's
difference, so such buckets get scores and intervals but no tests.

Each bucket is then analysed like a small test set: a bootstrap interval of every system's
score and a paired test of every other system against the baseline, resampling documents
when the test set names them (the parts of each document inside the bucket). A bucket with
fewer than ``min_segments`` segments gets every system's score only: no interval, no test,
no mark (one segment resamples to itself, so its "interval" has no width and a paired
bootstrap would call any difference certain). Every bucket uses a fresh stream with the same
seed, so a bucket's numbers do not depend on the other buckets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis import significance as sig
from evalfw.analysis.bucketing import Bucketer
from evalfw.analysis.results import ComparisonResult, ConfidenceResult
from evalfw.errors import EvalfwError, PluginError

if TYPE_CHECKING:
    from evalfw.analysis.units import Units
    from evalfw.metrics.base import Metric, SegmentLengths

#: the smallest bucket that is tested, unless a run asks otherwise
MIN_SEGMENTS = 30
#: why a bucket has no tests
TOO_FEW = "too few segments"
DESCRIPTIVE = "descriptive"


@dataclass(frozen=True)
class BucketResult:
    """One bucket: its label, segment count, intervals (one per system, baseline first) and
    comparisons against the baseline, each system's score, and why it has no tests
    (``untested``: "too few segments" or "descriptive"; None when tested or empty)."""

    label: str
    segments: int
    intervals: tuple[ConfidenceResult, ...]
    comparisons: tuple[ComparisonResult, ...]
    scores: Mapping[str, float] = field(default_factory=dict)
    untested: str | None = None
    documents: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "segments": self.segments,
                               "intervals": [i.to_json() for i in self.intervals],
                               "comparisons": [c.to_json() for c in self.comparisons],
                               "scores": dict(self.scores), "untested": self.untested}
        if self.documents is not None:
            out["documents"] = self.documents
        return out


def assign(bucketer: Bucketer, lengths: SegmentLengths, minimum: int = 1,
           labels: Sequence[str] | None = None) -> tuple[np.ndarray, list[str]]:
    """Bucket index per segment (-1: none) and labels, checked. ``minimum``: what a bucketer
    that chooses its buckets from the data should aim each bucket to hold; ``labels``: the
    per-segment labels a label bucketer groups by."""
    try:
        if bucketer.reads_labels:
            if labels is None:
                raise PluginError(f"bucketer '{bucketer.name}' groups by labels, and none "
                                  "were given")
            index, names = bucketer.assign_labels(labels)
        else:
            index, names = bucketer.at_least(minimum).assign(lengths)
    except Exception as exc:
        if isinstance(exc, EvalfwError):  # its own error, saying what to do
            raise
        raise PluginError(f"bucketer '{bucketer.name}' raised {type(exc).__name__}: {exc}; "
                          "report this to its plugin author") from exc
    index = np.asarray(index)
    names = [str(label) for label in names]
    size = len(labels) if bucketer.reads_labels and labels is not None else \
        len(lengths.reference)
    if index.shape != (size,) or not np.issubdtype(index.dtype, np.integer) \
            or (index >= len(names)).any() or (index < -1).any():
        raise PluginError(f"bucketer '{bucketer.name}' returned an invalid assignment (shape "
                          f"{index.shape}, {len(names)} labels); report this to its plugin author")
    return index, names


def bucketed_analysis(stats_by_system: Mapping[str, np.ndarray], baseline: str,
                      metric: Metric, bucketer: Bucketer, lengths: SegmentLengths,
                      method: str = "bootstrap", n: int | None = None,
                      seed: int | str | None = None, mode: str = "default",
                      level: float = 0.95, min_segments: int = MIN_SEGMENTS,
                      units: Units | None = None, labels: Sequence[str] | None = None,
                      samples: int | None = None) -> list[BucketResult]:
    """Per bucket: every system's interval and paired tests against ``baseline``;
    ``lengths`` are the segment lengths the bucketer groups by (``labels`` the per-segment
    labels of a label bucketer); ``units`` the test set's documents; ``samples`` the
    bootstrap resamples of the intervals (default: ``n`` for the paired bootstrap, else
    1000)."""
    index, names = assign(bucketer, lengths, min_segments, labels)
    samples = samples or (n if method == "bootstrap" and n else 1000)
    ordered = {baseline: stats_by_system[baseline],
               **{k: v for k, v in stats_by_system.items() if k != baseline}}
    out = []
    for b, label in enumerate(names):
        rows = np.flatnonzero(index == b)
        if len(rows) == 0:
            out.append(BucketResult(label, 0, (), ()))
            continue
        subset = {name: st[rows] for name, st in ordered.items()}
        scores = {name: float(metric.score(st)) for name, st in subset.items()}
        inner = units.subset(rows) if units is not None else None
        documents = inner.count if inner is not None else None
        if len(rows) < min_segments:
            out.append(BucketResult(label, len(rows), (), (), scores, TOO_FEW, documents))
            continue
        tested = len(subset) > 1 and not bucketer.descriptive
        comps: tuple[ComparisonResult, ...] = ()
        if mode == "default":
            boot = sig.bootstrap_analysis(subset, baseline, metric, samples, seed, level,
                                          units=inner)
            intervals = boot.intervals
            if tested:
                comps = boot.comparisons if method == "bootstrap" else sig.with_deltas(
                    sig.paired_analysis(subset, baseline, metric, method, n, seed, mode, level,
                                        units=inner).comparisons, boot.comparisons)
        else:  # sacreBLEU mode: its tests, and intervals as its --confidence
            if tested:
                comps = sig.paired_analysis(subset, baseline, metric, method, n, seed, mode,
                                            level).comparisons
            intervals = tuple(sig.confidence_intervals(subset, metric, samples, seed, mode,
                                                       level))
        comps = tuple(replace(c, bucket=label) for c in comps)
        out.append(BucketResult(label, len(rows), intervals, comps, scores,
                                DESCRIPTIVE if bucketer.descriptive else None, documents))
    return out


__all__ = ["assign", "bucketed_analysis", "BucketResult", "DESCRIPTIVE", "MIN_SEGMENTS",
           "TOO_FEW"]
