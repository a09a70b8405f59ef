"""Drop-in replacement for sacreBLEU 2.6.0's chrF API (``CHRF``, ``corpus_chrf``,
``sentence_chrf``), computed by :mod:`evalfw.metrics.chrf`.

Same constructor arguments, methods, result fields, signature and ``str()``; bootstrap
confidence (``corpus_score(..., n_bootstrap=N)``) draws sacreBLEU's resamples and keeps its
float32 arithmetic, so ``μ`` and ``±`` are sacreBLEU's numbers too. Deliberate differences: a
hypothesis/reference count mismatch raises ``evalfw.errors.InputError`` instead of being
truncated by ``zip``, and ``char_order`` = ``word_order`` = 0 is refused.
"""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Sequence
from typing import Any

import numpy as np

from evalfw.compat.sacrebleu import BLEUSignature
from evalfw.compat.sacrebleu import _check_corpus_args as check_bleu_args
from evalfw.metrics.bleu.presets import SACREBLEU_VERSION
from evalfw.metrics.chrf import core
from evalfw.metrics.chrf.metric import Chrf, ChrfReferences

__all__ = ["CHRF", "CHRFScore", "CHRFSignature", "corpus_chrf", "sentence_chrf"]


class CHRFScore:
    """sacreBLEU's ``CHRFScore``: ``score``, ``char_order``, ``word_order``, ``beta``, ``name``,
    ``format()`` and ``str()`` (``chrF2++ = 62.24``)."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: float) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.name = f"chrF{beta}" + "+" * word_order
        self.score = score
        self._mean: Any = -1.0
        self._ci: Any = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        sc = f"{self.score:.{width}f}"
        d: dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            conf = f"μ = {mean} ± {ci}"
            sc += f" ({conf})"
            if is_json:
                d.update(confidence_mean=float(mean), confidence_var=float(ci), confidence=conf)
        line = f"{self.name}|{signature}" if signature else self.name
        line = f"{line} = {sc}"
        if score_only:
            return sc
        if is_json:
            for pair in signature.split("|"):
                key, value = pair.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return line

    def estimate_ci(self, scores: Sequence[Any]) -> None:
        """sacreBLEU's interval of resampled scores (``.score`` of each): half the spread of
        the 2.5 % and 97.5 % order statistics, and their ``statistics.mean``."""
        raw = sorted(getattr(s, "score", s) for s in scores)
        low = len(raw) // 40
        self._ci = 0.5 * (raw[len(raw) - low - 1] - raw[low])
        self._mean = statistics.mean(raw)

    def __repr__(self) -> str:
        return self.format()

    __str__ = __repr__


class CHRFSignature(BLEUSignature):
    """sacreBLEU's chrF signature: ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""

    _ABBR = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "case": "c", "eff": "e",
             "nc": "nc", "nw": "nw", "space": "s", "version": "v"}


class CHRF:
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
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._metric = Chrf(char_order=char_order, word_order=word_order, beta=beta,
                            lowercase=lowercase, whitespace=whitespace,
                            eps_smoothing=eps_smoothing)
        self._ref_cache: ChrfReferences | None = None
        if references is not None:
            self._ref_cache = self._index(references)

    def _index(self, references: Sequence[Sequence[str | None]]) -> ChrfReferences:
        refs = self._metric.prepare_references(references)
        per_seg = {int(k) for k in refs.present.sum(axis=1)}
        self.num_refs = per_seg.pop() if len(per_seg) == 1 else -1
        return refs

    def _score(self, value: float) -> CHRFScore:
        return CHRFScore(value, self.char_order, self.word_order, self.beta)

    def _stats(self, hypotheses: Sequence[str],
               references: Sequence[Sequence[str | None]] | None) -> np.ndarray:
        if references:
            refs = self._index(references)
        elif self._ref_cache is not None:
            refs = self._ref_cache
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        return self._metric.segment_statistics(hypotheses, refs)

    def corpus_score(self, hypotheses: Sequence[str],
                     references: Sequence[Sequence[str]] | None,
                     n_bootstrap: int = 1) -> CHRFScore:
        _check_corpus_args(hypotheses, references)
        stats = self._stats(hypotheses, references)
        score = self._score(self._metric.score(stats))
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed, scores = self._bootstrap(stats, n_bootstrap)
            score.estimate_ci(scores)
        return score

    def _bootstrap(self, stats: np.ndarray, n: int) -> tuple[str, list[Any]]:
        """sacreBLEU's resampled scores: the same RNG draws, float32 sums row after row (as
        numpy's axis-0 sum adds them) and the formula on those float32 values."""
        seed = os.environ.get("SACREBLEU_SEED", "12345")
        rng = np.random.default_rng(None if seed.lower() == "none" else int(seed))
        idx = rng.choice(len(stats), size=(n, len(stats)), replace=True)
        rows32 = stats.astype(np.float32)
        sums = np.zeros((n, rows32.shape[1]), dtype=np.float32)
        for column in np.ascontiguousarray(idx.T):
            sums += rows32[column]
        config = self._metric.config
        return seed.lower(), [core.f_score(list(row), config) for row in sums]

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> CHRFScore:
        if not isinstance(hypothesis, str):
            raise TypeError("CHRF: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError("CHRF: The argument `refs` should be a sequence of strings.")
        if not isinstance(references[0], str) and references[0] is not None:
            raise TypeError("CHRF: Each element of `refs` should be a string.")
        stats = self._stats([hypothesis], [[r] for r in references])
        return self._score(self._metric.score(stats))

    def get_signature(self) -> CHRFSignature:
        if not hasattr(self, "num_refs"):
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        return CHRFSignature({
            "nrefs": "var" if self.num_refs == -1 else self.num_refs,
            "bs": self.n_bootstrap, "ar": None, "seed": self.seed,
            "case": "lc" if self.lowercase else "mixed",
            "eff": "no" if self.eps_smoothing else "yes", "nc": self.char_order,
            "nw": self.word_order, "space": "yes" if self.whitespace else "no",
            "version": SACREBLEU_VERSION,
        })


def _check_corpus_args(hyps: Any, refs: Any) -> None:
    # sacreBLEU's checks are the same for every metric; only the class name leads the message
    try:
        check_bleu_args(hyps, refs)
    except TypeError as err:
        raise TypeError(f"CHRF{str(err).removeprefix('BLEU')}") from None


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
