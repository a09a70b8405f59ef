"""The bucketer contract: assign every segment to a bucket for bucketed analysis.

A bucketer sees the segment lengths the analysed metric reports (tokens for BLEU; whitespace
words of the texts for a metric that reports none) and returns one bucket index per segment
plus the bucket labels. Built-ins: :mod:`evalfw.analysis.bucketers`.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING

from evalfw.plugin.component import Component

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import SegmentLengths


class Bucketer(Component):
    """Assigns every segment to a bucket (for example by reference length)."""

    kind = "bucketer"
    plural = "bucketers"

    @abstractmethod
    def assign(self, lengths: SegmentLengths) -> tuple[np.ndarray, list[str]]:
        """Bucket index per segment (-1: no bucket) and the bucket labels."""


__all__ = ["Bucketer"]
