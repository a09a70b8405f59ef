"""Drop-in replacement for ``nltk.translate.bleu_score`` (NLTK 3.10.4), computed by evalfw's
components: counter ``clipped`` (total_floor 1), penalty ``closest`` (formula ``nltk``), the
``method0``..``method7`` smoothers and mean ``nltk``. Change one import and get the same
numbers, types (int 0 vs float, list vs scalar), warnings and exceptions::

    from evalfw.compat.nltk import corpus_bleu, sentence_bleu, SmoothingFunction

Tokens are any hashable values (nothing is tokenized or lowercased); a string is a sequence of
characters, as in NLTK.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from evalfw.metrics.bleu.components import Counts, Smoothed
from evalfw.metrics.bleu.counting.clipped import Clipped
from evalfw.metrics.bleu.counting.kernel_stats import kernel_sums
from evalfw.metrics.bleu.families.brevity import Closest
from evalfw.metrics.bleu.families.nltk import (
    METHODS,
    NltkMean,
    NltkMethod6Error,
    NltkSmoother,
)
from evalfw.metrics.bleu.families.nltk_numbers import NltkContext, RawFraction
from evalfw.metrics.bleu.stats import SegmentStats

if TYPE_CHECKING:
    pass

__all__ = [
    "Fraction", "SmoothingFunction", "bleu", "brevity_penalty", "closest_ref_length",
    "corpus_bleu", "modified_precision", "sentence_bleu",
]

#: NLTK's name for its raw-count Fraction subclass.
Fraction = RawFraction

_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_LENGTH_MESSAGE = "The number of hypotheses and their reference(s) should be the same "

Tokens = Sequence[Hashable]


@cache
def _counter() -> Clipped:
    return Clipped(total_floor=1)


@cache
def _penalty() -> Closest:
    return Closest(formula="nltk")


@cache
def _mean(auto_reweigh: bool) -> NltkMean:
    return NltkMean(auto_reweigh=auto_reweigh)


@lru_cache(maxsize=256)
def _smoother(number: int, options: tuple[tuple[str, type, Any], ...]) -> NltkSmoother:
    # The value's type is part of the key: alpha=5 and alpha=5.0 hash alike but compute
    # Fractions vs floats.
    return METHODS[number](**{key: value for key, _, value in options})


def _count(list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens],
           orders: int) -> SegmentStats:
    """Per-segment statistics from the clipped counter."""
    width = max(len(refs) for refs in list_of_references)
    streams = [[refs[k] if k < len(refs) else None for refs in list_of_references]
               for k in range(width)]
    index = _counter().index_references(streams, orders)
    return _counter().count(hypotheses, index)


def _sums(stats: SegmentStats) -> tuple[list[int], list[int], int, int]:
    """Corpus matches and totals per order, hypothesis and closest reference length; from
    the kernel's sums when it counted (no numpy), else from the arrays."""
    summed = kernel_sums(stats, _penalty())
    if summed is not None:
        s, ref_len = summed
        return list(s.matches), list(s.totals), s.hyp_len, ref_len
    chosen = _penalty().choose_ref_len(stats.hyp_len, stats.ref_lens)
    return (stats.matches.sum(axis=0).tolist(), stats.totals.sum(axis=0).tolist(),
            int(stats.hyp_len.sum()), int(chosen.sum()))


def _one_segment(references: Sequence[Tokens], hypothesis: Tokens,
                 orders: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    matches, totals, _ = _count([references], [hypothesis], orders).last_row()
    return matches, totals


def modified_precision(references: Sequence[Tokens], hypothesis: Tokens, n: int) -> RawFraction:
    """Clipped n-gram precision of one hypothesis as a Fraction of the raw counts
    (numerator: clipped matches; denominator: max(1, n-grams in the hypothesis))."""
    if n < 1 or len(hypothesis) < n:
        return RawFraction(0, 1)
    if not references:
        raise KeyError(tuple(hypothesis[:n]))  # NLTK's failed lookup of the first n-gram
    matches, totals = _one_segment(references, hypothesis, n)
    return RawFraction(matches[n - 1], totals[n - 1])


def closest_ref_length(references: Sequence[Tokens], hyp_len: int) -> int:
    """Length of the reference closest to ``hyp_len`` (a tie goes to the shorter one)."""
    import numpy as np

    lengths = np.array([[len(r) for r in references]], dtype=np.int64)
    if lengths.shape[1] == 0:
        raise ValueError("min() arg is an empty sequence")
    return int(_penalty().choose_ref_len(np.array([hyp_len], dtype=np.int64), lengths)[0])


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float | int:
    """int 1 if hyp_len > closest_ref_len, int 0 if hyp_len == 0, else exp(1 - r/c)."""
    return _penalty().penalty(hyp_len, closest_ref_len)


def sentence_bleu(references: Sequence[Tokens], hypothesis: Tokens,
                  weights: Any = _DEFAULT_WEIGHTS,
                  smoothing_function: Callable[..., Any] | None = None,
                  auto_reweigh: bool = False) -> float | int | list[float | int]:
    """BLEU of one hypothesis: exactly ``corpus_bleu([references], [hypothesis], ...)``."""
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


bleu = sentence_bleu


def _weight_list(weights: Any) -> Any:
    try:  # NLTK's test: indexable twice means a list of weight tuples
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    return weights


def _check_references(list_of_references: Sequence[Sequence[Tokens]],
                      hypotheses: Sequence[Tokens], orders: int) -> None:
    """The exceptions NLTK raises, segment by segment, for a segment without references."""
    for refs, hyp in zip(list_of_references, hypotheses):
        if len(refs) == 0:
            if orders >= 1 and len(hyp) >= 1:
                raise KeyError(tuple(hyp[:1]))  # from modified_precision
            raise ValueError("min() arg is an empty sequence")  # from closest_ref_length


def corpus_bleu(list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens],
                weights: Any = _DEFAULT_WEIGHTS,
                smoothing_function: Callable[..., Any] | None = None,
                auto_reweigh: bool = False) -> float | int | list[float | int]:
    """Corpus BLEU as NLTK computes it: n-gram counts and lengths summed over segments, one
    brevity penalty from the sums, smoothing applied once to the corpus precisions."""
    assert len(list_of_references) == len(hypotheses), _LENGTH_MESSAGE
    weights = _weight_list(weights)
    orders = max(len(w) for w in weights)
    _check_references(list_of_references, hypotheses, orders)

    if hypotheses:
        stats = _count(list_of_references, hypotheses, orders)
        sum_m, sum_t, hyp_len, ref_len = _sums(stats)
    else:
        sum_m, sum_t, hyp_len, ref_len = [0] * orders, [0] * orders, 0, 0
    bp = brevity_penalty(ref_len, hyp_len)
    # Built before the zero test, so an empty corpus raises ZeroDivisionError as in NLTK.
    p_n = [RawFraction(m, t) for m, t in zip(sum_m, sum_t)]
    counts = Counts(tuple(sum_m), tuple(sum_t), hyp_len, ref_len, len(hypotheses))
    mean = _mean(bool(auto_reweigh))
    if not sum_m or sum_m[0] == 0:  # the int 0 short circuit: nothing is smoothed
        smoothed = Smoothed(tuple(p_n), counts.matches, counts.totals)
    else:
        smoothed = _smooth(smoothing_function or SmoothingFunction().method0, p_n, counts,
                           list_of_references, hypotheses, stats)
    scores = list(mean.combine(smoothed, counts, bp, weights))
    return scores[0] if len(weights) == 1 else scores


def _smooth(fn: Callable[..., Any], p_n: list[RawFraction], counts: Counts,
            list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens],
            stats: SegmentStats) -> Smoothed:
    """Our methods run as engine smoothers on corpus counts; any other callable is called
    the way NLTK calls it (raw-count Fractions, the last segment, the corpus length)."""
    smoother = _our_method(fn)
    if smoother is None:
        result = fn(p_n, references=list_of_references[-1], hypothesis=hypotheses[-1],
                    hyp_len=counts.hyp_len)
        return Smoothed(tuple(result), counts.matches, counts.totals)
    need = smoother.needs_orders
    if need:
        if need <= counts.max_order:
            last_m, last_t, _ = stats.last_row()
            last_m, last_t = last_m[:need], last_t[:need]
        else:  # NLTK's method5 reads order 5 of the last segment whatever N is
            last_m, last_t = _one_segment(list_of_references[-1], hypotheses[-1], need)
        counts = Counts(counts.matches, counts.totals, counts.hyp_len, counts.ref_len,
                        counts.segments, tuple(last_m), tuple(last_t), len(hypotheses[-1]))
    try:
        return smoother.smooth(counts)
    except NltkMethod6Error as exc:  # NLTK's own AssertionError / IndexError
        raise exc.original from None


def _our_method(fn: Any) -> NltkSmoother | None:
    """The smoother behind ``SmoothingFunction(...).methodN`` (not a subclass override)."""
    owner = getattr(fn, "__self__", None)
    func = getattr(fn, "__func__", None)
    if not isinstance(owner, SmoothingFunction):
        return None
    for number in range(len(METHODS)):
        if func is getattr(SmoothingFunction, f"method{number}"):
            return owner._component(number)
    return None


class SmoothingFunction:
    """NLTK's smoothing methods (Chen & Cherry 2014 numbering), backed by evalfw's smoothers.

    Use a bound method as ``smoothing_function=`` or call it on a list of precisions
    (Fractions with raw counts, e.g. from :func:`modified_precision`); methods 3-7 change that
    list in place and return it, methods 0-2 return a new list, as in NLTK.
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def _component(self, number: int) -> NltkSmoother:
        names = METHODS[number].options_schema.get("properties", {})
        options = tuple((key, type(getattr(self, key)), getattr(self, key)) for key in names)
        return _smoother(number, options)

    def _apply(self, number: int, p_n: list[Any], references: Any = None, hypothesis: Any = None,
               hyp_len: int | None = None) -> list[Any]:
        ctx = None
        if number >= 4:
            ctx = NltkContext(hyp_len if hyp_len else len(hypothesis), lambda: len(hypothesis),
                              lambda: modified_precision(references, hypothesis, 5))
        return self._component(number).transform(p_n, ctx)

    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """No smoothing: zero orders become sys.float_info.min, with a UserWarning each."""
        return self._apply(0, p_n)

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Zero orders become (0 + epsilon) / n-gram count."""
        return self._apply(1, p_n)

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add one to the matches and n-gram counts of every order from 2 on."""
        return self._apply(2, p_n)

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """The c-th zero order becomes 1 / (2^c * n-gram count)."""
        return self._apply(3, p_n)

    def method4(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """The c-th zero order becomes ln(L) / (2^c * k) / n-gram count when L > 1."""
        return self._apply(4, p_n, references, hypothesis, hyp_len)

    def method5(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """Average each precision with its neighbours (order 5 of the last sentence after N)."""
        return self._apply(5, p_n, references, hypothesis, hyp_len)

    def method6(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """Interpolate orders >= 3 with the prior p(n-1)^2 / p(n-2) (Gao & He 2013)."""
        return self._apply(6, p_n, references, hypothesis, hyp_len)

    def method7(self, p_n: list[Any], references: Any, hypothesis: Any, hyp_len: int | None = None,
                *args: Any, **kwargs: Any) -> list[Any]:
        """method4, then method5."""
        return self._apply(7, p_n, references, hypothesis, hyp_len)
