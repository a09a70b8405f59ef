"""What the drop-in command line says besides its results, as sacreBLEU 2.6.0 says it.

- Log lines go to standard error as ``sacreBLEU: <message>``; with ``-q`` information is
  dropped and warnings and errors are printed bare (sacreBLEU then has no log handler and
  Python's last-resort handler prints the message alone).
- An error that makes sacreBLEU stop is :class:`Stop` (its lines, its exit status).
- Colours: ANSI codes on standard output only when it is a terminal and neither ``-nc`` nor a
  non-empty ``NO_COLOR`` turned them off (sacreBLEU's colorama strips them in a pipe).
"""

from __future__ import annotations

import os
import sys

__all__ = ["Console", "Stop"]

_CODES = {"red": "\x1b[31m", "green": "\x1b[32m", "yellow": "\x1b[33m", "cyan": "\x1b[36m"}
_RESET = "\x1b[0m"


class Stop(Exception):
    """sacreBLEU logs ``lines`` as errors (or warnings) and exits with ``status``."""

    def __init__(self, status: int, *lines: str) -> None:
        super().__init__(lines[-1] if lines else "")
        self.status = status
        self.lines = lines


class Console:
    """Standard error and colours of one run."""

    def __init__(self, quiet: bool = False, colours: bool = True) -> None:
        self.quiet = quiet
        self.colours = (colours and not os.environ.get("NO_COLOR")
                        and sys.stdout is not None and sys.stdout.isatty())

    def _write(self, message: str) -> None:
        sys.stderr.write(f"{message}\n" if self.quiet else f"sacreBLEU: {message}\n")

    def info(self, message: str) -> None:
        if not self.quiet:
            self._write(message)

    def warning(self, message: str) -> None:
        self._write(message)

    error = warning

    def paint(self, text: str, colour: str) -> str:
        """``text`` in a terminal colour (red, green, yellow, cyan), when colours are on."""
        return f"{_CODES[colour]}{text}{_RESET}" if self.colours else text
