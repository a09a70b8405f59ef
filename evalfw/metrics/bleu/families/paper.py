"""The seven smoothing techniques of Chen & Cherry (2014) as the paper defines them, the
unsmoothed ``plain`` precisions, and the weighted geometric mean ``geometric``.

Boxing Chen and Colin Cherry. 2014. A Systematic Comparison of Smoothing Techniques for
Sentence-Level BLEU. WMT 2014. NLTK's ``method1``..``method7`` carry the same numbers but differ
from the paper in methods 4-7 (see ``evalfw.metrics.bleu.families.nltk``); these are the paper's.

Notation: m_n = clipped matches and l_n = hypothesis n-grams of order n (as the counter counts
them), N = number of orders, len(T) = hypothesis length. Each technique replaces some m_n by a
smoothed count m~_n and sets p_n = m~_n / l_n, kept as an exact Fraction wherever the formula is
rational (floats only where epsilon or a logarithm enters).

Corpus-level interpretation (the paper is about single sentences): the sentence formulas are
applied to the counts given, i.e. corpus sums of m_n and l_n and the corpus hypothesis length.
Two choices the paper leaves open:

- an order with no hypothesis n-grams (l_n = 0) has nothing to smooth: its precision is 0 and
  the counters of techniques 3, 4 and 7 do not advance (use the mean's ``effective_order`` to
  leave such orders out); technique 2's and 6's formulas are defined there and are used as is;
- technique 5 needs m_{N+1}. For a single segment (sentence scores, or a one-segment corpus)
  it is read from the segment's statistics, which the engine supplies up to order 5
  (``needs_orders``), enough for BLEU-1..4; otherwise (several segments, or N >= 5) no such
  count exists and m_{N+1} is taken as 0.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

from evalfw.metrics.bleu.components import Counts, Mean, Precision, Smoothed, Smoother
from evalfw.plugin import hookimpl

Count = Fraction | float | int

#: orders of the last segment the look-ahead of technique 5 can use
_LOOKAHEAD_ORDERS = 5


def _ratio(count: Count, total: int) -> Precision:
    """count / total; 0 when there are no n-grams (0/0 is not a precision)."""
    if total == 0:
        return Fraction(0)
    return count / total if isinstance(count, float) else Fraction(count) / total


def _options(**props: tuple[str, Any, str]) -> dict[str, Any]:
    schema = {key: {"type": t, "default": d, "description": text}
              for key, (t, d, text) in props.items()}
    return {"type": "object", "additionalProperties": False, "properties": schema}


class PaperSmoother(Smoother):
    """Base of the paper family: precisions on a 0-1 scale."""

    scale = 1


class CountSmoother(PaperSmoother):
    """A technique that replaces match counts: precisions are m~_n / l_n."""

    def smooth(self, counts: Counts) -> Smoothed:
        smoothed = self.counts(counts)
        totals = tuple(int(t) for t in counts.totals)
        precisions = tuple(_ratio(m, t) for m, t in zip(smoothed, totals))
        return Smoothed(precisions, tuple(int(m) for m in counts.matches), totals)

    @abstractmethod
    def counts(self, counts: Counts) -> list[Count]:
        """The smoothed match count m~_n of every order."""


class Plain(CountSmoother):
    """No smoothing: p_n = m_n / l_n (0 when l_n = 0)."""

    name = "plain"
    description = "no smoothing: p_n = matches / n-grams (0/0 -> 0)"

    def counts(self, counts: Counts) -> list[Count]:
        return [int(m) for m in counts.matches]


class Epsilon(CountSmoother):
    """Smoothing 1: a zero m_n becomes epsilon, so p_n = epsilon / l_n."""

    name = "chen-cherry-1"
    description = "Chen & Cherry (2014) smoothing 1: zero matches -> epsilon"
    options_schema = _options(epsilon=("number", 0.1, "the count given to a zero-match order"))

    @property
    def max_precision(self) -> float:
        """epsilon / l_n with l_n >= 1: above 1 for an epsilon above 1."""
        return max(1.0, float(self.options["epsilon"]))

    def counts(self, counts: Counts) -> list[Count]:
        eps = float(self.options["epsilon"])
        return [int(m) if m else eps for m in counts.matches]


class AddOne(PaperSmoother):
    """Smoothing 2 (Lin & Och 2004): p_1 = m_1 / l_1; p_n = (m_n + 1) / (l_n + 1) for n >= 2."""

    name = "chen-cherry-2"
    description = "Chen & Cherry (2014) smoothing 2: add one to matches and n-grams, n >= 2"

    def smooth(self, counts: Counts) -> Smoothed:
        add = [0] + [1] * (counts.max_order - 1) if counts.max_order else []
        m = tuple(int(x) + a for x, a in zip(counts.matches, add))
        t = tuple(int(x) + a for x, a in zip(counts.totals, add))
        return Smoothed(tuple(_ratio(x, y) for x, y in zip(m, t)), m, t)


def _geometric_counts(matches: Sequence[int], totals: Sequence[int],
                      step: Any) -> list[Count]:
    """Techniques 3 and 4: invcnt starts at 1 and is multiplied by ``step`` at every zero-match
    order (that has n-grams); that order's count becomes 1 / invcnt."""
    out: list[Count] = []
    invcnt: Count = 1
    for m, t in zip(matches, totals):
        if m == 0 and t > 0:
            invcnt = invcnt * step
            out.append(1 / invcnt if isinstance(invcnt, float) else Fraction(1, invcnt))
        else:
            out.append(int(m))
    return out


class NistGeometric(CountSmoother):
    """Smoothing 3 (mteval-v13a): invcnt = 1; for each zero-match order in turn,
    invcnt *= 2 and m~_n = 1 / invcnt, so p_n = 1 / (2^c * l_n) for the c-th such order."""

    name = "chen-cherry-3"
    description = "Chen & Cherry (2014) smoothing 3: NIST geometric (1/2, 1/4, ... matches)"

    def counts(self, counts: Counts) -> list[Count]:
        return _geometric_counts(counts.matches, counts.totals, 2)


def _length_scaled(counts: Counts, k: float) -> list[Count]:
    """Smoothing 4's counts over the orders given (shared with technique 7)."""
    length = counts.hyp_len
    if length <= 1:  # K / ln(len(T)) is infinite (or undefined): the limit is a zero count
        return [int(m) if m or not t else 0.0 for m, t in zip(counts.matches, counts.totals)]
    return _geometric_counts(counts.matches, counts.totals, k / math.log(length))


class LengthScaled(CountSmoother):
    """Smoothing 4: as smoothing 3 with invcnt = invcnt * K / ln(len(T)), compounding, so the
    c-th zero order gets p_n = (ln len(T) / K)^c / l_n. For len(T) <= 1 the factor is infinite
    and zero orders stay 0."""

    name = "chen-cherry-4"
    description = "Chen & Cherry (2014) smoothing 4: geometric with K / ln(hypothesis length)"
    options_schema = _options(k=("number", 5, "the constant K"))


    @property
    def max_precision(self) -> None:
        """No bound: (ln len(T) / K)^c may exceed l_n."""
        return None
    def counts(self, counts: Counts) -> list[Count]:
        return _length_scaled(counts, self.options["k"])


def _lookahead(counts: Counts) -> tuple[int, int]:
    """(m_{N+1}, l_{N+1}), or (0, 0) where no such count exists (see the module docstring)."""
    n = counts.max_order
    if counts.segments == 1 and len(counts.last_matches) > n:
        return int(counts.last_matches[n]), int(counts.last_totals[n])
    return 0, 0


def _averaged(m: Sequence[Count]) -> list[Count]:
    """Smoothing 5's recursion over m_1..m_{N+1}: m'_0 = m_1 + 1 and
    m'_n = (m'_{n-1} + m_n + m_{n+1}) / 3 for n = 1..N."""
    prev: Count = m[0] + 1
    out: list[Count] = []
    for n in range(len(m) - 1):
        total = prev + m[n] + m[n + 1]
        prev = total / 3 if isinstance(total, float) else Fraction(total) / 3
        out.append(prev)
    return out


class Neighbours(CountSmoother):
    """Smoothing 5: m'_0 = m_1 + 1, m'_n = (m'_{n-1} + m_n + m_{n+1}) / 3, p_n = m'_n / l_n."""

    name = "chen-cherry-5"
    description = "Chen & Cherry (2014) smoothing 5: average matches with neighbouring orders"
    needs_orders = _LOOKAHEAD_ORDERS


    @property
    def max_precision(self) -> None:
        """No bound: counts averaged over orders, divided by a later order's l_n."""
        return None
    def counts(self, counts: Counts) -> list[Count]:
        if not counts.matches:
            return []
        return _averaged([int(x) for x in counts.matches] + [_lookahead(counts)[0]])


class Interpolated(PaperSmoother):
    """Smoothing 6 (Gao & He 2013): p_1, p_2 unsmoothed; for n >= 3,
    p_n = (m_n + alpha * p0_n) / (l_n + alpha) with the prior p0_n = p_{n-1}^2 / p_{n-2}
    (0 when p_{n-2} = 0), p_{n-1} and p_{n-2} being the smoothed values."""

    name = "chen-cherry-6"
    description = "Chen & Cherry (2014) smoothing 6: interpolate with a p(n-1)^2/p(n-2) prior"
    options_schema = _options(alpha=("number", 5, "weight of the prior"))


    @property
    def max_precision(self) -> None:
        """No bound: the prior p_{n-1}^2 / p_{n-2} has none."""
        return None
    def smooth(self, counts: Counts) -> Smoothed:
        alpha = self.options["alpha"]
        p: list[Precision] = []
        for n, (m, t) in enumerate(zip(counts.matches, counts.totals)):
            m, t = int(m), int(t)
            if n < 2:
                p.append(_ratio(m, t))
                continue
            prior = 0 if p[n - 2] == 0 else p[n - 1] ** 2 / p[n - 2]
            denom = t + alpha
            p.append((m + alpha * prior) / denom if denom else Fraction(0))
        return Smoothed(tuple(p), tuple(int(x) for x in counts.matches),
                        tuple(int(x) for x in counts.totals))


class LengthScaledNeighbours(CountSmoother):
    """Smoothing 7: smoothing 4's counts (orders 1..N+1), then smoothing 5's averaging."""

    name = "chen-cherry-7"
    description = "Chen & Cherry (2014) smoothing 7: smoothing 4, then smoothing 5"
    needs_orders = _LOOKAHEAD_ORDERS
    options_schema = LengthScaled.options_schema


    @property
    def max_precision(self) -> None:
        """No bound: smoothing 4, then 5."""
        return None
    def counts(self, counts: Counts) -> list[Count]:
        if not counts.matches:
            return []
        m_next, l_next = _lookahead(counts)
        extended = Counts(counts.matches + (m_next,), counts.totals + (l_next,), counts.hyp_len,
                          counts.ref_len)
        return _averaged(_length_scaled(extended, self.options["k"]))


SMOOTHERS: tuple[type[PaperSmoother], ...] = (
    Plain, Epsilon, AddOne, NistGeometric, LengthScaled, Neighbours, Interpolated,
    LengthScaledNeighbours,
)


class GeometricMean(Mean):
    """score = bp * exp(fsum(w_n * log p_n)); 0.0 when a weighted p_n is 0 (or no order is
    left). ``weights=None`` means uniform weights over the orders."""

    name = "geometric"
    description = "weighted geometric mean of precisions times the brevity penalty"
    options_schema: ClassVar[dict[str, Any]] = _options(
        effective_order=("boolean", False, "leave out orders without hypothesis n-grams and "
                         "rescale the remaining weights to the same sum"),
        percent=("boolean", False, "report 0-100 instead of 0-1"),
    )

    @property
    def score_scale(self) -> int:
        return 100 if self.options["percent"] else 1

    def combine(self, smoothed: Smoothed, counts: Counts, bp: float | int,
                weights: Sequence[Sequence[float]] | None) -> tuple[float | int, ...]:
        factor = 100 if self.options["percent"] else 1
        tuples: Sequence[Sequence[float] | None] = [None] if weights is None else weights
        return tuple(factor * self._score(self._pairs(w, smoothed, counts), bp) for w in tuples)

    def _pairs(self, weights: Sequence[float] | None, smoothed: Smoothed,
               counts: Counts) -> list[tuple[float, Precision]]:
        p = smoothed.precisions
        used = range(len(p)) if weights is None else range(min(len(weights), len(p)))
        kept = [n for n in used if counts.totals[n] > 0] if self.options["effective_order"] \
            else list(used)
        if weights is None:
            return [(1 / len(kept), p[n]) for n in kept]
        scale: float = 1
        if len(kept) != len(used):
            before, after = math.fsum(weights[n] for n in used), math.fsum(weights[n] for n in kept)
            scale = before / after if after else 0.0
        return [(weights[n] * scale, p[n]) for n in kept]

    @staticmethod
    def _score(pairs: list[tuple[float, Precision]], bp: float | int) -> float:
        if not pairs or any(w != 0 and p <= 0 for w, p in pairs):
            return 0.0
        return bp * math.exp(math.fsum(w * math.log(p) for w, p in pairs if w != 0))


@hookimpl
def evalfw_register_smoothers() -> list[type[Smoother]]:
    return list(SMOOTHERS)


@hookimpl
def evalfw_register_means() -> list[type[Mean]]:
    return [GeometricMean]


__all__ = [
    "AddOne", "Count", "CountSmoother", "Epsilon", "evalfw_register_means",
    "evalfw_register_smoothers", "GeometricMean", "Interpolated", "LengthScaled",
    "LengthScaledNeighbours", "Neighbours", "NistGeometric", "PaperSmoother", "Plain",
    "SMOOTHERS",
]
