"""Significance tables side by side on a cluster: each table's analysis in a thread here, so
one table's client-side work (walking its generator, gathering) overlaps the other tables'
blocks on the workers. Each table has its own generator, so the numbers do not change."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalfw.executors.base import Executor
    from evalfw.runner._evaluate import Progress


def serialised(progress: Progress) -> Progress:
    """``progress`` called by one thread at a time (tables report from several)."""
    lock = threading.Lock()

    def call(done: int, total: int, label: str) -> None:
        with lock:
            progress(done, total, label)

    return call


def each(calls: list[Callable[[], dict[str, Any]]],
         executor: Executor | None) -> list[dict[str, Any]]:
    """The results of ``calls`` (one table's analysis each), in order; side by side when
    ``executor`` is remote and runs more than one task at a time."""
    if executor is None or not executor.remote or executor.parallelism < 2 or len(calls) < 2:
        return [call() for call in calls]
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(min(len(calls), 2 * executor.parallelism, 32))
    try:
        return list(pool.map(lambda call: call(), calls))
    except BaseException:
        # Ctrl-C (or a table's failure) reaches this thread only: the other tables' threads
        # wait on the cluster, so their tasks are cancelled there, which ends them too
        pool.shutdown(wait=False, cancel_futures=True)
        executor.cancel()
        raise
    finally:
        pool.shutdown(wait=True)


__all__ = ["each", "serialised"]
