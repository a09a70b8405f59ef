"""Significance tables side by side on a remote executor: results in order, and the tables
that run at once share the executor's threads when they size their blocks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

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


def test_tables_share_the_threads_and_come_back_in_order() -> None:
    for threads, tables, share in [(2, 12, 1), (64, 12, 5), (8, 3, 2)]:
        cluster, seen, lock = FakeCluster(threads), [], threading.Lock()
        out = side_by_side.each([_table(i, seen, lock) for i in range(tables)], cluster)
        assert out == [{"table": i, "sum": 6 * i} for i in range(tables)]
        assert sorted(i for i, _ in seen) == list(range(tables))
        assert {type(e) for _, e in seen} == {side_by_side.Share}
        assert {(e.parallelism, e.remote, e.executor) for _, e in seen} == {(share, True,
                                                                              cluster)}


def test_a_lone_table_or_an_executor_that_does_not_stream_gets_the_executor_itself() -> None:
    cluster, seen, lock = FakeCluster(4), [], threading.Lock()
    assert side_by_side.each([_table(0, seen, lock)], cluster) == [{"table": 0, "sum": 0}]
    local = FakeCluster(4)
    local.remote = local.streams = False  # type: ignore[misc]
    side_by_side.each([_table(i, seen, lock) for i in range(1, 3)], local)
    assert [e for _, e in seen] == [cluster, local, local]
