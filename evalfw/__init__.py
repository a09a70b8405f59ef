"""evalfw: plugin-based, config-driven machine-translation evaluation.

Public API (imported lazily, so ``import evalfw`` stays cheap):

- :func:`metric` and :func:`corpus_score` -- any registered metric; :func:`corpus_bleu`,
  :func:`sentence_bleu`, :func:`sentence_scores` -- BLEU;
- :func:`run` -- run a config and return its record;
- :data:`hookimpl` and the contracts a plugin implements: :class:`Metric` (with
  :class:`Score`), :class:`Tokenizer`, the BLEU components (:class:`NgramCounter`,
  :class:`BrevityPenalty`, :class:`Smoother` with :class:`Counts` and :class:`Smoothed`,
  :class:`Mean`, :class:`Preset`), :class:`Reporter`, :class:`Bucketer`, :class:`Executor`.
"""

from __future__ import annotations

import os
import sys
from typing import Any

# numpy's OpenBLAS starts a worker thread per core when numpy is imported, and each busy-waits
# for work before it sleeps: about 0.1 CPU-second of spinning per process here, for nothing,
# since evalfw's own matrix products (bootstrap resampling) are small. So unless numpy is
# already loaded or the user chose a thread count, evalfw asks OpenBLAS for one thread.
# Setting OPENBLAS_NUM_THREADS (or OMP_NUM_THREADS) before importing evalfw overrides this.
if "numpy" not in sys.modules and not {"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"} & set(os.environ):
    os.environ["OPENBLAS_NUM_THREADS"] = "1"

from evalfw.plugin import hookimpl
from evalfw.version import __version__

_LAZY = {
    "metric": "evalfw.api",
    "corpus_score": "evalfw.api",
    "corpus_bleu": "evalfw.api",
    "sentence_bleu": "evalfw.api",
    "sentence_scores": "evalfw.api",
    "BleuScore": "evalfw.metrics.bleu.result",
    "PluginHost": "evalfw.host.host",
    "run": "evalfw.runner.run",
    "Metric": "evalfw.metrics.base",
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
}

__all__ = ["__version__", "hookimpl", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'evalfw' has no attribute {name!r}")
