"""Result objects of the statistical analyses, and the multiple-comparison corrections.

All results are frozen dataclasses with ``to_json()`` giving plain JSON types, so they can go
straight into a run record. Field meanings are the same in both modes:

- ``mean``: mean of the resampled scores;
- ``ci``: half-width of the interval (what sacreBLEU prints after ``±``);
- ``lower``/``upper``: interval bounds (sacreBLEU mode: its order statistics; default mode:
  percentiles at ``level``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

#: the resampling modes: exact sacreBLEU 2.6.0 reproduction, or evalfw's float64 method
MODES = ("default", "sacrebleu")
#: paired test methods: paired bootstrap resampling, approximate randomization
METHODS = ("bootstrap", "ar")
#: multiple-comparison corrections (:func:`adjust`)
CORRECTIONS = ("holm", "bonferroni", "none")
#: which comparisons a correction treats as one family (always within one test method): those
#: of one table (test set x metric), of one test set, or of the whole run
FAMILIES = ("table", "test_set", "run")


def _clean(value: Any) -> Any:
    """numpy scalars -> Python numbers; non-finite floats -> None (JSON has no NaN)."""
    if hasattr(value, "item") and not isinstance(value, (list, tuple, dict)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


@dataclass(frozen=True)
class ConfidenceResult:
    """A bootstrap confidence interval of one system's score."""

    system: str
    score: float
    mean: float
    ci: float
    lower: float
    upper: float
    n: int
    level: float
    seed: int | None
    mode: str

    def to_json(self) -> dict[str, Any]:
        return {k: _clean(v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class ComparisonResult:
    """One paired significance test of ``system`` against ``baseline``.

    ``delta`` = score - baseline_score. ``p_value`` is two-sided. ``p_adjusted`` is set after
    a multiple-comparison correction (:func:`apply_correction`). ``mean``/``ci``/``lower``/``upper``
    describe the system's bootstrap distribution (paired bootstrap only, else None);
    ``delta_lower``/``delta_upper`` the interval of the difference (default mode bootstrap).
    ``wins`` is the share of resamples in which the system beat the baseline (Koehn 2004).
    ``se`` is the standard deviation of the resampled differences (paired bootstrap), ``unit``
    what was resampled or swapped (``segment`` or ``document``), and ``zero_variance`` says
    that the resampled differences did not vary: such a test decides nothing and is never
    significant.
    """

    system: str
    baseline: str
    method: str
    mode: str
    n: int
    seed: int | None
    score: float
    baseline_score: float
    delta: float
    p_value: float
    mean: float | None = None
    ci: float | None = None
    lower: float | None = None
    upper: float | None = None
    delta_lower: float | None = None
    delta_upper: float | None = None
    wins: float | None = None
    p_adjusted: float | None = None
    bucket: str | None = None
    se: float | None = None
    unit: str = "segment"
    zero_variance: bool = False

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether the (adjusted, if corrected) p-value is at most ``alpha`` (sacreBLEU: <=);
        never for a test whose resampled differences did not vary."""
        p = self.p_adjusted if self.p_adjusted is not None else self.p_value
        return p <= alpha and not self.zero_variance

    def to_json(self) -> dict[str, Any]:
        return {k: _clean(v) for k, v in asdict(self).items()}


def is_significant(c: Mapping[str, Any], alpha: float) -> bool:
    """:meth:`ComparisonResult.significant` of a stored comparison (a record's entry)."""
    p = c.get("p_adjusted")
    return (c["p_value"] if p is None else p) <= alpha and not c.get("zero_variance", False)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the input order.

    The i-th smallest of m p-values becomes max over j <= i of min(1, (m - j + 1) p_(j)), so
    rejecting adjusted p <= alpha controls the family-wise error rate at alpha. Ties keep
    input order (stable sort), which does not change the adjusted values.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def bonferroni(p_values: Sequence[float]) -> list[float]:
    """Bonferroni adjusted p-values: min(1, m p) for each of m p-values."""
    m = len(p_values)
    return [min(1.0, m * p) for p in p_values]


def adjust(p_values: Sequence[float], correction: str) -> list[float] | None:
    """``p_values`` adjusted as one family by ``correction`` (one of :data:`CORRECTIONS`);
    ``None`` for ``"none"`` (the raw p-values stand)."""
    if correction == "holm":
        return holm(p_values)
    if correction == "bonferroni":
        return bonferroni(p_values)
    if correction == "none":
        return None
    raise ValueError(f"unknown correction {correction!r}; choose one of {', '.join(CORRECTIONS)}")


def apply_correction(results: Sequence[ComparisonResult],
                     correction: str = "holm") -> list[ComparisonResult]:
    """The same comparisons with ``p_adjusted`` filled in by ``correction`` with all of them
    as one family (``"none"`` leaves ``p_adjusted`` as it is)."""
    adjusted = adjust([r.p_value for r in results], correction)
    if adjusted is None:
        return list(results)
    return [replace(r, p_adjusted=a) for r, a in zip(results, adjusted)]


def apply_holm(results: Sequence[ComparisonResult]) -> list[ComparisonResult]:
    """The same comparisons with ``p_adjusted`` filled in by Holm, all of them one family."""
    return apply_correction(results, "holm")


__all__ = [
    "adjust", "apply_correction", "apply_holm", "bonferroni", "ComparisonResult",
    "ConfidenceResult", "CORRECTIONS", "FAMILIES", "holm", "is_significant", "METHODS", "MODES",
]
