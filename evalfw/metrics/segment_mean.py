"""Metrics whose corpus score is the mean of per-segment scores (COMET and the like).

Each segment's statistics row is ``[score, 1]``: the count column makes the mean a function of
column sums, so resampling, buckets and sharding work as for any metric. The corpus score is
the sum in segment order over the count, as COMET computes its system score. Subclasses say
where the segment scores come from (:class:`evalfw.metrics.segment_scores.SegmentScores`: files;
:class:`evalfw.metrics.model.ModelMetric`: a model).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.errors import InputError
from evalfw.metrics._returns import outside_any
from evalfw.metrics.base import Metric, SegmentContext

if TYPE_CHECKING:
    import numpy as np


class SegmentMean(Metric):
    """The mean of per-segment scores (an abstract base: ``segment_statistics`` is the
    subclass's, usually built with :meth:`rows`). ``worst_score``: the worst score a segment
    can get (the declared minimum; the maximum when lower is better), which ``on_flag:
    penalise`` gives a flagged segment; None (the default) declares none."""

    worst_score: ClassVar[float | None] = None

    @staticmethod
    def rows(scores: Sequence[float] | np.ndarray) -> np.ndarray:
        """``[score, 1]`` per segment (float64)."""
        import numpy as np

        rows = np.ones((len(scores), 2), dtype=np.float64)
        rows[:, 0] = scores
        return rows

    def named_column(self, what: str, name: str, context: SegmentContext | None,
                     segments: int, fix: str) -> Any:
        """Column ``name`` of the context's ``what`` (``scores`` or ``judgements``), one value
        per segment; a missing or short one is an InputError saying what the test set has and
        ``fix``."""
        columns: Mapping[str, Any] = getattr(context, what) if context else {}
        if context is None or name not in columns:
            where = f"system '{context.system}' of test set '{context.test_set}'" if context \
                else "these hypotheses"
            have = ", ".join(sorted(columns))
            raise InputError(f"metric {self.name}: no {what} '{name}' for {where} (the test set "
                             f"has: {have or 'none'}); {fix}")
        found = columns[name]
        if len(found) != segments:
            raise InputError(f"metric {self.name}: {len(found)} {what} '{name}' for "
                             f"{segments} segments of system '{context.system}'")
        return found

    def score(self, statistics: np.ndarray) -> float:
        scores: list[float] = statistics[:, 0].tolist()
        return sum(scores) / float(statistics[:, 1].sum())

    def score_rows(self, sums: np.ndarray, last: np.ndarray | None = None,
                   segments: int = 1) -> np.ndarray:
        means: np.ndarray = sums[:, 0] / sums[:, 1]
        return means

    def sentence_scores(self, statistics: np.ndarray) -> np.ndarray:
        means: np.ndarray = statistics[:, 0] / statistics[:, 1]
        return means

    @property
    def penalisable(self) -> bool:
        return self.worst_score is not None

    def worst_statistics(self, statistics: np.ndarray) -> np.ndarray:
        if self.worst_score is None:
            raise NotImplementedError(f"metric '{self.name}' declares no worst_score")
        out = statistics.copy()
        out[:, 0] = float(self.worst_score)
        return out

    def check_statistics(self, statistics: Any) -> str | None:
        problem = super().check_statistics(statistics)
        if problem is None and (statistics.shape[1] != 2 or (statistics[:, 1] != 1).any()):
            problem = f"{self.name} statistics are [score, 1] rows"
        if problem is None and outside_any(statistics[:, 0], self.score_range).any():
            problem = f"{self.name} scores outside its score_range {self.score_range!r}"
        return problem


__all__ = ["SegmentMean"]
