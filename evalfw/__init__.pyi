"""What type checkers see of :mod:`evalfw`, whose names are imported on first use at run time
(``__init__.py``)."""

from evalfw.analysis.bucketing import Bucketer
from evalfw.api import corpus_bleu, corpus_score, metric, sentence_bleu, sentence_scores
from evalfw.checks.base import Check, CheckInput
from evalfw.executors.base import Executor
from evalfw.host.host import PluginHost
from evalfw.metrics.base import Metric, Score, SegmentContext, SegmentLengths
from evalfw.metrics.bleu.components import (
    BrevityPenalty,
    Counts,
    Mean,
    NgramCounter,
    Preset,
    Smoothed,
    Smoother,
)
from evalfw.metrics.bleu.result import BleuScore
from evalfw.metrics.flags import MetricFlag
from evalfw.metrics.model import ModelInput, ModelMetric
from evalfw.plugin import hookimpl
from evalfw.reports.base import Reporter
from evalfw.runner.result import RunResult, load_run
from evalfw.runner.run import run
from evalfw.tokenizers.base import Tokenizer
from evalfw.version import __version__

__all__ = [
    "__version__", "hookimpl", "metric", "corpus_score", "corpus_bleu", "sentence_bleu",
    "sentence_scores", "BleuScore", "PluginHost", "run", "load_run", "RunResult", "Metric",
    "MetricFlag", "Score", "SegmentLengths", "SegmentContext", "ModelMetric", "ModelInput",
    "Tokenizer", "NgramCounter", "BrevityPenalty", "Smoother", "Counts", "Smoothed", "Mean",
    "Preset", "Reporter", "Bucketer", "Executor", "Check", "CheckInput",
]
