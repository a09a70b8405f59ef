"""The ``dask`` executor: the runner's jobs on a Dask cluster (``pip install 'evalfw[dask]'``).

``evalfw run CONFIG --executor dask --scheduler tcp://HOST:PORT`` uses a running scheduler;
without an address, a LocalCluster of ``workers`` processes (default: one per core) listens on
127.0.0.1 for this run only. The config form is ``executor: {name: dask, address: ...}``.

What moves: the client reads every input and hands each map's shared work (a test set's
texts and metric definitions, a table's statistics rows) to the cluster once, pickled, as
the argument of one task; the map's tasks depend on that task, so a worker that needs the work
fetches it from one that has it, and if every copy is lost with its workers, Dask recomputes
it from the bytes the scheduler keeps (data scattered from the client could not be). A job is
then a few bytes (system, statistics key, shard) and its result the statistics rows. With
``shared_fs: true`` the work names each file by absolute path and sha256 instead, and the
workers read the files. Workers prepare the references themselves, once per reference set
and process (:func:`evalfw.runner._jobs.prepared_references`). Resampling blocks travel as
generator states (:mod:`evalfw.analysis._blocks`). Metrics from plugin files travel with
their source (:mod:`evalfw.host.portable`).

Every wait is bounded: the scheduler must answer within ``connect_timeout`` (checked by
:mod:`evalfw.executors._scheduler_address` before Dask's client is given the address), a
worker must be there within ``worker_timeout`` (at the start, and whenever the cluster has
none left), and a scheduler that stops answering mid-run fails the run.

Dask is imported when the executor starts, not when evalfw imports this module, so evalfw
starts as fast without the extra and fails with one line naming the install command.
"""

from __future__ import annotations

import math
import os
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from typing import Any, ClassVar

from evalfw.errors import ConfigError
from evalfw.executors import _dask_clients as clients
from evalfw.executors import _scheduler_address as addresses
from evalfw.executors._dask_clients import ClusterError
from evalfw.executors.base import Executor, Item, Result, WorkerLost
from evalfw.limits import MAX_WAIT_SECONDS, max_local_workers

INSTALL = "pip install 'evalfw[dask]'"
#: seconds without a finished task after which the client checks the cluster
CHECK_EVERY = 1.0


def _call(task: Callable[[Any, Any], Any], context: Any, item: Any) -> Any:
    from evalfw.executors.blas import one_blas_thread

    with one_blas_thread():  # the worker's other threads are tasks too
        return task(context, item)


def _unpickled(payload: bytes) -> Any:
    """A map's shared work, on a worker (the task every job of the map depends on)."""
    import pickle

    return pickle.loads(payload)


def _seconds(description: str, default: float) -> dict[str, Any]:
    return {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_WAIT_SECONDS,
            "default": default, "description": f"{description} (at most {MAX_WAIT_SECONDS})"}


class DaskExecutor(Executor):
    """Jobs as tasks on a Dask cluster; results are identical to ``serial``."""

    name = "dask"
    description = f"run jobs on a Dask cluster (--scheduler ADDRESS, or a local one; {INSTALL})"
    remote: ClassVar[bool] = True
    streams: ClassVar[bool] = True  # type: ignore[misc]
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "address": {"type": ["string", "null"], "default": None,
                        "description": "scheduler address, tcp://HOST:PORT or tls://HOST:PORT "
                                       "(none: a LocalCluster on 127.0.0.1 for this run)"},
            "workers": {"type": ["integer", "null"], "minimum": 1, "maximum": 4096,
                        "default": None,
                        "description": "LocalCluster worker processes (none: one per core; at "
                                       "most two per core)"},
            "shared_fs": {"type": "boolean", "default": False,
                          "description": "the workers see the client's paths"},
            "shard_segments": {"type": "integer", "minimum": 1, "default": 20000,
                               "description": "split a test set with more segments into "
                                              "shards of this many (rows are concatenated)"},
            "connect_timeout": _seconds("seconds to wait for the scheduler",
                                        5),
            "worker_timeout": _seconds("seconds to wait for a worker when "
                                       "the cluster has none", 30),
        },
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        for key in ("connect_timeout", "worker_timeout"):
            if not math.isfinite(self.options[key]):
                raise ConfigError(f"executor 'dask' option {key}: {self.options[key]} is not "
                                  f"a number of seconds from 0 to {MAX_WAIT_SECONDS}")
        text = self.options["address"]
        self._address = None
        if text:
            try:
                self._address = addresses.parse(text)
            except addresses.AddressError as exc:
                raise ConfigError(f"{addresses.WHERE} {addresses.shown(text)}: {exc}") from None
        workers = self.options["workers"]
        if workers is not None and workers > max_local_workers():
            raise ConfigError(
                f"executor 'dask' option workers: {workers} worker processes on "
                f"{os.cpu_count()} core(s); a LocalCluster takes at most {max_local_workers()} "
                "here (two per core); for more, start workers on other machines and pass "
                "--scheduler")
        self._client: Any = None
        self._cluster: Any = None
        #: the cluster's size when the run started, for the record
        self._size: dict[str, int] = {}
        self._scoped = False
        #: futures of the maps not consumed yet (possibly from several threads)
        self._pending: set[Any] = set()
        #: the loggers kept quiet from a map stopped early until the cluster has closed
        self._quiet = ExitStack()

    @property
    def shard_segments(self) -> int:
        return int(self.options["shard_segments"])

    @property
    def parallelism(self) -> int:  # type: ignore[override]
        return max(1, self._size.get("threads", 1))

    @property
    def where(self) -> str:
        """The cluster, as messages name it."""
        return clients.where(self._address)

    def _measure(self) -> None:
        threads = self._nthreads()
        self._size = {"workers": len(threads), "threads": sum(threads.values())}

    def _nthreads(self) -> dict[str, int]:
        """Threads of each worker, as the scheduler says within ``connect_timeout``."""
        try:
            found = self._client.nthreads(callback_timeout=self.options["connect_timeout"])
        except (OSError, TimeoutError) as exc:
            raise ClusterError(
                f"{self.where} stopped answering ({type(exc).__name__} after "
                f"{self.options['connect_timeout']:g} s); nothing was stored; check the "
                "scheduler, then run again") from None
        return {str(k): int(v) for k, v in found.items()}

    def __enter__(self) -> DaskExecutor:
        self._scoped = self._client is None
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._scoped:  # started by ``with``: stopped by it; after start(), by close()
            self.close()

    def start(self) -> None:
        """Connect to the scheduler (or start a LocalCluster) and wait for a worker; one-line
        errors otherwise, each within its timeout. A caller that starts the executor keeps
        it across runs until :meth:`close`."""
        if self._client is not None:
            return
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ConfigError(f"executor 'dask' needs Dask, which is not installed; install it "
                              f"with: {INSTALL}") from None
        try:
            if self._address is not None:
                self._client = clients.connect(self._address,
                                               float(self.options["connect_timeout"]))
            else:
                self._cluster, self._client = clients.local_cluster(
                    self.options["workers"] or os.cpu_count() or 1)
            self._wait_for_workers("")
            self._measure()
        except BaseException:
            self.close()
            raise

    def _wait_for_workers(self, doing: str) -> None:
        """Return once the cluster has a worker; a one-line error after ``worker_timeout``."""
        timeout = float(self.options["worker_timeout"])
        try:
            self._client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            raise ClusterError(
                f"{self.where} has no workers{doing} (none joined within {timeout:g} s); "
                f"nothing was stored; start some (`dask worker {self._address or 'ADDRESS'} "
                "--nthreads 1`) or raise executor.worker_timeout") from None

    def _wait_for_resources(self, resources: Mapping[str, float]) -> None:
        clients.wait_for_resources(self._client, resources, float(self.options["worker_timeout"]),
                                   self.where, self._address)

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        return self.map_on({}, task, items, context, done)

    def map_on(self, resources: Mapping[str, float], task: Callable[[Any, Item], Result],
               items: Sequence[Item], context: Any,
               done: Callable[[int], None] | None = None) -> Iterator[Result]:
        if not items:
            return iter(())
        import pickle

        import dask

        self.start()
        if resources:
            self._wait_for_resources(resources)
        client = self._client
        payload = pickle.dumps(context, protocol=pickle.HIGHEST_PROTOCOL)
        # the payload is in the graph on purpose (see the module docstring): no warning
        with dask.config.set({"distributed.admin.large-graph-warning-threshold": "1 PiB"}):
            shared = client.submit(_unpickled, payload, pure=False,
                                   key=f"evalfw-work-{uuid.uuid4().hex}")
        # the shared work goes anywhere; with resources, the jobs only to workers that have
        # them (the scheduler holds them until such a worker joins)
        futures = client.map(_call, [task] * len(items), [shared] * len(items), list(items),
                             pure=False, resources=dict(resources) or None)
        self._pending.update(futures)
        return self._results(futures, shared, done, dict(resources))

    def _results(self, futures: list[Any], shared: Any, done: Callable[[int], None] | None,
                 resources: dict[str, float] | None = None) -> Iterator[Any]:
        """Results in item order; ``done`` as tasks finish anywhere on the cluster."""
        from distributed import as_completed

        index = {future.key: i for i, future in enumerate(futures)}
        finished: dict[int, Any] = {}
        turn = 0
        # results are fetched in the client's event loop as tasks finish, not one request
        # from this thread per result
        waiting = as_completed(futures, loop=self._client.loop, with_results=True,
                               raise_errors=False)
        try:
            while turn < len(futures):
                batch = self._next_batch(waiting, resources)
                for future, result in batch:
                    i = index[future.key]
                    finished[i] = (future, result)
                    if done is not None:
                        done(i)
                while turn in finished:  # a failed task raises in item order, as serially
                    future, result = finished.pop(turn)
                    yield result if future.status == "finished" else \
                        self._outcome(future, turn)
                    turn += 1
        finally:  # a failure, Ctrl-C or an abandoned generator: the cluster stops working too
            self._pending.difference_update(futures)
            if turn < len(futures):
                # the scheduler (in this process for a LocalCluster) logs every gather the
                # cancellation cuts short, as the run's own one-line message is printed
                self._quiet.enter_context(clients.quiet_shutdown())
            if self._client is not None:
                self._client.cancel([f for f in futures if not f.done()] + [shared])

    def _next_batch(self, waiting: Any, resources: dict[str, float] | None = None
                    ) -> list[Any]:
        """The next finished futures; meanwhile, every ``CHECK_EVERY`` seconds, a check that
        the scheduler answers and has workers (with ``resources``, when the tasks need them:
        their last such worker may leave)."""
        quiet_since = time.monotonic()
        while True:
            batch = waiting.next_batch(block=False)
            if batch:
                return list(batch)
            if time.monotonic() - quiet_since >= CHECK_EVERY:
                self._check()
                if resources and self._client.status == "running":
                    self._wait_for_resources(resources)
                quiet_since = time.monotonic()
            with waiting.thread_condition:  # woken when a future finishes
                waiting.thread_condition.wait(timeout=0.1)

    def _check(self) -> None:
        if self._client.status != "running":
            return  # reconnecting (bounded by connect_timeout): futures are cancelled after
        if not self._nthreads():
            self._wait_for_workers(" left")

    def _outcome(self, future: Any, index: int) -> Any:
        """A finished task's result; a cluster failure as one line (a task's own error as
        is)."""
        from concurrent.futures import CancelledError

        from distributed import KilledWorker

        try:
            while True:
                try:  # its result may be lost with a worker since, and be computed again
                    return future.result(timeout=CHECK_EVERY)
                except TimeoutError:
                    self._check()
        except KilledWorker as exc:
            raise WorkerLost(
                f"{self.where} lost the workers that ran it ({exc})", index,
                "check the workers' memory and logs, then run again") from None
        except CancelledError:
            raise ClusterError(
                f"a job was cancelled on {self.where} (the run was interrupted, or the "
                "connection to the scheduler was lost); nothing was stored; check the "
                "scheduler, then run again") from None

    def cancel(self) -> None:
        if self._client is not None and self._pending:
            self._client.cancel(list(self._pending))

    @property
    def shared_fs(self) -> bool:
        return bool(self.options["shared_fs"])

    def record_entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name,
                               "address": self.options["address"] or "local",
                               "shared_fs": self.options["shared_fs"]}
        return {**out, **self._size}

    def close(self) -> None:
        timeout = float(self.options["connect_timeout"])
        with clients.quiet_shutdown():
            if self._client is not None:
                client, self._client = self._client, None
                clients.discard(client, timeout)
            if self._cluster is not None:
                cluster, self._cluster = self._cluster, None
                try:
                    cluster.close(timeout=max(timeout, 10.0))
                except (OSError, TimeoutError, RuntimeError):
                    pass  # its processes are ours: they end with this process
        self._quiet.close()


__all__ = ["ClusterError", "DaskExecutor", "INSTALL"]
