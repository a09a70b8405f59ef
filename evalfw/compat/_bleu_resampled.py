"""sacreBLEU's BLEU of bootstrap resamples, without numpy, for the drop-in command line's
``-ci`` and ``--paired-bs`` (:mod:`evalfw.analysis.sacrebleu_lean`).

sacreBLEU sums each resample's statistics in float32 and runs ``compute_bleu`` on those
float32 values: numpy >= 2 keeps ``100. * correct / total`` (and the smoothed precisions) in
float32, while the lengths become ints and the logarithms, their sum and the brevity penalty
are Python floats. The compiled kernel computes the float32 part
(``_sacreboot.bleu_precisions``); the rest is below, in sacreBLEU's operations and order.
"""

from __future__ import annotations

from array import array
from math import exp, log

from evalfw.compat._bleu_score import LOG_ZERO, MAX_ORDER

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["resampled_bleu", "segment_rows", "SMOOTHING_CODES"]

#: the kernel's code of each smoothing method
SMOOTHING_CODES = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}
WIDTH = 2 + 2 * MAX_ORDER


def segment_rows(hyp_lens: Sequence[int], matches: Sequence[int],
                 ref_lens: Sequence[int]) -> bytes:
    """sacreBLEU's per-segment BLEU statistics ``[hyp_len, ref_len, correct.., total..]`` as an
    int64 buffer: ``matches`` holds MAX_ORDER counts per segment, ``ref_lens`` the closest
    reference length of each."""
    rows = array("q")
    for i, n in enumerate(hyp_lens):
        rows.append(n)
        rows.append(ref_lens[i])
        rows.extend(matches[i * MAX_ORDER:(i + 1) * MAX_ORDER])
        rows.extend(max(n - k, 0) for k in range(MAX_ORDER))
    return rows.tobytes()


def resampled_bleu(rows: bytes, n: int, words: tuple[int, int, int, int], smooth_method: str,
                   smooth_value: float | None, effective_order: bool) -> list[float]:
    """The BLEU score of each of ``n`` resamples of ``rows`` drawn with the seed words."""
    from evalfw.analysis import _sacreboot
    from evalfw.analysis.sacrebleu_lean import resampled_sums
    from evalfw.compat._bleu_score import SMOOTH_DEFAULTS

    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    sums = resampled_sums(rows, WIDTH, n, words)
    precisions, orders = _sacreboot.bleu_precisions(
        sums, WIDTH, MAX_ORDER, SMOOTHING_CODES[smooth_method],
        0.0 if smooth_value is None else float(smooth_value), effective_order)
    totals = memoryview(sums).cast("f").tolist()
    values = memoryview(precisions).cast("f").tolist()
    scores = []
    for r in range(n):
        eff = orders[r]
        if eff == 0:  # no match at all: sacreBLEU returns 0.0 before anything else
            scores.append(0.0)
            continue
        sys_len, ref_len = int(totals[r * WIDTH]), int(totals[r * WIDTH + 1])
        bp = 1.0
        if sys_len < ref_len:
            bp = exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        first = r * MAX_ORDER
        logs = [LOG_ZERO if p == 0.0 else log(p) for p in values[first:first + eff]]
        scores.append(bp * exp(sum(logs) / eff))
    return scores
