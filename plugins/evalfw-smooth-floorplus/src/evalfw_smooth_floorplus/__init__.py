"""evalfw plugin: the ``floor-plus`` smoothing (an example of a third-party component).

Registered through the entry point ``floorplus`` of group ``evalfw``; evalfw calls the hook
below once per plugin host and instantiates the class with options from a config, validated
against ``options_schema``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import evalfw
from evalfw import Counts, Smoothed, Smoother

__version__ = "0.1.0"


class FloorPlus(Smoother):
    """Zero-match orders get a floor that decays geometrically over such orders."""

    name = "floor-plus"
    version = "1"
    scale = 100  # percent precisions, like sacreBLEU's smoothers: combine with mean 'sacrebleu'
    description = "floor/(total*decay^(k-1)) for the k-th zero-match order (percent scale)"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "floor": {"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 0.1,
                      "description": "numerator given to the first zero-match order"},
            "decay": {"type": "number", "minimum": 1, "default": 2,
                      "description": "each further zero-match order gets this much less"},
        },
        "additionalProperties": False,
    }

    def smooth(self, counts: Counts) -> Smoothed:
        if not any(counts.matches):
            # nothing matched at all: no floor can make that a translation (sacreBLEU agrees)
            zero = tuple(0.0 for _ in counts.matches)
            return Smoothed(zero, counts.matches, counts.totals)
        precisions: list[float] = []
        zeros = 0
        for matches, total in zip(counts.matches, counts.totals):
            if total == 0:
                precisions.append(0.0)
            elif matches == 0:
                zeros += 1
                denominator = total * self.options["decay"] ** (zeros - 1)
                precisions.append(100.0 * self.options["floor"] / denominator)
            else:
                precisions.append(100.0 * matches / total)
        return Smoothed(tuple(precisions), counts.matches, counts.totals)


@evalfw.hookimpl
def evalfw_register_smoothers() -> list[type[Smoother]]:
    return [FloorPlus]
