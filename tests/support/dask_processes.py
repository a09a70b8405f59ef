"""Dask schedulers and workers as their own processes on 127.0.0.1, for the executor tests:
started here, stopped by the test that started them, every wait bounded. A scheduler ends
itself after ``--idle-timeout``, a worker without a scheduler after ``--death-timeout``, so a
test process that dies leaves nothing running for long."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest

from tests.support.servers import free_port

#: every bound on waiting, in seconds: a hung cluster fails the test instead of CI
START_TIMEOUT = 30
RUN_TIMEOUT = 60
#: a test still running after this long is a hang: the test process dumps its threads and
#: exits; the cluster's processes then end themselves (idle scheduler, orphaned workers)
HANG_TIMEOUT = 180


def spawn(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, env=env)


def scheduler(port: int, *extra: str) -> subprocess.Popen[bytes]:
    return spawn("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                 "--no-dashboard", "--idle-timeout", "300", *extra)


def worker(address: str, nanny: bool = False, extra: Sequence[str] = (),
           env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """One single-thread worker; without a nanny, killing the process loses the worker, as a
    crashed machine would; with one, the nanny starts a new worker process."""
    return spawn("distributed.cli.dask_worker", address, "--nthreads", "1",
                 "--nanny" if nanny else "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                 "--death-timeout", "60", *extra, env=env)


def stop(procs: Sequence[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=3)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=10)


def workers_of(address: str, n: int, exactly: bool = False, security: object = None
               ) -> dict[str, int]:
    """Worker address -> process id, once the scheduler has at least (or exactly) ``n``."""
    import os

    import distributed

    with distributed.Client(address, timeout=START_TIMEOUT, set_as_default=False,
                            security=security) as client:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            found = client.run(os.getpid) if client.nthreads() else {}
            if len(found) == n or (len(found) > n and not exactly):
                return {str(k): int(v) for k, v in found.items()}
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(found)} worker(s) at {address}, not {n}, after "
                                     f"{START_TIMEOUT} s")
            time.sleep(0.1)


def same_numbers(record: dict, arrays: dict, want: dict) -> None:
    """A cluster run's record and arrays equal ``want``'s (a serial run's record with its
    ``arrays``) in every score, statistic, p-value and interval."""
    import numpy as np

    assert record["results"] == want["results"]
    assert record.get("significance") == want.get("significance")
    assert record["specs"] == want["specs"]
    assert record["segments"]["cells"] == want["segments"]["cells"]
    assert sorted(arrays) == sorted(want["arrays"])
    for key, value in want["arrays"].items():
        assert arrays[key].dtype == value.dtype and np.array_equal(arrays[key], value), key


@pytest.fixture
def bounded() -> Iterator[None]:
    """A test still running after :data:`HANG_TIMEOUT` dumps its threads and ends the test
    process; the cluster's processes then end themselves."""
    import faulthandler

    faulthandler.dump_traceback_later(HANG_TIMEOUT, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@contextmanager
def bare_scheduler(*extra: str) -> Iterator[str]:
    """A scheduler without workers; its address."""
    port = free_port()
    proc = scheduler(port, *extra)
    address = f"{'tls' if '--tls-cert' in extra else 'tcp'}://127.0.0.1:{port}"
    try:
        yield address
    finally:
        stop([proc])


__all__ = ["bare_scheduler", "bounded", "HANG_TIMEOUT", "RUN_TIMEOUT", "same_numbers", "scheduler", "spawn",
           "START_TIMEOUT", "stop", "worker", "workers_of"]
