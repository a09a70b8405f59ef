"""Built-in bucketers: group segments by reference length or by hypothesis length.

Bucket k holds lengths in ``[edges[k-1], edges[k])``; the first bucket everything below
``edges[0]`` and the last everything from ``edges[-1]`` on, so n edges give n + 1 buckets.
Labels read ``<10``, ``10-19``, ..., ``60+``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.analysis.bucketing import Bucketer
from evalfw.errors import ConfigError
from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import SegmentLengths

_EDGES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "edges": {
            "type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1,
            "default": [10, 20, 30, 40, 50, 60],
            "description": "increasing length boundaries; n edges make n + 1 buckets",
        }
    },
    "additionalProperties": False,
}


def edge_labels(edges: Sequence[int]) -> list[str]:
    labels = [f"<{edges[0]}"]
    labels += [f"{a}-{b - 1}" if b - 1 > a else str(a) for a, b in zip(edges, edges[1:])]
    labels.append(f"{edges[-1]}+")
    return labels


class _LengthBucketer(Bucketer):
    options_schema: ClassVar[dict[str, Any]] = _EDGES_SCHEMA

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        edges = list(self.options["edges"])
        if any(b <= a for a, b in zip(edges, edges[1:])):
            raise ConfigError(f"bucketer '{self.name}': edges must increase strictly, got {edges}; "
                              "write them in ascending order without repeats, e.g. [10, 20, 30]")

    def lengths(self, lengths: SegmentLengths) -> np.ndarray:
        raise NotImplementedError

    def assign(self, lengths: SegmentLengths) -> tuple[np.ndarray, list[str]]:
        import numpy as np  # at use: registering the plugin must not import numpy

        edges = np.asarray(self.options["edges"], dtype=np.int64)
        values = np.asarray(self.lengths(lengths), dtype=np.int64)
        index = np.searchsorted(edges, values, side="right")
        return np.where(values < 0, -1, index), edge_labels(list(self.options["edges"]))


class RefLength(_LengthBucketer):
    name = "ref-length"
    description = "bucket segments by the reference length (the metric's tokens)"

    def lengths(self, lengths: SegmentLengths) -> np.ndarray:
        return lengths.reference


class HypLength(_LengthBucketer):
    name = "hyp-length"
    description = "bucket segments by hypothesis length (the metric's tokens)"

    def lengths(self, lengths: SegmentLengths) -> np.ndarray:
        return lengths.hypothesis


@hookimpl
def evalfw_register_bucketers() -> list[type[Bucketer]]:
    return [RefLength, HypLength]


__all__ = ["edge_labels", "evalfw_register_bucketers", "HypLength", "RefLength"]
