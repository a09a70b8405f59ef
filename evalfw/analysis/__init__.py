"""Statistical analysis of per-segment BLEU statistics: bootstrap confidence intervals,
paired significance tests (bootstrap, approximate randomization) in a sacreBLEU-exact mode and
a better default mode, Holm correction, bucketed analysis and sentence-score export.

Entry points (see :mod:`evalfw.analysis.significance` for the full docstring)::

    from evalfw.analysis import paired_analysis, paired_test, confidence_interval, apply_holm
"""

from __future__ import annotations

from evalfw.analysis.buckets import BucketResult, bucketed_analysis
from evalfw.analysis.results import ComparisonResult, ConfidenceResult, apply_holm, holm
from evalfw.analysis.significance import (
    PairedOutcome,
    all_pairs,
    confidence_interval,
    confidence_intervals,
    paired_analysis,
    paired_test,
)

__all__ = [
    "BucketResult",
    "ComparisonResult",
    "ConfidenceResult",
    "PairedOutcome",
    "all_pairs",
    "apply_holm",
    "bucketed_analysis",
    "confidence_interval",
    "confidence_intervals",
    "holm",
    "paired_analysis",
    "paired_test",
]
