"""Running Python code or ``evalfw`` in a subprocess under an address-space cap
(``RLIMIT_AS``, what ``ulimit -v`` sets) and a wall-clock timeout: a test whose point is memory
fails with the child's MemoryError instead of exhausting the machine, and a hang fails the test
instead of stalling the suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

MiB = 1 << 20
GiB = 1 << 30


def _limit(cap: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def run_capped(args: list[str], cap: int, *, timeout: float = 60,
               stdin: bytes | IO[bytes] | None = None, cwd: str | Path | None = None,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python args...`` with at most ``cap`` bytes of address space; text output.
    ``stdin``: bytes to send, or a file (a pipe) to read from."""
    if sys.platform != "linux":
        pytest.skip("RLIMIT_AS caps are tested on Linux")
    given = {"input": stdin} if isinstance(stdin, bytes) or stdin is None else {"stdin": stdin}
    done = subprocess.run([sys.executable, *args], capture_output=True, timeout=timeout,
                          cwd=cwd, env={**os.environ, **(env or {})},
                          preexec_fn=lambda: _limit(cap), **given)  # type: ignore[call-overload]
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def evalfw_capped(*args: str, cap: int, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """The ``evalfw`` command (``python -m evalfw``) under the cap."""
    return run_capped(["-m", "evalfw", *args], cap, **kwargs)  # type: ignore[arg-type]
