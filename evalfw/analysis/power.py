"""The smallest p-value a resampling test can give, and how many resamples reach alpha.

Every paired test here counts the resamples (or trials) at least as extreme as the observed
difference and gives ``p = (count + 1) / (n + 1)``: the paired bootstrap and approximate
randomization in default mode (:mod:`evalfw.analysis._default_mode`) and in sacreBLEU mode
(:mod:`evalfw.analysis.sacrebleu_mode`) alike. So with ``n`` resamples no p-value is below
``1 / (n + 1)``, however large the difference. A correction over a family of ``m``
comparisons multiplies the smallest p-value by ``m`` (Holm and Bonferroni agree on it), so
the smallest adjusted p-value is ``min(1, m / (n + 1))``. When that exceeds alpha, no
comparison of the family can be significant, whatever the systems: the resampling budget,
not the data, decides. :func:`power_limit` says so before any resampling starts, with the
smallest ``n`` that would let a comparison reach alpha.

The floors are computed with the arithmetic the tests and corrections use (the same float
operations), so "reachable" here means exactly that the best possible outcome is marked.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["describe", "PowerLimit", "power_limit", "smallest_adjusted", "smallest_p"]

#: what one unit of each test is called
UNITS = {"bootstrap": "resamples", "ar": "trials"}
#: the tests in words
TESTS = {"bootstrap": "paired bootstrap", "ar": "approximate randomization"}
_CORRECTED = {"holm": "Holm", "bonferroni": "Bonferroni"}


def smallest_p(n: int) -> float:
    """The smallest p-value ``n`` resamples or trials can give: no resample as extreme."""
    return (0 + 1) / (n + 1)


def smallest_adjusted(n: int, size: int, correction: str) -> float:
    """The smallest p-value after ``correction`` over a family of ``size`` comparisons (the
    smallest raw p-value times ``size``, capped at 1, as :func:`~evalfw.analysis.results.holm`
    and :func:`~evalfw.analysis.results.bonferroni` compute it)."""
    p = smallest_p(n)
    if correction == "none" or size <= 1:
        return p
    return min(1.0, size * p)


def _needed(size: int, correction: str, alpha: float) -> int:
    """The smallest number of resamples whose smallest adjusted p-value is <= alpha."""
    m = size if correction != "none" else 1
    n = max(1, math.ceil(m / alpha) - 1)
    while n > 1 and smallest_adjusted(n - 1, size, correction) <= alpha:
        n -= 1
    while smallest_adjusted(n, size, correction) > alpha:
        n += 1
    return n


@dataclass(frozen=True)
class PowerLimit:
    """Whether ``n`` resamples or trials of ``method`` can reach ``alpha`` in a family of
    ``size`` comparisons under ``correction``."""

    method: str
    n: int
    correction: str
    size: int
    alpha: float
    min_p: float
    min_p_adjusted: float
    #: the smallest number of resamples or trials that reaches alpha
    needed: int

    @property
    def reachable(self) -> bool:
        return self.min_p_adjusted <= self.alpha

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "reachable": self.reachable}


def power_limit(method: str, n: int, size: int, correction: str,
                alpha: float) -> PowerLimit:
    """The limit of ``n`` resamples (``method`` ``bootstrap``) or trials (``ar``) for a family
    of ``size`` comparisons corrected by ``correction`` (``holm``, ``bonferroni``, ``none``)."""
    return PowerLimit(method, n, correction, size, alpha, smallest_p(n),
                      smallest_adjusted(n, size, correction), _needed(size, correction, alpha))


def describe(limit: PowerLimit, family: str = "", setting: str = "") -> str:
    """One sentence: the limit, why no comparison can be significant, and what would reach
    alpha. ``family`` says what a family is (e.g. "one test set x metric x test");
    ``setting`` where to ask for more, ``{}`` standing for the number (e.g.
    "significance.samples: {}")."""
    unit = UNITS[limit.method]
    text = (f"with {limit.n} {TESTS[limit.method]} {unit} the smallest possible p-value is "
            f"1/{limit.n + 1} = {limit.min_p:.4g}")
    if limit.correction in _CORRECTED and limit.size > 1:
        where = f" ({family})" if family else ""
        text += (f", {limit.min_p_adjusted:.4g} after {_CORRECTED[limit.correction]} over a "
                 f"family of {limit.size} comparisons{where}")
    none = "no comparison can" if limit.correction == "none" or limit.size <= 1 else \
        "no comparison in such a family can"
    ask = f" ({setting.format(limit.needed)})" if setting else ""
    return (f"{text}, above alpha {limit.alpha:g}: {none} be significant; "
            f"{limit.needed} {unit} would reach alpha{ask}")
