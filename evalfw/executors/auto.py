"""The ``auto`` executor (the default): this process or a pool of processes on this machine,
chosen once per run by the size of the work and the cores there are.

The runner estimates the run's serial CPU seconds before scoring (:meth:`Auto.plan`); a run
that would take less than ``min_seconds`` serially, or a machine with one usable core, runs
serially: forking workers and handing results back costs more than it gains there. Otherwise a
``processes`` pool of one worker per usable core (``workers`` to choose). The choice, the
estimate and the cores are in the record (``executor``) and on the terminal; the numbers never
depend on it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from evalfw.executors.base import Executor, Item, Result
from evalfw.executors.local import Processes, Serial
from evalfw.limits import LIMITS

#: below this many estimated serial seconds a run stays in this process
MIN_SECONDS = 3.0


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Auto(Executor):
    """``serial`` or ``processes``, by the run's size (see the module docstring)."""

    name = "auto"
    description = ("run serially, or in a pool of one process per core when the work is large "
                   "enough to gain (the default)")
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "workers": {**LIMITS["jobs"].schema(default=None, description="worker processes "
                                                "when a pool is chosen (none: one per core)"),
                        "type": ["integer", "null"]},
            "min_seconds": {"type": "number", "minimum": 0, "maximum": 1e9,
                            "default": MIN_SECONDS,
                            "description": "estimated serial seconds from which a pool is used"},
        },
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.cores = usable_cores()
        self.estimate: float | None = None
        self.chosen: Executor = Serial()

    def plan(self, seconds: float) -> str:
        """Choose for a run of about ``seconds`` of serial CPU time; the sentence that says
        the choice."""
        self.estimate = seconds
        workers = int(self.options["workers"] or self.cores)
        if workers >= 2 and self.cores >= 2 and seconds >= float(self.options["min_seconds"]):
            self.chosen = Processes(workers=workers)
            return (f"executor auto: {workers} worker processes (about {seconds:.1f} s of "
                    f"serial work, {self.cores} cores); --executor serial for one core")
        self.chosen = Serial()
        return (f"executor auto: serial (about {seconds:.1f} s of work, {self.cores} "
                f"core{'s' if self.cores != 1 else ''})")

    @property
    def parallelism(self) -> int:  # type: ignore[override]
        return self.chosen.parallelism

    def map(self, task: Callable[[Any, Item], Result], items: Sequence[Item], context: Any,
            done: Callable[[int], None] | None = None) -> Iterator[Result]:
        return self.chosen.map(task, items, context, done)

    @property
    def streams(self) -> bool:  # type: ignore[override]
        return self.chosen.streams

    def __enter__(self) -> Auto:
        self.chosen.__enter__()  # a pool kept between maps, as the chosen executor keeps it
        return self

    def cancel(self) -> None:
        self.chosen.cancel()

    def close(self) -> None:
        self.chosen.close()

    def record_entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "chose": self.chosen.name,
                               "cores": self.cores}
        if self.chosen.name == "processes":
            out["workers"] = self.chosen.parallelism
        if self.estimate is not None:
            out["estimated_serial_s"] = round(self.estimate, 3)
        return out


__all__ = ["Auto", "MIN_SECONDS", "usable_cores"]
