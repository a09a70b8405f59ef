"""What a resample draws: single segments, or whole documents (within strata).

Segments of one document share a topic, a style and often a translator, so they are not
independent: resampling them one by one makes intervals too narrow and paired bootstraps
too eager when a test set is made of documents (every WMT test set is). :class:`Units` names
each segment's document (and, optionally, each document's stratum, such as its domain); the
bootstrap then draws whole documents with replacement, as many as there are, within each
stratum when strata are given, so every resample keeps the test set's mix of strata.

Nothing is re-scored per document: a document's row of statistics is the sum of its
segments' rows (:meth:`Units.group`), and every resample sums document rows exactly as it
summed segment rows, so the resampling machinery (:mod:`evalfw.analysis.resampling`) runs
unchanged on fewer, larger rows. Documents are numbered by the position of their last
segment, so the last document row holds the test set's last segment (a metric that reads a
resample's last row, such as NLTK's smoothing, reads it there).

With few documents the bootstrap is too narrow: its spread estimates the variance with a
factor ``(G - 1) / G`` for ``G`` documents, and its percentiles are normal ones where
``G - 1`` degrees of freedom call for Student's t. So the resampled scores are spread about
the observed ones by :func:`widening`: ``sqrt(G / (G - 1)) * t(G - 1) / z`` at the interval's
level (1.10 for 20 documents, 1.04 for 50, 1.01 for 181), the usual small-sample correction
of cluster-robust inference; intervals, paired tests and rank intervals all read the widened
scores (``benchmarks/calibration.py`` measures the coverage it buys).

Approximate randomization is a permutation test: under its null hypothesis the two systems'
outputs are exchangeable segment by segment, which stays true inside documents, so per-segment
swaps remain valid; :attr:`Units.ar` can ask for whole-document swaps instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from evalfw.analysis import resampling as rs
from evalfw.analysis._student import t_quantile
from evalfw.errors import InputError

#: resampling units: one segment, or one document
UNITS = ("segment", "document")


@dataclass(frozen=True, eq=False)
class StrataDraw:
    """Bootstrap indices of documents drawn within strata: column ``j`` of a resample draws
    uniformly among the documents of the stratum it belongs to (``members[start[j]:
    start[j] + size[j]]``), so each stratum keeps its number of documents. One
    ``Generator.integers`` call per block, element by element in row order, so blocks of any
    size draw the same stream (as :func:`evalfw.analysis.resampling.draw_indices`)."""

    members: np.ndarray
    start: np.ndarray
    size: np.ndarray

    def __call__(self, rng: np.random.Generator, segments: int, rows: int) -> np.ndarray:
        picks = rng.integers(0, self.size, size=(rows, len(self.size)), dtype=np.int64)
        return self.members[self.start + picks]


@dataclass(frozen=True, eq=False)
class Units:
    """The documents of a test set's segments: ``documents[i]`` is segment ``i``'s document
    number (0..D-1, numbered by the position of each document's last segment), ``strata[d]``
    document ``d``'s stratum number (None: no strata). ``ar`` says what approximate
    randomization swaps: ``segment`` (the default) or ``document``. ``strata_names`` are the
    strata as given (for the record)."""

    documents: np.ndarray
    strata: np.ndarray | None = None
    ar: str = "segment"
    strata_names: tuple[str, ...] = ()

    @classmethod
    def from_ids(cls, documents: Sequence[str], strata: Sequence[str] | None = None,
                 ar: str = "segment", where: str = "the documents") -> Units:
        """Units from one document id per segment (and one stratum label per segment, the
        same for every segment of a document)."""
        if ar not in UNITS:
            raise ValueError(f"ar unit must be one of {UNITS}, got {ar!r}")
        ids = np.asarray(list(documents), dtype=object)
        if len(ids) == 0:
            raise InputError(f"{where}: no segments")
        last: dict[str, int] = {}
        for i, doc in enumerate(ids.tolist()):
            last[doc] = i
        number = {doc: k for k, doc in enumerate(sorted(last, key=last.__getitem__))}
        docs = np.fromiter((number[d] for d in ids.tolist()), dtype=np.int64, count=len(ids))
        if strata is None:
            return cls(docs, None, ar)
        labels = list(strata)
        if len(labels) != len(ids):
            raise InputError(f"{where}: {len(labels)} strata labels for {len(ids)} segments")
        of_doc: dict[int, str] = {}
        for i, (d, label) in enumerate(zip(docs.tolist(), labels)):
            seen = of_doc.setdefault(d, label)
            if seen != label:
                raise InputError(f"{where}: document '{ids[i]}' is in two strata ('{seen}' and "
                                 f"'{label}', line {i + 1}); a document belongs to one stratum")
        names = tuple(sorted(set(of_doc.values())))
        index = {name: k for k, name in enumerate(names)}
        per_doc = np.array([index[of_doc[d]] for d in range(len(number))], dtype=np.int64)
        return cls(docs, per_doc, ar, names)

    @property
    def count(self) -> int:
        """Documents."""
        return int(self.documents.max()) + 1 if len(self.documents) else 0

    @property
    def segments(self) -> int:
        return len(self.documents)

    def unit(self, method: str) -> str:
        """What ``method`` (``bootstrap`` or ``ar``) resamples or swaps."""
        return self.ar if method == "ar" else "document"

    def subset(self, rows: np.ndarray) -> Units:
        """The units of the segments ``rows`` (a bucket): their documents' parts in it,
        renumbered, in the same strata."""
        ids = [str(d) for d in self.documents[rows].tolist()]
        if self.strata is None:
            return Units.from_ids(ids, None, self.ar)
        labels = [self.strata_names[s] for s in self.strata[self.documents[rows]].tolist()]
        return Units.from_ids(ids, labels, self.ar)

    def group(self, cols: rs.Columns) -> rs.Columns:
        """Document rows: each document's segment rows summed (exact for integer statistics)
        and, when the metric reads a resample's last row, its last segment's row."""
        order = np.argsort(self.documents, kind="stable")
        sizes = np.bincount(self.documents, minlength=self.count)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        sums = np.add.reduceat(cols.sums[order], starts, axis=0)
        last = None
        if cols.last is not None:
            ends = order[starts + sizes - 1]  # each document's last segment (stable order)
            last = cols.last[ends]
        return rs.Columns(sums, last, cols.size)

    def draw(self) -> rs.Draw:
        """How a bootstrap block of document indices is drawn."""
        if self.strata is None:
            return rs.draw_indices
        members = np.argsort(self.strata, kind="stable")
        sizes = np.bincount(self.strata)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        return StrataDraw(members, starts[self.strata[members]], sizes[self.strata[members]])

    def to_json(self) -> dict[str, Any]:
        return {"documents": self.count,
                "strata": list(self.strata_names) if self.strata is not None else None}


def bootstrap_units(units: Units | None) -> str:
    return "segment" if units is None else "document"


def widening(documents: int, level: float = 0.95) -> float:
    """How far resampled scores are spread about the observed ones for ``documents``
    documents: ``sqrt(G / (G - 1)) * t(G - 1) / z`` at the two-sided ``level`` (1 for a
    single document, whose resamples do not vary anyway)."""
    if documents < 2:
        return 1.0
    q = 1.0 - (1.0 - level) / 2.0
    return math.sqrt(documents / (documents - 1)) * t_quantile(q, documents - 1) / \
        NormalDist().inv_cdf(q)


__all__ = ["bootstrap_units", "StrataDraw", "UNITS", "Units", "widening"]
