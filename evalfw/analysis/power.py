"""Power: the smallest difference a paired test could detect, for reading "inconclusive".

A comparison without a mark is *inconclusive*: the test could not tell the systems apart,
which is not evidence that they are equal. How large a difference it could have told apart is
its minimum detectable difference (MDD): the true difference a two-sided test at level
``alpha`` detects with probability ``power``. With the difference's standard error ``se``
(the standard deviation of the paired bootstrap's resampled differences) and the normal
approximation,

    MDD = (z(1 - alpha / 2) + z(power)) * se,

about ``2.8 se`` at alpha 0.05 and 80 % power. A correction that tests a family of ``m``
comparisons at ``alpha / m`` each (Bonferroni; Holm's first step) needs ``z(1 - alpha / 2m)``
instead: :func:`detectable` takes ``tests``.
"""

from __future__ import annotations

from statistics import NormalDist

__all__ = ["detectable", "POWER"]

#: the power the minimum detectable difference is stated at
POWER = 0.8


def detectable(se: float, alpha: float, power: float = POWER, tests: int = 1) -> float:
    """The difference a two-sided test at ``alpha`` (shared by ``tests`` comparisons,
    Bonferroni) detects with probability ``power``, for a standard error ``se``."""
    normal = NormalDist()
    level = alpha / max(1, tests)
    return (normal.inv_cdf(1.0 - level / 2.0) + normal.inv_cdf(power)) * se
