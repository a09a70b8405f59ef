"""sacreBLEU 2.6.0's BLEU API (``BLEU``, ``BLEUScore``, ``BLEUSignature``, ``corpus_bleu``,
``raw_corpus_bleu``, ``sentence_bleu``), computed by evalfw's components; users import it
from :mod:`evalfw.compat.sacrebleu` (or its ``metrics`` modules), as they import sacreBLEU.

Same numbers, fields, signature and ``str()`` as sacreBLEU. One deliberate difference: a
hypothesis/reference count mismatch raises ``evalfw.errors.InputError`` instead of being
silently truncated by ``zip``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from evalfw.compat import _sentence
from evalfw.compat._bleu_score import (
    LANGUAGE_NAMES, TOKENIZER_BY_LANG, SMOOTH_DEFAULTS, TOKENIZER_DEFAULT, BLEUScore,
    BLEUSignature, check_lengths, signature, warn_tokenized)
from evalfw.compat._bleu_lean import bleu_fields
from evalfw.compat._common import check_corpus_args, warn

TYPE_CHECKING = False  # not from typing: a sentence loop starts without it
if TYPE_CHECKING:
    from typing import Any

    from evalfw.tokenizers.base import Tokenizer
    from evalfw.metrics.bleu.components import Counts
    from evalfw.metrics.bleu.spec import BleuSpec
    from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "corpus_bleu", "raw_corpus_bleu",
           "sentence_bleu"]


@functools.cache
def _host() -> Any:
    # Built-ins only: a drop-in for sacreBLEU must not change with installed plugins.
    from evalfw.host.host import PluginHost

    return PluginHost.create(autoload=False)


def _plain_tokenizer(tokenize: str, smooth_value: Any, max_order: Any, lowercase: Any,
                     effective_order: Any) -> Tokenizer | None:
    """The built-in tokenizer of options that certainly resolve to a spec (a built-in
    tokenizer name; booleans; an order of 1 to 4; no or a non-negative number as smoothing
    value), so the spec can wait until it is needed; None: resolve it now, where its errors
    belong."""
    from evalfw.tokenizers import MODULES, builtin

    if tokenize not in MODULES or tokenize in ("ja-mecab", "ko-mecab") or \
            type(lowercase) is not bool or type(effective_order) is not bool or \
            type(max_order) is not int or not 1 <= max_order <= 4 or \
            (smooth_value is not None and (type(smooth_value) not in (int, float)
                                           or not smooth_value >= 0)):
        return None
    return builtin(tokenize)()


class BLEU:
    """sacreBLEU's ``BLEU`` metric with the same constructor, methods and defaults."""

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZER_DEFAULT = TOKENIZER_DEFAULT

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: str | None = None,
                 smooth_method: str = "exp", smooth_value: float | None = None,
                 max_ngram_order: int = 4, effective_order: bool = False, trg_lang: str = "",
                 references: Sequence[Sequence[str]] | None = None) -> None:
        if smooth_method not in SMOOTH_DEFAULTS:
            raise AssertionError("Unknown smooth_method {self.smooth_method!r}")
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        self.n_bootstrap: int | None = None
        self.seed: Any = None
        if tokenize is None:
            tokenize = TOKENIZER_BY_LANG.get(trg_lang, TOKENIZER_DEFAULT)
        elif trg_lang in TOKENIZER_BY_LANG and tokenize != TOKENIZER_BY_LANG[trg_lang]:
            warn(f"Consider using the '{TOKENIZER_BY_LANG[trg_lang]}' or 'spm' tokenizer for "
                 f"{LANGUAGE_NAMES[trg_lang]}.")
        self.tokenize = tokenize
        self._spec_value: BleuSpec | None = None
        self._tokenizer = _plain_tokenizer(tokenize, smooth_value, max_ngram_order, lowercase,
                                           effective_order)
        if self._tokenizer is None:  # anything else is checked by resolving the spec now
            self._tokenizer = self._spec.tokenizer
        self.tokenizer_signature = self._tokenizer.sacrebleu_signature()
        self._ref_cache: ReferenceIndex | None = None
        self._one: _sentence.OneSentence | None = None
        if references is not None:
            self._ref_cache = self._index(references)

    @property
    def _spec(self) -> BleuSpec:
        """evalfw's BLEU spec of these options, resolved on first use (plain options cannot
        fail to resolve, see ``_plain_tokenizer``; a sentence loop never needs it)."""
        if self._spec_value is None:
            self._spec_value = self._make_spec()
        return self._spec_value

    def _make_spec(self) -> BleuSpec:
        from evalfw.metrics.bleu.spec import resolve_spec

        smoothing: dict[str, Any] = {"name": self.smooth_method}
        if SMOOTH_DEFAULTS[self.smooth_method] is not None and self.smooth_value is not None:
            smoothing["value"] = self.smooth_value
        return resolve_spec(_host(), preset="sacrebleu", tokenizer=self.tokenize,
                            smoothing=smoothing, max_order=self.max_ngram_order,
                            lowercase=self.lowercase, effective_order=self.effective_order)

    # ------------------------------------------------------------------ scoring

    def _index(self, references: Sequence[Sequence[str | None]]) -> ReferenceIndex:
        from evalfw.metrics.bleu import engine

        index = engine.index_references(self._spec, references)
        # from the streams, not the index's length table: that table would import numpy
        if any(None in stream for stream in references):
            per_seg = {sum(stream[i] is not None for stream in references)
                       for i in range(index.segments)}
            self.num_refs = per_seg.pop() if len(per_seg) == 1 else -1
        else:
            self.num_refs = len(references)
        return index

    def _stats(self, hypotheses: Sequence[str],
               references: Sequence[Sequence[str | None]] | None) -> SegmentStats:
        if references:
            index = self._index(references)
        elif self._ref_cache is not None:
            index = self._ref_cache
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        check_lengths(len(hypotheses), index.segments)
        warn_tokenized(hypotheses, self._force)
        from evalfw.metrics.bleu import engine

        return engine.segment_stats(self._spec, hypotheses, index)

    def _score(self, counts: Counts) -> BLEUScore:
        from evalfw.metrics.bleu import engine

        res = engine.score_counts(self._spec, counts)
        return BLEUScore(res.score, list(res.counts), list(res.totals), list(res.precisions),
                         res.bp, res.hyp_len, res.ref_len)

    def _corpus_score(self, stats: SegmentStats) -> BLEUScore:
        from evalfw.metrics.bleu import engine

        return self._score(engine.corpus_counts(self._spec, stats))

    def corpus_score(self, hypotheses: Sequence[str],
                     references: Sequence[Sequence[str]] | None,
                     n_bootstrap: int = 1) -> BLEUScore:
        _check_corpus_args(hypotheses, references)
        stats = self._stats(hypotheses, references)
        score = self._corpus_score(stats)
        if n_bootstrap > 1:
            from evalfw.analysis.resampling import columns
            from evalfw.analysis.sacrebleu_mode import confidence, read_seed
            from evalfw.metrics.bleu.metric import Bleu

            seed = read_seed(bounded=False)  # $SACREBLEU_SEED semantics, as sacreBLEU
            metric = Bleu(self._spec)
            result = confidence(metric, columns(metric, metric.rows(stats)), n_bootstrap, seed)
            self.n_bootstrap = n_bootstrap
            self.seed = seed.label
            score._mean, score._ci = result.mean, result.ci
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        if not isinstance(hypothesis, str):
            raise TypeError("BLEU: The argument `hyp` should be a string.")
        if type(references) is not list and (  # the ABC check only for other sequences
                isinstance(references, str) or not isinstance(references, Sequence)):
            raise TypeError("BLEU: The argument `refs` should be a sequence of strings.")
        if not isinstance(references[0], str) and references[0] is not None:
            raise TypeError("BLEU: Each element of `refs` should be a string.")
        if self._one is None:
            # the spec's components are sacreBLEU's built-ins: their formula in one function
            settings = (self.smooth_method, self.smooth_value, self.effective_order,
                        self.max_ngram_order)

            def formula(correct: list[Any], total: list[Any], sys_len: int, ref_len: int
                        ) -> tuple[Any, ...]:  # positional: cheaper than a partial's keywords
                return bleu_fields(correct, total, sys_len, ref_len, *settings)

            self._one = _sentence.OneSentence(self._spec, formula) \
                if self._spec_value is not None else _sentence.OneSentence.sacrebleu(
                    self._tokenizer, self.lowercase, self.max_ngram_order, formula)
        found = self._one.result(hypothesis, references, BLEUScore)
        if found is not None:  # the per-call path (see evalfw.compat._sentence)
            self.num_refs = self._one.nrefs
            return found
        stats = self._stats([hypothesis], [[r] for r in references])
        return self._corpus_score(stats)

    def _resampling_input(self, hypotheses: Sequence[str]) -> tuple[Any, Any, BLEUScore]:
        """For paired tests: evalfw's metric, its statistics rows of ``hypotheses`` (against
        the cached references) and their score."""
        from evalfw.metrics.bleu.metric import Bleu

        stats = self._stats(hypotheses, None)
        metric = Bleu(self._spec)
        return metric, metric.rows(stats), self._corpus_score(stats)

    def get_signature(self) -> BLEUSignature:
        return signature(self)

    @staticmethod
    def compute_bleu(correct: list[int], total: list[int], sys_len: int, ref_len: int,
                     smooth_method: str = "none", smooth_value: float | None = None,
                     effective_order: bool = False, max_ngram_order: int = 4) -> BLEUScore:
        """sacreBLEU's static ``compute_bleu`` (note its default smoothing is ``none``)."""
        metric = BLEU(tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value,
                      effective_order=effective_order, max_ngram_order=max_ngram_order)
        from evalfw.metrics.bleu.components import Counts

        counts = Counts(tuple(correct[:max_ngram_order]), tuple(total[:max_ngram_order]),
                        int(sys_len), int(ref_len))
        return metric._score(counts)


def _check_corpus_args(hyps: Any, refs: Any) -> None:
    check_corpus_args("BLEU", hyps, refs)


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                smooth_method: str = "exp", smooth_value: float | None = None,
                force: bool = False, lowercase: bool = False, tokenize: str = TOKENIZER_DEFAULT,
                use_effective_order: bool = False) -> BLEUScore:
    """sacreBLEU's ``corpus_bleu`` compat function."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                    smooth_value: float | None = 0.1) -> BLEUScore:
    """sacreBLEU's ``raw_corpus_bleu``: no tokenization, floor smoothing, forced."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value,
                       force=True, tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[str], smooth_method: str = "exp",
                  smooth_value: float | None = None, lowercase: bool = False,
                  tokenize: str = TOKENIZER_DEFAULT, use_effective_order: bool = True) -> BLEUScore:
    """sacreBLEU's ``sentence_bleu`` compat function (effective order on by default)."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)
