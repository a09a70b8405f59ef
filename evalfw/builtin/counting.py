"""Built-in n-gram counter: clipped (modified) n-gram precision statistics.

For every hypothesis n-gram, matches are clipped to its largest count in any single reference
(the maximum, not the sum). ``total_floor`` = 1 reproduces NLTK, whose per-segment totals are
max(1, len - n + 1); sacreBLEU and Moses use the raw count (0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from evalfw.bleu.stats import ReferenceIndex, SegmentStats
from evalfw.components import NgramCounter
from evalfw.errors import InputError
from evalfw.plugin import hookimpl


def ngram_counts(tokens: Sequence[Hashable], max_order: int) -> Counter[tuple[Hashable, ...]]:
    """All n-grams of orders 1..max_order with their counts (tuples never collide across orders)."""
    counts: Counter[tuple[Hashable, ...]] = Counter()
    toks = tuple(tokens)
    for n in range(1, max_order + 1):
        counts.update(toks[i : i + n] for i in range(len(toks) - n + 1))
    return counts


class ClippedIndex(ReferenceIndex):
    """Per segment: the maximum count of each n-gram over that segment's references."""

    def __init__(self, maxref: list[dict[tuple[Hashable, ...], int]], ref_lens: np.ndarray,
                 max_order: int) -> None:
        self.maxref = maxref
        self.ref_lens = ref_lens
        self.segments = len(maxref)
        self.max_order = max_order


class Clipped(NgramCounter):
    """Clipped n-gram matches per order against the per-n-gram maximum over references."""

    name = "clipped"
    version = "1"
    description = "modified n-gram precision counts (Papineni et al. 2002); max over references"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "total_floor": {
                "type": "integer", "enum": [0, 1], "default": 0,
                "description": "per-segment minimum of each order's total (NLTK: 1)",
            }
        },
        "additionalProperties": False,
    }

    def index_references(
        self, references: Sequence[Sequence[Sequence[Hashable] | None]], max_order: int
    ) -> ClippedIndex:
        if not references:
            raise InputError("no references given; pass at least one reference stream")
        n_seg = len(references[0])
        for k, stream in enumerate(references):
            if len(stream) != n_seg:
                raise InputError(
                    f"reference stream {k + 1} has {len(stream)} segments but stream 1 has {n_seg}; "
                    "every reference stream needs one line per segment"
                )
        ref_lens = np.full((n_seg, len(references)), -1, dtype=np.int64)
        maxref: list[dict[tuple[Hashable, ...], int]] = []
        for i in range(n_seg):
            best: dict[tuple[Hashable, ...], int] = {}
            for k, stream in enumerate(references):
                toks = stream[i]
                if toks is None:
                    continue
                ref_lens[i, k] = len(toks)
                for gram, c in ngram_counts(toks, max_order).items():
                    if c > best.get(gram, 0):
                        best[gram] = c
            maxref.append(best)
        return ClippedIndex(maxref, ref_lens, max_order)

    def count(self, hypotheses: Sequence[Sequence[Hashable]], index: ReferenceIndex) -> SegmentStats:
        assert isinstance(index, ClippedIndex)
        if len(hypotheses) != index.segments:
            raise InputError(
                f"{len(hypotheses)} hypotheses but {index.segments} reference segments; "
                "hypotheses and references must have one line per segment"
            )
        order = index.max_order
        floor = self.options["total_floor"]
        n_seg = len(hypotheses)
        hyp_len = np.zeros(n_seg, dtype=np.int64)
        matches = np.zeros((n_seg, order), dtype=np.int64)
        totals = np.zeros((n_seg, order), dtype=np.int64)
        for i, hyp in enumerate(hypotheses):
            length = len(hyp)
            hyp_len[i] = length
            ref = index.maxref[i]
            row = matches[i]
            for gram, c in ngram_counts(hyp, order).items():
                m = ref.get(gram)
                if m:
                    row[len(gram) - 1] += c if c < m else m
            for n in range(order):
                totals[i, n] = max(floor, length - n)
        return SegmentStats(hyp_len, index.ref_lens, matches, totals)


@hookimpl
def evalfw_register_precisions() -> list[type[NgramCounter]]:
    return [Clipped]
