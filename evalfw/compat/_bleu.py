"""sacreBLEU 2.6.0's BLEU API (``BLEU``, ``BLEUScore``, ``BLEUSignature``, ``corpus_bleu``,
``raw_corpus_bleu``, ``sentence_bleu``) over evalfw's BLEU engine; users import it from
:mod:`evalfw.compat.sacrebleu` (or its ``metrics`` modules), as they import sacreBLEU.

A ``BLEU`` object is the engine's spec of the ``sacrebleu`` preset with its options: corpus
scores come from :mod:`evalfw.metrics.bleu.engine`, sentence scores from
:class:`evalfw.metrics.bleu.sentence.SentenceScorer`, bootstrap intervals from
:mod:`evalfw.analysis.sacrebleu_mode`. Same numbers, fields, signature and ``str()`` as
sacreBLEU. One deliberate difference: a hypothesis/reference count mismatch raises
``evalfw.errors.InputError`` instead of being silently truncated by ``zip``.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from typing import Any

from evalfw.compat._common import SacreMetric, SacreScore, SacreSignature, warn
from evalfw.errors import InputError
from evalfw.host.host import PluginHost
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.metric import Bleu
from evalfw.metrics.bleu.result import BleuScore
from evalfw.metrics.bleu.sentence import SentenceScorer
from evalfw.metrics.bleu.spec import resolve_spec
from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats
from evalfw.metrics.bleu.text import verbose_text
from evalfw.tokenizers._spm_models import NoSentencePiece

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "corpus_bleu", "raw_corpus_bleu",
           "sentence_bleu"]

TOKENIZER_DEFAULT = "13a"
TOKENIZER_BY_LANG = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}
#: sacreBLEU's words when ``tokenize="spm"`` (its TokenizerSPM logs them as it is built)
SPM_RENAMED = "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."
#: sacreBLEU's ImportError when a SentencePiece tokenizer has no ``sentencepiece`` package
SPM_MISSING = ("\n\nPlease install the sentencepiece library for SPM tokenization:"
               "\n\n  pip install sentencepiece ")
SMOOTH_DEFAULTS: dict[str, float | int | None] = {"none": None, "floor": 0.1, "add-k": 1,
                                                   "exp": None}


@functools.cache
def _host() -> PluginHost:
    # Built-ins only: a drop-in for sacreBLEU must not change with installed plugins.
    return PluginHost.create(autoload=False)


class BLEUScore(SacreScore):
    """sacreBLEU's ``BLEUScore``: same fields, ``format()`` and ``str()``."""

    def __init__(self, score: float, counts: list[Any], totals: list[Any],
                 precisions: list[float], bp: float, sys_len: int, ref_len: int) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.ratio = sys_len / ref_len if ref_len else 0

    # Formatted on first use: loops that score one sentence per call read only ``score``.
    @property
    def prec_str(self) -> str:
        return "/".join(f"{p:.1f}" for p in self.precisions)

    @property
    def _verbose(self) -> str:  # type: ignore[override]
        return verbose_text(self.precisions, self.bp, self.ratio, self.sys_len, self.ref_len)

    @classmethod
    def of(cls, result: BleuScore) -> BLEUScore:
        return cls(result.score, list(result.counts), list(result.totals),
                   list(result.precisions), result.bp, result.hyp_len, result.ref_len)


class BLEUSignature(SacreSignature):
    """sacreBLEU's signature: ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""

    _ABBR = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "case": "c", "eff": "e",
             "tok": "tok", "smooth": "s", "version": "v"}


class BLEU(SacreMetric):
    """sacreBLEU's ``BLEU`` metric with the same constructor, methods and defaults."""

    SMOOTH_DEFAULTS = SMOOTH_DEFAULTS
    TOKENIZER_DEFAULT = TOKENIZER_DEFAULT
    _metric: Bleu

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
        if tokenize is None:
            tokenize = TOKENIZER_BY_LANG.get(trg_lang, TOKENIZER_DEFAULT)
        elif trg_lang in TOKENIZER_BY_LANG and tokenize != TOKENIZER_BY_LANG[trg_lang]:
            warn(f"Consider using the '{TOKENIZER_BY_LANG[trg_lang]}' or 'spm' tokenizer for "
                 f"{LANGUAGE_NAMES[trg_lang]}.")
        self.tokenize = tokenize
        smoothing: dict[str, Any] = {"name": smooth_method}
        if SMOOTH_DEFAULTS[smooth_method] is not None and smooth_value is not None:
            smoothing["value"] = smooth_value
        if tokenize == "spm":
            warn(SPM_RENAMED)
        with warnings.catch_warnings():  # the engine's own words for it: sacreBLEU's are above
            warnings.filterwarnings("ignore", "tokenizer 'spm'", FutureWarning)
            try:
                self._spec = resolve_spec(_host(), preset="sacrebleu", tokenizer=tokenize,
                                          smoothing=smoothing, max_order=max_ngram_order,
                                          lowercase=lowercase, effective_order=effective_order)
            except NoSentencePiece:
                raise ImportError(SPM_MISSING) from None
        self._metric = Bleu(self._spec)
        self.tokenizer_signature = self._spec.tokenizer.sacrebleu_signature()
        self._sentences = SentenceScorer(self._spec)
        if references is not None:
            self._ref_cache = self._index(references)

    def _index(self, references: Sequence[Sequence[str | None]]) -> ReferenceIndex:
        index = engine.index_references(self._spec, references)
        counted = [sum(stream[i] is not None for stream in references)
                   for i in range(index.segments)]
        if 0 in counted:  # sacreBLEU fails on it with a TypeError: the same type, said plainly
            raise TypeError(f"BLEU: segment {counted.index(0) + 1} has no reference (every "
                            "reference stream holds None there)")
        per_seg = set(counted)
        self.num_refs = per_seg.pop() if len(per_seg) == 1 else -1
        return index

    def _stats(self, hypotheses: Sequence[str],
               references: Sequence[Sequence[str | None]] | None) -> SegmentStats:
        index = self._references(references)
        if len(hypotheses) != index.segments:
            raise InputError(
                f"{len(hypotheses)} hypotheses but {index.segments} reference segments; "
                "sacreBLEU would silently truncate to the shorter one, evalfw refuses")
        if not self._force and sum(h.endswith(" .") for h in hypotheses) >= 100:
            warn("That's 100 lines that end in a tokenized period ('.')")
            warn("It looks like you forgot to detokenize your test data, which may hurt your "
                 "score.")
            warn("If you insist your data is detokenized, or don't care, you can suppress "
                 "this message with the `force` parameter.")
        return engine.segment_stats(self._spec, hypotheses, index)

    def _rows(self, stats: Any) -> Any:
        return self._metric.rows(stats)

    def _result(self, stats: Any) -> BLEUScore:
        return BLEUScore.of(engine.corpus_score(self._spec, stats))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        self._check_sentence_args(hypothesis, references)
        found = self._sentences.fields(hypothesis, references)
        if found is None:  # the general path computes the same numbers
            general: BLEUScore = super().sentence_score(hypothesis, references)
            return general
        score, matches, totals, precisions, bp, hyp_len, ref_len, self.num_refs = found
        return BLEUScore(score, list(matches), list(totals), list(precisions), bp, hyp_len,
                         ref_len)

    def get_signature(self) -> BLEUSignature:
        smooth = self.smooth_method
        if SMOOTH_DEFAULTS[smooth] is not None:
            value = self.smooth_value if self.smooth_value is not None else \
                SMOOTH_DEFAULTS[smooth]
            smooth += f"[{value:.2f}]"
        return BLEUSignature.of(self, case="lc" if self.lowercase else "mixed",
                                eff=self.effective_order, tok=self.tokenizer_signature,
                                smooth=smooth)

    @staticmethod
    def compute_bleu(correct: list[int], total: list[int], sys_len: int, ref_len: int,
                     smooth_method: str = "none", smooth_value: float | None = None,
                     effective_order: bool = False, max_ngram_order: int = 4) -> BLEUScore:
        """sacreBLEU's static ``compute_bleu`` (note its default smoothing is ``none``)."""
        spec = BLEU(tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value,
                    effective_order=effective_order, max_ngram_order=max_ngram_order)._spec
        counts = Counts(tuple(correct[:max_ngram_order]), tuple(total[:max_ngram_order]),
                        int(sys_len), int(ref_len))
        return BLEUScore.of(engine.score_counts(spec, counts))


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                smooth_method: str = "exp", smooth_value: float | None = None,
                force: bool = False, lowercase: bool = False, tokenize: str = TOKENIZER_DEFAULT,
                use_effective_order: bool = False) -> BLEUScore:
    """sacreBLEU's ``corpus_bleu`` compat function."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    score: BLEUScore = metric.corpus_score(hypotheses, references)
    return score


def raw_corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                    smooth_value: float | None = 0.1) -> BLEUScore:
    """sacreBLEU's ``raw_corpus_bleu``: no tokenization, floor smoothing, forced."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value,
                       force=True, tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[str], smooth_method: str = "exp",
                  smooth_value: float | None = None, lowercase: bool = False,
                  tokenize: str = TOKENIZER_DEFAULT, use_effective_order: bool = True
                  ) -> BLEUScore:
    """sacreBLEU's ``sentence_bleu`` compat function (effective order on by default)."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, smooth_method=smooth_method,
                  smooth_value=smooth_value, effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)
