"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``progress(done, total, label)`` callback for :func:`evalfw.run`."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.started = time.monotonic()
        self.drawn = False

    @classmethod
    def for_terminal(cls, quiet: bool = False) -> ProgressBar | None:
        """A bar when stderr is a TTY and not ``quiet``; ``None`` otherwise (pipes and logs
        get no control characters)."""
        return None if quiet or not sys.stderr.isatty() else cls()

    def __call__(self, done: int, total: int, label: str) -> None:
        filled = self.width * done // total if total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.monotonic() - self.started
        self.stream.write(f"\r[{bar}] {done}/{total} {label} {elapsed:.0f}s\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


__all__ = ["ProgressBar"]
