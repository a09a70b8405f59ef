"""The built-in executors: ``serial`` (in this process) and ``processes`` (a pool of forked
worker processes on this machine, ``evalfw run --jobs N``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from evalfw.executors.base import Executor, Item, Result
from evalfw.limits import LIMITS
from evalfw.plugin.guard import escaped


class Serial(Executor):
    """Every job in this process, one after the other."""

    name = "serial"
    description = "run every job in this process"

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        for i, item in enumerate(items):
            result = task(context, item)
            if done is not None:
                done(i)
            yield result


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
        "properties": {"workers": LIMITS["jobs"].schema(default=2,
                                                         description="worker processes")},
        "additionalProperties": False,
    }

    @property
    def parallelism(self) -> int:  # type: ignore[override]
        return int(self.options["workers"])

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        import multiprocessing  # here: most commands never start a pool

        workers = min(self.options["workers"], len(items))
        if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
            yield from Serial().map(task, items, context, done)
            return
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers, initializer=_start_worker, initargs=(context,)) as pool:
            for i, result in enumerate(pool.imap(_run, [(task, item) for item in items])):
                if done is not None:
                    done(i)
                yield result


__all__ = ["Processes", "Serial"]
