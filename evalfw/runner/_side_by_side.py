"""Significance tables side by side on a cluster: each table's analysis in a thread here, so
one table's client-side work (walking its generator, gathering) overlaps the other tables'
blocks on the workers. Each table has its own generator, so the numbers do not change.

Tables that run at once share the cluster's threads: each sizes its blocks of resamples for
its share (:class:`Share`), so a sweep of many tables sends fewer, larger blocks (every task
costs a few milliseconds on a cluster) while a lone table still spreads over every thread."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalfw.executors.base import Executor


class Share:
    """``executor`` as one of several tables running at once sees it: the same jobs, sized
    for ``parallelism`` of its threads."""

    def __init__(self, executor: Executor, parallelism: int) -> None:
        self.executor = executor
        self.parallelism = parallelism
        self.remote = executor.remote
        self.streams = True

    def map(self, task: Callable[[Any, Any], Any], items: Sequence[Any], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Any]:
        return self.executor.map(task, items, context, done)


def named(call: Callable[[Executor | Share | None], dict[str, Any]], table: str
          ) -> Callable[[Executor | Share | None], dict[str, Any]]:
    """``call`` (one table's analysis), failing with the table's name when a worker computing
    one of its blocks of resamples is lost."""
    from evalfw.executors.base import WorkerLost

    def run(executor: Executor | Share | None) -> dict[str, Any]:
        try:
            return call(executor)
        except WorkerLost as exc:
            raise exc.naming(f"{table}, block {exc.index + 1} of its resamples") from exc

    return run


def each(calls: list[Callable[[Executor | Share | None], dict[str, Any]]],
         executor: Executor | None) -> list[dict[str, Any]]:
    """The results of ``calls`` (one table's analysis each, given where to run its blocks),
    in order; side by side when ``executor`` streams (a cluster, a run's pool) and runs more
    than one task at a time."""
    if executor is None or not executor.streams or executor.parallelism < 2 or len(calls) < 2:
        return [call(executor) for call in calls]
    from concurrent.futures import ThreadPoolExecutor

    at_once = min(len(calls), 2 * executor.parallelism, 32)
    share = Share(executor, max(1, executor.parallelism // at_once))
    pool = ThreadPoolExecutor(at_once)
    futures = [pool.submit(call, share) for call in calls]
    try:
        return [future.result() for future in futures]
    except BaseException as exc:
        # Ctrl-C (or a table's failure) reaches this thread only: the other tables' threads
        # wait on the cluster, so their tasks are cancelled there, which ends them too
        pool.shutdown(wait=False, cancel_futures=True)
        executor.cancel()
        raise _first_cause(exc, futures) from None
    finally:
        pool.shutdown(wait=True)


def _first_cause(exc: BaseException, futures: list[Any]) -> BaseException:
    """``exc``, or when it only says that another table's worker was lost, that table's own
    failure (which names the table and the block)."""
    from concurrent.futures import wait

    from evalfw.executors._shared_pool import PoolBroken

    if not isinstance(exc, PoolBroken):
        return exc
    wait(futures)
    for future in futures:
        found = None if future.cancelled() else future.exception()
        if found is not None and not isinstance(found, PoolBroken):
            return found
    return exc


__all__ = ["each", "named", "Share"]
