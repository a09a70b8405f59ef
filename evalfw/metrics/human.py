"""The built-in ``human`` metric: a test set's human judgements (MQM points, DA scores) as a
metric, so they get what every metric has: a score per system, intervals, paired tests,
buckets, every table and chart.

A test set declares its judgements (``human:``, or ``mqm:`` for a test set built from an MQM
file, :mod:`evalfw.io.judgements`); the metric entry names them (``judgements: mqm``) and
takes their direction and unit from the test set. Humans judge only some segments of some
systems: a judged segment's row is ``[score, 1]``, one not judged ``[0, 0]``, so a system's
score is the mean of its judged segments, and a resample's the mean of the judged segments it
drew. Only per-segment judgements make a metric (system-level tables feed the
meta-evaluation alone), and only at corpus level.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.errors import InputError
from evalfw.metrics.base import Metric, SegmentContext
from evalfw.metrics.segment_mean import SegmentMean
from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    import numpy as np


class HumanScores(SegmentMean):
    """The mean of a system's judged segments."""

    name = "human"
    version = "1"
    description = ("human judgements of the test set (MQM points, DA scores), mean of the "
                   "judged segments")
    wants_context = True
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object",
        "properties": {
            "judgements": {"type": "string", "minLength": 1, "default": "mqm",
                           "description": "which of the test set's human judgements to read"},
            "higher_is_better": {"type": "boolean",
                                 "description": "the judgements' direction (from the test set)"},
            "unit": {"type": "string", "minLength": 1,
                     "description": "what the scores are (from the test set)"},
            "scale": {"type": "number", "exclusiveMinimum": 0,
                      "description": "what a perfect score is; default: inferred"},
        },
        "additionalProperties": False,
    }

    @property
    def higher_is_better(self) -> bool:  # type: ignore[override]
        return bool(self.options.get("higher_is_better", True))

    @property
    def score_scale(self) -> float | None:  # type: ignore[override]
        scale = self.options.get("scale")
        return None if scale is None else float(scale)

    @property
    def unit(self) -> str:
        return str(self.options.get("unit") or "human score")

    @property
    def display_name(self) -> str:
        return str(self.options["judgements"])

    def segment_statistics(self, hypotheses: Sequence[str], references: Any,
                           context: SegmentContext | None = None) -> np.ndarray:
        """Rows ``[score, 1]`` for judged segments, ``[0, 0]`` for the others."""
        import numpy as np

        name = self.options["judgements"]
        scores = self.named_column("judgements", name, context, len(hypotheses),
                                   "declare them under the test set's human")
        assert context is not None  # named_column refuses a missing context
        if all(s is None for s in scores):
            raise InputError(f"metric human: system '{context.system}' of test set "
                             f"'{context.test_set}' has no judgement in '{name}'; leave it out "
                             "of the test set or of the metric")
        rows = np.zeros((len(scores), 2), dtype=np.float64)
        for i, s in enumerate(scores):
            if s is not None:
                rows[i] = (s, 1.0)
        return rows

    @property
    def penalisable(self) -> bool:
        return True

    def worst_statistics(self, statistics: np.ndarray) -> np.ndarray:
        """Judgements stay as the humans gave them under ``on_flag: penalise``: the raters
        saw the flagged output and scored it."""
        return statistics.copy()

    def score(self, statistics: np.ndarray) -> float:
        count = float(statistics[:, 1].sum())
        return math.fsum(statistics[:, 0].tolist()) / count if count else math.nan

    def check_statistics(self, statistics: Any) -> str | None:
        problem = Metric.check_statistics(self, statistics)
        if problem is None and (statistics.shape[1] != 2 or
                                not ((statistics[:, 1] == 0) | (statistics[:, 1] == 1)).all()
                                or (statistics[statistics[:, 1] == 0, 0] != 0).any()):
            problem = "human statistics are [score, 1] or [0, 0] rows"
        return problem

    def signature(self, nrefs: int | str) -> str:
        return (f"judgements:{self.options['judgements']}|unit:{self.unit}|mean of judged|"
                f"{self.name}:{self.version}")


@hookimpl
def evalfw_register_metrics() -> list[type[Metric]]:
    return [HumanScores]


__all__ = ["evalfw_register_metrics", "HumanScores"]
