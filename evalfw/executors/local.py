"""The built-in executors: ``serial`` (in this process) and ``processes`` (a pool of forked
worker processes on this machine, ``evalfw run --jobs N``).

The pool is evalfw's own, not :class:`multiprocessing.pool.Pool`: each worker is given one
item at a time over its own pipe, so the pool always knows which item a worker is computing.
A worker that dies (``os._exit`` in plugin code, the kernel's out-of-memory killer, a
SIGKILL) is seen at once through its process sentinel, and the map fails naming that item
(:class:`~evalfw.executors.base.WorkerLost`) instead of waiting for a result that will never
come. Workers ignore SIGINT, SIGTERM and SIGHUP: the parent decides, and stops every worker
whenever a map ends, normally or not (an exception, Ctrl-C, SIGTERM turned into an exception
by the command line). A worker whose parent is gone ends itself within half a second, so a
parent killed with SIGKILL leaves no worker computing. Inside a run (``with``), maps whose work
pickles share one pool that serves them side by side (:mod:`evalfw.executors._shared_pool`).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, ClassVar

from evalfw.executors._workers import (
    LOST_ADVICE,
    PARENT_CHECK,
    STOP_GRACE,
    attempt,
    begin,
    death,
    reply,
)
from evalfw.executors.base import Executor, ExecutorError, Item, Result, WorkerLost
from evalfw.limits import LIMITS


class Serial(Executor):
    """Every job in this process, one after the other."""

    name = "serial"
    description = "run every job in this process"

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        for i, item in enumerate(items):
            result = task(context, item)
            if done is not None:
                done(i)
            yield result


def _serve(conn: Any, task: Callable[[Any, Any], Any], context: Any, parent: int,
           inherited: list[Any]) -> None:
    """A worker's life: compute each item received until told to stop (or the pipe closes).
    ``task`` and ``context`` are inherited through the fork, never pickled."""
    begin(parent, inherited)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        except Exception as exc:  # a map's work that does not unpickle here: the pool forks anew
            conn.send((False, f"{type(exc).__name__}: {exc}"))
            continue
        if message is None:
            return
        if len(message) == 3:  # the next map's work: ("map", task, context)
            task, context = message[1], message[2]
            conn.send((True, None))
            continue
        reply(conn, (), *attempt(task, context, message[0]))


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Any
    #: the item being computed, or None when idle
    job: int | None = None


class _Pool:
    """``size`` forked workers computing ``task(context, item)`` (see the module docstring)."""

    def __init__(self, size: int, task: Callable[[Any, Any], Any], context: Any) -> None:
        ctx = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []
        try:
            for _ in range(size):
                here, there = ctx.Pipe()
                inherited = [w.conn for w in self.workers]
                process = ctx.Process(target=_serve, daemon=True, name="evalfw-worker",
                                      args=(there, task, context, os.getpid(), inherited))
                process.start()
                there.close()
                self.workers.append(_Worker(process, here))
        except BaseException:
            self.stop(graceful=False)
            raise

    def load(self, task: Callable[[Any, Any], Any], context: Any) -> bool:
        """Give every worker a new map's ``task`` and ``context``, pickled once; False when
        they do not pickle or a worker cannot take them (the caller forks a new pool)."""
        try:
            payload = pickle.dumps(("map", task, context), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # a lambda, a lock: inherited through a fork instead
            return False
        try:
            for worker in self.workers:
                worker.conn.send_bytes(payload)
            for worker in self.workers:
                wait([worker.conn, worker.process.sentinel])
                if not worker.conn.poll() or not worker.conn.recv()[0]:
                    return False
        except (EOFError, OSError):
            return False
        return True

    def results(self, items: Sequence[Any], done: Callable[[int], None] | None
                ) -> Iterator[Any]:
        """Results in item order; ``done(i)`` as each item finishes, in any order."""
        finished: dict[int, tuple[bool, Any]] = {}
        idle, busy = list(self.workers), {}
        sent = turn = 0
        while turn < len(items):
            while idle and sent < len(items):
                worker = idle.pop()
                try:
                    worker.conn.send((items[sent],))
                except OSError:  # it died while idle
                    raise WorkerLost(death(worker.process), sent, LOST_ADVICE) from None
                worker.job, busy[worker.conn] = sent, worker
                sent += 1
            while turn in finished:  # a failed job raises in item order, as serially
                ok, value = finished.pop(turn)
                turn += 1
                if not ok:
                    raise value
                yield value
            if turn >= len(items):
                break
            sentinels = {w.process.sentinel: w for w in busy.values()}
            ready = wait([*busy, *sentinels])
            # answers first: a worker may have answered and then ended
            for worker in [busy[c] for c in ready if c in busy] + \
                          [sentinels[s] for s in ready if s in sentinels]:
                if worker.conn not in busy:
                    continue
                index = worker.job
                assert index is not None
                finished[index] = self._answer(worker, index)
                del busy[worker.conn]
                worker.job = None
                idle.append(worker)
                if done is not None:
                    done(index)

    def _answer(self, worker: _Worker, index: int) -> tuple[bool, Any]:
        if worker.conn.poll():
            try:
                return worker.conn.recv()  # type: ignore[no-any-return]
            except (EOFError, OSError):
                pass  # it died while answering
            except Exception as exc:  # an answer that does not unpickle here
                raise ExecutorError(
                    f"the answer of a worker process to job {index + 1} could not be read "
                    f"({type(exc).__name__}: {exc}); nothing was stored") from exc
        raise WorkerLost(death(worker.process), index, LOST_ADVICE)

    def stop(self, graceful: bool) -> None:
        """Stop every worker: asked to (after a map that finished), or killed at once."""
        for worker in self.workers:
            if graceful:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
            elif worker.process.is_alive():
                worker.process.kill()
        for worker in self.workers:
            worker.process.join(timeout=STOP_GRACE if graceful else None)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()


class Processes(Executor):
    """Jobs in a pool of ``workers`` forked processes (results identical to ``serial``).
    Where the operating system cannot fork, jobs run serially.

    Used as a context manager (as a run does), the pool lives from the first map to
    :meth:`close`: later maps send their task and context to the workers pickled, once each,
    instead of forking a new pool (a fork copies the process's page tables, and every page a
    worker then writes). A map whose work does not pickle gets a new pool, forked with it."""

    name = "processes"
    description = "run jobs in a pool of worker processes on this machine (--jobs N)"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"workers": LIMITS["jobs"].schema(default=2,
                                                         description="worker processes")},
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        #: inside ``with``: the pool kept between maps, serving maps side by side
        self._session = False
        self._pool: _Pool | None = None
        self._shared: Any = None
        self._starting = threading.Lock()  # tables' threads ask for the pool at once

    @property
    def parallelism(self) -> int:  # type: ignore[override]
        return int(self.options["workers"])

    @property
    def streams(self) -> bool:  # type: ignore[override]
        return self._session and self.parallelism >= 2 and \
            "fork" in multiprocessing.get_all_start_methods()

    def __enter__(self) -> Processes:
        self._session = True
        return self

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        if self.streams and len(items) >= 2:  # a run: one pool, every map side by side
            from evalfw.executors._shared_pool import SharedPool

            with self._starting:
                if self._shared is None:
                    self._shared = SharedPool(self.parallelism)
            found = self._shared.map(task, items, context, done)
            if found is not None:
                return found  # type: ignore[no-any-return]
        # a task or context that does not pickle is inherited by a pool forked with it
        return self._forked(task, items, context, done)

    def _forked(self, task: Callable[[Any, Item], Result], items: Sequence[Item],
                context: Any, done: Callable[[int], None] | None = None) -> Iterator[Result]:
        workers = self.options["workers"] if self._session else \
            min(self.options["workers"], len(items))
        if workers < 2 or len(items) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            yield from Serial().map(task, items, context, done)
            return
        with self._starting:  # maps of tables side by side: each takes the kept pool alone
            pool, self._pool = self._pool, None
        if pool is not None and not pool.load(task, context):
            pool.stop(graceful=True)
            pool = None
        if pool is None:
            pool = _Pool(workers, task, context)
        finished = False
        try:
            yield from pool.results(items, done)
            finished = True
        finally:  # a failure, Ctrl-C, SIGTERM or an abandoned generator: no worker stays
            with self._starting:
                keep = finished and self._session and self._pool is None
                if keep:
                    self._pool = pool
            if not keep:
                pool.stop(graceful=finished)

    def cancel(self) -> None:
        if self._shared is not None:
            self._shared.cancel()

    def close(self) -> None:
        self._session = False
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop(graceful=True)
        shared, self._shared = self._shared, None
        if shared is not None:
            shared.close()


__all__ = ["PARENT_CHECK", "Processes", "Serial"]
