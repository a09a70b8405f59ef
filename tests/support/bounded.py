"""A time bound for a whole test: a test that hangs fails (``TimeoutError`` from SIGALRM)
instead of stalling the suite. Import ``time_bound`` into a test module to bound each of its
tests by ``BOUND_SECONDS`` (or the module's own ``BOUND_SECONDS``)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest

BOUND_SECONDS = 60


@pytest.fixture(autouse=True)
def time_bound(request: pytest.FixtureRequest) -> Iterator[None]:
    seconds = getattr(request.module, "BOUND_SECONDS", BOUND_SECONDS)

    def hung(*_: Any) -> None:
        raise TimeoutError(f"{request.node.name} took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
