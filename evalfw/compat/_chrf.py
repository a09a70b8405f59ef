"""Drop-in replacement for sacreBLEU 2.6.0's chrF API (``CHRF``, ``CHRFScore``,
``CHRFSignature``, ``corpus_chrf``, ``sentence_chrf``), computed by :mod:`evalfw.metrics.chrf`.

Same constructor arguments, methods, result fields, signature and ``str()``; bootstrap
confidence (``corpus_score(..., n_bootstrap=N)``) draws sacreBLEU's resamples and keeps its
float32 arithmetic, so ``μ`` and ``±`` are sacreBLEU's numbers too; ``sentence_score`` takes
the per-call path of :mod:`evalfw.metrics.chrf.sentence`. Deliberate differences: a
hypothesis/reference count mismatch raises ``evalfw.errors.InputError`` instead of being
truncated by ``zip``, and ``char_order`` = ``word_order`` = 0 is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalfw.compat._common import SacreMetric, SacreScore, SacreSignature
from evalfw.metrics.chrf import core
from evalfw.metrics.chrf.metric import Chrf
from evalfw.metrics.chrf.sentence import OneChrf

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]


class CHRFScore(SacreScore):
    """sacreBLEU's ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``, ``name``,
    ``format()`` and ``str()`` (``chrF2++ = 62.24``)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: float) -> None:
        super().__init__(f"chrF{beta}" + "+" * word_order, score)
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order


class CHRFSignature(SacreSignature):
    """sacreBLEU's chrF signature:
    ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""

    _ABBR = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "case": "c", "eff": "e",
             "nc": "nc", "nw": "nw", "space": "s", "version": "v"}


class CHRF(SacreMetric):
    """sacreBLEU's ``CHRF`` metric with the same constructor, methods and defaults."""

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
        self._metric = Chrf(char_order=char_order, word_order=word_order, beta=beta,
                            lowercase=lowercase, whitespace=whitespace,
                            eps_smoothing=eps_smoothing)
        self._one = OneChrf(core.ChrfConfig(char_order, word_order, beta, lowercase,
                                            whitespace, eps_smoothing))
        if references is not None:
            self._ref_cache = self._index(references)

    def _result(self, stats: Any) -> CHRFScore:
        return self._score(self._metric.score(stats))

    def _score(self, score: float) -> CHRFScore:
        return CHRFScore(score, self.char_order, self.word_order, self.beta)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> CHRFScore:
        self._check_sentence_args(hypothesis, references)
        score, self.num_refs = self._one.result(hypothesis, references, self._sentence)
        return self._score(score)

    def _sentence(self, hypothesis: str, references: Sequence[str | None]
                  ) -> tuple[float, int]:
        """The general path of one segment: (score, references counted)."""
        score = self._result(self._stats([hypothesis], [[r] for r in references])).score
        return score, self.num_refs

    def get_signature(self) -> CHRFSignature:
        return CHRFSignature.of(
            self, case="lc" if self.lowercase else "mixed",
            eff="no" if self.eps_smoothing else "yes", nc=self.char_order,
            nw=self.word_order, space="yes" if self.whitespace else "no")


def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                beta: float = CHRF.BETA, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``corpus_chrf`` compat function."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    score: CHRFScore = metric.corpus_score(hypotheses, references)
    return score


def sentence_chrf(hypothesis: str, references: Sequence[str],
                  char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                  beta: float = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """sacreBLEU's ``sentence_chrf`` compat function."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)
