"""evalfw: plugin-based, config-driven machine-translation evaluation.

Public API (imported lazily, so ``import evalfw`` stays cheap):

- :func:`metric` and :func:`corpus_score` -- any registered metric; :func:`corpus_bleu`,
  :func:`sentence_bleu`, :func:`sentence_scores` -- BLEU;
- :func:`run` -- run a config and return its record (a :class:`RunResult`); :func:`load_run`
  -- a stored version as the same type, without recomputing;
- :data:`hookimpl` and the contracts a plugin implements: :class:`Metric` (with
  :class:`Score` and :class:`MetricFlag`), :class:`Tokenizer`, the BLEU components (:class:`NgramCounter`,
  :class:`BrevityPenalty`, :class:`Smoother` with :class:`Counts` and :class:`Smoothed`,
  :class:`Mean`, :class:`Preset`), :class:`Reporter`, :class:`Bucketer`, :class:`Executor`,
  :class:`Check` (with :class:`CheckInput`).
"""

from __future__ import annotations

# The names are imported on first use, so ``import evalfw`` runs no import at all (none of
# the package's modules, nor typing, pluggy or numpy): Ctrl-C from the console command's first
# instruction ends as evalfw.cli.entry says. Type checkers read ``__init__.pyi`` instead.
_LAZY = {
    "__version__": "evalfw.version",
    "hookimpl": "evalfw.plugin",
    "metric": "evalfw.api",
    "corpus_score": "evalfw.api",
    "corpus_bleu": "evalfw.api",
    "sentence_bleu": "evalfw.api",
    "sentence_scores": "evalfw.api",
    "BleuScore": "evalfw.metrics.bleu.result",
    "PluginHost": "evalfw.host.host",
    "run": "evalfw.runner.run",
    "load_run": "evalfw.runner.result",
    "RunResult": "evalfw.runner.result",
    "Metric": "evalfw.metrics.base",
    "MetricFlag": "evalfw.metrics.flags",
    "Score": "evalfw.metrics.base",
    "SegmentLengths": "evalfw.metrics.base",
    "SegmentContext": "evalfw.metrics.base",
    "ModelMetric": "evalfw.metrics.model",
    "ModelInput": "evalfw.metrics.model",
    "Tokenizer": "evalfw.tokenizers.base",
    "NgramCounter": "evalfw.metrics.bleu.components",
    "BrevityPenalty": "evalfw.metrics.bleu.components",
    "Smoother": "evalfw.metrics.bleu.components",
    "Counts": "evalfw.metrics.bleu.components",
    "Smoothed": "evalfw.metrics.bleu.components",
    "Mean": "evalfw.metrics.bleu.components",
    "Preset": "evalfw.metrics.bleu.components",
    "Reporter": "evalfw.reports.base",
    "Bucketer": "evalfw.analysis.bucketing",
    "Executor": "evalfw.executors.base",
    "Check": "evalfw.checks.base",
    "CheckInput": "evalfw.checks.base",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'evalfw' has no attribute {name!r}")
