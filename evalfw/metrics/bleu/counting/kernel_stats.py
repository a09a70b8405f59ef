"""Statistics counted by the compiled kernel, kept as its int64 buffers until arrays are needed.

A corpus score needs only column sums, the chosen reference lengths' sum and the number of
references per segment; the kernel computes them from its buffers (``summarize``), so scoring a
corpus never imports numpy. Everything else (sentence scores,
records, resampling, third-party components) reads ``hyp_len``/``ref_lens``/``matches``/
``totals`` as always and gets the read-only numpy arrays of :class:`SegmentStats`, built on
first access.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from evalfw.metrics.bleu.stats import SegmentStats

if TYPE_CHECKING:
    import numpy as np

_ARRAYS = frozenset({"hyp_len", "ref_lens", "matches", "totals"})

#: the built-in reference-length rules, in the order ``summarize`` returns their sums
RULES = ("closest", "closest-first", "shortest")


def floor_totals(hyp_len: np.ndarray, max_order: int, floor: int) -> np.ndarray:
    """Hypothesis n-grams per order as the clipped counter defines them: max(len - n, floor)
    for n = 0 .. max_order - 1 (``floor`` = 1 is NLTK's per-segment minimum)."""
    import numpy as np

    orders = np.arange(max_order, dtype=np.int64)
    return np.maximum(hyp_len[:, None] - orders[None, :], floor)


class Summary(NamedTuple):
    """Corpus sums of a :class:`KernelStats` (see ``_clipcount.summarize``)."""

    hyp_len: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    ref_len: tuple[int, int, int]  # sum of the chosen reference lengths under each of RULES
    refs: int  # references per segment, -1 when it varies
    bad_row: int  # first row with a negative count or more matches than n-grams, -1 if none


def kernel_sums(stats: SegmentStats, penalty: Any) -> tuple[Summary, int] | None:
    """The kernel's sums of ``stats`` and the reference-length sum under ``penalty``'s rule,
    when the kernel counted and the penalty is a built-in rule it knows (``kernel_rule()``);
    None: sum the arrays."""
    if not isinstance(stats, KernelStats):
        return None
    rule = getattr(penalty, "kernel_rule", lambda: None)()
    if rule not in RULES:
        return None
    summary = stats.summary()
    return summary, summary.ref_len[RULES.index(rule)]


class KernelStats(SegmentStats):
    """A :class:`SegmentStats` backed by the kernel's buffers; arrays built on first access."""

    # set in __init__ (annotations only: the class is no dataclass of its own)
    _shape: tuple[int, int, int, int]
    _summary: Summary | None

    def __init__(self, kernel: ModuleType, hyp_len: bytes, matches: bytes, ref_lens: bytes,
                 lines: int, refs: int, max_order: int, floor: int) -> None:
        # The dataclass fields stay unset until __getattr__ builds them (see _materialize).
        object.__setattr__(self, "_raw", (hyp_len, matches, ref_lens))
        object.__setattr__(self, "_shape", (lines, refs, max_order, floor))
        object.__setattr__(self, "_kernel", kernel)
        object.__setattr__(self, "_summary", None)

    def __getattr__(self, name: str) -> Any:  # only called for attributes not yet set
        if name in _ARRAYS:
            self._materialize()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _materialize(self) -> None:
        import numpy as np

        hyp_len, matches, ref_lens = self._raw
        lines, refs, max_order, floor = self._shape
        h = np.frombuffer(hyp_len, np.int64)
        full = SegmentStats(h, np.frombuffer(ref_lens, np.int64).reshape(lines, refs),
                            np.frombuffer(matches, np.int64).reshape(lines, max_order),
                            floor_totals(h, max_order, floor))
        for name in _ARRAYS:
            object.__setattr__(self, name, getattr(full, name))

    def __len__(self) -> int:
        return self._shape[0]

    @property
    def max_order(self) -> int:
        return self._shape[2]

    def __reduce__(self) -> Any:  # pickled (e.g. to a worker process) as plain arrays
        return (SegmentStats, (self.hyp_len, self.ref_lens, self.matches, self.totals))

    def summary(self) -> Summary:
        summary = self._summary
        if summary is None:
            lines, refs, max_order, floor = self._shape
            summary = Summary(*self._kernel.summarize(*self._raw, lines, max_order, refs, floor))
            object.__setattr__(self, "_summary", summary)
        return summary

    def last_row(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """``SegmentStats.last_row`` read from the buffers (totals as in ``floor_totals``)."""
        _, _, max_order, floor = self._shape
        matches = memoryview(self._raw[1]).cast("q")
        hyp_len = memoryview(self._raw[0]).cast("q")[-1]
        return (tuple(matches[len(matches) - max_order:]),
                tuple(max(hyp_len - n, floor) for n in range(max_order)), hyp_len)


__all__ = ["floor_totals", "kernel_sums", "KernelStats", "RULES", "Summary"]
