"""The p-value resolution of a resampling test: the smallest p-value it can give, whether that
can reach alpha, and how many resamples make p-values near alpha trustworthy.

Every paired test here counts the resamples (or trials) at least as extreme as the observed
difference and gives ``p = (count + 1) / (n + 1)``: the paired bootstrap and approximate
randomization in default mode (:mod:`evalfw.analysis._default_mode`) and in sacreBLEU mode
(:mod:`evalfw.analysis.sacrebleu_mode`) alike. So with ``n`` resamples no p-value is below
``1 / (n + 1)``, however large the difference: a p-value at that floor only says "below
1/(n+1)" (:func:`at_floor`). A correction over a family of ``m`` comparisons multiplies the
smallest p-value by ``m`` (Holm and Bonferroni agree on it), so the smallest adjusted p-value
is ``min(1, m / (n + 1))``. When that exceeds alpha, no comparison of the family can be
significant, whatever the systems: the resampling budget, not the data, decides.
:func:`resolution` says so before any resampling starts.

Reaching alpha is not enough: a p-value estimated from ``n`` resamples has a standard error
of about ``sqrt(p (1 - p) / n)``, so with barely enough resamples a comparison whose true p is
well below the threshold is marked or not by chance. This is resolution, not power (power is
the chance to detect a real difference, :mod:`evalfw.analysis.power`). Asking for at least
``20 m / alpha`` resamples (:func:`recommended`) puts the threshold ``alpha / m`` twenty
resampling steps above the floor, where the estimate's relative error is about a fifth.

The floors are computed with the arithmetic the tests and corrections use (the same float
operations), so "reachable" here means exactly that the best possible outcome is marked.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["at_floor", "describe", "p_value_resolution", "recommended", "Resolution",
           "smallest_adjusted", "smallest_p"]

#: what one unit of each test is called
UNITS = {"bootstrap": "resamples", "ar": "trials"}
#: the tests in words
TESTS = {"bootstrap": "paired bootstrap", "ar": "approximate randomization"}
_CORRECTED = {"holm": "Holm", "bonferroni": "Bonferroni"}
#: resampling steps between the floor and the per-comparison threshold that are recommended
STEPS = 20


def smallest_p(n: int) -> float:
    """The smallest p-value ``n`` resamples or trials can give: no resample as extreme."""
    return (0 + 1) / (n + 1)


def at_floor(p: float, n: int) -> bool:
    """Whether ``p`` is the smallest p-value ``n`` resamples can give: no resample was as
    extreme, so the true p-value is only known to be below about ``1 / (n + 1)``."""
    return p <= smallest_p(n)


def smallest_adjusted(n: int, size: int, correction: str) -> float:
    """The smallest p-value after ``correction`` over a family of ``size`` comparisons (the
    smallest raw p-value times ``size``, capped at 1, as :func:`~evalfw.analysis.results.holm`
    and :func:`~evalfw.analysis.results.bonferroni` compute it)."""
    p = smallest_p(n)
    if correction == "none" or size <= 1:
        return p
    return min(1.0, size * p)


def _family(size: int, correction: str) -> int:
    return size if correction != "none" and size > 1 else 1


def _needed(size: int, correction: str, alpha: float) -> int:
    """The smallest number of resamples whose smallest adjusted p-value is <= alpha."""
    n = max(1, math.ceil(_family(size, correction) / alpha) - 1)
    while n > 1 and smallest_adjusted(n - 1, size, correction) <= alpha:
        n -= 1
    while smallest_adjusted(n, size, correction) > alpha:
        n += 1
    return n


def recommended(size: int, correction: str, alpha: float) -> int:
    """``20 m / alpha`` resamples or trials (``m``: the family size when corrected, else 1)."""
    return math.ceil(STEPS * _family(size, correction) / alpha - 1e-9)


@dataclass(frozen=True)
class Resolution:
    """The resolution of ``n`` resamples or trials of ``method`` in a family of ``size``
    comparisons under ``correction`` at ``alpha``."""

    method: str
    n: int
    correction: str
    size: int
    alpha: float
    min_p: float
    min_p_adjusted: float
    #: the smallest number of resamples or trials that reaches alpha
    needed: int
    #: the number recommended so that p-values near alpha are estimated well (20 m / alpha)
    recommended: int

    @property
    def reachable(self) -> bool:
        return self.min_p_adjusted <= self.alpha

    @property
    def sufficient(self) -> bool:
        return self.n >= self.recommended

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "reachable": self.reachable, "sufficient": self.sufficient}


def p_value_resolution(method: str, n: int, size: int, correction: str,
                       alpha: float) -> Resolution:
    """The resolution of ``n`` resamples (``method`` ``bootstrap``) or trials (``ar``) for a
    family of ``size`` comparisons corrected by ``correction`` (``holm``, ``bonferroni``,
    ``none``)."""
    return Resolution(method, n, correction, size, alpha, smallest_p(n),
                      smallest_adjusted(n, size, correction), _needed(size, correction, alpha),
                      recommended(size, correction, alpha))


def describe(limit: Resolution, family: str = "", setting: str = "") -> str:
    """One sentence: the limit, why no comparison can be significant (or, when one can, why
    p-values near alpha are coarse), and how many resamples are recommended. ``family`` says
    what a family is (e.g. "one test set x metric x test"); ``setting`` where to ask for
    more, ``{}`` standing for the number (e.g. "significance.samples: {}")."""
    unit = UNITS[limit.method]
    text = (f"with {limit.n} {TESTS[limit.method]} {unit} the smallest possible p-value is "
            f"1/{limit.n + 1} = {limit.min_p:.4g}")
    grouped = limit.correction in _CORRECTED and limit.size > 1
    if grouped:
        where = f" ({family})" if family else ""
        text += (f", {limit.min_p_adjusted:.4g} after {_CORRECTED[limit.correction]} over a "
                 f"family of {limit.size} comparisons{where}")
    ask = f" ({setting.format(limit.recommended)})" if setting else ""
    m = "20 x family size / alpha" if grouped else "20 / alpha"
    advice = f"{limit.recommended} {unit} ({m}) are recommended{ask}"
    if not limit.reachable:
        none = "no comparison in such a family can" if grouped else "no comparison can"
        return (f"{text}, above alpha {limit.alpha:g}: {none} be significant; "
                f"{limit.needed} {unit} would reach alpha, {advice}")
    return (f"{text}: p-values near the threshold are decided by resampling noise; "
            f"{advice}")
