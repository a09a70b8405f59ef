"""sacreBLEU's BLEU for the drop-in command line, without evalfw's BLEU engine.

``evalfw-sacrebleu`` on a few hundred lines spends most of its time starting: the engine
resolves its components through a plugin host (pluggy, ``dataclasses``, ``inspect``), which
costs several times the counting. For the command line's plain scores (corpus BLEU of each
system, or ``-sl`` sentence scores) this module tokenizes with the built-in tokenizer's class
(imported alone), counts with the compiled kernel's index and sums (``summarize``), and
applies sacreBLEU 2.6.0's ``compute_bleu`` to the sums. Bootstrap confidence and the paired
bootstrap draw sacreBLEU's resamples with the compiled bootstrap kernel
(:mod:`evalfw.compat._bleu_resampled`), also without numpy. Everything else (test sets,
references missing on some lines, no compiled kernel) takes :class:`evalfw.compat._bleu.BLEU`;
:func:`lean_bleu` says which. ``tests/compat/test_bleu_lean.py`` compares the two paths.
"""

from __future__ import annotations

from math import exp, log

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

from evalfw.compat._bleu_score import (
    LOG_ZERO, MAX_ORDER, SMOOTH_DEFAULTS, BLEUScore, BLEUSignature, check_lengths, signature,
    warn_tokenized)
from evalfw.compat._common import check_corpus_args

__all__ = ["bleu_fields", "compute_bleu", "lean_bleu", "LeanBLEU"]


def compute_bleu(correct: list[Any], total: list[Any], sys_len: int, ref_len: int,
                 smooth_method: str, smooth_value: float | None, effective_order: bool,
                 max_order: int = MAX_ORDER) -> BLEUScore:
    """sacreBLEU 2.6.0's ``BLEU.compute_bleu``, the same operations in the same order (add-k
    changes ``correct`` and ``total`` in place, as sacreBLEU's does)."""
    return BLEUScore(*bleu_fields(correct, total, sys_len, ref_len, smooth_method,
                                  smooth_value, effective_order, max_order))


def bleu_fields(correct: list[Any], total: list[Any], sys_len: int, ref_len: int,
                smooth_method: str, smooth_value: float | None, effective_order: bool,
                max_order: int = MAX_ORDER) -> tuple[Any, ...]:
    """:func:`compute_bleu`'s ``BLEUScore`` arguments: (score, counts, totals, precisions,
    bp, sys_len, ref_len). Per-call loops run it once per sentence, hence the locals."""
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    bp = 1.0
    if sys_len < ref_len:
        bp = exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * max_order
    if not any(correct):  # no match at all: BLEU 0 (sacreBLEU #141)
        return 0.0, correct, total, precisions, bp, sys_len, ref_len
    add_k = smooth_method == "add-k"
    halved = 1.0
    eff = max_order
    for n in range(max_order):
        if add_k and n > 0:
            correct[n] += smooth_value
            total[n] += smooth_value
        if total[n] == 0:
            break
        if effective_order:
            eff = n + 1
        if correct[n] == 0:
            if smooth_method == "exp":
                halved *= 2
                precisions[n] = 100. / (halved * total[n])
            elif smooth_method == "floor":
                precisions[n] = 100. * smooth_value / total[n]  # type: ignore[operator]
        else:
            precisions[n] = 100. * correct[n] / total[n]
    logs = [LOG_ZERO if p == 0.0 else log(p) for p in precisions[:eff]]
    return bp * exp(sum(logs) / eff), correct, total, precisions, bp, sys_len, ref_len


def _closest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """sacreBLEU's reference length of a segment: the closest, the shorter on ties."""
    best, gap = ref_lens[0], abs(ref_lens[0] - hyp_len)
    for r in ref_lens[1:]:
        d = abs(r - hyp_len)
        if d < gap or (d == gap and r < best):
            best, gap = r, d
    return best


class LeanBLEU:
    """The part of :class:`evalfw.compat._bleu.BLEU` the command line uses for plain scores:
    ``corpus_score`` against the references it was built with, ``sentence_scores`` of a whole
    system and ``get_signature``."""

    n_bootstrap: int | None = None
    seed: Any = None
    max_ngram_order = MAX_ORDER

    def __init__(self, tokenizer: Any, kernel: Any, index: Any, lines: int, nrefs: int,
                 options: dict[str, Any]) -> None:
        self._tokenizer = tokenizer
        self._kernel = kernel
        self._index = index
        self._lines = lines
        self.num_refs = nrefs
        self.lowercase: bool = options["lowercase"]
        self.smooth_method: str = options["smooth_method"]
        self.smooth_value: float | None = options["smooth_value"]
        self.effective_order: bool = options["effective_order"]
        self._force: bool = options["force"]
        self.tokenize: str = options["tokenize"]
        self.tokenizer_signature = tokenizer.sacrebleu_signature()

    def _counts(self, hypotheses: Sequence[str]) -> tuple[bytes, bytes]:
        check_corpus_args("BLEU", hypotheses, None)
        check_lengths(len(hypotheses), self._lines)
        warn_tokenized(hypotheses, self._force)
        lines = [h.lower() for h in hypotheses] if self.lowercase else hypotheses
        text = self._tokenizer.tokenize_joined(lines)
        if text is None:
            raise RuntimeError("the tokenizer declined a batch it had accepted")
        return self._index.count(text, self._lines)  # type: ignore[no-any-return]

    def _score(self, hyp_len: bytes, matches: bytes) -> BLEUScore:
        summary = self._kernel.summarize(hyp_len, matches, self._index.ref_lens, self._lines,
                                         MAX_ORDER, self.num_refs, 0)
        sys_len, correct, total, ref_len = summary[:4]
        return compute_bleu(list(correct), list(total), sys_len, ref_len[0],
                            self.smooth_method, self.smooth_value, self.effective_order)

    def corpus_score(self, hypotheses: Sequence[str], references: None = None,
                     n_bootstrap: int = 1) -> BLEUScore:
        """The corpus score; with ``n_bootstrap`` > 1 also sacreBLEU's bootstrap mean and
        half-width (seeded by ``$SACREBLEU_SEED``), without numpy."""
        if references is not None:
            raise ValueError("LeanBLEU scores against its own references")
        if n_bootstrap <= 1:
            return self._score(*self._counts(hypotheses))
        from evalfw.analysis import sacrebleu_lean
        from evalfw.compat.sacrebleu._paired import environment_seed, environment_seed_label

        rows, score = self.resampling_input(hypotheses)
        seed = environment_seed()
        scores = self.resampled_scores(rows, sacrebleu_lean.seed_words(seed), n_bootstrap)
        score._mean, score._ci = sacrebleu_lean.confidence(scores)
        self.n_bootstrap, self.seed = n_bootstrap, environment_seed_label()
        return score

    def _per_segment(self, hyp_len: bytes, matches: bytes
                     ) -> tuple[list[int], list[int], list[int]]:
        """The kernel's counts as lists: each segment's length, its MAX_ORDER matches (flat)
        and its closest reference length, as sacreBLEU picks it."""
        lens = memoryview(hyp_len).cast("q").tolist()
        refs = memoryview(self._index.ref_lens).cast("q").tolist()
        r = self.num_refs
        closest = [_closest(n, refs[i * r:(i + 1) * r]) for i, n in enumerate(lens)]
        return lens, memoryview(matches).cast("q").tolist(), closest

    def resampling_input(self, hypotheses: Sequence[str]) -> tuple[bytes, BLEUScore]:
        """The int64 statistics rows of ``hypotheses`` (sacreBLEU's layout) and their score."""
        from evalfw.compat._bleu_resampled import segment_rows

        hyp_len, matches = self._counts(hypotheses)
        rows = segment_rows(*self._per_segment(hyp_len, matches))
        return rows, self._score(hyp_len, matches)

    def resampled_scores(self, rows: bytes, words: tuple[int, int, int, int],
                         n: int) -> list[float]:
        """sacreBLEU's bootstrap scores of ``n`` resamples of ``rows`` drawn with PCG64 seed
        ``words``."""
        from evalfw.compat._bleu_resampled import resampled_bleu

        return resampled_bleu(rows, n, words, self.smooth_method, self.smooth_value,
                              self.effective_order)

    def sentence_scores(self, hypotheses: Sequence[str]) -> list[BLEUScore]:
        """``sentence_score`` of every line against its references, in order."""
        lens, counts, closest = self._per_segment(*self._counts(hypotheses))
        return [compute_bleu(counts[i * MAX_ORDER:(i + 1) * MAX_ORDER],
                             [max(n - k, 0) for k in range(MAX_ORDER)], n, closest[i],
                             self.smooth_method, self.smooth_value, self.effective_order)
                for i, n in enumerate(lens)]

    def get_signature(self) -> BLEUSignature:
        return signature(self)


def lean_bleu(references: Sequence[Sequence[str | None]], options: dict[str, Any]
              ) -> LeanBLEU | None:
    """A :class:`LeanBLEU` of these reference streams under ``options`` (the drop-in BLEU's
    keyword arguments: ``tokenize``, ``lowercase``, ``force``, ``smooth_method``,
    ``smooth_value``, ``effective_order``), or None where it does not apply: a tokenizer that is
    not a built-in with the joined lane, no compiled kernel, a missing reference."""
    from evalfw.metrics.bleu.counting import kernel as counting
    from evalfw.tokenizers import MODULES, builtin

    k = counting.kernel()
    name = options["tokenize"]
    if k is None or name not in MODULES or not references or \
            any(None in stream for stream in references):
        return None
    cls = builtin(name)
    if vars(cls).get("joined") is not True:
        return None
    tokenizer = cls()
    lines = len(references[0])
    texts = []
    for stream in references:
        if len(stream) != lines:
            return None
        text = tokenizer.tokenize_joined([r.lower() for r in stream]  # type: ignore[union-attr]
                                         if options["lowercase"] else stream)
        if text is None:
            return None
        texts.append(text)
    try:
        index = k.Index(texts, lines, MAX_ORDER, tokenizer.joined_unit == "char")
    except ValueError:
        return None
    return LeanBLEU(tokenizer, k, index, lines, len(references), options)
