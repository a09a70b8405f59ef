"""The BLEU engine: text -> per-segment statistics -> corpus or sentence scores.

Pure computation: no file I/O. Every component output is checked on the way through, so a
misbehaving plugin produces an error naming it instead of a plausible wrong number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from evalfw.errors import EvalfwError, InputError
from evalfw.metrics.bleu import _rows
from evalfw.metrics.bleu._checks import call as _call
from evalfw.metrics.bleu._checks import check_penalty, check_scores, check_smoothed
from evalfw.metrics.bleu._checks import fail as _fail
from evalfw.metrics.bleu.components import Counts
from evalfw.metrics.bleu.counting.kernel_stats import KernelStats, kernel_sums
from evalfw.metrics.bleu.result import BleuScore
from evalfw.metrics.bleu.spec import BleuSpec
from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats
from evalfw.plugin.boundary import readonly
from evalfw.tokenizers.base import gc_paused, supports_joined

if TYPE_CHECKING:
    import numpy as np

# numpy is imported inside the functions that need arrays: a corpus counted by the compiled
# kernel is scored from the kernel's sums (KernelStats.summary) without importing it.


def _failing_line(spec: BleuSpec, lines: Sequence[str]) -> int | None:
    """After a batch failed: the first line that fails alone (to name it in the error)."""
    for i, line in enumerate(lines):
        try:
            spec.tokenizer.tokenize([line])
        except Exception:
            return i
    return None


def tokenize(spec: BleuSpec, lines: Sequence[str]) -> list[list[str]]:
    """Lowercase (if asked) and tokenize a batch of lines."""
    if spec.lowercase:
        lines = [s.lower() for s in lines]
    try:
        out = spec.tokenizer.tokenize(lines)
    except EvalfwError:
        raise
    except Exception as exc:
        raise _fail(spec.tokenizer, f"raised {type(exc).__name__}: {exc} in tokenize()",
                    _failing_line(spec, lines)) from exc
    if not isinstance(out, list) or len(out) != len(lines):
        got = len(out) if isinstance(out, list) else type(out).__name__
        raise _fail(spec.tokenizer, f"returned {got} token lists for {len(lines)} lines")
    return out


def index_references(spec: BleuSpec, references: Sequence[Sequence[str | None]]) -> ReferenceIndex:
    """Tokenize and index reference streams (``references[k][i]``; ``None`` = no k-th ref)."""
    with gc_paused():  # token lists cannot form cycles: collecting them is wasted time
        return _index_references(spec, references)


def _index_references(spec: BleuSpec, references: Sequence[Sequence[str | None]]
                      ) -> ReferenceIndex:
    lines = len(references[0]) if references else 0
    if _joined_lane(spec) and _complete(references, lines):
        texts = [text for stream in references if (text := _tokenize_joined(spec, stream)) is not None]
        if len(texts) == len(references):
            index = spec.counter.index_joined(texts, lines, spec.count_orders,
                                                spec.tokenizer.joined_unit)
            if index is not None:
                return index
    streams: list[list[list[str] | None]] = []
    for stream in references:
        present = [(i, s) for i, s in enumerate(stream) if s is not None]
        toks = tokenize(spec, [s for _, s in present])
        full: list[list[str] | None] = [None] * len(stream)
        for (i, _), t in zip(present, toks):
            full[i] = t
        streams.append(full)
    indexed: ReferenceIndex = _call(spec.counter, "index_references", streams, spec.count_orders)
    return indexed


def _complete(streams: Sequence[Sequence[str | None]], lines: int) -> TypeGuard[Sequence[Sequence[str]]]:
    """Whether every stream has ``lines`` references, none of them missing."""
    return all(len(stream) == lines and None not in stream for stream in streams)


def segment_stats(spec: BleuSpec, hypotheses: Sequence[str], index: ReferenceIndex) -> SegmentStats:
    """Per-segment statistics of raw hypothesis lines against an indexed test set."""
    with gc_paused():  # the token lists live only until they are counted
        if _joined_lane(spec):
            text = _tokenize_joined(spec, hypotheses)
            stats = None if text is None else spec.counter.count_joined(
                text, len(hypotheses), index, spec.tokenizer.joined_unit)
            if stats is not None:
                check_stats(spec, stats, len(hypotheses))
                return stats
        return stats_from_tokens(spec, tokenize(spec, hypotheses), index)


def _joined_lane(spec: BleuSpec) -> bool:
    """Built-in tokenizer and counter: tokens travel as one text per batch, not as a list
    per line (same statistics; see ``BatchTokenizer.tokenize_joined``)."""
    return supports_joined(spec.tokenizer) and supports_joined(spec.counter)


def _tokenize_joined(spec: BleuSpec, lines: Sequence[str]) -> str | None:
    if spec.lowercase:
        lines = [s.lower() for s in lines]
    try:
        return spec.tokenizer.tokenize_joined(lines)
    except Exception:  # the list path runs the tokenizer again and reports the failure
        return None


def stats_from_tokens(spec: BleuSpec, hyp_tokens: Sequence[Sequence[Any]],
                      index: ReferenceIndex) -> SegmentStats:
    stats: SegmentStats = _call(spec.counter, "count", hyp_tokens, index)
    check_stats(spec, stats, len(hyp_tokens))
    return stats


def check_stats(spec: BleuSpec, stats: Any, n: int) -> None:
    comp = spec.counter
    if not isinstance(stats, SegmentStats):
        raise _fail(comp, f"returned {type(stats).__name__}, not SegmentStats")
    if len(stats) != n or stats.max_order < spec.count_orders:
        raise _fail(comp, f"returned statistics of shape {stats.matches.shape}, expected "
                          f"({n}, {spec.count_orders})")
    if isinstance(stats, KernelStats):  # the same checks, made by the kernel on its buffers
        if stats.summary().bad_row >= 0:
            raise _fail(comp, "returned negative counts or more matches than n-grams",
                        stats.summary().bad_row)
        return
    import numpy as np

    if (stats.matches < 0).any() or (stats.hyp_len < 0).any():
        row = int(np.argwhere((stats.matches < 0).any(axis=1) | (stats.hyp_len < 0))[0][0])
        raise _fail(comp, "returned negative counts", row)
    bad = stats.matches > stats.totals
    if bad.any():
        raise _fail(comp, "returned more matches than n-grams", int(np.argwhere(bad)[0][0]))


def chosen_ref_len(spec: BleuSpec, stats: SegmentStats) -> np.ndarray:
    import numpy as np

    ref = _call(spec.brevity_penalty, "choose_ref_len", readonly(stats.hyp_len),
                readonly(stats.ref_lens))
    ref = np.asarray(ref)
    if ref.shape != stats.hyp_len.shape:
        raise _fail(spec.brevity_penalty, f"chose reference lengths of shape {ref.shape}")
    return ref


def corpus_counts(spec: BleuSpec, stats: SegmentStats, ref_len: np.ndarray | None = None) -> Counts:
    if len(stats) == 0:
        raise InputError("no segments to score; the input is empty")
    n = spec.max_order
    last = spec.smoothing.needs_orders
    # the kernel's own sums when it counted (no numpy), else the arrays
    summed = kernel_sums(stats, spec.brevity_penalty) if ref_len is None else None
    last_m, last_t, last_h = stats.last_row()
    tail = (last_m[:last], last_t[:last]) if last else ((), ())
    if summed is not None:
        sm, ref_total = summed
        return Counts(sm.matches[:n], sm.totals[:n], sm.hyp_len, ref_total, len(stats), *tail,
                      last_h)
    if ref_len is None:
        ref_len = chosen_ref_len(spec, stats)
    if len(stats) == 1:  # one sentence: the row itself (numpy's sums cost more than scoring)
        return Counts(last_m[:n], last_t[:n], last_h, int(ref_len[0]), 1, *tail, last_h)
    return Counts(
        matches=tuple(stats.matches[:, :n].sum(axis=0).tolist()),
        totals=tuple(stats.totals[:, :n].sum(axis=0).tolist()),
        hyp_len=int(stats.hyp_len.sum()),
        ref_len=int(ref_len.sum()),
        segments=len(stats),
        last_matches=tail[0],
        last_totals=tail[1],
        last_hyp_len=last_h,
    )


def score_counts(spec: BleuSpec, counts: Counts, nrefs: int | str = 1,
                 segment: int | None = None) -> BleuScore:
    """Score from (corpus or segment) counts: penalty, smoothing, mean."""
    bp = check_penalty(spec, _call(spec.brevity_penalty, "penalty", counts.hyp_len,
                                   counts.ref_len, segment=segment), segment)
    smoothed = check_smoothed(spec, _call(spec.smoothing, "smooth", counts, segment=segment),
                              segment)
    scores = _call(spec.mean, "combine", smoothed, counts, bp, spec.weights, segment=segment)
    scores = tuple(scores)
    check_scores(spec, scores, segment)
    return BleuScore(
        score=scores[0],
        scores=scores,
        precisions=tuple(float(p) for p in smoothed.precisions),
        counts=smoothed.matches,
        totals=smoothed.totals,
        bp=bp,
        hyp_len=counts.hyp_len,
        ref_len=counts.ref_len,
        signature=spec.signature(nrefs),
        sacrebleu_signature=spec.foreign_signature(nrefs),
        score_scale=spec.mean.score_scale,
        precision_scale=spec.smoothing.scale,
    )


def count_refs(stats: SegmentStats) -> int | str:
    """Number of references per segment, or ``"var"`` when it varies (sacreBLEU's rule)."""
    if isinstance(stats, KernelStats):
        refs = stats.summary().refs
        return "var" if refs < 0 else refs
    per_seg = (stats.ref_lens >= 0).sum(axis=1)
    if len(per_seg) == 0:
        return 0
    return int(per_seg[0]) if (per_seg == per_seg[0]).all() else "var"


def corpus_score(spec: BleuSpec, stats: SegmentStats) -> BleuScore:
    return score_counts(spec, corpus_counts(spec, stats), count_refs(stats))


def segment_counts(spec: BleuSpec, stats: SegmentStats, i: int, ref_len: np.ndarray) -> Counts:
    n = spec.max_order
    last = spec.smoothing.needs_orders
    m = stats.matches[i].tolist()
    t = stats.totals[i].tolist()
    return Counts(
        matches=tuple(m[:n]), totals=tuple(t[:n]), hyp_len=int(stats.hyp_len[i]),
        ref_len=int(ref_len[i]), segments=1, last_matches=tuple(m[:last]),
        last_totals=tuple(t[:last]), last_hyp_len=int(stats.hyp_len[i]),
    )


def sentence_scores(spec: BleuSpec, stats: SegmentStats) -> list[BleuScore]:
    """One score per segment, each computed from that segment's statistics alone (all at once
    by the compiled formula where it applies: the same numbers)."""
    ref_len = chosen_ref_len(spec, stats)
    nrefs = count_refs(stats)
    rows = _segment_rows(spec, stats, ref_len)
    if rows is not None:
        return _rows.results(spec, rows, stats.hyp_len, ref_len, nrefs)
    return _generic(spec, stats, ref_len, nrefs)


def sentence_scores_generic(spec: BleuSpec, stats: SegmentStats) -> list[BleuScore]:
    """``score_counts`` on every segment: the definition the compiled rows equal."""
    return _generic(spec, stats, chosen_ref_len(spec, stats), count_refs(stats))


def _generic(spec: BleuSpec, stats: SegmentStats, ref_len: np.ndarray, nrefs: int | str
             ) -> list[BleuScore]:
    return [score_counts(spec, segment_counts(spec, stats, i, ref_len), nrefs, segment=i)
            for i in range(len(stats))]


def _segment_rows(spec: BleuSpec, stats: SegmentStats, ref_len: np.ndarray) -> _rows.Rows | None:
    n = spec.max_order
    return _rows.row_scores(spec, stats.hyp_len, ref_len, stats.matches[:, :n],
                            stats.totals[:, :n])


def sentence_score_values(spec: BleuSpec, stats: SegmentStats) -> np.ndarray:
    """Every segment's score as a float64 array, without building result objects (the
    same numbers as ``[s.score for s in sentence_scores(spec, stats)]``)."""
    ref_len = chosen_ref_len(spec, stats)
    rows = _segment_rows(spec, stats, ref_len)
    if rows is not None:
        return rows.scores
    import numpy as np

    scores = _generic(spec, stats, ref_len, count_refs(stats))
    return np.array([float(s.score) for s in scores], dtype=float)


__all__ = [
    "check_stats", "chosen_ref_len", "corpus_counts", "corpus_score", "count_refs",
    "index_references", "score_counts", "segment_counts", "segment_stats",
    "sentence_score_values", "sentence_scores", "sentence_scores_generic", "stats_from_tokens",
    "tokenize",
]
