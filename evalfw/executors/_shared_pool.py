"""A pool of forked workers that serves several maps at once (the ``processes`` executor
inside a run), so one significance table's blocks keep the workers busy while another table
is between maps, and the client's own work (walking a generator, the drill-down) overlaps
them.

Each map's task and context are pickled once and sent to a worker with its first item of
that map; the worker keeps them until the map ends. A dispatcher thread owns the pipes: it
hands items to idle workers in submission order (earlier maps first), collects answers, and
sees a dying worker through its process sentinel. The map that was computing there fails
with :class:`~evalfw.executors.base.WorkerLost` naming the item; every other map fails too
(the pool is broken, and the run stops). Results come back in item order, whatever order
they finish in, so numbers are those of a serial run.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from evalfw.executors._workers import LOST_ADVICE, STOP_GRACE, attempt, begin, death, reply
from evalfw.executors.base import ExecutorError, WorkerLost

#: how often a waiting consumer wakes (seconds): signals reach the main thread between waits
WAKE = 0.5


def _serve(conn: Any, parent: int, inherited: list[Any]) -> None:
    """A worker: keep each map's (task, context) from its first item until told to drop it;
    answer each item with (map, index, ok, value)."""
    begin(parent, inherited)
    loaded: dict[int, tuple[Callable[[Any, Any], Any], Any]] = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message[0] == "drop":
            loaded.pop(message[1], None)
            continue
        _, map_id, index, item, payload = message
        if payload is not None:
            loaded[map_id] = pickle.loads(payload)
        task, context = loaded[map_id]
        reply(conn, (map_id, index), *attempt(task, context, item))


class PoolBroken(ExecutorError):
    """A map that failed because another map's worker was lost (``cause``): the caller
    reports ``cause``, which names its job, rather than this."""

    def __init__(self, cause: BaseException) -> None:
        self.cause = cause
        super().__init__(str(cause))


@dataclass(eq=False)
class _Map:
    payload: bytes
    size: int
    results: dict[int, tuple[bool, Any]] = field(default_factory=dict)
    #: finished items not yet reported to ``done``
    finished: list[int] = field(default_factory=list)
    failure: BaseException | None = None


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Any
    job: tuple[int, int] | None = None
    #: maps whose task and context this worker holds
    held: set[int] = field(default_factory=set)


class SharedPool:
    """``size`` forked workers serving maps submitted from any thread (module docstring)."""

    def __init__(self, size: int) -> None:
        ctx = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []
        self.lock = threading.Condition()
        self.queue: deque[tuple[int, int, Any]] = deque()
        self.maps: dict[int, _Map] = {}
        self.ids = itertools.count()
        self.broken: BaseException | None = None
        self.closing = False
        self.wake_r, self.wake_w = os.pipe()
        try:
            for _ in range(size):
                here, there = ctx.Pipe()
                process = ctx.Process(target=_serve, daemon=True, name="evalfw-worker",
                                      args=(there, os.getpid(), [w.conn for w in self.workers]))
                process.start()
                there.close()
                self.workers.append(_Worker(process, here))
        except BaseException:
            self._kill()
            raise
        self.thread = threading.Thread(target=self._dispatch, name="evalfw-dispatch",
                                       daemon=True)
        self.thread.start()

    def map(self, task: Callable[[Any, Any], Any], items: Sequence[Any], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Any] | None:
        """Results in item order (every item submitted now); None when the task or context
        does not pickle (the caller runs the map another way)."""
        try:
            payload = pickle.dumps((task, context), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            return None
        with self.lock:
            if self.broken is not None:
                raise PoolBroken(self.broken)
            map_id = next(self.ids)
            self.maps[map_id] = _Map(payload, len(items))
            self.queue.extend((map_id, i, item) for i, item in enumerate(items))
        self._wake()
        return self._results(map_id, done)

    def _results(self, map_id: int, done: Callable[[int], None] | None) -> Iterator[Any]:
        one = self.maps[map_id]
        try:
            for turn in range(one.size):
                while True:
                    with self.lock:
                        if turn not in one.results and one.failure is None:
                            self.lock.wait(WAKE)
                        finished, one.finished = one.finished, []
                        failure = one.failure
                        answer = one.results.pop(turn, None)
                    for index in finished:
                        if done is not None:
                            done(index)
                    if answer is not None:
                        break
                    if failure is not None:
                        raise failure
                ok, value = answer
                if not ok:
                    raise value
                yield value
        finally:  # finished, failed or abandoned: its items leave the queue, workers forget it
            with self.lock:
                self.queue = deque(q for q in self.queue if q[0] != map_id)
                self.maps.pop(map_id, None)
            self._wake()

    def _wake(self) -> None:
        try:
            os.write(self.wake_w, b"x")
        except OSError:
            pass

    def _dispatch(self) -> None:
        try:
            while not self.closing:
                self._hand_out()
                busy = {w.conn: w for w in self.workers if w.job is not None}
                sentinels = {w.process.sentinel: w for w in busy.values()}
                ready = wait([self.wake_r, *busy, *sentinels])
                if self.wake_r in ready:
                    os.read(self.wake_r, 4096)
                for worker in [busy[c] for c in ready if c in busy] + \
                              [sentinels[s] for s in ready if s in sentinels]:
                    if worker.job is not None and not self._answer(worker):
                        return  # a worker died: every map failed, close() stops the rest
        except BaseException as exc:  # noqa: BLE001 - every consumer hears of it
            self._fail(exc if isinstance(exc, ExecutorError) else ExecutorError(
                f"the worker pool failed ({type(exc).__name__}: {exc}); nothing was stored"))

    def _hand_out(self) -> None:
        with self.lock:
            for worker in self.workers:  # maps that ended: their holders forget them
                for gone in [m for m in worker.held if m not in self.maps]:
                    worker.held.discard(gone)
                    try:
                        worker.conn.send(("drop", gone))
                    except OSError:  # it died: its sentinel tells the rest when it is busy
                        pass
            for worker in self.workers:
                if worker.job is not None or not self.queue:
                    continue
                map_id, index, item = self.queue.popleft()
                one = self.maps[map_id]
                payload = None if map_id in worker.held else one.payload
                worker.held.add(map_id)
                if all(map_id in w.held for w in self.workers):
                    one.payload = b""  # every worker has it: the texts are not held twice here
                worker.job = (map_id, index)
                try:
                    worker.conn.send(("item", map_id, index, item, payload))
                except OSError:  # it died while idle: its sentinel tells the rest
                    pass

    def _answer(self, worker: _Worker) -> bool:
        assert worker.job is not None
        map_id, index = worker.job
        try:
            if worker.conn.poll():
                got_id, got_index, ok, value = worker.conn.recv()
                with self.lock:
                    worker.job = None
                    one = self.maps.get(got_id)
                    if one is not None:
                        one.results[got_index] = (ok, value)
                        one.finished.append(got_index)
                    self.lock.notify_all()
                return True
        except (EOFError, OSError):
            pass
        self._fail(WorkerLost(death(worker.process), index, LOST_ADVICE), map_id)
        return False

    def _fail(self, exc: BaseException, map_id: int | None = None) -> None:
        """Every map fails (the one computing on a lost worker with ``exc`` itself)."""
        with self.lock:
            self.broken = self.broken or exc
            for key, one in self.maps.items():
                if one.failure is None:
                    one.failure = exc if key == map_id or map_id is None else \
                        PoolBroken(exc)
            self.queue.clear()
            self.lock.notify_all()

    def cancel(self) -> None:
        """Every map not finished fails at once (Ctrl-C, or another table's failure)."""
        self._fail(ExecutorError("cancelled: the run stopped; nothing was stored"))

    def close(self) -> None:
        """Stop the dispatcher and every worker (idle ones asked to, within a grace; busy
        ones killed)."""
        self.closing = True
        self._wake()
        self.thread.join(STOP_GRACE)
        # a worker still computing belongs to a run that failed or was stopped: killed now
        idle = [w for w in self.workers if w.job is None]
        for worker in idle:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in idle:
            worker.process.join(timeout=STOP_GRACE)
        self._kill()
        for fd in (self.wake_r, self.wake_w):
            os.close(fd)

    def _kill(self) -> None:
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.kill()
            worker.process.join()
            worker.conn.close()


__all__ = ["PoolBroken", "SharedPool"]
