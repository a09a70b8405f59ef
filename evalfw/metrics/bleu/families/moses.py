"""Moses ``multi-bleu.perl``'s mean: plain precisions, log floor, left-to-right sum, 0-100.

multi-bleu.perl computes p_n = correct/total (0 when total is 0), BLEU = BP * exp((log p_1 +
... + log p_N) / N) with log(0) taken as -9999999999, and prints 100 * BLEU. Use it with the
``plain`` smoothing (no smoothing, p_n = m_n / l_n).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from evalfw.metrics.bleu.components import Counts, Mean, Smoothed
from evalfw.metrics.bleu.families.sacrebleu import log_floor
from evalfw.plugin import hookimpl


class MultiBleuMean(Mean):
    name = "multi-bleu"
    scale = 1
    score_scale = 100  # multi-bleu.perl prints 100 * BLEU
    description = "Moses multi-bleu.perl: mean of floored logs of plain precisions, times 100"

    def combine(
        self, smoothed: Smoothed, counts: Counts, bp: float | int,
        weights: Sequence[Sequence[float]] | None,
    ) -> tuple[float | int, ...]:
        logs = [log_floor(float(p)) for p in smoothed.precisions]
        if weights is None:
            total = 0.0
            for lg in logs:  # Perl adds left to right
                total += lg
            return (100 * (bp * math.exp(total / len(logs))),)
        return tuple(
            100 * (bp * math.exp(math.fsum(w * lg for w, lg in zip(ws, logs)))) for ws in weights
        )


@hookimpl
def evalfw_register_means() -> list[type[Mean]]:
    return [MultiBleuMean]


__all__ = ["evalfw_register_means", "MultiBleuMean"]
