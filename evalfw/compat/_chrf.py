"""Drop-in replacement for sacreBLEU 2.6.0's chrF API (``CHRF``, ``corpus_chrf``,
``sentence_chrf``), computed by :mod:`evalfw.metrics.chrf`.

Same constructor arguments, methods, result fields, signature and ``str()``; bootstrap
confidence (``corpus_score(..., n_bootstrap=N)``) draws sacreBLEU's resamples and keeps its
float32 arithmetic, so ``μ`` and ``±`` are sacreBLEU's numbers too. Deliberate differences: a
hypothesis/reference count mismatch raises ``evalfw.errors.InputError`` instead of being
truncated by ``zip``, and ``char_order`` = ``word_order`` = 0 is refused.
"""

from __future__ import annotations

import sys

from evalfw.compat._chrf_score import CHRFScore, CHRFSignature, signature
from evalfw.compat._chrf_sentence import OneChrf, plain_config
from evalfw.compat._common import SacreMetric, check_corpus_args
from evalfw.metrics.chrf import core

TYPE_CHECKING = False  # not from typing (which imports re): a sentence loop starts without it
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    import numpy as np

    from evalfw.metrics.chrf.metric import Chrf, ChrfReferences

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]

#: segment x reference choices after which corpus scores switch to numpy's path (about the
#: Python time of numpy's import)
PYTHON_CHOICES = 20_000


class CHRF(SacreMetric):
    """sacreBLEU's ``CHRF`` metric with the same constructor, methods and defaults.

    Scores need no numpy: rows of Python ints, and with several references each segment's
    best one is chosen by the scalar F-score. That choice costs a few microseconds per segment
    and reference, numpy's vectorized one costs its import (tens of milliseconds) first: once
    a process has made ``PYTHON_CHOICES`` such choices (or numpy is loaded anyway), corpus
    scores take numpy's path. The numbers are the same either way.

    ``sentence_score`` takes the per-call path of :mod:`evalfw.compat._chrf_sentence`
    (cached, else the compiled kernel's score); evalfw's metric object is built on first
    use, so a loop of sentence scores starts without its class.
    """

    _python_choices: int = 0  # reference choices made in Python, in this process

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2

    def __init__(self, char_order: int = CHAR_ORDER, word_order: int = WORD_ORDER,
                 beta: float = BETA, lowercase: bool = False, whitespace: bool = False,
                 eps_smoothing: bool = False,
                 references: Sequence[Sequence[str]] | None = None) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        config = core.ChrfConfig(char_order, word_order, beta, lowercase, whitespace,
                                 eps_smoothing)
        self._config = config
        self._built: Chrf | None = None
        if not plain_config(config):  # the metric class reports options it refuses, here
            self._built = self._metric
        self._one = OneChrf(config)
        self._ref_cache: ChrfReferences | None = None
        if references is not None:
            self._ref_cache = self._index(references)

    @property
    def _metric(self) -> Chrf:  # type: ignore[override]
        """evalfw's chrF metric with these options, built on first use: a loop of
        ``sentence_score`` calls rarely needs it, and its class costs imports."""
        if self._built is None:
            from evalfw.metrics.chrf.metric import Chrf

            self._built = Chrf(**self._config._asdict())
        return self._built

    def _reference_counts(self, prepared: ChrfReferences) -> list[int]:
        return prepared.counts

    def corpus_score(self, hypotheses: Sequence[str],
                     references: Sequence[Sequence[str]] | None,
                     n_bootstrap: int = 1) -> CHRFScore:
        if n_bootstrap > 1:  # resampling needs the numpy rows
            return super().corpus_score(hypotheses, references, n_bootstrap)
        check_corpus_args("CHRF", hypotheses, references)
        refs = self._references(references)
        choices = len(hypotheses) * len(refs.streams) if len(refs.streams) > 1 else 0
        if choices and ("numpy" in sys.modules or CHRF._python_choices > PYTHON_CHOICES):
            sums = self._metric.segment_statistics(hypotheses, refs).sum(axis=0).tolist()
        else:
            CHRF._python_choices += choices
            rows = self._metric.segment_rows(hypotheses, refs)
            sums = [sum(c) for c in zip(*rows)] if rows else [0] * self._metric.config.width
        return self._score_of(sums)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> CHRFScore:
        self._check_sentence_args(hypothesis, references)
        # the per-call path (see evalfw.compat._chrf_sentence): cached, else compiled
        score, self.num_refs = self._one.result(hypothesis, references, self._sentence)
        return CHRFScore(score, self.char_order, self.word_order, self.beta)

    def _sentence(self, hypothesis: str, references: Sequence[str | None]
                  ) -> tuple[float, int]:
        """The general path of one segment: (score, references counted)."""
        prepared = self._index([[r] for r in references])
        row = self._metric.segment_rows([hypothesis], prepared)[0]
        return core.f_score(row, self._metric.config), self.num_refs

    def _score_of(self, sums: Sequence[int]) -> CHRFScore:
        return CHRFScore(core.f_score(sums, self._metric.config), self.char_order,
                         self.word_order, self.beta)

    def _result(self, stats: np.ndarray) -> CHRFScore:
        return CHRFScore(self._metric.score(stats), self.char_order, self.word_order, self.beta)

    def _resampled(self, row32: np.ndarray) -> Any:
        return core.f_score(list(row32), self._metric.config)

    def get_signature(self) -> CHRFSignature:
        return signature(self)


def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                beta: float = CHRF.BETA, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``corpus_chrf`` compat function."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str],
                  char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                  beta: float = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``sentence_chrf`` compat function."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)
