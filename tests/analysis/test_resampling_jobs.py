"""Resampling blocks as jobs draw the local run's random streams: the bootstrap matrix and the
AR exceedance counts computed block-wise from saved generator states equal the local ones bit
for bit, for any job size, and the generator ends in the same state (no Dask needed)."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from evalfw.analysis import _blocks
from evalfw.analysis import _default_mode as dm
from evalfw.analysis import resampling as rs


class PickledSerial:
    """A job runner that pickles every context and item, as a cluster would, and finishes
    the jobs last to first (results still come back in order)."""

    def __init__(self, parallelism: int, remote: bool = False) -> None:
        self.parallelism = parallelism
        self.remote = remote  # a cluster: the bootstrap walk is a job too
        self.jobs = 0

    def map(self, task: Callable[[Any, Any], Any], items: Sequence[Any], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Any]:
        shipped = pickle.loads(pickle.dumps(context))
        results = {}
        for i in reversed(range(len(items))):
            self.jobs += 1
            results[i] = task(shipped, pickle.loads(pickle.dumps(items[i])))
            if done is not None:
                done(i)
        return iter([results[i] for i in range(len(items))])


class SumMetric:
    """Scores a resample by its first column's sum over the second's (picklable)."""

    reads_last_row = False

    def score(self, sums: np.ndarray) -> float:
        return float(sums.sum(axis=0)[0] / max(1, sums.sum(axis=0)[1]))

    def score_rows(self, sums: np.ndarray, last: Any = None, segments: int = 1) -> np.ndarray:
        return sums[:, 0] / np.maximum(1, sums[:, 1])


def _systems(segments: int, count: int = 3, floats: bool = False
             ) -> list[tuple[str, rs.Columns]]:
    """Integer statistics (counts), or floating-point ones (a model's or a judge's scores),
    whose BLAS sums depend on the shape of the block they are summed in."""
    rng = np.random.default_rng(5)
    return [(f"s{i}", rs.Columns(rng.random((segments, 2)) * 40 if floats
                                 else rng.integers(0, 40, size=(segments, 2)), None))
            for i in range(count)]


@pytest.mark.parametrize("segments,n,parallelism,remote", [
    (97, 1000, 2, False), (2037, 300, 3, False), (5, 333, 8, False), (20000, 500, 1, False),
    (97, 1000, 2, True), (20000, 500, 1, True)])
@pytest.mark.parametrize("floats", [False, True])
def test_bootstrap_blocks_equal_the_local_draw(segments: int, n: int, parallelism: int,
                                               remote: bool, floats: bool) -> None:
    named = _systems(segments, floats=floats)
    local_rng, job_rng = np.random.default_rng(11), np.random.default_rng(11)
    local = dm.bootstrap_matrix(SumMetric(), named, n, local_rng)
    runner = PickledSerial(parallelism, remote)
    seen: list[int] = []
    jobs = dm.bootstrap_matrix(SumMetric(), named, n, job_rng, executor=runner,
                               progress=lambda done, total: seen.append(done))
    if floats:  # whole local blocks as jobs: BLAS rounds the same sums the same way
        assert runner.jobs == -(-n // rs.block_rows(segments)) + remote
    else:
        assert runner.jobs > 1
    assert seen == sorted(seen) and seen[-1] == n  # finished resamples, in any block order
    assert jobs.tobytes() == local.tobytes()
    assert job_rng.bit_generator.state == local_rng.bit_generator.state


@pytest.mark.parametrize("segments,n,parallelism", [(97, 1000, 2), (2037, 700, 3), (5, 333, 8),
                                                     (20000, 700, 1)])
def test_ar_blocks_equal_the_local_masks(segments: int, n: int, parallelism: int) -> None:
    for floats in (False, True):
        _ar_equal(segments, n, parallelism, floats)


def _ar_equal(segments: int, n: int, parallelism: int, floats: bool) -> None:
    named = _systems(segments, floats=floats)
    pairs = [(named[0][1], named[1][1]), (named[0][1], named[2][1])]
    observed = [0.01, 0.02]
    local_rng, job_rng = np.random.default_rng(3), np.random.default_rng(3)
    if floats:  # the observed differences, which the shuffles straddle
        observed = [abs(SumMetric().score(a.sums) - SumMetric().score(b.sums))
                    for a, b in pairs]
    local = dm.ar_exceedances(SumMetric(), pairs, observed, n, local_rng)
    jobs = dm.ar_exceedances(SumMetric(), pairs, observed, n, job_rng,
                             executor=PickledSerial(parallelism))
    assert jobs == local
    assert job_rng.bit_generator.state == local_rng.bit_generator.state


def test_job_rows_keep_every_thread_busy_with_few_tasks() -> None:
    assert _blocks.job_rows(2037, 1000, 2) == 125
    assert _blocks.job_rows(2037, 1000, 2, multiple=32) == 128
    # larger than a local block: the job draws and counts it in local blocks
    assert _blocks.job_rows(100_000, 10_000, 1) == 2500 > rs.block_rows(100_000)
    assert _blocks.job_rows(2037, 1000, 100) == _blocks.MIN_JOB_ROWS  # not 3-row tasks
    # floating-point statistics: the local blocks, whatever the parallelism
    assert _blocks.job_rows(2037, 1000, 2, exact=False) == rs.block_rows(2037)
    assert _blocks.job_rows(2037, 1000, 2, multiple=32, exact=False) == rs.block_rows(2037, 32)


def _twins(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """Two generators of ``seed`` after 0 to 2 32-bit draws (a kept 32-bit half or none)."""
    twins = np.random.default_rng(seed), np.random.default_rng(seed)
    for rng in twins:
        rng.integers(1 << 32, size=seed % 3, dtype=np.uint32)
    return twins


def test_skipping_masks_leaves_pcg64_where_drawing_them_does() -> None:
    # random lengths (partial 32-bit buffers, odd and even numbers of 32-bit draws) after
    # draws that leave a kept 32-bit half or none: the same state, to the bit, and the same
    # draws after it
    from evalfw.analysis._skip import skip_bools

    pick = np.random.default_rng(2026)
    for _ in range(400):
        seed = int(pick.integers(1 << 31))
        drawn, skipped = _twins(seed)
        for count in pick.choice([0, 1, 31, 32, 33, 64, 65, 96, 4000, 64000, 64031], 3):
            drawn.integers(2, size=int(count), dtype=bool)
            skip_bools(skipped.bit_generator, int(count))
            assert skipped.bit_generator.state == drawn.bit_generator.state
        assert np.array_equal(skipped.integers(2, size=99, dtype=bool),
                              drawn.integers(2, size=99, dtype=bool))
