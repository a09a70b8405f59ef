"""Resampling blocks as independent jobs on an executor, with the local run's random streams.

A local analysis draws its resamples (or AR masks) block after block from one generator. Here
the client walks the same generator through the same draws, block by block, and keeps the
generator's state at the start of each block (a few hundred bytes: PCG64's state and its
32-bit buffer). A job restores that state and draws its block again, so it sees exactly the
rows the local run draws at those positions; it returns only the scores (bootstrap) or
exceedance counts (AR) of its rows, which the client puts back in order. Proof of equality:
a bit generator's output is a function of its state, and the client's walk performs the local
run's calls with the same arguments (block sizes never change what a stream yields, see
:mod:`evalfw.analysis.resampling`; AR blocks are kept to multiples of 32 rows). The
generator ends where the local run's ends, too. Tests compare both ways bit for bit.

Only the client's walk is sequential: drawing the indices takes about a tenth of counting and
scoring them; AR masks are not drawn but skipped over (:mod:`evalfw.analysis._skip`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from evalfw.analysis import resampling as rs
from evalfw.analysis._skip import skip_bools

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric


class Mapper(Protocol):
    """What runs the jobs: an :class:`evalfw.executors.base.Executor` (results in order)."""

    parallelism: int

    def map(self, task: Callable[[Any, Any], Any], items: Sequence[Any], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Any]: ...


#: jobs per thread of the cluster, so a slow worker does not hold the last block alone
JOBS_PER_THREAD = 4
#: but no job under this many rows: a task costs a few milliseconds on a cluster, about what
#: 64 bootstrap rows of a dozen systems take to score
MIN_JOB_ROWS = 64

Draw = rs.Draw
#: a bootstrap block, as :func:`evalfw.analysis.resampling.index_blocks` draws it
draw_indices = rs.draw_indices


def draw_mask(rng: np.random.Generator, segments: int, rows: int) -> np.ndarray:
    """An AR block, as :func:`evalfw.analysis.resampling.mask_blocks` draws it."""
    return rng.integers(2, size=(rows, segments), dtype=bool)


def job_rows(segments: int, n: int, parallelism: int, multiple: int = 1,
             exact: bool = True) -> int:
    """Rows per job: enough jobs to keep every thread busy, and no more (every task costs a
    few milliseconds on a cluster); a job draws and counts its rows in local blocks
    (:func:`in_blocks`), so its memory stays that of one. Floating-point statistics
    (``exact`` false) take whole local blocks: a BLAS product's rounding depends on the
    shape of the block it sums, so the jobs sum in the local run's blocks."""
    if not exact:
        return rs.block_rows(segments, multiple)
    want = max(MIN_JOB_ROWS, math.ceil(n / max(1, parallelism * JOBS_PER_THREAD)))
    return max(multiple, multiple * math.ceil(want / multiple))


def _exact(rows: Sequence[rs.Columns]) -> bool:
    """Whether every statistic is an integer (BLAS sums them exactly, in any block shape)."""
    return all(c.sums.dtype.kind != "f" for c in rows)


def in_blocks(rng: np.random.Generator, segments: int, rows: int, draw: Draw,
              multiple: int = 1) -> Iterator[np.ndarray]:
    """``draw(rng, segments, rows)`` in consecutive local blocks of at most
    :func:`~evalfw.analysis.resampling.block_rows` rows: the same draws (a multiple of 32 AR
    rows fills whole 32-bit draws, so the stream does not see where a block ends)."""
    step = rs.block_rows(segments, multiple)
    for start in range(0, rows, step):
        yield draw(rng, segments, min(step, rows - start))


def walk(rng: np.random.Generator, segments: int, n: int, rows: int, draw: Draw
         ) -> list[tuple[Mapping[str, Any], int]]:
    """(generator state, rows) at the start of each block; ``rng`` advances past them all.
    On PCG64 (the default) AR masks are skipped over arithmetically; bootstrap indices are
    drawn block by block and dropped."""
    skip = draw is draw_mask and type(rng.bit_generator) is np.random.PCG64
    starts = []
    for start in range(0, n, rows):
        size = min(rows, n - start)
        starts.append((rng.bit_generator.state, size))
        if skip:
            skip_bools(rng.bit_generator, size * segments)  # type: ignore[arg-type]
        else:
            for _ in in_blocks(rng, segments, size, draw):
                pass
    return starts


def walk_job(kind: np.random.Generator,
             item: tuple[Mapping[str, Any], int, int, int, Draw]
             ) -> tuple[list[tuple[Mapping[str, Any], int]], Mapping[str, Any]]:
    """:func:`walk` of bootstrap indices as a job (on a cluster, off the client): the
    blocks' starts and the generator's state after them all."""
    state, segments, n, rows, draw = item
    rng = restored(kind, state)
    return walk(rng, segments, n, rows, draw), rng.bit_generator.state


def _counter(starts: Sequence[tuple[Any, int]], n: int,
             progress: Callable[[int, int], None] | None) -> Callable[[int], None] | None:
    """``done`` for an executor: resamples of finished blocks, in whatever order they finish."""
    if progress is None:
        return None
    total = [0]

    def done(i: int) -> None:
        total[0] += starts[i][1]
        progress(total[0], n)

    return done


def restored(rng: np.random.Generator, state: Mapping[str, Any]) -> np.random.Generator:
    """A generator of ``rng``'s kind in ``state``."""
    bits = type(rng.bit_generator)()
    bits.state = state
    return np.random.Generator(bits)


class Product:
    """``exact_product(weights, rows)`` for many blocks of weights and the same ``rows``: the
    table's float64 copy and column bound are made once, not per block (the same values)."""

    def __init__(self, rows: np.ndarray) -> None:
        self.rows = rows
        self.exact = rows.dtype.kind != "f"
        self.floats = rows.astype(np.float64) if self.exact else rows
        self.bound = float(np.abs(rows).sum(axis=0).max(initial=0)) if self.exact else 0.0

    def times(self, weights: np.ndarray) -> np.ndarray:
        product: np.ndarray
        if not self.exact:
            product = weights @ self.rows
        elif self.bound * float(weights.max(initial=0)) < float(1 << 53):
            product = np.rint(weights @ self.floats).astype(np.int64)
        else:
            product = weights.astype(np.int64) @ self.rows
        return product


@dataclass(eq=False)
class BootstrapWork:
    """What every bootstrap job of one analysis shares (shipped once per worker)."""

    metric: Metric
    columns: list[rs.Columns]
    kind: np.random.Generator
    draw: Draw = draw_indices

    @functools.cached_property
    def product(self) -> Product:
        return Product(rs.stack(self.columns))

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "product"}  # made where used

    def scores(self, idx: np.ndarray) -> np.ndarray:
        """(rows, systems) scores of the resamples ``idx`` (the local loop's body)."""
        segments = self.columns[0].segments
        sums = rs.split(self.product.times(rs.count_matrix(idx, segments)), len(self.columns))
        out = np.empty((len(idx), len(self.columns)), dtype=np.float64)
        for k, cols in enumerate(self.columns):
            last = None if cols.last is None else cols.last[idx[:, -1]]
            out[:, k] = self.metric.score_rows(sums[k], last, cols.size)
        return out


def bootstrap_job(work: BootstrapWork, item: tuple[Mapping[str, Any], int]) -> np.ndarray:
    state, rows = item
    segments = work.columns[0].segments
    rng = restored(work.kind, state)
    return np.concatenate([work.scores(idx) for idx in in_blocks(rng, segments, rows,
                                                                  work.draw)], axis=0)


def bootstrap_matrix(metric: Metric, columns: Sequence[rs.Columns], n: int,
                     rng: np.random.Generator, executor: Mapper,
                     progress: Callable[[int, int], None] | None = None,
                     draw: Draw = draw_indices) -> np.ndarray:
    """:func:`evalfw.analysis._default_mode.bootstrap_matrix`, its blocks as jobs."""
    segments = columns[0].segments
    rows = job_rows(segments, n, executor.parallelism, exact=_exact(columns))
    if getattr(executor, "remote", False):  # the walk draws every index: a worker's task
        starts, end = next(iter(executor.map(walk_job, [(rng.bit_generator.state, segments,
                                                          n, rows, draw)], rng)))
        rng.bit_generator.state = end
    else:
        starts = walk(rng, segments, n, rows, draw)
    work = BootstrapWork(metric, list(columns), rng, draw)
    parts = list(executor.map(bootstrap_job, starts, work, _counter(starts, n, progress)))
    return np.concatenate(parts, axis=0)


def ar_deltas(pairs: Sequence[tuple[rs.Columns, rs.Columns]]) -> Product:
    """What a mask block multiplies: each pair's row differences, side by side."""
    return Product(rs.stack([rs.Columns(a.sums - b.sums, None) for a, b in pairs]))


def ar_block_counts(metric: Metric, pairs: Sequence[tuple[rs.Columns, rs.Columns]],
                    observed: Sequence[float], mask: np.ndarray,
                    deltas: Product | None = None) -> list[int]:
    """Exceedances of each pair in one block of masks (``deltas``: :func:`ar_deltas`)."""
    deltas = deltas or ar_deltas(pairs)
    moved = rs.split(deltas.times(mask.astype(np.float64)), len(pairs))
    counts = []
    for k, (a, b) in enumerate(pairs):
        last_a = last_b = None
        if a.last is not None and b.last is not None:
            take_a = mask[:, -1:]
            last_a = np.where(take_a, a.last[-1], b.last[-1])
            last_b = np.where(take_a, b.last[-1], a.last[-1])
        shuf_a = b.sums.sum(axis=0) + moved[k]
        shuf_b = a.sums.sum(axis=0) - moved[k]
        diff = np.abs(metric.score_rows(shuf_a, last_a, a.size)
                      - metric.score_rows(shuf_b, last_b, b.size))
        counts.append(int(np.sum(diff >= observed[k])))
    return counts


@dataclass(eq=False)
class ArWork:
    """What every AR job of one analysis shares: the pairs and their observed differences."""

    metric: Metric
    pairs: list[tuple[rs.Columns, rs.Columns]]
    observed: list[float]
    kind: np.random.Generator

    @functools.cached_property
    def deltas(self) -> Product:
        return ar_deltas(self.pairs)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "deltas"}  # made where used


def ar_job(work: ArWork, item: tuple[Mapping[str, Any], int]) -> list[int]:
    state, rows = item
    segments = work.pairs[0][0].segments
    counts = [0] * len(work.pairs)
    for mask in in_blocks(restored(work.kind, state), segments, rows, draw_mask, 32):
        block = ar_block_counts(work.metric, work.pairs, work.observed, mask, work.deltas)
        counts = [a + b for a, b in zip(counts, block)]
    return counts


def ar_exceedances(metric: Metric, pairs: Sequence[tuple[rs.Columns, rs.Columns]],
                   observed: Sequence[float], n: int, rng: np.random.Generator,
                   executor: Mapper, progress: Callable[[int, int], None] | None = None
                   ) -> list[int]:
    """:func:`evalfw.analysis._default_mode.ar_exceedances`, its blocks as jobs."""
    segments = pairs[0][0].segments
    rows = job_rows(segments, n, executor.parallelism, multiple=32,
                    exact=_exact([c for pair in pairs for c in pair]))
    starts = walk(rng, segments, n, rows, draw_mask)
    counts = [0] * len(pairs)
    work = ArWork(metric, list(pairs), list(observed), rng)
    for part in executor.map(ar_job, starts, work, _counter(starts, n, progress)):
        counts = [a + b for a, b in zip(counts, part)]
    return counts


__all__ = [
    "ar_block_counts", "ar_deltas", "ar_exceedances", "bootstrap_matrix", "in_blocks", "job_rows",
    "Mapper", "walk_job",
    "Product", "restored", "walk",
]
