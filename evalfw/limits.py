"""The one table of limits. The config schema, the command line and the readers all take their
bounds from here, so a value refused in a config is refused on the command line too, and every
read of a file stops at a size instead of at the end of memory.

Sizes can be raised for unusually large data with environment variables (named below); counts
are fixed: beyond them a computation would take longer than anyone waits.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evalfw.errors import ConfigError


@dataclass(frozen=True)
class Limit:
    """An integer setting's allowed range and what it is called in messages."""

    low: int
    high: int
    what: str

    def problem(self, value: int) -> str | None:
        """Why ``value`` is refused, or None."""
        if self.low <= value <= self.high:
            return None
        return f"{value} is out of range; {self.what} must be between {self.low:,} and {self.high:,}"

    def check(self, value: int, where: str) -> int:
        problem = self.problem(value)
        if problem:
            raise ConfigError(f"{where}: {problem}")
        return value

    def schema(self, **extra: Any) -> dict[str, Any]:
        """The JSON Schema of the setting: an integer within the bounds."""
        return {"type": "integer", "minimum": self.low, "maximum": self.high, **extra}

    def argtype(self) -> Callable[[str], int]:
        """An argparse ``type=``: the text as an integer within the bounds, else argparse's
        error (``evalfw: error: argument --X: ...``)."""
        def parse(text: str) -> int:
            value = parse_int(text)
            if value is None:
                raise argparse.ArgumentTypeError(f"expected an integer, got {text[:40]!r}")
            problem = self.problem(value)
            if problem:
                raise argparse.ArgumentTypeError(problem)
            return value

        parse.__name__ = self.what
        return parse


def parse_int(text: str) -> int | None:
    """``text`` as an integer of at most MAX_NUMBER_DIGITS digits, else None (Python itself
    refuses 4300 digits and more, with a ValueError that names no setting)."""
    text = text.strip()
    if len(text.lstrip("+-")) > MAX_NUMBER_DIGITS:
        return None
    try:
        return int(text)
    except ValueError:
        return None


#: integer settings, by the config key (and command-line option) that sets them
LIMITS: dict[str, Limit] = {
    "max_order": Limit(1, 100, "the n-gram order"),
    "samples": Limit(1, 1_000_000, "the number of bootstrap resamples"),
    "ar_trials": Limit(1, 10_000_000, "the number of approximate-randomization trials"),
    "seed": Limit(0, 2**32 - 1, "the seed"),
    "worst_segments": Limit(0, 100, "the number of worst segments kept per system"),
    "width": Limit(0, 17, "the number of decimals"),
    "jobs": Limit(1, 1024, "the number of worker processes"),
    "batch_size": Limit(1, 65536, "the batch size"),
    "char_order": Limit(0, 100, "the character n-gram order"),
    "word_order": Limit(0, 100, "the word n-gram order"),
    "beta": Limit(0, 1000, "beta"),
}

#: seconds evalfw waits at most for a Dask scheduler to answer (``connect_timeout``) or for a
#: worker to join it (``worker_timeout``): beyond that a run looks hung, not patient
MAX_WAIT_SECONDS = 600
#: LocalCluster worker processes per core at most (each is a process of ~100 MB; more than
#: one per core adds no speed to computing that holds the GIL)
LOCAL_WORKERS_PER_CORE = 2


def max_local_workers() -> int:
    """The most worker processes a Dask LocalCluster may start here: two per core, at least
    four (so a test of two workers runs on one core too)."""
    return max(4, LOCAL_WORKERS_PER_CORE * (os.cpu_count() or 1))


#: a config file (and a --set value) at most this many bytes
MAX_CONFIG_BYTES = 4 << 20
#: a plugin file (``--plugins-dir``, ``plugin_dirs:``) at most this many bytes
MAX_PLUGIN_FILE_BYTES = 4 << 20
#: the per-user trust list at most this many bytes (a few thousand paths)
MAX_TRUST_LIST_BYTES = 16 << 20
#: YAML nodes (scalars, lists, mappings) a config may hold: a real config has hundreds
MAX_CONFIG_NODES = 100_000
#: digits of a number in a config or a record (Python refuses to convert 4300 and more)
MAX_NUMBER_DIGITS = 100
#: nesting of lists and mappings in a record.json (a real one is about 10 deep)
MAX_RECORD_DEPTH = 64
#: columns of one metric's statistics rows in a stored run
MAX_STATISTICS_COLUMNS = 4096
#: the magnitude of a precomputed segment score (and of a float statistic) at most: far
#: beyond any model's scale, and small enough that sums (and sums of squares) over any number
#: of segments stay finite
MAX_ABS_SCORE = 1e100
#: the magnitude of an integer statistic at most (a count of one segment): far beyond any
#: count, and small enough that int64 sums over millions of segments never wrap around
MAX_ABS_COUNT = 1 << 40


def _bytes(name: str, default: int, unit: str = "bytes") -> int:
    """A positive size from the environment variable ``name`` (ASCII decimal digits), else
    ``default``."""
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_NUMBER_DIGITS \
            or int(text) < 1:
        raise ConfigError(f"${name}: expected a number of {unit} (a positive whole number, "
                          f"digits 0-9), got {text[:40]!r}")
    return int(text)


def max_input_bytes() -> int:
    """A text, score or source file at most this many bytes (``$EVALFW_MAX_INPUT_BYTES``,
    default 2 GiB)."""
    return _bytes("EVALFW_MAX_INPUT_BYTES", 2 << 30)


#: the memory the lines of one text input may take, as a multiple of the input limit: a
#: line costs its characters (1 to 4 bytes each, by the widest in it) plus about 57 bytes of
#: string header and list slot, so a file of short lines costs several times its size
LINE_MEMORY_FACTOR = 2


def max_line_memory() -> int:
    """The bytes of memory the lines of one text input may take at most:
    :data:`LINE_MEMORY_FACTOR` times :func:`max_input_bytes`."""
    return LINE_MEMORY_FACTOR * max_input_bytes()


def max_segment_chars() -> int:
    """A segment (one line of a system or reference) at most this many characters for the
    metrics whose cost grows steeply with a line's length: chrF and chrF++ take about
    0.6 KB and 1.2 KB per character of a line and its reference, so a 10 MB line would
    need 12 GB; TER's shift search on a 1 MB line takes tens of seconds
    (``$EVALFW_MAX_SEGMENT_CHARS``, default 100,000: a document of about 15,000 words)."""
    return _bytes("EVALFW_MAX_SEGMENT_CHARS", 100_000, "characters")


def max_record_bytes() -> int:
    """A ``record.json`` at most this many bytes (``$EVALFW_MAX_RECORD_BYTES``, 256 MiB)."""
    return _bytes("EVALFW_MAX_RECORD_BYTES", 256 << 20)


def max_segments_bytes() -> int:
    """A ``segments.npz`` at most this many bytes on disk and in any one array unpacked
    (``$EVALFW_MAX_SEGMENTS_BYTES``, default 4 GiB)."""
    return _bytes("EVALFW_MAX_SEGMENTS_BYTES", 4 << 30)


__all__ = [
    "LIMITS", "Limit", "LOCAL_WORKERS_PER_CORE", "MAX_ABS_COUNT", "MAX_ABS_SCORE", "parse_int",
    "MAX_CONFIG_BYTES",
    "MAX_CONFIG_NODES", "MAX_NUMBER_DIGITS", "MAX_RECORD_DEPTH", "MAX_STATISTICS_COLUMNS",
    "LINE_MEMORY_FACTOR", "MAX_PLUGIN_FILE_BYTES", "MAX_TRUST_LIST_BYTES", "MAX_WAIT_SECONDS",
    "max_input_bytes", "max_line_memory", "max_local_workers", "max_record_bytes",
    "max_segment_chars", "max_segments_bytes",
]
