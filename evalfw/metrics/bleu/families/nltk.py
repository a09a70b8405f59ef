"""NLTK 3.10.4's BLEU smoothing (``method0`` .. ``method7``) and its combiner (mean ``nltk``).

These reproduce ``nltk.translate.bleu_score`` bit for bit, quirks included, because users compare
numbers with it: method0's ``float_info.min`` and per-order UserWarning, method4's 2^c*K/ln L form
with the corpus hypothesis length, method5's averaging of precisions seeded with p1 + 1 and its
fixed order-5 look-ahead from the *last* segment, method6's assert on the trigram precision and
its IndexError below three orders, method7 = method4 then method5, the int 0 short circuit when
no unigram matched, dropping precisions that are still 0, ``math.fsum``, and auto_reweigh.

Each smoother's ``transform`` works on a list of precisions exactly like the NLTK method of the
same number (same reads of ``.numerator``/``.denominator``, same operation order, in-place
mutation for methods 3-7), so that ``evalfw.compat.nltk.SmoothingFunction`` can expose it
directly; ``smooth`` builds that list from engine counts. NLTK's counts must have totals >= 1
per segment (counter ``clipped`` with ``total_floor: 1``).
"""

from __future__ import annotations

import math
import sys
import warnings
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from evalfw.errors import ConfigError
from evalfw.metrics.bleu.components import Counts, Mean, Precision, Smoothed, Smoother
from evalfw.metrics.bleu.families.nltk_numbers import NltkContext, RawFraction
from evalfw.plugin import hookimpl

__all__ = ["METHODS", "NltkContext", "NltkMean", "NltkMethod6Error", "RawFraction"]

ZERO_ORDER_WARNING = (
    "\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
    "Therefore the BLEU score evaluates to 0, independently of\n"
    "how many N-gram overlaps of lower order it contains.\n"
    "Consider using lower n-gram order or use SmoothingFunction()"
)
METHOD6_MESSAGE = "This smoothing method requires non-zero precision for bigrams."


class NltkMethod6Error(ConfigError):
    """method6 cannot smooth these counts (fewer than 3 orders, or no trigram match). Carries
    NLTK's own exception in ``original`` so the compat layer can raise exactly that."""

    def __init__(self, message: str, original: Exception) -> None:
        super().__init__(message)
        self.original = original


class NltkSmoother(Smoother):
    """Common part: build NLTK's raw precisions and apply the short circuit."""

    scale = 1
    #: the number in NLTK's ``SmoothingFunction().method<N>``
    method_number: ClassVar[int]

    def smooth(self, counts: Counts) -> Smoothed:
        for n, total in enumerate(counts.totals, start=1):
            if total < 1:
                raise ConfigError(
                    f"smoothing '{self.name}' got {total} {n}-grams in total; NLTK counts at "
                    "least one n-gram per segment and order, so use precision 'clipped' with "
                    "total_floor: 1 (as the 'nltk' preset does) and a non-empty corpus"
                )
        p: list[Precision] = [RawFraction(int(m), int(t))
                              for m, t in zip(counts.matches, counts.totals)]
        # NLTK returns int 0 before smoothing when no unigram matched (the mean repeats that
        # test), so no method may warn or raise in that case.
        if p and counts.matches[0] != 0:
            p = self.transform(p, NltkContext.from_counts(counts))
        return Smoothed(tuple(p), tuple(counts.matches), tuple(counts.totals))

    @abstractmethod
    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        """NLTK's method on the list ``p`` (methods 3-7 change it in place and return it)."""


def _number_option(name: str, default: float, text: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False,
            "properties": {name: {"type": "number", "default": default, "description": text}}}


class Method0(NltkSmoother):
    """No smoothing: a zero-match order becomes float_info.min, with a UserWarning per order."""

    name = "method0"
    description = "NLTK method0: zero orders -> sys.float_info.min plus a UserWarning each"
    method_number = 0

    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        out: list[Any] = []
        for order, value in enumerate(p, start=1):
            if value.numerator != 0:
                out.append(value)
                continue
            warnings.warn(ZERO_ORDER_WARNING.format(order), UserWarning, stacklevel=2)
            out.append(sys.float_info.min)
        return out


class Method1(NltkSmoother):
    """Chen & Cherry smoothing 1: a zero-match order gets (0 + epsilon) / l_n (a float)."""

    name = "method1"
    description = "NLTK method1: zero orders -> epsilon / n-gram count"
    method_number = 1
    options_schema = _number_option("epsilon", 0.1, "value added to a zero match count")

    @property
    def max_precision(self) -> float:
        """epsilon / l_n with l_n >= 1: above 1 for an epsilon above 1."""
        return max(1.0, float(self.options["epsilon"]))

    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        eps = self.options["epsilon"]
        return [(v.numerator + eps) / v.denominator if v.numerator == 0 else v for v in p]


class Method2(NltkSmoother):
    """Lin & Och add-one: (m_n + 1) / (l_n + 1) for every order from 2 on, zero or not."""

    name = "method2"
    description = "NLTK method2: add one to matches and totals of orders >= 2"
    method_number = 2

    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        out = list(p[:1])
        out += [RawFraction(v.numerator + 1, v.denominator + 1) for v in p[1:]]
        return out


class Method3(NltkSmoother):
    """NIST geometric: the c-th zero-match order (c = 1, 2, ...) gets 1 / (2^c * l_n)."""

    name = "method3"
    description = "NLTK method3: zero orders -> 1 / (2^c * n-gram count) (mteval 'exp')"
    method_number = 3

    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        c = 1
        for i, v in enumerate(p):
            if v.numerator == 0:
                p[i] = 1 / (2**c * v.denominator)  # int product, one true division: as NLTK
                c += 1
        return p


class Method4(NltkSmoother):
    """NLTK's length-scaled variant: the c-th zero order gets (1 / (2^c * K / ln L)) / l_n when
    L > 1 (L = corpus hypothesis length); with L <= 1 zero orders stay 0."""

    name = "method4"
    description = "NLTK method4: zero orders -> ln(L) / (2^c * k * n-gram count), L = hyp length"
    method_number = 4
    options_schema = _number_option("k", 5, "NLTK's K (constant of the length scaling)")


    @property
    def max_precision(self) -> None:
        """No bound: 1 / (2^c K / ln L) over l_n exceeds 1 for a long corpus of short lines."""
        return None
    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        assert ctx is not None
        length, k = ctx.hyp_len, self.options["k"]
        c = 1
        for i, v in enumerate(p):
            if v.numerator == 0 and length > 1:
                p[i] = (1 / (2**c * k / math.log(length))) / v.denominator
                c += 1
        return p


class Method5(NltkSmoother):
    """Average with neighbours: p'_i = (p'_{i-1} + p_i + p_{i+1}) / 3 with p'_0 = p_1 + 1; the
    term after the last order is the last segment's order-5 precision, whatever N is."""

    name = "method5"
    description = "NLTK method5: average each precision with its neighbours (seed p1 + 1)"
    method_number = 5
    needs_orders = 5


    @property
    def max_precision(self) -> float:
        """Averages of precisions of at most 1, seeded with p1 + 1: at most (2 + 1 + 1) / 3."""
        return 4 / 3
    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        assert ctx is not None
        ahead = p + [ctx.order5()]  # a copy: the look-ahead reads pre-averaging values
        prev = p[0] + 1
        for i, v in enumerate(p):
            prev = (prev + v + ahead[i + 1]) / 3
            p[i] = prev
        return p


class Method6(NltkSmoother):
    """Gao & He interpolation from order 3: p'_n = (m_n + alpha * pi0) / (l + alpha), with
    pi0 = p'_{n-1}^2 / p'_{n-2} (0 if p'_{n-2} == 0) and l = n-grams of the *last* hypothesis.
    Needs N >= 3 (IndexError) and a non-zero trigram precision (AssertionError), as NLTK."""

    name = "method6"
    description = "NLTK method6: interpolate orders >= 3 with a p(n-1)^2/p(n-2) prior"
    method_number = 6
    needs_orders = 1  # reads the last hypothesis length
    options_schema = _number_option("alpha", 5, "weight of the prior")


    @property
    def max_precision(self) -> None:
        """No bound: a prior p_{n-1}^2 / p_{n-2} over the last hypothesis's n-grams."""
        return None
    def smooth(self, counts: Counts) -> Smoothed:
        try:
            return super().smooth(counts)
        except (AssertionError, IndexError) as exc:
            if isinstance(exc, IndexError):
                why = f"needs at least 3 n-gram orders but max_order is {counts.max_order}; " \
                      "raise max_order or"
            else:
                why = "needs at least one matching trigram in the corpus (NLTK asserts this) " \
                      "and there is none;"
            raise NltkMethod6Error(
                f"smoothing 'method6' {why} choose another smoothing (chen-cherry-6 is the "
                "paper's method and has neither restriction)", exc) from exc

    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        assert ctx is not None
        alpha = self.options["alpha"]
        if not p[2]:  # IndexError below three orders, as in NLTK
            raise AssertionError(METHOD6_MESSAGE)
        for i in range(2, len(p)):
            raw = p[i]
            pi0 = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
            grams = max(0, ctx.last_hyp_len() - i)
            p[i] = (raw.numerator + alpha * pi0) / (grams + alpha)
        return p


class Method7(NltkSmoother):
    """method4, then method5 on its output (mixed float/Fraction arithmetic)."""

    name = "method7"
    description = "NLTK method7: method4 followed by method5"
    method_number = 7
    needs_orders = 5
    options_schema = Method4.options_schema


    @property
    def max_precision(self) -> None:
        """No bound: method4, then method5."""
        return None
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._steps = (Method4(k=self.options["k"]), Method5())

    def transform(self, p: list[Any], ctx: NltkContext | None) -> list[Any]:
        for step in self._steps:
            p = step.transform(p, ctx)
        return p


METHODS: tuple[type[NltkSmoother], ...] = (
    Method0, Method1, Method2, Method3, Method4, Method5, Method6, Method7,
)

_REWEIGH_KEY = (0.25, 0.25, 0.25, 0.25)


class NltkMean(Mean):
    """NLTK's combination: int 0 per weight tuple when no unigram matched; otherwise, per tuple,
    bp * exp(fsum(w_n * log p_n)) over zip(weights, precisions), skipping p_n <= 0."""

    name = "nltk"
    description = "NLTK corpus_bleu combination (int 0 short circuit, fsum, auto_reweigh)"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object", "additionalProperties": False,
        "properties": {"auto_reweigh": {
            "type": "boolean", "default": False,
            "description": "NLTK auto_reweigh: uniform weights over c orders when the corpus has "
                           "c < 4 tokens and the weights are the tuple (0.25,)*4",
        }},
    }

    def check_weights(self, weights: Sequence[Sequence[float]]) -> str | None:
        """Any finite weights: this mean exists to reproduce NLTK, which gives a result for
        every finite weight vector (weights that do not sum to 1 included), so only infinities
        and NaN, where NLTK's own arithmetic breaks down, are refused."""
        for ws in weights:
            if not all(math.isfinite(w) for w in ws):
                return f"{list(ws)}: every weight must be a finite number"
        return None

    def max_score(self, max_precision: float | None,
                  weights: Sequence[Sequence[float]] | None) -> float | None:
        """NLTK takes any finite weights: with a negative one a small precision has no
        bound; with weights >= 0 of sum s (1 when auto_reweigh may apply) precisions of at
        most P give at most max(1, P)^s."""
        if max_precision is None or weights is not None and any(w < 0 for ws in weights
                                                                for w in ws):
            return None
        total = max([1.0, *(math.fsum(ws) for ws in weights or ())])
        return float(self.score_scale) * float(max(1.0, max_precision) ** total)

    def combine(self, smoothed: Smoothed, counts: Counts, bp: float | int,
                weights: Sequence[Sequence[float]] | None) -> tuple[float | int, ...]:
        order = counts.max_order
        weight_list = [(1 / order,) * order if order else ()] if weights is None else weights
        if not counts.matches or counts.matches[0] == 0:
            return (0,) * len(weight_list)
        length = counts.hyp_len
        reweigh = self.options["auto_reweigh"]
        scores: list[float | int] = []
        for w in weight_list:
            # `==` on the caller's object, as NLTK: a list never equals the tuple, and a numpy
            # array raises ValueError (checked only when the corpus is that short).
            if reweigh and length < 4 and w == _REWEIGH_KEY:
                w = (1 / length,) * length
            terms = (wi * math.log(pi) for wi, pi in zip(w, smoothed.precisions) if pi > 0)
            scores.append(bp * math.exp(math.fsum(terms)))
        return tuple(scores)


@hookimpl
def evalfw_register_smoothers() -> list[type[Smoother]]:
    return list(METHODS)


@hookimpl
def evalfw_register_means() -> list[type[Mean]]:
    return [NltkMean]
