"""The bucketer contract: assign every segment to a bucket for bucketed analysis.

A bucketer sees the segment lengths the analysed metric reports (in its ``length_unit``: tokens
for BLEU, characters for chrF; whitespace words of the texts for a metric that reports none)
and returns one bucket index per segment plus the bucket labels. Its ``quantity`` names what
it measures and :meth:`Bucketer.describe` what the record keeps of how it grouped (the edges it
chose from the data); reports label axes with both. Built-ins: :mod:`evalfw.analysis.bucketers`.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.plugin.component import Component

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import SegmentLengths


class Bucketer(Component):
    """Assigns every segment to a bucket (for example by reference length)."""

    kind = "bucketer"
    plural = "bucketers"
    #: what the buckets measure, for labels and axes ("reference length")
    quantity: ClassVar[str] = "length"

    @abstractmethod
    def assign(self, lengths: SegmentLengths) -> tuple[np.ndarray, list[str]]:
        """Bucket index per segment (-1: no bucket) and the bucket labels."""

    def describe(self, lengths: SegmentLengths) -> dict[str, Any]:
        """What the record keeps of how these lengths were grouped beyond the options (the
        edges chosen from the data). Default: nothing."""
        return {}


__all__ = ["Bucketer"]
