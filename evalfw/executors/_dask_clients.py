"""Starting and stopping the Dask executor's clients, each within its bound.

:func:`connect` probes the address first (:mod:`evalfw.executors._scheduler_address`), then
builds Dask's client in two steps, so that one that fails while starting is closed here rather
than by its ``__del__`` seconds later, with a traceback. :func:`local_cluster` starts the
LocalCluster of a run without an address; :func:`wait_for_resources` waits, bounded, for a
worker with the resources a metric needs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from evalfw.errors import ConfigError
from evalfw.executors._scheduler_address import WHERE, Address, ProbeFailed, probe
from evalfw.executors.base import ExecutorError


class ClusterError(ExecutorError):
    """The cluster failed the run (a scheduler that cannot be reached, workers lost)."""


def where(address: Address | None) -> str:
    """The cluster, as messages name it."""
    return f"the Dask scheduler at {address}" if address else "the local Dask cluster"


def connect(address: Address, timeout: float) -> Any:
    """A client of the scheduler at ``address``, which must answer the probe and Dask's
    handshake within ``timeout`` seconds; one line (:class:`ClusterError`) otherwise."""
    from distributed import Client

    security, ssl_context = _security(address)
    started = time.monotonic()
    try:
        probe(address, timeout, ssl_context)
    except ProbeFailed as exc:
        raise ClusterError(
            f"cannot use {where(address)}: {exc}; correct {WHERE}, or start a "
            f"scheduler there (`dask scheduler --port {address.port}`)") from None
    left = max(1.0, timeout - (time.monotonic() - started))
    # built in two steps so that a client that fails while starting can still be closed
    # here, instead of by its __del__ at some later moment (with a traceback)
    client = Client.__new__(Client)
    try:
        Client.__init__(client, str(address), timeout=left, set_as_default=False,
                        security=security)
    except (OSError, TimeoutError, ValueError) as exc:
        discard(client)
        raise ClusterError(
            f"cannot use {where(address)}: it did not complete Dask's handshake within "
            f"{timeout:g} s ({type(exc).__name__}); check that it is a Dask scheduler of "
            f"this Dask version, or correct {WHERE}") from None
    except BaseException:
        discard(client)
        raise
    return client


def local_cluster(workers: int) -> tuple[Any, Any]:
    """A LocalCluster of ``workers`` single-thread processes on 127.0.0.1, and its client."""
    import dask
    from distributed import Client, LocalCluster

    # processes, one thread each: the statistics are Python code that holds the GIL. The
    # workers share this terminal: they log only errors, not the warnings of the tasks
    # Ctrl-C cancels. Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also
    # fixes glibc's mmap threshold at 128 KB: every larger array is then a fresh mapping,
    # and a bootstrap block's temporaries fault in about 2300 pages each time (a block
    # took half as long again). Workers that live for one run keep glibc's defaults
    # (a value the user exported still applies). The scheduler's HTTP server (no
    # dashboard) takes any free port of 127.0.0.1, not 8787 that another cluster may use.
    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_":
                          None}):
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, silence_logs=logging.ERROR,
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})
    return cluster, Client(cluster, set_as_default=False)


def wait_for_resources(client: Any, resources: Mapping[str, float], timeout: float,
                       cluster: str, address: Address | None) -> None:
    """Return once a worker has ``resources``; a one-line error after ``timeout`` seconds
    (tasks nobody can run would wait for ever)."""
    deadline = time.monotonic() + timeout
    while True:
        workers = client.scheduler_info(n_workers=-1).get("workers", {})
        if any(all(w.get("resources", {}).get(k, 0) >= v for k, v in resources.items())
               for w in workers.values()):
            return
        if time.monotonic() >= deadline:
            wanted = " ".join(f"{k}={v:g}" for k, v in resources.items())
            raise ClusterError(
                f"no worker of {cluster} has the resources {wanted} that a metric needs (none "
                f"joined within {timeout:g} s); nothing was stored; start one (`dask worker "
                f"{address or 'ADDRESS'} --resources \"{wanted}\"`) or raise "
                "executor.worker_timeout")
        time.sleep(0.1)


def _security(address: Address) -> tuple[Any, Any]:
    """(Dask's Security, the client's SSL context) for a ``tls://`` address, from Dask's TLS
    settings; (None, None) for ``tcp://``."""
    if address.scheme != "tls":
        return None, None
    from distributed.security import Security

    security = Security()
    context = security.get_connection_args("client").get("ssl_context")
    if context is None:
        raise ConfigError(
            f"{WHERE} {address}: tls:// needs Dask's TLS settings, which are not set: "
            "distributed.comm.tls.ca-file, .client.cert and .client.key (in "
            "~/.config/dask/*.yaml, or $DASK_DISTRIBUTED__COMM__TLS__CA_FILE, "
            "..._CLIENT__CERT, ..._CLIENT__KEY); set them or use tcp://")
    return security, context


#: the loggers of this process that report on a closing client's leftover work (a
#: LocalCluster's scheduler and nannies live in this process too)
_SHUTDOWN_LOGGERS = ("tornado.application", "asyncio", "distributed.client",
                     "distributed.comm", "distributed.core", "distributed.batched",
                     "distributed.scheduler", "distributed.nanny")


class quiet_shutdown:
    """Dask's, tornado's and asyncio's loggers in this process at CRITICAL while a client and
    its cluster close, then as they were. When a run stops early (Ctrl-C, SIGTERM, an error),
    the client's event loop may still be tracking futures of tables that were resampling; as
    the connections close, each such task fails and tornado logs an ERROR with a traceback,
    which would bury the run's own one-line message. The outcome is decided by then."""

    def __enter__(self) -> None:
        self._levels = {name: logging.getLogger(name).level for name in _SHUTDOWN_LOGGERS}
        for name in _SHUTDOWN_LOGGERS:
            logging.getLogger(name).setLevel(logging.CRITICAL)

    def __exit__(self, *exc: object) -> None:
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)


def discard(client: Any, timeout: float = 2.0) -> None:
    """Close ``client`` (possibly half-started) within ``timeout``, quietly: a client left
    to its ``__del__`` prints a traceback seconds later."""
    try:
        client.close(timeout=timeout)
    except Exception:
        pass
    try:  # what close() did not get to: its __del__ then has nothing left to do
        client.status = "closed"
        client._loop_runner.stop()
    except Exception:
        pass


__all__ = ["ClusterError", "connect", "discard", "local_cluster", "quiet_shutdown",
           "wait_for_resources", "where"]
