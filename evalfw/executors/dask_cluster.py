"""The ``dask`` executor: the runner's jobs on a Dask cluster (``pip install 'evalfw[dask]'``).

``evalfw run CONFIG --executor dask --scheduler tcp://HOST:PORT`` uses a running scheduler;
without an address, a LocalCluster of ``workers`` processes (default: one per core) listens on
127.0.0.1 for this run only. The config form is ``executor: {name: dask, address: ...}``.

What moves: the client reads every input and *scatters* each test set's work (texts, metric
definitions) once (Dask replicates it to every worker); a job is then a few bytes (system,
statistics key, shard) and its result the statistics rows. With ``shared_fs: true`` the work
names each file by absolute path and sha256 instead, and the workers read the files. Workers
prepare the references themselves, once per reference set and process
(:func:`evalfw.runner._jobs.prepared_references`). Resampling blocks travel as generator
states (:mod:`evalfw.analysis._blocks`).

Dask is imported when the executor starts, not when evalfw imports this module, so evalfw
starts as fast without the extra and fails with one line naming the install command.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from evalfw.errors import ConfigError, EvalfwError
from evalfw.executors.base import Executor, Item, Result

INSTALL = "pip install 'evalfw[dask]'"


class ClusterError(EvalfwError):
    """The cluster failed the run (a scheduler that cannot be reached, workers lost)."""


def _call(task: Callable[[Any, Any], Any], context: Any, item: Any) -> Any:
    return task(context, item)


def _outcome(future: Any) -> Any:
    """A finished task's result; a cluster failure as one line (a task's own error as is)."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker

    try:
        return future.result()
    except KilledWorker as exc:
        raise ClusterError(
            f"the Dask cluster lost the workers running a job ({exc}); nothing was stored; "
            "check the workers' memory and logs, then run again") from None
    except CancelledError:
        raise ClusterError(
            "a job was cancelled on the Dask cluster (the run was interrupted, or the "
            "connection to the scheduler was lost); nothing was stored; check the scheduler, "
            "then run again") from None


class DaskExecutor(Executor):
    """Jobs as tasks on a Dask cluster; results are identical to ``serial``."""

    name = "dask"
    description = f"run jobs on a Dask cluster (--scheduler ADDRESS, or a local one; {INSTALL})"
    remote: ClassVar[bool] = True
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "address": {"type": ["string", "null"], "default": None,
                        "description": "scheduler address, e.g. tcp://10.0.0.5:8786 (none: a "
                                       "LocalCluster on 127.0.0.1 for this run)"},
            "workers": {"type": ["integer", "null"], "minimum": 1, "maximum": 4096,
                        "default": None,
                        "description": "LocalCluster worker processes (none: one per core)"},
            "shared_fs": {"type": "boolean", "default": False,
                          "description": "the workers see the client's paths"},
            "shard_segments": {"type": "integer", "minimum": 1, "default": 20000,
                               "description": "split a test set with more segments into "
                                              "shards of this many (rows are concatenated)"},
            "connect_timeout": {"type": "number", "exclusiveMinimum": 0, "default": 5,
                                "description": "seconds to wait for the scheduler"},
        },
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._client: Any = None
        self._cluster: Any = None
        #: the cluster's size when the run started, for the record
        self._size: dict[str, int] = {}
        self._scoped = False
        #: futures of the maps not consumed yet (possibly from several threads)
        self._pending: set[Any] = set()

    @property
    def shard_segments(self) -> int:
        return int(self.options["shard_segments"])

    @property
    def parallelism(self) -> int:  # type: ignore[override]
        return max(1, self._size.get("threads", 1))

    def _measure(self) -> None:
        workers = self._client.scheduler_info()["workers"].values()
        self._size = {"workers": len(workers),
                      "threads": sum(int(w.get("nthreads", 1)) for w in workers)}

    def __enter__(self) -> DaskExecutor:
        self._scoped = self._client is None
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._scoped:  # started by ``with``: stopped by it; after start(), by close()
            self.close()

    def start(self) -> None:
        """Connect to the scheduler (or start a LocalCluster); one-line errors otherwise. A
        caller that starts the executor keeps it across runs until :meth:`close`."""
        if self._client is not None:
            return
        try:
            import logging

            from distributed import Client, LocalCluster
        except ImportError:
            raise ConfigError(f"executor 'dask' needs Dask, which is not installed; install it "
                              f"with: {INSTALL}") from None
        address = self.options["address"]
        timeout = float(self.options["connect_timeout"])
        if address:
            try:
                self._client = Client(address, timeout=timeout, set_as_default=False)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(
                    f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                    f"({type(exc).__name__}); start it (`dask scheduler`) or correct "
                    "--scheduler / executor.address") from None
            self._measure()
            return
        import dask

        workers = self.options["workers"] or os.cpu_count() or 1
        # processes, one thread each: the statistics are Python code that holds the GIL. The
        # workers share this terminal: they log only errors, not the warnings of the tasks
        # Ctrl-C cancels. Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also
        # fixes glibc's mmap threshold at 128 KB: every larger array is then a fresh mapping,
        # and a bootstrap block's temporaries fault in about 2300 pages each time (a block
        # took 7.8 ms instead of 4.7). Workers that live for one run keep glibc's defaults
        # (a value the user exported still applies).
        with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_":
                              None}):
            self._cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                         processes=True, host="127.0.0.1",
                                         dashboard_address=None, silence_logs=logging.ERROR)
        self._client = Client(self._cluster, set_as_default=False)
        self._measure()

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        if not items:
            return iter(())
        self.start()
        client = self._client
        # one copy of the context per worker, sent once; every task refers to it
        shared = client.scatter(context, broadcast=True, hash=False)
        futures = client.map(_call, [task] * len(items), [shared] * len(items), list(items),
                             pure=False)
        self._pending.update(futures)
        return self._results(futures, shared, done)

    def _results(self, futures: list[Any], shared: Any, done: Callable[[int], None] | None
                 ) -> Iterator[Any]:
        """Results in item order; ``done`` as tasks finish anywhere on the cluster."""
        from distributed import as_completed

        index = {future.key: i for i, future in enumerate(futures)}
        finished: dict[int, Any] = {}
        turn = 0
        try:
            for future in as_completed(futures, loop=self._client.loop):
                i = index[future.key]
                finished[i] = future
                if done is not None:
                    done(i)
                while turn in finished:  # a failed task raises in item order, as serially
                    yield _outcome(finished.pop(turn))
                    turn += 1
        finally:  # a failure, Ctrl-C or an abandoned generator: the cluster stops working too
            self._pending.difference_update(futures)
            if self._client is not None:
                self._client.cancel([f for f in futures if not f.done()] + [shared])

    def cancel(self) -> None:
        if self._client is not None and self._pending:
            self._client.cancel(list(self._pending))

    @property
    def shared_fs(self) -> bool:
        return bool(self.options["shared_fs"])

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name,
                               "address": self.options["address"] or "local",
                               "shared_fs": self.options["shared_fs"]}
        return {**out, **self._size}

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


__all__ = ["ClusterError", "DaskExecutor", "INSTALL"]
