"""The built-in executors: ``serial`` (in this process) and ``processes`` (a pool of forked
worker processes on this machine, ``evalfw run --jobs N``)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from evalfw.executors.base import Executor, Item, Result
from evalfw.plugin import hookimpl
from evalfw.plugin.guard import escaped


class Serial(Executor):
    """Every job in this process, one after the other."""

    name = "serial"
    description = "run every job in this process"

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item],
            context: Any) -> Iterator[Result]:
        for item in items:
            yield task(context, item)


# The context a forked worker was started with. It is set in the worker only, by the pool's
# initializer; with the fork start method the initializer's arguments are inherited through
# the fork, not pickled, so large prepared references cost nothing to hand over.
_worker_context: Any = None


def _start_worker(context: Any) -> None:
    global _worker_context
    _worker_context = context


def _run(job: tuple[Callable[[Any, Any], Any], Any]) -> Any:
    task, item = job
    try:
        return task(_worker_context, item)
    except (Exception, KeyboardInterrupt):
        raise
    except BaseException as exc:
        # SystemExit from plugin code would end the worker silently and the pool would wait
        # for its result forever; a PluginError travels back to the parent instead
        raise escaped(exc, "computing in a worker process") from None


class Processes(Executor):
    """Jobs in a pool of ``workers`` forked processes (results identical to ``serial``).
    Where the operating system cannot fork, jobs run serially."""

    name = "processes"
    description = "run jobs in a pool of worker processes on this machine (--jobs N)"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"workers": {"type": "integer", "minimum": 1, "maximum": 1024,
                                   "default": 2, "description": "worker processes"}},
        "additionalProperties": False,
    }

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item],
            context: Any) -> Iterator[Result]:
        workers = min(self.options["workers"], len(items))
        if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
            yield from Serial().map(task, items, context)
            return
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers, initializer=_start_worker, initargs=(context,)) as pool:
            yield from pool.imap(_run, [(task, item) for item in items])


@hookimpl
def evalfw_register_executors() -> list[type[Executor]]:
    return [Serial, Processes]


__all__ = ["evalfw_register_executors", "Processes", "Serial"]
