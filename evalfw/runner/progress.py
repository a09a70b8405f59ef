"""Progress of a run, by stage: a live bar on a terminal, one log line per stage elsewhere.

A run has a few stages (config, statistics, significance when configured, store). The runner
reports them through :class:`Stages`, which calls ``stage_started``/``stage_finished`` on the
progress object when it has them, and calls the object itself with ``(done, total, label)``
as work inside a stage advances; a plain callable (the :func:`evalfw.run` API) receives only
the latter.

- :class:`BarProgress` (stderr is a terminal): a ``rich`` bar fitted to the terminal width,
  with the stage ``n/N``, the work done, elapsed time and an ETA; it leaves nothing behind.
- :class:`LogProgress` (a pipe, a file, CI): one line per finished stage, e.g.
  ``evalfw: [2/4] statistics: 132 cells in 3.1 s``, so a long run is never silent.

A stage whose work comes in parts that count on their own (the significance tables, each
with its tests) reports through :class:`StageWork`: one running total over the whole stage,
so the bar fills once per stage and its ETA is the stage's. A warning during a run (e.g.
that the resamples cannot reach alpha) goes through :func:`warn`: the progress object's
``warning`` line when it has one, else Python's :mod:`warnings`.
"""

from __future__ import annotations

import sys
import threading
import time
import warnings
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

__all__ = ["BarProgress", "for_stream", "LogProgress", "StagePart", "StageProgress", "Stages",
           "StageWork", "say", "warn"]


class StageProgress:
    """The stage protocol with do-nothing defaults; subclasses draw or log."""

    def stage_started(self, index: int, count: int, name: str) -> None:
        pass

    def stage_finished(self, index: int, count: int, name: str, detail: str,
                       seconds: float) -> None:
        pass

    def __call__(self, done: int, total: int, label: str) -> None:
        pass

    def warning(self, text: str) -> None:
        """A warning during the run, as ``evalfw: warning: <text>`` on stderr."""
        sys.stderr.write(f"evalfw: warning: {text}\n")
        sys.stderr.flush()

    def note(self, text: str) -> None:
        """Something the run chose (the executor); the stage lines carry it already, a
        transient bar prints it."""

    def close(self) -> None:
        pass


class LogProgress(StageProgress):
    """One line per finished stage on ``stream`` (no control characters)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr

    def stage_finished(self, index: int, count: int, name: str, detail: str,
                       seconds: float) -> None:
        what = f": {detail}" if detail else ""
        self.stream.write(f"evalfw: [{index}/{count}] {name}{what} in {seconds:.1f} s\n")
        self.stream.flush()

    def warning(self, text: str) -> None:
        self.stream.write(f"evalfw: warning: {text}\n")
        self.stream.flush()


class BarProgress(StageProgress):
    """A transient ``rich`` progress bar on ``stream`` (a terminal)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.console = Console(file=stream or sys.stderr)
        # the description column gives way first on a narrow terminal: rich shrinks the
        # flexible bar and crops text to the console width
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(bar_width=None),
                            MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("eta"),
                            TimeRemainingColumn(), console=self.console, transient=True,
                            expand=True)
        self.task: Any = None
        self.stage = ""
        self.bar.start()

    def stage_started(self, index: int, count: int, name: str) -> None:
        self.stage = f"[{index}/{count}] {name}"
        if self.task is not None:
            self.bar.remove_task(self.task)
        self.task = self.bar.add_task(self.stage, total=None)

    def __call__(self, done: int, total: int, label: str) -> None:
        if self.task is None:
            self.task = self.bar.add_task(label, total=None)
        self.bar.update(self.task, completed=done, total=total,
                        description=f"{self.stage} {label}".strip())

    def warning(self, text: str) -> None:
        self.note(f"warning: {text}")

    def note(self, text: str) -> None:
        # printed above the live bar, which stays where it is
        self.console.print(f"evalfw: {text}", markup=False, highlight=False, soft_wrap=True)

    def close(self) -> None:
        self.bar.stop()


def for_stream(quiet: bool = False, stream: TextIO | None = None) -> StageProgress | None:
    """Nothing when ``quiet``; a bar when ``stream`` (default stderr) is a terminal; else
    one log line per stage."""
    stream = stream or sys.stderr
    if quiet:
        return None
    return BarProgress(stream) if stream.isatty() else LogProgress(stream)


Progress = Callable[[int, int, str], None]


class Stages:
    """Numbered stages of one run, reported to ``progress`` (any callable, or ``None``)."""

    def __init__(self, progress: Progress | None, count: int) -> None:
        self.progress = progress
        self.count = count
        self.index = 0
        self.detail = ""

    @contextmanager
    def stage(self, name: str) -> Iterator[Stages]:
        """Run one stage; set :attr:`detail` inside it for the finishing line."""
        self.index += 1
        self.detail = ""
        started = time.monotonic()
        hook = getattr(self.progress, "stage_started", None)
        if hook is not None:
            hook(self.index, self.count, name)
        yield self
        hook = getattr(self.progress, "stage_finished", None)
        if hook is not None:
            hook(self.index, self.count, name, self.detail, time.monotonic() - started)


def say(progress: Any, text: str) -> None:
    """``text``, something the run chose, as a line above the command line's bar (stage
    lines and the record say it too)."""
    hook = getattr(progress, "note", None)
    if hook is not None:
        hook(text)


def warn(progress: Any, text: str, category: type[Warning] | None = None) -> None:
    """``text`` as a warning of the run: the ``warning`` line of ``progress`` when it has one
    (the command line's bar or log), else a ``category`` warning (default
    :class:`~evalfw.errors.ResolutionWarning`) through Python's :mod:`warnings` (a notebook
    shows it under the cell)."""
    hook = getattr(progress, "warning", None)
    if hook is not None:
        hook(text)
        return
    from evalfw.errors import ResolutionWarning

    warnings.warn(text, category or ResolutionWarning, stacklevel=3)


class StagePart:
    """One part of a :class:`StageWork`: call it with the part's own ``(done, total)``;
    :meth:`complete` marks it done whether or not it reported (some tests do not count)."""

    def __init__(self, work: StageWork, key: Hashable, size: int, label: str) -> None:
        self.work, self.key, self.size, self.label = work, key, size, label

    def __call__(self, done: int, total: int) -> None:
        self.work.advance(self.key, self.size * min(done, total) // max(total, 1), self.label)

    def complete(self) -> None:
        self.work.advance(self.key, self.size, self.label)


class StageWork:
    """The work of one stage as parts of known size, reported to ``progress`` (a callable
    taking ``(done, total, label)``, or None) as one total over the stage. Parts may report
    from several threads. Work that starts while an earlier stage still shows its bar is
    ``held``: counted, and reported from :meth:`release` on (when its own stage begins)."""

    def __init__(self, progress: Progress | None, total: int, held: bool = False) -> None:
        self.progress = progress
        self.total = total
        self.done: dict[Hashable, int] = {}
        self.lock = threading.Lock()
        self.held = held
        self.label = ""

    def part(self, key: Hashable, size: int, label: str) -> StagePart:
        return StagePart(self, key, size, label)

    def advance(self, key: Hashable, done: int, label: str) -> None:
        with self.lock:
            self.done[key] = max(done, self.done.get(key, 0))
            self.label = label
            if self.progress is not None and not self.held:
                self.progress(sum(self.done.values()), self.total, label)

    def release(self) -> None:
        """Report from now on, starting with what was done while held."""
        with self.lock:
            self.held = False
            if self.progress is not None and self.done:
                self.progress(sum(self.done.values()), self.total, self.label)
