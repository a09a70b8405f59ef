"""The bucketer contract: assign every segment to a bucket for bucketed analysis.

A bucketer sees the segment lengths the analysed metric reports (in its ``length_unit``: tokens
for BLEU, characters for chrF; whitespace words of the texts for a metric that reports none)
and returns one bucket index per segment plus the bucket labels; a bucketer that
:attr:`~Bucketer.reads_labels` groups by a per-segment label instead (a document's domain),
read by the runner from a file. Its ``quantity`` names what it measures and
:meth:`Bucketer.record_entry` what the record keeps of how it grouped (the edges it chose from the
data); reports label axes with both. A bucketer that groups by a system's own output is
:attr:`~Bucketer.descriptive`: its buckets get scores and intervals, never tests. Built-ins:
:mod:`evalfw.analysis.bucketers`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
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
    #: True when the buckets depend on a system's own output (its hypothesis length): a
    #: bucket then selects segments by what is being compared, so it gets no tests
    descriptive: ClassVar[bool] = False
    #: True when the buckets are per-segment labels (:meth:`assign_labels`), not lengths
    reads_labels: ClassVar[bool] = False

    @abstractmethod
    def assign(self, lengths: SegmentLengths) -> tuple[np.ndarray, list[str]]:
        """Bucket index per segment (-1: no bucket) and the bucket labels."""

    def assign_labels(self, labels: Sequence[str]) -> tuple[np.ndarray, list[str]]:
        """For a bucketer that :attr:`reads_labels`: bucket index per segment and the bucket
        labels, from one label per segment."""
        raise NotImplementedError(f"bucketer '{self.name}' groups by lengths")

    def at_least(self, minimum: int) -> Bucketer:
        """This bucketer, aiming for buckets of at least ``minimum`` segments where it chooses
        them from the data (fixed buckets are what they are). Default: itself."""
        return self

    def record_entry(self, lengths: SegmentLengths) -> dict[str, Any]:
        """What the record keeps of how these lengths were grouped beyond the options (the
        edges chosen from the data). Default: nothing."""
        return {}


__all__ = ["Bucketer"]
