"""Significance tables side by side on a remote executor: results in order, and the tables
that run at once share the executor's threads when they size their blocks; leaving on an
error cancels them (no new map), and their threads' warnings are not shown."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from evalfw.executors.base import ExecutorError
from evalfw.runner import _side_by_side as side_by_side


class FakeCluster:
    """A remote executor in this process (the tables' threads call ``map`` concurrently)."""

    remote = True
    streams = True

    def __init__(self, parallelism: int) -> None:
        self.parallelism = parallelism
        self.cancelled = False

    def map(self, task: Callable[[Any, Any], Any], items: Sequence[Any], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Any]:
        return iter([task(context, item) for item in items])

    def cancel(self) -> None:
        self.cancelled = True


def _table(i: int, seen: list[tuple[int, Any]], lock: threading.Lock) -> Callable[[Any], Any]:
    def call(executor: Any) -> dict[str, Any]:
        with lock:
            seen.append((i, executor))
        total = sum(executor.map(lambda ctx, item: ctx * item, [1, 2, 3], i))
        return {"table": i, "sum": total}

    return call


def each(calls: list[Callable[[Any], Any]], executor: Any) -> list[Any]:
    """The calls' results, submitted one by one and collected in order."""
    with side_by_side.SideBySide(executor, len(calls)) as tables:
        for call in calls:
            tables.submit(call)
        return tables.results()


def test_tables_share_the_threads_and_come_back_in_order() -> None:
    for threads, tables, share in [(2, 12, 1), (64, 12, 5), (8, 3, 2)]:
        cluster, seen, lock = FakeCluster(threads), [], threading.Lock()
        out = each([_table(i, seen, lock) for i in range(tables)], cluster)
        assert out == [{"table": i, "sum": 6 * i} for i in range(tables)]
        assert sorted(i for i, _ in seen) == list(range(tables))
        assert {type(e) for _, e in seen} == {side_by_side.Share}
        assert {(e.parallelism, e.remote, e.executor) for _, e in seen} == {(share, True,
                                                                              cluster)}


def test_a_lone_table_or_an_executor_that_does_not_stream_gets_the_executor_itself() -> None:
    cluster, seen, lock = FakeCluster(4), [], threading.Lock()
    assert each([_table(0, seen, lock)], cluster) == [{"table": 0, "sum": 0}]
    local = FakeCluster(4)
    local.remote = local.streams = False  # type: ignore[misc]
    each([_table(i, seen, lock) for i in range(1, 3)], local)
    assert [e for _, e in seen] == [cluster, local, local]


class GatedCluster(FakeCluster):
    """Tables wait on ``gate`` until the run cancels them."""

    def __init__(self, parallelism: int) -> None:
        super().__init__(parallelism)
        self.gate = threading.Event()

    def cancel(self) -> None:
        super().cancel()
        self.gate.set()


def test_leaving_on_an_error_cancels_the_tables_and_their_warnings_stay_hidden() -> None:
    cluster = GatedCluster(2)
    failures: list[BaseException] = []
    running = threading.Semaphore(0)

    def table(executor: Any) -> dict[str, Any]:
        warnings.warn("a table's warning", UserWarning, stacklevel=1)
        running.release()
        assert cluster.gate.wait(10)
        try:  # the run stopped meanwhile: no new map
            executor.map(lambda ctx, item: item, [1], None)
        except ExecutorError as exc:
            failures.append(exc)
            raise
        return {}

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        with pytest.raises(KeyboardInterrupt):
            with side_by_side.SideBySide(cluster, 2) as tables:
                tables.submit(table)
                tables.submit(table)
                assert running.acquire(timeout=10) and running.acquire(timeout=10)
                warnings.warn("the run's warning", UserWarning, stacklevel=1)
                raise KeyboardInterrupt
    assert cluster.cancelled and len(failures) == 2
    assert [str(w.message) for w in shown] == ["the run's warning"]
