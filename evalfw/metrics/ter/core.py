"""sacreBLEU 2.6.0's TER, exactly: statistics per segment and scores from them.

A segment's statistics row is ``[edits, ref_length]``: the fewest edits over its references
and the *average* length of all its references (not the best one's), as sacreBLEU keeps them.
The corpus score is ``100 * (sum(edits) / sum(ref_length))``; 100 when the references are
empty but the hypotheses are not, 0 when both are empty.

References are tokenized and mapped to integer ids once per test set
(:class:`PreparedReferences`), then every system's hypotheses are counted against them by the
compiled kernel (``_ter.c``) or its pure-Python twin (:mod:`evalfw.metrics.ter._shifts`).
"""

from __future__ import annotations

from array import array
from collections import namedtuple
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from evalfw.errors import InputError
from evalfw.metrics.ter import _shifts
from evalfw.metrics.ter.tokenizer import reference_tokens, tokenizer
from evalfw.plugin.native import CompiledKernel

if TYPE_CHECKING:
    import numpy as np

#: option names and sacreBLEU's defaults
DEFAULTS = {"normalized": False, "no_punct": False, "asian_support": False,
            "case_sensitive": False}


#: the optional C extension (built by ``pip install``)
COMPILED = CompiledKernel("evalfw.metrics.ter._ter", "Python")


def kernel() -> ModuleType | None:
    """The compiled module, or None (not built, or switched off with ``EVALFW_NATIVE=0``)."""
    return COMPILED.module()


def describe() -> str:
    """One line for ``evalfw plugins`` and run records: which code computes."""
    return COMPILED.describe()


class PreparedReferences(namedtuple("PreparedReferences",
                                     "options vocab ref_ids ref_offsets first ref_length")):
    """Reference token ids of a test set, for any number of systems.

    ``ref_ids[ref_offsets[k]:ref_offsets[k+1]]`` are the tokens of reference k; the references
    of segment i are ``k`` in ``first[i]:first[i+1]``; a hypothesis word not in ``vocab`` can
    match nothing and gets id -1. Offsets are ``array("q")``, the average reference lengths
    ``array("d")``: scoring plain systems needs no numpy (nor :mod:`dataclasses`).
    """

    __slots__ = ()

    @property
    def segments(self) -> int:
        return len(self.first) - 1

    @property
    def counts(self) -> array[int]:
        """References per segment (``array("q")``)."""
        first = self.first
        return array("q", [first[i + 1] - first[i] for i in range(len(first) - 1)])


def option_key(options: dict[str, Any]) -> tuple[bool, bool, bool, bool]:
    return tuple(bool(options[k]) for k in DEFAULTS)  # type: ignore[return-value]


def prepare(references: Sequence[Sequence[str | None]],
            options: tuple[bool, bool, bool, bool]) -> PreparedReferences:
    """Tokenize reference streams (``references[k][i]``; ``None``: segment i has no k-th
    reference). A segment without any reference is an error (sacreBLEU divides by zero)."""
    tokens = tokenizer(*options)
    segments = len(references[0]) if references else 0
    if any(len(stream) != segments for stream in references):
        raise InputError("TER: the reference streams have different numbers of lines")
    vocab: dict[str, int] = {}
    ids = array("i")
    offsets, first = [0], [0]
    ref_length: list[float] = []
    for i, lines in enumerate(zip(*references)):
        lengths = 0
        present = [line for line in lines if line is not None]
        if not present:
            raise InputError(f"TER: segment {i + 1} has no reference")
        for line in present:
            words = reference_tokens(tokens, line)
            ids.extend([vocab.setdefault(w, len(vocab)) for w in words])
            offsets.append(len(ids))
            lengths += len(words)
        first.append(first[-1] + len(present))
        # int / int, correctly rounded as in sacreBLEU
        ref_length.append(lengths / len(present))
    return PreparedReferences(options, vocab, ids, array("q", offsets), array("q", first),
                              array("d", ref_length))


def hypothesis_ids(hypotheses: Sequence[str], prepared: PreparedReferences
                   ) -> tuple[array[int], array[int]]:
    tokens = tokenizer(*prepared.options)
    get = prepared.vocab.get
    ids = array("i")
    offsets = [0]
    for line in hypotheses:
        ids.extend([get(w, -1) for w in tokens(line)])
        offsets.append(len(ids))
    return ids, array("q", offsets)


def _edits(hypotheses: Sequence[str], prepared: PreparedReferences) -> Sequence[int]:
    """Edits of every (segment, reference) pair, in reference order."""
    if len(hypotheses) != prepared.segments:
        raise InputError(f"TER: {len(hypotheses)} hypotheses but {prepared.segments} "
                         "reference segments")
    hyp_ids, hyp_off = hypothesis_ids(hypotheses, prepared)
    which = array("q", [i for i, n in enumerate(prepared.counts) for _ in range(n)])
    native = kernel()
    if native is not None:
        return memoryview(native.edits(hyp_ids, hyp_off, prepared.ref_ids,
                                       prepared.ref_offsets, which)).cast("q")
    ro = prepared.ref_offsets
    return [_shifts.pair_edits(hyp_ids[hyp_off[h]:hyp_off[h + 1]],
                               prepared.ref_ids[ro[k]:ro[k + 1]])
            for k, h in enumerate(which)]


def reference_edits(hypotheses: Sequence[str], prepared: PreparedReferences) -> np.ndarray:
    """Edits of every (segment, reference) pair, in reference order (int64)."""
    import numpy as np
    return np.asarray(_edits(hypotheses, prepared), dtype=np.int64)


def statistics(hypotheses: Sequence[str], prepared: PreparedReferences) -> np.ndarray:
    """The (n, 2) float64 rows ``[edits, ref_length]`` (edits are exact integers)."""
    import numpy as np
    edits = reference_edits(hypotheses, prepared)
    starts = np.asarray(prepared.first[:-1], dtype=np.int64)
    best = np.minimum.reduceat(edits, starts) if len(edits) else edits
    return np.column_stack([best.astype(np.float64), np.asarray(prepared.ref_length)])


def totals(statistics: np.ndarray) -> tuple[int, float]:
    """Column sums as sacreBLEU forms them: Python ``+=`` in segment order. The reference
    lengths are averages; with 3 references they are not binary fractions, so another order
    (numpy's pairwise ``sum``, ``math.fsum``) can change the last bit of the score.
    ``np.cumsum`` adds strictly left to right, which is that order."""
    import numpy as np
    if len(statistics) == 0:
        return 0, 0.0
    edits = int(statistics[:, 0].sum())  # integers below 2**53: exact in any order
    length = float(np.cumsum(statistics[:, 1])[-1])
    return edits, length


def score_of(edits: float, length: float) -> float:
    """sacreBLEU's ``_compute_score_from_stats``: divide first, then scale."""
    if length > 0:
        return 100 * (edits / length)
    return 100.0 if edits > 0 else 0.0


def scores_of(edits: np.ndarray, length: np.ndarray) -> np.ndarray:
    """:func:`score_of` on arrays (float64; the same IEEE operations in the same order)."""
    import numpy as np
    edits = np.asarray(edits, dtype=np.float64)
    length = np.asarray(length, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(length > 0, edits / np.where(length > 0, length, 1.0),
                         np.where(edits > 0, 1.0, 0.0))
    return 100 * ratio


def float32_value(sums: np.ndarray | Sequence[Any]) -> Any:
    """The score sacreBLEU's bootstrap computes from float32 column sums, of its type:
    :func:`score_of` on numpy float32 scalars (with numpy 2 the division and the scaling by 100
    stay in float32, while the fallbacks for empty references are Python floats)."""
    import numpy as np
    return score_of(np.float32(sums[0]), np.float32(sums[1]))  # type: ignore[arg-type]


__all__ = ["DEFAULTS", "describe", "float32_value", "kernel", "option_key", "prepare",
           "PreparedReferences", "reference_edits", "score_of", "scores_of", "statistics",
           "totals"]
