"""Built-in bucketers: group segments by reference length or by hypothesis length, counted in
the analysed metric's unit (``Metric.length_unit``: BLEU's tokens, chrF's characters, TER's
words).

Bucket k holds lengths in ``[edges[k-1], edges[k])``; the first bucket everything below
``edges[0]`` and the last everything from ``edges[-1]`` on, so n edges give n + 1 buckets.
Labels read ``<10``, ``10-19``, ..., ``60+``.

Edges given in the config are used as they are. Without them the edges follow the data
(:func:`data_edges`): round numbers near the quantiles of the lengths, so that every bucket
holds some segments and none more than half of them whenever the data allows it (it does not
when more than half the segments have one length), and then buckets below the analysis'
minimum size merged with a neighbour. Fixed edges cannot serve every unit: a chrF reference
of 60 characters is a short sentence.

``ref-length`` depends on no system (the reference's length); ``hyp-length`` groups by the
baseline's own hypotheses, so it is descriptive (:attr:`Bucketer.descriptive`): scores per
bucket, no tests. ``label`` groups by a per-segment label such as a document's domain.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.analysis.bucketing import Bucketer
from evalfw.errors import ConfigError
from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.base import SegmentLengths

#: buckets the data-driven edges aim at
TARGET_BUCKETS = 6

_EDGES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "edges": {
            "type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1,
            "description": "increasing length boundaries; n edges make n + 1 buckets "
                           "(default: round numbers near the quantiles of the lengths, so no "
                           "bucket holds more than half of the segments)",
        }
    },
    "additionalProperties": False,
}


def edge_labels(edges: Sequence[int]) -> list[str]:
    labels = [f"<{edges[0]}"]
    labels += [f"{a}-{b - 1}" if b - 1 > a else str(a) for a, b in zip(edges, edges[1:])]
    labels.append(f"{edges[-1]}+")
    return labels


def round_number(value: float) -> int:
    """``value`` rounded to a multiple of 1, 2 or 5 times a power of ten of about a fifth of
    it (37 -> 35, 143 -> 140, 1234 -> 1200); at least 1."""
    if value <= 1:
        return 1
    power = 10.0 ** math.floor(math.log10(value / 5))
    step = max((s * power for s in (1, 2, 5) if s * power <= value / 5), default=1.0)
    step = max(1.0, step)
    return max(1, int(round(value / step) * step))


def _counts(values: np.ndarray, edges: Sequence[int]) -> list[int]:
    import numpy as np

    index = np.searchsorted(np.asarray(edges, dtype=np.int64), values, side="right")
    counts: list[int] = np.bincount(index, minlength=len(edges) + 1).tolist()
    return counts


def _without_empty(values: np.ndarray, edges: list[int]) -> list[int]:
    """Drop edges that leave a bucket empty (below the shortest, above the longest, or a
    pair with nothing in between)."""
    kept: list[int] = []
    for edge in edges:
        low = kept[-1] if kept else None
        inside = values < edge if low is None else (values >= low) & (values < edge)
        if inside.any() and (values >= edge).any():
            kept.append(edge)
    return kept


def _merged(values: np.ndarray, edges: list[int], minimum: int) -> list[int]:
    """``edges`` without the ones that leave a bucket below ``minimum`` segments: the
    smallest bucket merges with its smaller neighbour until none is too small (or one
    bucket is left)."""
    edges = list(edges)
    while edges:
        counts = _counts(values, edges)
        small = min(range(len(counts)), key=lambda k: counts[k])
        if counts[small] >= minimum:
            break
        if small == 0:
            edges.pop(0)
        elif small == len(counts) - 1:
            edges.pop()
        else:  # drop the edge towards the smaller neighbour
            edges.pop(small - 1 if counts[small - 1] <= counts[small + 1] else small)
    return edges


def data_edges(values: np.ndarray, buckets: int = TARGET_BUCKETS,
               minimum: int = 1) -> list[int]:
    """Edges for lengths ``values`` (negative: no length): round numbers near the quantiles,
    then the largest bucket split at its median while it holds more than half of the
    segments and has more than one length in it, then buckets below ``minimum`` segments
    merged with a neighbour."""
    import numpy as np

    values = np.asarray(values, dtype=np.int64)
    values = values[values >= 0]
    if len(values) == 0:
        return [1]
    wanted = max(2, min(buckets, len(values) // 5 or 2))
    quantiles = np.quantile(values, [k / wanted for k in range(1, wanted)])
    edges = _without_empty(values, sorted({round_number(float(q)) for q in quantiles}))
    for _ in range(4 * buckets):  # each split adds an edge; bounded either way
        counts = _counts(values, edges)
        big = int(np.argmax(counts))
        if counts[big] * 2 <= len(values):
            break
        low = edges[big - 1] if big > 0 else None
        high = edges[big] if big < len(edges) else None
        inside = values[((values >= low) if low is not None else True)
                        & ((values < high) if high is not None else True)]
        median = int(np.median(inside))
        # a round cut first, else the exact one; a cut at the bucket's smallest length
        # would leave its lower part empty, so cut just above it instead
        floor = int(inside.min()) + 1
        cuts = [c for c in (round_number(median), median, floor) if c >= floor]
        new = next((c for c in cuts if c not in edges and (inside >= c).any()), None)
        if new is None:
            break  # one length holds the bucket: the data does not allow a finer split
        edges = sorted({*edges, new})
    if not edges:
        return [max(1, int(values.max()))]
    # merged into one bucket: its edge lies above every length, the next bucket is empty
    return _merged(values, edges, minimum) or [max(1, int(values.max()) + 1)]


class _LengthBucketer(Bucketer):
    # the edges actually used are recorded (``record_entry``), so a record made with other
    # default edges shows its own edges when verified; configured edges bucket as always
    options_schema: ClassVar[dict[str, Any]] = _EDGES_SCHEMA

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        edges = self.options.get("edges")
        if edges is not None and any(b <= a for a, b in zip(edges, edges[1:])):
            raise ConfigError(f"bucketer '{self.name}': edges must increase strictly, got {edges}; "
                              "write them in ascending order without repeats, e.g. [10, 20, 30]")
        self.minimum = 1

    def at_least(self, minimum: int) -> Bucketer:
        aiming = copy.copy(self)
        aiming.minimum = minimum
        return aiming

    def lengths(self, lengths: SegmentLengths) -> np.ndarray:
        raise NotImplementedError

    def edges(self, lengths: SegmentLengths) -> list[int]:
        """The configured edges, else :func:`data_edges` of these lengths."""
        given = self.options.get("edges")
        return list(given) if given is not None else \
            data_edges(self.lengths(lengths), minimum=self.minimum)

    def record_entry(self, lengths: SegmentLengths) -> dict[str, Any]:
        return {"edges": self.edges(lengths)}

    def assign(self, lengths: SegmentLengths) -> tuple[np.ndarray, list[str]]:
        import numpy as np  # at use: registering the plugin must not import numpy

        edges = self.edges(lengths)
        values = np.asarray(self.lengths(lengths), dtype=np.int64)
        index = np.searchsorted(np.asarray(edges, dtype=np.int64), values, side="right")
        return np.where(values < 0, -1, index), edge_labels(edges)


class RefLength(_LengthBucketer):
    name = "ref-length"
    description = "bucket segments by the reference length (in the metric's unit)"
    quantity = "reference length"

    def lengths(self, lengths: SegmentLengths) -> np.ndarray:
        return lengths.reference


class HypLength(_LengthBucketer):
    name = "hyp-length"
    description = ("bucket segments by the baseline's hypothesis length (in the metric's "
                   "unit); descriptive: no tests")
    quantity = "hypothesis length"
    descriptive = True

    def lengths(self, lengths: SegmentLengths) -> np.ndarray:
        if lengths.hypothesis is None:
            raise ConfigError(f"bucketer '{self.name}': the analysed metric reports no "
                              "hypothesis lengths (TER's statistics hold the reference length "
                              "only); bucket by ref-length, or analyse another metric")
        return lengths.hypothesis


class Label(Bucketer):
    name = "label"
    description = ("bucket segments by a label: a column of each test set's documents file "
                   "(e.g. domain), or of file")
    quantity = "label"
    reads_labels = True
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "column": {"type": "string",
                       "description": "the column holding each segment's label (e.g. domain); "
                                      "required"},
            "file": {"type": "string",
                     "description": "a TSV with this column, one row per segment of every "
                                    "test set (default: each test set's documents file)"},
        },
        "additionalProperties": False,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        for key in ("column", "file"):
            if key in self.options and not str(self.options[key]).strip():
                raise ConfigError(f"bucketer '{self.name}': {key} is empty")
        if "column" not in self.options:
            raise ConfigError(f"bucketer '{self.name}' needs the column its labels are in, "
                              "e.g. {name: label, column: domain}")

    @property
    def label_column(self) -> str:
        return str(self.options["column"])

    def assign(self, lengths: SegmentLengths) -> tuple[np.ndarray, list[str]]:
        raise ConfigError(f"bucketer '{self.name}' groups by labels, not lengths")

    def assign_labels(self, labels: Sequence[str]) -> tuple[np.ndarray, list[str]]:
        import numpy as np

        names = sorted(set(labels))
        index = {name: k for k, name in enumerate(names)}
        return np.fromiter((index[v] for v in labels), dtype=np.int64, count=len(labels)), names

    def record_entry(self, lengths: SegmentLengths) -> dict[str, Any]:
        return {"column": self.label_column}


@hookimpl
def evalfw_register_bucketers() -> list[type[Bucketer]]:
    return [RefLength, HypLength, Label]


__all__ = ["data_edges", "edge_labels", "evalfw_register_bucketers", "HypLength", "Label",
           "RefLength", "round_number", "TARGET_BUCKETS"]
