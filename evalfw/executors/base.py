"""The executor contract: run independent jobs, ``map``-style, and give results back in order.

The runner describes its work as a list of small, picklable *items* and one read-only
*context* they share (the texts, the metrics, prepared references). An executor calls
``task(context, item)`` for every item, wherever it likes, and yields the results in item
order; it reports each item as soon as its task finished (``done``), in any order, so the
progress bar counts finished tasks wherever they ran. Executors never change a number: the
record names the executor, but ``verify`` does not compare it. A new way of executing (a
cluster) is one new class and a hook.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from evalfw.errors import EvalfwError
from evalfw.plugin.component import Component

Item = TypeVar("Item")
Result = TypeVar("Result")


class ExecutorError(EvalfwError):
    """The executor failed the run (workers lost, a cluster that cannot be used); the message
    says what to do, and nothing was stored."""


class WorkerLost(ExecutorError):
    """The process computing item ``index`` of a map died (or the cluster gave up on it).
    Raised by ``map``'s results in item order; the caller knows what the item is and names
    it with :meth:`naming`."""

    def __init__(self, what: str, index: int, advice: str, job: str | None = None) -> None:
        self.what, self.index, self.advice = what, index, advice
        self.job = job if job is not None else f"job {index + 1}"
        super().__init__(f"{what} while computing {self.job}; nothing was stored; {advice}")

    def naming(self, job: str) -> WorkerLost:
        """The same failure, naming the job (e.g. the test set, system and metric)."""
        return WorkerLost(self.what, self.index, self.advice, job)


class Executor(Component):
    """Runs ``task(context, item)`` for every item (see the module docstring)."""

    kind = "executor"
    plural = "executors"
    #: True when jobs run in processes that receive the context pickled (a cluster): the
    #: runner then ships texts, and workers prepare references themselves, once each
    remote: ClassVar[bool] = False
    #: how many jobs run at once (blocks of resamples are sized by it)
    parallelism: int = 1
    #: True when ``map`` submits every task before returning and maps may be consumed side
    #: by side from several threads (the runner then streams stages and tables into it)
    streams: bool = False

    @abstractmethod
    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        """Results of ``task(context, item)`` in the order of ``items``. ``task`` is a
        module-level function (picklable by reference); ``context`` is shared read-only.
        ``done(i)`` is called in this thread, while the results are consumed, once item ``i``
        finished. A remote executor submits every task before returning, so the caller can
        start several maps and consume them in turn. A worker that dies computing item ``i``
        raises :class:`WorkerLost` (``index == i``) in this iterator, within bounded time."""

    def map_on(self, resources: Mapping[str, float], task: Callable[[Any, Item], Result],
               items: Sequence[Item], context: Any,
               done: Callable[[int], None] | None = None) -> Iterator[Result]:
        """:meth:`map`, on workers that have ``resources`` (Dask worker resources such as
        ``{"GPU": 1}``). An executor without such workers (this machine) runs it as ``map``."""
        return self.map(task, items, context, done)

    def plan(self, seconds: float) -> str | None:
        """Told, before scoring, about how many CPU seconds the run would take serially; a
        sentence for the terminal when that chooses something (``auto``). Default: None."""
        return None

    def record_entry(self) -> dict[str, Any]:
        """What the record says about this executor (name, options, size)."""
        return {"name": self.name, **dict(self.options)}

    def cancel(self) -> None:
        """Stop every task not finished yet (Ctrl-C); their results raise where awaited."""

    def close(self) -> None:
        """Release workers; called once the run no longer needs them."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Executor", "ExecutorError", "WorkerLost"]
