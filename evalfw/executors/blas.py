"""One BLAS thread inside evalfw's own computation, without touching environment variables.

evalfw's matrix products (resampling counts times statistics rows) are small, and its
parallelism is its own (processes, cluster workers): BLAS threads on top of that oversubscribe
the cores, and on a many-core machine a run got slower. :func:`one_blas_thread` limits the BLAS
libraries loaded in this process to one thread while evalfw computes, and gives them back
their count afterwards: with threadpoolctl when it is installed, else by calling OpenBLAS's own
``*_set_num_threads`` (the BLAS numpy's wheels bring), found among the loaded libraries. A
BLAS it cannot find is left as it is: it changes speed, never a number.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

#: OpenBLAS's (getter, setter) names, plain and as numpy's and scipy's wheels rename them
_NAMES = [(f"{prefix}openblas_get_num_threads{suffix}", f"{prefix}openblas_set_num_threads{suffix}")
          for prefix in ("", "scipy_") for suffix in ("", "64_")]
_FOUND: list[tuple[Callable[[], int], Callable[[int], None]]] | None = None


def _openblas() -> list[tuple[Callable[[], int], Callable[[int], None]]]:
    """(get, set) of each OpenBLAS loaded in this process (Linux: from /proc/self/maps)."""
    global _FOUND
    if _FOUND is not None:
        return _FOUND
    import ctypes

    found = []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            paths = sorted({line.split()[-1] for line in f
                            if "openblas" in line.lower() and ".so" in line})
    except OSError:
        paths = []
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for get, set_ in _NAMES:
            if hasattr(lib, get) and hasattr(lib, set_):
                getter, setter = getattr(lib, get), getattr(lib, set_)
                getter.restype, setter.argtypes = ctypes.c_int, [ctypes.c_int]
                found.append((getter, setter))
                break
    _FOUND = found
    return found


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS libraries of this process on one thread inside the block (numpy is loaded first,
    so its BLAS is there to limit)."""
    import numpy  # noqa: F401  (its BLAS must be loaded to be limited)

    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        threadpool_limits = None
    if threadpool_limits is not None:
        with threadpool_limits(limits=1, user_api="blas"):
            yield
        return
    libs = _openblas() if sys.platform.startswith("linux") else []
    before = [get() for get, _ in libs]
    for _, set_ in libs:
        set_(1)
    try:
        yield
    finally:
        for (_, set_), count in zip(libs, before):
            set_(count)


__all__ = ["one_blas_thread"]
