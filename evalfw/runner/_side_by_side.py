"""Significance tables side by side on a cluster: each table's analysis in a thread here, so
one table's client-side work (walking its generator, gathering) overlaps the other tables'
blocks on the workers. Each table has its own generator, so the numbers do not change.

Tables that run at once share the cluster's threads: each sizes its blocks of resamples for
its share (:class:`Share`), so a sweep of many tables sends fewer, larger blocks (every task
costs a round trip on a cluster) while a lone table still spreads over every thread.

A run starts each table as soon as its statistics are in (:class:`SideBySide`), while the
statistics of later test sets are still computing on the same executor; the results are
collected in the order the tables were submitted. UserWarnings raised in the tables' threads
are not shown meanwhile (the analysis ignores them, as the statistics already showed them).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalfw.executors.base import Executor

#: the name of the tables' threads (their warnings are not shown)
THREADS = "evalfw-table"

Call = Callable[["Executor | Share | None"], dict[str, Any]]


class Share:
    """``executor`` as one of several tables running at once sees it: the same jobs, sized
    for ``parallelism`` of its threads; no new map once the run is ``cancelled``."""

    def __init__(self, executor: Executor, parallelism: int,
                 cancelled: threading.Event | None = None) -> None:
        self.executor = executor
        self.parallelism = parallelism
        self.remote = executor.remote
        self.streams = True
        self.cancelled = cancelled or threading.Event()

    def map(self, task: Callable[[Any, Any], Any], items: Sequence[Any], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Any]:
        if self.cancelled.is_set():  # a table between maps when the run stopped: it stops too
            from evalfw.executors.base import ExecutorError

            raise ExecutorError("cancelled: the run stopped; nothing was stored")
        return self.executor.map(task, items, context, done)


def named(call: Call, table: str) -> Call:
    """``call`` (one table's analysis), failing with the table's name when a worker computing
    one of its blocks of resamples is lost."""
    from evalfw.executors.base import WorkerLost

    def run(executor: Executor | Share | None) -> dict[str, Any]:
        try:
            return call(executor)
        except WorkerLost as exc:
            raise exc.naming(f"{table}, block {exc.index + 1} of its resamples") from exc

    return run


def side_by_side(executor: Executor | None, count: int) -> bool:
    """Whether ``count`` tables run side by side on ``executor``: it streams (a cluster, a
    run's pool) and runs more than one task at a time."""
    return executor is not None and executor.streams and executor.parallelism >= 2 \
        and count >= 2


class SideBySide:
    """``count`` tables' analyses, submitted one by one (:meth:`submit`) and collected in
    order (:meth:`results`). Side by side (:func:`side_by_side`), each starts at once in a
    thread of its own; otherwise each runs in :meth:`results`, one after the other, with the
    executor itself. Used with ``with``: leaving on an exception cancels every table."""

    def __init__(self, executor: Executor | None, count: int) -> None:
        self.executor = executor
        self.calls: list[Call] = []
        self.futures: list[Future[dict[str, Any]]] = []
        self.cancelled = threading.Event()
        self.pool: ThreadPoolExecutor | None = None
        self.share: Share | None = None
        self._shown: Any = None
        if side_by_side(executor, count):
            assert executor is not None
            at_once = min(count, 2 * executor.parallelism, 32)
            self.share = Share(executor, max(1, executor.parallelism // at_once), self.cancelled)
            self.pool = ThreadPoolExecutor(at_once, thread_name_prefix=THREADS)

    @property
    def started(self) -> int:
        """Tables started so far (in their threads)."""
        return len(self.futures)

    def submit(self, call: Call) -> None:
        if self.pool is None:
            self.calls.append(call)
            return
        if self._shown is None:
            self._quiet_tables()
        self.futures.append(self.pool.submit(call, self.share))

    def results(self) -> list[dict[str, Any]]:
        """Every table's result, in the order submitted."""
        if self.pool is None:
            return [call(self.executor) for call in self.calls]
        try:
            return [future.result() for future in self.futures]
        except BaseException as exc:
            self.cancel()
            raise _first_cause(exc, self.futures) from None

    def cancel(self) -> None:
        """Stop every table: those not started never start, those waiting on the executor
        fail there (Ctrl-C reaches the main thread only), and no table maps again."""
        self.cancelled.set()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            assert self.executor is not None
            self.executor.cancel()

    def close(self) -> None:
        """Wait for the tables' threads and show warnings as before."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)
        if self._shown is not None:
            if warnings.showwarning == self._hide:  # not replaced since (a bound method)
                warnings.showwarning = self._shown
                self._shown = None

    def __enter__(self) -> SideBySide:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: Any) -> None:
        if exc is None:
            self.close()
            return
        self.cancel()
        self.close()
        cause = _first_cause(exc, self.futures)
        if cause is not exc:  # another map's lost worker was a table's: name that table
            raise cause from None

    def _quiet_tables(self) -> None:
        """Drop UserWarnings raised in the tables' threads (a filter would drop this thread's
        too: the statistics still computing here show theirs)."""
        self._shown = warnings.showwarning
        warnings.showwarning = self._hide

    def _hide(self, message: Any, category: type[Warning], filename: str, lineno: int,
              file: Any = None, line: str | None = None) -> None:
        if issubclass(category, UserWarning) \
                and threading.current_thread().name.startswith(THREADS):
            # the warning was noted as shown where it was raised: forget that, so the same
            # warning raised by the statistics here is still shown
            mutated = getattr(warnings, "_filters_mutated", None)
            if mutated is not None:
                mutated()
            return
        self._shown(message, category, filename, lineno, file, line)


def _first_cause(exc: BaseException, futures: list[Any]) -> BaseException:
    """``exc``, or when it only says that another map's worker was lost, the failure of the
    table whose block it was (which names the table and the block)."""
    from evalfw.executors._shared_pool import PoolBroken

    if not isinstance(exc, PoolBroken):
        return exc
    wait(futures)
    for future in futures:
        found: BaseException | None = None if future.cancelled() else future.exception()
        if found is not None and not isinstance(found, PoolBroken):
            return found
    return exc


__all__ = ["named", "Share", "side_by_side", "SideBySide", "THREADS"]
