"""sacreBLEU's smoothing methods (``none``, ``floor``, ``add-k``, ``exp``) and its mean.

They reproduce sacreBLEU 2.6.0's ``compute_bleu`` bit for bit, so they work in percent
(``scale = 100``): sacreBLEU computes 100*c/t and logs that, and log(100*c/t) is not always the
same double as log(c/t) + log(100). The order of operations below is the one that matters.

These classes are the reference. ``counting/_sacrebleu_formula.h`` computes the same floats in C
for many rows at once (:mod:`evalfw.metrics.bleu._rows`) and for the per-call sentence scorer;
a change here is a change there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from evalfw.metrics.bleu.components import Counts, Mean, Precision, Smoothed, Smoother
from evalfw.plugin import hookimpl

#: sacreBLEU's log of a zero precision: a huge negative number instead of -inf.
LOG_ZERO = -9999999999


def log_floor(p: Precision) -> float:
    return LOG_ZERO if p == 0 else math.log(p)


def _value_schema(default: float | int, what: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "value": {"type": "number", "minimum": 0, "default": default, "description": what}
        },
        "additionalProperties": False,
    }


class _SacreSmoother(Smoother):
    scale = 100
    #: what sacreBLEU's signature calls it (`smooth:<this>`)
    sacrebleu_name: ClassVar[str]

    def smooth(self, counts: Counts) -> Smoothed:
        correct = list(counts.matches)
        total = list(counts.totals)
        n_orders = len(correct)
        precisions: list[float] = [0.0] * n_orders
        # sacreBLEU #141: no match at all -> zero precisions, counts left as they are.
        if not any(correct):
            return Smoothed(tuple(precisions), tuple(correct), tuple(total))
        state = [1.0]
        for n in range(n_orders):
            self._adjust(n, correct, total)
            if total[n] == 0:
                # No n-grams of this order: sacreBLEU stops here; later orders stay 0.
                break
            if correct[n] == 0:
                precisions[n] = self._zero(n, total[n], state)
            else:
                precisions[n] = 100.0 * correct[n] / total[n]
        return Smoothed(tuple(precisions), tuple(correct), tuple(total))

    def _adjust(self, n: int, correct: list[Any], total: list[Any]) -> None:
        """Change counts before order n is looked at (add-k)."""

    def _zero(self, n: int, total: int, state: list[float]) -> float:
        """Precision of an order with n-grams but no match."""
        return 0.0

    def sacrebleu_signature(self) -> str:
        return self.sacrebleu_name


class NoSmoothing(_SacreSmoother):
    sacrebleu_resampling = True
    name = "none"
    sacrebleu_name = "none"
    description = "sacreBLEU: no smoothing; a zero precision gives BLEU 0"


class Floor(_SacreSmoother):
    sacrebleu_resampling = True
    name = "floor"
    sacrebleu_name = "floor"
    description = "sacreBLEU: a zero-match order gets value/total (Chen & Cherry method 1)"
    options_schema: ClassVar[dict[str, Any]] = _value_schema(0.1, "numerator for zero-match orders")

    @property
    def max_precision(self) -> float:
        """value / total with total >= 1: above 1 for a value above 1."""
        return max(1.0, float(self.options["value"]))

    def _zero(self, n: int, total: int, state: list[float]) -> float:
        return 100.0 * float(self.options["value"]) / total

    def sacrebleu_signature(self) -> str:
        return f"floor[{self.options['value']:.2f}]"


class AddK(_SacreSmoother):
    sacrebleu_resampling = True
    name = "add-k"
    sacrebleu_name = "add-k"
    description = "sacreBLEU: add k to matches and totals of orders >= 2 (Lin & Och 2004)"
    options_schema: ClassVar[dict[str, Any]] = _value_schema(1, "k added to counts of orders >= 2")

    def _adjust(self, n: int, correct: list[Any], total: list[Any]) -> None:
        if n > 0:
            correct[n] += self.options["value"]
            total[n] += self.options["value"]

    def sacrebleu_signature(self) -> str:
        return f"add-k[{self.options['value']:.2f}]"


class Exp(_SacreSmoother):
    sacrebleu_resampling = True
    name = "exp"
    sacrebleu_name = "exp"
    description = "sacreBLEU default: k-th zero-match order gets 1/(2^k total) (mteval-v13a, NIST)"

    def _zero(self, n: int, total: int, state: list[float]) -> float:
        state[0] *= 2
        return 100.0 / (state[0] * total)


class SacreMean(Mean):
    """sacreBLEU's geometric mean: mean of log precisions over ``eff`` orders, times BP.

    With ``effective_order``, ``eff`` is the number of leading orders that have n-grams at all
    (what sacreBLEU's code does, not what its docstring says). Weights other than uniform are
    an evalfw extension: then score = BP * exp(fsum(w_n * log p_n)).
    """

    name = "sacrebleu"
    scale = 100
    sacrebleu_resampling = True
    description = "sacreBLEU's mean: log floor -9999999999, optional effective order, 0-100"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "effective_order": {
                "type": "boolean", "default": False,
                "description": "average only over orders the hypothesis has n-grams of",
            }
        },
        "additionalProperties": False,
    }

    def combine(
        self, smoothed: Smoothed, counts: Counts, bp: float | int,
        weights: Sequence[Sequence[float]] | None,
    ) -> tuple[float | int, ...]:
        n_tuples = 1 if weights is None else len(weights)
        if not any(counts.matches):
            return (0.0,) * n_tuples
        precisions = smoothed.precisions
        eff = len(precisions)
        if self.options["effective_order"]:
            reached = 0
            for t in smoothed.totals:
                if t == 0:
                    break
                reached += 1
            if reached:
                eff = reached
        logs = [log_floor(p) for p in precisions[:eff]]
        if weights is None:
            return (bp * math.exp(sum(logs) / eff),)
        return tuple(
            bp * math.exp(math.fsum(w * lg for w, lg in zip(ws, logs))) for ws in weights
        )


@hookimpl
def evalfw_register_smoothers() -> list[type[Smoother]]:
    return [NoSmoothing, Floor, AddK, Exp]


@hookimpl
def evalfw_register_means() -> list[type[Mean]]:
    return [SacreMean]


__all__ = [
    "AddK", "evalfw_register_means", "evalfw_register_smoothers", "Exp", "Floor", "log_floor",
    "LOG_ZERO", "NoSmoothing", "SacreMean",
]
