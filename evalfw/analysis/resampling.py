"""Resampling machinery on per-segment statistics, in blocks so memory stays bounded.

A system's statistics are one row per segment (:class:`Columns`), as its metric computed them
(:meth:`evalfw.metrics.base.Metric.segment_statistics`). Any subset, resample or shuffle is
scored from the *sums* of such rows (:meth:`~evalfw.metrics.base.Metric.score_rows`), so
nothing is re-tokenized or re-counted.

Resamples are drawn block by block (never a samples x segments x stats array). A bootstrap
block is an index matrix turned into a count matrix ``W`` (block x segments); ``W @ rows`` gives
every resample's sums for every system at once. An approximate-randomization block is a
Boolean matrix ``M``: pseudo-system A takes the baseline where ``M`` is true, so its sums are
``sys_total + M @ (baseline - system)``. The products run in float64 (BLAS); they are exact
because every operand and partial sum is an integer below 2**53 (checked, else int64).
Floating-point statistics (TER's average reference lengths, model scores) are summed in
float64 as they come.

Block draws reproduce one big draw of the same shape: ``Generator.choice``/``integers`` keep
their 32-bit buffer in the bit generator, and Boolean draws use whole 32-bit words when a
block holds a multiple of 32 rows (tests check both).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from evalfw.errors import InputError

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric

#: elements of one block matrix (block rows x segments): ~8 MB of float64
BLOCK_ELEMENTS = 1 << 20
_EXACT = float(1 << 53)


@dataclass(frozen=True, eq=False)
class Columns:
    """Statistics rows of one system: ``sums`` (S, k), the rows whose sums are scored, and
    ``last``: the same rows when the metric also reads a resample's last row, else None.
    A row is one resampling unit: a segment, or a document's segments summed
    (:mod:`evalfw.analysis.units`); ``size`` is how many segments the rows hold together
    (what a metric is told it scores; default: one per row)."""

    sums: np.ndarray
    last: np.ndarray | None
    size: int = field(default=-1)

    def __post_init__(self) -> None:
        if self.size < 0:
            object.__setattr__(self, "size", int(self.sums.shape[0]))

    @property
    def segments(self) -> int:
        """Rows: the units a resample draws."""
        return int(self.sums.shape[0])

    def select(self, rows: np.ndarray) -> Columns:
        return Columns(self.sums[rows], None if self.last is None else self.last[rows])


def columns(metric: Metric, stats: np.ndarray) -> Columns:
    """The rows of ``stats`` as resampling reads them under ``metric``."""
    if len(stats) == 0:
        raise InputError("no segments to resample; the input is empty")
    rows = np.ascontiguousarray(stats)
    return Columns(rows, rows if metric.reads_last_row else None)


def check_aligned(named: Sequence[tuple[str, Columns]]) -> int:
    """The common segment count of several systems (paired tests need aligned segments)."""
    sizes = {name: c.segments for name, c in named}
    if not sizes:
        raise InputError("paired tests need at least one system; none was given")
    if len(set(sizes.values())) != 1:
        listing = ", ".join(f"{k}: {v}" for k, v in sizes.items())
        raise InputError(f"paired tests need the same segments for every system; got {listing}")
    return next(iter(sizes.values()))


def block_rows(segments: int, multiple: int = 1) -> int:
    """Rows per block: about BLOCK_ELEMENTS elements, a multiple of ``multiple``. A function of
    the segment count only, so a seed gives the same numbers whatever else is going on."""
    rows = max(1, BLOCK_ELEMENTS // max(segments, 1))
    return max(multiple, rows - rows % multiple)


#: draws a block of bootstrap indices: (generator, units, rows) -> (rows, units) array
Draw = Callable[[np.random.Generator, int, int], np.ndarray]


def draw_indices(rng: np.random.Generator, segments: int, rows: int) -> np.ndarray:
    """A block of bootstrap indices: ``rows`` resamples of ``segments`` units each."""
    return rng.choice(segments, size=(rows, segments), replace=True)


def index_blocks(rng: np.random.Generator, segments: int, n: int,
                 draw: Draw = draw_indices) -> Iterator[np.ndarray]:
    """Bootstrap index blocks (rows, segments): together ``rng.choice(segments, (n, segments))``
    (or ``draw``'s one big draw, e.g. within strata: :class:`evalfw.analysis.units.StrataDraw`)."""
    step = block_rows(segments)
    for start in range(0, n, step):
        yield draw(rng, segments, min(step, n - start))


def mask_blocks(rng: np.random.Generator, segments: int, n: int) -> Iterator[np.ndarray]:
    """AR mask blocks: together ``rng.integers(2, size=(n, segments), dtype=bool)``."""
    step = block_rows(segments, multiple=32)
    for start in range(0, n, step):
        yield rng.integers(2, size=(min(step, n - start), segments), dtype=bool)


def count_matrix(idx: np.ndarray, segments: int) -> np.ndarray:
    """(rows, segments) float64: how often each segment occurs in each resample."""
    rows = idx.shape[0]
    flat = (idx + (np.arange(rows, dtype=np.int64) * segments)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * segments).reshape(rows, segments).astype(np.float64)


def exact_product(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``weights @ rows``. Integer rows: int64, exact, through float64 BLAS when every partial
    sum stays below 2**53 (weights are non-negative counts or 0/1), else integer arithmetic.
    Floating-point rows: the float64 product."""
    product: np.ndarray
    if rows.dtype.kind == "f":
        product = weights @ rows
    elif float(np.abs(rows).sum(axis=0).max(initial=0)) * float(weights.max(initial=0)) < _EXACT:
        product = np.rint(weights @ rows.astype(np.float64)).astype(np.int64)
    else:
        product = weights.astype(np.int64) @ rows
    return product


def stack(cols: Sequence[Columns]) -> np.ndarray:
    """Side by side sums of several systems: (S, systems * K)."""
    return np.concatenate([c.sums for c in cols], axis=1)


def split(block_sums: np.ndarray, systems: int) -> list[np.ndarray]:
    width = block_sums.shape[1] // systems
    return [block_sums[:, i * width:(i + 1) * width] for i in range(systems)]


__all__ = [
    "BLOCK_ELEMENTS", "block_rows", "check_aligned", "Columns", "columns", "count_matrix",
    "Draw", "draw_indices", "exact_product", "index_blocks", "mask_blocks", "split", "stack",
]
