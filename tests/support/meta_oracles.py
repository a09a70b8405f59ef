"""Independent, literal implementations of the meta-evaluation statistics, written from the
definitions (mt-metrics-eval's ``stats.py`` and ``tau_optimization.py``, the papers) for the
tests: O(n^2) pair loops in plain Python with exact fractions, no numpy tricks. They are slow
and only for small inputs."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction


def sign(v: float) -> int:
    return (v > 0) - (v < 0)


def counts(x: Sequence[float], y: Sequence[float], eps: float = 0.0) -> dict[str, int]:
    """con, dis, xtie (x only), ytie (y only), both; a metric (x) difference of at most eps is
    a tie."""
    out = dict.fromkeys(("con", "dis", "xtie", "ytie", "both"), 0)
    for (x1, y1), (x2, y2) in itertools.combinations(zip(x, y), 2):
        xt, yt = abs(x1 - x2) <= eps, y1 == y2
        if xt and yt:
            out["both"] += 1
        elif xt:
            out["xtie"] += 1
        elif yt:
            out["ytie"] += 1
        elif sign(x1 - x2) == sign(y1 - y2):
            out["con"] += 1
        else:
            out["dis"] += 1
    return out


def kendall(x: Sequence[float], y: Sequence[float], variant: str, eps: float = 0.0) -> float:
    """KendallVariants(gold=y, metric=x, variant, epsilon=eps)."""
    c = counts(x, y, eps)
    total = sum(c.values())
    xt, yt = c["xtie"] + c["both"], c["ytie"] + c["both"]
    if variant == "acc23":
        return (c["con"] + c["both"]) / total
    if xt == total or yt == total:
        return math.nan
    if variant == "b":
        return (c["con"] - c["dis"]) / math.sqrt(total - xt) / math.sqrt(total - yt)
    m = min(len(set(x)), len(set(y)))
    return 2 * (c["con"] - c["dis"]) / (len(x) ** 2 * (m - 1) / m)


def agreement(x: Sequence[float], y: Sequence[float]) -> tuple[int, int]:
    """mt-metrics-eval's Agreement: (agreeing pairs, pairs)."""
    agree = pairs = 0
    for (x1, y1), (x2, y2) in itertools.combinations(zip(x, y), 2):
        agree += sign(x1 - x2) == sign(y1 - y2)
        pairs += 1
    return agree, pairs


def tau_optimization(metric_rows: Sequence[Sequence[float]],
                     human_rows: Sequence[Sequence[float | None]]) -> tuple[Fraction, float]:
    """acc23 averaged over rows with its threshold optimised over every pair, as
    tau_optimization with sample rate 1 (exact fractions; the first best threshold)."""
    pairs = []
    rows = set()
    for r, (mrow, hrow) in enumerate(zip(metric_rows, human_rows)):
        kept = [(m, h) for m, h in zip(mrow, hrow) if h is not None]
        for (m1, h1), (m2, h2) in itertools.combinations(kept, 2):
            if h1 == h2 and m1 == m2:
                status = "both"
            elif h1 == h2:
                status = "h"
            elif m1 == m2:
                status = "m"
            elif (h1 > h2 and m1 > m2) or (h1 < h2 and m1 < m2):
                status = "con"
            else:
                status = "dis"
            pairs.append((abs(m1 - m2), r, status, "both" if h1 == h2 else "m"))
            rows.add(r)
    stats = {r: dict.fromkeys(("con", "dis", "h", "m", "both"), 0) for r in rows}
    for _, r, status, _ in pairs:
        stats[r][status] += 1

    def acc(s: dict[str, int]) -> Fraction:
        return Fraction(s["con"] + s["both"], sum(s.values()))

    total = sum(acc(s) for s in stats.values())
    thresholds, taus = [0.0], [total / len(rows)]
    for diff, r, status, tie in sorted(pairs, key=lambda p: p[0]):
        total -= acc(stats[r])
        stats[r][status] -= 1
        stats[r][tie] += 1
        total += acc(stats[r])
        if thresholds[-1] == diff:
            taus[-1] = total / len(rows)
        else:
            thresholds.append(diff)
            taus.append(total / len(rows))
    k = max(range(len(taus)), key=lambda i: (taus[i], -i))
    return taus[k], thresholds[k]


def assign_ranks(p: Sequence[Sequence[float]], alpha: float) -> list[int]:
    """mt-metrics-eval's AssignRanks on an upper-triangular p-value matrix."""
    ranks, current, start = [], 1, 0
    for i in range(len(p)):
        if any(p[k][i] <= alpha for k in range(start, i)):
            current += 1
            start = i
        ranks.append(current)
    return ranks


__all__ = ["agreement", "assign_ranks", "counts", "kendall", "sign", "tau_optimization"]
