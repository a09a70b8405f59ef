"""Score scales: what a perfect score is (100 for BLEU, chrF and TER as sacreBLEU prints them,
1 for NLTK's BLEU or COMET), and how many decimals keep scores apart.

A metric declares its scale (``Metric.score_scale``); one that cannot know it (a model metric
whose plugin declares none: ``score_scale = None``) gets it inferred from its scores by
:func:`infer_scale`, over every system it scored, so a table never mixes decimals. Every
output prints a score with :func:`places` decimals of its scale: scores 1% of the scale apart
always print differently (2 decimals on 0-100, 4 on 0-1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def infer_scale(values: Iterable[float]) -> float:
    """The scale of scores ``values`` by the 95th percentile of their magnitudes: 1 when it
    is at most 1, 100 when at most 100, else the next power of ten (no values: 1). A few
    outliers (a COMET segment above 1) do not move a 0-1 metric to 0-100; erring the other
    way only prints more decimals, never merges two numbers."""
    magnitudes = sorted(abs(v) for v in values if math.isfinite(v))
    largest = magnitudes[int(0.95 * (len(magnitudes) - 1))] if magnitudes else 0.0
    if largest <= 1:
        return 1.0
    if largest <= 100:
        return 100.0
    return 10.0 ** math.ceil(math.log10(largest))


def places(scale: float | None) -> int:
    """Digits after the point for scores on a 0-``scale`` scale: 2 for 100, 4 for 1, and as
    many more as each factor of ten below 100 takes (never fewer than 0); scores 1% of the
    scale apart never print alike."""
    if not scale or scale <= 0:
        return 2
    return max(0, 2 + round(math.log10(100.0 / scale)))


__all__ = ["infer_scale", "places"]
