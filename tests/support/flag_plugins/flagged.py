"""A metric written only for the test suite to exercise ``Metric.cli_flags``: each option
kind (boolean switch, integer, number, string), a renamed flag and a short alias. Its score
reports its options back, so a test sees exactly what the command line gave it.

Statistics per segment: [hypothesis words, reference words].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

import evalfw


class Flagged(evalfw.Metric):
    name = "flagged"
    version = "1"
    description = "word-count ratio with options to exercise command-line flags (test metric)"
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object",
        "properties": {
            "scale": {"type": "number", "default": 100, "description": "what 1.0 prints as"},
            "offset": {"type": "integer", "default": 0, "description": "added to each count"},
            "ignore_case": {"type": "boolean", "default": False,
                            "description": "compare lowercased words"},
            "label": {"type": "string", "default": "x", "description": "signature label"},
        },
        "additionalProperties": False,
    }
    cli_flags: ClassVar[tuple[evalfw.MetricFlag, ...]] = (
        evalfw.MetricFlag("scale", short="-fs"),
        evalfw.MetricFlag("offset"),
        evalfw.MetricFlag("ignore_case"),
        evalfw.MetricFlag("label", flag="flag-label", help="a label for the signature"),
    )

    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        off = int(self.options.get("offset", 0))
        rows = [[len(h.split()) + off, len(r.split()) + off]
                for h, r in zip(hypotheses, references[0])]
        return np.array(rows, dtype=np.int64).reshape(len(hypotheses), 2)

    def score(self, statistics: np.ndarray) -> float:
        hyp, ref = statistics.sum(axis=0).tolist()
        return float(self.options.get("scale", 100)) * hyp / ref if ref else 0.0

    def signature(self, nrefs: int | str) -> str:
        o = self.options
        return (f"nrefs:{nrefs}|scale:{o.get('scale', 100)}|offset:{o.get('offset', 0)}"
                f"|case:{'lc' if o.get('ignore_case') else 'mixed'}|label:{o.get('label', 'x')}")


@evalfw.hookimpl
def evalfw_register_metrics() -> list[type[evalfw.Metric]]:
    return [Flagged]
