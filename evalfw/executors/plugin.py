"""The built-in executors (``auto``, ``serial``, ``processes``, ``dask``), registered through the same
hook as any executor plugin.

The hook imports them when executors are first asked for; Dask itself is imported only when a
``dask`` executor starts (it is the optional extra ``evalfw[dask]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    from evalfw.executors.base import Executor


@hookimpl
def evalfw_register_executors() -> list[type[Executor]]:
    from evalfw.executors.auto import Auto
    from evalfw.executors.dask_cluster import DaskExecutor
    from evalfw.executors.local import Processes, Serial

    return [Auto, Serial, Processes, DaskExecutor]


__all__ = ["evalfw_register_executors"]
