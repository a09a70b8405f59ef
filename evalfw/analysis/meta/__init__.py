"""Meta-evaluation statistics: how well metric scores agree with human judgements.

The definitions are those of WMT's metrics task as google-research/mt-metrics-eval computes
them (its ``stats.py`` and ``tau_optimization.py``), written here from the papers:

- system level (:mod:`~evalfw.analysis.meta.system`): Pearson, Spearman, Kendall's tau-b and
  pairwise accuracy (Kocmi et al. 2021, "To Ship or Not to Ship": the share of system pairs a
  metric orders as humans do, a pair tied on both sides counting as agreement);
- segment level, grouped by item (:mod:`~evalfw.analysis.meta.grouped`: per segment across
  systems, then averaged) and ungrouped (:mod:`~evalfw.analysis.meta.ungrouped`: every pair of
  judged items): Kendall's tau-b and tau-c and acc_eq, the pairwise accuracy with ties of
  Deutsch et al. 2023 ("Ties Matter"), with the metric's tie threshold epsilon searched over
  every pair's difference (tie calibration);
- bootstrap intervals by resampling segments, paired permutation tests between metrics
  (PERM-BOTH: each judged item's two metric scores swapped at random after z-scoring), Holm's
  correction, significance clusters, and agreement by bins of the metric difference (Kocmi et
  al. 2024) (:mod:`~evalfw.analysis.meta.permute`, :mod:`~evalfw.analysis.meta.ranking`).

Scores are oriented so that higher is better on both sides (a metric or human score where
lower is better is negated first). The modules hold statistics only: readers, records and
reports are elsewhere.
"""
