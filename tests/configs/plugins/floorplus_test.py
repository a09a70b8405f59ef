"""A local third-party plugin for the config tests: a smoothing with its own option schema."""

from __future__ import annotations

from typing import Any, ClassVar

import evalfw
from evalfw.metrics.bleu.components import Counts, Smoothed, Smoother


class FloorPlusTest(Smoother):
    name = "test-floorplus"
    scale = 100
    description = "test-only: zero-match orders get floor/total"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "floor": {"type": "number", "exclusiveMinimum": 0, "default": 0.5},
            "mode": {"enum": ["strict", "lenient"], "default": "strict"},
        },
        "additionalProperties": False,
    }

    def smooth(self, counts: Counts) -> Smoothed:
        precisions = tuple(
            100.0 * (m if m else self.options["floor"]) / t if t else 0.0
            for m, t in zip(counts.matches, counts.totals)
        )
        return Smoothed(precisions, counts.matches, counts.totals)


@evalfw.hookimpl
def evalfw_register_smoothers() -> list[type[Smoother]]:
    return [FloorPlusTest]
