"""Per-segment sufficient statistics: the one representation every score derives from.

Corpus scores sum rows, sentence scores read rows one at a time, resampling sums chosen rows.
Arrays are int64 and read-only, so a ``SegmentStats`` can be shared freely.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def _frozen(a: Any, ndim: int) -> np.ndarray:
    import numpy as np

    arr = np.ascontiguousarray(a, dtype=np.int64)
    if arr.ndim != ndim:
        raise ValueError(f"expected a {ndim}-d array, got shape {arr.shape}")
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class SegmentStats:
    """Statistics of n segments with up to R references and max order N.

    - ``hyp_len`` (n,): hypothesis tokens;
    - ``ref_lens`` (n, R): token count of each reference, -1 where segment i has no k-th one;
    - ``matches`` (n, N): clipped n-gram matches per order;
    - ``totals`` (n, N): hypothesis n-grams per order as the counter defines them.
    """

    hyp_len: np.ndarray
    ref_lens: np.ndarray
    matches: np.ndarray
    totals: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "hyp_len", _frozen(self.hyp_len, 1))
        object.__setattr__(self, "ref_lens", _frozen(self.ref_lens, 2))
        object.__setattr__(self, "matches", _frozen(self.matches, 2))
        object.__setattr__(self, "totals", _frozen(self.totals, 2))
        n = len(self.hyp_len)
        for name in ("ref_lens", "matches", "totals"):
            if getattr(self, name).shape[0] != n:
                raise ValueError(f"{name} has {getattr(self, name).shape[0]} rows, expected {n}")
        if self.matches.shape != self.totals.shape:
            raise ValueError("matches and totals differ in shape")

    def __len__(self) -> int:
        return len(self.hyp_len)

    @property
    def max_order(self) -> int:
        return int(self.matches.shape[1])

    def last_row(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The last segment's matches, totals and hypothesis length (some smoothers read
        them)."""
        return (tuple(self.matches[-1].tolist()), tuple(self.totals[-1].tolist()),
                int(self.hyp_len[-1]))

    def select(self, rows: Any) -> SegmentStats:
        """A subset (or reordering, or resample) of segments."""
        return SegmentStats(
            self.hyp_len[rows], self.ref_lens[rows], self.matches[rows], self.totals[rows]
        )

    @staticmethod
    def concat(parts: Sequence[SegmentStats]) -> SegmentStats:
        """Join chunks (statistics are additive, so a corpus may be scored in pieces)."""
        if not parts:
            raise ValueError("nothing to concatenate")
        import numpy as np

        width = max(p.ref_lens.shape[1] for p in parts)
        refs = [
            np.pad(p.ref_lens, ((0, 0), (0, width - p.ref_lens.shape[1])), constant_values=-1)
            for p in parts
        ]
        return SegmentStats(
            np.concatenate([p.hyp_len for p in parts]),
            np.concatenate(refs),
            np.concatenate([p.matches for p in parts]),
            np.concatenate([p.totals for p in parts]),
        )

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {
            "hyp_len": self.hyp_len,
            "ref_lens": self.ref_lens,
            "matches": self.matches,
            "totals": self.totals,
        }

    @staticmethod
    def from_arrays(arrays: Any) -> SegmentStats:
        return SegmentStats(
            arrays["hyp_len"], arrays["ref_lens"], arrays["matches"], arrays["totals"]
        )


class ReferenceIndex:
    """Opaque, counter-specific index of a test set's references.

    Counters subclass it; the engine only asks for ``segments`` and ``max_order`` so it can
    check that the hypotheses fit.
    """

    segments: int
    max_order: int
    ref_lens: np.ndarray


__all__ = ["ReferenceIndex", "SegmentStats"]
