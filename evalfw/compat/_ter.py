"""Drop-in replacement for sacreBLEU 2.6.0's TER API (``TER``, ``TERScore``, ``TERSignature``,
``corpus_ter``, ``sentence_ter``), computed by :mod:`evalfw.metrics.ter`.

Same constructor arguments, methods, result fields (``score``, ``num_edits``, ``ref_length``),
signature and ``str()``; bootstrap confidence (``corpus_score(..., n_bootstrap=N)``) draws
sacreBLEU's resamples and keeps its float32 arithmetic. Deliberate differences: a
hypothesis/reference count mismatch raises ``evalfw.errors.InputError`` instead of being
truncated by ``zip``, and so does a segment without any reference (sacreBLEU divides by zero).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from evalfw.compat._common import SacreMetric, SacreScore, SacreSignature
from evalfw.metrics.ter import core
from evalfw.metrics.ter.metric import Ter

if TYPE_CHECKING:
    import numpy as np

__all__ = ["TER", "TERScore", "TERSignature", "corpus_ter", "sentence_ter"]


class TERScore(SacreScore):
    """sacreBLEU's ``TERScore``: ``score``, ``num_edits`` (an int), ``ref_length`` (the sum of
    average reference lengths), ``format()`` and ``str()`` (``TER = 49.95``)."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TERSignature(SacreSignature):
    """sacreBLEU's TER signature: ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|
    version:2.6.0``."""

    _ABBR = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "case": "c", "tok": "t",
             "norm": "nr", "punct": "pn", "asian": "as", "version": "v"}


class TER(SacreMetric):
    """sacreBLEU's ``TER`` metric with the same constructor, methods and defaults."""

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False,
                 references: Sequence[Sequence[str]] | None = None) -> None:
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer_signature = "tercom"
        self._metric = Ter(normalized=bool(normalized), no_punct=bool(no_punct),
                           asian_support=bool(asian_support),
                           case_sensitive=bool(case_sensitive))
        if references is not None:
            self._ref_cache = self._index(references)

    def _result(self, stats: np.ndarray) -> TERScore:
        edits, length = core.totals(stats)
        return TERScore(core.score_of(edits, length), edits, length)

    def get_signature(self) -> TERSignature:
        return TERSignature.of(
            self, case="mixed" if self.case_sensitive else "lc",
            tok=self.tokenizer_signature, norm=self.normalized, punct=not self.no_punct,
            asian=self.asian_support)


def corpus_ter(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
               normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
               case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``corpus_ter`` compat function."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    score: TERScore = metric.corpus_score(hypotheses, references)
    return score


def sentence_ter(hypothesis: str, references: Sequence[str], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> TERScore:
    """sacreBLEU's ``sentence_ter`` compat function."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    score: TERScore = metric.sentence_score(hypothesis, references)
    return score
