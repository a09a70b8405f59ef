"""What ``on_flag`` makes of a test set's flags: the statistics every conclusion (scores,
intervals, paired tests, buckets, the drill-down) is drawn from.

- ``keep``: the rows as the metric computed them; the flags are only shown.
- ``penalise``: each system's flagged rows replaced by the metric's worst rows for them
  (:meth:`~evalfw.metrics.base.Metric.worst_statistics`).
- ``exclude``: the rows of the segments flagged in *any* system dropped for every system of
  the test set (paired tests need the same segments), in segment order.

The statistics a run stores stay the metric's own rows; ``compare`` applies each run's
``on_flag`` to them the same way, from the flags its record lists (:meth:`Conclusions.of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric


@dataclass(frozen=True)
class Conclusions:
    """One test set's ``on_flag`` and flags (see the module docstring)."""

    on_flag: str = "keep"
    #: system -> one boolean per segment, flagged by any check (for ``penalise``)
    flagged: Mapping[str, np.ndarray] = field(default_factory=dict)
    #: 0-based indices of the segments kept (``exclude``; None otherwise)
    kept: np.ndarray | None = None

    @classmethod
    def of(cls, on_flag: str, entry: Mapping[str, Any] | None) -> Conclusions:
        """From a test set's entry of a record's ``checks`` section (None: no checks ran)."""
        if entry is None or on_flag == "keep":
            return cls()
        segments = int(entry["segments"])
        flagged = {}
        for item in entry["systems"]:
            mask = np.zeros(segments, dtype=bool)
            for found in item["flags"].values():
                mask[np.asarray(found, dtype=np.int64) - 1] = True
            flagged[item["system"]] = mask
        if on_flag == "penalise":
            return cls(on_flag, flagged)
        anywhere = np.zeros(segments, dtype=bool)
        for mask in flagged.values():
            anywhere |= mask
        return cls(on_flag, flagged, np.flatnonzero(~anywhere))

    @classmethod
    def of_record(cls, record: Mapping[str, Any], test_set: str) -> Conclusions:
        """A stored run's conclusions on ``test_set`` (none for a record without checks)."""
        checks = record.get("checks") or {}
        entry = next((e for e in checks.get("test_sets", []) if e["test_set"] == test_set),
                     None)
        return cls.of(checks.get("on_flag", "keep"), entry)

    def statistics(self, metric: Metric, system: str, rows: np.ndarray) -> np.ndarray:
        """``system``'s rows as the conclusions use them."""
        if self.on_flag == "exclude" and self.kept is not None:
            kept: np.ndarray = rows[self.kept]
            return kept
        return self.penalised(metric, system, rows)

    def dropped(self, segments: int) -> np.ndarray:
        """One boolean per segment: left out (``exclude``)."""
        mask = np.zeros(segments, dtype=bool)
        if self.kept is not None:
            mask[:] = True
            mask[self.kept] = False
        return mask

    def penalised(self, metric: Metric, system: str, rows: np.ndarray) -> np.ndarray:
        """``system``'s rows, its flagged ones replaced by the metric's worst under
        ``penalise`` (every segment kept)."""
        mask = self.flagged.get(system)
        if self.on_flag != "penalise" or mask is None or not mask.any():
            return rows
        out = rows.copy()
        out[mask] = metric.worst_statistics(rows[mask])
        return out

    def segment_numbers(self, segments: int) -> np.ndarray:
        """The 0-based segment index of each row :meth:`statistics` returns."""
        return self.kept if self.kept is not None else np.arange(segments)


__all__ = ["Conclusions"]
