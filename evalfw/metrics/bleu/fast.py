"""Vectorized sentence scores for the built-in sacreBLEU family (``none``/``floor``/``add-k``/
``exp`` smoothing, ``sacrebleu`` mean, ``sacrebleu`` penalty formula).

The result equals :func:`evalfw.metrics.bleu.engine.score_counts` applied to every segment, bit for bit:

- additions, multiplications and divisions of float64 are correctly rounded in numpy exactly as
  in Python, and are done here in the order the scalar code does them;
- ``log`` and ``exp`` are *not* taken from numpy (its SIMD versions may differ from the C
  library in the last bit): they are the C library's, through the compiled kernel
  (:func:`evalfw.metrics.bleu.counting.kernel.log`), or ``math.log``/``math.exp`` mapped over plain floats;
- the sum of log precisions is a left-to-right sum up to Python 3.11; from 3.12 on the built-in
  ``sum`` compensates rounding, so there the exact built-in is mapped over the rows.

Anything else (plugins, subclasses, weights, a fractional add-k value) takes the generic path.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.metrics.bleu.counting import kernel as native
from evalfw.metrics.bleu.result import BleuScore
from evalfw.metrics.bleu.families.brevity import Closest, ClosestFirst, Shortest
from evalfw.metrics.bleu.families.sacrebleu import LOG_ZERO, AddK, Exp, Floor, NoSmoothing, SacreMean

if TYPE_CHECKING:
    from evalfw.metrics.bleu.spec import BleuSpec
    from evalfw.metrics.bleu.stats import SegmentStats

_SMOOTHERS = (NoSmoothing, Floor, AddK, Exp)
_PENALTIES = (Closest, ClosestFirst, Shortest)
#: Python >= 3.12 sums floats with compensation; mirror that with the built-in itself.
_PLAIN_SUM = sys.version_info < (3, 12)


def supports(spec: BleuSpec) -> bool:
    """Whether this module computes exactly what the generic path would for ``spec``."""
    sm = spec.smoothing
    return (
        type(sm) in _SMOOTHERS
        and type(spec.mean) is SacreMean
        and type(spec.brevity_penalty) in _PENALTIES
        and spec.brevity_penalty.options["formula"] == "sacrebleu"
        and spec.weights is None
        and not (type(sm) is AddK and type(sm.options["value"]) is not int)
    )


def penalties(hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """sacreBLEU's brevity penalty per segment: 1.0, 0.0 or exp(1 - r/c)."""
    bp = np.ones(len(hyp_len))
    short = hyp_len < ref_len
    bp[short & (hyp_len == 0)] = 0.0
    which = np.flatnonzero(short & (hyp_len > 0))
    if len(which):
        arg = 1 - ref_len[which] / hyp_len[which]
        bp[which] = native.exp(arg)
    return bp


def smooth(spec: BleuSpec, matches: np.ndarray, totals: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(precisions, reported matches, reported totals) for every row, as the smoother's
    ``smooth`` computes them one segment at a time."""
    sm = spec.smoothing
    n_seg, order = matches.shape
    correct, total = matches.copy(), totals.copy()
    prec = np.zeros((n_seg, order))
    # No match at all: precisions 0 and counts untouched (sacreBLEU #141).
    alive = matches.any(axis=1)
    zeros_seen = np.zeros(n_seg, dtype=np.int64)
    k = sm.options["value"] if type(sm) is AddK else 0
    for n in range(order):
        if n > 0 and k:
            correct[alive, n] += k
            total[alive, n] += k
        alive = alive & (total[:, n] != 0)  # an order without n-grams ends the walk
        rows = np.flatnonzero(alive)
        c, t = correct[rows, n], total[rows, n]
        p = 100.0 * c / t
        zero = c == 0
        if type(sm) is Exp:
            zeros_seen[rows[zero]] += 1
            state = np.ldexp(1.0, zeros_seen[rows[zero]])  # the doubled divisor, exactly
            p[zero] = 100.0 / (state * t[zero])
        elif type(sm) is Floor:
            p[zero] = 100.0 * sm.options["value"] / t[zero]
        prec[rows, n] = p
    return prec, correct, total


def _log_sum(logs: np.ndarray, eff: np.ndarray, log_lists: list[list[Any]] | None) -> np.ndarray:
    if _PLAIN_SUM:
        acc = logs[:, 0].copy()
        for n in range(1, logs.shape[1]):
            acc = np.where(eff > n, acc + logs[:, n], acc)
        return acc
    assert log_lists is not None
    return np.array([sum(row[:e]) for row, e in zip(log_lists, eff.tolist())], dtype=float)


def scores(spec: BleuSpec, prec: np.ndarray, correct: np.ndarray, total: np.ndarray,
           matched: np.ndarray, bp: np.ndarray) -> np.ndarray:
    """The ``sacrebleu`` mean per row (uniform weights)."""
    n_seg, order = prec.shape
    eff = np.full(n_seg, order, dtype=np.int64)
    if spec.mean.options["effective_order"]:
        reached = np.cumprod(total != 0, axis=1).sum(axis=1)
        eff = np.where(reached > 0, reached, order)
    logs = np.full(prec.shape, float(LOG_ZERO))
    pos = prec > 0
    logs[pos] = native.log(prec[pos])
    log_lists = None
    if not _PLAIN_SUM:  # the very objects the scalar code sums: int LOG_ZERO, float logs
        log_lists = [[lg if p > 0 else LOG_ZERO for lg, p in zip(lr, pr)]
                     for lr, pr in zip(logs.tolist(), prec.tolist())]
    mean = _log_sum(logs, eff, log_lists) / eff
    out = np.zeros(n_seg)
    rows = np.flatnonzero(matched)
    out[rows] = bp[rows] * native.exp(mean[rows])
    return out


def _compute(spec: BleuSpec, stats: SegmentStats, ref_len: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    order = spec.max_order
    matches, totals = stats.matches[:, :order], stats.totals[:, :order]
    bp = penalties(stats.hyp_len, ref_len)
    prec, correct, total = smooth(spec, matches, totals)
    return scores(spec, prec, correct, total, matches.any(axis=1), bp), prec, correct, total, bp


def sentence_values(spec: BleuSpec, stats: SegmentStats, ref_len: np.ndarray) -> np.ndarray:
    """Only the score of every segment, as float64 (what MBR, RL and filtering need)."""
    return _compute(spec, stats, ref_len)[0]


def sentence_scores(spec: BleuSpec, stats: SegmentStats, ref_len: np.ndarray,
                    nrefs: int | str) -> list[BleuScore]:
    """Every segment's :class:`BleuScore`, equal to the generic path's."""
    score, prec, correct, total, bp = _compute(spec, stats, ref_len)
    common = {
        "signature": spec.signature(nrefs),
        "sacrebleu_signature": spec.foreign_signature(nrefs),
        "score_scale": getattr(spec.mean, "score_scale", None) or spec.mean.scale,
        "precision_scale": spec.smoothing.scale,
        "name": "BLEU",
    }
    out: list[BleuScore] = []
    new = BleuScore.__new__
    put = object.__setattr__
    rows = zip(score.tolist(), map(tuple, prec.tolist()), map(tuple, correct.tolist()),
               map(tuple, total.tolist()), bp.tolist(), stats.hyp_len.tolist(), ref_len.tolist())
    for s, p, c, t, b, h, r in rows:
        # A frozen dataclass's __init__ sets 14 fields one object.__setattr__ at a time;
        # filling __dict__ in one go builds an equal object about six times faster.
        obj = new(BleuScore)
        put(obj, "__dict__", {"score": s, "precisions": p, "counts": c, "totals": t, "bp": b,
                              "hyp_len": h, "ref_len": r, "scores": (s,), "extra": {},
                              **common})
        out.append(obj)
    return out
