"""Vectorized scores of many statistic rows at once, through the components' optional row
methods (``penalty_rows``, ``smooth_rows``, ``combine_rows``; see
:mod:`evalfw.metrics.bleu.components`).

The result equals :func:`evalfw.metrics.bleu.engine.score_counts` applied to every row, bit for
bit, because each component's row method promises exactly that for its own class (the
``vectorized`` capability flag, never inherited). The built-in sacreBLEU family declares it;
any plugin component may. When a component lacks the flag or declines (returns None), the
callers score row by row instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalfw.metrics.bleu._checks import check_rows
from evalfw.metrics.bleu.result import BleuScore
from evalfw.plugin.component import declares

if TYPE_CHECKING:
    import numpy as np

    from evalfw.metrics.bleu.spec import BleuSpec
    from evalfw.metrics.bleu.stats import SegmentStats


def supports(spec: BleuSpec) -> bool:
    """Whether every component scoring ``spec`` declares and accepts the row methods (a
    component may decline for some options, e.g. a fractional add-k value: probed on no
    rows)."""
    if not all(declares(c, "vectorized") for c in (spec.brevity_penalty, spec.smoothing,
                                                    spec.mean)):
        return False
    import numpy as np

    empty = np.zeros((0, spec.max_order), dtype=np.int64)
    return row_scores(spec, empty[:, 0], empty[:, 0], empty, empty) is not None


def row_scores(spec: BleuSpec, hyp_len: np.ndarray, ref_len: np.ndarray, matches: np.ndarray,
               totals: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """(scores, precisions, reported matches, reported totals, penalties) of every row, or
    None when a component declines."""
    import numpy as np

    bp = spec.brevity_penalty.penalty_rows(hyp_len, ref_len)
    if bp is None:
        return None
    smoothed = spec.smoothing.smooth_rows(matches, totals)
    if smoothed is None:
        return None
    prec, correct, total = smoothed
    scores = spec.mean.combine_rows(prec, total, np.asarray(matches.any(axis=1)), bp, spec.weights)
    if scores is None:
        return None
    check_rows(spec, scores, prec, bp)
    return scores, prec, correct, total, bp


def _compute(spec: BleuSpec, stats: SegmentStats, ref_len: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    order = spec.max_order
    out = row_scores(spec, stats.hyp_len, ref_len, stats.matches[:, :order],
                     stats.totals[:, :order])
    if out is None:
        raise ValueError("the components declined the row methods; check supports() first")
    return out


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
