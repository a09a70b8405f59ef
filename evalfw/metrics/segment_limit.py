"""Refusing lines longer than a metric can score in bounded memory, before anything is
computed: the error names the file, the line, its length and the metric (see
:attr:`evalfw.metrics.base.Metric.max_segment_chars`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from evalfw.errors import InputError

if TYPE_CHECKING:
    from evalfw.io.text import TextFile
    from evalfw.metrics.base import Metric


def check_segment_lengths(files: Sequence[TextFile], metrics: Iterable[Metric]) -> None:
    """Raise an :class:`InputError` for the first line of ``files`` longer than the smallest
    limit of ``metrics`` (nothing to check when none has one)."""
    limits = [(m.max_segment_chars, m.name) for m in metrics if m.max_segment_chars is not None]
    if not limits:
        return
    limit, name = min(limits)
    for f in files:
        if max(map(len, f.lines), default=0) <= limit:  # the common case, at C speed
            continue
        i = next(i for i, line in enumerate(f.lines) if len(line) > limit)
        raise InputError(
            f"{f.path}:{i + 1}: a segment of {len(f.lines[i]):,} characters, more than metric "
            f"'{name}' scores (at most {limit:,}: its memory or time grows steeply with a segment's "
            "length); "
            "split the segment, or raise EVALFW_MAX_SEGMENT_CHARS=CHARACTERS if the machine "
            "has the memory and time")


__all__ = ["check_segment_lengths"]
