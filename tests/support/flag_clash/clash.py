"""A metric written only for the test suite whose declared flag is one ``evalfw score``
already has (``--lowercase``, BLEU's): the command must refuse it with one line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

import evalfw


class Clash(evalfw.Metric):
    name = "clash"
    version = "1"
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object", "properties": {"lowercase": {"type": "boolean"}},
        "additionalProperties": False}
    cli_flags: ClassVar[tuple[evalfw.MetricFlag, ...]] = (
        evalfw.MetricFlag("lowercase", flag="lowercase"),)

    def segment_statistics(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        return np.zeros((len(hypotheses), 1), dtype=np.int64)

    def score(self, statistics: np.ndarray) -> float:
        return 0.0

    def signature(self, nrefs: int | str) -> str:
        return f"nrefs:{nrefs}"


@evalfw.hookimpl
def evalfw_register_metrics() -> list[type[evalfw.Metric]]:
    return [Clash]
