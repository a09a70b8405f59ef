"""The built-in ``segment-scores`` metric: per-segment scores computed elsewhere (COMET, BLEURT,
MetricX, ...) read from files, so model-based metrics get everything evalfw has: confidence
intervals, paired tests against a baseline, Holm, buckets, ``compare``, reports.

A test set names the files (``segment_scores: {comet: {files: ..., column: ...}}``, one file
per system, checked for one finite number per segment and recorded with sha256 like every
input); the metric entry says which of them it reads (``scores: comet``). The corpus score is
the mean, as COMET reports it (the sum in segment order divided by the count). Whether higher is
better depends on the model (MetricX is an error), so it is an option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.metrics.base import Metric, SegmentContext
from evalfw.metrics.segment_mean import SegmentMean
from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    import numpy as np


class SegmentScores(SegmentMean):
    """The mean of precomputed per-segment scores."""

    name = "segment-scores"
    version = "1"
    description = "precomputed per-segment scores (COMET, BLEURT, ...) read from files; mean"
    wants_context = True
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object",
        "properties": {
            "scores": {"type": "string", "minLength": 1, "default": "scores",
                       "description": "which of the test set's segment_scores to read"},
            "higher_is_better": {"type": "boolean", "default": True,
                                 "description": "false for error-like scores (MetricX)"},
            "scale": {"type": "number", "exclusiveMinimum": 0,
                      "description": "what a perfect score is (1 for COMET; 100 for percent); "
                                     "default: inferred from the scores"},
        },
        "additionalProperties": False,
    }

    @property
    def higher_is_better(self) -> bool:  # type: ignore[override]
        return bool(self.options["higher_is_better"])

    @property
    def score_scale(self) -> float | None:  # type: ignore[override]
        scale = self.options.get("scale")
        return None if scale is None else float(scale)

    @property
    def display_name(self) -> str:
        return str(self.options["scores"])

    def segment_statistics(self, hypotheses: Sequence[str], references: Any,
                           context: SegmentContext | None = None) -> np.ndarray:
        """Rows ``[score, 1]`` (see :class:`~evalfw.metrics.segment_mean.SegmentMean`)."""
        scores = self.named_column("scores", self.options["scores"], context, len(hypotheses),
                                   "add them under segment_scores")
        return self.rows(scores)

    def signature(self, nrefs: int | str) -> str:
        return (f"nrefs:{nrefs}|scores:{self.options['scores']}|mean|"
                f"{self.name}:{self.version}")



@hookimpl
def evalfw_register_metrics() -> list[type[Metric]]:
    return [SegmentScores]


__all__ = ["SegmentScores", "evalfw_register_metrics"]
