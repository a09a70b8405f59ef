"""Built-in brevity penalties: how a segment's reference length is chosen, and the formula.

Rules: ``closest`` (closest reference, tie -> shorter; mteval-v13a, sacreBLEU, NLTK, Moses),
``closest-first`` (closest, tie -> first listed; torchtext, torchmetrics), ``shortest``
(HF evaluate ``bleu``, mteval before v13). The ``formula`` option picks the exact arithmetic and
return types of each tool, which matter for bit-exact results:

- ``sacrebleu``: 1.0 if c >= r; 0.0 if c == 0; else exp(1 - r/c);
- ``nltk``: int 1 if c > r; int 0 if c == 0; else exp(1 - r/c) (so c == r gives float 1.0).

The ``sacrebleu`` formula here is the reference that ``counting/_sacrebleu_formula.h`` computes
in C for many rows at once (:mod:`evalfw.metrics.bleu._rows`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, ClassVar

from evalfw.metrics.bleu.components import BrevityPenalty
from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    import numpy as np

_FORMULA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "formula": {
            "enum": ["sacrebleu", "nltk"],
            "default": "sacrebleu",
            "description": "penalty arithmetic: sacreBLEU's or NLTK's (return types differ)",
        }
    },
    "additionalProperties": False,
}

#: A missing reference (-1) must never be chosen; this makes its distance larger than any real one.
#: Also the multiplier of the distance in the sort key: keys stay below 2**62 (no int64 overflow).
_ABSENT = 1 << 31


class _Formula(BrevityPenalty):
    options_schema: ClassVar[dict[str, Any]] = _FORMULA

    def kernel_rule(self) -> str | None:
        """This penalty's rule if the compiled kernel can apply it (see
        ``evalfw.metrics.bleu.counting.kernel_stats.RULES``): only while ``choose_ref_len`` is the built-in
        one, so a subclass that redefines it is always asked itself."""
        return _RULE_OF.get(type(self).choose_ref_len)

    def penalty(self, hyp_len: int, ref_len: int) -> float | int:
        if self.options["formula"] == "nltk":
            if hyp_len > ref_len:
                return 1
            if hyp_len == 0:
                return 0
            return math.exp(1 - ref_len / hyp_len)
        if hyp_len < ref_len:
            return math.exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0
        return 1.0


def _closest(hyp_len: np.ndarray, ref_lens: np.ndarray, prefer_short: bool) -> np.ndarray:
    import numpy as np

    if len(hyp_len) == 1:  # one sentence: plain Python is several times faster than numpy here
        h, row = int(hyp_len[0]), ref_lens[0].tolist()
        keys = [(abs(r - h), r if prefer_short else k, r) for k, r in enumerate(row) if r >= 0]
        return np.array([min(keys)[2] if keys else -1], dtype=np.int64)
    present = ref_lens >= 0
    diff = np.where(present, np.abs(ref_lens - hyp_len[:, None]), _ABSENT)
    # Tie-break by length (shorter wins) or by position (first wins): encode it in the key.
    tie = ref_lens if prefer_short else np.arange(ref_lens.shape[1])[None, :]
    key = diff * _ABSENT + np.where(present, tie, 0)
    pick = np.argmin(key, axis=1) if ref_lens.shape[1] else np.zeros(len(hyp_len), np.int64)
    chosen = ref_lens[np.arange(len(hyp_len)), pick] if ref_lens.shape[1] else -np.ones_like(hyp_len)
    # A segment without any reference gets -1, as sacreBLEU does; the engine rejects such
    # input unless a compat layer asks for sacreBLEU's behaviour.
    return np.where(present.any(axis=1), chosen, -1) if ref_lens.shape[1] else chosen


class Closest(_Formula):
    name = "closest"
    description = "closest reference length, tie -> shorter (mteval-v13a, sacreBLEU, NLTK, Moses)"

    def choose_ref_len(self, hyp_len: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
        return _closest(hyp_len, ref_lens, prefer_short=True)


class ClosestFirst(_Formula):
    name = "closest-first"
    description = "closest reference length, tie -> first listed (torchtext, torchmetrics)"

    def choose_ref_len(self, hyp_len: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
        return _closest(hyp_len, ref_lens, prefer_short=False)


class Shortest(_Formula):
    name = "shortest"
    description = "shortest reference length (HF evaluate 'bleu', mteval before v13)"

    def choose_ref_len(self, hyp_len: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
        import numpy as np

        masked = np.where(ref_lens >= 0, ref_lens, np.iinfo(np.int64).max)
        out = masked.min(axis=1) if ref_lens.shape[1] else np.full(len(hyp_len), -1)
        return np.where(out == np.iinfo(np.int64).max, -1, out)


_RULE_OF = {cls.choose_ref_len: cls.name for cls in (Closest, ClosestFirst, Shortest)}


@hookimpl
def evalfw_register_brevity_penalties() -> list[type[BrevityPenalty]]:
    return [Closest, ClosestFirst, Shortest]


__all__ = ["Closest", "ClosestFirst", "evalfw_register_brevity_penalties", "Shortest"]
