"""Statistical analysis of per-segment statistics: bootstrap confidence intervals, paired
significance tests (bootstrap, approximate randomization) in a sacreBLEU-exact mode and a
better default mode, Holm and Bonferroni corrections, the smallest p-value a number of
resamples allows (:mod:`evalfw.analysis.resolution`), bucketed analysis and sentence-score export.

Entry points (see :mod:`evalfw.analysis.significance` for the full docstring)::

    from evalfw.analysis import paired_analysis, paired_test, confidence_interval, apply_holm

The names are imported on first use: the package also holds the built-in bucketers, which
every plugin host registers, and registering them must not import numpy.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "BucketResult": "evalfw.analysis.buckets",
    "bucketed_analysis": "evalfw.analysis.buckets",
    "ComparisonResult": "evalfw.analysis.results",
    "ConfidenceResult": "evalfw.analysis.results",
    "adjust": "evalfw.analysis.results",
    "apply_correction": "evalfw.analysis.results",
    "apply_holm": "evalfw.analysis.results",
    "bonferroni": "evalfw.analysis.results",
    "holm": "evalfw.analysis.results",
    "p_value_resolution": "evalfw.analysis.resolution",
    "Resolution": "evalfw.analysis.resolution",
    "detectable": "evalfw.analysis.power",
    "bootstrap_analysis": "evalfw.analysis.significance",
    "Units": "evalfw.analysis.units",
    "clusters": "evalfw.analysis.ranking",
    "rank_intervals": "evalfw.analysis.ranking",
    "PairedOutcome": "evalfw.analysis.significance",
    "all_pairs": "evalfw.analysis.significance",
    "confidence_interval": "evalfw.analysis.significance",
    "confidence_intervals": "evalfw.analysis.significance",
    "paired_analysis": "evalfw.analysis.significance",
    "paired_test": "evalfw.analysis.significance",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'evalfw.analysis' has no attribute {name!r}")
